//! STRM mining: the authority's tier table, and each streamer's record and staked deposit.
use anchor_lang::prelude::*;

pub mod constants;
pub mod error;
pub mod events;
pub mod instructions;
pub mod state;

use instructions::*;
// The SBF build's memory and 128-bit helpers (see Cargo.toml).
#[cfg(target_os = "solana")]
use solana_compiler_builtins as _;

declare_id!("6Q3Jp4p6LumZ3EYHkHceK53cXeHPjXyn1RwMYbWDp6Lg");

#[program]
pub mod mining {
    use super::*;

    /// Creates the config (once), signed by its authority, for the given token mint.
    pub fn initialize(ctx: Context<Initialize>) -> Result<()> {
        instructions::initialize::handler(ctx)
    }

    pub fn add_tier(ctx: Context<ManageTiers>, name: String, deposit: u64) -> Result<()> {
        instructions::manage_tiers::add_tier(ctx, name, deposit)
    }

    pub fn update_tier(ctx: Context<ManageTiers>, name: String, deposit: u64) -> Result<()> {
        instructions::manage_tiers::update_tier(ctx, name, deposit)
    }

    pub fn remove_tier(ctx: Context<ManageTiers>, name: String) -> Result<()> {
        instructions::manage_tiers::remove_tier(ctx, name)
    }

    /// Stakes the tier's deposit from the wallet into the streamer's holdings.
    pub fn activate_tier(ctx: Context<ActivateTier>, tier_name: String) -> Result<()> {
        instructions::activate_tier::handler(ctx, tier_name)
    }

    /// Returns the whole holdings balance to the wallet.
    pub fn deactivate_tier(ctx: Context<DeactivateTier>) -> Result<()> {
        instructions::deactivate_tier::handler(ctx)
    }
}
