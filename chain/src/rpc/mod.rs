//! Solana JSON-RPC over HTTP: the methods @solana/web3.js, Anchor and spl-token use, with the
//! encodings and error shapes of an agave RPC node. One module per method group, as agave's rpc.rs
//! (rpc_minimal, rpc_bank, rpc_accounts, …): the node itself, blockhashes and fees, accounts,
//! transactions, and the local-development methods (faucet and cheat codes).
use std::sync::Arc;

use axum::{
    extract::State,
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde_json::{json, Value};

use crate::state::Validator;

pub mod accounts;
mod blocks;
mod cheats;
mod minimal;
pub mod params;
mod signatures;
pub mod transactions;

pub use cheats::Cheats;

pub const VERSION: &str = "2.3.13";

/// Requests in one JSON-RPC batch; a larger batch is refused whole (it would hold the chain for as long).
pub const MAX_BATCH: usize = 100;

/// A JSON-RPC error with the standard codes (agave's where it has its own).
#[derive(Debug)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub(crate) fn invalid_params(message: impl Into<String>) -> Self {
        RpcError { code: -32602, message: message.into(), data: None }
    }
    fn invalid_request(message: impl Into<String>) -> Self {
        RpcError { code: -32600, message: message.into(), data: None }
    }
    fn internal(message: impl std::fmt::Display) -> Self {
        RpcError { code: -32603, message: format!("Internal error: {message}"), data: None }
    }
    pub(crate) fn method_not_found(method: &str) -> Self {
        RpcError { code: -32601, message: format!("Method not found: {method}"), data: None }
    }
}

impl From<anyhow::Error> for RpcError {
    fn from(e: anyhow::Error) -> Self {
        RpcError::internal(e)
    }
}

type RpcResult = Result<Value, RpcError>;

#[derive(Clone)]
struct RpcServer {
    validator: Arc<Validator>,
    cheats: Cheats,
}

/// Browsers call RPC nodes from any origin (wallets, dapps); validators answer CORS permissively too.
pub fn router(validator: Arc<Validator>, cheats: Cheats) -> Router {
    Router::new()
        .route("/", post(handle))
        // A validator's health check for load balancers and scripts.
        .route("/health", get(|| async { "ok" }))
        .layer(tower_http::cors::CorsLayer::permissive())
        .with_state(RpcServer { validator, cheats })
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
    let validator = &server.validator;
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
                out.push(handle_one(validator, item, cheats).await);
            }
            Value::Array(out)
        }
        single => handle_one(validator, single, cheats).await,
    };
    Json(response).into_response()
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id })
}

async fn handle_one(validator: &Validator, request: Value, cheats: bool) -> Value {
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
        Err(cheats::refused(method))
    } else {
        dispatch(validator, method, &params).await
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

/// A value as of the chain's current slot, in the `{ context, value }` envelope.
fn with_context(validator: &Validator, value: Value) -> RpcResult {
    Ok(json!({ "context": { "apiVersion": VERSION, "slot": validator.slot() }, "value": value }))
}

async fn dispatch(validator: &Validator, method: &str, params: &[Value]) -> RpcResult {
    match method {
        "getHealth" => Ok(json!("ok")),
        "getVersion" => Ok(json!({ "solana-core": VERSION, "feature-set": 0 })),
        "getGenesisHash" => Ok(json!(validator.genesis_hash.to_string())),
        "getSlot" => minimal::count(params, || validator.slot()),
        "getBlockHeight" => minimal::count(params, || validator.block_height()),
        "getTransactionCount" => minimal::count(params, || validator.transaction_count()),
        "getEpochInfo" => minimal::epoch_info(validator, params).await,
        "getMinimumBalanceForRentExemption" => minimal::minimum_balance_for_rent_exemption(validator, params).await,
        "getLatestBlockhash" => blocks::latest_blockhash(validator, params).await,
        "isBlockhashValid" => blocks::is_blockhash_valid(validator, params).await,
        "getFeeForMessage" => blocks::fee_for_message(validator, params).await,
        "getBalance" => accounts::balance(validator, params).await,
        "getAccountInfo" => accounts::account_info(validator, params).await,
        "getMultipleAccounts" => accounts::multiple_accounts(validator, params).await,
        "getProgramAccounts" => accounts::program_accounts_of(validator, params).await,
        "getTokenAccountsByOwner" => {
            accounts::token_accounts_by_owner(validator, params, solana_account_decoder::UiAccountEncoding::Base64)
                .await
        }
        "getParsedTokenAccountsByOwner" => {
            accounts::token_accounts_by_owner(validator, params, solana_account_decoder::UiAccountEncoding::JsonParsed)
                .await
        }
        "getTokenAccountBalance" => accounts::token_account_balance(validator, params).await,
        "sendTransaction" => transactions::send(validator, params).await,
        "simulateTransaction" => transactions::simulate(validator, params).await,
        "getSignatureStatuses" => transactions::signature_statuses(validator, params),
        "getTransaction" => transactions::transaction(validator, params),
        "getSignaturesForAddress" => signatures::signatures_for_address(validator, params),
        "requestAirdrop" => cheats::request_airdrop(validator, params).await,
        "strm_setAccount" => cheats::set_account(validator, params).await,
        _ => Err(RpcError::method_not_found(method)),
    }
}
