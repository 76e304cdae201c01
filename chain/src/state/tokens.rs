//! The SPL Token accounts of each owner, kept as transactions and cheats change accounts (a validator's
//! `spl-token-owner` account index), so getTokenAccountsByOwner reads a wallet's few accounts instead of
//! every account the chain knows: the API asks it at every beta registration, and with 10,000 streamers
//! prepared that walk was 40,000 account reads per call.
use std::collections::{BTreeSet, HashMap};

use solana_sdk::{account::Account, program_pack::Pack, pubkey::Pubkey};

use super::Validator;

/// The owner of an SPL Token account (one getTokenAccountsByOwner can return), `None` for any other account.
pub fn token_owner(account: &Account) -> Option<Pubkey> {
    if account.owner != spl_token::id() || account.data.len() != spl_token::state::Account::LEN {
        return None;
    }
    spl_token::state::Account::unpack(&account.data).ok().map(|token| token.owner)
}

#[derive(Default)]
pub(super) struct TokenOwners {
    by_owner: HashMap<Pubkey, BTreeSet<Pubkey>>,
    owner_of: HashMap<Pubkey, Pubkey>,
}

impl TokenOwners {
    /// What `address` is now: a token account of `owner`, or (`None`) no token account.
    pub fn set(&mut self, address: Pubkey, owner: Option<Pubkey>) {
        let old = match owner {
            Some(owner) => self.owner_of.insert(address, owner),
            None => self.owner_of.remove(&address),
        };
        if old == owner {
            return;
        }
        if let Some(old) = old {
            if let Some(set) = self.by_owner.get_mut(&old) {
                set.remove(&address);
                if set.is_empty() {
                    self.by_owner.remove(&old);
                }
            }
        }
        if let Some(owner) = owner {
            self.by_owner.entry(owner).or_default().insert(address);
        }
    }
}

impl Validator {
    /// Records what the accounts at these addresses are now (after a transaction or a cheat).
    pub(super) fn index_token_owners(&self, accounts: impl IntoIterator<Item = (Pubkey, Option<Pubkey>)>) {
        let mut memory = self.memory.lock().unwrap();
        for (address, owner) in accounts {
            memory.tokens.set(address, owner);
        }
    }

    /// The addresses of `owner`'s token accounts, in address order (as a walk of every account gives them).
    pub fn token_accounts_of(&self, owner: &Pubkey) -> Vec<Pubkey> {
        let memory = self.memory.lock().unwrap();
        memory.tokens.by_owner.get(owner).map(|set| set.iter().copied().collect()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use solana_sdk::{
        instruction::Instruction,
        signature::{Keypair, Signer},
        transaction::Transaction,
    };
    use spl_token::instruction::{initialize_account3, initialize_mint2, set_authority, AuthorityType};

    use super::*;
    use crate::state::Limits;

    #[tokio::test]
    async fn token_accounts_are_found_by_owner_as_transactions_change_them() {
        let dir = std::env::temp_dir().join(format!("strm-tokens-test-{}", std::process::id()));
        let validator = Validator::start(&dir.join("ledger.bin"), Limits::default(), None, None).await.unwrap();
        let payer = validator.faucet.insecure_clone();
        let (mint, account, owner, next_owner) = (Keypair::new(), Keypair::new(), Keypair::new(), Pubkey::new_unique());
        let token = spl_token::id();
        let create = |address: &Pubkey, space: usize| {
            solana_system_interface::instruction::create_account(
                &payer.pubkey(),
                address,
                10_000_000,
                space as u64,
                &token,
            )
        };
        let (blockhash, _) = validator.latest_blockhash().await.unwrap();
        let signed = |instructions: &[Instruction], signers: &[&Keypair]| {
            let mut all = vec![&payer];
            all.extend_from_slice(signers);
            Transaction::new_signed_with_payer(instructions, Some(&payer.pubkey()), &all, blockhash).into()
        };
        let instructions = [
            create(&mint.pubkey(), spl_token::state::Mint::LEN),
            initialize_mint2(&token, &mint.pubkey(), &payer.pubkey(), None, 6).unwrap(),
            create(&account.pubkey(), spl_token::state::Account::LEN),
            initialize_account3(&token, &account.pubkey(), &mint.pubkey(), &owner.pubkey()).unwrap(),
        ];
        assert!(validator.send(signed(&instructions, &[&mint, &account]), false).await.is_ok());
        assert_eq!(validator.token_accounts_of(&owner.pubkey()), vec![account.pubkey()]);
        assert!(validator.token_accounts_of(&payer.pubkey()).is_empty());

        let give = set_authority(
            &token,
            &account.pubkey(),
            Some(&next_owner),
            AuthorityType::AccountOwner,
            &owner.pubkey(),
            &[],
        );
        assert!(validator.send(signed(&[give.unwrap()], &[&owner]), false).await.is_ok());
        assert!(validator.token_accounts_of(&owner.pubkey()).is_empty());
        assert_eq!(validator.token_accounts_of(&next_owner), vec![account.pubkey()]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
