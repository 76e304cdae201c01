use anchor_lang::prelude::*;

use crate::constants::CONFIG_SEED;
use crate::error::MiningError;
use crate::instructions::manage_tiers::ConfigAuthority;
use crate::state::Config;

#[derive(Accounts)]
pub struct AcceptAuthority<'info> {
    /// The proposed authority: its signature proves the key is held before it takes over.
    pub new_authority: Signer<'info>,

    #[account(
        mut,
        seeds = [CONFIG_SEED],
        bump = config.bump,
        constraint = config.pending_authority == Some(new_authority.key()) @ MiningError::Unauthorized,
    )]
    pub config: Box<Account<'info, Config>>,
}

/// Step one: the authority names its successor (`None` withdraws a proposal); nothing changes hands yet.
pub fn propose(ctx: Context<ConfigAuthority>, new_authority: Option<Pubkey>) -> Result<()> {
    ctx.accounts.config.pending_authority = new_authority;
    Ok(())
}

/// Step two: the proposed key signs and becomes the authority.
pub fn accept(ctx: Context<AcceptAuthority>) -> Result<()> {
    let config = &mut ctx.accounts.config;
    config.authority = ctx.accounts.new_authority.key();
    config.pending_authority = None;
    Ok(())
}
