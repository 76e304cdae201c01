//! What any node answers about itself and the cluster (agave's rpc_minimal and rpc_bank): the methods
//! without state of their own are answered in `dispatch`.
use serde_json::{json, Value};
use solana_sdk::epoch_schedule::EpochSchedule;

use super::{params::param, RpcError, RpcResult};
use crate::state::Chain;

/// The largest account there can be (10 MiB).
const MAX_PERMITTED_DATA_LENGTH: u64 = 10 * 1024 * 1024;

pub async fn epoch_info(chain: &Chain) -> RpcResult {
    let slot = chain.slot();
    let block_height = chain.block_height();
    let schedule: EpochSchedule = chain.banks.get_sysvar().await.map_err(RpcError::internal)?;
    let (epoch, slot_index) = schedule.get_epoch_and_slot_index(slot);
    Ok(json!({
        "absoluteSlot": slot,
        "blockHeight": block_height,
        "epoch": epoch,
        "slotIndex": slot_index,
        "slotsInEpoch": schedule.get_slots_in_epoch(epoch),
        "transactionCount": chain.transaction_count(),
    }))
}

pub async fn minimum_balance_for_rent_exemption(chain: &Chain, params: &[Value]) -> RpcResult {
    let size = param(params, 0)?.as_u64().ok_or_else(|| RpcError::invalid_params("Invalid params: expected a size"))?;
    if size > MAX_PERMITTED_DATA_LENGTH {
        return Err(RpcError::invalid_request("Invalid request"));
    }
    let rent = chain.banks.get_rent().await.map_err(RpcError::internal)?;
    Ok(json!(rent.minimum_balance(size as usize)))
}
