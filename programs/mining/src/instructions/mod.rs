// Each instruction module exports a `handler`; lib.rs calls them by path, the glob re-exports are for
// the account structs that #[program] needs in scope.
#![allow(ambiguous_glob_reexports)]

pub mod activate_tier;
pub mod deactivate_tier;
pub mod initialize;
pub mod manage_tiers;
mod shared;
pub mod transfer_authority;

pub use activate_tier::*;
pub use deactivate_tier::*;
pub use initialize::*;
pub use manage_tiers::*;
pub use transfer_authority::*;
