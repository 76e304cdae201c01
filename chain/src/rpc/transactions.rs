//! Sending, simulating and looking up transactions, with an agave node's size limits and error shapes.
use base64::{engine::general_purpose::STANDARD as BASE64, Engine};
use serde_json::{json, Value};
use solana_rpc_client_api::config::{
    RpcEncodingConfigWrapper, RpcSendTransactionConfig, RpcSignatureStatusConfig, RpcSimulateTransactionConfig,
    RpcTransactionConfig,
};
use solana_sdk::{
    signature::Signature,
    transaction::{TransactionError, VersionedTransaction},
};
use solana_transaction_status::{TransactionBinaryEncoding, UiTransactionEncoding};

use super::{
    params::{parse, signature},
    with_context, RpcError, RpcResult,
};
use crate::state::{SendError, Validator};

/// Size limits of a transaction on the wire (one packet), raw and encoded, as an agave node checks them.
const PACKET_DATA_SIZE: usize = 1232;
const MAX_BASE58_SIZE: usize = 1683;
const MAX_BASE64_SIZE: usize = 1644;

/// A transaction as sendTransaction and simulateTransaction take it (base58 unless the config says base64).
fn decode_transaction(
    encoded: &str,
    encoding: Option<UiTransactionEncoding>,
) -> Result<VersionedTransaction, RpcError> {
    const TYPE: &str = "solana_transaction::versioned::VersionedTransaction";
    let encoding = encoding.unwrap_or(UiTransactionEncoding::Base58);
    let (binary, max_encoded) = match encoding.into_binary_encoding() {
        Some(binary @ TransactionBinaryEncoding::Base58) => (binary, MAX_BASE58_SIZE),
        Some(binary @ TransactionBinaryEncoding::Base64) => (binary, MAX_BASE64_SIZE),
        None => {
            return Err(RpcError::invalid_params(format!(
                "unsupported encoding: {encoding}. Supported encodings: base58, base64"
            )))
        }
    };
    if encoded.len() > max_encoded {
        return Err(RpcError::invalid_params(format!(
            "{encoding} encoded {TYPE} too large: {} bytes (max: encoded/raw {max_encoded}/{PACKET_DATA_SIZE})",
            encoded.len()
        )));
    }
    let bytes = match binary {
        TransactionBinaryEncoding::Base58 => {
            bs58::decode(encoded).into_vec().map_err(|_| RpcError::invalid_params("invalid base58 encoding"))?
        }
        TransactionBinaryEncoding::Base64 => {
            BASE64.decode(encoded).map_err(|_| RpcError::invalid_params("invalid base64 encoding"))?
        }
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

fn signature_status(validator: &Validator, signature: &Signature) -> Value {
    validator
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

pub async fn send(validator: &Validator, params: &[Value]) -> RpcResult {
    let (encoded, config): (String, Option<RpcSendTransactionConfig>) = parse(params)?;
    let config = config.unwrap_or_default();
    let tx = decode_transaction(&encoded, config.encoding)?;
    let signature = validator.send(tx, config.skip_preflight).await.map_err(send_error)?;
    Ok(json!(signature.to_string()))
}

pub async fn simulate(validator: &Validator, params: &[Value]) -> RpcResult {
    let (encoded, config): (String, Option<RpcSimulateTransactionConfig>) = parse(params)?;
    let config = config.unwrap_or_default();
    let mut tx = decode_transaction(&encoded, config.encoding)?;
    if config.sig_verify && config.replace_recent_blockhash {
        return Err(RpcError::invalid_params("sigVerify may not be used with replaceRecentBlockhash"));
    }
    if config.sig_verify && !tx.verify_with_results().into_iter().all(|ok| ok) {
        return Err(signature_failure());
    }
    // Wallets simulate before the user signs, with whatever blockhash the dapp put in.
    let replacement = if config.replace_recent_blockhash {
        let (blockhash, last_valid_block_height) = validator.latest_blockhash().await?;
        tx.message.set_recent_blockhash(blockhash);
        json!({ "blockhash": blockhash.to_string(), "lastValidBlockHeight": last_valid_block_height })
    } else {
        Value::Null
    };
    let (err, logs, units) = validator.simulate(tx).await.map_err(RpcError::internal)?;
    with_context(validator, simulation_value(err.as_ref(), logs, units, replacement))
}

pub fn signature_statuses(validator: &Validator, params: &[Value]) -> RpcResult {
    let (signatures, _): (Vec<String>, Option<RpcSignatureStatusConfig>) = parse(params)?;
    if signatures.len() > 256 {
        return Err(RpcError::invalid_params("Too many inputs provided; max 256"));
    }
    let mut values = Vec::with_capacity(signatures.len());
    for s in &signatures {
        values.push(signature_status(validator, &signature(s)?));
    }
    with_context(validator, Value::Array(values))
}

pub fn transaction(validator: &Validator, params: &[Value]) -> RpcResult {
    let (given, config): (String, Option<RpcEncodingConfigWrapper<RpcTransactionConfig>>) = parse(params)?;
    let signature = signature(&given)?;
    let config = config.map(|c| c.convert_to_current()).unwrap_or_default();
    let encoding = match config.encoding.unwrap_or(UiTransactionEncoding::Json) {
        encoding @ (UiTransactionEncoding::Json
        | UiTransactionEncoding::JsonParsed
        | UiTransactionEncoding::Base64
        | UiTransactionEncoding::Base58) => encoding,
        other => return Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other}"))),
    };
    let Some(confirmed) = validator.with_tx(&signature, |tx| tx.confirmed()) else { return Ok(Value::Null) };
    let encoded = confirmed.encode(encoding, config.max_supported_transaction_version).map_err(|e| RpcError {
        code: -32015,
        message: format!("Transaction version is not supported by the requesting client: {e}"),
        data: None,
    })?;
    serde_json::to_value(encoded).map_err(RpcError::internal)
}
