//! Properties over generated JSON values × generated option sets, checked by
//! `tof_support::check` (see its module docs): no panic; tables re-parse in pulldown-cmark and
//! comrak with header width == data columns and rows == kept rows, kept rows a prefix of the
//! data, every cell unescaping to its value; strings are one code block holding the kept
//! lines; records and lists nest exactly as the data; every cut announced with exact counts.
//!
//! 12,000 cases in all, with a fixed seed so CI is reproducible.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Map, Number, Value};
use tof_support::check::{self, Opts};
use tool_output_format::Layout;

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    }
}

/// Pieces hostile strings are made of.
const PIECES: &[&str] = &[
    "",
    "a",
    "b",
    "null",
    " ",
    "  ",
    "\t",
    "|",
    "\\",
    "\\|",
    "x\\|y",
    "\n",
    "\r",
    "\r\n",
    "`",
    "```",
    "````",
    "~~~",
    "# ",
    "## h",
    "- ",
    "* ",
    "+ ",
    "> ",
    "1. ",
    "2) ",
    "---",
    "===",
    "* * *",
    "    ",
    "[x] ",
    "[a]: /u",
    "[^1]: ",
    "<br>",
    "<script>",
    "<",
    "&#124;",
    "\u{0}",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "\u{202e}",
    "\u{2066}",
    "\u{200b}",
    "\u{200d}",
    "\u{feff}",
    "\u{a0}",
    "\u{3000}",
    "é",
    "e\u{301}",
    "李雷",
    "👍🏽",
    "👨\u{200d}👩",
    "\\u{41}",
    ":",
    ", ",
];

fn hostile_string(max_pieces: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(PIECES).prop_map(str::to_string),
            1 => any::<char>().prop_map(String::from),
        ],
        0..max_pieces,
    )
    .prop_map(|p| p.concat())
}

/// Keys: mostly from a small set (so rows share and interleave columns), sometimes hostile.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&["id", "name", "a", "b", "", "|", "a b"][..]).prop_map(str::to_string),
        1 => hostile_string(3),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(
            &[
                "0",
                "-0",
                "1.0",
                "1e20",
                "0.30000000000000004",
                "18446744073709551615",
                "-9223372036854775808",
                "1.7976931348623157e308",
                "5e-324",
                "-1.5",
            ][..]
        )
        .prop_map(|t| serde_json::from_str::<Value>(t).unwrap()),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
    ]
}

fn leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        2 => number(),
        5 => hostile_string(6).prop_map(Value::String),
    ]
    .boxed()
}

fn object(inner: impl Strategy<Value = Value>, n: usize) -> impl Strategy<Value = Value> {
    prop::collection::vec((key(), inner), 0..n)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>()))
}

/// Any JSON value, nested up to 6 levels; lists of records (with overlapping keys) are
/// generated on purpose, since they are what becomes a table.
fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            object(inner.clone(), 6),
            prop::collection::vec(object(inner, 4), 1..7).prop_map(Value::Array),
        ]
    })
}

fn cap() -> impl Strategy<Value = Option<usize>> {
    prop_oneof![
        2 => Just(None),
        3 => (0usize..6).prop_map(Some),
    ]
}

fn options() -> impl Strategy<Value = Opts> {
    (
        cap(),
        cap(),
        any::<bool>(),
        prop::sample::select(&["", "t", "get_message"][..]),
    )
        .prop_map(|(max_lines, max_rows, compact, tool)| Opts {
            max_lines,
            max_rows,
            layout: if compact {
                Layout::Compact
            } else {
                Layout::Aligned
            },
            tool: tool.to_string(),
        })
}

proptest! {
    #![proptest_config(config(6_000, 70_010))]

    /// Any value, any options.
    #[test]
    fn any_value_any_options(v in value(), o in options()) {
        let r = check::render_and_check(&v, &o);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(config(2_000, 70_011))]

    /// Lists of records: tables, row caps, column unions, hostile cells and headers.
    #[test]
    fn tables(rows in prop::collection::vec(object(leaf(), 5), 0..12), o in options()) {
        let v = Value::Array(rows);
        let r = check::render_and_check(&v, &o);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(config(2_000, 70_012))]

    /// Strings with many lines and line caps: one code block, the kept lines, the notice.
    #[test]
    fn strings(s in hostile_string(24), o in options()) {
        let r = check::render_and_check(&Value::String(s), &o);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// Replace the value at `path` (indices into objects, taken modulo their sizes) with `new`;
/// the path ends early at a value that is not a non-empty object.
fn replace_at(v: &mut Value, path: &[prop::sample::Index], new: &Value) {
    match (v, path.split_first()) {
        (Value::Object(m), Some((i, rest))) if !m.is_empty() => {
            let k = i.index(m.len());
            if let Some(child) = m.values_mut().nth(k) {
                replace_at(child, rest, new);
            }
        }
        (v, _) => *v = new.clone(),
    }
}

/// A record whose fields are a nested record and copies of it with a few values replaced at
/// any depth: what the compact layout writes as `(same as KEY, except:)` with nested
/// `(same as in KEY, except:)` lists, or as `(same as KEY)` when nothing changed. One
/// sibling key holds a comma (never named).
fn near_repeats() -> impl Strategy<Value = Value> {
    let nested = prop_oneof![
        2 => leaf(),
        2 => object(leaf(), 5),
        1 => object(object(leaf(), 4), 4),
    ];
    let edits = prop::collection::vec(
        (
            prop::collection::vec(any::<prop::sample::Index>(), 1..4),
            leaf(),
        ),
        0..4,
    );
    (object(nested, 7), prop::collection::vec(edits, 1..5)).prop_map(|(base, copies)| {
        let mut m = Map::new();
        m.insert("v0".into(), base.clone());
        let names = ["v1", "v2", "a,b", "v3", "v4"];
        for (name, edits) in names.iter().zip(copies) {
            let mut copy = base.clone();
            for (path, new) in &edits {
                replace_at(&mut copy, path, new);
            }
            m.insert((*name).to_string(), copy);
        }
        Value::Object(m)
    })
}

proptest! {
    #![proptest_config(config(2_000, 70_013))]

    /// Near repeats of a nested record, under every layout and cap: the lean forms keep the
    /// list structure the oracle expects (only the differing fields below each reference).
    #[test]
    fn near_repeats_of_a_record(v in near_repeats(), o in options()) {
        let r = check::render_and_check(&v, &o);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
