//! The token transfer both instructions make, written once (as program-examples' escrow does in its
//! instructions/shared.rs).
use anchor_lang::prelude::*;
use anchor_spl::token::{transfer_checked, Mint, Token, TokenAccount, TransferChecked};

/// Moves `amount` of `mint` from `from` to `to` through SPL Token's `transfer_checked` (which checks the
/// mint and its decimals too). `signer_seeds` are the seeds of a PDA `authority` (empty when the
/// authority signed the transaction itself).
pub fn transfer_tokens<'info>(
    from: &Account<'info, TokenAccount>,
    to: &Account<'info, TokenAccount>,
    amount: u64,
    mint: &Account<'info, Mint>,
    authority: AccountInfo<'info>,
    token_program: &Program<'info, Token>,
    signer_seeds: &[&[&[u8]]],
) -> Result<()> {
    let accounts = TransferChecked {
        from: from.to_account_info(),
        mint: mint.to_account_info(),
        to: to.to_account_info(),
        authority,
    };
    let ctx = CpiContext::new_with_signer(token_program.to_account_info(), accounts, signer_seeds);
    transfer_checked(ctx, amount, mint.decimals)
}
