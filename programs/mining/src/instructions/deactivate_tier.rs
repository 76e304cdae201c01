use anchor_lang::prelude::*;
use anchor_spl::token::{transfer_checked, Mint, Token, TokenAccount, TransferChecked};

use crate::constants::{CONFIG_SEED, STREAMER_SEED};
use crate::error::MiningError;
use crate::events::{emit_event, TierDeactivated};
use crate::state::{Config, Streamer};

#[derive(Accounts)]
pub struct DeactivateTier<'info> {
    pub wallet: Signer<'info>,

    #[account(mut, seeds = [CONFIG_SEED], bump = config.bump)]
    pub config: Account<'info, Config>,

    #[account(
        mut,
        seeds = [STREAMER_SEED, wallet.key().as_ref()],
        bump = streamer.bump,
        has_one = wallet @ MiningError::Unauthorized,
    )]
    pub streamer: Account<'info, Streamer>,

    #[account(address = config.token_mint)]
    pub token_mint: Account<'info, Mint>,

    #[account(
        mut,
        token::mint = token_mint,
        token::authority = wallet,
    )]
    pub wallet_token_account: Account<'info, TokenAccount>,

    #[account(
        mut,
        token::mint = token_mint,
        constraint = holdings.owner == streamer.key() @ MiningError::InvalidHoldingsAccount,
    )]
    pub holdings: Account<'info, TokenAccount>,

    pub token_program: Program<'info, Token>,
}

pub fn handler(ctx: Context<DeactivateTier>) -> Result<()> {
    require!(ctx.accounts.streamer.is_active, MiningError::NotActive);
    let amount = ctx.accounts.holdings.amount;
    let wallet = ctx.accounts.wallet.key();
    let signer_seeds: &[&[&[u8]]] = &[&[STREAMER_SEED, wallet.as_ref(), &[ctx.accounts.streamer.bump]]];

    transfer_checked(
        CpiContext::new_with_signer(
            ctx.accounts.token_program.to_account_info(),
            TransferChecked {
                from: ctx.accounts.holdings.to_account_info(),
                mint: ctx.accounts.token_mint.to_account_info(),
                to: ctx.accounts.wallet_token_account.to_account_info(),
                authority: ctx.accounts.streamer.to_account_info(),
            },
            signer_seeds,
        ),
        amount,
        ctx.accounts.token_mint.decimals,
    )?;

    let config = &mut ctx.accounts.config;
    config.total_deposited =
        config.total_deposited.checked_sub(ctx.accounts.streamer.deposited).ok_or(MiningError::Overflow)?;

    let streamer = &mut ctx.accounts.streamer;
    streamer.is_active = false;
    emit_event(&TierDeactivated {
        wallet,
        tier: streamer.tier_name.clone(),
        amount,
        timestamp: Clock::get()?.unix_timestamp,
    });
    Ok(())
}
