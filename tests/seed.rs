//! The SPEC's seed log and the peer library's edge cases, with exact expected strings (the
//! seed table and record, typed and untyped, are in `derive.rs`).

use serde_json::json;
use tof_support::data;
use tool_output_format::{Formatter, Layout, ToolOptions, ToolOutput, to_markdown};

fn fmt() -> Formatter {
    Formatter::new()
}

#[test]
fn seed_logs_string_truncated() {
    let logs = data::parse(data::LOGS);
    let text = logs.as_str().unwrap();
    assert_eq!(text.lines().count(), 300);
    let md = fmt().format("read_logs", &logs);
    let first: Vec<&str> = text.lines().take(100).collect();
    let expected = format!(
        "[Truncated to 100 lines of 300 total]\n\n```\n{}\n```",
        first.join("\n")
    );
    assert_eq!(md, expected);
    // The typed path (a plain `String`) renders the same bytes.
    assert_eq!(fmt().format("read_logs", text), expected);
}

#[test]
fn exactly_max_lines_has_no_notice() {
    let s = (1..=100)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let md = fmt().format("t", &s);
    assert!(md.starts_with("```\nline 1\n"));
    assert!(md.ends_with("line 100\n```"));
}

#[test]
fn final_newline_does_not_start_a_line() {
    assert_eq!(fmt().max_lines(2).format("t", "a\nb\n"), "```\na\nb\n```");
}

#[test]
fn column_union_in_first_seen_order_with_missing_cells() {
    let v = json!([{"a": 1, "b": 2}, {"c": 3, "a": 4}, {"b": 5}]);
    assert_eq!(
        fmt().format("t", &v),
        "| a | b | c |\n|---|---|---|\n| 1 | 2 |   |\n| 4 |   | 3 |\n|   | 5 |   |"
    );
}

#[test]
fn pipes_and_newlines_in_cells() {
    let v = json!([{"k": "a|b", "n": "x\ny\r\nz\rw"}]);
    assert_eq!(
        fmt().format("t", &v),
        "| k    | n                |\n|------|------------------|\n| a\\|b | x<br>y<br>z<br>w |"
    );
}

#[test]
fn backslash_pipe_and_trailing_backslash_do_not_merge_cells() {
    let v = json!([{"a": "x\\|y", "b": "end\\", "c": "z"}]);
    let md = fmt().layout(Layout::Compact).format("t", &v);
    // SPEC section 9: the data's backslashes stay; the pipe gets one, and a final
    // backslash is kept off the closing pipe by a space.
    assert_eq!(md, "|a|b|c|\n|-|-|-|\n|x\\\\|y|end\\ |z|");
    let grid = &tof_support::gfm::comrak(&md).tables[0];
    assert_eq!(grid[1].len(), 3);
    assert_eq!(tof_support::gfm::unescape(&grid[1][0]), "x\\|y");
    assert_eq!(tof_support::gfm::unescape(&grid[1][1]), "end\\");
}

#[test]
fn nested_values_in_cells() {
    let v = json!([{"tags": ["a", "b"], "obj": {"x": 1, "y": [1, 2]}, "empty": [], "eo": {}, "mixed": [1, null]}]);
    assert_eq!(
        fmt().layout(Layout::Compact).format("t", &v),
        "|tags|obj|empty|eo|mixed|\n|-|-|-|-|-|\n|a, b|{\"x\":1,\"y\":[1,2]}|[]|{}|[1,null]|"
    );
}

#[test]
fn nested_record_and_table_in_record() {
    let v = json!({"account": {"name": "Acme Corp", "tier": 2}, "orders": [{"id": 1}, {"id": 2}], "tags": ["x", "y"]});
    assert_eq!(
        fmt().format("get_account", &v),
        "**get_account result**\n\n\
         - account:\n  - name: Acme Corp\n  - tier: 2\n\
         - orders:\n\n  | id |\n  |----|\n  | 1  |\n  | 2  |\n\
         - tags: x, y"
    );
}

#[test]
fn empty_list_and_object() {
    assert_eq!(fmt().format("t", &json!([])), "*(empty)*");
    assert_eq!(fmt().format("t", &json!({})), "**t result**\n\n*(empty)*");
    assert_eq!(
        fmt().format("t", &json!({"a": [], "b": {}})),
        "**t result**\n\n- a: []\n- b: {}"
    );
}

#[test]
fn scalars() {
    let cases: &[(serde_json::Value, &str)] = &[
        (json!(42), "42"),
        (json!(2.5), "2.5"),
        (json!(1.0), "1.0"),
        (json!(1e20), "1e+20"),
        (json!(0.1 + 0.2), "0.30000000000000004"),
        (json!(u64::MAX), "18446744073709551615"),
        (json!(i64::MIN), "-9223372036854775808"),
        (json!(true), "true"),
        (json!(null), "null"),
    ];
    for (v, want) in cases {
        assert_eq!(fmt().format("t", v), *want, "{v:?}");
    }
    assert_eq!(fmt().format("t", &1.0f64), "1.0");
    assert_eq!(fmt().format("t", &u64::MAX), "18446744073709551615");
    assert_eq!(fmt().format("t", &f64::NAN), "null");
    assert_eq!(fmt().format("t", &None::<i32>), "null");
    assert_eq!(fmt().format("t", &false), "false");
}

#[test]
fn numbers_in_cells_print_as_serde_json_does() {
    let v = json!([{"a": 1.0, "b": 1e20, "c": u64::MAX, "d": null, "e": false}]);
    assert_eq!(
        fmt().layout(Layout::Compact).format("t", &v),
        "|a|b|c|d|e|\n|-|-|-|-|-|\n|1.0|1e+20|18446744073709551615||false|"
    );
}

#[test]
fn lists_of_scalars_and_mixed_lists_are_bullets() {
    assert_eq!(
        fmt().format("t", &json!(["a", 1, null, true])),
        "- a\n- 1\n- null\n- true"
    );
    assert_eq!(
        fmt().format("t", &json!([1, {"a": 1, "b": {"c": 2}}, [2, 3]])),
        "- 1\n-\n  - a: 1\n  - b:\n    - c: 2\n- 2, 3"
    );
    assert_eq!(fmt().format("t", &json!([{}, {}])), "- {}\n- {}");
    assert_eq!(fmt().format("t", &vec!["x", "y"]), "- x\n- y");
    assert_eq!(fmt().format("t", &json!(["", "z"])), "-\n- z");
}

#[test]
fn strings_are_fenced_with_a_fence_the_content_cannot_close() {
    assert_eq!(fmt().format("t", "a ``` b"), "````\na ``` b\n````");
    assert_eq!(fmt().format("t", ""), "```\n```");
    assert_eq!(fmt().format("t", "x\n\ny"), "```\nx\n\ny\n```");
}

#[test]
fn multi_line_strings_in_records_are_code_blocks_inside_the_item() {
    let v = json!({"notes": "Deployed weekly.\nFreeze during December.", "n": 1});
    assert_eq!(
        fmt().format("", &v),
        "- notes:\n  ```\n  Deployed weekly.\n  Freeze during December.\n  ```\n- n: 1"
    );
}

#[test]
fn block_syntax_at_line_start_is_escaped_in_records() {
    let v = json!({"# h": "> q", "- x": "1. y", "12) z": "ok"});
    assert_eq!(
        fmt().format("", &v),
        "- \\# h: > q\n- \\- x: 1. y\n- 12\\) z: ok"
    );
}

#[test]
fn no_title_without_a_tool_name() {
    assert_eq!(to_markdown(&json!({"a": 1})), "- a: 1");
}

#[test]
fn registered_renderer_overrides_one_tool_only() {
    let f = fmt()
        .register("fetch_user", |v: &serde_json::Value| {
            format!("User: {}", v["name"].as_str().unwrap_or("?"))
        })
        .register("list_errors", |_: &serde_json::Value| {
            String::from("no errors")
        });
    assert_eq!(f.format("fetch_user", &json!({"name": "Ada"})), "User: Ada");
    assert_eq!(f.format("list_errors", &json!([])), "no errors");
    assert_eq!(
        f.format("other", &json!({"name": "Ada"})),
        "**other result**\n\n- name: Ada"
    );
}

#[test]
fn per_tool_options_leave_other_tools_alone() {
    let f = fmt()
        .max_lines(3)
        .tool("short", ToolOptions::new().max_lines(1));
    let rows = json!([{"a": 1}, {"a": 2}, {"a": 3}]);
    assert!(
        f.format("short", &rows)
            .starts_with("[Truncated to 1 rows of 3 total]\n\n| a |")
    );
    assert!(!f.format("long", &rows).starts_with('['));
    assert!(
        f.format("long", "1\n2\n3\n4")
            .starts_with("[Truncated to 3 lines of 4 total]")
    );
}

#[test]
fn row_cap_notice_comes_first() {
    let rows: Vec<_> = (0..10_000).map(|i| json!({"i": i})).collect();
    let md = fmt().format("t", &serde_json::Value::Array(rows));
    assert!(md.starts_with("[Truncated to 100 rows of 10000 total]\n\n| i  |\n|----|\n| 0  |"));
    assert!(md.ends_with("| 99 |"));
}

#[test]
fn wide_cells_do_not_pad_other_rows() {
    let long = "x".repeat(2000);
    let md = fmt().format("t", &json!([{"a": long, "b": 1}, {"a": "short", "b": 2}]));
    let last = md.lines().last().unwrap();
    assert!(last.len() < 50, "{last}");
}

#[test]
fn display_width_aligns_cjk_and_emoji() {
    let md = fmt().format("t", &json!([{"n": "李雷"}, {"n": "ab"}, {"n": "👍"}]));
    assert_eq!(md, "| n    |\n|------|\n| 李雷 |\n| ab   |\n| 👍   |");
}

#[test]
fn control_characters_never_appear_raw() {
    let v = json!([{"a": "x\u{1b}[31my\u{0}", "b": "\u{202e}rtl"}]);
    let md = fmt().layout(Layout::Compact).format("t", &v);
    assert_eq!(md, "|a|b|\n|-|-|\n|x\\u{1B}[31my\\u{0}|\\u{202E}rtl|");
    assert_eq!(fmt().format("t", "a\u{1b}b\rc"), "```\na\\u{1B}b\nc\n```");
}

#[test]
fn output_has_no_trailing_whitespace() {
    for v in [
        json!({"a": null, "b": "", "c": " x "}),
        json!([{"a": null}]),
        json!("a  \nb\t"),
    ] {
        let md = fmt().format("t", &v);
        assert!(!md.ends_with('\n'));
        for l in md.lines() {
            assert_eq!(l, l.trim_end(), "{md:?}");
        }
    }
}

#[test]
fn typed_scalars_and_collections_match_their_json() {
    let f = fmt();
    let v: Vec<Option<f32>> = vec![Some(0.1), None];
    assert_eq!(f.format("t", &v), f.format("t", &v.to_json()));
    let m: std::collections::BTreeMap<String, Vec<u8>> = [("k".to_string(), vec![1, 2])].into();
    assert_eq!(f.format("t", &m), f.format("t", &m.to_json()));
}

#[test]
fn nested_tables_are_capped_in_place() {
    let v = json!({"id": 7, "orders": [{"n": 1}, {"n": 2}, {"n": 3}], "tags": [{"t": "a"}]});
    assert_eq!(
        fmt().max_rows(2).format("get_customer", &v),
        "**get_customer result**\n\n\
         - id: 7\n\
         - orders:\n\n  [Truncated to 2 rows of 3 total]\n\n  | n |\n  |---|\n  | 1 |\n  | 2 |\n\
         - tags:\n\n  | t |\n  |---|\n  | a |"
    );
    // In a list item (no key), the notice starts the item.
    assert_eq!(
        fmt()
            .max_rows(1)
            .layout(Layout::Compact)
            .format("t", &json!([1, [{"n": 1}, {"n": 2}]])),
        "- 1\n-\n  [Truncated to 1 rows of 2 total]\n\n  |n|\n  |-|\n  |1|"
    );
}
