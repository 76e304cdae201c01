//! The SBF engine: `strm-svm` (chain/svm, LiteSVM over agave 4.3) as a child process holding the accounts
//! and running `target/deploy/mining.so` as a cluster would. agave 2.3's loaders refuse SBPF v3; 4.3's
//! crates need rustc 1.97.1 and their own solana types, so they live in that process and this one keeps
//! the RPC, the PubSub, the history and the ledger for both engines. The blockhashes are kept here: one a
//! slot, valid 150 slots, as on a cluster (LiteSVM itself knows only the latest).
use std::{
    collections::VecDeque,
    io::{BufReader, BufWriter},
    path::Path,
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    sync::Mutex,
};

use anyhow::{anyhow, bail, Context, Result};
use solana_sdk::{
    account::Account,
    clock::MAX_PROCESSING_AGE,
    hash::Hash,
    instruction::CompiledInstruction,
    pubkey::Pubkey,
    transaction::{TransactionError, VersionedTransaction},
    transaction_context::TransactionReturnData,
};
use solana_transaction_status::{InnerInstruction, InnerInstructions};

#[path = "svm_wire.rs"]
mod wire;
use wire::{Reply, Request, WireAccount};

use super::bank::Executed;

/// Blockhashes a simulation still accepts (agave's preflight leaves a forwarding margin of 6 slots).
const SIMULATION_AGE: u64 = MAX_PROCESSING_AGE as u64 - 6;

pub(super) struct Svm {
    io: Mutex<(BufWriter<ChildStdin>, BufReader<ChildStdout>)>,
    _child: Child,
    /// The last 300 slots' blockhashes, newest last (agave keeps 300 for fee look-ups).
    blockhashes: Mutex<VecDeque<(Hash, u64)>>,
}

impl Svm {
    /// Starts the engine and deploys the program; it stops when this process does (its stdin closes).
    pub fn start(engine: &Path, program: Pubkey, elf: &Path, upgrade_authority: Option<Pubkey>) -> Result<Self> {
        let mut child = Command::new(engine)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting the SBF engine {}", engine.display()))?;
        let io = (BufWriter::new(child.stdin.take().unwrap()), BufReader::new(child.stdout.take().unwrap()));
        let svm = Svm { io: Mutex::new(io), _child: child, blockhashes: Default::default() };
        let elf = std::fs::read(elf).with_context(|| format!("reading {}", elf.display()))?;
        svm.done(Request::Deploy {
            program: program.to_bytes(),
            elf,
            upgrade_authority: upgrade_authority.map(|a| a.to_bytes()),
        })
        .context("deploying the program")?;
        Ok(svm)
    }

    fn call(&self, request: Request) -> Result<Reply> {
        let mut io = self.io.lock().unwrap();
        wire::write_frame(&mut io.0, &request).context("the SBF engine is gone")?;
        match wire::read_frame(&mut io.1).context("the SBF engine is gone")? {
            Some(Reply::Failed(e)) => Err(anyhow!("the SBF engine: {e}")),
            Some(reply) => Ok(reply),
            None => bail!("the SBF engine stopped"),
        }
    }

    fn done(&self, request: Request) -> Result<()> {
        match self.call(request)? {
            Reply::Done => Ok(()),
            other => bail!("the SBF engine answered {other:?}"),
        }
    }

    pub fn set_account(&self, address: &Pubkey, account: Account) -> Result<()> {
        let account = WireAccount {
            lamports: account.lamports,
            data: account.data,
            owner: account.owner.to_bytes(),
            executable: account.executable,
            rent_epoch: account.rent_epoch,
        };
        self.done(Request::SetAccount { address: address.to_bytes(), account })
    }

    pub fn account(&self, address: &Pubkey) -> Result<Option<Account>> {
        match self.call(Request::GetAccount { address: address.to_bytes() })? {
            Reply::Account(account) => Ok(account.map(|a| Account {
                lamports: a.lamports,
                data: a.data,
                owner: Pubkey::new_from_array(a.owner),
                executable: a.executable,
                rent_epoch: a.rent_epoch,
            })),
            other => bail!("the SBF engine answered {other:?}"),
        }
    }

    /// A new slot's clock; returns its blockhash, which is kept with the slot.
    pub fn new_slot(&self, slot: u64, epoch: u64, unix_timestamp: i64) -> Result<Hash> {
        let Reply::Blockhash(hash) = self.call(Request::Slot { slot, epoch, unix_timestamp })? else {
            bail!("the SBF engine answered no blockhash");
        };
        let hash = Hash::new_from_array(hash);
        let mut blockhashes = self.blockhashes.lock().unwrap();
        blockhashes.push_back((hash, slot));
        while blockhashes.len() > 2 * MAX_PROCESSING_AGE {
            blockhashes.pop_front();
        }
        Ok(hash)
    }

    /// The latest blockhash and its slot.
    pub fn latest_blockhash(&self) -> Result<(Hash, u64)> {
        self.blockhashes.lock().unwrap().back().copied().context("no blockhash yet")
    }

    /// Whether a blockhash is at most `age` slots older than `slot`.
    fn is_recent(&self, hash: &Hash, slot: u64, age: u64) -> bool {
        self.blockhashes.lock().unwrap().iter().any(|(h, s)| h == hash && slot.saturating_sub(*s) <= age)
    }

    pub fn is_blockhash_valid(&self, hash: &Hash, slot: u64) -> bool {
        self.is_recent(hash, slot, SIMULATION_AGE)
    }

    /// Runs a transaction without committing it.
    pub fn simulate(&self, tx: &VersionedTransaction, slot: u64) -> Result<Executed> {
        if !self.is_recent(tx.message.recent_blockhash(), slot, SIMULATION_AGE) {
            return Ok(Executed::refused(TransactionError::BlockhashNotFound));
        }
        self.execute(Request::Simulate { transaction: bincode::serialize(tx)? })
    }

    /// Runs and commits a transaction; `Err` when it was refused (not included, nothing changed).
    pub fn send(&self, tx: &VersionedTransaction, slot: u64) -> Result<Result<Executed, TransactionError>> {
        if !self.is_recent(tx.message.recent_blockhash(), slot, MAX_PROCESSING_AGE as u64) {
            return Ok(Err(TransactionError::BlockhashNotFound));
        }
        let executed = self.execute(Request::Send { transaction: bincode::serialize(tx)? })?;
        Ok(match (&executed.status, executed.included) {
            (Err(err), false) => Err(err.clone()),
            _ => Ok(executed),
        })
    }

    fn execute(&self, request: Request) -> Result<Executed> {
        let Reply::Executed(e) = self.call(request)? else { bail!("the SBF engine answered no execution") };
        let status = match e.error {
            None => Ok(()),
            Some(json) => Err(serde_json::from_str::<TransactionError>(&json)
                .with_context(|| format!("an error this chain does not know: {json}"))?),
        };
        let inner_instructions = e
            .inner
            .into_iter()
            .enumerate()
            .filter(|(_, list)| !list.is_empty())
            .map(|(index, list)| InnerInstructions {
                index: index as u8,
                instructions: list
                    .into_iter()
                    .map(|i| InnerInstruction {
                        instruction: CompiledInstruction::new_from_raw_parts(i.program_id_index, i.data, i.accounts),
                        stack_height: Some(i.stack_height),
                    })
                    .collect(),
            })
            .collect();
        Ok(Executed {
            status,
            included: e.included,
            fee: e.fee,
            logs: e.logs,
            units: e.units,
            inner_instructions,
            return_data: e.return_data.map(|(program_id, data)| TransactionReturnData {
                program_id: Pubkey::new_from_array(program_id),
                data,
            }),
        })
    }
}
