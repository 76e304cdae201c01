use anchor_lang::prelude::*;

use crate::constants::{CONFIG_SEED, MAX_TIERS};
use crate::error::MiningError;
use crate::state::{validate_deposit, validate_tier_name, Config, Tier};

/// The authority's instructions on the config share these accounts: the tier table's and proposing a successor.
#[derive(Accounts)]
pub struct ConfigAuthority<'info> {
    pub authority: Signer<'info>,

    #[account(
        mut,
        seeds = [CONFIG_SEED],
        bump = config.bump,
        has_one = authority @ MiningError::Unauthorized,
    )]
    pub config: Box<Account<'info, Config>>,
}

pub fn add_tier(ctx: Context<ConfigAuthority>, name: String, deposit: u64) -> Result<()> {
    validate_tier_name(&name)?;
    validate_deposit(deposit)?;
    let config = &mut ctx.accounts.config;
    require!(config.tiers.len() < MAX_TIERS as usize, MiningError::MaxTiersReached);
    require!(config.tiers.iter().all(|t| t.name != name), MiningError::InvalidTier);
    config.tiers.push(Tier { name, deposit });
    Ok(())
}

/// Changes what new activations pay; active streamers keep the deposit they paid.
pub fn update_tier(ctx: Context<ConfigAuthority>, name: String, deposit: u64) -> Result<()> {
    validate_deposit(deposit)?;
    let config = &mut ctx.accounts.config;
    let tier = config.tiers.iter_mut().find(|t| t.name == name).ok_or_else(|| error!(MiningError::InvalidTier))?;
    tier.deposit = deposit;
    Ok(())
}

/// Stops new activations; active streamers on the tier keep it and can still deactivate.
pub fn remove_tier(ctx: Context<ConfigAuthority>, name: String) -> Result<()> {
    let config = &mut ctx.accounts.config;
    let before = config.tiers.len();
    config.tiers.retain(|t| t.name != name);
    require!(config.tiers.len() < before, MiningError::InvalidTier);
    Ok(())
}
