use anchor_lang::prelude::*;

use crate::constants::{MAX_TIERS, MAX_TIER_NAME_LEN};
use crate::error::MiningError;

#[derive(AnchorSerialize, AnchorDeserialize, Clone, PartialEq, Eq, Debug, InitSpace)]
pub struct Tier {
    #[max_len(MAX_TIER_NAME_LEN)]
    pub name: String,
    /// Deposit in the token's base units (never zero).
    pub deposit: u64,
}

/// The program's one config, at the PDA `[b"config"]`.
#[account]
#[derive(InitSpace)]
pub struct Config {
    pub authority: Pubkey,
    pub token_mint: Pubkey,
    pub token_decimals: u8,
    /// Sum of all deposits currently held (base units).
    pub total_deposited: u64,
    pub bump: u8,
    /// The authority proposed by `propose_authority`, until it accepts (two-step transfer).
    pub pending_authority: Option<Pubkey>,
    #[max_len(MAX_TIERS)]
    pub tiers: Vec<Tier>,
}

impl Config {
    pub fn tier(&self, name: &str) -> Result<&Tier> {
        self.tiers.iter().find(|t| t.name == name).ok_or_else(|| error!(MiningError::InvalidTier))
    }
}

/// One active streamer, at the PDA `[b"streamer", wallet]`; it owns the holdings token account. It exists
/// only while the streamer is active: deactivation closes it (and the holdings) and returns their rent.
#[account]
#[derive(InitSpace)]
pub struct Streamer {
    pub wallet: Pubkey,
    /// The tier activated, as named then (it may since have been repriced or removed; see the README).
    #[max_len(MAX_TIER_NAME_LEN)]
    pub tier_name: String,
    pub is_active: bool,
    /// Unix time of the current activation (the rate doubles every 10 days from here).
    pub activated_at: i64,
    /// The deposit paid at activation, in base units (counted in the config's total); deactivation returns
    /// the whole holdings, which always cover it.
    pub deposited: u64,
    pub bump: u8,
}

/// A tier name must be 1..=32 bytes.
pub fn validate_tier_name(name: &str) -> Result<()> {
    require!(!name.is_empty() && name.len() <= MAX_TIER_NAME_LEN as usize, MiningError::InvalidTier);
    Ok(())
}

/// A tier's deposit must be positive: a free tier would let anyone mine without staking.
pub fn validate_deposit(deposit: u64) -> Result<()> {
    require!(deposit > 0, MiningError::InvalidTier);
    Ok(())
}
