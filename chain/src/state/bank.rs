//! Running transactions on the bank (the mining program as a native builtin) and reading its accounts:
//! preflight, execution with CPI and log recording, the balances before and after, the faucet.
use std::sync::Arc;

use anyhow::Result;
use solana_runtime::bank::Bank;
use solana_sdk::{
    account::Account,
    account_info::AccountInfo,
    clock::MAX_PROCESSING_AGE,
    entrypoint::ProgramResult,
    message::{Message, VersionedMessage},
    program_pack::Pack,
    pubkey::Pubkey,
    signature::{Signature, Signer},
    transaction::{Transaction, TransactionError, VersionedTransaction},
};
use solana_svm::transaction_processor::ExecutionRecordingConfig;
use solana_transaction_status::{map_inner_instructions, TransactionStatusMeta, TransactionTokenBalance};

use super::{Chain, ChainEvent, SendError, SLOT_DURATION};

/// Anchor's entry wants the slice of accounts to live as long as the accounts themselves (`'info`); the
/// runtime lends the slice for this call only. (A leaked copy per instruction used to bridge that, and
/// grew the chain's memory with every instruction.)
pub(crate) fn mining_entry<'info>(program_id: &Pubkey, accounts: &[AccountInfo<'info>], data: &[u8]) -> ProgramResult {
    // SAFETY: the slice is valid for the whole call, and nothing borrowed for `'info` can outlive the call:
    // the result holds no borrow, and a program has nowhere else to keep one ('static places only).
    let accounts: &'info [AccountInfo<'info>] =
        unsafe { std::slice::from_raw_parts(accounts.as_ptr(), accounts.len()) };
    mining::entry(program_id, accounts, data)
}

impl Chain {
    /// Local development only: overwrite an account (as Surfpool's or Anvil's cheat codes do).
    pub async fn set_account(&self, address: Pubkey, account: Account) {
        let _no_transaction = self.tx_lock.lock().await;
        self.ctx.lock().await.set_account(&address, &account.into());
        self.decimals.lock().unwrap().remove(&address);
        self.remember([address]);
        let _ = self.events.send(ChainEvent::Accounts(Arc::new([address])));
    }

    pub async fn account(&self, address: &Pubkey) -> Result<Option<Account>> {
        Ok(self.bank().get_account(address).map(Account::from))
    }

    /// The fee a validator charges for a message (signatures and the priority fee), or `None` when its
    /// blockhash is unknown. The bank prices legacy messages; a v0 message costs what the same
    /// instructions and signers cost in a legacy one, so it is priced as that (the addresses its lookup
    /// tables load are never programs, and a fee does not depend on them).
    pub async fn fee_for_message(&self, message: &VersionedMessage) -> Result<Option<u64>> {
        let legacy = match message {
            VersionedMessage::Legacy(m) => m.clone(),
            VersionedMessage::V0(m) => {
                let loaded =
                    m.address_table_lookups.iter().map(|l| l.writable_indexes.len() + l.readonly_indexes.len());
                let mut account_keys = m.account_keys.clone();
                account_keys.extend((0..loaded.sum::<usize>()).map(|_| Pubkey::new_unique()));
                Message {
                    header: m.header,
                    account_keys,
                    recent_blockhash: m.recent_blockhash,
                    instructions: m.instructions.clone(),
                }
            }
        };
        Ok(self.banks.get_fee_for_message(legacy).await?)
    }

    /// Sends `lamports` from the genesis faucet; a real transaction, like a validator's faucet. Two equal
    /// airdrops to one wallet within a slot would be the same transaction, so the second waits for the
    /// next blockhash instead of being refused as a duplicate.
    pub async fn airdrop(&self, to: &Pubkey, lamports: u64) -> Result<Signature, SendError> {
        let ix = solana_system_interface::instruction::transfer(&self.faucet.pubkey(), to, lamports);
        let mut previous = None;
        loop {
            let (blockhash, _) = self.latest_blockhash().await.map_err(|e| SendError::Internal(e.to_string()))?;
            if previous == Some(blockhash) {
                tokio::time::sleep(SLOT_DURATION / 8).await;
                continue;
            }
            let tx = Transaction::new_signed_with_payer(
                std::slice::from_ref(&ix),
                Some(&self.faucet.pubkey()),
                &[&self.faucet],
                blockhash,
            );
            match self.send(tx.into(), false).await {
                Err(SendError::Simulation { err: TransactionError::AlreadyProcessed, .. })
                | Err(SendError::Rejected(TransactionError::AlreadyProcessed)) => previous = Some(blockhash),
                result => return result,
            }
        }
    }

    pub async fn simulate(
        &self,
        tx: VersionedTransaction,
    ) -> Result<(Option<TransactionError>, Vec<String>, u64), String> {
        let result = self.banks.simulate_transaction(tx).await.map_err(|e| e.to_string())?;
        let details = result.simulation_details.unwrap_or_else(no_simulation_details);
        match result.result {
            Some(Ok(())) => Ok((None, details.logs, details.units_consumed)),
            Some(Err(err)) => Ok((Some(err), details.logs, details.units_consumed)),
            None => Err("simulation gave no result".into()),
        }
    }

    /// Applies a transaction; unless `skip_preflight`, a failing simulation stops it first (as RPC nodes do).
    pub async fn send(&self, tx: VersionedTransaction, skip_preflight: bool) -> Result<Signature, SendError> {
        // The bank's entry point trusts its caller to have checked signatures (a validator's sigverify
        // stage drops forged ones); here they are refused with the RPC's error, preflight or not.
        if !tx.verify_with_results().into_iter().all(|ok| ok) {
            return Err(SendError::SignatureFailure);
        }
        if !skip_preflight {
            match self.simulate(tx.clone()).await {
                Ok((Some(err), logs, units)) => return Err(SendError::Simulation { err, logs, units }),
                Ok((None, _, _)) => {}
                Err(e) => return Err(SendError::Internal(e)),
            }
        }
        let signature = tx.signatures[0];
        let keys = tx.message.static_account_keys().to_vec();
        let _guard = self.tx_lock.lock().await;
        let internal = |e: anyhow::Error| SendError::Internal(e.to_string());
        let bank = self.bank();
        let pre = self.snapshot(&bank, &keys).map_err(internal)?;
        let committed = execute(&bank, tx.clone())?;
        let post = self.snapshot(&bank, &keys).map_err(internal)?;
        let slot = self.slot();
        let block_time = bank.clock().unix_timestamp;
        let meta = TransactionStatusMeta {
            status: committed.status,
            fee: committed.fee_details.total_fee(),
            pre_balances: pre.lamports,
            post_balances: post.lamports,
            // As a validator's transaction status service records them (the lists of instructions that
            // made no inner call are left out).
            inner_instructions: Some(
                map_inner_instructions(committed.inner_instructions.unwrap_or_default()).collect(),
            ),
            log_messages: Some(committed.log_messages.unwrap_or_default()),
            pre_token_balances: Some(pre.tokens),
            post_token_balances: Some(post.tokens),
            rewards: Some(Vec::new()),
            loaded_addresses: Default::default(),
            return_data: committed.return_data,
            compute_units_consumed: Some(committed.executed_units),
            cost_units: None,
        };
        let landed = self.record(slot, block_time, tx, meta);
        let _ = self.events.send(ChainEvent::Transaction(Arc::new(landed)));
        let _ = self.events.send(ChainEvent::Accounts(keys.into()));
        Ok(signature)
    }

    fn snapshot(&self, bank: &Bank, keys: &[Pubkey]) -> Result<Snapshot> {
        let mut snapshot = Snapshot::default();
        for (index, key) in keys.iter().enumerate() {
            let account = bank.get_account(key).map(Account::from);
            snapshot.lamports.push(account.as_ref().map(|a| a.lamports).unwrap_or_default());
            let Some(account) = account else { continue };
            if account.owner != spl_token::id() || account.data.len() != spl_token::state::Account::LEN {
                continue;
            }
            let Ok(token) = spl_token::state::Account::unpack(&account.data) else { continue };
            let decimals = self.mint_decimals_in(bank, &token.mint).unwrap_or_default();
            snapshot.tokens.push(TransactionTokenBalance {
                account_index: index as u8,
                mint: token.mint.to_string(),
                ui_token_amount: solana_account_decoder::parse_token::token_amount_to_ui_amount_v3(
                    token.amount,
                    &solana_account_decoder::parse_account_data::SplTokenAdditionalDataV2::with_decimals(decimals),
                ),
                owner: token.owner.to_string(),
                program_id: spl_token::id().to_string(),
            });
        }
        Ok(snapshot)
    }

    pub async fn mint_decimals(&self, mint: &Pubkey) -> Result<Option<u8>> {
        Ok(self.mint_decimals_in(&self.bank(), mint))
    }

    /// A mint's decimals never change once it is initialised, so they are remembered.
    fn mint_decimals_in(&self, bank: &Bank, mint: &Pubkey) -> Option<u8> {
        if let Some(decimals) = self.decimals.lock().unwrap().get(mint) {
            return Some(*decimals);
        }
        let decimals = bank
            .get_account(mint)
            .map(Account::from)
            .filter(|a| a.owner == spl_token::id())
            .and_then(|a| spl_token::state::Mint::unpack(&a.data).ok())
            .map(|m| m.decimals)?;
        self.decimals.lock().unwrap().insert(*mint, decimals);
        Some(decimals)
    }
}

/// Executes and commits one transaction as the bank's own `process_transaction_with_metadata` does, with
/// CPI recording on (a validator records inner instructions for its transaction status).
fn execute(
    bank: &Bank,
    tx: VersionedTransaction,
) -> Result<solana_svm::transaction_commit_result::CommittedTransaction, SendError> {
    let batch = bank.prepare_entry_batch(vec![tx]).map_err(SendError::Rejected)?;
    let (mut results, _) = bank.load_execute_and_commit_transactions(
        &batch,
        MAX_PROCESSING_AGE,
        ExecutionRecordingConfig {
            enable_cpi_recording: true,
            enable_log_recording: true,
            enable_return_data_recording: true,
            enable_transaction_balance_recording: false,
        },
        &mut Default::default(),
        Some(1000 * 1000),
    );
    // An error here: the bank never executed it (nothing was charged or changed).
    results.remove(0).map_err(SendError::Rejected)
}

fn no_simulation_details() -> solana_banks_interface::TransactionSimulationDetails {
    solana_banks_interface::TransactionSimulationDetails {
        logs: Vec::new(),
        units_consumed: 0,
        loaded_accounts_data_size: 0,
        return_data: None,
        inner_instructions: None,
    }
}

#[derive(Default)]
struct Snapshot {
    lamports: Vec<u64>,
    tokens: Vec<TransactionTokenBalance>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_an_instruction_keeps_no_memory() {
        let owner = Pubkey::new_unique();
        let keys: Vec<Pubkey> = (0..256).map(|_| Pubkey::new_unique()).collect();
        let mut lamports = vec![0u64; keys.len()];
        let mut data = vec![Vec::<u8>::new(); keys.len()];
        let accounts: Vec<AccountInfo> = keys
            .iter()
            .zip(lamports.iter_mut())
            .zip(data.iter_mut())
            .map(|((key, lamports), data)| AccountInfo::new(key, false, false, lamports, data, &owner, false, 0))
            .collect();
        // An instruction the program refuses at once (no discriminator); what matters is the call itself.
        let call = || assert!(mining_entry(&mining::ID, &accounts, &[]).is_err());
        call();
        let before = crate::test_alloc::net_on_this_thread();
        for _ in 0..50 {
            call();
        }
        let kept = crate::test_alloc::net_on_this_thread() - before;
        // A copy of the account list per call would keep 50 x 256 x 48 bytes (600 KiB); the program's log
        // lines captured by the test harness are all that may stay.
        assert!(kept < 64 * 1024, "{kept} bytes kept after 50 instructions");
    }
}
