//! What an RPC node remembers: the transactions that landed (a bounded number, oldest dropped first), in
//! landing order, and the addresses of the accounts it has seen.
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use solana_sdk::{
    pubkey::Pubkey,
    signature::Signature,
    transaction::{TransactionError, VersionedTransaction},
};
use solana_transaction_status::{
    ConfirmedTransactionWithStatusMeta, TransactionStatusMeta, TransactionWithStatusMeta,
    VersionedTransactionWithStatusMeta,
};

use super::{tokens::TokenOwners, Validator};

/// A transaction that landed (successfully or not), as PubSub tells it.
#[derive(Debug)]
pub struct Landed {
    /// Landing order since the chain started, from 1.
    pub seq: u64,
    pub signature: Signature,
    pub slot: u64,
    pub err: Option<TransactionError>,
    pub logs: Vec<String>,
    pub keys: Vec<Pubkey>,
}

pub struct StoredTx {
    pub seq: u64,
    pub slot: u64,
    pub block_time: i64,
    pub transaction: VersionedTransaction,
    pub meta: TransactionStatusMeta,
}

impl StoredTx {
    pub fn confirmed(&self) -> ConfirmedTransactionWithStatusMeta {
        ConfirmedTransactionWithStatusMeta {
            slot: self.slot,
            block_time: Some(self.block_time),
            tx_with_meta: TransactionWithStatusMeta::Complete(VersionedTransactionWithStatusMeta {
                transaction: self.transaction.clone(),
                meta: self.meta.clone(),
            }),
        }
    }
}

#[derive(Default)]
pub(super) struct Memory {
    /// Addresses of accounts that exist (or did when last seen): getProgramAccounts and the ledger walk them.
    pub(super) known: BTreeSet<Pubkey>,
    pub(super) txs: HashMap<Signature, StoredTx>,
    /// The transactions kept, oldest first, by landing order.
    pub(super) order: VecDeque<(u64, Signature)>,
    /// Transactions landed since the chain started (kept or not); the last one's `seq`.
    pub(super) landed: u64,
    /// Accounts changed since the ledger was last written: the next save reads these only.
    pub(super) changed: HashSet<Pubkey>,
    /// The SPL Token accounts of each owner (getTokenAccountsByOwner).
    pub(super) tokens: TokenOwners,
}

impl Validator {
    pub fn remember(&self, keys: impl IntoIterator<Item = Pubkey>) {
        let mut memory = self.memory.lock().unwrap();
        for key in keys {
            memory.known.insert(key);
            memory.changed.insert(key);
        }
    }

    pub fn known_addresses(&self) -> Vec<Pubkey> {
        self.memory.lock().unwrap().known.iter().copied().collect()
    }

    /// Transactions executed since the chain started (history is not kept across restarts).
    pub fn transaction_count(&self) -> u64 {
        self.memory.lock().unwrap().landed
    }

    /// How many transactions have landed so far: the `seq` of the last one.
    pub fn last_seq(&self) -> u64 {
        self.memory.lock().unwrap().landed
    }

    /// The transactions that landed after `seq`, oldest first, for a PubSub session that fell behind; `None`
    /// when some of them are no longer kept.
    pub fn landed_since(&self, seq: u64) -> Option<Vec<Landed>> {
        let memory = self.memory.lock().unwrap();
        let first_kept = memory.order.front().map(|(s, _)| *s).unwrap_or(memory.landed + 1);
        if seq + 1 < first_kept {
            return None;
        }
        let start = memory.order.partition_point(|(s, _)| *s <= seq);
        Some(
            memory
                .order
                .range(start..)
                .filter_map(|(_, signature)| memory.txs.get(signature))
                .map(|tx| Landed {
                    seq: tx.seq,
                    signature: tx.transaction.signatures[0],
                    slot: tx.slot,
                    err: tx.meta.status.clone().err(),
                    logs: tx.meta.log_messages.clone().unwrap_or_default(),
                    keys: tx.transaction.message.static_account_keys().to_vec(),
                })
                .collect(),
        )
    }

    pub fn with_tx<T>(&self, signature: &Signature, f: impl FnOnce(&StoredTx) -> T) -> Option<T> {
        self.memory.lock().unwrap().txs.get(signature).map(f)
    }

    /// The kept transactions, newest first, each given to `visit` until it answers false
    /// (getSignaturesForAddress).
    pub fn newest_first(&self, mut visit: impl FnMut(&StoredTx) -> bool) {
        let memory = self.memory.lock().unwrap();
        for (_, signature) in memory.order.iter().rev() {
            if let Some(tx) = memory.txs.get(signature) {
                if !visit(tx) {
                    break;
                }
            }
        }
    }

    /// Keeps a transaction that landed, as the `seq`th, and the addresses it named.
    pub(super) fn record(
        &self,
        slot: u64,
        block_time: i64,
        transaction: VersionedTransaction,
        meta: TransactionStatusMeta,
    ) -> Landed {
        let signature = transaction.signatures[0];
        let keys = transaction.message.static_account_keys().to_vec();
        let err = meta.status.clone().err();
        let logs = meta.log_messages.clone().unwrap_or_default();
        let mut memory = self.memory.lock().unwrap();
        memory.landed += 1;
        let seq = memory.landed;
        memory.txs.insert(signature, StoredTx { seq, slot, block_time, transaction, meta });
        memory.order.push_back((seq, signature));
        while memory.order.len() > self.limits.max_transactions.max(1) {
            if let Some((_, oldest)) = memory.order.pop_front() {
                memory.txs.remove(&oldest);
            }
        }
        memory.known.extend(keys.iter().copied());
        memory.changed.extend(keys.iter().copied());
        Landed { seq, signature, slot, err, logs, keys }
    }
}
