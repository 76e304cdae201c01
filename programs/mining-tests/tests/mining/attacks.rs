//! Accounts a caller substitutes for the ones the instruction expects.
use solana_sdk::{
    signature::{Keypair, Signer},
    transaction::Transaction,
};

use crate::support::*;

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
