//! The program's instructions as the harness builds and sends them.
use anchor_lang::{InstructionData, ToAccountMetas};
use solana_program_test::BanksClientError;
use solana_sdk::{
    instruction::Instruction,
    pubkey::Pubkey,
    signature::{Keypair, Signer},
};
use solana_system_interface::program as system_program;

use super::{config_pda, holdings_address, program_data_address, streamer_pda, Harness};

impl Harness {
    pub fn initialize_ix(&self, authority: &Pubkey, mint: &Pubkey) -> Instruction {
        Instruction {
            program_id: mining::ID,
            accounts: mining::accounts::Initialize {
                authority: *authority,
                program_data: program_data_address(),
                config: config_pda(),
                token_mint: *mint,
                system_program: system_program::ID,
            }
            .to_account_metas(None),
            data: mining::instruction::Initialize {}.data(),
        }
    }

    pub async fn initialize(&mut self) -> Result<(), BanksClientError> {
        let authority = self.authority.insecure_clone();
        let ix = self.initialize_ix(&authority.pubkey(), &self.mint.pubkey());
        self.send(&[ix], &[&authority]).await
    }

    fn manage_accounts(signer: &Pubkey) -> Vec<solana_sdk::instruction::AccountMeta> {
        mining::accounts::ConfigAuthority { authority: *signer, config: config_pda() }.to_account_metas(None)
    }

    pub async fn add_tier(&mut self, signer: &Keypair, name: &str, deposit: u64) -> Result<(), BanksClientError> {
        let ix = Instruction {
            program_id: mining::ID,
            accounts: Self::manage_accounts(&signer.pubkey()),
            data: mining::instruction::AddTier { name: name.to_string(), deposit }.data(),
        };
        self.send(&[ix], &[signer]).await
    }

    pub async fn update_tier(&mut self, signer: &Keypair, name: &str, deposit: u64) -> Result<(), BanksClientError> {
        let ix = Instruction {
            program_id: mining::ID,
            accounts: Self::manage_accounts(&signer.pubkey()),
            data: mining::instruction::UpdateTier { name: name.to_string(), deposit }.data(),
        };
        self.send(&[ix], &[signer]).await
    }

    pub async fn propose_authority(
        &mut self,
        signer: &Keypair,
        new_authority: Option<Pubkey>,
    ) -> Result<(), BanksClientError> {
        let ix = Instruction {
            program_id: mining::ID,
            accounts: mining::accounts::ConfigAuthority { authority: signer.pubkey(), config: config_pda() }
                .to_account_metas(None),
            data: mining::instruction::ProposeAuthority { new_authority }.data(),
        };
        self.send(&[ix], &[signer]).await
    }

    pub async fn accept_authority(&mut self, signer: &Keypair) -> Result<(), BanksClientError> {
        let ix = Instruction {
            program_id: mining::ID,
            accounts: mining::accounts::AcceptAuthority { new_authority: signer.pubkey(), config: config_pda() }
                .to_account_metas(None),
            data: mining::instruction::AcceptAuthority {}.data(),
        };
        self.send(&[ix], &[signer]).await
    }

    pub async fn remove_tier(&mut self, signer: &Keypair, name: &str) -> Result<(), BanksClientError> {
        let ix = Instruction {
            program_id: mining::ID,
            accounts: Self::manage_accounts(&signer.pubkey()),
            data: mining::instruction::RemoveTier { name: name.to_string() }.data(),
        };
        self.send(&[ix], &[signer]).await
    }

    pub fn activate_ix(
        &self,
        wallet: &Pubkey,
        wallet_token: &Pubkey,
        holdings: &Pubkey,
        tier: &str,
        expected_deposit: u64,
    ) -> Instruction {
        Instruction {
            program_id: mining::ID,
            accounts: mining::accounts::ActivateTier {
                wallet: *wallet,
                config: config_pda(),
                streamer: streamer_pda(wallet),
                token_mint: self.mint.pubkey(),
                wallet_token_account: *wallet_token,
                holdings: *holdings,
                token_program: spl_token::ID,
                associated_token_program: spl_associated_token_account::ID,
                system_program: system_program::ID,
            }
            .to_account_metas(None),
            data: mining::instruction::ActivateTier { tier_name: tier.to_string(), expected_deposit }.data(),
        }
    }

    /// The deposit a client shows for `tier` (the config's current one; 0 for an unknown tier).
    pub async fn deposit_of(&mut self, tier: &str) -> u64 {
        self.config().await.tiers.iter().find(|t| t.name == tier).map(|t| t.deposit).unwrap_or_default()
    }

    /// Activates `tier`, expecting the deposit the config asks now (as a client that just read it).
    pub async fn activate(
        &mut self,
        wallet: &Keypair,
        wallet_token: &Pubkey,
        tier: &str,
    ) -> Result<(), BanksClientError> {
        let expected = self.deposit_of(tier).await;
        self.activate_expecting(wallet, wallet_token, tier, expected).await
    }

    pub async fn activate_expecting(
        &mut self,
        wallet: &Keypair,
        wallet_token: &Pubkey,
        tier: &str,
        expected_deposit: u64,
    ) -> Result<(), BanksClientError> {
        let holdings = holdings_address(&wallet.pubkey(), &self.mint.pubkey());
        let ix = self.activate_ix(&wallet.pubkey(), wallet_token, &holdings, tier, expected_deposit);
        self.send(&[ix], &[wallet]).await
    }

    pub fn deactivate_ix(
        &self,
        wallet: &Pubkey,
        streamer: &Pubkey,
        wallet_token: &Pubkey,
        holdings: &Pubkey,
    ) -> Instruction {
        Instruction {
            program_id: mining::ID,
            accounts: mining::accounts::DeactivateTier {
                wallet: *wallet,
                config: config_pda(),
                streamer: *streamer,
                token_mint: self.mint.pubkey(),
                wallet_token_account: *wallet_token,
                holdings: *holdings,
                token_program: spl_token::ID,
            }
            .to_account_metas(None),
            data: mining::instruction::DeactivateTier {}.data(),
        }
    }

    pub async fn deactivate(&mut self, wallet: &Keypair, wallet_token: &Pubkey) -> Result<(), BanksClientError> {
        let w = wallet.pubkey();
        let ix = self.deactivate_ix(&w, &streamer_pda(&w), wallet_token, &holdings_address(&w, &self.mint.pubkey()));
        self.send(&[ix], &[wallet]).await
    }
}
