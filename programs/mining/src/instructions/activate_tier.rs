use anchor_lang::prelude::*;
use anchor_spl::associated_token::AssociatedToken;
use anchor_spl::token::{Mint, Token, TokenAccount};

use crate::constants::{CONFIG_SEED, STREAMER_SEED};
use crate::error::MiningError;
use crate::events::{emit_event, TierActivated};
use crate::instructions::shared::transfer_tokens;
use crate::state::{Config, Streamer};

// Boxed: the accounts live on the heap, so the SBF stack frame (4 KB) holds pointers, not their data.
#[derive(Accounts)]
pub struct ActivateTier<'info> {
    #[account(mut)]
    pub wallet: Signer<'info>,

    #[account(mut, seeds = [CONFIG_SEED], bump = config.bump)]
    pub config: Box<Account<'info, Config>>,

    #[account(
        init_if_needed,
        payer = wallet,
        space = 8 + Streamer::INIT_SPACE,
        seeds = [STREAMER_SEED, wallet.key().as_ref()],
        bump,
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

    // init_if_needed also checks an existing account (token owner, mint, token program, ATA address),
    // so another streamer's holdings, or any other account, is refused here.
    /// The streamer's associated token account; created here when it does not exist yet.
    #[account(
        init_if_needed,
        payer = wallet,
        associated_token::mint = token_mint,
        associated_token::authority = streamer,
    )]
    pub holdings: Box<Account<'info, TokenAccount>>,

    pub token_program: Program<'info, Token>,
    pub associated_token_program: Program<'info, AssociatedToken>,
    pub system_program: Program<'info, System>,
}

/// `expected_deposit` is the deposit the wallet agreed to pay: if the authority repriced the tier after
/// the wallet signed, the activation fails instead of taking a different amount.
pub fn handler(ctx: Context<ActivateTier>, tier_name: String, expected_deposit: u64) -> Result<()> {
    let deposit = ctx.accounts.config.tier(&tier_name)?.deposit;
    require!(!ctx.accounts.streamer.is_active, MiningError::AlreadyActive);
    require!(deposit == expected_deposit, MiningError::DepositChanged);

    transfer_tokens(
        &ctx.accounts.wallet_token_account,
        &ctx.accounts.holdings,
        deposit,
        &ctx.accounts.token_mint,
        ctx.accounts.wallet.to_account_info(),
        &ctx.accounts.token_program,
        &[],
    )?;

    let config = &mut ctx.accounts.config;
    config.total_deposited = config.total_deposited.checked_add(deposit).ok_or(MiningError::Overflow)?;

    let now = Clock::get()?.unix_timestamp;
    let wallet = ctx.accounts.wallet.key();
    ctx.accounts.streamer.set_inner(Streamer {
        wallet,
        tier_name: tier_name.clone(),
        is_active: true,
        activated_at: now,
        deposited: deposit,
        bump: ctx.bumps.streamer,
    });
    emit_event(&TierActivated { wallet, tier: tier_name, amount: deposit, timestamp: now });
    Ok(())
}
