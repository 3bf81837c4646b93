//! Caps and budgets: exact cases, then properties over random values, budgets and layouts.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Value, json};
use tof_support::gfm;
use tool_output_format::Notice;
use tool_output_format::{Formatter, Layout, Strategy as Lines, ToolOptions};

fn rows(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"id": i, "name": format!("user {i}"), "team": "infra"}))
            .collect(),
    )
}

#[test]
fn fitting_output_is_unchanged() {
    let v = rows(5);
    assert_eq!(
        Formatter::new().max_chars(10_000).format("t", &v),
        Formatter::new().format("t", &v)
    );
}

#[test]
fn table_is_cut_at_row_boundaries_with_exact_counts() {
    let md = Formatter::new().max_chars(300).format("t", &rows(1000));
    assert!(md.chars().count() <= 300, "{md}");
    let first = md.lines().next().unwrap();
    let kept: usize = first["[Truncated to ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(first, format!("[Truncated to {kept} rows of 1000 total]"));
    let seen = gfm::pulldown(&md);
    assert_eq!(seen.tables[0].len() - 1, kept);
    // One more row would not have fit: the search found the largest prefix.
    let more = Formatter::new().max_rows(kept + 1).format("t", &rows(1000));
    assert!(more.chars().count() > 300);
}

#[test]
fn strings_by_lines_then_one_overlong_line_on_a_grapheme_boundary() {
    let s: String = (0..50).map(|i| format!("line {i}\n")).collect();
    let md = Formatter::new().max_chars(80).format("t", &s);
    assert!(md.chars().count() <= 80, "{md}");
    assert!(md.starts_with("[Truncated to "), "{md}");
    let long = "👍🏽".repeat(200);
    let md = Formatter::new().max_chars(120).format("t", &long);
    assert!(md.chars().count() <= 120, "{md}");
    // The text stays verbatim: the notice says where the line stops (no marker inside the
    // fence), and never half a grapheme: the kept part is whole thumbs-up-with-skin-tone pairs.
    let kept = md.lines().nth(3).unwrap();
    assert_eq!(kept.chars().count() % 2, 0, "{md}");
    assert!(
        md.starts_with(&format!(
            "[Truncated to the first {} of 400 characters of line 1 of 1]",
            kept.chars().count()
        )),
        "{md}"
    );
}

#[test]
fn string_strategies() {
    let s: String = (1..=10).map(|i| format!("{i}\n")).collect();
    let f = Formatter::new().max_lines(4);
    assert_eq!(
        f.clone().strategy(Lines::Tail).format("t", &s),
        "[Truncated to the last 4 lines of 10 total]\n\n```\n7\n8\n9\n10\n```"
    );
    assert_eq!(
        f.clone().strategy(Lines::HeadTail).format("t", &s),
        "[Truncated to 4 lines of 10 total: the first 2 and the last 2]\n\n```\n1\n2\n… [6 lines omitted] …\n9\n10\n```"
    );
    let per_tool = Formatter::new()
        .max_lines(4)
        .tool("logs", ToolOptions::new().strategy(Lines::Tail));
    assert!(per_tool.format("logs", &s).ends_with("10\n```"));
    assert!(per_tool.format("other", &s).ends_with("4\n```"));
}

#[test]
fn records_shorten_values_then_drop_fields() {
    let v = json!({"id": 1, "body": "x".repeat(500), "tail": "y"});
    let md = Formatter::new().max_chars(160).format("get", &v);
    assert!(md.chars().count() <= 160, "{md}");
    assert!(md.starts_with("[Shortened 1 values to "), "{md}");
    assert!(md.contains("- tail: y"), "{md}");
    let many: serde_json::Map<String, Value> =
        (0..50).map(|i| (format!("field_{i}"), json!(i))).collect();
    let md = Formatter::new()
        .max_chars(150)
        .format("get", &Value::Object(many));
    assert!(md.chars().count() <= 150, "{md}");
    let first = md.lines().next().unwrap();
    assert!(
        first.starts_with("[Truncated to ") && first.ends_with(" fields of 50 total]"),
        "{md}"
    );
}

#[test]
fn too_small_budget_is_announced_never_silent() {
    let md = Formatter::new().max_chars(5).format("t", &rows(10));
    assert!(md.starts_with("[Omitted: 10 rows; 1 row needs "), "{md}");
    let md = Formatter::new().max_chars(60).format("t", &12345);
    assert_eq!(md, "12345");
}

#[test]
fn max_cell_chars_cuts_cells_and_record_values() {
    let f = Formatter::new().layout(Layout::Compact).max_cell_chars(3);
    let long = "abcdefghijklmnopqrstuvwxyz";
    assert_eq!(
        f.format("t", &json!([{"a": long, "b": 1}])),
        "|a|b|\n|-|-|\n|abc…[+23 chars]|1|"
    );
    let out = f.format_with_report("t", &json!({"a": long, "b": "ok"}));
    assert_eq!(out.text, "**t result**\n\n- a: abc…[+23 chars]\n- b: ok");
    assert_eq!(out.report.values_shortened, 1);
}

#[test]
fn token_budget_counts_exactly() {
    let out = Formatter::new()
        .max_tokens(150)
        .format_with_report("t", &rows(1000));
    assert!(out.report.tokens.unwrap() <= 150, "{}", out.text);
    assert_eq!(out.report.rows.unwrap().total, 1000);
    assert_eq!(
        out.report.tokens.unwrap(),
        tool_output_format::TokenCounter::count(&tool_output_format::O200k, &out.text)
    );
}

#[test]
fn report_counts_sizes() {
    let out = Formatter::new().format_with_report("t", &rows(3));
    assert_eq!(out.report.chars, out.text.chars().count());
    assert_eq!(out.report.bytes, out.text.len());
    assert_eq!(out.report.rows.map(|r| (r.kept, r.total)), Some((3, 3)));
    assert!(!out.report.truncated());
}

// ---- properties ----

fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,30}",
        "[a-z|\\\\`<>#\\-\n\r\t ]{0,40}",
        Just("👍🏽 李雷 e\u{301}".to_string()),
        "[a-z]{50,300}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        hostile_string().prop_map(Value::from),
    ]
}

fn record() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec!["id", "name", "a|b", "note", "x y", "#h", "z"]);
    prop::collection::btree_map(keys, scalar(), 1..5)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec(record(), 0..60).prop_map(Value::Array),
        record(),
        prop::collection::vec(hostile_string(), 0..80).prop_map(|l| Value::String(l.join("\n"))),
        prop::collection::vec(scalar(), 0..40).prop_map(Value::Array),
        scalar(),
    ]
}

/// Whether a text announces a cut: a notice line (above the body, or in place where a nested
/// part was cut) or a value's own cut marker.
fn announces_cut(md: &str) -> bool {
    md.lines().any(|l| {
        let l = l.trim_start();
        [
            "[Truncated ",
            "[Shortened ",
            "[Omitted",
            "[Left out to fit",
            "[Columns left out",
        ]
        .iter()
        .any(|n| l.starts_with(n))
    }) || md.contains(" chars]")
}

fn notice_count(line: &str, what: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("[Truncated to ")?;
    let rest = rest.strip_prefix("the last ").unwrap_or(rest);
    let (kept, rest) = rest.split_once(' ')?;
    let rest = rest.strip_prefix(what)?.strip_prefix(" of ")?;
    let total = rest.split(' ').next()?;
    Some((kept.parse().ok()?, total.parse().ok()?))
}

proptest! {
    #![proptest_config(Config { cases: 1500, rng_seed: RngSeed::Fixed(0x7001), failure_persistence: None, ..Config::default() })]

    #[test]
    fn budgets_hold(v in value(), budget in 0usize..1500, compact in any::<bool>(), max_lines in 1usize..120) {
        let layout = if compact { Layout::Compact } else { Layout::Aligned };
        let base = Formatter::new().layout(layout).max_lines(max_lines);
        let out = base.clone().max_chars(budget).format_with_report("tool", &v);
        let md = &out.text;
        let chars = md.chars().count();
        let omitted = md.starts_with("[Omitted: ");
        // Never over budget, except the one announced line when not even it fits.
        prop_assert!(chars <= budget || (omitted && !md.contains('\n')), "{chars} > {budget}: {md}");
        // Unchanged when it fits; otherwise a notice says so.
        let unbudgeted = base.format("tool", &v);
        if unbudgeted.chars().count() <= budget {
            prop_assert_eq!(md, &unbudgeted);
        } else {
            prop_assert!(announces_cut(md), "cut without a notice: {}", md);
        }
        // Counts are exact and kept rows are a prefix of the data.
        if let (Some((kept, total)), Value::Array(items)) = (notice_count(md, "rows"), &v) {
            prop_assert_eq!(total, items.len());
            let full = base.clone().max_rows(total).format("", &v);
            for seen in [gfm::pulldown(md), gfm::comrak(md)] {
                prop_assert_eq!(seen.tables.len(), 1);
                let grid = &seen.tables[0];
                prop_assert_eq!(grid.len() - 1, kept);
                let all = &gfm::pulldown(&full).tables[0];
                if !md.contains("[Shortened") {
                    for (a, b) in grid.iter().zip(all) {
                        prop_assert_eq!(a, b);
                    }
                }
            }
        }
        if let (Some((kept, total)), Value::String(s)) = (notice_count(md, "lines"), &v) {
            prop_assert_eq!(total, tof_support::lines(s).len());
            prop_assert!(kept < total);
        }
        for n in &out.report.notices {
            if let Notice::Rows { kept, total } | Notice::Fields { kept, total } | Notice::Items { kept, total } = *n {
                prop_assert!(kept < total);
            }
        }
        prop_assert!(!md.ends_with('\n'));
        prop_assert!(md.lines().all(|l| l == l.trim_end()));
    }
}

// ---- sources build only the rows a cap or budget can keep ----

#[test]
fn shape_and_columns_still_come_from_every_row() {
    let mut items: Vec<Value> = (0..500).map(|i| json!({"id": i})).collect();
    items.push(json!({"id": 500, "late": "column"}));
    let md = Formatter::new()
        .max_rows(2)
        .format("t", &Value::Array(items.clone()));
    assert_eq!(
        md,
        "[Truncated to 2 rows of 501 total]\n\n| id | late |\n|----|------|\n| 0  |      |\n| 1  |      |"
    );
    items.push(json!(7));
    let md = Formatter::new()
        .max_rows(2)
        .format("t", &Value::Array(items));
    assert!(
        md.starts_with("- \n") || md.starts_with("-\n"),
        "a list, not a table: {md}"
    );
}

#[test]
fn budgets_grow_the_build_until_the_budget_cuts() {
    for n in [10usize, 63, 64, 65, 300, 2000] {
        let v = rows(n);
        for budget in [500usize, 5_000, 20_000, 200_000] {
            let fmt = Formatter::new().max_rows(usize::MAX).max_chars(budget);
            let md = fmt.format("t", &v);
            assert!(md.chars().count() <= budget);
            let kept = match notice_count(&md, "rows") {
                Some((kept, total)) => {
                    assert_eq!(total, n);
                    kept
                }
                None => n,
            };
            // The largest prefix: one more row does not fit (or there is none).
            let exact = |k: usize| Formatter::new().max_rows(k).format("t", &v);
            if kept < n {
                assert!(
                    exact(kept + 1).chars().count() > budget,
                    "n={n} budget={budget} kept={kept}"
                );
            } else {
                assert_eq!(md, exact(n));
            }
        }
    }
}

#[derive(tool_output_format::ToolOutput)]
#[tool_output(max_rows = 150)]
struct Row {
    id: usize,
}

#[test]
fn a_type_cap_above_the_formatter_cap_is_honoured() {
    let v: Vec<Row> = (0..1000).map(|id| Row { id }).collect();
    let out = Formatter::new().format_with_report("t", &v);
    assert!(
        out.text
            .starts_with("[Truncated to 150 rows of 1000 total]")
    );
    assert_eq!(
        out.report.rows.map(|r| (r.kept, r.total)),
        Some((150, 1000))
    );
}

proptest! {
    #![proptest_config(Config { cases: 300, rng_seed: RngSeed::Fixed(0x70c5), failure_persistence: None, ..Config::default() })]

    /// The same guarantees for a token budget, counted exactly with o200k.
    #[test]
    fn token_budgets_hold(v in value(), budget in 0usize..400, compact in any::<bool>()) {
        use tool_output_format::{O200k, TokenCounter};
        let layout = if compact { Layout::Compact } else { Layout::Aligned };
        let base = Formatter::new().layout(layout);
        let out = base.clone().max_tokens(budget).format_with_report("tool", &v);
        let md = &out.text;
        let tokens = O200k.count(md);
        prop_assert_eq!(out.report.tokens, Some(tokens));
        let omitted = md.starts_with("[Omitted: ");
        prop_assert!(tokens <= budget || (omitted && !md.contains('\n')), "{tokens} > {budget}: {md}");
        let unbudgeted = base.format("tool", &v);
        if O200k.count(&unbudgeted) <= budget {
            prop_assert_eq!(md, &unbudgeted);
        } else {
            prop_assert!(announces_cut(md), "cut without a notice: {}", md);
        }
    }
}

// ---- SPEC section 8: cut what is big, keep what is small and vital ----

fn rows_kept(md: &str) -> Vec<usize> {
    gfm::pulldown(md)
        .tables
        .iter()
        .map(|t| t.len() - 1)
        .collect()
}

#[test]
fn a_page_keeps_its_cursor_counts_and_rows() {
    let page = tof_support::data::parse(tof_support::data::SEARCH_PAGE);
    for layout in [Layout::Aligned, Layout::Compact] {
        for budget in [1_500usize, 3_000, 6_000, 12_000] {
            let md = Formatter::new()
                .layout(layout)
                .max_chars(budget)
                .format("search", &page);
            assert!(md.chars().count() <= budget, "{budget}: {md}");
            for key in [
                "- total_count: ",
                "- incomplete_results: ",
                "- next_cursor: ",
            ] {
                assert!(md.contains(key), "{budget} {layout:?}: {key} lost\n{md}");
            }
            assert!(
                md.contains(page["next_cursor"].as_str().unwrap()),
                "the cursor is whole"
            );
            let rows = rows_kept(&md);
            if budget >= 3_000 {
                assert!(rows.len() == 1 && rows[0] >= 1, "{budget}: {rows:?}\n{md}");
            }
            // Announced in place, with exact counts (not twice: no line above says it again).
            if let Some(&kept) = rows.first() {
                assert!(
                    md.contains(&format!("[Truncated to {kept} rows of 30 total]")),
                    "{md}"
                );
                assert!(!md.contains("nested tables"), "{md}");
            }
        }
    }
}

#[test]
fn more_rows_beat_wide_cells() {
    let issues = tof_support::data::parse(tof_support::data::ISSUES_30);
    for (budget, at_least) in [(4_000usize, 2usize), (6_000, 4), (8_000, 5)] {
        for layout in [Layout::Aligned, Layout::Compact] {
            let md = Formatter::new()
                .layout(layout)
                .max_chars(budget)
                .format("t", &issues);
            assert!(md.chars().count() <= budget);
            let kept = rows_kept(&md)[0];
            assert!(kept >= at_least, "{budget} {layout:?}: {kept} rows\n{md}");
            assert!(
                md.starts_with(&format!("[Truncated to {kept} rows of 30 total]\n")),
                "{md}"
            );
            // Cells are cut to at least 32 characters, each cut marked.
            let line = md.lines().nth(1).unwrap();
            let max: usize = line
                .strip_prefix("[Shortened ")
                .and_then(|l| l.split(" to ").nth(1))
                .and_then(|l| l.split(' ').next())
                .and_then(|n| n.parse().ok())
                .expect("a shortened notice");
            assert!(max >= 32, "{line}");
        }
    }
}

#[test]
fn omitted_names_true_figures() {
    let rows = tof_support::data::parse(tof_support::data::ROWS_1000);
    let md = Formatter::new().max_chars(120).format("t", &rows);
    let needed: usize = md
        .strip_prefix("[Omitted: 1000 rows; 1 row needs ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{md}"));
    assert!(md.ends_with(" chars, over the budget of 120]"), "{md}");
    // The least the result needs: one row, values at 32 characters.
    assert!((121..1_000).contains(&needed), "{md}");
    let one = Formatter::new().max_chars(needed).format("t", &rows);
    assert!(
        one.starts_with("[Truncated to 1 rows of 1000 total]"),
        "{one}"
    );
    assert_eq!(Formatter::new().max_chars(5).format("t", &12345), "12345");
    assert_eq!(
        Formatter::new().max_chars(3).format("t", &12345),
        "[Omitted: the result needs 5 chars, over the budget of 3]"
    );
}

#[derive(tool_output_format::ToolOutput)]
#[tool_output(max_rows = 25)]
struct Capped {
    id: usize,
}

#[test]
fn a_tools_options_beat_the_types_which_beat_the_formatters() {
    let v: Vec<Capped> = (0..100).map(|id| Capped { id }).collect();
    let fmt = Formatter::new()
        .max_rows(50)
        .tool("five", ToolOptions::new().max_rows(5))
        .tool("lines", ToolOptions::new().max_lines(7));
    let kept = |tool: &str| fmt.format_with_report(tool, &v).report.rows.unwrap().kept;
    assert_eq!(kept("five"), 5);
    assert_eq!(kept("lines"), 7);
    assert_eq!(kept("other"), 25);
    assert_eq!(
        Formatter::new()
            .format_with_report("t", &v)
            .report
            .rows
            .unwrap()
            .kept,
        25
    );
    // Budgets and layouts: the tool's wins over the formatter's.
    let fmt = Formatter::new().max_chars(50).tool(
        "wide",
        ToolOptions::new()
            .max_chars(100_000)
            .layout(Layout::Compact),
    );
    assert!(
        fmt.format("wide", &v)
            .starts_with("[Truncated to 25 rows of 100 total]\n\n|id|\n|-|\n|0|")
    );
    assert!(
        fmt.format("narrow", &v)
            .starts_with("[Omitted: 100 rows; 1 row needs ")
    );
}

#[derive(tool_output_format::ToolOutput)]
struct Note {
    #[tool_output(max_chars = 50)]
    body: String,
}

#[test]
fn a_cut_marker_never_lengthens_a_value_and_every_cut_is_counted() {
    let fmt = Formatter::new();
    let v52 = "x".repeat(52);
    let out = fmt.format_with_report("", &Note { body: v52.clone() });
    assert_eq!(out.text, format!("- body: {v52}"));
    assert_eq!(out.report.values_shortened, 0);
    let out = fmt.format_with_report("", &vec![Note { body: v52.clone() }]);
    assert!(out.text.ends_with(&format!("| {v52} |")));
    let long = "y".repeat(80);
    let out = fmt.format_with_report("", &Note { body: long.clone() });
    assert_eq!(out.text, format!("- body: {}…[+30 chars]", &long[..50]));
    assert_eq!(out.report.values_shortened, 1);
    let rows: Vec<Note> = (0..3).map(|_| Note { body: long.clone() }).collect();
    let out = fmt.format_with_report("", &rows);
    assert_eq!(out.report.values_shortened, 3);
    // Under a budget too: the field cuts are counted with the budget's.
    for budget in [150, 200, 260] {
        let out = Formatter::new()
            .max_chars(budget)
            .format_with_report("", &rows);
        assert_eq!(
            out.report.values_shortened,
            out.text.matches("…[+").count(),
            "{out:?}"
        );
        assert!(out.report.values_shortened >= 1, "{out:?}");
    }
}

#[test]
fn registered_renderers_meet_budgets_and_line_caps() {
    let fmt = Formatter::new()
        .register("big", |_| {
            (0..1000)
                .map(|i| format!("line {i} {}", "z".repeat(20)))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .register("one", |_| "w".repeat(5_000))
        .tool("one", ToolOptions::new().max_chars(200));
    let out = fmt.format_with_report("big", &json!(null));
    assert!(
        out.text
            .starts_with("[Truncated to 100 lines of 1000 total]\n\nline 0 "),
        "{}",
        out.text
    );
    assert_eq!(out.text.lines().count(), 102);
    let small = fmt.clone().max_chars(500);
    let out = small.format_with_report("big", &json!(null));
    assert!(out.report.chars <= 500, "{}", out.text);
    let kept = notice_count(&out.text, "lines").unwrap();
    assert_eq!(kept.1, 1000);
    assert_eq!(out.text.lines().count(), kept.0 + 2);
    assert!(!out.report.notices.is_empty());
    let out = fmt.format_with_report("one", &json!(null));
    assert!(out.report.chars <= 200, "{}", out.text);
    assert!(
        out.text.starts_with("[Shortened 1 values to "),
        "{}",
        out.text
    );
    assert!(out.text.contains("…[+"), "{}", out.text);
    let md = small.max_chars(10).format("big", &json!(null));
    assert!(
        md.starts_with("[Omitted: 1000 lines; 1 line needs "),
        "{md}"
    );
    assert!(md.ends_with(" chars, over the budget of 10]"), "{md}");
}

proptest! {
    #![proptest_config(Config { cases: 400, rng_seed: RngSeed::Fixed(0x7010), failure_persistence: None, ..Config::default() })]

    /// A record's fields are dropped only when every table and list in it is down to one row
    /// or item.
    #[test]
    fn fields_go_last(
        scalars in prop::collection::vec(scalar(), 0..4),
        tables in prop::collection::vec(prop::collection::vec(record(), 1..25), 0..3),
        lists in prop::collection::vec(prop::collection::vec(hostile_string(), 1..25), 0..2),
        budget in 50usize..2_500,
        compact in any::<bool>(),
    ) {
        let mut m = serde_json::Map::new();
        for (i, s) in scalars.into_iter().enumerate() {
            m.insert(format!("s{i}"), s);
        }
        for (i, t) in tables.into_iter().enumerate() {
            m.insert(format!("t{i}"), Value::Array(t));
        }
        for (i, l) in lists.into_iter().enumerate() {
            m.insert(format!("l{i}"), json!(l));
        }
        let v = Value::Object(m);
        let layout = if compact { Layout::Compact } else { Layout::Aligned };
        let out = Formatter::new().layout(layout).max_chars(budget).format_with_report("t", &v);
        let md = &out.text;
        prop_assert!(md.chars().count() <= budget || md.starts_with("[Omitted: "), "{md}");
        let dropped = out.report.notices.iter().any(|n| matches!(n, Notice::Fields { .. }));
        if dropped {
            for n in &out.report.notices {
                if let Notice::Nested { kept, .. } = *n {
                    prop_assert_eq!(kept, 1, "{}", md);
                }
            }
            for rows in rows_kept(md) {
                prop_assert!(rows <= 1, "a field dropped while a table keeps {} rows:\n{}", rows, md);
            }
        }
    }
}

/// SPEC 18: a budget holds on the exact final output of every target. On the eleven bundled
/// API responses at budgets of 600 to 4,000 characters, the plain, compact and agent
/// formatters' text and structured JSON (written compactly, as an MCP server sends it) are
/// within the budget, or nothing fit and the output says so (`[Omitted: ...]`).
#[test]
fn the_budget_holds_on_every_target_for_recorded_api_responses() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/api");
    let mut over = Vec::new();
    let mut outputs = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        for budget in [600, 1_000, 2_000, 4_000] {
            let formatters = [
                ("plain", Formatter::new().max_chars(budget)),
                (
                    "compact",
                    Formatter::new().layout(Layout::Compact).max_chars(budget),
                ),
                ("agent", Formatter::for_agents().max_chars(budget)),
            ];
            for (kind, fmt) in formatters {
                let text = fmt.format("t", &v);
                let json = fmt.format_json("t", &v).to_string();
                for (target, out) in [("text", &text), ("json", &json)] {
                    outputs += 1;
                    let n = out.chars().count();
                    if n > budget && !out.contains("[Omitted: ") {
                        over.push(format!("{name} {kind} {target} at {budget}: {n}"));
                    }
                }
            }
        }
    }
    assert_eq!(outputs, 11 * 4 * 3 * 2);
    assert!(
        over.is_empty(),
        "{} of {outputs} over budget:\n{}",
        over.len(),
        over.join("\n")
    );
}

/// A budget never shortens a link (a cut link opens nothing): it is shown whole or its
/// column or field is left out, on a table and on a record, with and without salience.
#[test]
fn a_budget_keeps_a_link_whole_or_leaves_it_out() {
    let url = |i: usize| {
        format!(
            "https://example.com/projects/alpha/issues/{i}/comments/{}",
            i * 7
        )
    };
    let table: Value = (0..30)
        .map(|i| json!({"id": i, "title": format!("issue number {i} is open"), "html_url": url(i)}))
        .collect();
    let record =
        json!({"id": 1, "note": "x".repeat(300), "receipt_url": url(1), "other": "y".repeat(200)});
    for fmt in [Formatter::new(), Formatter::for_agents()] {
        for budget in [300, 500, 800, 1_200] {
            for v in [&table, &record] {
                let md = fmt.clone().max_chars(budget).format("t", v);
                assert!(md.chars().count() <= budget, "{budget}: {md}");
                for link in md.split(['|', '\n', ' ']) {
                    if let Some(at) = link.find("https://") {
                        let link = &link[at..];
                        assert!(
                            (0..30).any(|i| url(i) == link),
                            "{budget}: a shortened link {link:?} in\n{md}"
                        );
                    }
                }
            }
        }
    }
}
