use anchor_lang::error::ErrorCode;
use anchor_lang::prelude::*;
use anchor_lang::solana_program::bpf_loader_upgradeable;
use anchor_spl::token::Mint;

use crate::constants::CONFIG_SEED;
use crate::error::MiningError;
use crate::state::Config;

#[derive(Accounts)]
pub struct Initialize<'info> {
    /// The program's upgrade authority, who becomes the config's authority.
    #[account(mut)]
    pub authority: Signer<'info>,

    // Anchor's program_data pattern, with the ProgramData address derived as the upgradeable loader
    // derives it (it refuses any other, so this is the account the program account points to). Deriving
    // it instead of reading the program account also works where the program is not an upgradeable
    // deployment but a ProgramData is installed at that address (the native runtime, see the README).
    /// The program's ProgramData: only its upgrade authority may initialise.
    #[account(
        seeds = [crate::ID.as_ref()],
        bump,
        seeds::program = bpf_loader_upgradeable::ID,
        constraint = program_data.upgrade_authority_address == Some(authority.key()) @ MiningError::Unauthorized,
    )]
    pub program_data: Box<Account<'info, ProgramData>>,

    /// Created once: a second initialize fails because the account exists.
    #[account(
        init,
        payer = authority,
        space = 8 + Config::INIT_SPACE,
        seeds = [CONFIG_SEED],
        bump,
    )]
    pub config: Box<Account<'info, Config>>,

    /// A mint with a freeze authority could freeze every holdings account, trapping the deposits.
    #[account(constraint = token_mint.freeze_authority.is_none() @ ErrorCode::ConstraintMintFreezeAuthority)]
    pub token_mint: Box<Account<'info, Mint>>,

    pub system_program: Program<'info, System>,
}

pub fn handler(ctx: Context<Initialize>) -> Result<()> {
    ctx.accounts.config.set_inner(Config {
        authority: ctx.accounts.authority.key(),
        token_mint: ctx.accounts.token_mint.key(),
        token_decimals: ctx.accounts.token_mint.decimals,
        total_deposited: 0,
        bump: ctx.bumps.config,
        pending_authority: None,
        tiers: Vec::new(),
    });
    Ok(())
}
