//! Solana JSON-RPC over HTTP: the methods @solana/web3.js, Anchor and spl-token use, with the
//! encodings and error shapes of an agave RPC node.
use std::{str::FromStr, sync::Arc};

use axum::{
    extract::State,
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use base64::{engine::general_purpose::STANDARD as BASE64, Engine};
use serde_json::{json, Value};
use solana_account_decoder::{
    encode_ui_account,
    parse_account_data::{AccountAdditionalDataV3, SplTokenAdditionalDataV2},
    parse_token::token_amount_to_ui_amount_v3,
    UiAccountEncoding, UiDataSliceConfig, MAX_BASE58_BYTES,
};
use solana_rpc_client_api::filter::RpcFilterType;
use solana_sdk::{
    account::Account, epoch_schedule::EpochSchedule, hash::Hash, message::VersionedMessage, program_pack::Pack,
    pubkey::Pubkey, signature::Signature, transaction::VersionedTransaction,
};
use solana_transaction_status::UiTransactionEncoding;

use crate::state::{persistable, Chain, SendError};

pub const VERSION: &str = "2.3.13";

/// The largest account there can be (10 MiB).
const MAX_PERMITTED_DATA_LENGTH: u64 = 10 * 1024 * 1024;

/// Requests in one JSON-RPC batch; a larger batch is refused whole (it would hold the chain for as long).
pub const MAX_BATCH: usize = 100;

/// The header that carries the cheat token (see `Cheats`).
pub const CHEAT_TOKEN_HEADER: &str = "x-strm-cheat-token";

/// A JSON-RPC error with the standard codes (agave's where it has its own).
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub(crate) fn invalid_params(message: impl Into<String>) -> Self {
        RpcError { code: -32602, message: message.into(), data: None }
    }
    fn internal(message: impl std::fmt::Display) -> Self {
        RpcError { code: -32603, message: format!("Internal error: {message}"), data: None }
    }
    fn method_not_found(method: &str) -> Self {
        RpcError { code: -32601, message: format!("Method not found: {method}"), data: None }
    }
}

impl From<anyhow::Error> for RpcError {
    fn from(e: anyhow::Error) -> Self {
        RpcError::internal(e)
    }
}

type RpcResult = Result<Value, RpcError>;

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
    fn allowed(&self, headers: &HeaderMap) -> bool {
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

#[derive(Clone)]
struct RpcServer {
    chain: Arc<Chain>,
    cheats: Cheats,
}

/// Browsers call RPC nodes from any origin (wallets, dapps); validators answer CORS permissively too.
pub fn router(chain: Arc<Chain>, cheats: Cheats) -> Router {
    Router::new()
        .route("/", post(handle))
        // A validator's health check for load balancers and scripts.
        .route("/health", get(|| async { "ok" }))
        .layer(tower_http::cors::CorsLayer::permissive())
        .with_state(RpcServer { chain, cheats })
}

/// JSON only, as an agave node answers: a form or text/plain post (which a web page may send to any
/// address without asking) is refused before it is read.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

async fn handle(State(server): State<RpcServer>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    if !is_json(&headers) {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Supplied content type is not allowed. Content-Type: application/json is required\n",
        )
            .into_response();
    }
    let chain = &server.chain;
    let cheats = server.cheats.allowed(&headers);
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => return Json(error_response(Value::Null, -32700, "Parse error")).into_response(),
    };
    let response = match request {
        Value::Array(batch) if batch.is_empty() => error_response(Value::Null, -32600, "Invalid request"),
        Value::Array(batch) if batch.len() > MAX_BATCH => error_response(
            Value::Null,
            -32600,
            &format!("Invalid request: a batch of {} requests is over the limit of {MAX_BATCH}", batch.len()),
        ),
        Value::Array(batch) => {
            let mut out = Vec::with_capacity(batch.len());
            for item in batch {
                out.push(handle_one(chain, item, cheats).await);
            }
            Value::Array(out)
        }
        single => handle_one(chain, single, cheats).await,
    };
    Json(response).into_response()
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id })
}

async fn handle_one(chain: &Chain, request: Value, cheats: bool) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let Some(method) = request.get("method").and_then(Value::as_str) else {
        return error_response(id, -32600, "Invalid request");
    };
    let params = match request.get("params") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(p)) => p.clone(),
        Some(_) => return error_response(id, -32602, "Invalid params: expected an array"),
    };
    let result = if method.starts_with("strm_") && !cheats {
        Err(RpcError {
            code: -32600,
            message: format!(
                "Invalid request: {method} is a local cheat code; send this run's token (<data-dir>/cheat-token) in \
                 the {CHEAT_TOKEN_HEADER} header, to a loopback address"
            ),
            data: None,
        })
    } else {
        dispatch(chain, method, &params).await
    };
    match result {
        Ok(result) => json!({ "jsonrpc": "2.0", "result": result, "id": id }),
        Err(e) => {
            let mut error = json!({ "code": e.code, "message": e.message });
            if let Some(data) = e.data {
                error["data"] = data;
            }
            json!({ "jsonrpc": "2.0", "error": error, "id": id })
        }
    }
}

// ---- parameters ---------------------------------------------------------------------------------

fn param(params: &[Value], i: usize) -> Result<&Value, RpcError> {
    params.get(i).ok_or_else(|| RpcError::invalid_params(format!("Invalid params: missing parameter {i}")))
}

fn pubkey_param(params: &[Value], i: usize) -> Result<Pubkey, RpcError> {
    let s = param(params, i)?.as_str().ok_or_else(|| RpcError::invalid_params("Invalid param: expected a string"))?;
    Pubkey::from_str(s).map_err(|_| RpcError::invalid_params("Invalid param: Invalid"))
}

fn config(params: &[Value], i: usize) -> &Value {
    params.get(i).filter(|v| v.is_object()).unwrap_or(&Value::Null)
}

fn encoding_of(config: &Value, default: UiAccountEncoding) -> Result<UiAccountEncoding, RpcError> {
    match config.get("encoding").and_then(Value::as_str) {
        None => Ok(default),
        Some("base58") => Ok(UiAccountEncoding::Base58),
        Some("base64") => Ok(UiAccountEncoding::Base64),
        Some("jsonParsed") => Ok(UiAccountEncoding::JsonParsed),
        Some(other) => Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other}"))),
    }
}

fn with_context(chain: &Chain, value: Value) -> RpcResult {
    Ok(json!({ "context": { "apiVersion": VERSION, "slot": chain.slot() }, "value": value }))
}

// ---- accounts -----------------------------------------------------------------------------------

/// `dataSlice` of a request's config: the part of each account's data to return.
pub fn data_slice_of(config: &Value, encoding: UiAccountEncoding) -> Result<Option<UiDataSliceConfig>, RpcError> {
    let slice = match config.get("dataSlice") {
        None | Some(Value::Null) => return Ok(None),
        Some(s) => serde_json::from_value::<UiDataSliceConfig>(s.clone())
            .map_err(|e| RpcError::invalid_params(format!("Invalid params: dataSlice: {e}")))?,
    };
    if encoding == UiAccountEncoding::JsonParsed {
        return Err(RpcError {
            code: -32600,
            message: "Sliced account data can only be encoded using binary (base 58) or base64 encoding.".into(),
            data: None,
        });
    }
    Ok(Some(slice))
}

pub async fn encode_account(
    chain: &Chain,
    address: &Pubkey,
    account: &Account,
    encoding: UiAccountEncoding,
    slice: Option<UiDataSliceConfig>,
) -> RpcResult {
    let returned = match slice {
        Some(s) => s.length.min(account.data.len().saturating_sub(s.offset)),
        None => account.data.len(),
    };
    if encoding == UiAccountEncoding::Base58 && returned > MAX_BASE58_BYTES {
        return Err(RpcError {
            code: -32600,
            message: "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.".into(),
            data: None,
        });
    }
    let additional = if encoding == UiAccountEncoding::JsonParsed && account.owner == spl_token::id() {
        let mint = solana_account_decoder::parse_token::get_token_account_mint(&account.data);
        match mint {
            Some(mint) => chain.mint_decimals(&mint).await?.map(|decimals| AccountAdditionalDataV3 {
                spl_token_additional_data: Some(SplTokenAdditionalDataV2::with_decimals(decimals)),
            }),
            None => None,
        }
    } else {
        None
    };
    serde_json::to_value(encode_ui_account(address, account, encoding, additional, slice)).map_err(RpcError::internal)
}

async fn account_or_null(
    chain: &Chain,
    address: &Pubkey,
    encoding: UiAccountEncoding,
    slice: Option<UiDataSliceConfig>,
) -> RpcResult {
    match chain.account(address).await? {
        Some(account) => encode_account(chain, address, &account, encoding, slice).await,
        None => Ok(Value::Null),
    }
}

pub fn parse_filters(config: &Value) -> Result<Vec<RpcFilterType>, RpcError> {
    match config.get("filters") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(f) => {
            serde_json::from_value(f.clone()).map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}")))
        }
    }
}

pub fn matches(filters: &[RpcFilterType], account: &Account) -> bool {
    filters.iter().all(|f| match f {
        RpcFilterType::DataSize(size) => account.data.len() as u64 == *size,
        RpcFilterType::Memcmp(memcmp) => memcmp.bytes_match(&account.data),
        RpcFilterType::TokenAccountState => spl_token::state::Account::unpack(&account.data).is_ok(),
    })
}

async fn program_accounts(
    chain: &Chain,
    owner: &Pubkey,
    filters: &[RpcFilterType],
) -> Result<Vec<(Pubkey, Account)>, RpcError> {
    let mut out = Vec::new();
    for address in chain.known_addresses() {
        if let Some(account) = chain.account(&address).await? {
            if account.owner == *owner && matches(filters, &account) {
                out.push((address, account));
            }
        }
    }
    Ok(out)
}

async fn keyed(
    chain: &Chain,
    accounts: Vec<(Pubkey, Account)>,
    encoding: UiAccountEncoding,
    slice: Option<UiDataSliceConfig>,
) -> RpcResult {
    let mut out = Vec::with_capacity(accounts.len());
    for (address, account) in accounts {
        let encoded = encode_account(chain, &address, &account, encoding, slice).await?;
        out.push(json!({ "pubkey": address.to_string(), "account": encoded }));
    }
    Ok(Value::Array(out))
}

async fn token_accounts_by_owner(chain: &Chain, params: &[Value]) -> Result<Vec<(Pubkey, Account)>, RpcError> {
    let owner = pubkey_param(params, 0)?;
    let filter = param(params, 1)?;
    let mint = match filter.get("mint").and_then(Value::as_str) {
        Some(m) => Some(Pubkey::from_str(m).map_err(|_| RpcError::invalid_params("Invalid param: Invalid"))?),
        None => None,
    };
    if mint.is_none() {
        let program = filter
            .get("programId")
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError::invalid_params("Invalid params: expected mint or programId"))?;
        if Pubkey::from_str(program).ok() != Some(spl_token::id()) {
            return Err(RpcError::invalid_params("Invalid param: unrecognized Token program id"));
        }
    }
    let filters = [RpcFilterType::DataSize(spl_token::state::Account::LEN as u64)];
    let accounts = program_accounts(chain, &spl_token::id(), &filters).await?;
    Ok(accounts
        .into_iter()
        .filter(|(_, account)| match spl_token::state::Account::unpack(&account.data) {
            Ok(token) => token.owner == owner && mint.is_none_or(|m| token.mint == m),
            Err(_) => false,
        })
        .collect())
}

// ---- transactions -------------------------------------------------------------------------------

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

fn simulation_value(err: Option<&solana_sdk::transaction::TransactionError>, logs: Vec<String>, units: u64) -> Value {
    simulation_value_with(err, logs, units, Value::Null)
}

fn simulation_value_with(
    err: Option<&solana_sdk::transaction::TransactionError>,
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

fn send_error(e: SendError) -> RpcError {
    match e {
        SendError::Simulation { err, logs, units } => RpcError {
            code: -32002,
            message: format!("Transaction simulation failed: {err}"),
            data: Some(simulation_value(Some(&err), logs, units)),
        },
        SendError::Rejected(err) => RpcError {
            code: -32002,
            message: format!("Transaction simulation failed: {err}"),
            data: Some(simulation_value(Some(&err), Vec::new(), 0)),
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

pub fn signature_status(chain: &Chain, signature: &Signature) -> Value {
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

// ---- dispatch -----------------------------------------------------------------------------------

async fn dispatch(chain: &Chain, method: &str, params: &[Value]) -> RpcResult {
    match method {
        "getHealth" => Ok(json!("ok")),
        "getVersion" => Ok(json!({ "solana-core": VERSION, "feature-set": 0 })),
        "getGenesisHash" => Ok(json!(chain.genesis_hash.to_string())),
        "getSlot" => Ok(json!(chain.slot())),
        "getBlockHeight" => Ok(json!(chain.block_height())),
        "getTransactionCount" => Ok(json!(chain.transaction_count())),
        "getEpochInfo" => {
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
        "getLatestBlockhash" => {
            let (blockhash, last_valid) = chain.latest_blockhash().await?;
            with_context(chain, json!({ "blockhash": blockhash.to_string(), "lastValidBlockHeight": last_valid }))
        }
        "isBlockhashValid" => {
            let hash = param(params, 0)?
                .as_str()
                .and_then(|s| Hash::from_str(s).ok())
                .ok_or_else(|| RpcError::invalid_params("Invalid param: Invalid"))?;
            let valid = chain.is_blockhash_valid(&hash).await?;
            with_context(chain, json!(valid))
        }
        "getFeeForMessage" => {
            let encoded = param(params, 0)?
                .as_str()
                .ok_or_else(|| RpcError::invalid_params("Invalid params: expected a string"))?;
            let bytes = BASE64.decode(encoded).map_err(|_| RpcError::invalid_params("invalid base64 encoding"))?;
            let message: VersionedMessage =
                bincode::deserialize(&bytes).map_err(|_| RpcError::invalid_params("invalid message"))?;
            message.sanitize().map_err(|e| RpcError::invalid_params(format!("invalid message: {e}")))?;
            with_context(chain, json!(chain.fee_for_message(&message).await?))
        }
        "getMinimumBalanceForRentExemption" => {
            let size = param(params, 0)?
                .as_u64()
                .ok_or_else(|| RpcError::invalid_params("Invalid params: expected a size"))?;
            if size > MAX_PERMITTED_DATA_LENGTH {
                return Err(RpcError { code: -32600, message: "Invalid request".into(), data: None });
            }
            let rent = chain.banks.get_rent().await.map_err(RpcError::internal)?;
            Ok(json!(rent.minimum_balance(size as usize)))
        }
        "getBalance" => {
            let address = pubkey_param(params, 0)?;
            let lamports = chain.account(&address).await?.map(|a| a.lamports).unwrap_or_default();
            with_context(chain, json!(lamports))
        }
        "getAccountInfo" => {
            let address = pubkey_param(params, 0)?;
            let encoding = encoding_of(config(params, 1), UiAccountEncoding::Base58)?;
            let slice = data_slice_of(config(params, 1), encoding)?;
            let value = account_or_null(chain, &address, encoding, slice).await?;
            with_context(chain, value)
        }
        "getMultipleAccounts" => {
            let list = param(params, 0)?
                .as_array()
                .ok_or_else(|| RpcError::invalid_params("Invalid params: expected an array"))?;
            if list.len() > 100 {
                return Err(RpcError::invalid_params("Too many inputs provided; max 100"));
            }
            let encoding = encoding_of(config(params, 1), UiAccountEncoding::Base64)?;
            let slice = data_slice_of(config(params, 1), encoding)?;
            let mut values = Vec::with_capacity(list.len());
            for item in list {
                let address = pubkey_param(std::slice::from_ref(item), 0)?;
                values.push(account_or_null(chain, &address, encoding, slice).await?);
            }
            with_context(chain, Value::Array(values))
        }
        "getProgramAccounts" => {
            let program = pubkey_param(params, 0)?;
            let config = config(params, 1);
            let encoding = encoding_of(config, UiAccountEncoding::Base64)?;
            let slice = data_slice_of(config, encoding)?;
            let accounts = program_accounts(chain, &program, &parse_filters(config)?).await?;
            let value = keyed(chain, accounts, encoding, slice).await?;
            if config.get("withContext").and_then(Value::as_bool).unwrap_or(false) {
                with_context(chain, value)
            } else {
                Ok(value)
            }
        }
        "getTokenAccountsByOwner" | "getParsedTokenAccountsByOwner" => {
            let default = if method == "getParsedTokenAccountsByOwner" {
                UiAccountEncoding::JsonParsed
            } else {
                UiAccountEncoding::Base64
            };
            let encoding = encoding_of(config(params, 2), default)?;
            let slice = data_slice_of(config(params, 2), encoding)?;
            let accounts = token_accounts_by_owner(chain, params).await?;
            let value = keyed(chain, accounts, encoding, slice).await?;
            with_context(chain, value)
        }
        "getTokenAccountBalance" => {
            let address = pubkey_param(params, 0)?;
            let account = chain
                .account(&address)
                .await?
                .filter(|a| a.owner == spl_token::id())
                .and_then(|a| spl_token::state::Account::unpack(&a.data).ok())
                .ok_or_else(|| RpcError::invalid_params("Invalid param: could not find account"))?;
            let decimals = chain.mint_decimals(&account.mint).await?.unwrap_or_default();
            let amount =
                token_amount_to_ui_amount_v3(account.amount, &SplTokenAdditionalDataV2::with_decimals(decimals));
            with_context(chain, serde_json::to_value(amount).map_err(RpcError::internal)?)
        }
        "requestAirdrop" => {
            let to = pubkey_param(params, 0)?;
            let lamports = param(params, 1)?
                .as_u64()
                .ok_or_else(|| RpcError::invalid_params("Invalid params: expected lamports"))?;
            let signature = chain.airdrop(&to, lamports).await.map_err(|e| match e {
                SendError::Simulation { err, .. } | SendError::Rejected(err) => {
                    RpcError::internal(format!("airdrop of {lamports} lamports failed: {err}"))
                }
                other => send_error(other),
            })?;
            Ok(json!(signature.to_string()))
        }
        "sendTransaction" => {
            let tx = decode_transaction(params)?;
            let skip = config(params, 1).get("skipPreflight").and_then(Value::as_bool).unwrap_or(false);
            let signature = chain.send(tx, skip).await.map_err(send_error)?;
            Ok(json!(signature.to_string()))
        }
        "simulateTransaction" => {
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
            with_context(chain, simulation_value_with(err.as_ref(), logs, units, replacement))
        }
        "getSignatureStatuses" => {
            let list = param(params, 0)?
                .as_array()
                .ok_or_else(|| RpcError::invalid_params("Invalid params: expected an array"))?;
            if list.len() > 256 {
                return Err(RpcError::invalid_params("Too many inputs provided; max 256"));
            }
            let mut values = Vec::with_capacity(list.len());
            for item in list {
                values.push(signature_status(chain, &signature_param(item)?));
            }
            with_context(chain, Value::Array(values))
        }
        "getTransaction" => {
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
        // A local-development cheat code: tests use it to reach states no transaction can (e.g. a total
        // near u64::MAX). Params: [address, { lamports, data: [base64, "base64"], owner, executable }].
        "strm_setAccount" => {
            let address = pubkey_param(params, 0)?;
            let spec = param(params, 1)?;
            let owner = spec
                .get("owner")
                .and_then(Value::as_str)
                .and_then(|o| Pubkey::from_str(o).ok())
                .ok_or_else(|| RpcError::invalid_params("Invalid params: owner"))?;
            let data = match spec.get("data").and_then(|d| d.get(0)).and_then(Value::as_str) {
                Some(b64) => BASE64.decode(b64).map_err(|_| RpcError::invalid_params("invalid base64 encoding"))?,
                None => Vec::new(),
            };
            let account = Account {
                lamports: spec.get("lamports").and_then(Value::as_u64).unwrap_or_default(),
                data,
                owner,
                executable: spec.get("executable").and_then(Value::as_bool).unwrap_or(false),
                rent_epoch: u64::MAX,
            };
            // Overwriting a program or a sysvar would break the chain itself until a restart.
            let current = chain.account(&address).await?;
            if !persistable(&account) || current.as_ref().is_some_and(|a| !persistable(a)) {
                return Err(RpcError::invalid_params("strm_setAccount sets state accounts, not programs or sysvars"));
            }
            chain.set_account(address, account).await;
            Ok(Value::Null)
        }
        _ => Err(RpcError::method_not_found(method)),
    }
}
