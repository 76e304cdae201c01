use anchor_lang::prelude::*;
use anchor_spl::associated_token::get_associated_token_address;
use anchor_spl::token::{close_account, CloseAccount, Mint, Token, TokenAccount};

use crate::constants::{CONFIG_SEED, STREAMER_SEED};
use crate::error::MiningError;
use crate::events::{emit_event, TierDeactivated};
use crate::instructions::shared::transfer_tokens;
use crate::state::{Config, Streamer};

// Boxed: the accounts live on the heap, so the SBF stack frame (4 KB) holds pointers, not their data.
#[derive(Accounts)]
pub struct DeactivateTier<'info> {
    /// Receives the holdings and the rent of the closed record and holdings.
    #[account(mut)]
    pub wallet: Signer<'info>,

    #[account(mut, seeds = [CONFIG_SEED], bump = config.bump)]
    pub config: Box<Account<'info, Config>>,

    /// Closed here (rent back to the wallet); the next activation creates it again.
    #[account(
        mut,
        seeds = [STREAMER_SEED, wallet.key().as_ref()],
        bump = streamer.bump,
        has_one = wallet @ MiningError::Unauthorized,
        close = wallet,
    )]
    pub streamer: Box<Account<'info, Streamer>>,

    #[account(address = config.token_mint)]
    pub token_mint: Box<Account<'info, Mint>>,

    #[account(
        mut,
        token::mint = token_mint,
        token::authority = wallet,
    )]
    pub wallet_token_account: Box<Account<'info, TokenAccount>>,

    /// The streamer PDA's associated token account, as on activation, and never short of the deposit:
    /// any other account the PDA owns (an empty stray one) would let the record go while the deposit stays.
    /// Closed here after it is emptied.
    #[account(
        mut,
        token::mint = token_mint,
        constraint = holdings.owner == streamer.key() @ MiningError::InvalidHoldingsAccount,
        address = get_associated_token_address(&streamer.key(), &token_mint.key()) @ MiningError::InvalidHoldingsAccount,
        constraint = holdings.amount >= streamer.deposited @ MiningError::InvalidHoldingsAccount,
    )]
    pub holdings: Box<Account<'info, TokenAccount>>,

    pub token_program: Program<'info, Token>,
}

pub fn handler(ctx: Context<DeactivateTier>) -> Result<()> {
    require!(ctx.accounts.streamer.is_active, MiningError::NotActive);
    let config = &mut ctx.accounts.config;
    config.total_deposited =
        config.total_deposited.checked_sub(ctx.accounts.streamer.deposited).ok_or(MiningError::Overflow)?;

    let amount = ctx.accounts.holdings.amount;
    let wallet = ctx.accounts.wallet.key();
    let signer_seeds: &[&[&[u8]]] = &[&[STREAMER_SEED, wallet.as_ref(), &[ctx.accounts.streamer.bump]]];
    transfer_tokens(
        &ctx.accounts.holdings,
        &ctx.accounts.wallet_token_account,
        amount,
        &ctx.accounts.token_mint,
        ctx.accounts.streamer.to_account_info(),
        &ctx.accounts.token_program,
        signer_seeds,
    )?;
    close_account(CpiContext::new_with_signer(
        ctx.accounts.token_program.to_account_info(),
        CloseAccount {
            account: ctx.accounts.holdings.to_account_info(),
            destination: ctx.accounts.wallet.to_account_info(),
            authority: ctx.accounts.streamer.to_account_info(),
        },
        signer_seeds,
    ))?;

    emit_event(&TierDeactivated {
        wallet,
        tier: ctx.accounts.streamer.tier_name.clone(),
        amount,
        timestamp: Clock::get()?.unix_timestamp,
    });
    Ok(())
}
