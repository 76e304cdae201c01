//! Reading accounts (agave's rpc_accounts and rpc_accounts_scan): one, several, a program's, a wallet's
//! token accounts, in the encodings a node offers. PubSub encodes and filters its notifications with the
//! same functions.
use std::str::FromStr;

use serde_json::{json, Value};
use solana_account_decoder::{
    encode_ui_account,
    parse_account_data::{AccountAdditionalDataV3, SplTokenAdditionalDataV2},
    parse_token::token_amount_to_ui_amount_v3,
    UiAccountEncoding, UiDataSliceConfig, MAX_BASE58_BYTES,
};
use solana_rpc_client_api::filter::RpcFilterType;
use solana_sdk::{account::Account, program_pack::Pack, pubkey::Pubkey};

use super::{
    params::{config, encoding_of, param, pubkey_param},
    with_context, RpcError, RpcResult,
};
use crate::state::Chain;

/// `dataSlice` of a request's config: the part of each account's data to return.
pub fn data_slice_of(config: &Value, encoding: UiAccountEncoding) -> Result<Option<UiDataSliceConfig>, RpcError> {
    let slice = match config.get("dataSlice") {
        None | Some(Value::Null) => return Ok(None),
        Some(s) => serde_json::from_value::<UiDataSliceConfig>(s.clone())
            .map_err(|e| RpcError::invalid_params(format!("Invalid params: dataSlice: {e}")))?,
    };
    if encoding == UiAccountEncoding::JsonParsed {
        return Err(RpcError::invalid_request(
            "Sliced account data can only be encoded using binary (base 58) or base64 encoding.",
        ));
    }
    Ok(Some(slice))
}

pub async fn encode_account(
    chain: &Chain,
    address: &Pubkey,
    account: &Account,
    encoding: UiAccountEncoding,
    slice: Option<UiDataSliceConfig>,
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
            Some(mint) => chain.mint_decimals(&mint).await?.map(|decimals| AccountAdditionalDataV3 {
                spl_token_additional_data: Some(SplTokenAdditionalDataV2::with_decimals(decimals)),
            }),
            None => None,
        }
    } else {
        None
    };
    serde_json::to_value(encode_ui_account(address, account, encoding, additional, slice)).map_err(RpcError::internal)
}

async fn account_or_null(
    chain: &Chain,
    address: &Pubkey,
    encoding: UiAccountEncoding,
    slice: Option<UiDataSliceConfig>,
) -> RpcResult {
    match chain.account(address).await? {
        Some(account) => encode_account(chain, address, &account, encoding, slice).await,
        None => Ok(Value::Null),
    }
}

pub fn parse_filters(config: &Value) -> Result<Vec<RpcFilterType>, RpcError> {
    match config.get("filters") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(f) => {
            serde_json::from_value(f.clone()).map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}")))
        }
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
    chain: &Chain,
    owner: &Pubkey,
    filters: &[RpcFilterType],
) -> Result<Vec<(Pubkey, Account)>, RpcError> {
    let mut out = Vec::new();
    for address in chain.known_addresses() {
        if let Some(account) = chain.account(&address).await? {
            if account.owner == *owner && matches(filters, &account) {
                out.push((address, account));
            }
        }
    }
    Ok(out)
}

async fn keyed(
    chain: &Chain,
    accounts: Vec<(Pubkey, Account)>,
    encoding: UiAccountEncoding,
    slice: Option<UiDataSliceConfig>,
) -> RpcResult {
    let mut out = Vec::with_capacity(accounts.len());
    for (address, account) in accounts {
        let encoded = encode_account(chain, &address, &account, encoding, slice).await?;
        out.push(json!({ "pubkey": address.to_string(), "account": encoded }));
    }
    Ok(Value::Array(out))
}

pub async fn balance(chain: &Chain, params: &[Value]) -> RpcResult {
    let address = pubkey_param(params, 0)?;
    let lamports = chain.account(&address).await?.map(|a| a.lamports).unwrap_or_default();
    with_context(chain, json!(lamports))
}

pub async fn account_info(chain: &Chain, params: &[Value]) -> RpcResult {
    let address = pubkey_param(params, 0)?;
    let encoding = encoding_of(config(params, 1), UiAccountEncoding::Base58)?;
    let slice = data_slice_of(config(params, 1), encoding)?;
    let value = account_or_null(chain, &address, encoding, slice).await?;
    with_context(chain, value)
}

pub async fn multiple_accounts(chain: &Chain, params: &[Value]) -> RpcResult {
    let list =
        param(params, 0)?.as_array().ok_or_else(|| RpcError::invalid_params("Invalid params: expected an array"))?;
    if list.len() > 100 {
        return Err(RpcError::invalid_params("Too many inputs provided; max 100"));
    }
    let encoding = encoding_of(config(params, 1), UiAccountEncoding::Base64)?;
    let slice = data_slice_of(config(params, 1), encoding)?;
    let mut values = Vec::with_capacity(list.len());
    for item in list {
        let address = pubkey_param(std::slice::from_ref(item), 0)?;
        values.push(account_or_null(chain, &address, encoding, slice).await?);
    }
    with_context(chain, Value::Array(values))
}

pub async fn program_accounts_of(chain: &Chain, params: &[Value]) -> RpcResult {
    let program = pubkey_param(params, 0)?;
    let config = config(params, 1);
    let encoding = encoding_of(config, UiAccountEncoding::Base64)?;
    let slice = data_slice_of(config, encoding)?;
    let accounts = program_accounts(chain, &program, &parse_filters(config)?).await?;
    let value = keyed(chain, accounts, encoding, slice).await?;
    if config.get("withContext").and_then(Value::as_bool).unwrap_or(false) {
        with_context(chain, value)
    } else {
        Ok(value)
    }
}

/// getTokenAccountsByOwner, and getParsedTokenAccountsByOwner (`default` jsonParsed).
pub async fn token_accounts_by_owner(chain: &Chain, params: &[Value], default: UiAccountEncoding) -> RpcResult {
    let encoding = encoding_of(config(params, 2), default)?;
    let slice = data_slice_of(config(params, 2), encoding)?;
    let owner = pubkey_param(params, 0)?;
    let filter = param(params, 1)?;
    let mint = match filter.get("mint").and_then(Value::as_str) {
        Some(m) => Some(Pubkey::from_str(m).map_err(|_| RpcError::invalid_params("Invalid param: Invalid"))?),
        None => None,
    };
    if mint.is_none() {
        let program = filter
            .get("programId")
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError::invalid_params("Invalid params: expected mint or programId"))?;
        if Pubkey::from_str(program).ok() != Some(spl_token::id()) {
            return Err(RpcError::invalid_params("Invalid param: unrecognized Token program id"));
        }
    }
    let filters = [RpcFilterType::DataSize(spl_token::state::Account::LEN as u64)];
    let accounts = program_accounts(chain, &spl_token::id(), &filters)
        .await?
        .into_iter()
        .filter(|(_, account)| match spl_token::state::Account::unpack(&account.data) {
            Ok(token) => token.owner == owner && mint.is_none_or(|m| token.mint == m),
            Err(_) => false,
        })
        .collect();
    let value = keyed(chain, accounts, encoding, slice).await?;
    with_context(chain, value)
}

pub async fn token_account_balance(chain: &Chain, params: &[Value]) -> RpcResult {
    let address = pubkey_param(params, 0)?;
    let account = chain
        .account(&address)
        .await?
        .filter(|a| a.owner == spl_token::id())
        .and_then(|a| spl_token::state::Account::unpack(&a.data).ok())
        .ok_or_else(|| RpcError::invalid_params("Invalid param: could not find account"))?;
    let decimals = chain.mint_decimals(&account.mint).await?.unwrap_or_default();
    let amount = token_amount_to_ui_amount_v3(account.amount, &SplTokenAdditionalDataV2::with_decimals(decimals));
    with_context(chain, serde_json::to_value(amount).map_err(RpcError::internal)?)
}
