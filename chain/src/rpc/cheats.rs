//! Local-development methods: the faucet's `requestAirdrop`, as a test validator has, and the cheat codes
//! (`strm_*`), which set state no transaction can reach, for the token holder of this run only.
use axum::http::{header, HeaderMap};
use serde::Deserialize;
use serde_json::{json, Value};
use solana_account_decoder::UiAccountData;
use solana_rpc_client_api::config::RpcRequestAirdropConfig;
use solana_sdk::account::Account;

use super::{
    params::{parse, pubkey},
    transactions::send_error,
    RpcError, RpcResult,
};
use crate::state::{persistable, SendError, Validator};

/// The header that carries the cheat token (see `Cheats`).
pub const CHEAT_TOKEN_HEADER: &str = "x-strm-cheat-token";

/// Who may call the local cheat codes (`strm_*`): a caller that read this run's token from the chain's data
/// directory (a web page the developer visits cannot), naming the chain by a loopback address (a page
/// that rebinds its own DNS name to 127.0.0.1 cannot send that Host).
#[derive(Clone)]
pub struct Cheats {
    pub token: String,
    /// The address the chain listens on, also accepted as Host when it is not a wildcard.
    pub listen_host: String,
}

impl Cheats {
    pub(super) fn allowed(&self, headers: &HeaderMap) -> bool {
        let token = headers.get(CHEAT_TOKEN_HEADER).map(|v| v.as_bytes()).unwrap_or_default();
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
        same_secret(token, self.token.as_bytes()) && self.loopback_host(host)
    }

    fn loopback_host(&self, host: &str) -> bool {
        let name = match host.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or_default(),
            None => host.rsplit_once(':').map_or(host, |(name, _)| name),
        };
        let name = name.to_ascii_lowercase();
        name == "localhost"
            || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
            || (name == self.listen_host && !["0.0.0.0", "::"].contains(&name.as_str()))
    }
}

/// Compares without stopping at the first difference, so timing tells nothing about the token.
fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// The answer to a cheat code called without the token, or not through a loopback address.
pub(super) fn refused(method: &str) -> RpcError {
    RpcError::invalid_request(format!(
        "Invalid request: {method} is a local cheat code; send this run's token (<data-dir>/cheat-token) in the \
         {CHEAT_TOKEN_HEADER} header, to a loopback address"
    ))
}

pub async fn request_airdrop(validator: &Validator, params: &[Value]) -> RpcResult {
    let (to, lamports, _): (String, u64, Option<RpcRequestAirdropConfig>) = parse(params)?;
    let signature = validator.airdrop(&pubkey(&to)?, lamports).await.map_err(|e| match e {
        SendError::Simulation { err, .. } | SendError::Rejected(err) => {
            RpcError::internal(format!("airdrop of {lamports} lamports failed: {err}"))
        }
        other => send_error(other),
    })?;
    Ok(json!(signature.to_string()))
}

/// The account strm_setAccount writes, as getAccountInfo shows one (`data` in any of its binary
/// encodings, e.g. [base64, "base64"]); rent exempt for ever.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AccountSpec {
    #[serde(default)]
    lamports: u64,
    data: Option<UiAccountData>,
    owner: String,
    #[serde(default)]
    executable: bool,
}

/// `strm_setAccount`: tests use it to reach states no transaction can (e.g. a total near u64::MAX).
/// Params: [address, { lamports, data: [base64, "base64"], owner, executable }].
pub async fn set_account(validator: &Validator, params: &[Value]) -> RpcResult {
    let (address, spec): (String, AccountSpec) = parse(params)?;
    let address = pubkey(&address)?;
    let data = match spec.data {
        Some(data) => data.decode().ok_or_else(|| RpcError::invalid_params("Invalid params: data is not binary"))?,
        None => Vec::new(),
    };
    let account = Account {
        lamports: spec.lamports,
        data,
        owner: pubkey(&spec.owner)?,
        executable: spec.executable,
        rent_epoch: u64::MAX,
    };
    // Overwriting a program or a sysvar would break the chain itself until a restart.
    let current = validator.account(&address).await?;
    if !persistable(&account) || current.as_ref().is_some_and(|a| !persistable(a)) {
        return Err(RpcError::invalid_params("strm_setAccount sets state accounts, not programs or sysvars"));
    }
    validator.set_account(address, account).await?;
    Ok(Value::Null)
}
