//! The agent preset on recorded public API responses (`examples/data/api/`, origins and
//! licenses in its `SOURCES.md`): o200k tokens of compact JSON, `Formatter::new()` with the
//! compact layout, `Formatter::for_agents()` and TOON, side by side in one run, with the
//! ratios to compact JSON per response and in total; then the time to render each response
//! against `serde_json::to_string` of it.
//!
//! Run with `cargo run --release --example api_tokens` (it also runs as a test). Nothing is
//! cut: `max_lines(usize::MAX)` lifts the row cap; the tool name is `get` so records carry
//! the title line an agent sees, and the preset's left-out line is counted (it is part of
//! what the model reads).

use std::time::Instant;

use serde_json::Value;
use tool_output_format::{Formatter, Layout, O200k, TokenCounter};

/// Every bundled response as `(name, JSON text)`.
pub const RESPONSES: &[(&str, &str)] = &[
    (
        "github_commits",
        include_str!("data/api/github_commits.json"),
    ),
    ("github_events", include_str!("data/api/github_events.json")),
    (
        "github_issue_comments",
        include_str!("data/api/github_issue_comments.json"),
    ),
    ("github_issues", include_str!("data/api/github_issues.json")),
    ("github_labels", include_str!("data/api/github_labels.json")),
    (
        "github_repository",
        include_str!("data/api/github_repository.json"),
    ),
    (
        "github_search_issues",
        include_str!("data/api/github_search_issues.json"),
    ),
    (
        "github_error_422",
        include_str!("data/api/github_error_422.json"),
    ),
    ("k8s_pod_list", include_str!("data/api/k8s_pod_list.json")),
    ("npm_packument", include_str!("data/api/npm_packument.json")),
    ("stripe_charge", include_str!("data/api/stripe_charge.json")),
];

/// The tool name every response is rendered under.
const TOOL: &str = "get";

/// Token counts of one response.
pub struct Row {
    pub name: &'static str,
    pub json: usize,
    pub plain: usize,
    pub agent: usize,
    pub toon: usize,
}

fn ratio(a: usize, b: usize) -> String {
    format!("{:.2}x", a as f64 / b as f64)
}

/// The counts of every bundled response.
pub fn rows() -> Vec<Row> {
    let plain = Formatter::new()
        .layout(Layout::Compact)
        .max_lines(usize::MAX);
    let agent = Formatter::for_agents().max_lines(usize::MAX);
    RESPONSES
        .iter()
        .map(|&(name, text)| {
            let v: Value = serde_json::from_str(text).expect("bundled data is JSON");
            let t = |s: &str| O200k.count(s);
            Row {
                name,
                json: t(&serde_json::to_string(&v).expect("JSON")),
                plain: t(&plain.format(TOOL, &v)),
                agent: t(&agent.format(TOOL, &v)),
                toon: t(&toon_format::encode_default(&v).expect("TOON")),
            }
        })
        .collect()
}

/// The token table, as markdown.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| response | JSON compact | `new()` compact | agent preset | TOON | new / JSON | agent / JSON | TOON / JSON |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = [0usize; 4];
    for r in rows {
        for (t, x) in total.iter_mut().zip([r.json, r.plain, r.agent, r.toon]) {
            *t += x;
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            r.json,
            r.plain,
            r.agent,
            r.toon,
            ratio(r.plain, r.json),
            ratio(r.agent, r.json),
            ratio(r.toon, r.json),
        ));
    }
    let [j, p, a, t] = total;
    out.push_str(&format!(
        "| **total** | {j} | {p} | {a} | {t} | {} | {} | {} |\n",
        ratio(p, j),
        ratio(a, j),
        ratio(t, j)
    ));
    out
}

/// Microseconds per call of `f` (the median of 5 runs of `n` calls).
fn micros(n: u32, f: impl Fn() -> usize) -> f64 {
    let mut runs: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let mut sink = 0usize;
            for _ in 0..n {
                sink = sink.wrapping_add(f());
            }
            std::hint::black_box(sink);
            start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[2]
}

/// The time table: the preset against `serde_json::to_string`, per response.
fn times(n: u32) -> String {
    let agent = Formatter::for_agents().max_lines(usize::MAX);
    let mut out = String::from(
        "| response | serde_json::to_string (µs) | agent preset (µs) | preset / to_string |\n|---|---:|---:|---:|\n",
    );
    for &(name, text) in RESPONSES {
        let v: Value = serde_json::from_str(text).expect("bundled data is JSON");
        let json = micros(n, || serde_json::to_string(&v).map_or(0, |s| s.len()));
        let ours = micros(n, || agent.format(TOOL, &v).len());
        out.push_str(&format!(
            "| {name} | {json:.1} | {ours:.1} | {:.1}x |\n",
            ours / json
        ));
    }
    out
}

fn main() {
    println!("## Tokens (o200k)\n\n{}", table(&rows()));
    let n = if cfg!(debug_assertions) { 3 } else { 200 };
    println!("## Time per response\n\n{}", times(n));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Responses above the per-response target of 0.8x compact JSON, and why
    /// (BENCHMARKS.md, "Agent preset"): a 37-token error body pays the record's title line
    /// and a nested table (the preset folds nothing there: the left-out line would cost more
    /// than the one URL).
    const OVER_TARGET: &[&str] = &["github_error_422"];

    /// The targets: the preset at most 0.5x compact JSON in total; no response above
    /// 0.8x but the listed ones (and those really are above: the list cannot go stale).
    #[test]
    fn the_preset_meets_its_targets() {
        let rows = rows();
        let (json, agent) = rows
            .iter()
            .fold((0, 0), |(j, a), r| (j + r.json, a + r.agent));
        assert!(agent * 2 <= json, "{}", table(&rows));
        misses_are_exactly(&rows, |_| true, OVER_TARGET, |r| r.agent * 10 <= r.json * 8);
    }

    /// Each row that `pick` selects is under its target (`under`) unless `over` lists it,
    /// and each listed one really is over.
    fn misses_are_exactly(
        rows: &[Row],
        pick: impl Fn(&Row) -> bool,
        over: &[&str],
        under: impl Fn(&Row) -> bool,
    ) {
        for r in rows.iter().filter(|r| pick(r)) {
            assert_eq!(
                under(r),
                !over.contains(&r.name),
                "{}: {}",
                r.name,
                table(rows)
            );
        }
    }

    /// The single API records, and those above the target for `Formatter::new()`
    /// (compact layout) of 0.95x their compact JSON (BENCHMARKS.md, "Agent preset"): the
    /// error body (37 tokens of JSON) pays its title line and a nested table.
    const RECORDS: &[&str] = &[
        "github_repository",
        "github_error_422",
        "npm_packument",
        "stripe_charge",
    ];
    const PLAIN_OVER_TARGET: &[&str] = &["github_error_422"];

    #[test]
    fn single_records_against_their_target() {
        misses_are_exactly(
            &rows(),
            |r| RECORDS.contains(&r.name),
            PLAIN_OVER_TARGET,
            |r| r.plain * 100 <= r.json * 95,
        );
    }

    #[test]
    fn runs() {
        main();
    }
}
