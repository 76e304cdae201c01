//! getSignaturesForAddress: the transactions naming an address, newest first, as an agave node answers it
//! (rpc.rs's get_signatures_for_address), from the transactions this node keeps. An operator reads a
//! treasury's payouts since a backup with it (docs/operations.md#backups).
use serde_json::{json, Value};
use solana_rpc_client_api::config::RpcSignaturesForAddressConfig;
use solana_sdk::signature::Signature;
use solana_transaction_status::{extract_memos::extract_and_fmt_memos, TransactionWithStatusMeta};

use super::{
    params::{parse, pubkey, signature},
    RpcError, RpcResult,
};
use crate::state::Validator;

/// agave's MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT: the default and the most one call returns.
const MAX_LIMIT: usize = 1000;

pub fn signatures_for_address(validator: &Validator, params: &[Value]) -> RpcResult {
    let (address, config): (String, Option<RpcSignaturesForAddressConfig>) = parse(params)?;
    let address = pubkey(&address)?;
    let config = config.unwrap_or_default();
    let limit = config.limit.unwrap_or(MAX_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(RpcError::invalid_params(format!("Invalid limit; max {MAX_LIMIT}")));
    }
    let before: Option<Signature> = config.before.as_deref().map(signature).transpose()?;
    let until: Option<Signature> = config.until.as_deref().map(signature).transpose()?;
    let mut found = Vec::new();
    // Newest first; after `before` (exclusive) when given, down to `until` (exclusive).
    let mut started = before.is_none();
    validator.newest_first(|tx| {
        let sig = &tx.transaction.signatures[0];
        if !started {
            started = before.as_ref() == Some(sig);
            return true;
        }
        if until.as_ref() == Some(sig) {
            return false;
        }
        let loaded = &tx.meta.loaded_addresses;
        let names = tx.transaction.message.static_account_keys().contains(&address)
            || loaded.writable.iter().chain(&loaded.readonly).any(|key| *key == address);
        if names {
            let memo = match tx.confirmed().tx_with_meta {
                TransactionWithStatusMeta::Complete(complete) => extract_and_fmt_memos(&complete),
                TransactionWithStatusMeta::MissingMetadata(_) => None,
            };
            found.push(json!({
                "signature": sig.to_string(),
                "slot": tx.slot,
                "err": tx.meta.status.clone().err(),
                "memo": memo,
                "blockTime": tx.block_time,
                // Every transaction that landed here is final (as getSignatureStatuses says).
                "confirmationStatus": "finalized",
            }));
        }
        found.len() < limit
    });
    Ok(Value::Array(found))
}
