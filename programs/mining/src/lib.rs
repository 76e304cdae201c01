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

    /// Creates the config (once) for the given token mint; only the program's upgrade authority may, and
    /// it becomes the config's authority. The mint must have no freeze authority.
    pub fn initialize(ctx: Context<Initialize>) -> Result<()> {
        instructions::initialize::handler(ctx)
    }

    /// Adds a tier (unique name of 1-32 bytes, deposit above zero).
    pub fn add_tier(ctx: Context<ConfigAuthority>, name: String, deposit: u64) -> Result<()> {
        instructions::manage_tiers::add_tier(ctx, name, deposit)
    }

    /// Reprices a tier for new activations (deposit above zero).
    pub fn update_tier(ctx: Context<ConfigAuthority>, name: String, deposit: u64) -> Result<()> {
        instructions::manage_tiers::update_tier(ctx, name, deposit)
    }

    /// Removes a tier from new activations.
    pub fn remove_tier(ctx: Context<ConfigAuthority>, name: String) -> Result<()> {
        instructions::manage_tiers::remove_tier(ctx, name)
    }

    /// Step one of an authority transfer: names the next authority (`None` withdraws the proposal).
    pub fn propose_authority(ctx: Context<ConfigAuthority>, new_authority: Option<Pubkey>) -> Result<()> {
        instructions::transfer_authority::propose(ctx, new_authority)
    }

    /// Step two: the proposed authority signs and takes over.
    pub fn accept_authority(ctx: Context<AcceptAuthority>) -> Result<()> {
        instructions::transfer_authority::accept(ctx)
    }

    /// Stakes the tier's deposit from the wallet into the streamer's holdings; `expected_deposit` must
    /// equal the tier's deposit (a guard against a reprice between signing and landing).
    pub fn activate_tier(ctx: Context<ActivateTier>, tier_name: String, expected_deposit: u64) -> Result<()> {
        instructions::activate_tier::handler(ctx, tier_name, expected_deposit)
    }

    /// Returns the whole holdings balance to the wallet, and closes the streamer record and the holdings
    /// (their rent goes back to the wallet).
    pub fn deactivate_tier(ctx: Context<DeactivateTier>) -> Result<()> {
        instructions::deactivate_tier::handler(ctx)
    }
}
