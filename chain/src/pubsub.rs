//! Solana PubSub over WebSocket: signature and account subscriptions, so `confirmTransaction` and
//! account watchers work as against any cluster.
use std::{collections::HashMap, str::FromStr, sync::Arc};

use axum::{
    extract::{
        ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade},
        State,
    },
    response::IntoResponse,
    routing::any,
    Router,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use solana_account_decoder::UiAccountEncoding;
use solana_sdk::{pubkey::Pubkey, signature::Signature};
use tokio::sync::{broadcast::error::RecvError, mpsc, watch};

use crate::{
    rpc::encode_account,
    state::{Chain, ChainEvent},
};

enum Subscription {
    Signature(Signature),
    Account(Pubkey, UiAccountEncoding),
}

#[derive(Clone)]
struct Server {
    chain: Arc<Chain>,
    stopping: watch::Receiver<bool>,
    /// Every session holds a clone; when all are dropped the sessions have said goodbye.
    live: mpsc::Sender<()>,
}

/// The PubSub server. When `stopping` turns true every session closes with a normal closure (1000), so
/// clients such as web3.js do not keep reconnecting to a chain that was stopped on purpose; `live`
/// closes once they all have.
pub fn router(chain: Arc<Chain>, stopping: watch::Receiver<bool>, live: mpsc::Sender<()>) -> Router {
    Router::new().route("/", any(upgrade)).with_state(Server { chain, stopping, live })
}

async fn upgrade(ws: WebSocketUpgrade, State(server): State<Server>) -> impl IntoResponse {
    ws.on_upgrade(move |socket| session(socket, server))
}

fn reply(id: &Value, result: Value) -> Message {
    Message::Text(json!({ "jsonrpc": "2.0", "result": result, "id": id }).to_string().into())
}

fn error(id: &Value, code: i64, message: &str) -> Message {
    Message::Text(
        json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id }).to_string().into(),
    )
}

fn notification(method: &str, subscription: u64, slot: u64, value: Value) -> Message {
    Message::Text(
        json!({
            "jsonrpc": "2.0",
            "method": method,
            "params": { "result": { "context": { "slot": slot }, "value": value }, "subscription": subscription },
        })
        .to_string()
        .into(),
    )
}

/// An account as a notification carries it: a closed account reads as empty (as agave sends it).
async fn account_value(chain: &Chain, address: &Pubkey, encoding: UiAccountEncoding) -> Value {
    let account = chain.account(address).await.ok().flatten().unwrap_or_default();
    encode_account(chain, address, &account, encoding).await.unwrap_or(Value::Null)
}

async fn session(socket: WebSocket, server: Server) {
    let Server { chain, mut stopping, live: _live } = server;
    let (mut tx, mut rx) = socket.split();
    let mut events = chain.events.subscribe();
    let mut subscriptions: HashMap<u64, Subscription> = HashMap::new();
    let mut next_id: u64 = 0;

    loop {
        tokio::select! {
            _ = async { stopping.wait_for(|stop| *stop).await.map(|_| ()) } => {
                let bye = CloseFrame { code: close_code::NORMAL, reason: "the local chain is stopping".into() };
                let _ = tx.send(Message::Close(Some(bye))).await;
                break;
            }
            incoming = rx.next() => {
                let Some(Ok(message)) = incoming else { break };
                let text = match message {
                    Message::Text(t) => t.to_string(),
                    Message::Ping(p) => { let _ = tx.send(Message::Pong(p)).await; continue }
                    Message::Close(_) => break,
                    _ => continue,
                };
                let Ok(request) = serde_json::from_str::<Value>(&text) else {
                    let _ = tx.send(error(&Value::Null, -32700, "Parse error")).await;
                    continue;
                };
                let id = request.get("id").cloned().unwrap_or(Value::Null);
                let params = request.get("params").and_then(Value::as_array).cloned().unwrap_or_default();
                let first = params.first().and_then(Value::as_str).unwrap_or_default();
                let mut out = Vec::new();
                match request.get("method").and_then(Value::as_str).unwrap_or_default() {
                    "signatureSubscribe" => match Signature::from_str(first) {
                        Ok(signature) => {
                            next_id += 1;
                            out.push(reply(&id, json!(next_id)));
                            // Already landed: notify at once (signature subscriptions fire once).
                            let landed = chain.with_tx(&signature, |t| (t.slot, t.meta.status.clone().err()));
                            match landed {
                                Some((slot, err)) => out.push(notification("signatureNotification", next_id, slot, json!({ "err": err }))),
                                None => { subscriptions.insert(next_id, Subscription::Signature(signature)); }
                            }
                        }
                        Err(_) => out.push(error(&id, -32602, "Invalid params: invalid signature")),
                    },
                    "accountSubscribe" => match Pubkey::from_str(first) {
                        Ok(address) => {
                            let encoding = match params.get(1).and_then(|c| c.get("encoding")).and_then(Value::as_str) {
                                Some("jsonParsed") => UiAccountEncoding::JsonParsed,
                                Some("base58") => UiAccountEncoding::Base58,
                                _ => UiAccountEncoding::Base64,
                            };
                            next_id += 1;
                            chain.remember([address]);
                            subscriptions.insert(next_id, Subscription::Account(address, encoding));
                            out.push(reply(&id, json!(next_id)));
                        }
                        Err(_) => out.push(error(&id, -32602, "Invalid params: invalid pubkey")),
                    },
                    "signatureUnsubscribe" | "accountUnsubscribe" => {
                        let removed = params.first().and_then(Value::as_u64).and_then(|s| subscriptions.remove(&s)).is_some();
                        if removed { out.push(reply(&id, json!(true))) } else { out.push(error(&id, -32602, "Invalid subscription id.")) }
                    }
                    "slotSubscribe" | "rootSubscribe" | "logsSubscribe" | "programSubscribe" => {
                        out.push(error(&id, -32601, "Method not supported by the local chain"));
                    }
                    other => out.push(error(&id, -32601, &format!("Method not found: {other}"))),
                }
                for message in out {
                    if tx.send(message).await.is_err() { return; }
                }
            }
            event = events.recv() => {
                let event = match event {
                    Ok(e) => e,
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => break,
                };
                let mut out = Vec::new();
                match event {
                    ChainEvent::Transaction { signature, slot, err } => {
                        let done: Vec<u64> = subscriptions.iter()
                            .filter(|(_, s)| matches!(s, Subscription::Signature(sig) if *sig == signature))
                            .map(|(id, _)| *id)
                            .collect();
                        for id in done {
                            subscriptions.remove(&id);
                            out.push(notification("signatureNotification", id, slot, json!({ "err": err })));
                        }
                    }
                    ChainEvent::Accounts(keys) => {
                        let slot = chain.slot();
                        for (id, sub) in &subscriptions {
                            if let Subscription::Account(address, encoding) = sub {
                                if keys.contains(address) {
                                    out.push(notification("accountNotification", *id, slot, account_value(&chain, address, *encoding).await));
                                }
                            }
                        }
                    }
                }
                for message in out {
                    if tx.send(message).await.is_err() { return; }
                }
            }
        }
    }
}
