//! What the chain and its SBF engine (`chain/svm`, LiteSVM over agave 4.3) say to each other over the
//! engine's stdin and stdout: one bincode frame (a u32 length, little-endian, then the value) per request
//! and per reply. Both sides compile this file; it names no solana type, since each side has its own
//! agave (2.3 here, 4.3 there): addresses are 32 bytes, transactions their wire bytes, errors agave's
//! TransactionError as JSON (its variants by name, which both versions share).
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WireAccount {
    pub lamports: u64,
    pub data: Vec<u8>,
    pub owner: [u8; 32],
    pub executable: bool,
    pub rent_epoch: u64,
}

#[derive(Serialize, Deserialize, Debug)]
pub enum Request {
    /// Deploys an ELF as `anchor deploy` leaves a program: upgradeable loader, a program account and its
    /// ProgramData naming the upgrade authority (none: immutable).
    Deploy {
        program: [u8; 32],
        elf: Vec<u8>,
        upgrade_authority: Option<[u8; 32]>,
    },
    /// Writes an account (or removes it, with no lamports).
    SetAccount {
        address: [u8; 32],
        account: WireAccount,
    },
    GetAccount {
        address: [u8; 32],
    },
    /// A versioned transaction's wire bytes (bincode), checked and run without committing anything.
    Simulate {
        transaction: Vec<u8>,
    },
    /// The same, committed when it is included (executed, or failed after its fee was charged).
    Send {
        transaction: Vec<u8>,
    },
    /// A new slot: the clock's slot, epoch and time; replies with the slot's new blockhash.
    Slot {
        slot: u64,
        epoch: u64,
        unix_timestamp: i64,
    },
}

#[derive(Serialize, Deserialize, Debug)]
pub struct WireInner {
    pub program_id_index: u8,
    pub accounts: Vec<u8>,
    pub data: Vec<u8>,
    pub stack_height: u32,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Execution {
    /// agave's TransactionError as JSON; none when it succeeded.
    pub error: Option<String>,
    /// Whether it made it into a block (its fee charged), success or not; a refused one changed nothing.
    pub included: bool,
    pub logs: Vec<String>,
    pub units: u64,
    pub fee: u64,
    /// Per top-level instruction, the instructions it invoked.
    pub inner: Vec<Vec<WireInner>>,
    pub return_data: Option<([u8; 32], Vec<u8>)>,
}

#[derive(Serialize, Deserialize, Debug)]
pub enum Reply {
    Done,
    Account(Option<WireAccount>),
    Executed(Execution),
    Blockhash([u8; 32]),
    Failed(String),
}

/// Writes one frame.
pub fn write_frame<T: Serialize>(out: &mut impl std::io::Write, value: &T) -> std::io::Result<()> {
    let bytes = bincode::serialize(value).map_err(std::io::Error::other)?;
    out.write_all(&(bytes.len() as u32).to_le_bytes())?;
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads one frame; `None` when the other side closed.
pub fn read_frame<T: for<'de> Deserialize<'de>>(input: &mut impl std::io::Read) -> std::io::Result<Option<T>> {
    let mut len = [0u8; 4];
    match input.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
    input.read_exact(&mut bytes)?;
    bincode::deserialize(&bytes).map(Some).map_err(std::io::Error::other)
}
