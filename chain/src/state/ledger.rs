//! The ledger file: every state account, written when something changed and read back at start, so a
//! restart keeps them. Programs and sysvars are made afresh at every start instead.
use std::path::Path;

use anyhow::{Context, Result};
use solana_sdk::{account::Account, pubkey::Pubkey, signature::Signer};

use super::Chain;

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
pub(super) fn read(ledger: &Path) -> Result<Vec<(Pubkey, Account)>> {
    match std::fs::read(ledger) {
        Ok(bytes) => bincode::deserialize(&bytes).with_context(|| format!("reading ledger {}", ledger.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("reading ledger {}", ledger.display())),
    }
}

impl Chain {
    /// Writes every account the chain knows to the ledger file, when something changed.
    pub async fn save(&self) -> Result<()> {
        let _one_at_a_time = self.save_lock.lock().await;
        let keys = {
            let mut memory = self.memory.lock().unwrap();
            if !memory.dirty {
                return Ok(());
            }
            memory.dirty = false;
            memory.known.iter().copied().collect::<Vec<_>>()
        };
        // Changes made from here on mark the ledger dirty again; a save that does not reach the file (an error,
        // or the periodic saver aborted at shutdown between its awaits, which the SBF engine's reads make
        // likely) must too, or the shutdown's save finds nothing to write and the last second is lost.
        let mut unsaved = Unsaved { chain: self, written: false };
        let mut accounts = Vec::with_capacity(keys.len());
        let mut gone = Vec::new();
        for key in keys {
            match self.account(&key).await? {
                Some(account) if persistable(&account) && key != self.faucet.pubkey() => accounts.push((key, account)),
                Some(_) => {}
                // Addresses a transaction named but no account lives at (or no longer does) are forgotten,
                // so what is walked here stays what exists.
                None => gone.push(key),
            }
        }
        if !gone.is_empty() {
            // Checked again with no transaction or cheat running, which could bring one to life meanwhile.
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
        std::fs::write(&tmp, bincode::serialize(&accounts)?)?;
        std::fs::rename(&tmp, &self.ledger)?;
        unsaved.written = true;
        Ok(())
    }
}

/// Marks the ledger dirty again when dropped before the save it guards wrote the file.
struct Unsaved<'a> {
    chain: &'a Chain,
    written: bool,
}

impl Drop for Unsaved<'_> {
    fn drop(&mut self) {
        if !self.written {
            self.chain.memory.lock().unwrap().dirty = true;
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
        let chain = Chain::start(&ledger, Limits::default(), None, None).await.unwrap();
        let wallet = Pubkey::new_unique();
        assert!(chain.airdrop(&wallet, 5_000_000).await.is_ok());
        // Its directory does not exist: the write fails, after the accounts were read.
        assert!(chain.save().await.is_err());
        std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
        chain.save().await.unwrap();
        let kept = read(&ledger).unwrap();
        assert!(kept.iter().any(|(address, account)| *address == wallet && account.lamports == 5_000_000));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
