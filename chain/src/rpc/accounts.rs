//! Reading accounts (agave's rpc_accounts and rpc_accounts_scan): one, several, a program's, a wallet's
//! token accounts, in the encodings a node offers. PubSub encodes and filters its notifications with the
//! same functions.
use serde_json::{json, Value};
use solana_account_decoder::{
    encode_ui_account,
    parse_account_data::{AccountAdditionalDataV3, SplTokenAdditionalDataV2},
    parse_token::token_amount_to_ui_amount_v3,
    UiAccountEncoding, UiDataSliceConfig, MAX_BASE58_BYTES,
};
use solana_rpc_client_api::{
    config::{RpcAccountInfoConfig, RpcContextConfig, RpcProgramAccountsConfig, RpcTokenAccountsFilter},
    filter::RpcFilterType,
};
use solana_sdk::{account::Account, commitment_config::CommitmentConfig, program_pack::Pack, pubkey::Pubkey};

use super::{
    params::{parse, pubkey},
    with_context, RpcError, RpcResult,
};
use crate::state::Validator;

/// How a request asks for accounts: the encoding (the method's default when it names none) and the part
/// of each account's data to return.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AccountEncoding {
    pub encoding: UiAccountEncoding,
    pub slice: Option<UiDataSliceConfig>,
}

impl AccountEncoding {
    pub fn of(config: &RpcAccountInfoConfig, default: UiAccountEncoding) -> Result<Self, RpcError> {
        let encoding = match config.encoding.unwrap_or(default) {
            encoding @ (UiAccountEncoding::Base58 | UiAccountEncoding::Base64 | UiAccountEncoding::JsonParsed) => {
                encoding
            }
            other => return Err(RpcError::invalid_params(format!("Invalid params: unsupported encoding {other:?}"))),
        };
        if config.data_slice.is_some() && encoding == UiAccountEncoding::JsonParsed {
            return Err(RpcError::invalid_request(
                "Sliced account data can only be encoded using binary (base 58) or base64 encoding.",
            ));
        }
        Ok(AccountEncoding { encoding, slice: config.data_slice })
    }
}

pub async fn encode_account(
    validator: &Validator,
    address: &Pubkey,
    account: &Account,
    AccountEncoding { encoding, slice }: AccountEncoding,
) -> RpcResult {
    let returned = match slice {
        Some(s) => s.length.min(account.data.len().saturating_sub(s.offset)),
        None => account.data.len(),
    };
    if encoding == UiAccountEncoding::Base58 && returned > MAX_BASE58_BYTES {
        return Err(RpcError::invalid_request(
            "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
        ));
    }
    let additional = if encoding == UiAccountEncoding::JsonParsed && account.owner == spl_token::id() {
        let mint = solana_account_decoder::parse_token::get_token_account_mint(&account.data);
        match mint {
            Some(mint) => validator.mint_decimals(&mint).await?.map(|decimals| AccountAdditionalDataV3 {
                spl_token_additional_data: Some(SplTokenAdditionalDataV2::with_decimals(decimals)),
            }),
            None => None,
        }
    } else {
        None
    };
    serde_json::to_value(encode_ui_account(address, account, encoding, additional, slice)).map_err(RpcError::internal)
}

async fn account_or_null(validator: &Validator, address: &Pubkey, encoding: AccountEncoding) -> RpcResult {
    match validator.account(address).await? {
        Some(account) => encode_account(validator, address, &account, encoding).await,
        None => Ok(Value::Null),
    }
}

pub fn matches(filters: &[RpcFilterType], account: &Account) -> bool {
    filters.iter().all(|f| match f {
        RpcFilterType::DataSize(size) => account.data.len() as u64 == *size,
        RpcFilterType::Memcmp(memcmp) => memcmp.bytes_match(&account.data),
        RpcFilterType::TokenAccountState => spl_token::state::Account::unpack(&account.data).is_ok(),
    })
}

async fn program_accounts(
    validator: &Validator,
    owner: &Pubkey,
    filters: &[RpcFilterType],
) -> Result<Vec<(Pubkey, Account)>, RpcError> {
    let mut out = Vec::new();
    for address in validator.known_addresses() {
        if let Some(account) = validator.account(&address).await? {
            if account.owner == *owner && matches(filters, &account) {
                out.push((address, account));
            }
        }
    }
    Ok(out)
}

async fn keyed(validator: &Validator, accounts: Vec<(Pubkey, Account)>, encoding: AccountEncoding) -> RpcResult {
    let mut out = Vec::with_capacity(accounts.len());
    for (address, account) in accounts {
        let encoded = encode_account(validator, &address, &account, encoding).await?;
        out.push(json!({ "pubkey": address.to_string(), "account": encoded }));
    }
    Ok(Value::Array(out))
}

pub async fn balance(validator: &Validator, params: &[Value]) -> RpcResult {
    let (address, _): (String, Option<RpcContextConfig>) = parse(params)?;
    let lamports = validator.account(&pubkey(&address)?).await?.map(|a| a.lamports).unwrap_or_default();
    with_context(validator, json!(lamports))
}

pub async fn account_info(validator: &Validator, params: &[Value]) -> RpcResult {
    let (address, config): (String, Option<RpcAccountInfoConfig>) = parse(params)?;
    let encoding = AccountEncoding::of(&config.unwrap_or_default(), UiAccountEncoding::Base58)?;
    let value = account_or_null(validator, &pubkey(&address)?, encoding).await?;
    with_context(validator, value)
}

pub async fn multiple_accounts(validator: &Validator, params: &[Value]) -> RpcResult {
    let (addresses, config): (Vec<String>, Option<RpcAccountInfoConfig>) = parse(params)?;
    if addresses.len() > 100 {
        return Err(RpcError::invalid_params("Too many inputs provided; max 100"));
    }
    let encoding = AccountEncoding::of(&config.unwrap_or_default(), UiAccountEncoding::Base64)?;
    let addresses = addresses.iter().map(|a| pubkey(a)).collect::<Result<Vec<_>, _>>()?;
    let mut values = Vec::with_capacity(addresses.len());
    for address in addresses {
        values.push(account_or_null(validator, &address, encoding).await?);
    }
    with_context(validator, Value::Array(values))
}

pub async fn program_accounts_of(validator: &Validator, params: &[Value]) -> RpcResult {
    let (program, config): (String, Option<RpcProgramAccountsConfig>) = parse(params)?;
    let program = pubkey(&program)?;
    let config = config.unwrap_or_default();
    let encoding = AccountEncoding::of(&config.account_config, UiAccountEncoding::Base64)?;
    let filters = config.filters.unwrap_or_default();
    let accounts = program_accounts(validator, &program, &filters).await?;
    let value = keyed(validator, accounts, encoding).await?;
    if config.with_context.unwrap_or(false) {
        with_context(validator, value)
    } else {
        Ok(value)
    }
}

/// getTokenAccountsByOwner, and getParsedTokenAccountsByOwner (`default` jsonParsed).
pub async fn token_accounts_by_owner(validator: &Validator, params: &[Value], default: UiAccountEncoding) -> RpcResult {
    let (owner, filter, config): (String, RpcTokenAccountsFilter, Option<RpcAccountInfoConfig>) = parse(params)?;
    let encoding = AccountEncoding::of(&config.unwrap_or_default(), default)?;
    let owner = pubkey(&owner)?;
    let mint = match filter {
        RpcTokenAccountsFilter::Mint(mint) => Some(pubkey(&mint)?),
        RpcTokenAccountsFilter::ProgramId(program) if pubkey(&program)? == spl_token::id() => None,
        RpcTokenAccountsFilter::ProgramId(_) => {
            return Err(RpcError::invalid_params("Invalid param: unrecognized Token program id"))
        }
    };
    // The owner's accounts by the chain's index (a validator's spl-token-owner index), each read and
    // checked as a walk of every token account would.
    let mut accounts = Vec::new();
    for address in validator.token_accounts_of(&owner) {
        let Some(account) = validator.account(&address).await? else { continue };
        if account.owner != spl_token::id() || account.data.len() != spl_token::state::Account::LEN {
            continue;
        }
        if let Ok(token) = spl_token::state::Account::unpack(&account.data) {
            if token.owner == owner && mint.is_none_or(|m| token.mint == m) {
                accounts.push((address, account));
            }
        }
    }
    let value = keyed(validator, accounts, encoding).await?;
    with_context(validator, value)
}

pub async fn token_account_balance(validator: &Validator, params: &[Value]) -> RpcResult {
    let (address, _): (String, Option<CommitmentConfig>) = parse(params)?;
    let account = validator
        .account(&pubkey(&address)?)
        .await?
        .filter(|a| a.owner == spl_token::id())
        .and_then(|a| spl_token::state::Account::unpack(&a.data).ok())
        .ok_or_else(|| RpcError::invalid_params("Invalid param: could not find account"))?;
    let decimals = validator.mint_decimals(&account.mint).await?.unwrap_or_default();
    let amount = token_amount_to_ui_amount_v3(account.amount, &SplTokenAdditionalDataV2::with_decimals(decimals));
    with_context(validator, serde_json::to_value(amount).map_err(RpcError::internal)?)
}

#[cfg(test)]
mod tests {
    use solana_sdk::program_option::COption;
    use spl_token::state::AccountState;

    use super::*;
    use crate::state::Limits;

    fn token_account(mint: Pubkey, owner: Pubkey) -> Account {
        let mut data = vec![0; spl_token::state::Account::LEN];
        let token = spl_token::state::Account {
            mint,
            owner,
            amount: 5,
            delegate: COption::None,
            state: AccountState::Initialized,
            is_native: COption::None,
            delegated_amount: 0,
            close_authority: COption::None,
        };
        token.pack_into_slice(&mut data);
        Account { lamports: 2_039_280, data, owner: spl_token::id(), executable: false, rent_epoch: 0 }
    }

    #[tokio::test]
    async fn a_wallets_token_accounts_are_found_without_reading_every_account() {
        let dir = std::env::temp_dir().join(format!("strm-owner-index-test-{}", std::process::id()));
        let validator = Validator::start(&dir.join("ledger.bin"), Limits::default(), None, None).await.unwrap();
        let (mint, other_mint, wallet) = (Pubkey::new_unique(), Pubkey::new_unique(), Pubkey::new_unique());
        for _ in 0..300 {
            validator.set_account(Pubkey::new_unique(), token_account(mint, Pubkey::new_unique())).await.unwrap();
        }
        let mut owned = [Pubkey::new_unique(), Pubkey::new_unique()];
        owned.sort();
        validator.set_account(owned[0], token_account(mint, wallet)).await.unwrap();
        validator.set_account(owned[1], token_account(other_mint, wallet)).await.unwrap();
        let found = |filter: Value| {
            let validator = &validator;
            async move {
                let params = [json!(wallet.to_string()), filter, json!({ "encoding": "base64" })];
                let answer = token_accounts_by_owner(validator, &params, UiAccountEncoding::Base64).await.unwrap();
                let addresses = answer["value"].as_array().unwrap().iter();
                addresses.map(|a| a["pubkey"].as_str().unwrap().to_string()).collect::<Vec<_>>()
            }
        };

        let reads = validator.reads();
        let by_program = found(json!({ "programId": spl_token::id().to_string() })).await;
        assert_eq!(by_program, owned.map(|a| a.to_string()));
        // The wallet's two accounts (a walk of every account read the 300 others too).
        assert!(validator.reads() - reads <= 2, "{} accounts read", validator.reads() - reads);
        assert_eq!(found(json!({ "mint": mint.to_string() })).await, [owned[0].to_string()]);

        // Given to another owner by a cheat, then closed: no longer the wallet's.
        validator.set_account(owned[0], token_account(mint, Pubkey::new_unique())).await.unwrap();
        let closed = Account::new(0, 0, &solana_sdk::system_program::id());
        validator.set_account(owned[1], closed).await.unwrap();
        assert!(found(json!({ "programId": spl_token::id().to_string() })).await.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
