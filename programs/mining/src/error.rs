use anchor_lang::prelude::*;

/// Codes 6000-6006 are those of docs/product.md#on-chain-errors, in this order; clients map them to
/// these messages. Later codes are this program's own additions.
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
    /// 6007: the tier's deposit changed after the wallet signed (slippage guard of `activate_tier`).
    #[msg("The tier's deposit has changed.")]
    DepositChanged,
}
