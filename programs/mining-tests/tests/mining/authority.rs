//! The authority's tier table, and handing the authority over.
use solana_sdk::{
    account::Account,
    signature::{Keypair, Signer},
};

use crate::support::*;

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
