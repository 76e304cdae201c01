//! The ledger file: every state account, written when something changed and read back at start, so a
//! restart keeps them. Programs and sysvars are made afresh at every start instead.
use std::{
    collections::BTreeMap,
    fs::File,
    io::{BufWriter, Write},
    path::Path,
};

use anyhow::{Context, Result};
use solana_sdk::{account::Account, pubkey::Pubkey, signature::Signer};

use super::Validator;

/// Accounts that are state (the ledger keeps them), as opposed to programs and sysvars, which every start
/// makes afresh.
pub fn persistable(account: &Account) -> bool {
    !account.executable
        && account.owner != solana_sdk::sysvar::id()
        && account.owner != solana_sdk::native_loader::id()
        && account.owner != solana_sdk_ids::bpf_loader_upgradeable::id()
}

/// The mining program's ProgramData, as the upgradeable loader leaves it after `anchor deploy` (the header;
/// the program's code would follow it): the program runs natively here, but its initialisation checks the
/// upgrade authority recorded at this address. Made afresh at every start, never kept in the ledger.
pub(super) fn program_data(upgrade_authority: Pubkey) -> Result<(Pubkey, Account)> {
    use solana_loader_v3_interface::{get_program_data_address, state::UpgradeableLoaderState};
    let address = get_program_data_address(&mining::ID);
    let data = bincode::serialize(&UpgradeableLoaderState::ProgramData {
        slot: 0,
        upgrade_authority_address: Some(upgrade_authority),
    })?;
    let lamports = solana_sdk::rent::Rent::default().minimum_balance(data.len());
    Ok((
        address,
        Account {
            lamports,
            data,
            owner: solana_sdk_ids::bpf_loader_upgradeable::id(),
            executable: false,
            rent_epoch: 0,
        },
    ))
}

/// The accounts a previous run kept (none when there is no ledger yet).
/// Where the last slot is kept beside the ledger, so that a restart goes on counting from it as a validator
/// does from its ledger's: clients that refuse an answer from a slot older than one they have seen (the
/// records watch) keep working across a restart.
pub fn slot_file(ledger: &Path) -> std::path::PathBuf {
    ledger.with_extension("slot")
}

/// The slot the last save recorded; 0 for a new ledger or an unreadable file.
pub(super) fn read_slot(ledger: &Path) -> u64 {
    std::fs::read_to_string(slot_file(ledger)).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0)
}

pub(super) fn read(ledger: &Path) -> Result<Vec<(Pubkey, Account)>> {
    match std::fs::read(ledger) {
        Ok(bytes) => bincode::deserialize(&bytes).with_context(|| format!("reading ledger {}", ledger.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("reading ledger {}", ledger.display())),
    }
}

/// The ledger's accounts as last written, each entry serialised as the file holds it (bincode's
/// `Vec<(Pubkey, Account)>` is its length, then the entries one after the other), in address order: a save
/// reads and serialises only the accounts changed since the last one, then writes them all. Reading every
/// account at every save cost a core with 10,000 streamers prepared (40,000 accounts, each second).
#[derive(Default)]
pub(super) struct Saved(BTreeMap<Pubkey, Vec<u8>>);

impl Saved {
    /// What a ledger just read holds.
    pub fn of(accounts: &[(Pubkey, Account)]) -> Result<Self> {
        let mut saved = Saved::default();
        for (address, account) in accounts {
            saved.0.insert(*address, bincode::serialize(&(address, account))?);
        }
        Ok(saved)
    }

    fn write(&self, path: &Path) -> Result<()> {
        let mut file = BufWriter::new(File::create(path)?);
        file.write_all(&(self.0.len() as u64).to_le_bytes())?;
        for entry in self.0.values() {
            file.write_all(entry)?;
        }
        file.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    }
}

impl Validator {
    /// Writes the ledger file when an account changed: the changed ones read again, every one written.
    pub async fn save(&self) -> Result<()> {
        let mut saved = self.save_lock.lock().await;
        tokio::fs::write(slot_file(&self.ledger), self.slot().to_string()).await?;
        let changed = {
            let mut memory = self.memory.lock().unwrap();
            if memory.changed.is_empty() {
                return Ok(());
            }
            std::mem::take(&mut memory.changed).into_iter().collect::<Vec<_>>()
        };
        // Changes made from here on are taken by the next save; a save that does not reach the file (an
        // error, or the periodic saver aborted at shutdown between its awaits, which the SBF engine's reads
        // make likely) gives its own back, or the shutdown's save finds nothing to write and the last
        // second is lost.
        let mut unsaved = Unsaved { validator: self, keys: changed, written: false };
        let mut gone = Vec::new();
        for key in &unsaved.keys {
            match self.account(key).await? {
                Some(account) if persistable(&account) && *key != self.faucet.pubkey() => {
                    saved.0.insert(*key, bincode::serialize(&(key, &account))?);
                }
                Some(_) => {
                    saved.0.remove(key);
                }
                // Addresses a transaction named but no account lives at (or no longer does) are forgotten,
                // so what is walked here stays what exists.
                None => {
                    saved.0.remove(key);
                    gone.push(*key);
                }
            }
        }
        if !gone.is_empty() {
            // Checked again with no transaction or cheat running, which could bring one to life meanwhile
            // (that one is among the changes the next save reads).
            let _no_transaction = self.tx_lock.lock().await;
            let mut still_gone = Vec::with_capacity(gone.len());
            for key in gone {
                if self.account(&key).await?.is_none() {
                    still_gone.push(key);
                }
            }
            let mut memory = self.memory.lock().unwrap();
            for key in still_gone {
                memory.known.remove(&key);
            }
        }
        let tmp = self.ledger.with_extension("tmp");
        saved.write(&tmp)?;
        std::fs::rename(&tmp, &self.ledger)?;
        unsaved.written = true;
        Ok(())
    }
}

/// Gives its changes back to the next save when dropped before the save it guards wrote the file.
struct Unsaved<'a> {
    validator: &'a Validator,
    keys: Vec<Pubkey>,
    written: bool,
}

impl Drop for Unsaved<'_> {
    fn drop(&mut self) {
        if !self.written {
            self.validator.memory.lock().unwrap().changed.extend(self.keys.iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Limits;

    #[tokio::test]
    async fn a_save_that_fails_is_made_by_the_next_one() {
        let dir = std::env::temp_dir().join(format!("strm-ledger-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ledger = dir.join("gone").join("ledger.bin");
        let validator = Validator::start(&ledger, Limits::default(), None, None).await.unwrap();
        let wallet = Pubkey::new_unique();
        assert!(validator.airdrop(&wallet, 5_000_000).await.is_ok());
        // Its directory does not exist: the write fails, after the accounts were read.
        assert!(validator.save().await.is_err());
        std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
        validator.save().await.unwrap();
        let kept = read(&ledger).unwrap();
        assert!(kept.iter().any(|(address, account)| *address == wallet && account.lamports == 5_000_000));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn a_save_reads_only_the_accounts_changed_and_writes_them_all() {
        let dir = std::env::temp_dir().join(format!("strm-ledger-changed-test-{}", std::process::id()));
        let ledger = dir.join("ledger.bin");
        std::fs::create_dir_all(&dir).unwrap();
        let system = solana_sdk::system_program::id();
        let validator = Validator::start(&ledger, Limits::default(), None, None).await.unwrap();
        let wallets: Vec<Pubkey> = (0..500).map(|_| Pubkey::new_unique()).collect();
        for (i, wallet) in wallets.iter().enumerate() {
            validator.set_account(*wallet, Account::new(1_000_000 + i as u64, 0, &system)).await.unwrap();
        }
        validator.save().await.unwrap();
        let fresh = Pubkey::new_unique();
        assert!(validator.airdrop(&fresh, 5_000_000).await.is_ok());
        let reads = validator.reads();
        validator.save().await.unwrap();
        // The airdrop's accounts (the faucet, the wallet, the system program), not the 500 others.
        assert!(validator.reads() - reads <= 3, "{} accounts read", validator.reads() - reads);
        let lamports = |kept: &[(Pubkey, Account)], address: &Pubkey| {
            kept.iter().find(|(a, _)| a == address).map(|(_, account)| account.lamports)
        };
        let kept = read(&ledger).unwrap();
        assert_eq!(kept.len(), 501);
        assert!(wallets.iter().enumerate().all(|(i, w)| lamports(&kept, w) == Some(1_000_000 + i as u64)));
        assert_eq!(lamports(&kept, &fresh), Some(5_000_000));
        drop(validator);

        // Started again from that file, a change is written with everything it kept.
        let validator = Validator::start(&ledger, Limits::default(), None, None).await.unwrap();
        let third = Pubkey::new_unique();
        validator.set_account(third, Account::new(7_000_000, 0, &system)).await.unwrap();
        let reads = validator.reads();
        validator.save().await.unwrap();
        assert!(validator.reads() - reads <= 1, "{} accounts read", validator.reads() - reads);
        let kept = read(&ledger).unwrap();
        assert_eq!(kept.len(), 502);
        assert_eq!(lamports(&kept, &third), Some(7_000_000));
        assert_eq!(lamports(&kept, &wallets[499]), Some(1_000_499));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
