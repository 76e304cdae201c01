//! The mining program's native test suite lives in `tests/` (the harness in `tests/common`); this crate has
//! no code of its own. See programs/mining/README.md, "Tests".
