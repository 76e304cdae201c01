//! A native test harness: agave's bank (solana-program-test) running the mining program natively, with
//! the real SPL Token and Associated Token programs that program-test loads.

mod errors;
mod instructions;

pub use errors::*;

use anchor_lang::{AccountDeserialize, AnchorDeserialize, Event};
use mining::state::{Config, Streamer};
use solana_loader_v3_interface::state::UpgradeableLoaderState;
use solana_program_test::{processor, BanksClientError, ProgramTest, ProgramTestContext};
use solana_sdk::{
    account::Account,
    account_info::AccountInfo,
    entrypoint::ProgramResult,
    hash::Hash,
    instruction::Instruction,
    program_pack::Pack,
    pubkey::Pubkey,
    rent::Rent,
    signature::{Keypair, Signer},
    transaction::Transaction,
};
use solana_sdk_ids::bpf_loader_upgradeable;
use solana_system_interface::instruction as system_instruction;
use spl_associated_token_account::get_associated_token_address;

pub const DECIMALS: u8 = 6;
pub const UNIT: u64 = 1_000_000;

// Anchor's entry wants one lifetime for the slice and its items; the native runtime lends them for
// the call only, so the test harness leaks a copy (test processes are short-lived).
fn mining_entry(program_id: &Pubkey, accounts: &[AccountInfo], data: &[u8]) -> ProgramResult {
    let accounts = Box::leak(Box::new(accounts.to_vec()));
    mining::entry(program_id, accounts, data)
}

/// The program as a native builtin, with a ProgramData account at the address the upgradeable loader
/// derives for it, naming `upgrade_authority` (what `anchor deploy` leaves on a cluster); none without one.
pub fn program_test(program_data: Option<Option<Pubkey>>) -> ProgramTest {
    let mut pt = ProgramTest::new("mining", mining::ID, processor!(mining_entry));
    pt.prefer_bpf(false);
    if let Some(upgrade_authority) = program_data {
        pt.add_account(program_data_address(), program_data_account(upgrade_authority));
    }
    pt
}

pub fn program_data_address() -> Pubkey {
    Pubkey::find_program_address(&[mining::ID.as_ref()], &bpf_loader_upgradeable::id()).0
}

/// The ProgramData header as the upgradeable loader writes it (the program's code would follow it).
pub fn program_data_account(upgrade_authority: Option<Pubkey>) -> Account {
    let data = bincode::serialize(&UpgradeableLoaderState::ProgramData {
        slot: 0,
        upgrade_authority_address: upgrade_authority,
    })
    .unwrap();
    Account {
        lamports: Rent::default().minimum_balance(data.len()),
        data,
        owner: bpf_loader_upgradeable::id(),
        executable: false,
        rent_epoch: 0,
    }
}

pub struct Harness {
    pub ctx: ProgramTestContext,
    pub authority: Keypair,
    pub mint: Keypair,
}

pub fn config_pda() -> Pubkey {
    Pubkey::find_program_address(&[mining::constants::CONFIG_SEED], &mining::ID).0
}

pub fn streamer_pda(wallet: &Pubkey) -> Pubkey {
    Pubkey::find_program_address(&[mining::constants::STREAMER_SEED, wallet.as_ref()], &mining::ID).0
}

pub fn holdings_address(wallet: &Pubkey, mint: &Pubkey) -> Pubkey {
    get_associated_token_address(&streamer_pda(wallet), mint)
}

/// The events of type `E` in a transaction's logs, decoded as an indexer reads them
/// ("Program data: " + base64 of discriminator and borsh data).
pub fn events<E: Event + AnchorDeserialize>(logs: &[String]) -> Vec<E> {
    use anchor_lang::__private::base64::{engine::general_purpose::STANDARD, Engine};
    logs.iter()
        .filter_map(|l| l.strip_prefix("Program data: "))
        .map(|b64| STANDARD.decode(b64).expect("base64 event data"))
        .filter_map(|bytes| bytes.strip_prefix(E::DISCRIMINATOR).map(|mut rest| E::deserialize(&mut rest).unwrap()))
        .collect()
}

impl Harness {
    /// A started bank with a 6-decimal mint (no freeze authority) and the program deployed with
    /// `authority` as its upgrade authority; the config is not initialised.
    pub async fn start() -> Self {
        let authority = Keypair::new();
        Self::start_with(program_test(Some(Some(authority.pubkey()))), authority).await
    }

    pub async fn start_with(pt: ProgramTest, authority: Keypair) -> Self {
        let ctx = pt.start_with_context().await;
        let mut h = Harness { ctx, authority, mint: Keypair::new() };
        h.airdrop(&h.authority.pubkey(), 10_000_000_000).await;
        let mint = h.mint.insecure_clone();
        h.create_mint(&mint).await;
        h
    }

    /// Started, with the config initialised and the given tiers (name, whole tokens) added.
    pub async fn with_tiers(tiers: &[(&str, u64)]) -> Self {
        let mut h = Self::start().await;
        h.initialize().await.unwrap();
        for (name, deposit) in tiers {
            h.add_tier(&h.authority.insecure_clone(), name, deposit * UNIT).await.unwrap();
        }
        h
    }

    pub fn payer(&self) -> Keypair {
        self.ctx.payer.insecure_clone()
    }

    /// A blockhash no transaction of this bank has used yet, so that two identical transactions in a row
    /// are two transactions. The bank registers one on the spot (what its PoH task does every slot), rather
    /// than the test waiting for that task, which a loaded machine can starve.
    pub fn fresh_blockhash(&mut self) -> Hash {
        let bank = self.ctx.bank_forks().read().unwrap().working_bank();
        bank.register_unique_recent_blockhash_for_test();
        self.ctx.last_blockhash = bank.last_blockhash();
        self.ctx.last_blockhash
    }

    /// A transaction paid by the harness's payer, signed by it and `signers`, on a fresh blockhash.
    fn transaction(&mut self, ixs: &[Instruction], signers: &[&Keypair]) -> Transaction {
        let payer = self.payer();
        let mut all: Vec<&Keypair> = vec![&payer];
        all.extend(signers.iter().copied().filter(|k| k.pubkey() != payer.pubkey()));
        Transaction::new_signed_with_payer(ixs, Some(&payer.pubkey()), &all, self.fresh_blockhash())
    }

    /// Executes a transaction and returns its result and logs (`None` when it was refused before
    /// execution). Every transaction of the harness goes this one way: the bank locks the accounts,
    /// executes, commits and unlocks them before the answer comes back, so the next transaction never
    /// finds them locked. (BanksClient::process_transaction instead hands the transaction to a background
    /// thread and answers once its status is recorded, which is before that thread releases the locks:
    /// a transaction sent right after on the same accounts failed with `AccountInUse`.)
    pub async fn execute(&mut self, tx: Transaction) -> (Result<(), BanksClientError>, Option<Vec<String>>) {
        let answer = self.ctx.banks_client.process_transaction_with_metadata(tx).await;
        match answer {
            Err(err) => (Err(err), None),
            Ok(r) => (r.result.map_err(BanksClientError::TransactionError), r.metadata.map(|m| m.log_messages)),
        }
    }

    pub async fn send(&mut self, ixs: &[Instruction], signers: &[&Keypair]) -> Result<(), BanksClientError> {
        let tx = self.transaction(ixs, signers);
        self.execute(tx).await.0
    }

    /// Sends like `send`, expecting success, and returns the transaction's log lines.
    pub async fn send_logged(&mut self, ixs: &[Instruction], signers: &[&Keypair]) -> Vec<String> {
        let tx = self.transaction(ixs, signers);
        let (result, logs) = self.execute(tx).await;
        result.unwrap();
        logs.expect("the transaction was executed")
    }

    pub async fn airdrop(&mut self, to: &Pubkey, lamports: u64) {
        let payer = self.payer();
        self.send(&[system_instruction::transfer(&payer.pubkey(), to, lamports)], &[]).await.unwrap();
    }

    pub async fn create_mint(&mut self, mint: &Keypair) {
        self.create_mint_with_freeze_authority(mint, None).await
    }

    pub async fn create_mint_with_freeze_authority(&mut self, mint: &Keypair, freeze_authority: Option<&Pubkey>) {
        let payer = self.payer();
        let rent = self.ctx.banks_client.get_rent().await.unwrap();
        let ixs = [
            system_instruction::create_account(
                &payer.pubkey(),
                &mint.pubkey(),
                rent.minimum_balance(spl_token::state::Mint::LEN),
                spl_token::state::Mint::LEN as u64,
                &spl_token::ID,
            ),
            spl_token::instruction::initialize_mint2(
                &spl_token::ID,
                &mint.pubkey(),
                &payer.pubkey(),
                freeze_authority,
                DECIMALS,
            )
            .unwrap(),
        ];
        self.send(&ixs, &[mint]).await.unwrap();
    }

    /// A funded wallet with an associated token account holding `tokens` whole tokens of `mint`.
    pub async fn wallet_with(&mut self, mint: &Pubkey, tokens: u64) -> (Keypair, Pubkey) {
        let wallet = Keypair::new();
        self.airdrop(&wallet.pubkey(), 1_000_000_000).await;
        let ata = self.create_ata(&wallet.pubkey(), mint).await;
        if tokens > 0 {
            self.mint_to(mint, &ata, tokens * UNIT).await;
        }
        (wallet, ata)
    }

    /// A plain (non-associated) token account at `account` for `owner`.
    pub async fn create_token_account(&mut self, account: &Keypair, mint: &Pubkey, owner: &Pubkey) {
        let payer = self.payer();
        let rent = self.ctx.banks_client.get_rent().await.unwrap();
        let ixs = [
            system_instruction::create_account(
                &payer.pubkey(),
                &account.pubkey(),
                rent.minimum_balance(spl_token::state::Account::LEN),
                spl_token::state::Account::LEN as u64,
                &spl_token::ID,
            ),
            spl_token::instruction::initialize_account3(&spl_token::ID, &account.pubkey(), mint, owner).unwrap(),
        ];
        self.send(&ixs, &[account]).await.unwrap();
    }

    pub async fn create_ata(&mut self, owner: &Pubkey, mint: &Pubkey) -> Pubkey {
        let payer = self.payer();
        let ix = spl_associated_token_account::instruction::create_associated_token_account(
            &payer.pubkey(),
            owner,
            mint,
            &spl_token::ID,
        );
        self.send(&[ix], &[]).await.unwrap();
        get_associated_token_address(owner, mint)
    }

    pub async fn mint_to(&mut self, mint: &Pubkey, to: &Pubkey, amount: u64) {
        let payer = self.payer();
        let ix = spl_token::instruction::mint_to(&spl_token::ID, mint, to, &payer.pubkey(), &[], amount).unwrap();
        self.send(&[ix], &[]).await.unwrap();
    }

    pub async fn token_balance(&mut self, account: &Pubkey) -> u64 {
        let acc = self.ctx.banks_client.get_account(*account).await.unwrap().expect("token account exists");
        spl_token::state::Account::unpack(&acc.data).unwrap().amount
    }

    pub async fn account(&mut self, address: &Pubkey) -> Option<Account> {
        self.ctx.banks_client.get_account(*address).await.unwrap()
    }

    pub async fn config(&mut self) -> Config {
        let acc = self.account(&config_pda()).await.expect("config exists");
        Config::try_deserialize(&mut acc.data.as_slice()).unwrap()
    }

    pub async fn lamports(&mut self, address: &Pubkey) -> u64 {
        self.account(address).await.map(|a| a.lamports).unwrap_or_default()
    }

    /// Overwrites an Anchor account's data in place (a state no transaction could make).
    pub async fn forge<T: anchor_lang::AccountSerialize>(&mut self, address: &Pubkey, value: &T) {
        let mut data = Vec::new();
        value.try_serialize(&mut data).unwrap();
        let existing = self.account(address).await.expect("account exists");
        data.resize(existing.data.len(), 0);
        self.ctx.set_account(address, &Account { data, ..existing }.into());
    }

    pub async fn streamer(&mut self, wallet: &Pubkey) -> Streamer {
        let acc = self.account(&streamer_pda(wallet)).await.expect("streamer exists");
        Streamer::try_deserialize(&mut acc.data.as_slice()).unwrap()
    }
}
