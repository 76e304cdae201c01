//! `strm-svm`: the local chain's SBF engine. strm-local-chain (agave 2.3) starts it with `--sbf` and
//! keeps every RPC method, the PubSub, the history and the ledger; this process only holds the accounts
//! and runs transactions in LiteSVM 0.18 (agave 4.3's SVM, which loads SBPF v3 programs such as
//! `target/deploy/mining.so`). One request at a time on stdin, one reply each on stdout (svm_wire.rs).
use std::io::{BufReader, BufWriter};

use litesvm::{
    types::{FailedTransactionMetadata, TransactionMetadata},
    LiteSVM,
};
use solana_account::Account;
use solana_address::Address;
use solana_clock::Clock;
use solana_loader_v3_interface::state::UpgradeableLoaderState;
use solana_transaction::versioned::VersionedTransaction;

#[path = "../../src/state/svm_wire.rs"]
mod wire;
use wire::{Execution, Reply, Request, WireAccount, WireInner};

/// Signatures remembered to refuse a transaction sent twice (a validator's status cache keeps 150 slots'
/// worth; the chain checks blockhash age itself).
const HISTORY: usize = 100_000;

fn main() {
    // Blockhashes and signatures are the chain's to check: it keeps the last 150 slots' blockhashes, and
    // verifies signatures before sending and when a simulation asks (wallets simulate unsigned).
    let mut svm =
        LiteSVM::new().with_blockhash_check(false).with_sigverify(false).with_transaction_history(HISTORY);
    let mut input = BufReader::new(std::io::stdin().lock());
    let mut output = BufWriter::new(std::io::stdout().lock());
    loop {
        let request = match wire::read_frame::<Request>(&mut input) {
            Ok(Some(request)) => request,
            Ok(None) => return,
            Err(e) => {
                eprintln!("strm-svm: reading a request: {e}");
                std::process::exit(1);
            }
        };
        let reply = handle(&mut svm, request).unwrap_or_else(Reply::Failed);
        if let Err(e) = wire::write_frame(&mut output, &reply) {
            eprintln!("strm-svm: writing a reply: {e}");
            std::process::exit(1);
        }
    }
}

fn handle(svm: &mut LiteSVM, request: Request) -> Result<Reply, String> {
    Ok(match request {
        Request::Deploy { program, elf, upgrade_authority } => {
            deploy(svm, Address::new_from_array(program), &elf, upgrade_authority.map(Address::new_from_array))?;
            Reply::Done
        }
        Request::SetAccount { address, account } => {
            svm.set_account(Address::new_from_array(address), from_wire(account)).map_err(|e| e.to_string())?;
            Reply::Done
        }
        Request::GetAccount { address } => Reply::Account(svm.get_account(&Address::new_from_array(address)).map(to_wire)),
        Request::Simulate { transaction } => {
            let tx = decode(&transaction)?;
            Reply::Executed(match svm.simulate_transaction(tx) {
                Ok(info) => execution(None, true, info.meta),
                Err(FailedTransactionMetadata { err, meta }) => execution(Some(json(&err)?), false, meta),
            })
        }
        Request::Send { transaction } => {
            let tx = decode(&transaction)?;
            let signature = tx.signatures.first().copied().unwrap_or_default();
            let seen_before = svm.get_transaction(&signature).is_some();
            Reply::Executed(match svm.send_transaction(tx) {
                Ok(meta) => execution(None, true, meta),
                Err(FailedTransactionMetadata { err, meta }) => {
                    // A failure is kept in LiteSVM's history only when it was included (its fee charged).
                    let included = !seen_before && svm.get_transaction(&signature).is_some();
                    execution(Some(json(&err)?), included, meta)
                }
            })
        }
        Request::Slot { slot, epoch, unix_timestamp } => {
            let mut clock = svm.get_sysvar::<Clock>();
            clock.slot = slot;
            clock.epoch = epoch;
            clock.unix_timestamp = unix_timestamp;
            svm.set_sysvar(&clock);
            svm.expire_blockhash();
            Reply::Blockhash(svm.latest_blockhash().to_bytes())
        }
    })
}

/// As `anchor deploy` leaves a program: LiteSVM's upgradeable deployment, then its ProgramData rewritten
/// with the upgrade authority (LiteSVM records none).
fn deploy(svm: &mut LiteSVM, program: Address, elf: &[u8], authority: Option<Address>) -> Result<(), String> {
    let address = solana_loader_v3_interface::get_program_data_address(&program);
    svm.add_program(program, elf).map_err(|e| e.to_string())?;
    let mut program_data = svm.get_account(&address).ok_or("the program has no ProgramData")?;
    let metadata = UpgradeableLoaderState::size_of_programdata_metadata();
    let header = bincode::serialize(&UpgradeableLoaderState::ProgramData { slot: 0, upgrade_authority_address: authority })
        .map_err(|e| e.to_string())?;
    program_data.data[..metadata].fill(0);
    program_data.data[..header.len()].copy_from_slice(&header);
    svm.set_account(address, program_data).map_err(|e| e.to_string())
}

fn decode(bytes: &[u8]) -> Result<VersionedTransaction, String> {
    bincode::deserialize(bytes).map_err(|e| format!("not a transaction: {e}"))
}

fn json(err: &solana_transaction_error::TransactionError) -> Result<String, String> {
    serde_json::to_string(err).map_err(|e| e.to_string())
}

fn execution(error: Option<String>, included: bool, meta: TransactionMetadata) -> Execution {
    let inner = meta
        .inner_instructions
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|inner| WireInner {
                    program_id_index: inner.instruction.program_id_index,
                    accounts: inner.instruction.accounts,
                    data: inner.instruction.data,
                    stack_height: inner.stack_height as u32,
                })
                .collect()
        })
        .collect();
    let return_data = (!meta.return_data.data.is_empty())
        .then(|| (meta.return_data.program_id.to_bytes(), meta.return_data.data));
    Execution {
        error,
        included,
        logs: meta.logs,
        units: meta.compute_units_consumed,
        fee: meta.fee,
        inner,
        return_data,
    }
}

fn to_wire(account: Account) -> WireAccount {
    WireAccount {
        lamports: account.lamports,
        data: account.data,
        owner: account.owner.to_bytes(),
        executable: account.executable,
        rent_epoch: account.rent_epoch,
    }
}

fn from_wire(account: WireAccount) -> Account {
    Account {
        lamports: account.lamports,
        data: account.data,
        owner: Address::new_from_array(account.owner),
        executable: account.executable,
        rent_epoch: account.rent_epoch,
    }
}
