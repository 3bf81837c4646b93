//! Helpers shared by the workspace's integration tests and examples (not published).
//!
//! - [`data`]: the bundled sample datasets (copied into `examples/data/`).
//! - [`gfm`]: re-parse rendered markdown with pulldown-cmark and comrak and report the
//!   tables, list items and code blocks each parser sees.
//! - [`check`]: render a value and check every property of the contract (shared by the
//!   adversarial corpus, the property tests and the fuzz target).
//! - [`shapes`]: the three order systems' shapes (one source with the runtime's unit tests).
//! - [`compose`]: the composition harness (every wrapper x an option set x both entry
//!   points, and the promises each feature makes alone).
//! - [`pages`]: a text page's Next line and fenced content.
//! - [`answerability`]: the answerability benchmark (questions over recorded API responses,
//!   scored at budgets for the agent preset, `Formatter::new()`, cut JSON and cut TOON).

pub mod answerability;
pub mod check;
pub mod compose;
pub mod data;
pub mod gfm;
pub mod pages;
pub mod shapes;

/// The lines of a string as the contract counts them (SPEC section 5): like `str::lines`,
/// but `\r\n` and a lone `\r` end a line too. Written here independently of the crate, so
/// the tests check the crate against the contract rather than against itself.
pub fn lines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        match rest.find(['\n', '\r']) {
            None => {
                out.push(rest);
                rest = "";
            }
            Some(i) => {
                out.push(&rest[..i]);
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + skip..];
            }
        }
    }
    out
}
