//! Blockhashes and fees: what a client needs to build a transaction that lands.
use base64::{engine::general_purpose::STANDARD as BASE64, Engine};
use serde_json::{json, Value};
use solana_rpc_client_api::config::RpcContextConfig;
use solana_sdk::message::VersionedMessage;

use super::{
    params::{hash, parse},
    with_context, RpcError, RpcResult,
};
use crate::state::Validator;

pub async fn latest_blockhash(validator: &Validator, params: &[Value]) -> RpcResult {
    let _: (Option<RpcContextConfig>,) = parse(params)?;
    let (blockhash, last_valid) = validator.latest_blockhash().await?;
    with_context(validator, json!({ "blockhash": blockhash.to_string(), "lastValidBlockHeight": last_valid }))
}

pub async fn is_blockhash_valid(validator: &Validator, params: &[Value]) -> RpcResult {
    let (blockhash, _): (String, Option<RpcContextConfig>) = parse(params)?;
    let valid = validator.is_blockhash_valid(&hash(&blockhash)?).await?;
    with_context(validator, json!(valid))
}

pub async fn fee_for_message(validator: &Validator, params: &[Value]) -> RpcResult {
    let (encoded, _): (String, Option<RpcContextConfig>) = parse(params)?;
    let bytes = BASE64.decode(encoded).map_err(|_| RpcError::invalid_params("invalid base64 encoding"))?;
    let message: VersionedMessage =
        bincode::deserialize(&bytes).map_err(|_| RpcError::invalid_params("invalid message"))?;
    message.sanitize().map_err(|e| RpcError::invalid_params(format!("invalid message: {e}")))?;
    with_context(validator, json!(validator.fee_for_message(&message).await?))
}
