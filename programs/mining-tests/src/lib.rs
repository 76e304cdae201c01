//! The mining program's native test suite lives in `tests/mining/` (a module per behaviour, the harness in
//! `support/`); this crate has no code of its own. See programs/mining/README.md, "Tests".
