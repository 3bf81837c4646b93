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

/// `docs/tour.md`.
#[doc = include_str!("../../docs/tour.md")]
pub struct Tour;

/// `docs/focus.md`.
#[doc = include_str!("../../docs/focus.md")]
pub struct Focus;

/// `docs/agent-preset.md`.
#[doc = include_str!("../../docs/agent-preset.md")]
pub struct AgentPreset;

/// `docs/shaping.md`.
#[doc = include_str!("../../docs/shaping.md")]
pub struct Shaping;

/// `docs/adapters.md`.
#[doc = include_str!("../../docs/adapters.md")]
pub struct Adapters;

/// `docs/command-line.md`.
#[doc = include_str!("../../docs/command-line.md")]
pub struct CommandLine;

/// `docs/python.md`.
#[doc = include_str!("../../docs/python.md")]
pub struct Python;

/// `docs/layout.md`.
#[doc = include_str!("../../docs/layout.md")]
pub struct Layout;
