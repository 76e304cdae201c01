//! Reading a request's positional parameters.
use std::str::FromStr;

use serde_json::Value;
use solana_account_decoder::UiAccountEncoding;
use solana_sdk::pubkey::Pubkey;

use super::RpcError;

pub fn param(params: &[Value], i: usize) -> Result<&Value, RpcError> {
    params.get(i).ok_or_else(|| RpcError::invalid_params(format!("Invalid params: missing parameter {i}")))
}

pub fn pubkey_param(params: &[Value], i: usize) -> Result<Pubkey, RpcError> {
    let s = param(params, i)?.as_str().ok_or_else(|| RpcError::invalid_params("Invalid param: expected a string"))?;
    Pubkey::from_str(s).map_err(|_| RpcError::invalid_params("Invalid param: Invalid"))
}

pub fn config(params: &[Value], i: usize) -> &Value {
    params.get(i).filter(|v| v.is_object()).unwrap_or(&Value::Null)
}

pub fn encoding_of(config: &Value, default: UiAccountEncoding) -> Result<UiAccountEncoding, RpcError> {
    match config.get("encoding").and_then(Value::as_str) {
        None => Ok(default),
        Some("base58") => Ok(UiAccountEncoding::Base58),
        Some("base64") => Ok(UiAccountEncoding::Base64),
        Some("jsonParsed") => Ok(UiAccountEncoding::JsonParsed),
        Some(other) => Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other}"))),
    }
}
