//! Slots over the one bank: counted from the bank's ticker, written to the clock programs read, and the
//! blockhashes that go with them.
use std::{
    sync::atomic::Ordering,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use anyhow::{Context, Result};
use solana_program_test::ProgramTestContext;
use solana_sdk::{
    clock::Clock,
    commitment_config::CommitmentLevel,
    epoch_schedule::EpochSchedule,
    hash::Hash,
    message::Message,
    signature::Signer,
    transaction::{Transaction, TransactionError},
};

use super::{Chain, ChainEvent};

/// A validator's slot time. The chain is one bank that never freezes (a new bank per slot would keep
/// every slot's sysvar writes in memory, with no accounts background service to flush them); a new
/// blockhash is registered every slot and the slot is counted, so blockhashes live 150 slots (about a
/// minute) and slots and block heights advance as on a cluster.
pub const SLOT_DURATION: Duration = Duration::from_millis(400);

fn now_unix() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or_default()
}

impl Chain {
    /// Counts a slot when the bank's ticker has registered a new blockhash (once per SLOT_DURATION), so
    /// block heights and blockhash validity agree; call it several times per slot. Programs see the slot
    /// in the clock, with the wall time (they read time from it); no transaction runs while it changes.
    pub async fn follow_ticker(&self) -> Result<()> {
        let (latest, _) = self.bank_latest_blockhash().await?;
        if std::mem::replace(&mut *self.last_blockhash.lock().unwrap(), latest) == latest {
            return Ok(());
        }
        let _no_transaction = self.tx_lock.lock().await;
        let slot = self.slot.fetch_add(1, Ordering::SeqCst) + 1;
        self.set_clock(&*self.ctx.lock().await, slot).await?;
        let _ = self.events.send(ChainEvent::Slot(slot));
        Ok(())
    }

    pub(super) async fn set_clock(&self, ctx: &ProgramTestContext, slot: u64) -> Result<()> {
        let mut clock: Clock = self.banks.get_sysvar().await?;
        let schedule: EpochSchedule = self.banks.get_sysvar().await?;
        clock.slot = slot;
        clock.epoch = schedule.get_epoch(slot);
        clock.unix_timestamp = now_unix();
        ctx.set_sysvar(&clock);
        Ok(())
    }

    pub fn slot(&self) -> u64 {
        self.slot.load(Ordering::SeqCst)
    }

    /// Every slot has a block here, so the block height is the slot.
    pub fn block_height(&self) -> u64 {
        self.slot()
    }

    async fn bank_latest_blockhash(&self) -> Result<(Hash, u64)> {
        self.banks.get_latest_blockhash_with_commitment(CommitmentLevel::Processed).await?.context("no blockhash")
    }

    /// The latest blockhash and the last block height at which it is still valid (150 slots on).
    pub async fn latest_blockhash(&self) -> Result<(Hash, u64)> {
        let (hash, bank_last_valid) = self.bank_latest_blockhash().await?;
        // The bank counts validity from its own fixed block height; the distance is the same from ours.
        let bank_height = self.banks.get_root_block_height().await?;
        Ok((hash, self.block_height() + bank_last_valid.saturating_sub(bank_height)))
    }

    /// A blockhash is valid while a transaction using it passes preflight, as simulating an empty one
    /// with it checks (144 of its 150 slots, as on agave; the bank keeps 300 for fee look-ups).
    pub async fn is_blockhash_valid(&self, blockhash: &Hash) -> Result<bool> {
        let probe = Message::new_with_blockhash(&[], Some(&self.faucet.pubkey()), blockhash);
        let result = self.banks.simulate_transaction(Transaction::new_unsigned(probe)).await?.result;
        Ok(!matches!(result, Some(Err(TransactionError::BlockhashNotFound))))
    }
}
