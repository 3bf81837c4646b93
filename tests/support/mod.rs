//! Helpers shared by the workspace's integration tests and examples (not published).
//!
//! - [`data`]: the bundled sample datasets (copied into `examples/data/`).
//! - [`gfm`]: re-parse rendered markdown with pulldown-cmark and comrak and report the
//!   tables, list items and code blocks each parser sees.
//! - [`check`]: render a value and check every property of the contract (shared by the
//!   adversarial corpus, the property tests and the fuzz target).

pub mod check;
pub mod data;
pub mod gfm;
