//! Activating a tier: the deposit moves from the wallet into the streamer's holdings.
use mining::events::TierActivated;
use solana_sdk::{clock::Clock, signature::Signer};

use crate::support::*;

#[tokio::test]
async fn activating_moves_exactly_the_deposit_into_new_holdings() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000), ("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 6_000).await;
    let holdings = holdings_address(&wallet.pubkey(), &mint);
    assert!(h.account(&holdings).await.is_none(), "no holdings before the first activation");

    h.activate(&wallet, &ata, "Tier 2").await.unwrap();

    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
    assert_eq!(h.token_balance(&holdings).await, 5_000 * UNIT);
    let holdings_state = {
        use solana_sdk::program_pack::Pack;
        spl_token::state::Account::unpack(&h.account(&holdings).await.unwrap().data).unwrap()
    };
    assert_eq!(holdings_state.owner, streamer_pda(&wallet.pubkey()));
    assert_eq!(holdings_state.mint, mint);

    let streamer = h.streamer(&wallet.pubkey()).await;
    let clock: Clock = h.ctx.banks_client.get_sysvar().await.unwrap();
    assert_eq!(streamer.wallet, wallet.pubkey());
    assert_eq!(streamer.tier_name, "Tier 2");
    assert!(streamer.is_active);
    assert_eq!(streamer.activated_at, clock.unix_timestamp);
    assert_eq!(streamer.deposited, 5_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 5_000 * UNIT);
}

#[tokio::test]
async fn activation_emits_an_event_for_the_indexer() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    let holdings = holdings_address(&wallet.pubkey(), &mint);
    let ix = h.activate_ix(&wallet.pubkey(), &ata, &holdings, "Tier 1", 1_000 * UNIT);
    let logs = h.send_logged(&[ix], &[&wallet]).await;

    let clock: Clock = h.ctx.banks_client.get_sysvar().await.unwrap();
    let [event] = &events::<TierActivated>(&logs)[..] else { panic!("one TierActivated event in {logs:#?}") };
    assert_eq!(event.wallet, wallet.pubkey());
    assert_eq!(event.tier, "Tier 1");
    assert_eq!(event.amount, 1_000 * UNIT);
    assert_eq!(event.timestamp, clock.unix_timestamp);
}

#[tokio::test]
async fn activation_pays_only_the_deposit_the_wallet_agreed_to() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 5_000).await;
    // The wallet signs for 1,000; the authority raises the price before the transaction lands.
    let authority = h.authority.insecure_clone();
    h.update_tier(&authority, "Tier 1", 2_000 * UNIT).await.unwrap();
    expect_code(h.activate_expecting(&wallet, &ata, "Tier 1", 1_000 * UNIT).await, DEPOSIT_CHANGED);
    // A lower price than agreed is refused too: the amount must be the one the user saw.
    expect_code(h.activate_expecting(&wallet, &ata, "Tier 1", 3_000 * UNIT).await, DEPOSIT_CHANGED);
    assert_eq!(h.token_balance(&ata).await, 5_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
    assert_eq!(h.config().await.total_deposited, 0);

    h.activate_expecting(&wallet, &ata, "Tier 1", 2_000 * UNIT).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 3_000 * UNIT);
}

#[tokio::test]
async fn activating_an_unknown_tier_fails_and_moves_nothing() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 2_000).await;
    expect_code(h.activate_expecting(&wallet, &ata, "Tier 42", 1_000 * UNIT).await, INVALID_TIER);
    assert_eq!(h.token_balance(&ata).await, 2_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
}

#[tokio::test]
async fn activating_a_removed_tier_fails() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000), ("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 6_000).await;
    let authority = h.authority.insecure_clone();
    h.remove_tier(&authority, "Tier 2").await.unwrap();
    expect_code(h.activate_expecting(&wallet, &ata, "Tier 2", 5_000 * UNIT).await, INVALID_TIER);
    assert_eq!(h.token_balance(&ata).await, 6_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
    assert_eq!(h.config().await.total_deposited, 0);
}

#[tokio::test]
async fn an_active_streamer_cannot_activate_again() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000), ("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 10_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    expect_code(h.activate(&wallet, &ata, "Tier 2").await, ALREADY_ACTIVE);
    assert_eq!(h.token_balance(&ata).await, 9_000 * UNIT);
    assert_eq!(h.streamer(&wallet.pubkey()).await.tier_name, "Tier 1");
    assert_eq!(h.config().await.total_deposited, 1_000 * UNIT);
}

#[tokio::test]
async fn activation_needs_the_whole_deposit() {
    let mut h = Harness::with_tiers(&[("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 4_999).await;
    // The token program refuses the transfer (insufficient funds); nothing changes.
    let err = h.activate(&wallet, &ata, "Tier 2").await.unwrap_err();
    assert_eq!(custom_code(&err), Some(spl_token::error::TokenError::InsufficientFunds as u32));
    assert_eq!(h.token_balance(&ata).await, 4_999 * UNIT);
}

#[tokio::test]
async fn total_deposits_are_checked_for_overflow() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    // A config whose running total is already near u64::MAX: one more deposit cannot be counted.
    let mut config = h.config().await;
    config.total_deposited = u64::MAX - 10;
    h.forge(&config_pda(), &config).await;

    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    expect_code(h.activate(&wallet, &ata, "Tier 1").await, OVERFLOW);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

#[tokio::test]
async fn a_pre_funded_record_and_holdings_do_not_block_activation() {
    // Anyone can send lamports to the addresses of a wallet's future record and holdings.
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    let record = streamer_pda(&wallet.pubkey());
    let holdings = holdings_address(&wallet.pubkey(), &mint);
    h.airdrop(&record, 1_000_000).await;
    h.airdrop(&holdings, 2_000_000).await;
    let before = h.lamports(&wallet.pubkey()).await;

    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    assert_eq!(h.streamer(&wallet.pubkey()).await.deposited, 1_000 * UNIT);
    assert_eq!(h.token_balance(&holdings).await, 1_000 * UNIT);

    // Closing returns every lamport of both accounts, the gifts included, to the wallet.
    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.lamports(&wallet.pubkey()).await, before + 3_000_000);
    assert!(h.account(&record).await.is_none());
    assert!(h.account(&holdings).await.is_none());
}
