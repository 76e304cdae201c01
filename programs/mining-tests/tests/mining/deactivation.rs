//! Deactivating: the holdings go back to the wallet, and the record and holdings are closed.
use mining::events::{TierActivated, TierDeactivated};
use solana_sdk::{clock::Clock, signature::Signer};

use crate::support::*;

#[tokio::test]
async fn deactivating_returns_the_holdings_and_closes_the_record_and_holdings() {
    let mut h = Harness::with_tiers(&[("Tier 3", 10_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 12_345).await;
    let lamports_before = h.lamports(&wallet.pubkey()).await;
    h.activate(&wallet, &ata, "Tier 3").await.unwrap();
    assert!(h.lamports(&wallet.pubkey()).await < lamports_before, "the wallet paid both accounts' rent");
    // Tokens sent straight to the holdings also go back to the wallet.
    let holdings = holdings_address(&wallet.pubkey(), &mint);
    h.mint_to(&mint, &holdings, 5 * UNIT).await;

    h.deactivate(&wallet, &ata).await.unwrap();

    assert_eq!(h.token_balance(&ata).await, 12_350 * UNIT);
    assert!(h.account(&holdings).await.is_none(), "the holdings are closed");
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none(), "the record is closed");
    // The harness's payer paid the fees, so the wallet is back exactly where it started.
    assert_eq!(h.lamports(&wallet.pubkey()).await, lamports_before);
    assert_eq!(h.config().await.total_deposited, 0);
}

#[tokio::test]
async fn deactivation_emits_an_event_for_the_indexer() {
    let mut h = Harness::with_tiers(&[("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 5_000).await;
    h.activate(&wallet, &ata, "Tier 2").await.unwrap();
    let w = wallet.pubkey();
    let ix = h.deactivate_ix(&w, &streamer_pda(&w), &ata, &holdings_address(&w, &mint));
    let logs = h.send_logged(&[ix], &[&wallet]).await;

    let clock: Clock = h.ctx.banks_client.get_sysvar().await.unwrap();
    let [event] = &events::<TierDeactivated>(&logs)[..] else { panic!("one TierDeactivated event in {logs:#?}") };
    assert_eq!(event.wallet, w);
    assert_eq!(event.tier, "Tier 2");
    assert_eq!(event.amount, 5_000 * UNIT);
    assert_eq!(event.timestamp, clock.unix_timestamp);
    assert!(events::<TierActivated>(&logs).is_empty());
}

#[tokio::test]
async fn deactivating_when_not_active_fails() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    // Never activated: no record.
    expect_code(h.deactivate(&wallet, &ata).await, ACCOUNT_NOT_INITIALIZED);
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    h.deactivate(&wallet, &ata).await.unwrap();
    // Deactivated: the record is gone again.
    expect_code(h.deactivate(&wallet, &ata).await, ACCOUNT_NOT_INITIALIZED);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

#[tokio::test]
async fn an_inactive_record_cannot_be_deactivated() {
    // Records no longer stay inactive (deactivation closes them), but one written by an earlier
    // version of the program still answers NotActive and keeps its holdings.
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    let mut record = h.streamer(&wallet.pubkey()).await;
    record.is_active = false;
    h.forge(&streamer_pda(&wallet.pubkey()), &record).await;
    expect_code(h.deactivate(&wallet, &ata).await, NOT_ACTIVE);
    assert_eq!(h.token_balance(&holdings_address(&wallet.pubkey(), &mint)).await, 1_000 * UNIT);
}

#[tokio::test]
async fn reactivation_creates_a_new_record_on_a_new_tier() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000), ("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 6_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    let first = h.streamer(&wallet.pubkey()).await.activated_at;
    h.deactivate(&wallet, &ata).await.unwrap();

    let mut clock: Clock = h.ctx.banks_client.get_sysvar().await.unwrap();
    clock.unix_timestamp += 11 * 86_400;
    h.ctx.set_sysvar(&clock);
    h.activate(&wallet, &ata, "Tier 2").await.unwrap();

    let streamer = h.streamer(&wallet.pubkey()).await;
    assert_eq!(streamer.tier_name, "Tier 2");
    assert!(streamer.is_active);
    assert!(streamer.activated_at >= first + 11 * 86_400);
    assert_eq!(streamer.deposited, 5_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 5_000 * UNIT);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
    assert_eq!(h.token_balance(&holdings_address(&wallet.pubkey(), &mint)).await, 5_000 * UNIT);

    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 6_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 0);
}

#[tokio::test]
async fn a_tier_removed_while_active_still_returns_the_deposit() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000), ("Tier 2", 5_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    let (other, other_ata) = h.wallet_with(&mint, 5_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    h.activate(&other, &other_ata, "Tier 2").await.unwrap();
    let authority = h.authority.insecure_clone();
    h.remove_tier(&authority, "Tier 1").await.unwrap();

    // The streamer keeps its tier and deposit until it deactivates.
    let streamer = h.streamer(&wallet.pubkey()).await;
    assert_eq!((streamer.tier_name.as_str(), streamer.is_active), ("Tier 1", true));
    assert_eq!(streamer.deposited, 1_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 6_000 * UNIT);

    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 5_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
}

#[tokio::test]
async fn a_tier_repriced_while_active_keeps_the_deposit_paid() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    let activated_at = h.streamer(&wallet.pubkey()).await.activated_at;
    let authority = h.authority.insecure_clone();
    h.update_tier(&authority, "Tier 1", 2_000 * UNIT).await.unwrap();

    // Nothing changes for the active streamer: same tier, same clock, same deposit.
    let streamer = h.streamer(&wallet.pubkey()).await;
    assert_eq!((streamer.tier_name.as_str(), streamer.activated_at), ("Tier 1", activated_at));
    assert_eq!(streamer.deposited, 1_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 1_000 * UNIT);

    // A new activation pays the new price.
    let (newcomer, newcomer_ata) = h.wallet_with(&mint, 2_000).await;
    h.activate(&newcomer, &newcomer_ata, "Tier 1").await.unwrap();
    assert_eq!(h.streamer(&newcomer.pubkey()).await.deposited, 2_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 3_000 * UNIT);

    // The first streamer gets back what it paid, not the new price.
    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 2_000 * UNIT);
}

#[tokio::test]
async fn deactivation_checks_the_total_for_underflow() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    // A running total below this streamer's deposit (a state no transaction can make).
    let mut config = h.config().await;
    config.total_deposited = 999 * UNIT;
    h.forge(&config_pda(), &config).await;

    expect_code(h.deactivate(&wallet, &ata).await, OVERFLOW);
    assert_eq!(h.token_balance(&ata).await, 0);
    assert!(h.streamer(&wallet.pubkey()).await.is_active);
    assert_eq!(h.config().await.total_deposited, 999 * UNIT);
}

#[tokio::test]
async fn holdings_short_of_the_deposit_are_refused() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    // A record claiming more than its holdings hold (no transaction can make one).
    let mut record = h.streamer(&wallet.pubkey()).await;
    record.deposited = 1_001 * UNIT;
    h.forge(&streamer_pda(&wallet.pubkey()), &record).await;

    expect_code(h.deactivate(&wallet, &ata).await, INVALID_HOLDINGS);
    assert!(h.streamer(&wallet.pubkey()).await.is_active);
    assert_eq!(h.token_balance(&holdings_address(&wallet.pubkey(), &mint)).await, 1_000 * UNIT);
}
