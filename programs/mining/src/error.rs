use anchor_lang::prelude::*;

/// Codes 6000-6006, in this order; clients map them to these messages.
#[error_code]
pub enum MiningError {
    #[msg("Unauthorized access.")]
    Unauthorized,
    #[msg("Already active miner.")]
    AlreadyActive,
    #[msg("Not an active miner.")]
    NotActive,
    #[msg("Invalid tier specified.")]
    InvalidTier,
    #[msg("Maximum number of tiers reached.")]
    MaxTiersReached,
    #[msg("Invalid holdings account owner.")]
    InvalidHoldingsAccount,
    #[msg("Arithmetic overflow occurred.")]
    Overflow,
}
