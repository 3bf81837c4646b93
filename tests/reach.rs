//! Following the Next lines reaches every value (SPEC 19, 22: "the rest"): every recorded
//! response of the answerability corpus (the eleven of `examples/data/api` and the others in
//! `benches/answerability/data`), cut by a budget and stored, is walked from its first text
//! through the fetch tool by reading only the text the model reads; every string and number
//! of the response occurs in the text of the walk (the first text or a page).
//!
//! `cargo test --test reach -- --nocapture` prints the count per way and budget.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tof_support::answerability::{self, unescape};
use tof_support::pages::next_call;
use tool_output_format::store::Fetch;
use tool_output_format::{Formatter, store::MemoryStore};

/// The most pages one walk may take before it counts as not ending.
const MAX_PAGES: usize = 400;

/// The leaf values an agent may look for: strings (their lines, for a text of several) and
/// numbers as serde_json writes them.
fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.extend(
            s.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned),
        ),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|x| leaves(x, out)),
        Value::Object(m) => m.values().for_each(|x| leaves(x, out)),
        Value::Null | Value::Bool(_) => {}
    }
}

/// The first text and every page a walk of its Next lines serves, joined, and how many of
/// its texts are over `budget` characters.
fn walk(
    fmt: &Formatter,
    fetch: &Fetch,
    tool: &str,
    v: &Value,
    budget: usize,
) -> Result<(String, usize), String> {
    let first = fmt.format(tool, v);
    let over = |t: &str| {
        let o = t.chars().count() > budget;
        if o && std::env::var_os("REACH_SHOW_OVER").is_some() {
            eprintln!("---- over {budget}:\n{t:.300}");
        }
        usize::from(o)
    };
    let mut overs = over(&first);
    let mut all = first.clone();
    let Some((reference, mut cursor)) = next_call(&first) else {
        return Ok((all, overs));
    };
    for _ in 0..MAX_PAGES {
        let page = fetch.call(&reference, cursor.as_deref(), None);
        if page.matches("Next:").count() > 1 {
            return Err(format!("two Next lines:\n{page}"));
        }
        overs += over(&page);
        all.push('\n');
        all.push_str(&page);
        match next_call(&page) {
            Some((_, c @ Some(_))) => cursor = c,
            _ => return Ok((all, overs)),
        }
    }
    Err(format!(
        "the walk of {tool} does not end in {MAX_PAGES} pages"
    ))
}

/// What a way's walks over the corpus reached.
struct Reach {
    reached: usize,
    total: usize,
    /// The first values missed, by response.
    missed: Vec<String>,
    /// Texts (first texts and pages) over the budget.
    over: usize,
}

/// The walks of every response of the corpus for one way.
fn reach(preset: bool, budget: usize) -> Reach {
    let corpus = answerability::load().expect("the corpus loads");
    let (mut reached, mut total, mut missed, mut over) = (0, 0, Vec::new(), 0);
    for r in &corpus.responses {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let base = if preset {
            Formatter::for_agents()
        } else {
            Formatter::new()
        };
        let fmt = base
            .max_chars(budget)
            .store(store.clone(), "get_stored_result");
        let fetch = Fetch::new(store, "get_stored_result").formatter(&fmt);
        let (text, overs) =
            walk(&fmt, &fetch, "get", &r.value, budget).unwrap_or_else(|e| panic!("{e}"));
        over += overs;
        let plain = unescape(&text);
        let mut values = Vec::new();
        leaves(&r.value, &mut values);
        for value in values {
            total += 1;
            if text.contains(&value) || plain.contains(&value) {
                reached += 1;
            } else if missed.len() < 20 {
                missed.push(format!("{}: {value:.80}", r.name));
            }
        }
    }
    Reach {
        reached,
        total,
        missed,
        over,
    }
}

/// From any first text, the agent preset's and `Formatter::new()`'s, at small and middle
/// budgets, following the Next lines reaches every string and number of every response, and
/// no text of the walk is over the budget (a record or a row wider than the budget is served
/// in runs of its fields, a list in it item by item).
#[test]
fn following_the_next_lines_reaches_every_value() {
    let mut failures = Vec::new();
    for preset in [true, false] {
        for budget in [500, 1_000, 2_000] {
            let r = reach(preset, budget);
            let way = if preset { "agent preset" } else { "new()" };
            println!(
                "{way} at {budget}: {} of {} values reached; {} texts over the budget",
                r.reached, r.total, r.over
            );
            if r.over > 0 {
                failures.push(format!(
                    "{way} at {budget}: {} texts over the budget",
                    r.over
                ));
            }
            if r.reached < r.total {
                failures.push(format!(
                    "{way} at {budget}: {}/{}: {:#?}",
                    r.reached, r.total, r.missed
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
