//! One PubSub connection's subscriptions: what each request subscribes to, and the notifications each
//! chain event makes for them, in an agave node's shapes.
use std::{collections::HashMap, sync::Arc};

use axum::extract::ws::Message;
use serde_json::{json, Value};
use solana_account_decoder::UiAccountEncoding;
use solana_rpc_client_api::{
    config::{
        RpcAccountInfoConfig, RpcProgramAccountsConfig, RpcSignatureSubscribeConfig, RpcTransactionLogsConfig,
        RpcTransactionLogsFilter,
    },
    filter::RpcFilterType,
};
use solana_sdk::{account::Account, pubkey::Pubkey, signature::Signature};

use super::MAX_SUBSCRIPTIONS;
use crate::{
    rpc::{
        accounts::{encode_account, matches, AccountEncoding},
        params::{self, parse, pubkey},
        RpcError,
    },
    state::{ChainEvent, Landed, Validator},
};

/// The accounts one chain event's notifications read, and their encodings, each made once: on the SBF
/// engine a read is a round trip to `strm-svm`, and an account watched 40 times was read 40 times.
#[derive(Default)]
struct Reads {
    accounts: HashMap<Pubkey, Option<Account>>,
    encoded: HashMap<(Pubkey, AccountEncoding), Option<Value>>,
}

impl Reads {
    /// The account as it is now; `None` when it does not exist (or could not be read).
    async fn account(&mut self, validator: &Validator, address: &Pubkey) -> Option<&Account> {
        if !self.accounts.contains_key(address) {
            let read = validator.account(address).await.ok().flatten();
            self.accounts.insert(*address, read);
        }
        self.accounts[address].as_ref()
    }

    /// The account's notification value; a closed account encodes as empty, as agave sends it.
    async fn encoded(&mut self, validator: &Validator, address: &Pubkey, encoding: AccountEncoding) -> Option<Value> {
        if let Some(value) = self.encoded.get(&(*address, encoding)) {
            return value.clone();
        }
        let account = self.account(validator, address).await.cloned().unwrap_or_default();
        let value = encode_account(validator, address, &account, encoding).await.ok();
        self.encoded.insert((*address, encoding), value.clone());
        value
    }
}

enum Subscription {
    Signature(Signature),
    Account {
        address: Pubkey,
        encoding: AccountEncoding,
    },
    Program {
        program: Pubkey,
        encoding: AccountEncoding,
        filters: Vec<RpcFilterType>,
    },
    /// Every transaction's logs, or those of transactions naming one address.
    Logs(Option<Pubkey>),
    Slot,
    Root,
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

pub struct Session {
    validator: Arc<Validator>,
    subscriptions: HashMap<u64, Subscription>,
    next_id: u64,
    /// The last transaction (by landing order) this session has told its subscribers about.
    last_seq: u64,
}

impl Session {
    pub fn new(validator: Arc<Validator>) -> Self {
        Session { last_seq: validator.last_seq(), validator, subscriptions: HashMap::new(), next_id: 0 }
    }

    pub async fn request(&mut self, text: &str) -> Vec<Message> {
        let Ok(request) = serde_json::from_str::<Value>(text) else {
            return vec![error(&Value::Null, -32700, "Parse error")];
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let params = request.get("params").and_then(Value::as_array).cloned().unwrap_or_default();
        let method = request.get("method").and_then(Value::as_str).unwrap_or_default();
        if method.ends_with("Unsubscribe") {
            let removed = parse::<(u64,)>(&params).ok().and_then(|(s,)| self.subscriptions.remove(&s));
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
        match method {
            "signatureSubscribe" => {
                let (signature, _): (String, Option<RpcSignatureSubscribeConfig>) = parse(params)?;
                let signature = params::signature(&signature)?;
                let landed = self.validator.with_tx(&signature, |t| (t.slot, t.meta.status.clone().err()));
                Ok((Subscription::Signature(signature), landed.map(|(slot, err)| (slot, json!({ "err": err })))))
            }
            "accountSubscribe" => {
                let (address, config): (String, Option<RpcAccountInfoConfig>) = parse(params)?;
                let encoding = AccountEncoding::of(&config.unwrap_or_default(), UiAccountEncoding::Base64)?;
                Ok((Subscription::Account { address: pubkey(&address)?, encoding }, None))
            }
            "programSubscribe" => {
                let (program, config): (String, Option<RpcProgramAccountsConfig>) = parse(params)?;
                let config = config.unwrap_or_default();
                let encoding = AccountEncoding::of(&config.account_config, UiAccountEncoding::Base64)?;
                let filters = config.filters.unwrap_or_default();
                Ok((Subscription::Program { program: pubkey(&program)?, encoding, filters }, None))
            }
            "logsSubscribe" => {
                let (filter, _): (RpcTransactionLogsFilter, Option<RpcTransactionLogsConfig>) = parse(params)?;
                let mentions = match filter {
                    RpcTransactionLogsFilter::All | RpcTransactionLogsFilter::AllWithVotes => None,
                    RpcTransactionLogsFilter::Mentions(addresses) => match addresses.as_slice() {
                        [address] => Some(pubkey(address)?),
                        _ => return Err(RpcError::invalid_params("Invalid Request: Only 1 address supported")),
                    },
                };
                Ok((Subscription::Logs(mentions), None))
            }
            "slotSubscribe" => Ok((Subscription::Slot, None)),
            "rootSubscribe" => Ok((Subscription::Root, None)),
            other => Err(RpcError::method_not_found(other)),
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

    /// Account and program notifications for accounts that may have changed. Each account is read, and
    /// encoded in each encoding asked, once per event however many subscriptions name it.
    async fn accounts_changed(&self, keys: &[Pubkey]) -> Vec<Message> {
        let slot = self.validator.slot();
        let mut reads = Reads::default();
        let mut out = Vec::new();
        for (id, subscription) in &self.subscriptions {
            match subscription {
                Subscription::Account { address, encoding } if keys.contains(address) => {
                    let value = reads.encoded(&self.validator, address, *encoding).await;
                    out.push(notify_in_slot("accountNotification", *id, slot, value.unwrap_or(Value::Null)));
                }
                Subscription::Program { program, encoding, filters } => {
                    for address in keys {
                        let Some(account) = reads.account(&self.validator, address).await else { continue };
                        if account.owner != *program || !matches(filters, account) {
                            continue;
                        }
                        let Some(encoded) = reads.encoded(&self.validator, address, *encoding).await else {
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

    pub async fn event(&mut self, event: ChainEvent) -> Vec<Message> {
        match event {
            ChainEvent::Transaction(tx) => self.landed(&tx),
            ChainEvent::Accounts(keys) => self.accounts_changed(&keys).await,
            ChainEvent::Slot(slot) => self.slot(slot),
        }
    }

    /// After events were dropped for this session: what it missed, from the transactions the chain keeps;
    /// every watched account as it is now; the current slot. `None` when the chain no longer keeps them all.
    pub async fn catch_up(&mut self) -> Option<Vec<Message>> {
        let missed = self.validator.landed_since(self.last_seq)?;
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
        out.extend(self.slot(self.validator.slot()));
        Some(out)
    }
}
