//! Measures query-focused trimming (`focus`) against today's cuts on three bundled documents
//! (`tests/data/focus/`: a help-center FAQ, a README, a 5,000-line log with one incident) and
//! 30 questions whose answer sits in one known place (`questions.json`, answer substring
//! unique in its document). A question is a hit when the answer substring survives the cut.
//!
//! ```sh
//! cargo test -p tool-output-format --release --test focus_eval -- --nocapture
//! ```

use std::time::Instant;

use serde_json::Value;
use tool_output_format::focus::{Fallback, Focus};

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

fn head(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

fn head_tail(text: &str, n: usize) -> String {
    let total = text.chars().count();
    let tail: String = text.chars().skip(total.saturating_sub(n - n / 2)).collect();
    head(text, n / 2) + &tail
}

/// What the caller would show with focus: the focused text, or today's head cut after the
/// no-match notice.
fn focused(focus: &Focus, text: &str, n: usize) -> String {
    match focus.text(text, n) {
        Ok(f) => {
            assert!(f.text.chars().count() <= n, "over budget");
            f.text
        }
        Err(Fallback::Fits) => text.to_string(),
        Err(_) => head(text, n),
    }
}

#[test]
fn focus_keeps_the_answer_far_more_often_than_head_cuts() {
    let qs = questions();
    assert_eq!(qs.len(), 30);
    for (d, _, a) in &qs {
        assert_eq!(
            doc(d).matches(a.as_str()).count(),
            1,
            "answer {a:?} must occur once in {d}"
        );
    }
    println!("\n| budget (chars) | document | focus | head | head+tail |");
    println!("|---|---|---|---|---|");
    let mut totals = Vec::new();
    for budget in BUDGETS {
        let (mut f_all, mut h_all, mut ht_all) = (0, 0, 0);
        for name in ["faq.md", "readme.md", "app.log"] {
            let (mut f, mut h, mut ht) = (0, 0, 0);
            for (d, q, a) in qs.iter().filter(|(d, _, _)| d == name) {
                let text = doc(d);
                let hit_f = focused(&Focus::new(q), text, budget).contains(a.as_str());
                if !hit_f {
                    println!("  miss at {budget}: {d}: {q}");
                }
                f += usize::from(hit_f);
                h += usize::from(head(text, budget).contains(a.as_str()));
                ht += usize::from(head_tail(text, budget).contains(a.as_str()));
            }
            println!("| {budget} | {name} | {f}/10 | {h}/10 | {ht}/10 |");
            (f_all, h_all, ht_all) = (f_all + f, h_all + h, ht_all + ht);
        }
        println!("| {budget} | **all** | **{f_all}/30** | {h_all}/30 | {ht_all}/30 |");
        totals.push((budget, f_all, h_all, ht_all));
    }
    for &(budget, f, h, ht) in &totals {
        assert!(
            f > 3 * h.max(1) && f > ht,
            "at {budget} chars focus {f}/30 must beat 3x head {h} and head+tail {ht}"
        );
    }
    let at = |b: usize| totals.iter().find(|t| t.0 == b).unwrap().1;
    assert!(
        at(4_000) >= 25,
        "focus kept {}/30 answers at 4,000 chars, floor 25",
        at(4_000)
    );
    assert!(
        at(8_000) >= 27,
        "focus kept {}/30 answers at 8,000 chars, floor 27",
        at(8_000)
    );
}

/// Time per megabyte of text (printed, not asserted: timings belong in benchmarks).
#[test]
fn time_per_megabyte() {
    let log = doc("app.log");
    let faq = doc("faq.md");
    for (name, text) in [("app.log", log), ("faq.md", faq)] {
        let focus = Focus::new("which host ran out of disk space");
        let runs = 5;
        let start = Instant::now();
        for _ in 0..runs {
            let _ = std::hint::black_box(focus.text(std::hint::black_box(text), 4_000));
        }
        let per_mb = start.elapsed().as_secs_f64() / runs as f64 / (text.len() as f64 / 1e6);
        println!(
            "{name}: {:.1} ms per MB ({} bytes)",
            per_mb * 1e3,
            text.len()
        );
    }
}
