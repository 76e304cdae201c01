//! The config is made once, by the program's upgrade authority, for a mint without a freeze authority.
use solana_sdk::signature::{Keypair, Signer};

use crate::support::*;

#[tokio::test]
async fn the_upgrade_authority_initializes_with_its_mint() {
    let mut h = Harness::start().await;
    h.initialize().await.unwrap();
    let config = h.config().await;
    assert_eq!(config.authority, h.authority.pubkey());
    assert_eq!(config.pending_authority, None);
    assert_eq!(config.token_mint, h.mint.pubkey());
    assert_eq!(config.token_decimals, DECIMALS);
    assert_eq!(config.total_deposited, 0);
    assert!(config.tiers.is_empty());
}

#[tokio::test]
async fn initialize_runs_once() {
    let mut h = Harness::start().await;
    h.initialize().await.unwrap();
    // The authority trying again finds the config account already in use.
    expect_code(h.initialize().await, ACCOUNT_ALREADY_IN_USE);
    assert_eq!(h.config().await.authority, h.authority.pubkey());
}

#[tokio::test]
async fn nobody_but_the_upgrade_authority_can_initialize_first() {
    // Deploy and initialise are separate transactions: a watcher tries to take the config in between.
    let mut h = Harness::start().await;
    let intruder = Keypair::new();
    h.airdrop(&intruder.pubkey(), 1_000_000_000).await;
    let ix = h.initialize_ix(&intruder.pubkey(), &h.mint.pubkey());
    expect_code(h.send(&[ix], &[&intruder]).await, UNAUTHORIZED);
    assert!(h.account(&config_pda()).await.is_none());

    // Its own program's ProgramData (the loader's account, the intruder its upgrade authority) named
    // instead of this program's: not at the address derived from this program's id.
    let look_alike = solana_sdk::pubkey::Pubkey::new_unique();
    h.ctx.set_account(&look_alike, &program_data_account(Some(intruder.pubkey())).into());
    let mut ix = h.initialize_ix(&intruder.pubkey(), &h.mint.pubkey());
    ix.accounts[1].pubkey = look_alike;
    expect_code(h.send(&[ix], &[&intruder]).await, CONSTRAINT_SEEDS);
    assert!(h.account(&config_pda()).await.is_none());

    h.initialize().await.unwrap();
    assert_eq!(h.config().await.authority, h.authority.pubkey());
}

#[tokio::test]
async fn without_an_upgrade_authority_nobody_can_initialize() {
    // An immutable deployment (upgrade authority revoked before initialising).
    let authority = Keypair::new();
    let mut h = Harness::start_with(program_test(Some(None)), authority).await;
    expect_code(h.initialize().await, UNAUTHORIZED);
    // No ProgramData at all (not an upgradeable deployment).
    let authority = Keypair::new();
    let mut h = Harness::start_with(program_test(None), authority).await;
    expect_code(h.initialize().await, ACCOUNT_NOT_INITIALIZED);
    assert!(h.account(&config_pda()).await.is_none());
}

#[tokio::test]
async fn a_mint_with_a_freeze_authority_is_refused() {
    let mut h = Harness::start().await;
    let freezable = Keypair::new();
    let freezer = h.payer().pubkey();
    h.create_mint_with_freeze_authority(&freezable, Some(&freezer)).await;
    let authority = h.authority.insecure_clone();
    let ix = h.initialize_ix(&authority.pubkey(), &freezable.pubkey());
    expect_code(h.send(&[ix], &[&authority]).await, CONSTRAINT_MINT_FREEZE_AUTHORITY);
    assert!(h.account(&config_pda()).await.is_none());
}
