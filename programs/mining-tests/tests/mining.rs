mod common;

use common::*;
use mining::events::{TierActivated, TierDeactivated};
use solana_sdk::{
    account::Account,
    clock::Clock,
    signature::{Keypair, Signer},
    transaction::Transaction,
};

const UNAUTHORIZED: u32 = 6000;
const ALREADY_ACTIVE: u32 = 6001;
const NOT_ACTIVE: u32 = 6002;
const INVALID_TIER: u32 = 6003;
const MAX_TIERS_REACHED: u32 = 6004;
const INVALID_HOLDINGS: u32 = 6005;
const OVERFLOW: u32 = 6006;
const DEPOSIT_CHANGED: u32 = 6007;
// Anchor's own constraint and account errors.
const CONSTRAINT_SEEDS: u32 = 2006;
const CONSTRAINT_ADDRESS: u32 = 2012;
const CONSTRAINT_TOKEN_MINT: u32 = 2014;
const CONSTRAINT_TOKEN_OWNER: u32 = 2015;
const CONSTRAINT_MINT_FREEZE_AUTHORITY: u32 = 2017;
const ACCOUNT_OWNED_BY_WRONG_PROGRAM: u32 = 3007;
const INVALID_PROGRAM_ID: u32 = 3008;
const ACCOUNT_NOT_SIGNER: u32 = 3010;
const ACCOUNT_NOT_INITIALIZED: u32 = 3012;
const ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT: u32 = 3014;
// The system program's "account already in use".
const ACCOUNT_ALREADY_IN_USE: u32 = 0;

// ---- initialisation -------------------------------------------------------------------------

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

// ---- the authority --------------------------------------------------------------------------

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

    expect_code(h.add_tier(&intruder, "Cheap Tier", 1).await, UNAUTHORIZED);
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
    for i in 1..=mining::constants::MAX_TIERS {
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

#[tokio::test]
async fn a_tier_cannot_be_free() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let authority = h.authority.insecure_clone();
    expect_code(h.add_tier(&authority, "Free Tier", 0).await, INVALID_TIER);
    expect_code(h.update_tier(&authority, "Tier 1", 0).await, INVALID_TIER);
    let tiers: Vec<(String, u64)> = h.config().await.tiers.into_iter().map(|t| (t.name, t.deposit)).collect();
    assert_eq!(tiers, vec![("Tier 1".into(), 1_000 * UNIT)]);
}

#[tokio::test]
async fn a_32_byte_tier_name_works_end_to_end() {
    let name = "T".repeat(32);
    let mut h = Harness::with_tiers(&[(name.as_str(), 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, &name).await.unwrap();
    assert_eq!(h.streamer(&wallet.pubkey()).await.tier_name, name);
    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
}

#[tokio::test]
async fn the_authority_is_handed_over_in_two_steps() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let old = h.authority.insecure_clone();
    let new = Keypair::new();
    let intruder = Keypair::new();
    h.airdrop(&new.pubkey(), 1_000_000_000).await;
    h.airdrop(&intruder.pubkey(), 1_000_000_000).await;

    // Nothing to accept yet; only the authority proposes.
    expect_code(h.accept_authority(&new).await, UNAUTHORIZED);
    expect_code(h.propose_authority(&intruder, Some(intruder.pubkey())).await, UNAUTHORIZED);

    h.propose_authority(&old, Some(new.pubkey())).await.unwrap();
    assert_eq!(h.config().await.pending_authority, Some(new.pubkey()));
    // Proposing hands nothing over: the old key still rules, and only the proposed key can accept.
    assert_eq!(h.config().await.authority, old.pubkey());
    expect_code(h.accept_authority(&intruder).await, UNAUTHORIZED);
    h.update_tier(&old, "Tier 1", 2_000 * UNIT).await.unwrap();

    h.accept_authority(&new).await.unwrap();
    let config = h.config().await;
    assert_eq!(config.authority, new.pubkey());
    assert_eq!(config.pending_authority, None);
    expect_code(h.update_tier(&old, "Tier 1", 3_000 * UNIT).await, UNAUTHORIZED);
    expect_code(h.propose_authority(&old, Some(old.pubkey())).await, UNAUTHORIZED);
    h.add_tier(&new, "Tier 2", 5_000 * UNIT).await.unwrap();
    // Accepting twice is refused: the proposal was used up.
    expect_code(h.accept_authority(&new).await, UNAUTHORIZED);
}

#[tokio::test]
async fn a_proposal_can_be_withdrawn() {
    let mut h = Harness::with_tiers(&[]).await;
    let authority = h.authority.insecure_clone();
    let new = Keypair::new();
    h.airdrop(&new.pubkey(), 1_000_000_000).await;
    h.propose_authority(&authority, Some(new.pubkey())).await.unwrap();
    h.propose_authority(&authority, None).await.unwrap();
    expect_code(h.accept_authority(&new).await, UNAUTHORIZED);
    let config = h.config().await;
    assert_eq!(config.authority, authority.pubkey());
    assert_eq!(config.pending_authority, None);
}

#[tokio::test]
async fn a_config_owned_by_another_program_is_refused() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    // A copy of the config with a nearly free tier and the attacker as authority, owned by the
    // attacker's program, at the config's own address.
    let attacker = Keypair::new();
    h.airdrop(&attacker.pubkey(), 1_000_000_000).await;
    let mut fake = h.config().await;
    fake.authority = attacker.pubkey();
    fake.tiers[0].deposit = 1;
    let real = h.account(&config_pda()).await.unwrap();
    let mut data = Vec::new();
    anchor_lang::AccountSerialize::try_serialize(&fake, &mut data).unwrap();
    data.resize(real.data.len(), 0);
    let foreign = Account { data, owner: solana_sdk::pubkey::Pubkey::new_unique(), ..real.clone() };
    h.ctx.set_account(&config_pda(), &foreign.into());

    expect_code(h.activate_expecting(&wallet, &ata, "Tier 1", 1).await, ACCOUNT_OWNED_BY_WRONG_PROGRAM);
    expect_code(h.add_tier(&attacker, "Mine", 1).await, ACCOUNT_OWNED_BY_WRONG_PROGRAM);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
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

// ---- deactivation --------------------------------------------------------------------------

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
async fn deactivation_refuses_a_stray_account_of_the_streamer() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 1_000).await;
    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    // An empty token account the streamer PDA owns, but not its associated one: deactivating with it
    // would end the record and lower the total while the deposit stays in the real holdings.
    let w = wallet.pubkey();
    let stray = Keypair::new();
    h.create_token_account(&stray, &mint, &streamer_pda(&w)).await;
    let ix = h.deactivate_ix(&w, &streamer_pda(&w), &ata, &stray.pubkey());
    expect_code(h.send(&[ix], &[&wallet]).await, INVALID_HOLDINGS);

    assert!(h.streamer(&w).await.is_active);
    assert_eq!(h.config().await.total_deposited, 1_000 * UNIT);
    assert_eq!(h.token_balance(&holdings_address(&w, &mint)).await, 1_000 * UNIT);
    h.deactivate(&wallet, &ata).await.unwrap();
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
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
    let ix = h.activate_ix(&a, &attacker_ata, &victim_holdings, "Tier 1", 1_000 * UNIT);
    expect_code(h.send(&[ix], &[&attacker]).await, CONSTRAINT_TOKEN_OWNER);

    // A token account the attacker's own streamer PDA owns, but not its associated one.
    let stray = Keypair::new();
    h.create_token_account(&stray, &mint, &streamer_pda(&a)).await;
    let ix = h.activate_ix(&a, &attacker_ata, &stray.pubkey(), "Tier 1", 1_000 * UNIT);
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
    let ix = h.activate_ix(&a, &victim_ata, &holdings_address(&a, &mint), "Tier 1", 1_000 * UNIT);
    expect_code(h.send(&[ix], &[&attacker]).await, CONSTRAINT_TOKEN_OWNER);

    // Or activates the victim without the victim's signature.
    let v = victim.pubkey();
    let mut ix = h.activate_ix(&v, &victim_ata, &holdings_address(&v, &mint), "Tier 1", 1_000 * UNIT);
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
    let v = victim.pubkey();

    // The attacker signs, naming the victim's streamer record and holdings: the PDA is not theirs.
    let ix = h.deactivate_ix(&attacker.pubkey(), &streamer_pda(&v), &attacker_ata, &holdings_address(&v, &mint));
    expect_code(h.send(&[ix], &[&attacker]).await, CONSTRAINT_SEEDS);

    // Or names the victim as the wallet, paying out to the attacker's account, in a transaction the
    // attacker alone signs and pays for: the program sees that the victim did not sign.
    let mut ix = h.deactivate_ix(&v, &streamer_pda(&v), &attacker_ata, &holdings_address(&v, &mint));
    ix.accounts[0].is_signer = false;
    let blockhash = h.fresh_blockhash();
    let tx = Transaction::new_signed_with_payer(&[ix], Some(&attacker.pubkey()), &[&attacker], blockhash);
    let (result, logs) = h.execute(tx).await;
    let logs = logs.expect("the transaction was executed");
    assert!(logs.iter().any(|l| l == &format!("Program {} invoke [1]", mining::ID)), "reached the program: {logs:#?}");
    expect_code(result, ACCOUNT_NOT_SIGNER);

    // Or pays the victim's refund into its own token account while the victim signs for something else:
    // the payout account must be the signer's.
    let ix = h.deactivate_ix(&v, &streamer_pda(&v), &attacker_ata, &holdings_address(&v, &mint));
    expect_code(h.send(&[ix], &[&victim]).await, CONSTRAINT_TOKEN_OWNER);

    assert!(h.streamer(&v).await.is_active);
    assert_eq!(h.token_balance(&holdings_address(&v, &mint)).await, 1_000 * UNIT);
    assert_eq!(h.token_balance(&attacker_ata).await, 0);
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
async fn a_substituted_token_program_is_refused() {
    let mut h = Harness::with_tiers(&[("Tier 1", 1_000)]).await;
    let mint = h.mint.pubkey();
    let (wallet, ata) = h.wallet_with(&mint, 2_000).await;
    let w = wallet.pubkey();
    // Any other executable (here the associated token program) in the token program's place: a program
    // of the attacker's would "transfer" nothing and report success.
    let impostor = spl_associated_token_account::ID;
    let mut ix = h.activate_ix(&w, &ata, &holdings_address(&w, &mint), "Tier 1", 1_000 * UNIT);
    ix.accounts[6].pubkey = impostor;
    expect_code(h.send(&[ix], &[&wallet]).await, INVALID_PROGRAM_ID);
    assert!(h.account(&streamer_pda(&w)).await.is_none());

    h.activate(&wallet, &ata, "Tier 1").await.unwrap();
    let mut ix = h.deactivate_ix(&w, &streamer_pda(&w), &ata, &holdings_address(&w, &mint));
    ix.accounts[6].pubkey = impostor;
    expect_code(h.send(&[ix], &[&wallet]).await, INVALID_PROGRAM_ID);
    assert!(h.streamer(&w).await.is_active);
    assert_eq!(h.token_balance(&ata).await, 1_000 * UNIT);
    assert_eq!(h.config().await.total_deposited, 1_000 * UNIT);
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
    let mut ix = h.activate_ix(&wallet.pubkey(), &fake_ata, &holdings, "Tier 1", 1_000 * UNIT);
    ix.accounts[3].pubkey = fake_mint.pubkey();
    expect_code(h.send(&[ix], &[&wallet]).await, CONSTRAINT_ADDRESS);

    assert_eq!(h.token_balance(&fake_ata).await, 1_000_000 * UNIT);
    assert!(h.account(&streamer_pda(&wallet.pubkey())).await.is_none());
}
