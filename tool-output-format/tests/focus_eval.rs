//! Measures query-focused trimming (`Formatter::focus`) against today's cuts on three bundled documents
//! (`tests/data/focus/`: a help-center FAQ, a README, a 5,000-line log with one incident) and
//! 30 questions whose answer sits in one known place (`questions.json`, answer substring
//! unique in its document). A question is a hit when the answer substring survives the cut.
//!
//! The same measurement runs through the formatter (`Formatter::focus(q).format(..)` against
//! `Formatter::format(..)` with the head and the head-and-tail strategies, under the same
//! `max_chars`, and with the `tokens` feature under `max_tokens(2_000)`).
//!
//! ```sh
//! cargo test -p tool-output-format --release --features tokens --test focus_eval -- --nocapture --test-threads 1
//! ```
//!
//! Time per megabyte is a benchmark, not a test: `cargo bench --bench render -- focus`.

use serde_json::Value;
use tool_output_format::{Formatter, Strategy};

const BUDGETS: [usize; 3] = [2_000, 4_000, 8_000];

fn doc(name: &str) -> &'static str {
    match name {
        "faq.md" => include_str!("data/focus/faq.md"),
        "readme.md" => include_str!("data/focus/readme.md"),
        "app.log" => include_str!("data/focus/app.log"),
        other => panic!(
            "questions.json names an unknown document {other:?}; expected faq.md, readme.md or app.log"
        ),
    }
}

fn questions() -> Vec<(String, String, String)> {
    let v: Value = serde_json::from_str(include_str!("data/focus/questions.json")).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let s = |k: &str| q[k].as_str().unwrap().to_string();
            (s("doc"), s("question"), s("answer"))
        })
        .collect()
}

/// Hits through the formatter for one set of options: focused, head, head and tail.
fn formatter_hits(fmt: &Formatter, name: &str, check: impl Fn(&str)) -> (usize, usize, usize) {
    let head_tail = fmt.clone().strategy(Strategy::HeadTail);
    let (mut f, mut h, mut ht) = (0, 0, 0);
    for (d, q, a) in questions().iter().filter(|(d, _, _)| d == name) {
        let text = doc(d);
        let focused = fmt.focus(q).format("fetch", text);
        check(&focused);
        if !focused.contains(a.as_str()) {
            println!("  miss: {d}: {q}");
        }
        f += usize::from(focused.contains(a.as_str()));
        let head = fmt.format("fetch", text);
        check(&head);
        h += usize::from(head.contains(a.as_str()));
        ht += usize::from(head_tail.format("fetch", text).contains(a.as_str()));
    }
    (f, h, ht)
}

/// The measurement through `Formatter::focus(..).format(..)`: the answer is in the output
/// (markdown, notices and fences included) under the same `max_chars` as plain `format`.
/// `max_lines` is raised so the character budget is the one that binds, then left at its
/// default (100) for the last row.
#[test]
fn through_the_formatter_focus_keeps_the_answer_far_more_often() {
    println!("\n| options | document | focus | head | head+tail |");
    println!("|---|---|---|---|---|");
    let mut rows = Vec::new();
    let cases: Vec<(String, Formatter, usize)> = BUDGETS
        .iter()
        .map(|&b| {
            let fmt = Formatter::new().max_chars(b).max_lines(1_000_000);
            (format!("max_chars({b})"), fmt, b)
        })
        .chain(std::iter::once((
            "max_chars(8000), max_lines 100".to_string(),
            Formatter::new().max_chars(8_000),
            8_000,
        )))
        .collect();
    for (label, fmt, budget) in &cases {
        let (mut f_all, mut h_all, mut ht_all) = (0, 0, 0);
        for name in ["faq.md", "readme.md", "app.log"] {
            let check = |out: &str| {
                assert!(out.chars().count() <= *budget, "{label}: over budget");
            };
            let (f, h, ht) = formatter_hits(fmt, name, check);
            println!("| {label} | {name} | {f}/10 | {h}/10 | {ht}/10 |");
            (f_all, h_all, ht_all) = (f_all + f, h_all + h, ht_all + ht);
        }
        println!("| {label} | **all** | **{f_all}/30** | {h_all}/30 | {ht_all}/30 |");
        rows.push((label.clone(), f_all, h_all, ht_all));
    }
    for (label, f, h, ht) in &rows {
        assert!(
            *f >= 3 * (*h).max(1) && f > ht,
            "{label}: focus {f}/30 must be at least 3x head {h} and beat head+tail {ht}"
        );
    }
    assert!(
        rows[0].1 >= 24,
        "focus kept {}/30 at 2,000 chars, floor 24",
        rows[0].1
    );
    assert!(
        rows[1].1 >= 26,
        "focus kept {}/30 at 4,000 chars, floor 26",
        rows[1].1
    );
}

/// The issue's figure: a 2,000-token budget (o200k), through the formatter.
#[cfg(feature = "tokens")]
#[test]
fn through_the_formatter_under_2000_tokens() {
    let fmt = Formatter::new().max_tokens(2_000).max_lines(1_000_000);
    let o200k = tool_output_format::O200k;
    println!("\n| options | document | focus | head | head+tail |");
    println!("|---|---|---|---|---|");
    let (mut f_all, mut h_all, mut ht_all) = (0, 0, 0);
    for name in ["faq.md", "readme.md", "app.log"] {
        let check = |out: &str| {
            use tool_output_format::TokenCounter;
            assert!(o200k.count(out) <= 2_000, "over 2,000 tokens");
        };
        let (f, h, ht) = formatter_hits(&fmt, name, check);
        println!("| max_tokens(2000) | {name} | {f}/10 | {h}/10 | {ht}/10 |");
        (f_all, h_all, ht_all) = (f_all + f, h_all + h, ht_all + ht);
    }
    println!("| max_tokens(2000) | **all** | **{f_all}/30** | {h_all}/30 | {ht_all}/30 |");
    assert!(
        f_all >= 27,
        "focus kept {f_all}/30 under 2,000 tokens, floor 27 (90%)"
    );
    assert!(f_all >= 3 * h_all.max(1) && f_all > ht_all);
}
