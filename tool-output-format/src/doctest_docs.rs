//! The guide in `docs/` at the repository root, compiled and run as doctests: every Rust
//! block of every file is a test of this crate (`cargo test -p tool-output-format --doc`).
//! Only under `cfg(doctest)`, so a build (and a packaged crate, which does not ship
//! `docs/`) never reads these files.

/// `docs/rendering.md`.
#[doc = include_str!("../../docs/rendering.md")]
pub struct Rendering;

/// `docs/escaping.md`.
#[doc = include_str!("../../docs/escaping.md")]
pub struct Escaping;

/// `docs/budgets.md`.
#[doc = include_str!("../../docs/budgets.md")]
pub struct Budgets;

/// `docs/agent-results.md`.
#[doc = include_str!("../../docs/agent-results.md")]
pub struct AgentResults;

/// `docs/derive.md`.
#[doc = include_str!("../../docs/derive.md")]
pub struct Derive;

/// `docs/large-results.md`.
#[doc = include_str!("../../docs/large-results.md")]
pub struct LargeResults;
