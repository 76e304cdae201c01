//! The validator (`Validator`): agave's bank (through solana-program-test) with the mining program as a native builtin and
//! the real SPL Token / Associated Token programs, plus what an RPC node remembers (transactions, the
//! addresses it has seen) and a ledger file so a restart keeps every account.
//!
//! `bank` runs transactions and reads accounts, `history` keeps what landed, `slots` counts slots over
//! the one bank, `ledger` keeps the accounts across restarts.
use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{atomic::AtomicU64, Arc},
};

use anyhow::Result;
use solana_program_test::{processor, BanksClient, ProgramTest, ProgramTestContext};
use solana_runtime::{bank::Bank, bank_forks::BankForks};
use solana_sdk::{
    account::Account,
    hash::Hash,
    pubkey::Pubkey,
    signature::{Keypair, Signer},
    transaction::TransactionError,
};
use tokio::sync::{broadcast, Mutex};

mod bank;
mod history;
mod ledger;
mod slots;
mod svm;
mod tokens;

use bank::mining_entry;
pub use history::Landed;
use history::Memory;
pub use ledger::{persistable, slot_file};
pub use slots::SLOT_DURATION;
use tokens::token_owner;

/// What the chain keeps in memory, and how far a PubSub session may fall behind.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Transactions kept for getTransaction / getSignatureStatuses; the oldest are dropped first.
    pub max_transactions: usize,
    /// Events queued for each PubSub session; one that falls further behind is caught up from the
    /// transactions kept (or closed, when those no longer reach back far enough).
    pub event_queue: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_transactions: 50_000, event_queue: 4096 }
    }
}

#[derive(Clone, Debug)]
pub enum ChainEvent {
    Transaction(Arc<Landed>),
    /// These accounts may have changed.
    Accounts(Arc<[Pubkey]>),
    /// A new slot began (the previous one is rooted at once: there is one bank and no forks).
    Slot(u64),
}

/// Why a transaction was not taken.
pub enum SendError {
    /// Preflight simulation failed; nothing was committed.
    Simulation {
        err: TransactionError,
        logs: Vec<String>,
        units: u64,
    },
    /// The bank refused it before execution (bad blockhash, unfunded fee payer, duplicate…).
    Rejected(TransactionError),
    /// A signature does not match its signer and the message.
    SignatureFailure,
    Internal(String),
}

/// The program built for SBF, run by the SBF engine instead of natively.
pub struct Sbf {
    /// `strm-svm` (chain/svm).
    pub engine: PathBuf,
    /// `target/deploy/mining.so`.
    pub program: PathBuf,
}

/// What holds the accounts and runs transactions.
enum Engine {
    /// agave 2.3's bank with the mining program as a native builtin.
    Native(Box<Native>),
    /// LiteSVM over agave 4.3 in a child process, running the mining program's SBF build.
    Sbf(svm::Svm),
}

struct Native {
    banks: BanksClient,
    /// The bank itself: transactions run on it with CPI recording, and reads skip the BanksClient hop.
    bank_forks: Arc<std::sync::RwLock<BankForks>>,
    ctx: Mutex<ProgramTestContext>,
}

impl Native {
    /// The working bank (there is one: it never freezes, see SLOT_DURATION).
    fn bank(&self) -> Arc<Bank> {
        self.bank_forks.read().unwrap().working_bank()
    }
}

/// The local validator's state behind its RPC and PubSub servers: the engine holding the accounts, what landed,
/// the slots, and the ledger file they are saved to.
pub struct Validator {
    engine: Engine,
    faucet: Keypair,
    memory: std::sync::Mutex<Memory>,
    /// Mint decimals seen so far (a mint's decimals never change).
    decimals: std::sync::Mutex<HashMap<Pubkey, u8>>,
    /// Transactions are applied one at a time so their pre/post balances are exact.
    tx_lock: Mutex<()>,
    /// One ledger save at a time: the shutdown's save waits for the periodic one in flight (which would
    /// otherwise have taken the changes and then died with the process, its write never made). It holds
    /// the ledger's accounts as written (each entry serialised), so a save reads only what changed.
    save_lock: Mutex<ledger::Saved>,
    pub events: broadcast::Sender<ChainEvent>,
    pub genesis_hash: Hash,
    ledger: PathBuf,
    limits: Limits,
    /// Slots are counted here over the one bank (see SLOT_DURATION), one per blockhash.
    slot: AtomicU64,
    last_blockhash: std::sync::Mutex<Hash>,
    /// When the SBF engine last counted a slot.
    last_slot_at: std::sync::Mutex<std::time::Instant>,
    /// Account reads from the engine (tests count what an operation reads).
    #[cfg(test)]
    reads: AtomicU64,
}

impl Validator {
    pub async fn start(
        ledger: &Path,
        limits: Limits,
        upgrade_authority: Option<Pubkey>,
        sbf: Option<&Sbf>,
    ) -> Result<Arc<Self>> {
        let mut memory = Memory::default();
        let accounts = ledger::read(ledger)?;
        let first_slot = ledger::read_slot(ledger);
        memory.known.extend(accounts.iter().map(|(address, _)| *address));
        for (address, account) in &accounts {
            memory.tokens.set(*address, token_owner(account));
        }
        let saved = ledger::Saved::of(&accounts)?;
        let (engine, faucet, genesis_hash) = match sbf {
            None => start_native(accounts, upgrade_authority).await,
            Some(sbf) => start_sbf(sbf, accounts, upgrade_authority),
        }?;
        // The chain's identity for its clients (the API records it beside the rewards it owes): one data
        // directory's genesis authority gives the same hash across restarts, two directories two hashes.
        let genesis_hash = upgrade_authority
            .map_or(genesis_hash, |authority| solana_sdk::hash::hashv(&[b"strm-local-chain", authority.as_ref()]));
        let validator = Arc::new(Validator {
            engine,
            faucet,
            memory: std::sync::Mutex::new(memory),
            decimals: Default::default(),
            tx_lock: Mutex::new(()),
            save_lock: Mutex::new(saved),
            events: broadcast::channel(limits.event_queue.max(1)).0,
            genesis_hash,
            ledger: ledger.to_path_buf(),
            limits,
            slot: AtomicU64::new(first_slot),
            last_blockhash: std::sync::Mutex::new(Hash::default()),
            last_slot_at: std::sync::Mutex::new(std::time::Instant::now()),
            #[cfg(test)]
            reads: AtomicU64::new(0),
        });
        validator.set_clock(first_slot).await?;
        Ok(validator)
    }

    /// Accounts read from the engine so far.
    #[cfg(test)]
    pub fn reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Which engine runs the program, for the ready line.
    pub fn engine_name(&self) -> &'static str {
        match self.engine {
            Engine::Native(_) => "native",
            Engine::Sbf(_) => "SBF",
        }
    }
}

async fn start_native(
    accounts: Vec<(Pubkey, Account)>,
    upgrade_authority: Option<Pubkey>,
) -> Result<(Engine, Keypair, Hash)> {
    let mut pt = ProgramTest::new("mining", mining::ID, processor!(mining_entry));
    pt.prefer_bpf(false);
    if let Some(authority) = upgrade_authority {
        let (address, account) = ledger::program_data(authority)?;
        pt.add_account(address, account);
    }
    // The context's ticker registers a blockhash every 64 ticks: one per slot at this tick length.
    pt.set_target_tick_duration(SLOT_DURATION / 64);
    for (address, account) in accounts {
        pt.add_account(address, account);
    }
    let ctx = pt.start_with_context().await;
    let genesis_hash = ctx.genesis_config().hash();
    let faucet = ctx.payer.insecure_clone();
    let native = Native { banks: ctx.banks_client.clone(), bank_forks: ctx.bank_forks(), ctx: Mutex::new(ctx) };
    Ok((Engine::Native(Box::new(native)), faucet, genesis_hash))
}

/// The faucet's lamports on the SBF engine: 1,000,000 SOL, as solana-program-test's genesis gives the
/// native engine's.
const SBF_FAUCET_LAMPORTS: u64 = 1_000_000 * 1_000_000_000;

fn start_sbf(
    sbf: &Sbf,
    accounts: Vec<(Pubkey, Account)>,
    upgrade_authority: Option<Pubkey>,
) -> Result<(Engine, Keypair, Hash)> {
    let svm = svm::Svm::start(&sbf.engine, mining::ID, &sbf.program, upgrade_authority)?;
    for (address, account) in accounts {
        svm.set_account(&address, account)?;
    }
    let faucet = Keypair::new();
    let system = solana_sdk::system_program::id();
    svm.set_account(&faucet.pubkey(), Account::new(SBF_FAUCET_LAMPORTS, 0, &system))?;
    let genesis_hash = solana_sdk::hash::hash(b"strm-local-chain sbf");
    Ok((Engine::Sbf(svm), faucet, genesis_hash))
}
