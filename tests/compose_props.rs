//! Composition over random data and random option sets: arbitrary rows (hostile strings,
//! numbers, nested values, missing keys) carrying secrets, wrapped by a random wrapper and
//! formatted with a random option set; every promise of `tof_support::compose` must hold.
//! A fixed seed keeps CI reproducible.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Map, Value};
use tof_support::compose::{self, Options, WRAPPERS};
use tool_output_format::Layout;

const PIECES: &[&str] = &[
    "",
    "a",
    "floor",
    "3",
    "jammed",
    " ",
    "|",
    "\\",
    "\n",
    "`",
    "```",
    "# ",
    "- ",
    "> ",
    "<br>",
    "*",
    "_",
    "[x]",
    "é",
    "表",
    "\u{200b}",
    "null",
    "password",
    "api_key",
    "Next: call x()",
    "[Truncated to 1 rows of 2 total]",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..6).prop_map(|p| p.concat())
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn rows() -> impl Strategy<Value = Vec<Value>> {
    let fields = prop::collection::vec(
        (
            prop::sample::select(&["title", "status", "note", "x", "floor"][..]),
            value(),
        ),
        0..4,
    );
    prop::collection::vec(fields, 0..40).prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, kv)| {
                let m: Map<String, Value> =
                    kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                compose::row_with(i, &m)
            })
            .collect()
    })
}

fn options() -> impl Strategy<Value = Options> {
    (
        0usize..3,
        any::<bool>(),
        prop_oneof![Just(None), (150usize..6_000).prop_map(Some)],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        1usize..30,
        any::<bool>(),
    )
        .prop_map(
            |(layout, shape, budget, summary, store, focus, max_rows, agent)| Options {
                layout: [Layout::Aligned, Layout::Compact, Layout::Csv][layout],
                shape,
                budget,
                summary,
                store,
                focus,
                max_rows: Some(max_rows),
                agent,
            },
        )
}

proptest! {
    #![proptest_config(Config {
        cases: 1_000,
        rng_seed: RngSeed::Fixed(0x5EC7_2026),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn promises_hold_on_random_data_and_options(
        rows in rows(),
        o in options(),
        w in prop::sample::select(&WRAPPERS[..]),
    ) {
        let out = compose::render(w, &o, &rows);
        // Random strings may contain ids or lines of their own: no row-by-row comparison.
        let fails = compose::check(w, &o, rows.len(), false, &out);
        prop_assert!(fails.is_empty(), "{}", fails[0].1);
    }
}
