//! Slots over the one bank: counted from the bank's ticker, written to the clock programs read, and the
//! blockhashes that go with them.
use std::{
    sync::atomic::Ordering,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use anyhow::{Context, Result};
use solana_sdk::{
    clock::{Clock, MAX_PROCESSING_AGE},
    commitment_config::CommitmentLevel,
    epoch_schedule::EpochSchedule,
    hash::Hash,
    message::Message,
    signature::Signer,
    transaction::{Transaction, TransactionError},
};

use super::{ChainEvent, Engine, Native, Validator};

/// A validator's slot time. The chain is one bank that never freezes (a new bank per slot would keep
/// every slot's sysvar writes in memory, with no accounts background service to flush them); a new
/// blockhash is registered every slot and the slot is counted, so blockhashes live 150 slots (about a
/// minute) and slots and block heights advance as on a cluster.
pub const SLOT_DURATION: Duration = Duration::from_millis(400);

fn now_unix() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or_default()
}

impl Validator {
    /// Counts a slot when the bank's ticker has registered a new blockhash (once per SLOT_DURATION), so
    /// block heights and blockhash validity agree; call it several times per slot. Programs see the slot
    /// in the clock, with the wall time (they read time from it); no transaction runs while it changes.
    /// On the SBF engine, which has no ticker, a slot is counted every SLOT_DURATION of wall time.
    pub async fn follow_ticker(&self) -> Result<()> {
        match &self.engine {
            Engine::Native(native) => {
                let (latest, _) = native.latest_blockhash().await?;
                if std::mem::replace(&mut *self.last_blockhash.lock().unwrap(), latest) == latest {
                    return Ok(());
                }
            }
            Engine::Sbf(_) => {
                let mut last = self.last_slot_at.lock().unwrap();
                if last.elapsed() < SLOT_DURATION {
                    return Ok(());
                }
                *last = Instant::now();
            }
        }
        let _no_transaction = self.tx_lock.lock().await;
        let slot = self.slot.fetch_add(1, Ordering::SeqCst) + 1;
        self.set_clock(slot).await?;
        let _ = self.events.send(ChainEvent::Slot(slot));
        Ok(())
    }

    pub(super) async fn set_clock(&self, slot: u64) -> Result<()> {
        let schedule: EpochSchedule = self.sysvar().await?;
        match &self.engine {
            Engine::Native(native) => {
                let mut clock: Clock = self.sysvar().await?;
                clock.slot = slot;
                clock.epoch = schedule.get_epoch(slot);
                clock.unix_timestamp = now_unix();
                native.ctx.lock().await.set_sysvar(&clock);
            }
            // A new blockhash with the slot, as the native bank's ticker registers one.
            Engine::Sbf(svm) => {
                svm.new_slot(slot, schedule.get_epoch(slot), now_unix())?;
            }
        }
        Ok(())
    }

    pub fn slot(&self) -> u64 {
        self.slot.load(Ordering::SeqCst)
    }

    /// Every slot has a block here, so the block height is the slot.
    pub fn block_height(&self) -> u64 {
        self.slot()
    }

    /// The latest blockhash and the last block height at which it is still valid (150 slots on).
    pub async fn latest_blockhash(&self) -> Result<(Hash, u64)> {
        let native = match &self.engine {
            Engine::Native(native) => native,
            Engine::Sbf(svm) => {
                let (hash, slot) = svm.latest_blockhash()?;
                return Ok((hash, slot + MAX_PROCESSING_AGE as u64));
            }
        };
        let (hash, bank_last_valid) = native.latest_blockhash().await?;
        // The bank counts validity from its own fixed block height; the distance is the same from ours.
        let bank_height = native.banks.get_root_block_height().await?;
        Ok((hash, self.block_height() + bank_last_valid.saturating_sub(bank_height)))
    }

    /// A blockhash is valid while a transaction using it passes preflight, as simulating an empty one
    /// with it checks (144 of its 150 slots, as on agave; the bank keeps 300 for fee look-ups).
    pub async fn is_blockhash_valid(&self, blockhash: &Hash) -> Result<bool> {
        let native = match &self.engine {
            Engine::Native(native) => native,
            Engine::Sbf(svm) => return Ok(svm.is_blockhash_valid(blockhash, self.slot())),
        };
        let probe = Message::new_with_blockhash(&[], Some(&self.faucet.pubkey()), blockhash);
        let result = native.banks.simulate_transaction(Transaction::new_unsigned(probe)).await?.result;
        Ok(!matches!(result, Some(Err(TransactionError::BlockhashNotFound))))
    }
}

impl Native {
    async fn latest_blockhash(&self) -> Result<(Hash, u64)> {
        self.banks.get_latest_blockhash_with_commitment(CommitmentLevel::Processed).await?.context("no blockhash")
    }
}
