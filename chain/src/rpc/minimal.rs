//! What any node answers about itself and the cluster (agave's rpc_minimal and rpc_bank); the answers
//! that read no parameters and no state are given in `dispatch`.
use serde_json::{json, Value};
use solana_rpc_client_api::config::RpcContextConfig;
use solana_sdk::{commitment_config::CommitmentConfig, epoch_schedule::EpochSchedule};

use super::{params::parse, RpcError, RpcResult};
use crate::state::Validator;

/// The largest account there can be (10 MiB).
const MAX_PERMITTED_DATA_LENGTH: usize = 10 * 1024 * 1024;

/// getSlot, getBlockHeight and getTransactionCount: a count as of now (every commitment is the same here).
pub fn count(params: &[Value], count: impl FnOnce() -> u64) -> RpcResult {
    let _: (Option<RpcContextConfig>,) = parse(params)?;
    Ok(json!(count()))
}

pub async fn epoch_info(validator: &Validator, params: &[Value]) -> RpcResult {
    let _: (Option<RpcContextConfig>,) = parse(params)?;
    let slot = validator.slot();
    let block_height = validator.block_height();
    let schedule: EpochSchedule = validator.sysvar().await.map_err(RpcError::internal)?;
    let (epoch, slot_index) = schedule.get_epoch_and_slot_index(slot);
    Ok(json!({
        "absoluteSlot": slot,
        "blockHeight": block_height,
        "epoch": epoch,
        "slotIndex": slot_index,
        "slotsInEpoch": schedule.get_slots_in_epoch(epoch),
        "transactionCount": validator.transaction_count(),
    }))
}

pub async fn minimum_balance_for_rent_exemption(validator: &Validator, params: &[Value]) -> RpcResult {
    let (size, _): (usize, Option<CommitmentConfig>) = parse(params)?;
    if size > MAX_PERMITTED_DATA_LENGTH {
        return Err(RpcError::invalid_request("Invalid request"));
    }
    let rent: solana_sdk::rent::Rent = validator.sysvar().await.map_err(RpcError::internal)?;
    Ok(json!(rent.minimum_balance(size)))
}
