//! A request's positional parameters, read as agave's RPC reads them (jsonrpc-derive): into a tuple of
//! the method's parameter types, solana_rpc_client_api::config's for the configs, the trailing optional
//! ones read as null when left out. A request whose parameters do not fit is JSON-RPC's invalid params
//! (-32602), and so is an address, signature or hash that does not parse.
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde_json::Value;
use solana_sdk::{hash::Hash, pubkey::Pubkey, signature::Signature};

use super::RpcError;

/// A tuple of parameter types, and how many there are.
pub trait Params: DeserializeOwned {
    const ARITY: usize;
}

macro_rules! params {
    ($arity:literal: $($t:ident),+) => {
        impl<$($t: DeserializeOwned),+> Params for ($($t,)+) {
            const ARITY: usize = $arity;
        }
    };
}
params!(1: A);
params!(2: A, B);
params!(3: A, B, C);

pub fn parse<T: Params>(params: &[Value]) -> Result<T, RpcError> {
    if params.len() > T::ARITY {
        return Err(RpcError::invalid_params(format!(
            "Invalid params: expected at most {} parameters, got {}",
            T::ARITY,
            params.len()
        )));
    }
    let mut padded = params.to_vec();
    padded.resize(T::ARITY, Value::Null);
    serde_json::from_value(Value::Array(padded)).map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}")))
}

fn parsed<T: FromStr>(s: &str) -> Result<T, RpcError> {
    s.parse().map_err(|_| RpcError::invalid_params("Invalid param: Invalid"))
}

pub fn pubkey(s: &str) -> Result<Pubkey, RpcError> {
    parsed(s)
}

pub fn signature(s: &str) -> Result<Signature, RpcError> {
    parsed(s)
}

pub fn hash(s: &str) -> Result<Hash, RpcError> {
    parsed(s)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use solana_rpc_client_api::config::RpcAccountInfoConfig;

    use super::*;

    type AccountInfo = (String, Option<RpcAccountInfoConfig>);

    fn params(value: Value) -> Vec<Value> {
        value.as_array().unwrap().clone()
    }

    #[test]
    fn a_trailing_config_may_be_left_out() {
        let (address, config): AccountInfo = parse(&params(json!(["11111111111111111111111111111111"]))).unwrap();
        assert_eq!(address, "11111111111111111111111111111111");
        assert_eq!(config, None);
    }

    #[test]
    fn a_config_is_read_into_its_type() {
        let given = json!(["x", { "encoding": "jsonParsed", "dataSlice": { "offset": 1, "length": 2 } }]);
        let (_, config): AccountInfo = parse(&params(given)).unwrap();
        let config = config.unwrap();
        assert_eq!(config.encoding, Some(solana_account_decoder::UiAccountEncoding::JsonParsed));
        assert_eq!(config.data_slice.map(|s| (s.offset, s.length)), Some((1, 2)));
    }

    #[test]
    fn parameters_that_do_not_fit_are_invalid_params() {
        for given in [
            json!([]),
            json!([7]),
            json!(["x", "not a config"]),
            json!(["x", { "encoding": "hex" }]),
            json!(["x", { "dataSlice": { "offset": -1, "length": 2 } }]),
            json!(["x", {}, "one too many"]),
        ] {
            let error = parse::<AccountInfo>(&params(given.clone())).err().unwrap_or_else(|| panic!("{given} read"));
            assert_eq!(error.code, -32602, "{given}: {}", error.message);
        }
        assert_eq!(pubkey("not-a-key").err().map(|e| e.code), Some(-32602));
    }
}
