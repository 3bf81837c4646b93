//! The answerability benchmark: what an agent can still answer from a rendered tool result,
//! at budgets of 500 to 4,000 characters and with none, for the agent preset,
//! `Formatter::new()`, compact JSON cut at the budget and TOON cut at the budget.
//!
//! Run with `cargo run --example answerability` (a debug build is enough: it renders 20
//! responses 20 ways, well under a second). The questions are
//! `benches/answerability/questions.json`; the scoring is `tof_support::answerability`
//! (shared with `tests/answerability.rs`). It prints one markdown table, then the questions
//! the agent preset missed at 1,000 and 2,000 characters.

use serde_json::Value;
use tof_support::answerability::{self, Way};

fn toon(v: &Value) -> String {
    toon_format::encode_default(v).expect("TOON encodes any JSON")
}

fn main() {
    let corpus = answerability::load().unwrap_or_else(|e| panic!("{e}"));
    let results = answerability::run(&corpus, toon);
    println!(
        "{} questions over {} responses from {} services\n",
        corpus.questions.len(),
        corpus.responses.len(),
        corpus.services().len()
    );
    println!("{}", results.table());
    print!(
        "{}",
        results.missed_report(
            &corpus,
            Way::Agent,
            &[Some(500), Some(1_000), Some(2_000), Some(4_000), None]
        )
    );
}
