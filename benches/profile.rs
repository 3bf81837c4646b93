//! A fixed workload to profile under callgrind, which counts instructions deterministically
//! (the evidence behind the optimisations and targets in BENCHMARKS.md).
//!
//! `benches/callgrind.sh` runs every workload and prints instructions per render; by hand:
//!
//! ```text
//! cargo bench --bench profile --no-run
//! BIN=$(ls target/release/deps/profile-* | grep -v '\.d$')
//! valgrind --tool=callgrind --callgrind-out-file=cg.base $BIN typed_serde_json 0
//! valgrind --tool=callgrind --callgrind-out-file=cg.out $BIN typed_md_compact 20
//! callgrind_annotate cg.out | head -40
//! ```
//!
//! Each run parses `rows_1000.json` (into a typed `Vec<Row>` and a `Value`) and then renders
//! it `N` times with the chosen contender; `(total - total of the N = 0 run) / N` is the
//! cost of one render. `cargo bench` runs it with no workload.
//!
//! `api_json:NAME` and `api_agent:NAME` read the recorded API response
//! `examples/data/api/NAME.json` (before the renders, so it is in the baseline) and render it
//! with `serde_json::to_string` or the agent preset (`Formatter::for_agents`, tool `get`);
//! `api_compact:NAME` renders it with `Formatter::new().layout(Layout::Compact)`.
//! `fit_typed:ROWS` and `fit_value:ROWS` fit that many rows (typed, or as one `Value`) into
//! 4,000 characters, to see how the fit's cost grows with the input.

mod common;
use common::{Row, rows};
use tool_output_format::{Formatter, Layout};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(what), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse().ok())) else {
        eprintln!(
            "usage: profile <typed_serde_json|typed_md_compact|typed_md_aligned|value_serde_json\
             |value_md_compact|value_md_aligned|budget_fit_100000|budget_kept_rows\
             |stripe_serde_json|stripe_md|repo_serde_json|repo_md|packument_serde_json|packument_md\
             |stripe_agent|repo_agent|packument_agent\
             |value_md_shaped|budget_fit_100000_value|budget_kept_rows_value\
             |api_json:NAME|api_agent:NAME|api_compact:NAME|fit_typed:ROWS|fit_value:ROWS> <iterations>"
        );
        return;
    };
    let rows: Vec<Row> = rows(1_000);
    let value = serde_json::to_value(&rows).expect("serializable");
    let big: Vec<Row> = match what.as_str() {
        "budget_fit_100000"
        | "budget_kept_rows"
        | "budget_fit_100000_value"
        | "budget_kept_rows_value" => (0..100).flat_map(|_| rows.iter().cloned()).collect(),
        // `fit_typed:N`, `fit_value:N`: the same fit on N rows (how its cost grows).
        w => match w.split_once(':') {
            Some(("fit_typed" | "fit_value", n)) => {
                let n: usize = n.parse().expect("a row count");
                rows.iter().cycle().take(n).cloned().collect()
            }
            _ => Vec::new(),
        },
    };
    let aligned = Formatter::new().max_rows(usize::MAX);
    let compact = Formatter::new()
        .max_rows(usize::MAX)
        .layout(Layout::Compact);
    let fit = Formatter::new().max_rows(usize::MAX).max_chars(4000);
    let kept = match what.as_str() {
        "budget_kept_rows" => fit
            .format_with_report("", &big)
            .report
            .rows
            .map_or(0, |r| r.kept),
        _ => 0,
    };
    // Single records as `Value`: a Stripe-like charge (44 keys, nested objects, many nulls)
    // and a GitHub-like repository (87 keys, mostly URLs).
    let stripe: serde_json::Value =
        serde_json::from_str(include_str!("data/stripe_charge.json")).expect("JSON");
    let repo: serde_json::Value =
        serde_json::from_str(include_str!("data/repo.json")).expect("JSON");
    // An npm-like packument: many versions, many nulls.
    let packument: serde_json::Value =
        serde_json::from_str(include_str!("data/packument.json")).expect("JSON");
    let record = Formatter::new();
    let agent = Formatter::for_agents();
    let record_compact = Formatter::new().layout(Layout::Compact);
    // The shaped walk: a generic shape on the same rows as `value_md_compact`.
    let shaped = Formatter::new()
        .max_rows(usize::MAX)
        .layout(Layout::Compact)
        .shape(
            tool_output_format::Shape::new()
                .drop(["*_url", "warehouse"])
                .rename("title", "name"),
        );
    // The budget fit on 100,000 rows as a `Value` (every row scanned for the columns).
    let big_value = match what.as_str() {
        w if w.starts_with("fit_value:") => serde_json::to_value(&big).expect("serializable"),
        "budget_fit_100000_value" | "budget_kept_rows_value" => {
            serde_json::to_value(&big).expect("serializable")
        }
        _ => serde_json::Value::Null,
    };
    let kept_value: serde_json::Value = match what.as_str() {
        "budget_kept_rows_value" => {
            let k = fit
                .format_with_report("", &big_value)
                .report
                .rows
                .map_or(0, |r| r.kept);
            serde_json::Value::Array(big_value.as_array().expect("rows")[..k].to_vec())
        }
        _ => serde_json::Value::Null,
    };
    // A recorded API response (`api_json:NAME`, `api_agent:NAME`).
    let api: serde_json::Value = match what.split_once(':') {
        Some(("api_json" | "api_agent" | "api_compact", name)) => {
            let path = format!(
                "{}/examples/data/api/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).expect("a recorded response");
            serde_json::from_str(&text).expect("JSON")
        }
        _ => serde_json::Value::Null,
    };
    let mut bytes = 0;
    for _ in 0..n {
        bytes += match what.as_str() {
            w if w.starts_with("api_json:") => serde_json::to_string(&api).expect("JSON").len(),
            w if w.starts_with("api_agent:") => agent.format("get", &api).len(),
            w if w.starts_with("api_compact:") => record_compact.format("get", &api).len(),
            w if w.starts_with("fit_typed:") => fit.format("", &big).len(),
            w if w.starts_with("fit_value:") => fit.format("", &big_value).len(),
            "typed_serde_json" => serde_json::to_string(&rows).expect("JSON").len(),
            "typed_md_compact" => compact.format("", &rows).len(),
            "typed_md_aligned" => aligned.format("", &rows).len(),
            "value_serde_json" => serde_json::to_string(&value).expect("JSON").len(),
            "value_md_compact" => compact.format("", &value).len(),
            "value_md_aligned" => aligned.format("", &value).len(),
            "budget_fit_100000" => fit.format("", &big).len(),
            "budget_kept_rows" => aligned.format("", &big[..kept]).len(),
            "stripe_serde_json" => serde_json::to_string(&stripe).expect("JSON").len(),
            "stripe_md" => record.format("get_charge", &stripe).len(),
            "repo_serde_json" => serde_json::to_string(&repo).expect("JSON").len(),
            "repo_md" => record.format("get_repo", &repo).len(),
            "packument_serde_json" => serde_json::to_string(&packument).expect("JSON").len(),
            "packument_md" => record.format("get_package", &packument).len(),
            "stripe_agent" => agent.format("get_charge", &stripe).len(),
            "repo_agent" => agent.format("get_repo", &repo).len(),
            "packument_agent" => agent.format("get_package", &packument).len(),
            "value_md_shaped" => shaped.format("", &value).len(),
            "budget_fit_100000_value" => fit.format("", &big_value).len(),
            "budget_kept_rows_value" => aligned.format("", &kept_value).len(),
            other => panic!("unknown workload {other}"),
        };
    }
    println!("{bytes} bytes written");
}
