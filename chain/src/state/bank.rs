//! Running transactions on the bank (the mining program as a native builtin) and reading its accounts:
//! preflight, execution with CPI and log recording, the balances before and after, the faucet.
use std::sync::Arc;

use anyhow::{Context, Result};
use solana_runtime::bank::Bank;
use solana_sdk::transaction_context::TransactionReturnData;
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
use solana_transaction_status::{
    map_inner_instructions, InnerInstructions, TransactionStatusMeta, TransactionTokenBalance,
};

use super::{token_owner, ChainEvent, Engine, SendError, Validator};

/// What running a transaction gave, on either engine.
pub(super) struct Executed {
    pub status: Result<(), TransactionError>,
    /// It made it into a block (its fee charged), whether it succeeded or not.
    pub included: bool,
    pub fee: u64,
    pub logs: Vec<String>,
    pub units: u64,
    /// As a validator's transaction status service records them (the lists of instructions that made no
    /// inner call are left out).
    pub inner_instructions: Vec<InnerInstructions>,
    pub return_data: Option<TransactionReturnData>,
}

impl Executed {
    pub fn refused(err: TransactionError) -> Self {
        Executed {
            status: Err(err),
            included: false,
            fee: 0,
            logs: Vec::new(),
            units: 0,
            inner_instructions: Vec::new(),
            return_data: None,
        }
    }
}

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

impl Validator {
    /// Local development only: overwrite an account (as Surfpool's or Anvil's cheat codes do).
    pub async fn set_account(&self, address: Pubkey, account: Account) -> Result<()> {
        let _no_transaction = self.tx_lock.lock().await;
        let owner = (account.lamports > 0).then(|| token_owner(&account)).flatten();
        match &self.engine {
            Engine::Native(native) => native.ctx.lock().await.set_account(&address, &account.into()),
            Engine::Sbf(svm) => svm.set_account(&address, account)?,
        }
        self.decimals.lock().unwrap().remove(&address);
        self.remember([address]);
        self.index_token_owners([(address, owner)]);
        let _ = self.events.send(ChainEvent::Accounts(Arc::new([address])));
        Ok(())
    }

    pub async fn account(&self, address: &Pubkey) -> Result<Option<Account>> {
        self.get(address)
    }

    fn get(&self, address: &Pubkey) -> Result<Option<Account>> {
        #[cfg(test)]
        self.reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match &self.engine {
            Engine::Native(native) => Ok(native.bank().get_account(address).map(Account::from)),
            Engine::Sbf(svm) => svm.account(address),
        }
    }

    /// A sysvar, as programs read it.
    pub async fn sysvar<T: solana_sdk::sysvar::Sysvar>(&self) -> Result<T> {
        let account = self.get(&T::id())?.context("no such sysvar")?;
        Ok(bincode::deserialize(&account.data)?)
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
        match &self.engine {
            Engine::Native(native) => Ok(native.banks.get_fee_for_message(legacy).await?),
            Engine::Sbf(svm) => {
                Ok(svm.is_blockhash_valid(&legacy.recent_blockhash, self.slot()).then(|| fee_of(&legacy)))
            }
        }
    }

    /// Sends `lamports` from the genesis faucet; a real transaction, like a validator's faucet. Two equal
    /// airdrops to one wallet within one blockhash's life are the same transaction, so the second is paid
    /// once and answered with the first's signature, as agave's validator does
    /// (docs/chain.md#known-differences-from-a-validator).
    pub async fn airdrop(&self, to: &Pubkey, lamports: u64) -> Result<Signature, SendError> {
        let ix = solana_system_interface::instruction::transfer(&self.faucet.pubkey(), to, lamports);
        let (blockhash, _) = self.latest_blockhash().await.map_err(|e| SendError::Internal(e.to_string()))?;
        let tx = Transaction::new_signed_with_payer(
            std::slice::from_ref(&ix),
            Some(&self.faucet.pubkey()),
            &[&self.faucet],
            blockhash,
        );
        let signature = tx.signatures[0];
        match self.send(tx.into(), false).await {
            Err(SendError::Simulation { err: TransactionError::AlreadyProcessed, .. })
            | Err(SendError::Rejected(TransactionError::AlreadyProcessed)) => Ok(signature),
            result => result,
        }
    }

    pub async fn simulate(
        &self,
        tx: VersionedTransaction,
    ) -> Result<(Option<TransactionError>, Vec<String>, u64), String> {
        let native = match &self.engine {
            Engine::Native(native) => native,
            Engine::Sbf(svm) => {
                let e = svm.simulate(&tx, self.slot()).map_err(|e| format!("{e:#}"))?;
                return Ok((e.status.err(), e.logs, e.units));
            }
        };
        let result = native.banks.simulate_transaction(tx).await.map_err(|e| e.to_string())?;
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
        // The same transaction sent twice at once (a client's retry, a payout resent, two equal airdrops) lands
        // once: the second waited here while the first landed, and its preflight ran before that. A validator's
        // status cache refuses it so (docs/chain.md#known-differences-from-a-validator).
        if self.with_tx(&signature, |_| ()).is_some() {
            return Err(SendError::Rejected(TransactionError::AlreadyProcessed));
        }
        let internal = |e: anyhow::Error| SendError::Internal(e.to_string());
        let pre = self.snapshot(&keys).map_err(internal)?;
        let slot = self.slot();
        let executed = match &self.engine {
            Engine::Native(native) => execute(&native.bank(), tx.clone())?,
            Engine::Sbf(svm) => svm.send(&tx, slot).map_err(internal)?.map_err(SendError::Rejected)?,
        };
        let post = self.snapshot(&keys).map_err(internal)?;
        let block_time = self.sysvar::<solana_sdk::clock::Clock>().await.map_err(internal)?.unix_timestamp;
        let meta = TransactionStatusMeta {
            status: executed.status,
            fee: executed.fee,
            pre_balances: pre.lamports,
            post_balances: post.lamports,
            inner_instructions: Some(executed.inner_instructions),
            log_messages: Some(executed.logs),
            pre_token_balances: Some(pre.tokens),
            post_token_balances: Some(post.tokens),
            rewards: Some(Vec::new()),
            loaded_addresses: Default::default(),
            return_data: executed.return_data,
            compute_units_consumed: Some(executed.units),
            cost_units: None,
        };
        self.index_token_owners(keys.iter().copied().zip(post.token_owners));
        let landed = self.record(slot, block_time, tx, meta);
        let _ = self.events.send(ChainEvent::Transaction(Arc::new(landed)));
        let _ = self.events.send(ChainEvent::Accounts(keys.into()));
        Ok(signature)
    }

    fn snapshot(&self, keys: &[Pubkey]) -> Result<Snapshot> {
        let mut snapshot = Snapshot::default();
        for (index, key) in keys.iter().enumerate() {
            let account = self.get(key)?;
            snapshot.lamports.push(account.as_ref().map(|a| a.lamports).unwrap_or_default());
            snapshot.token_owners.push(account.as_ref().and_then(token_owner));
            let Some(account) = account else { continue };
            if account.owner != spl_token::id() || account.data.len() != spl_token::state::Account::LEN {
                continue;
            }
            let Ok(token) = spl_token::state::Account::unpack(&account.data) else { continue };
            let decimals = self.mint_decimals_in(&token.mint)?.unwrap_or_default();
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
        self.mint_decimals_in(mint)
    }

    /// A mint's decimals never change once it is initialised, so they are remembered.
    fn mint_decimals_in(&self, mint: &Pubkey) -> Result<Option<u8>> {
        if let Some(decimals) = self.decimals.lock().unwrap().get(mint) {
            return Ok(Some(*decimals));
        }
        let decimals = self
            .get(mint)?
            .filter(|a| a.owner == spl_token::id())
            .and_then(|a| spl_token::state::Mint::unpack(&a.data).ok())
            .map(|m| m.decimals);
        if let Some(decimals) = decimals {
            self.decimals.lock().unwrap().insert(*mint, decimals);
        }
        Ok(decimals)
    }
}

/// Executes and commits one transaction as the bank's own `process_transaction_with_metadata` does, with
/// CPI recording on (a validator records inner instructions for its transaction status).
fn execute(bank: &Bank, tx: VersionedTransaction) -> Result<Executed, SendError> {
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
    let committed = results.remove(0).map_err(SendError::Rejected)?;
    Ok(Executed {
        status: committed.status,
        included: true,
        fee: committed.fee_details.total_fee(),
        logs: committed.log_messages.unwrap_or_default(),
        units: committed.executed_units,
        inner_instructions: map_inner_instructions(committed.inner_instructions.unwrap_or_default()).collect(),
        return_data: committed.return_data,
    })
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

/// What a validator charges per signature (agave's default fee structure, the native bank's too).
const LAMPORTS_PER_SIGNATURE: u64 = 5000;

/// A message's fee as agave's fee structure computes it: 5000 lamports a signature, plus the priority fee
/// (its compute-unit price in micro-lamports times its compute-unit limit, rounded up), the limit being
/// the one it sets or 200,000 per instruction other than the compute budget's (at most 1.4 million).
fn fee_of(message: &Message) -> u64 {
    let budget = solana_sdk::compute_budget::id();
    let (mut price, mut limit, mut others) = (0u64, None, 0u64);
    for ix in &message.instructions {
        if message.account_keys.get(ix.program_id_index as usize) != Some(&budget) {
            others += 1;
            continue;
        }
        match ix.data.split_first() {
            Some((2, units)) if units.len() == 4 => {
                limit = Some(u64::from(u32::from_le_bytes(units.try_into().unwrap())))
            }
            Some((3, micro)) if micro.len() == 8 => price = u64::from_le_bytes(micro.try_into().unwrap()),
            _ => {}
        }
    }
    let limit = limit.unwrap_or(others * 200_000).min(1_400_000);
    let priority = (u128::from(price) * u128::from(limit)).div_ceil(1_000_000) as u64;
    LAMPORTS_PER_SIGNATURE * u64::from(message.header.num_required_signatures) + priority
}

#[derive(Default)]
struct Snapshot {
    lamports: Vec<u64>,
    tokens: Vec<TransactionTokenBalance>,
    /// Each account's owner when it is an SPL Token account (the token-owner index).
    token_owners: Vec<Option<Pubkey>>,
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
