//! The composition matrix (SPEC section 15): every result wrapper x every option set (layout
//! x shape x budget x summary x store x focus, and the agent preset) x the entry points (text,
//! structured JSON, `format_async`, and with a store the fetch pages followed to the last row),
//! checking the promises each feature makes alone (see `tof_support::compose`). A failure
//! names the wrapper, the option set and the promise; the test reports every kind at once.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;
use tof_support::compose::{self, WRAPPERS};

const ROWS: usize = 60;

#[test]
fn every_wrapper_every_option_every_entry_point() {
    let rows: Vec<Value> = (0..ROWS).map(compose::ticket_value).collect();
    let mut fails = Vec::new();
    let mut runs = 0usize;
    for w in WRAPPERS {
        for o in compose::option_sets() {
            // The fetch pages are walked where the options change them (focus and summaries
            // do not: `compose_props` walks those on random data), to keep the matrix quick.
            let a = if o.focus || o.summary {
                compose::render_unwalked(w, &o, &rows)
            } else {
                compose::render(w, &o, &rows)
            };
            fails.extend(compose::check(w, &o, ROWS, true, &a));
            // The same input gives the same bytes (store references aside).
            let b = compose::render_unwalked(w, &o, &rows);
            if compose::strip_refs(&a.text.text) != compose::strip_refs(&b.text.text)
                || a.json != b.json
            {
                fails.push(("two runs differ".into(), format!("{w:?} {o:?}")));
            }
            runs += 1;
        }
    }
    assert_eq!(runs, WRAPPERS.len() * (144 + 24));
    let mut kinds: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for (kind, detail) in &fails {
        kinds.entry(kind).or_insert((0, detail)).0 += 1;
    }
    let mut report = String::new();
    for (kind, (n, first)) in &kinds {
        writeln!(report, "{n} x {kind}; first:\n{first}\n").unwrap();
    }
    assert!(
        fails.is_empty(),
        "{} broken promises over {runs} runs:\n{report}",
        fails.len()
    );
}

/// More than 100 rows (the default row cap) under a budget and no row cap of the user's:
/// the budget is the bound, on every wrapper and entry point, with the preset
/// and without, every promise kept and the fetch pages followed to the last row. A budget
/// that holds every row shows every row; a smaller one cuts by the budget, not at 100.
#[test]
fn a_budget_over_more_than_100_rows_is_the_bound() {
    const MANY: usize = 130;
    let rows: Vec<Value> = (0..MANY).map(compose::ticket_value).collect();
    let mut fails = Vec::new();
    let mut whole = 0;
    for w in WRAPPERS {
        for agent in [false, true] {
            for budget in [5_000, 200_000] {
                let o = compose::Options {
                    layout: tool_output_format::Layout::Compact,
                    shape: false,
                    budget: Some(budget),
                    summary: false,
                    store: true,
                    focus: false,
                    max_rows: None,
                    agent,
                };
                let a = compose::render(w, &o, &rows);
                fails.extend(compose::check(w, &o, MANY, true, &a));
                let kept = a.text.report.rows.as_ref().map(|k| (k.kept, k.total));
                whole += usize::from(kept == Some((MANY, MANY)));
                if budget == 200_000 && kept.is_some_and(|(k, t)| k != t) {
                    fails.push((
                        "a budget that holds every row cut some".into(),
                        format!("{w:?} {o:?}: {kept:?}"),
                    ));
                }
                if kept == Some((100, MANY)) {
                    fails.push((
                        "cut at the default cap of 100 rows".into(),
                        format!("{w:?} {o:?}"),
                    ));
                }
            }
        }
    }
    assert!(fails.is_empty(), "{fails:#?}");
    // The table wrappers showed all 130 rows under the large budget.
    assert!(whole >= 4, "{whole} runs showed every row");
}

/// The harness can fail: a formatter without redaction leaks, and the check says so.
#[test]
fn the_checks_catch_a_leak() {
    let rows: Vec<Value> = (0..3).map(compose::ticket_value).collect();
    let o = compose::option_sets()[0];
    let mut out = compose::render(compose::Wrapper::ValueList, &o, &rows);
    out.text.text.push_str("pw-SECRET-1");
    let fails = compose::check(compose::Wrapper::ValueList, &o, 3, true, &out);
    assert_eq!(fails.len(), 1);
    assert_eq!(fails[0].0, "secret in the text");
}

/// The async entry point is checked against the sync one: a different text is caught.
#[test]
fn the_checks_catch_an_async_text_that_differs() {
    let rows: Vec<Value> = (0..30).map(compose::ticket_value).collect();
    let o = compose::option_sets()
        .into_iter()
        .find(|o| o.store && !o.focus && o.budget.is_none())
        .expect("an option set with a store");
    let mut out = compose::render(compose::Wrapper::ValueList, &o, &rows);
    assert!(compose::check(compose::Wrapper::ValueList, &o, 30, true, &out).is_empty());
    out.format_async
        .as_mut()
        .expect("format_async ran")
        .text
        .push_str("\nextra");
    let fails = compose::check(compose::Wrapper::ValueList, &o, 30, true, &out);
    assert_eq!(fails.len(), 1);
    assert_eq!(fails[0].0, "format_async differs from format");
}

/// The error title is the first line the renderer writes, not a substring anywhere: a `Page`
/// of `Value` rows whose cell is `" failed**"` in the CSV layout (the fuzz target's false
/// alarm after 11,384 executions) breaks no promise, and an error still needs its title.
#[test]
fn a_cell_that_ends_in_failed_is_no_error_title() {
    use serde_json::{Map, json};
    let row = compose::row_with(0, &Map::from_iter([("x".to_owned(), json!(" failed**"))]));
    let o = compose::option_sets()
        .into_iter()
        .find(|o| o.layout == tool_output_format::Layout::Csv && !o.agent)
        .expect("a CSV option set");
    let out = compose::render(compose::Wrapper::ValuePage, &o, &[row]);
    assert!(out.text.text.contains(" failed**"), "{}", out.text.text);
    assert_eq!(
        compose::check(compose::Wrapper::ValuePage, &o, 1, false, &out),
        vec![]
    );

    assert_eq!(
        compose::error_title("**get_ticket failed**\n\n- kind: not_found"),
        Some("get_ticket")
    );
    assert_eq!(compose::error_title("**failed**"), Some(""));
    assert_eq!(compose::error_title("id,x\nT-0000, failed**"), None);
    assert_eq!(compose::error_title("- x: **get_ticket failed**"), None);
    assert_eq!(compose::error_title("** failed**"), None);
    assert_eq!(compose::error_title("**a b failed**"), None);
}
