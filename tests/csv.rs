//! `Layout::Csv` (SPEC section 12): a CSV table read back with `csv::Reader` gives exactly
//! the header and the kept cells (bundled data and hostile cells); a table nested in a record
//! is a fenced `csv` block that both GFM parsers see as one code block in its item, whose
//! content reads back as the same CSV.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use tof_support::{data, gfm};
use tool_output_format::{Formatter, Layout};

/// The records a CSV text holds: the header first. `text` is the whole output of a
/// top-level table; notice and title lines end at the first blank line.
fn read_back(text: &str) -> Vec<Vec<String>> {
    let csv = match text.split_once("\n\n") {
        Some((head, rest)) if head.starts_with('[') || head.starts_with("**") => rest,
        _ => text,
    };
    read_csv(csv)
}

fn read_csv(csv: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes())
        .records()
        .map(|r| r.expect("valid CSV").iter().map(str::to_owned).collect())
        .collect()
}

/// A cell's exact text under the cell rules (null empty, numbers and booleans as serde_json
/// writes them, lists of scalars joined by `, `, other nested values as compact JSON).
fn cell(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) if !a.is_empty() && a.iter().all(is_scalar) => a
            .iter()
            .map(|x| match x {
                Value::String(s) => s.clone(),
                x => x.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Some(v) => v.to_string(),
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// Header and rows of the first `kept` records, columns in first-seen order over all.
fn expected(rows: &[Value], kept: usize) -> Vec<Vec<String>> {
    let mut cols: Vec<String> = Vec::new();
    for r in rows {
        for k in r.as_object().unwrap().keys() {
            if !cols.contains(k) {
                cols.push(k.clone());
            }
        }
    }
    let mut out = vec![cols.clone()];
    for r in &rows[..kept.min(rows.len())] {
        let m = r.as_object().unwrap();
        out.push(cols.iter().map(|c| cell(m.get(c))).collect());
    }
    out
}

#[test]
fn bundled_tables_read_back_exactly() {
    let mut tables = 0;
    for (name, text) in data::ALL {
        let v = data::parse(text);
        let Some(rows) = v
            .as_array()
            .filter(|a| !a.is_empty() && a.iter().all(Value::is_object))
        else {
            continue;
        };
        tables += 1;
        let fmt = Formatter::new().layout(Layout::Csv).max_rows(40);
        let out = fmt.format("list", &v);
        assert_eq!(read_back(&out), expected(rows, 40), "{name}");
        if rows.len() > 40 {
            let notice = format!("[Truncated to 40 rows of {} total]\n\n", rows.len());
            assert!(out.starts_with(&notice), "{name}: {out:.80}");
        }
    }
    assert!(tables >= 6, "only {tables} bundled tables");
}

#[test]
fn exact_output_for_a_small_table() {
    let v = json!([
        {"id": 1, "name": "Ada", "tags": ["a", "b"], "meta": {"k": "v"}, "score": -1.5},
        {"id": 2, "name": "=HYPERLINK(\"x\")", "tags": [], "meta": null, "score": 1e20},
    ]);
    assert_eq!(
        Formatter::new().layout(Layout::Csv).format("t", &v),
        "id,name,tags,meta,score\n\
         1,Ada,\"a, b\",\"{\"\"k\"\":\"\"v\"\"}\",-1.5\n\
         2,\"=HYPERLINK(\"\"x\"\")\",[],,1e+20"
    );
}

#[test]
fn formula_prefixes_are_kept_as_data() {
    let v = json!([{"a": "=1+1", "b": "+1", "c": "-5", "d": "@SUM(A1)"}, {"a": -5, "b": 0, "c": 0, "d": 0}]);
    let out = Formatter::new().layout(Layout::Csv).format("", &v);
    assert_eq!(out, "a,b,c,d\n=1+1,+1,-5,@SUM(A1)\n-5,0,0,0");
}

#[test]
fn records_and_strings_are_markdown() {
    let fmt = Formatter::new().layout(Layout::Csv);
    assert_eq!(
        fmt.format("get", &json!({"id": 7, "name": "Ada"})),
        fmt.layout(Layout::Aligned)
            .format("get", &json!({"id": 7, "name": "Ada"}))
    );
    let fmt = Formatter::new().layout(Layout::Csv);
    assert_eq!(fmt.format("t", "a\nb"), "```\na\nb\n```");
}

#[test]
fn a_nested_table_is_a_fenced_csv_block() {
    let v = json!({"id": 7, "orders": [{"sku": "a,1", "qty": 2}, {"sku": "b\"2", "qty": 1}]});
    let out = Formatter::new().layout(Layout::Csv).format("get_user", &v);
    assert_eq!(
        out,
        "**get_user result**\n\n- id: 7\n- orders:\n\n  ```csv\n  sku,qty\n  \"a,1\",2\n  \"b\"\"2\",1\n  ```"
    );
    // The row cap on a nested table says so in place, before the block.
    let out = Formatter::new()
        .layout(Layout::Csv)
        .max_rows(1)
        .format("", &v);
    assert_eq!(
        out,
        "- id: 7\n- orders:\n\n  [Truncated to 1 rows of 2 total]\n\n  ```csv\n  sku,qty\n  \"a,1\",2\n  ```"
    );
}

/// A short string built from pieces CSV, markdown or a spreadsheet could trip over.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just(","),
        Just("\""),
        Just("\"\""),
        Just("\n"),
        Just("\r\n"),
        Just("\r"),
        Just("\n\n"),
        Just(" "),
        Just("\t"),
        Just("="),
        Just("+"),
        Just("-"),
        Just("@"),
        Just("`"),
        Just("```"),
        Just("~~~"),
        Just("|"),
        Just("# "),
        Just("- "),
        Just("\u{1b}[31m"),
        Just("\u{202e}"),
        Just("李雷"),
        Just("a"),
        Just("1"),
    ];
    prop_oneof![
        4 => prop::collection::vec(piece, 0..6).prop_map(|v| v.concat()),
        1 => any::<String>(),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => hostile().prop_map(Value::String),
        1 => Just(Value::Null),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::from),
        1 => prop::collection::vec(hostile(), 0..3)
            .prop_map(|v| Value::Array(v.into_iter().map(Value::String).collect())),
        1 => (hostile(), hostile()).prop_map(|(k, v)| json!({ k: v })),
    ]
}

/// Records with hostile keys (some shared, some not) and values.
fn records() -> impl Strategy<Value = Vec<Value>> {
    let key = prop_oneof![3 => Just("id".to_string()), 3 => Just("x".to_string()), 2 => hostile()];
    prop::collection::vec(
        prop::collection::vec((key, value()), 1..5)
            .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        1..6,
    )
}

/// What a markdown parser hands back of a nested block's text: `\r\n` and `\r` as `\n`
/// (markdown's one line ending), NUL as U+FFFD (CommonMark replaces it).
fn lf(s: &str) -> String {
    s.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0xc5f),
        ..ProptestConfig::default()
    })]

    /// Top level: exactly the header and the kept cells, whatever they hold.
    #[test]
    fn hostile_cells_read_back_exactly(rows in records(), cap in 1usize..8) {
        let out = Formatter::new().layout(Layout::Csv).max_rows(cap).format("t", &Value::Array(rows.clone()));
        let want = expected(&rows, cap);
        // Records with no keys between them are not a table (a list): skip those.
        prop_assume!(!want[0].is_empty());
        prop_assert_eq!(read_back(&out), want);
    }

    /// Nested: one fenced block in the item for both parsers, no table, heading, quote or
    /// HTML forged, and the block's content reads back as the table (line breaks as `\n`).
    #[test]
    fn a_nested_block_keeps_its_structure(rows in records(), cap in 1usize..8) {
        let v = json!({"id": 1, "rows": rows.clone(), "after": "end"});
        let out = Formatter::new().layout(Layout::Csv).max_rows(cap).format("t", &v);
        let want: Vec<Vec<String>> = expected(&rows, cap)
            .into_iter()
            .map(|r| r.iter().map(|c| lf(c)).collect())
            .collect();
        prop_assume!(!want[0].is_empty());
        for seen in [gfm::pulldown(&out), gfm::comrak(&out)] {
            prop_assert_eq!(seen.code_blocks.len(), 1, "{}", out);
            prop_assert_eq!(&seen.shape.code_blocks, &vec![1]);
            prop_assert_eq!(seen.shape.items.clone(), vec![1, 1, 1]);
            prop_assert!(seen.tables.is_empty());
            prop_assert_eq!(seen.headings_and_quotes, 0);
            prop_assert_eq!(seen.html, 0);
            prop_assert_eq!(read_csv(&lf(&seen.code_blocks[0])), want.clone());
        }
    }
}
