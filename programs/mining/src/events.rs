use anchor_lang::prelude::*;
use anchor_lang::Event;

#[event]
pub struct TierActivated {
    pub wallet: Pubkey,
    pub tier: String,
    pub amount: u64,
    pub timestamp: i64,
}

#[event]
pub struct TierDeactivated {
    pub wallet: Pubkey,
    pub tier: String,
    pub amount: u64,
    pub timestamp: i64,
}

/// Logs an event as `emit!` does on chain ("Program data: <discriminator + borsh>"). Off chain, Anchor's
/// `emit!` drops the data; this sends it through solana-program's syscall stubs instead, so the native
/// runtime (tests and the local chain) records the same log line the cluster would.
pub fn emit_event<E: Event>(event: &E) {
    let data = event.data();
    #[cfg(target_os = "solana")]
    anchor_lang::solana_program::log::sol_log_data(&[&data]);
    #[cfg(not(target_os = "solana"))]
    solana_program::log::sol_log_data(&[&data]);
}
