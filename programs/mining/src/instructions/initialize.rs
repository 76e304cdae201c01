use anchor_lang::prelude::*;
use anchor_spl::token::Mint;

use crate::constants::CONFIG_SEED;
use crate::state::Config;

#[derive(Accounts)]
pub struct Initialize<'info> {
    #[account(mut)]
    pub authority: Signer<'info>,

    /// Created once: a second initialize fails because the account exists.
    #[account(
        init,
        payer = authority,
        space = 8 + Config::INIT_SPACE,
        seeds = [CONFIG_SEED],
        bump,
    )]
    pub config: Account<'info, Config>,

    pub token_mint: Account<'info, Mint>,

    pub system_program: Program<'info, System>,
}

pub fn handler(ctx: Context<Initialize>) -> Result<()> {
    ctx.accounts.config.set_inner(Config {
        authority: ctx.accounts.authority.key(),
        token_mint: ctx.accounts.token_mint.key(),
        token_decimals: ctx.accounts.token_mint.decimals,
        total_deposited: 0,
        bump: ctx.bumps.config,
        tiers: Vec::new(),
    });
    Ok(())
}
