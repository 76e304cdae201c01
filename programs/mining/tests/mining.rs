mod common;

use anchor_lang::AccountSerialize;
use common::*;
use mining::events::{TierActivated, TierDeactivated};
use mining::state::Config;
use solana_sdk::{
    account::Account,
    clock::Clock,
    signature::{Keypair, Signer},
};

const UNAUTHORIZED: u32 = 6000;
const ALREADY_ACTIVE: u32 = 6001;
const NOT_ACTIVE: u32 = 6002;
const INVALID_TIER: u32 = 6003;
const MAX_TIERS_REACHED: u32 = 6004;
const INVALID_HOLDINGS: u32 = 6005;
const OVERFLOW: u32 = 6006;
// Anchor's own constraint errors.
const CONSTRAINT_SEEDS: u32 = 2006;
const CONSTRAINT_ADDRESS: u32 = 2012;
const CONSTRAINT_TOKEN_MINT: u32 = 2014;
const CONSTRAINT_TOKEN_OWNER: u32 = 2015;
const ACCOUNT_NOT_SIGNER: u32 = 3010;
const ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT: u32 = 3014;

// ---- config and tiers ----------------------------------------------------------------------

#[tokio::test]
async fn initialize_records_authority_mint_and_decimals() {
    let mut h = Harness::start().await;
    h.initialize().await.unwrap();
    let config = h.config().await;
    assert_eq!(config.authority, h.authority.pubkey());
    assert_eq!(config.token_mint, h.mint.pubkey());
    assert_eq!(config.token_decimals, DECIMALS);
    assert_eq!(config.total_deposited, 0);
    assert!(config.tiers.is_empty());
}

#[tokio::test]
async fn initialize_runs_once() {
    let mut h = Harness::start().await;
    h.initialize().await.unwrap();
    // Anyone (even the authority) trying again finds the config account already in use.
    let intruder = Keypair::new();
    h.airdrop(&intruder.pubkey(), 1_000_000_000).await;
    let ix = h.initialize_ix(&intruder.pubkey(), &h.mint.pubkey());
    assert!(h.send(&[ix], &[&intruder]).await.is_err());
    assert!(h.initialize().await.is_err());
    assert_eq!(h.config().await.authority, h.authority.pubkey());
}

#[tokio::test]
async fn authority_adds_updates_and_removes_tiers() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000), ("Tier 2", 5_000)]).await;
    let authority = h.authority.insecure_clone();
    h.update_tier(&authority, "Tier 2", 7_500 * UNIT).await.unwrap();
    h.remove_tier(&authority, "Tier 1").await.unwrap();
    h.add_tier(&authority, "Tier 3", 10_000 * UNIT).await.unwrap();

    let tiers: Vec<(String, u64)> = h.config().await.tiers.into_iter().map(|t| (t.name, t.deposit)).collect();
    assert_eq!(tiers, vec![("Tier 2".into(), 7_500 * UNIT), ("Tier 3".into(), 10_000 * UNIT)]);
}

#[tokio::test]
async fn only_the_authority_changes_tiers() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let intruder = Keypair::new();
    h.airdrop(&intruder.pubkey(), 1_000_000_000).await;

    expect_code(h.add_tier(&intruder, "Free Tier", 0).await, UNAUTHORIZED);
    expect_code(h.update_tier(&intruder, "Tier 1", 1).await, UNAUTHORIZED);
    expect_code(h.remove_tier(&intruder, "Tier 1").await, UNAUTHORIZED);
    let config = h.config().await;
    assert_eq!(config.tiers.len(), 1);
    assert_eq!(config.tiers[0].deposit, 1_000 * UNIT);
}

#[tokio::test]
async fn tiers_are_bounded() {
    let mut h = Harness::with_tiers(&[]).await;
    let authority = h.authority.insecure_clone();
    for i in 0..mining::constants::MAX_TIERS {
        h.add_tier(&authority, &format!("Tier {i}"), u64::from(i) * UNIT).await.unwrap();
    }
    expect_code(h.add_tier(&authority, "One Too Many", 1).await, MAX_TIERS_REACHED);
    assert_eq!(h.config().await.tiers.len(), usize::from(mining::constants::MAX_TIERS));
}

#[tokio::test]
async fn tier_names_are_unique_non_empty_and_must_exist() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let authority = h.authority.insecure_clone();
    expect_code(h.add_tier(&authority, "Tier 1", 5).await, INVALID_TIER);
    expect_code(h.add_tier(&authority, "", 5).await, INVALID_TIER);
    expect_code(h.add_tier(&authority, &"x".repeat(33), 5).await, INVALID_TIER);
    expect_code(h.update_tier(&authority, "Tier 9", 5).await, INVALID_TIER);
    expect_code(h.remove_tier(&authority, "Tier 9").await, INVALID_TIER);
    assert_eq!(h.config().await.tiers.len(), 1);
}

// ---- activation ----------------------------------------------------------------------------

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
    assert_eq!(h.config().await.total_deposited, 5_000 * UNIT);
}

#[tokio::test]
async fn activation_emits_an_event_for_the_indexer() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    let holdings = holdings_address(&wallet.pubkey(), &mint);
    let ix = h.activate_ix(&wallet.pubkey(), &ata, &holdings, "Tier 1");
    let logs = h.send_logged(&[ix], &[&wallet]).await;

    let clock: Clock = h.ctx.banks_client.get_sysvar().await.unwrap();
    let [event] = &events::<TierActivated>(&logs)[..] else { panic!("one TierActivated event in {logs:#?}") };
    assert_eq!(event.wallet, wallet.pubkey());
    assert_eq!(event.tier, "Tier 1");
    assert_eq!(event.amount, 1_000 * UNIT);
    assert_eq!(event.timestamp, clock.unix_timestamp);
}

#[tokio::test]
async fn activating_an_unknown_tier_fails_and_moves_nothing() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 2_000).await;
    expect_code(h.activate(&wallet, &ata, "Tier 42").await, INVALID_TIER);
    assert_eq!(h.token_balance(&ata).await, 2_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
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
    let mut config: Config = h.config().await;
    config.total_deposited = u64::MAX - 10;
    let mut data = Vec::new();
    config.try_serialize(&mut data).unwrap();
    let existing = h.account(&config_pda()).await.unwrap();
    data.resize(existing.data.len(), 0);
    h.ctx.set_account(&config_pda(), &Account { data, ..existing }.into());

    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    expect_code(h.activate(&wallet, &ata, "Tier 1").await, OVERFLOW);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

// ---- deactivation --------------------------------------------------------------------------

#[tokio::test]
async fn deactivating_returns_the_whole_holdings() {
    let mut h = Harness::with_tiers(&[("Tier 3", 10_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 12_345).await;
    h.activate(&wallet, &ata, "Tier 3").await.unwrap();
    // Tokens sent straight to the holdings also go back to the wallet.
    let holdings = holdings_address(&wallet.pubkey(), &mint);
    h.mint_to(&mint, &holdings, 5 * UNIT).await;

    h.deactivate(&wallet, &ata).await.unwrap();

    assert_eq!(h.token_balance(&ata).await, 12_350 * UNIT);
    assert_eq!(h.token_balance(&holdings).await, 0);
    let streamer = h.streamer(&wallet.pubkey()).await;
    assert!(!streamer.is_active);
    assert_eq!(streamer.tier_name, "Tier 3");
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
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    h.deactivate(&wallet, &ata).await.unwrap();
    expect_code(h.deactivate(&wallet, &ata).await, NOT_ACTIVE);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

#[tokio::test]
async fn reactivation_restarts_the_clock_on_a_new_tier() {
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
    assert!(streamer.activated_at >= first + 11 * 86_400);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

#[tokio::test]
async fn a_tier_removed_while_active_still_returns_the_deposit() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    let authority = h.authority.insecure_clone();
    h.remove_tier(&authority, "Tier 1").await.unwrap();
    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

// ---- attacks -------------------------------------------------------------------------------

#[tokio::test]
async fn holdings_not_owned_by_the_streamer_are_rejected() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (victim, victim_ata) = h.wallet_with(&mint, 1_000).await;
    let (attacker, attacker_ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&victim, &victim_ata, "Tier 1").await.unwrap();
    h.activate(&attacker, &attacker_ata, "Tier 1").await.unwrap();

    // The attacker names the victim's holdings as its own: owned by another streamer.
    let victim_holdings = holdings_address(&victim.pubkey(), &mint);
    let a = attacker.pubkey();
    let ix = h.deactivate_ix(&a, &streamer_pda(&a), &attacker_ata, &victim_holdings);
    expect_code(h.send(&[ix], &[&attacker]).await, INVALID_HOLDINGS);

    // A plain token account of the right mint owned by the attacker's wallet is no holdings either.
    let ix = h.deactivate_ix(&a, &streamer_pda(&a), &attacker_ata, &attacker_ata);
    expect_code(h.send(&[ix], &[&attacker]).await, INVALID_HOLDINGS);

    assert_eq!(h.token_balance(&victim_holdings).await, 1_000 * UNIT);
    assert_eq!(h.token_balance(&attacker_ata).await, 0);
}

#[tokio::test]
async fn activation_pays_only_into_the_signers_own_holdings() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (victim, victim_ata) = h.wallet_with(&mint, 1_000).await;
    let (attacker, attacker_ata) = h.wallet_with(&mint, 2_000).await;
    h.activate(&victim, &victim_ata, "Tier 1").await.unwrap();
    let a = attacker.pubkey();

    // The victim's holdings named as the attacker's: owned by another streamer PDA.
    let victim_holdings = holdings_address(&victim.pubkey(), &mint);
    let ix = h.activate_ix(&a, &attacker_ata, &victim_holdings, "Tier 1");
    expect_code(h.send(&[ix], &[&attacker]).await, CONSTRAINT_TOKEN_OWNER);

    // A token account the attacker's own streamer PDA owns, but not its associated one.
    let stray = Keypair::new();
    h.create_token_account(&stray, &mint, &streamer_pda(&a)).await;
    let ix = h.activate_ix(&a, &attacker_ata, &stray.pubkey(), "Tier 1");
    expect_code(h.send(&[ix], &[&attacker]).await, ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT);

    assert_eq!(h.token_balance(&attacker_ata).await, 2_000 * UNIT);
    assert_eq!(h.token_balance(&victim_holdings).await, 1_000 * UNIT);
    assert_eq!(h.token_balance(&stray.pubkey()).await, 0);
    assert!(h.account(&streamer_pda(&a)).await.is_none());
}

#[tokio::test]
async fn a_wallet_cannot_stake_another_wallets_tokens() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (victim, victim_ata) = h.wallet_with(&mint, 1_000).await;
    let (attacker, _) = h.wallet_with(&mint, 0).await;

    // The attacker signs and pays the deposit from the victim's token account.
    let a = attacker.pubkey();
    let ix = h.activate_ix(&a, &victim_ata, &holdings_address(&a, &mint), "Tier 1");
    expect_code(h.send(&[ix], &[&attacker]).await, CONSTRAINT_TOKEN_OWNER);

    // Or activates the victim without the victim's signature.
    let v = victim.pubkey();
    let mut ix = h.activate_ix(&v, &victim_ata, &holdings_address(&v, &mint), "Tier 1");
    ix.accounts[0].is_signer = false;
    expect_code(h.send(&[ix], &[]).await, ACCOUNT_NOT_SIGNER);

    assert_eq!(h.token_balance(&victim_ata).await, 1_000 * UNIT);
    assert!(h.account(&streamer_pda(&v)).await.is_none());
    assert!(h.account(&streamer_pda(&a)).await.is_none());
}

#[tokio::test]
async fn one_wallet_cannot_touch_another_wallets_record() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (victim, victim_ata) = h.wallet_with(&mint, 1_000).await;
    let (attacker, attacker_ata) = h.wallet_with(&mint, 0).await;
    h.activate(&victim, &victim_ata, "Tier 1").await.unwrap();

    // The attacker signs, naming the victim's streamer record and holdings: the PDA is not theirs.
    let v = victim.pubkey();
    let ix = h.deactivate_ix(&attacker.pubkey(), &streamer_pda(&v), &attacker_ata, &holdings_address(&v, &mint));
    expect_code(h.send(&[ix], &[&attacker]).await, CONSTRAINT_SEEDS);

    // Or names the victim as the wallet, paying out to the attacker's account: the victim did not sign.
    let mut ix = h.deactivate_ix(&v, &streamer_pda(&v), &attacker_ata, &holdings_address(&v, &mint));
    ix.accounts[0].is_signer = false;
    expect_code(h.send(&[ix], &[]).await, ACCOUNT_NOT_SIGNER);

    // Or pays the victim's deposit out to an account the victim does not own.
    let ix = h.deactivate_ix(&v, &streamer_pda(&v), &attacker_ata, &holdings_address(&v, &mint));
    let payer = h.payer();
    let blockhash = h.ctx.get_new_latest_blockhash().await.unwrap();
    let mut tx = solana_sdk::transaction::Transaction::new_with_payer(&[ix], Some(&payer.pubkey()));
    assert!(tx.try_partial_sign(&[&payer, &attacker], blockhash).is_err(), "only the victim can sign for the victim");

    assert!(h.streamer(&v).await.is_active);
    assert_eq!(h.token_balance(&holdings_address(&v, &mint)).await, 1_000 * UNIT);
}

#[tokio::test]
async fn the_payout_account_must_be_the_signers_own() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    let (_other, other_ata) = h.wallet_with(&mint, 0).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    expect_code(h.deactivate(&wallet, &other_ata).await, CONSTRAINT_TOKEN_OWNER);
    assert_eq!(h.token_balance(&other_ata).await, 0);
}

#[tokio::test]
async fn tokens_of_another_mint_are_refused() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let fake_mint = Keypair::new();
    h.create_mint(&fake_mint).await;
    let (wallet, fake_ata) = h.wallet_with(&fake_mint.pubkey(), 1_000_000).await;

    // Paying the deposit in a look-alike token.
    expect_code(h.activate(&wallet, &fake_ata, "Tier 1").await, CONSTRAINT_TOKEN_MINT);

    // Naming the look-alike as the mint itself.
    let holdings = spl_associated_token_account::get_associated_token_address(
        &streamer_pda(&wallet.pubkey()),
        &fake_mint.pubkey(),
    );
    let mut ix = h.activate_ix(&wallet.pubkey(), &fake_ata, &holdings, "Tier 1");
    ix.accounts[3].pubkey = fake_mint.pubkey();
    expect_code(h.send(&[ix], &[&wallet]).await, CONSTRAINT_ADDRESS);

    assert_eq!(h.token_balance(&fake_ata).await, 1_000_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
}
