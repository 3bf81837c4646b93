use super::*;
use serde_json::{Value, json};

/// Summarises a whole table: `rows` yields, per row, its cells in column order (a row with
/// fewer cells has empty cells at the end; extra cells are ignored).
fn summarize<'a, R, C>(columns: &[&str], rows: R, options: &SummaryOptions) -> Summary
where
    R: IntoIterator<Item = C>,
    C: IntoIterator<Item = (Kind, &'a str)>,
{
    let mut s = Summarizer::new(columns, options);
    for row in rows {
        s.row(row);
    }
    s.finish()
}

/// Columns (first-seen order) and cells of a JSON array of objects, as the table renderer
/// would see them: null/missing empty, numbers as serde_json writes them, nested values as
/// compact JSON.
fn table(v: &Value) -> (Vec<String>, Vec<Vec<(Kind, String)>>) {
    let rows = v.as_array().unwrap();
    let mut cols: Vec<String> = Vec::new();
    for r in rows {
        for k in r.as_object().unwrap().keys() {
            if !cols.contains(k) {
                cols.push(k.clone());
            }
        }
    }
    let cells = rows
        .iter()
        .map(|r| {
            cols.iter()
                .map(|c| match r.get(c) {
                    None | Some(Value::Null) => (Kind::Null, String::new()),
                    Some(Value::Bool(b)) => (Kind::Bool, b.to_string()),
                    Some(Value::Number(n)) => (Kind::Number, n.to_string()),
                    Some(Value::String(s)) => (Kind::Text, s.clone()),
                    Some(other) => (Kind::Json, other.to_string()),
                })
                .collect()
        })
        .collect();
    (cols, cells)
}

fn summary_of(v: &Value, options: &SummaryOptions) -> Summary {
    let (cols, cells) = table(v);
    let names: Vec<&str> = cols.iter().map(String::as_str).collect();
    summarize(
        &names,
        cells
            .iter()
            .map(|row| row.iter().map(|(k, t)| (*k, t.as_str()))),
        options,
    )
}

fn md(v: &Value, sum: &[&str]) -> String {
    let options = SummaryOptions {
        sum: sum.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    summary_of(v, &options).to_markdown()
}

fn data(name: &str) -> Value {
    let text = match name {
        "orders_v2" => include_str!("../../../tests/data/orders_v2.json"),
        "orders_v3" => include_str!("../../../tests/data/orders_v3.json"),
        "employees_100" => include_str!("../../../tests/data/employees_100.json"),
        "rows_1000" => include_str!("../../../tests/data/rows_1000.json"),
        _ => unreachable!(),
    };
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_module_doc_example() {
    let rows: Vec<Value> = (1..=1000)
        .map(|i| {
            let status = match i % 20 {
                0..=7 => "shipped",
                8..=14 => "pending",
                _ => "cancelled",
            };
            let day = jiff::civil::date(2023, 1, 1)
                .checked_add(jiff::Span::new().days((i - 1) * 364 / 999))
                .unwrap();
            json!({"id": i, "created_at": format!("{day}T00:00:00Z"), "status": status})
        })
        .collect();
    assert_eq!(
        md(&Value::Array(rows), &[]),
        "[Summary of all 1000 rows]\n\
         - id: 1 to 1000\n\
         - created_at: 2023-01-01T00:00:00Z to 2023-12-31T00:00:00Z\n\
         - status: shipped 400, pending 350, cancelled 250"
    );
}

#[test]
fn orders_v2() {
    assert_eq!(
        md(&data("orders_v2"), &["totalAmount"]),
        "[Summary of all 50 rows]\n\
         - status: delivered 12, pending 12, processing 12, shipped 8, cancelled 6\n\
         - createdAt: 2024-01-01T00:00:00Z to 2024-01-28T00:00:00Z\n\
         - totalAmount: 32.46 to 2474.67, sum 68486.57"
    );
}

#[test]
fn orders_v3_text_amounts_and_space_separated_timestamps() {
    // `amount` is text ("1585.71"): not numbers, and 50 distinct values: no figure.
    assert_eq!(
        md(&data("orders_v3"), &["amount"]),
        "[Summary of all 50 rows]\n\
         - order_status: fulfilled 14, voided 13, pending 12, in_transit 11\n\
         - creation_date: 2024-02-01 00:00:00+00:00 to 2024-02-28 00:00:00+00:00"
    );
}

#[test]
fn employees_100() {
    assert_eq!(
        md(&data("employees_100"), &["salary"]),
        "[Summary of all 100 rows]\n\
         - id: 1000 to 1099\n\
         - team: security 20, data 18, growth 15, platform 13, support 12, infra 11, product 11\n\
         - role: manager 17, engineer 16, analyst 15, PM 14, SRE 14, designer 13, researcher 11\n\
         - city: Tokyo 15, Oslo 13, Pune 12, Austin 11, Seoul 11, Toronto 11, Lagos 10, Berlin 7, Nairobi 7, São Paulo 3\n\
         - salary: 44000 to 249500, sum 14639000\n\
         - active: true 77, false 23"
    );
}

#[test]
fn rows_1000() {
    assert_eq!(
        md(&data("rows_1000"), &["price", "qty", "rating", "sku"]),
        "[Summary of all 1000 rows]\n\
         - id: 0 to 999\n\
         - price: 4.5 to 998.08, sum 495352.21\n\
         - qty: 0 to 499, sum 242446\n\
         - in_stock: true 710, false 290\n\
         - warehouse: Toronto 131, Nairobi 124, Austin 101, Berlin 100, Lagos 100, Oslo 98, Seoul 90, São Paulo 88, Pune 87, Tokyo 81\n\
         - updated: 2026-01-01 to 2026-11-28\n\
         - rating: 1.0 to 5.0, sum 3002.8"
    );
}

#[test]
fn empty_cells_are_counted_apart() {
    let v = json!([
        {"a": 1, "b": null, "c": "x", "d": null},
        {"a": null, "b": null, "c": "x"},
        {"a": 3, "c": "y", "d": null},
        {"a": 2, "c": "x", "d": null},
        {"c": null},
    ]);
    assert_eq!(
        md(&v, &["a"]),
        "[Summary of all 5 rows]\n\
         - a: 1 to 3, sum 6, 2 empty\n\
         - b: 5 empty\n\
         - c: x 3, y 1, 1 empty\n\
         - d: 5 empty"
    );
}

#[test]
fn no_rows_and_one_row() {
    assert_eq!(
        summarize(&["a"], Vec::<Vec<(Kind, &str)>>::new(), &Default::default()).to_markdown(),
        "[Summary of all 0 rows]"
    );
    assert_eq!(
        md(&json!([{"a": 7}]), &[]),
        "[Summary of all 1 row]\n- a: 7 to 7"
    );
}

#[test]
fn short_rows_have_empty_cells_and_long_rows_are_cut() {
    let s = summarize(
        &["a", "b"],
        [
            vec![(Kind::Number, "1")],
            vec![(Kind::Number, "2"), (Kind::Number, "5"), (Kind::Text, "x")],
        ],
        &Default::default(),
    );
    assert_eq!(
        s.to_markdown(),
        "[Summary of all 2 rows]\n- a: 1 to 2\n- b: 5 to 5, 1 empty"
    );
}

#[test]
fn integers_beyond_f64_compare_exactly() {
    // As f64 all three are 9007199254740992; exactly, 9007199254740993 is the largest.
    let v = json!([
        {"n": 9007199254740992u64},
        {"n": 9007199254740993u64},
        {"n": 9007199254740992.0},
        {"n": -9223372036854775808i64},
        {"n": 18446744073709551615u64},
    ]);
    assert_eq!(
        md(&v, &["n"]),
        "[Summary of all 5 rows]\n\
         - n: -9223372036854775808 to 18446744073709551615, sum 9250393634618998784.0"
    );
    let v = json!([{"n": 9007199254740993u64}, {"n": 9007199254740992.0}]);
    assert_eq!(
        md(&v, &[]),
        "[Summary of all 2 rows]\n- n: 9007199254740992.0 to 9007199254740993"
    );
}

#[test]
fn int_float_comparison_is_exact() {
    use Ordering::*;
    let cases: &[(i128, f64, Ordering)] = &[
        (1, 1.5, Less),
        (2, 1.5, Greater),
        (1, 1.0, Equal),
        (-1, -1.5, Greater),
        (-2, -1.5, Less),
        (9007199254740993, 9007199254740992.0, Greater),
        (i128::MAX, 1.7014118346046923e38, Less),
        (i128::MIN, -1.7014118346046923e38, Equal),
        (i128::MIN, -1e39, Greater),
        (0, -0.0, Equal),
        (0, 1e-300, Less),
    ];
    for &(a, f, want) in cases {
        assert_eq!(cmp_int_float(a, f), want, "{a} vs {f}");
    }
}

#[test]
fn decimal_sums_are_exact() {
    let sum = |xs: &[&str]| {
        let mut s = DecimalSum::default();
        for x in xs {
            s.add(x);
        }
        s.finish()
    };
    assert_eq!(sum(&["0.1", "0.2"]).as_deref(), Some("0.3"));
    assert_eq!(sum(&["1.5", "1.5"]).as_deref(), Some("3.0"));
    assert_eq!(sum(&["1", "2"]).as_deref(), Some("3"));
    assert_eq!(sum(&["-0.25", "0.05"]).as_deref(), Some("-0.2"));
    assert_eq!(sum(&["1e3", "2.5E-2"]).as_deref(), Some("1000.025"));
    assert_eq!(sum(&["0.001", "0.002"]).as_deref(), Some("0.003"));
    assert_eq!(sum(&["-0.0"]).as_deref(), Some("0.0"));
    assert_eq!(sum(&["1e300"]), None); // more than 38 digits: left out
    assert_eq!(sum(&["1e-50"]), None); // scale over 40: left out
    assert_eq!(sum(&["nope"]), None);
    assert_eq!(
        sum(&["170141183460469231731687303715884105727", "1"]),
        None // overflow
    );
    assert_eq!(sum(&[]), None);
}

#[test]
fn mixed_columns_get_counts_or_nothing() {
    let v = json!([
        {"m": 1, "t": "2024-01-01", "j": [1, 2]},
        {"m": "one", "t": "2024-01-02T00:00:00Z", "j": [1, 2]},
        {"m": 1, "t": "2024-01-01", "j": [1, 2]},
        {"m": 1, "t": "2024-01-01", "j": {"a": 1}},
    ]);
    assert_eq!(
        md(&v, &["m"]),
        "[Summary of all 4 rows]\n\
         - m: 1 3, one 1\n\
         - t: 2024-01-01 3, 2024-01-02T00:00:00Z 1\n\
         - j: [1,2] 3, {\"a\":1} 1"
    );
}

#[test]
fn timestamps_compare_as_instants_across_offsets() {
    let v = json!([
        {"t": "2024-01-01T10:00:00+02:00"}, // 08:00Z
        {"t": "2024-01-01T09:00:00Z"},
        {"t": "2024-01-01T07:30:00.5-01:00"}, // 08:30:00.5Z
        {"t": "2024-01-01T08:00:00.000001Z"},
    ]);
    assert_eq!(
        md(&v, &[]),
        "[Summary of all 4 rows]\n- t: 2024-01-01T10:00:00+02:00 to 2024-01-01T09:00:00Z"
    );
}

#[test]
fn the_cardinality_rule() {
    // 11 distinct values: over the cap of 10.
    let v = Value::Array(
        (0..22)
            .map(|i| json!({"c": format!("v{}", i % 11)}))
            .collect(),
    );
    assert_eq!(md(&v, &[]), "[Summary of all 22 rows]");
    // 3 distinct in 5 cells: 2 * 3 > 5, not categorical.
    let v = json!([{"c": "a"}, {"c": "b"}, {"c": "c"}, {"c": "a"}, {"c": "a"}]);
    assert_eq!(md(&v, &[]), "[Summary of all 5 rows]");
    // 2 distinct in 4 cells: counts.
    let v = json!([{"c": "a"}, {"c": "b"}, {"c": "b"}, {"c": ""}]);
    assert_eq!(md(&v, &[]), "[Summary of all 4 rows]");
    let v = json!([{"c": "b"}, {"c": ""}, {"c": "b"}, {"c": ""}]);
    assert_eq!(md(&v, &[]), "[Summary of all 4 rows]\n- c: \"\" 2, b 2");
    // A value over 64 bytes: not categorical.
    let long = "x".repeat(65);
    let v = json!([{"c": long}, {"c": long}, {"c": long}]);
    assert_eq!(md(&v, &[]), "[Summary of all 3 rows]");
    // The cap is an option.
    let v = json!([{"c": "a"}, {"c": "b"}, {"c": "a"}, {"c": "b"}]);
    let o = SummaryOptions {
        max_distinct: 1,
        ..Default::default()
    };
    assert_eq!(summary_of(&v, &o).to_markdown(), "[Summary of all 4 rows]");
}

#[test]
fn names_and_values_cannot_forge_structure() {
    let v = json!([
        {"# head\n- x": "a|b\n<br>", "n": 1},
        {"# head\n- x": "a|b\n<br>", "n": 2},
    ]);
    assert_eq!(
        md(&v, &[]),
        "[Summary of all 2 rows]\n\
         - \\# head<br>- x: a\\|b<br>\\<br> 2\n\
         - n: 1 to 2"
    );
}

#[test]
fn not_temporal_look_alikes() {
    let v = json!([
        {"d": "2024-13-01", "t": "2024-01-01T00:00:00"}, // no month 13; no offset
        {"d": "2024-13-01", "t": "2024-01-01T00:00:00"},
    ]);
    assert_eq!(
        md(&v, &[]),
        "[Summary of all 2 rows]\n- d: 2024-13-01 2\n- t: 2024-01-01T00:00:00 2"
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// A generated column: integers (full i64 range), cents as decimals, a few words, or dates;
    /// each cell may be empty.
    #[derive(Debug, Clone)]
    enum Col {
        Ints(Vec<Option<i64>>),
        Cents(Vec<Option<i64>>),
        Words(Vec<Option<u8>>),
        Dates(Vec<Option<u16>>),
    }

    fn col(rows: usize) -> impl Strategy<Value = Col> {
        prop_oneof![
            prop::collection::vec(prop::option::weighted(0.9, any::<i64>()), rows)
                .prop_map(Col::Ints),
            prop::collection::vec(
                prop::option::weighted(0.9, -10_000_000i64..10_000_000),
                rows
            )
            .prop_map(Col::Cents),
            prop::collection::vec(prop::option::weighted(0.9, 0u8..4), rows).prop_map(Col::Words),
            prop::collection::vec(prop::option::weighted(0.9, 0u16..3000), rows)
                .prop_map(Col::Dates),
        ]
    }

    fn cents_text(c: i64) -> String {
        serde_json::Number::from_f64(c as f64 / 100.0)
            .unwrap()
            .to_string()
    }

    fn date_text(d: u16) -> String {
        jiff::civil::date(2020, 1, 1)
            .checked_add(jiff::Span::new().days(i64::from(d)))
            .unwrap()
            .to_string()
    }

    /// The figure computed naively: sort, count with a map, sum integers as i128.
    fn naive(c: &Col) -> (u64, Option<Figure>) {
        let present = |n: usize| n as u64;
        match c {
            Col::Ints(v) | Col::Cents(v) => {
                let xs: Vec<i64> = v.iter().flatten().copied().collect();
                let text = |x: i64| {
                    if matches!(c, Col::Ints(_)) {
                        x.to_string()
                    } else {
                        cents_text(x)
                    }
                };
                let empty = present(v.len() - xs.len());
                if xs.is_empty() {
                    return (empty, None);
                }
                let sum: i128 = xs.iter().map(|&x| i128::from(x)).sum();
                let sum = if matches!(c, Col::Ints(_)) {
                    sum.to_string()
                } else {
                    // Exact cents, printed like the summary: no trailing zeros, ".0" kept.
                    let s = format!(
                        "{}{}.{:02}",
                        if sum < 0 { "-" } else { "" },
                        sum.unsigned_abs() / 100,
                        sum.unsigned_abs() % 100
                    );
                    let s = s.trim_end_matches('0').to_string();
                    if s.ends_with('.') { format!("{s}0") } else { s }
                };
                let min = *xs.iter().min().unwrap();
                let max = *xs.iter().max().unwrap();
                (
                    empty,
                    Some(Figure::Numbers {
                        min: text(min),
                        max: text(max),
                        sum: Some(sum),
                    }),
                )
            }
            Col::Words(v) => {
                let xs: Vec<String> = v.iter().flatten().map(|w| format!("w{w}")).collect();
                let empty = present(v.len() - xs.len());
                let mut counts: HashMap<String, u64> = HashMap::new();
                for x in &xs {
                    *counts.entry(x.clone()).or_default() += 1;
                }
                if counts.is_empty() || 2 * counts.len() > xs.len() {
                    return (empty, None);
                }
                let mut counts: Vec<(String, u64)> = counts.into_iter().collect();
                counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                (empty, Some(Figure::Counts(counts)))
            }
            Col::Dates(v) => {
                let xs: Vec<u16> = v.iter().flatten().copied().collect();
                let empty = present(v.len() - xs.len());
                match (xs.iter().min(), xs.iter().max()) {
                    (Some(&a), Some(&b)) => (
                        empty,
                        Some(Figure::Times {
                            earliest: date_text(a),
                            latest: date_text(b),
                        }),
                    ),
                    _ => (empty, None),
                }
            }
        }
    }

    fn cell(c: &Col, row: usize) -> (Kind, String) {
        match c {
            Col::Ints(v) => v[row].map_or((Kind::Null, String::new()), |x| {
                (Kind::Number, x.to_string())
            }),
            Col::Cents(v) => v[row].map_or((Kind::Null, String::new()), |x| {
                (Kind::Number, cents_text(x))
            }),
            Col::Words(v) => v[row].map_or((Kind::Null, String::new()), |w| {
                (Kind::Text, format!("w{w}"))
            }),
            Col::Dates(v) => {
                v[row].map_or((Kind::Null, String::new()), |d| (Kind::Text, date_text(d)))
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn summary_figures_equal_a_naive_computation(
            (rows, cols) in (0usize..40).prop_flat_map(|rows| (Just(rows), prop::collection::vec(col(rows), 1..5)))
        ) {
            let names: Vec<String> = (0..cols.len()).map(|i| format!("c{i}")).collect();
            let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let cells: Vec<Vec<(Kind, String)>> =
                (0..rows).map(|r| cols.iter().map(|c| cell(c, r)).collect()).collect();
            let options = SummaryOptions { sum: names.clone(), ..Default::default() };
            let s = summarize(&name_refs, cells.iter().map(|r| r.iter().map(|(k, t)| (*k, t.as_str()))), &options);
            prop_assert_eq!(s.rows, rows as u64);
            let want: Vec<ColumnSummary> = cols
                .iter()
                .zip(&names)
                .filter_map(|(c, name)| {
                    let (empty, figure) = naive(c);
                    (figure.is_some() || empty > 0).then(|| ColumnSummary { name: name.clone(), empty, figure })
                })
                .collect();
            prop_assert_eq!(s.columns, want);
        }
    }
}

/// Cost, measured by hand: `cargo test -p tool-output-format --release --lib summary::tests::cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn cost() {
    use std::time::Instant;
    let statuses = ["pending", "processing", "shipped", "delivered", "cancelled"];
    let rows: Vec<Value> = (0..10_000u64)
        .map(|i| {
            json!({
                "orderId": format!("ORD-{}", 10_000 + i),
                "status": statuses[(i * 7 % 5) as usize],
                "createdAt": format!("2024-{:02}-{:02}T{:02}:00:00Z", 1 + i % 12, 1 + i % 28, i % 24),
                "totalAmount": (i * 7919 % 250_000) as f64 / 100.0,
                "qty": i % 17,
            })
        })
        .collect();
    let v = Value::Array(rows);
    let (cols, cells) = table(&v);
    let names: Vec<&str> = cols.iter().map(String::as_str).collect();
    let options = SummaryOptions {
        sum: vec!["totalAmount".into()],
        ..Default::default()
    };
    let fmt = crate::Formatter::new();
    let n = 20;
    let t = Instant::now();
    let mut out = 0;
    for _ in 0..n {
        out += fmt.format("list_orders", &v).len();
    }
    let render = t.elapsed() / n;
    let t = Instant::now();
    for _ in 0..n {
        out += serde_json::to_string(&v).unwrap().len();
    }
    let json = t.elapsed() / n;
    let t = Instant::now();
    for _ in 0..n {
        let s = summarize(
            &names,
            cells
                .iter()
                .map(|r| r.iter().map(|(k, t)| (*k, t.as_str()))),
            &options,
        );
        out += s.to_markdown().len();
    }
    let summary = t.elapsed() / n;
    println!(
        "10,000 rows x 5 columns: render kept 100 rows {render:?}, serde_json::to_string all {json:?}, summary all {summary:?} ({out})"
    );
    println!(
        "{}",
        summarize(
            &names,
            cells
                .iter()
                .map(|r| r.iter().map(|(k, t)| (*k, t.as_str()))),
            &options
        )
        .to_markdown()
    );
}
