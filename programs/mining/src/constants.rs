use anchor_lang::prelude::*;

#[constant]
pub const CONFIG_SEED: &[u8] = b"config";

#[constant]
pub const STREAMER_SEED: &[u8] = b"streamer";

/// The config account is sized for this many tiers.
#[constant]
pub const MAX_TIERS: u8 = 16;

/// Longest tier name, in bytes.
#[constant]
pub const MAX_TIER_NAME_LEN: u8 = 32;
