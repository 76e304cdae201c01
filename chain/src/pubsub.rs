//! Solana PubSub over WebSocket: the subscriptions clients and wallets confirm and watch with (signature,
//! account, program, logs, slot, root), in an agave node's notification shapes.
//!
//! Bounded: connections, subscriptions per connection and the size of a request are capped, and every
//! session reads the chain's events from a bounded queue. A session that falls behind the queue is
//! caught up from the transactions the chain keeps (nothing a client subscribed to is skipped) or, when
//! those no longer reach back far enough, closed with 1013 (try again later) so the client resubscribes;
//! one that does not take its messages within the send timeout is closed.
use std::{collections::HashMap, str::FromStr, sync::Arc, time::Duration};

use axum::{
    extract::{
        ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade},
        State,
    },
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::any,
    Router,
};
use futures_util::{Sink, SinkExt, StreamExt};
use serde_json::{json, Value};
use solana_account_decoder::{UiAccountEncoding, UiDataSliceConfig};
use solana_rpc_client_api::filter::RpcFilterType;
use solana_sdk::{pubkey::Pubkey, signature::Signature};
use tokio::sync::{broadcast::error::RecvError, mpsc, watch, OwnedSemaphorePermit, Semaphore};

use crate::{
    rpc::{
        accounts::{data_slice_of, encode_account, matches, parse_filters},
        RpcError,
    },
    state::{Chain, ChainEvent, Landed},
};

/// Open PubSub connections at once; a further one is answered 503.
pub const MAX_CONNECTIONS: usize = 256;
/// Subscriptions (of any kind, so also addresses watched) one connection may hold.
pub const MAX_SUBSCRIPTIONS: usize = 1024;
/// A request is a method name and a few parameters.
const MAX_REQUEST_BYTES: usize = 64 * 1024;

enum Subscription {
    Signature(Signature),
    Account {
        address: Pubkey,
        encoding: UiAccountEncoding,
        slice: Option<UiDataSliceConfig>,
    },
    Program {
        program: Pubkey,
        encoding: UiAccountEncoding,
        slice: Option<UiDataSliceConfig>,
        filters: Vec<RpcFilterType>,
    },
    /// Every transaction's logs, or those of transactions naming one address.
    Logs(Option<Pubkey>),
    Slot,
    Root,
}

#[derive(Clone)]
struct Server {
    chain: Arc<Chain>,
    stopping: watch::Receiver<bool>,
    /// Every session holds a clone; when all are dropped the sessions have said goodbye.
    live: mpsc::Sender<()>,
    send_timeout: Duration,
    connections: Arc<Semaphore>,
}

/// The PubSub server. When `stopping` turns true every session closes with a normal closure (1000), so
/// clients such as web3.js do not keep reconnecting to a chain that was stopped on purpose; `live`
/// closes once they all have.
pub fn router(
    chain: Arc<Chain>,
    stopping: watch::Receiver<bool>,
    live: mpsc::Sender<()>,
    send_timeout: Duration,
) -> Router {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    Router::new().route("/", any(upgrade)).with_state(Server { chain, stopping, live, send_timeout, connections })
}

async fn upgrade(ws: WebSocketUpgrade, State(server): State<Server>) -> Response {
    let Ok(permit) = server.connections.clone().try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many PubSub connections").into_response();
    };
    ws.max_message_size(MAX_REQUEST_BYTES).on_upgrade(move |socket| session(socket, server, permit)).into_response()
}

fn text(value: Value) -> Message {
    Message::Text(value.to_string().into())
}

fn reply(id: &Value, result: Value) -> Message {
    text(json!({ "jsonrpc": "2.0", "result": result, "id": id }))
}

fn error(id: &Value, code: i64, message: &str) -> Message {
    text(json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id }))
}

fn notify(method: &str, subscription: u64, result: Value) -> Message {
    text(json!({ "jsonrpc": "2.0", "method": method, "params": { "result": result, "subscription": subscription } }))
}

/// A notification whose result carries the slot it was seen at, as most do.
fn notify_in_slot(method: &str, subscription: u64, slot: u64, value: Value) -> Message {
    notify(method, subscription, json!({ "context": { "slot": slot }, "value": value }))
}

fn encoding_of(config: &Value) -> Result<UiAccountEncoding, RpcError> {
    match config.get("encoding").and_then(Value::as_str) {
        None | Some("base64") => Ok(UiAccountEncoding::Base64),
        Some("jsonParsed") => Ok(UiAccountEncoding::JsonParsed),
        Some("base58") => Ok(UiAccountEncoding::Base58),
        Some(other) => Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other}"))),
    }
}

struct Session {
    chain: Arc<Chain>,
    subscriptions: HashMap<u64, Subscription>,
    next_id: u64,
    /// The last transaction (by landing order) this session has told its subscribers about.
    last_seq: u64,
}

impl Session {
    async fn request(&mut self, text: &str) -> Vec<Message> {
        let Ok(request) = serde_json::from_str::<Value>(text) else {
            return vec![error(&Value::Null, -32700, "Parse error")];
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let params = request.get("params").and_then(Value::as_array).cloned().unwrap_or_default();
        let method = request.get("method").and_then(Value::as_str).unwrap_or_default();
        if method.ends_with("Unsubscribe") {
            let removed = params.first().and_then(Value::as_u64).and_then(|s| self.subscriptions.remove(&s));
            return vec![match removed {
                Some(_) => reply(&id, json!(true)),
                None => error(&id, -32602, "Invalid subscription id."),
            }];
        }
        if method.ends_with("Subscribe") && self.subscriptions.len() >= MAX_SUBSCRIPTIONS {
            let message = format!(
                "Internal error: Subscription refused. This connection has {MAX_SUBSCRIPTIONS} subscriptions, the limit"
            );
            return vec![error(&id, -32603, &message)];
        }
        match self.subscribe(method, &params).await {
            Ok((subscription, immediate)) => {
                self.next_id += 1;
                let sub_id = self.next_id;
                let mut out = vec![reply(&id, json!(sub_id))];
                match immediate {
                    // Already landed: notify at once (signature subscriptions fire once).
                    Some((slot, value)) => out.push(notify_in_slot("signatureNotification", sub_id, slot, value)),
                    None => {
                        self.subscriptions.insert(sub_id, subscription);
                    }
                }
                out
            }
            Err(e) => vec![error(&id, e.code, &e.message)],
        }
    }

    /// The subscription a request asks for, and for a signature that already landed, its notification.
    async fn subscribe(
        &self,
        method: &str,
        params: &[Value],
    ) -> Result<(Subscription, Option<(u64, Value)>), RpcError> {
        let first = params.first().and_then(Value::as_str).unwrap_or_default();
        let config = params.get(1).filter(|c| c.is_object()).unwrap_or(&Value::Null);
        let pubkey = || Pubkey::from_str(first).map_err(|_| RpcError::invalid_params("Invalid params: invalid pubkey"));
        match method {
            "signatureSubscribe" => {
                let signature = Signature::from_str(first)
                    .map_err(|_| RpcError::invalid_params("Invalid params: invalid signature"))?;
                let landed = self.chain.with_tx(&signature, |t| (t.slot, t.meta.status.clone().err()));
                Ok((Subscription::Signature(signature), landed.map(|(slot, err)| (slot, json!({ "err": err })))))
            }
            "accountSubscribe" => {
                let address = pubkey()?;
                let encoding = encoding_of(config)?;
                let slice = data_slice_of(config, encoding)?;
                Ok((Subscription::Account { address, encoding, slice }, None))
            }
            "programSubscribe" => {
                let program = pubkey()?;
                let encoding = encoding_of(config)?;
                let slice = data_slice_of(config, encoding)?;
                let filters = parse_filters(config)?;
                Ok((Subscription::Program { program, encoding, slice, filters }, None))
            }
            "logsSubscribe" => match params.first() {
                Some(Value::String(s)) if s == "all" || s == "allWithVotes" => Ok((Subscription::Logs(None), None)),
                Some(Value::Object(filter)) => match filter.get("mentions").and_then(Value::as_array) {
                    Some(list) if list.len() == 1 => {
                        let address = list[0]
                            .as_str()
                            .and_then(|s| Pubkey::from_str(s).ok())
                            .ok_or_else(|| RpcError::invalid_params("Invalid params: invalid pubkey"))?;
                        Ok((Subscription::Logs(Some(address)), None))
                    }
                    Some(_) => Err(RpcError::invalid_params("Invalid Request: Only 1 address supported")),
                    None => {
                        Err(RpcError::invalid_params("Invalid params: expected \"all\" or { mentions: [address] }"))
                    }
                },
                _ => Err(RpcError::invalid_params("Invalid params: expected \"all\" or { mentions: [address] }")),
            },
            "slotSubscribe" => Ok((Subscription::Slot, None)),
            "rootSubscribe" => Ok((Subscription::Root, None)),
            other => Err(RpcError { code: -32601, message: format!("Method not found: {other}"), data: None }),
        }
    }

    /// Signature and logs notifications for a transaction that landed.
    fn landed(&mut self, tx: &Landed) -> Vec<Message> {
        if tx.seq <= self.last_seq {
            return Vec::new();
        }
        self.last_seq = tx.seq;
        let mut out = Vec::new();
        let mut done = Vec::new();
        for (id, subscription) in &self.subscriptions {
            match subscription {
                Subscription::Signature(signature) if *signature == tx.signature => {
                    done.push(*id);
                    out.push(notify_in_slot("signatureNotification", *id, tx.slot, json!({ "err": tx.err })));
                }
                Subscription::Logs(mentions) if mentions.is_none_or(|a| tx.keys.contains(&a)) => {
                    let value = json!({ "signature": tx.signature.to_string(), "err": tx.err, "logs": tx.logs });
                    out.push(notify_in_slot("logsNotification", *id, tx.slot, value));
                }
                _ => {}
            }
        }
        for id in done {
            self.subscriptions.remove(&id);
        }
        out
    }

    /// Account and program notifications for accounts that may have changed.
    async fn accounts_changed(&self, keys: &[Pubkey]) -> Vec<Message> {
        let slot = self.chain.slot();
        let mut out = Vec::new();
        for (id, subscription) in &self.subscriptions {
            match subscription {
                Subscription::Account { address, encoding, slice } if keys.contains(address) => {
                    // A closed account reads as empty, as agave sends it.
                    let account = self.chain.account(address).await.ok().flatten().unwrap_or_default();
                    let value = encode_account(&self.chain, address, &account, *encoding, *slice).await;
                    out.push(notify_in_slot("accountNotification", *id, slot, value.unwrap_or(Value::Null)));
                }
                Subscription::Program { program, encoding, slice, filters } => {
                    for address in keys {
                        let Ok(Some(account)) = self.chain.account(address).await else { continue };
                        if account.owner != *program || !matches(filters, &account) {
                            continue;
                        }
                        let Ok(encoded) = encode_account(&self.chain, address, &account, *encoding, *slice).await
                        else {
                            continue;
                        };
                        let value = json!({ "pubkey": address.to_string(), "account": encoded });
                        out.push(notify_in_slot("programNotification", *id, slot, value));
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn slot(&self, slot: u64) -> Vec<Message> {
        let root = slot.saturating_sub(1);
        self.subscriptions
            .iter()
            .filter_map(|(id, subscription)| match subscription {
                Subscription::Slot => {
                    Some(notify("slotNotification", *id, json!({ "parent": root, "root": root, "slot": slot })))
                }
                Subscription::Root => Some(notify("rootNotification", *id, json!(root))),
                _ => None,
            })
            .collect()
    }

    async fn event(&mut self, event: ChainEvent) -> Vec<Message> {
        match event {
            ChainEvent::Transaction(tx) => self.landed(&tx),
            ChainEvent::Accounts(keys) => self.accounts_changed(&keys).await,
            ChainEvent::Slot(slot) => self.slot(slot),
        }
    }

    /// After events were dropped for this session: what it missed, from the transactions the chain keeps;
    /// every watched account as it is now; the current slot. `None` when the chain no longer keeps them all.
    async fn catch_up(&mut self) -> Option<Vec<Message>> {
        let missed = self.chain.landed_since(self.last_seq)?;
        let mut out = Vec::new();
        let mut keys: Vec<Pubkey> = Vec::new();
        for tx in &missed {
            out.extend(self.landed(tx));
            keys.extend(tx.keys.iter().copied());
        }
        keys.extend(self.subscriptions.values().filter_map(|s| match s {
            Subscription::Account { address, .. } => Some(*address),
            _ => None,
        }));
        keys.sort_unstable();
        keys.dedup();
        out.extend(self.accounts_changed(&keys).await);
        out.extend(self.slot(self.chain.slot()));
        Some(out)
    }
}

/// Sends in order; false when the client is gone or does not take a message within `timeout`.
async fn send_all<S: Sink<Message> + Unpin>(sink: &mut S, messages: Vec<Message>, timeout: Duration) -> bool {
    for message in messages {
        match tokio::time::timeout(timeout, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return false,
            Err(_) => {
                eprintln!("strm-local-chain: closing a PubSub connection that stopped taking its notifications");
                return false;
            }
        }
    }
    true
}

async fn session(socket: WebSocket, server: Server, _permit: OwnedSemaphorePermit) {
    let Server { chain, mut stopping, live: _live, send_timeout, .. } = server;
    let (mut tx, mut rx) = socket.split();
    let mut events = chain.events.subscribe();
    let mut session = Session { last_seq: chain.last_seq(), chain, subscriptions: HashMap::new(), next_id: 0 };

    loop {
        let out = tokio::select! {
            _ = async { stopping.wait_for(|stop| *stop).await.map(|_| ()) } => {
                let bye = CloseFrame { code: close_code::NORMAL, reason: "the local chain is stopping".into() };
                let _ = tokio::time::timeout(send_timeout, tx.send(Message::Close(Some(bye)))).await;
                return;
            }
            incoming = rx.next() => {
                let Some(Ok(message)) = incoming else { return };
                match message {
                    Message::Text(t) => session.request(t.as_str()).await,
                    Message::Ping(p) => vec![Message::Pong(p)],
                    Message::Close(_) => return,
                    _ => continue,
                }
            }
            event = events.recv() => match event {
                Ok(event) => session.event(event).await,
                Err(RecvError::Lagged(_)) => match session.catch_up().await {
                    Some(out) => out,
                    None => {
                        let bye = CloseFrame {
                            code: close_code::AGAIN,
                            reason: "notifications fell too far behind; resubscribe".into(),
                        };
                        let _ = tokio::time::timeout(send_timeout, tx.send(Message::Close(Some(bye)))).await;
                        return;
                    }
                },
                Err(RecvError::Closed) => return,
            },
        };
        if !send_all(&mut tx, out, send_timeout).await {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        pin::Pin,
        task::{Context, Poll},
    };

    use super::*;

    /// A client that stopped reading: its socket never takes another message.
    struct Stuck;

    impl Sink<Message> for Stuck {
        type Error = std::convert::Infallible;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }
        fn start_send(self: Pin<&mut Self>, _: Message) -> Result<(), Self::Error> {
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_client_that_takes_no_message_within_the_timeout_is_given_up() {
        let started = std::time::Instant::now();
        let delivered = send_all(&mut Stuck, vec![Message::Text("{}".into())], Duration::from_millis(200)).await;
        assert!(!delivered);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn messages_go_out_in_order_to_a_client_that_reads() {
        let mut sink: Vec<Message> = Vec::new();
        let messages = vec![Message::Text("1".into()), Message::Text("2".into())];
        assert!(send_all(&mut sink, messages, Duration::from_secs(1)).await);
        assert_eq!(sink, vec![Message::Text("1".into()), Message::Text("2".into())]);
    }
}
