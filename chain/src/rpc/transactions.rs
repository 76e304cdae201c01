//! Sending, simulating and looking up transactions, with an agave node's size limits and error shapes.
use std::str::FromStr;

use base64::{engine::general_purpose::STANDARD as BASE64, Engine};
use serde_json::{json, Value};
use solana_sdk::{
    signature::Signature,
    transaction::{TransactionError, VersionedTransaction},
};
use solana_transaction_status::UiTransactionEncoding;

use super::{
    params::{config, param},
    with_context, RpcError, RpcResult,
};
use crate::state::{Chain, SendError};

/// Size limits of a transaction on the wire (one packet), raw and encoded, as an agave node checks them.
const PACKET_DATA_SIZE: usize = 1232;
const MAX_BASE58_SIZE: usize = 1683;
const MAX_BASE64_SIZE: usize = 1644;

fn decode_transaction(params: &[Value]) -> Result<VersionedTransaction, RpcError> {
    const TYPE: &str = "solana_transaction::versioned::VersionedTransaction";
    let encoded =
        param(params, 0)?.as_str().ok_or_else(|| RpcError::invalid_params("Invalid params: expected a string"))?;
    let config = config(params, 1);
    let encoding = config.get("encoding").and_then(Value::as_str).unwrap_or("base58");
    let max_encoded = match encoding {
        "base58" => MAX_BASE58_SIZE,
        "base64" => MAX_BASE64_SIZE,
        other => return Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other}"))),
    };
    if encoded.len() > max_encoded {
        return Err(RpcError::invalid_params(format!(
            "{encoding} encoded {TYPE} too large: {} bytes (max: encoded/raw {max_encoded}/{PACKET_DATA_SIZE})",
            encoded.len()
        )));
    }
    let bytes = match encoding {
        "base58" => {
            bs58::decode(encoded).into_vec().map_err(|_| RpcError::invalid_params("invalid base58 encoding"))?
        }
        _ => BASE64.decode(encoded).map_err(|_| RpcError::invalid_params("invalid base64 encoding"))?,
    };
    if bytes.len() > PACKET_DATA_SIZE {
        return Err(RpcError::invalid_params(format!(
            "decoded {TYPE} too large: {} bytes (max: {PACKET_DATA_SIZE} bytes)",
            bytes.len()
        )));
    }
    let tx: VersionedTransaction =
        bincode::deserialize(&bytes).map_err(|_| RpcError::invalid_params(format!("failed to deserialize {TYPE}")))?;
    tx.sanitize().map_err(|e| RpcError::invalid_params(format!("invalid transaction: {e}")))?;
    Ok(tx)
}

fn simulation_value(
    err: Option<&TransactionError>,
    logs: Vec<String>,
    units: u64,
    replacement_blockhash: Value,
) -> Value {
    json!({
        "err": err,
        "logs": logs,
        "accounts": null,
        "unitsConsumed": units,
        "returnData": null,
        "innerInstructions": null,
        "replacementBlockhash": replacement_blockhash,
        "loadedAccountsDataSize": null,
    })
}

pub(super) fn send_error(e: SendError) -> RpcError {
    match e {
        SendError::Simulation { err, logs, units } => RpcError {
            code: -32002,
            message: format!("Transaction simulation failed: {err}"),
            data: Some(simulation_value(Some(&err), logs, units, Value::Null)),
        },
        SendError::Rejected(err) => RpcError {
            code: -32002,
            message: format!("Transaction simulation failed: {err}"),
            data: Some(simulation_value(Some(&err), Vec::new(), 0, Value::Null)),
        },
        SendError::SignatureFailure => signature_failure(),
        SendError::Internal(message) => RpcError::internal(message),
    }
}

fn signature_failure() -> RpcError {
    RpcError { code: -32003, message: "Transaction signature verification failure".into(), data: None }
}

fn signature_param(value: &Value) -> Result<Signature, RpcError> {
    value
        .as_str()
        .and_then(|s| Signature::from_str(s).ok())
        .ok_or_else(|| RpcError::invalid_params("Invalid param: Invalid"))
}

fn signature_status(chain: &Chain, signature: &Signature) -> Value {
    chain
        .with_tx(signature, |tx| {
            let err = tx.meta.status.clone().err();
            json!({
                "slot": tx.slot,
                "confirmations": null,
                "err": err,
                "status": match &err { None => json!({ "Ok": null }), Some(e) => json!({ "Err": e }) },
                "confirmationStatus": "finalized",
            })
        })
        .unwrap_or(Value::Null)
}

pub async fn send(chain: &Chain, params: &[Value]) -> RpcResult {
    let tx = decode_transaction(params)?;
    let skip = config(params, 1).get("skipPreflight").and_then(Value::as_bool).unwrap_or(false);
    let signature = chain.send(tx, skip).await.map_err(send_error)?;
    Ok(json!(signature.to_string()))
}

pub async fn simulate(chain: &Chain, params: &[Value]) -> RpcResult {
    let mut tx = decode_transaction(params)?;
    let config = config(params, 1);
    let sig_verify = config.get("sigVerify").and_then(Value::as_bool).unwrap_or(false);
    let replace_blockhash = config.get("replaceRecentBlockhash").and_then(Value::as_bool).unwrap_or(false);
    if sig_verify && replace_blockhash {
        return Err(RpcError::invalid_params("sigVerify may not be used with replaceRecentBlockhash"));
    }
    if sig_verify && !tx.verify_with_results().into_iter().all(|ok| ok) {
        return Err(signature_failure());
    }
    // Wallets simulate before the user signs, with whatever blockhash the dapp put in.
    let replacement = if replace_blockhash {
        let (blockhash, last_valid_block_height) = chain.latest_blockhash().await?;
        tx.message.set_recent_blockhash(blockhash);
        json!({ "blockhash": blockhash.to_string(), "lastValidBlockHeight": last_valid_block_height })
    } else {
        Value::Null
    };
    let (err, logs, units) = chain.simulate(tx).await.map_err(RpcError::internal)?;
    with_context(chain, simulation_value(err.as_ref(), logs, units, replacement))
}

pub fn signature_statuses(chain: &Chain, params: &[Value]) -> RpcResult {
    let list =
        param(params, 0)?.as_array().ok_or_else(|| RpcError::invalid_params("Invalid params: expected an array"))?;
    if list.len() > 256 {
        return Err(RpcError::invalid_params("Too many inputs provided; max 256"));
    }
    let mut values = Vec::with_capacity(list.len());
    for item in list {
        values.push(signature_status(chain, &signature_param(item)?));
    }
    with_context(chain, Value::Array(values))
}

pub fn transaction(chain: &Chain, params: &[Value]) -> RpcResult {
    let signature = signature_param(param(params, 0)?)?;
    let config = config(params, 1);
    let encoding = match config.get("encoding").and_then(Value::as_str).unwrap_or("json") {
        "json" => UiTransactionEncoding::Json,
        "jsonParsed" => UiTransactionEncoding::JsonParsed,
        "base64" => UiTransactionEncoding::Base64,
        "base58" => UiTransactionEncoding::Base58,
        other => return Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other}"))),
    };
    let max_version = config.get("maxSupportedTransactionVersion").and_then(Value::as_u64).map(|v| v as u8);
    let Some(confirmed) = chain.with_tx(&signature, |tx| tx.confirmed()) else { return Ok(Value::Null) };
    let encoded = confirmed.encode(encoding, max_version).map_err(|e| RpcError {
        code: -32015,
        message: format!("Transaction version is not supported by the requesting client: {e}"),
        data: None,
    })?;
    serde_json::to_value(encoded).map_err(RpcError::internal)
}
