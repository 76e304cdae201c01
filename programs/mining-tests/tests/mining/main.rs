//! The mining program's native suite: the program on agave's bank (solana-program-test) with the real SPL
//! Token and Associated Token programs, one module per behaviour; the harness is in `support`. One test
//! binary, so agave is linked once.
mod activation;
mod attacks;
mod authority;
mod deactivation;
mod initialization;
mod support;
