//! The error codes the suite expects, and reading them from a failed transaction.
use solana_program_test::BanksClientError;
use solana_sdk::{instruction::InstructionError, transaction::TransactionError};

pub const UNAUTHORIZED: u32 = 6000;
pub const ALREADY_ACTIVE: u32 = 6001;
pub const NOT_ACTIVE: u32 = 6002;
pub const INVALID_TIER: u32 = 6003;
pub const MAX_TIERS_REACHED: u32 = 6004;
pub const INVALID_HOLDINGS: u32 = 6005;
pub const OVERFLOW: u32 = 6006;
pub const DEPOSIT_CHANGED: u32 = 6007;
// Anchor's own constraint and account errors.
pub const CONSTRAINT_SEEDS: u32 = 2006;
pub const CONSTRAINT_ADDRESS: u32 = 2012;
pub const CONSTRAINT_TOKEN_MINT: u32 = 2014;
pub const CONSTRAINT_TOKEN_OWNER: u32 = 2015;
pub const CONSTRAINT_MINT_FREEZE_AUTHORITY: u32 = 2017;
pub const ACCOUNT_OWNED_BY_WRONG_PROGRAM: u32 = 3007;
pub const INVALID_PROGRAM_ID: u32 = 3008;
pub const ACCOUNT_NOT_SIGNER: u32 = 3010;
pub const ACCOUNT_NOT_INITIALIZED: u32 = 3012;
pub const ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT: u32 = 3014;
// The system program's "account already in use".
pub const ACCOUNT_ALREADY_IN_USE: u32 = 0;

/// The custom program error code of a failed transaction, if that is how it failed.
pub fn custom_code(err: &BanksClientError) -> Option<u32> {
    match err {
        BanksClientError::TransactionError(TransactionError::InstructionError(_, InstructionError::Custom(c)))
        | BanksClientError::SimulationError {
            err: TransactionError::InstructionError(_, InstructionError::Custom(c)),
            ..
        } => Some(*c),
        _ => None,
    }
}

pub fn expect_code(result: Result<(), BanksClientError>, code: u32) {
    let err = result.expect_err(&format!("expected error {code}, the transaction succeeded"));
    assert_eq!(custom_code(&err), Some(code), "unexpected failure: {err:?}");
}
