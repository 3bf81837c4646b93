//! Exact outputs on the fast paths of the table writer and the `Value` walker (added with
//! the benchmark optimisations): rows in one key order, rows in other orders, escaped and
//! wide cells, long padding.

use serde_json::json;
use tool_output_format::{Formatter, Layout};

fn aligned() -> Formatter {
    Formatter::new().max_rows(usize::MAX)
}

fn compact() -> Formatter {
    aligned().layout(Layout::Compact)
}

#[test]
fn rows_in_one_key_order() {
    let v = json!([{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]);
    assert_eq!(compact().format("", &v), "|a|b|\n|-|-|\n|1|x|\n|2|y|");
}

#[test]
fn rows_with_the_same_keys_in_another_order() {
    let v = json!([{"a": 1, "b": 2}, {"b": 3, "a": 4}]);
    assert_eq!(compact().format("", &v), "|a|b|\n|-|-|\n|1|2|\n|4|3|");
}

#[test]
fn a_key_prefix_then_a_new_key_then_other_keys() {
    let v = json!([{"a": 1, "b": 2}, {"a": 3}, {"a": 4, "b": 5, "c": 6}, {"c": 7, "d": 8}, {"x": 9, "y": 0}]);
    assert_eq!(
        compact().format("", &v),
        "|a|b|c|d|x|y|\n|-|-|-|-|-|-|\n|1|2|||||\n|3||||||\n|4|5|6||||\n|||7|8|||\n|||||9|0|"
    );
}

#[test]
fn same_key_count_different_keys() {
    let v = json!([{"a": 1, "b": 2}, {"a": 3, "c": 4}]);
    assert_eq!(compact().format("", &v), "|a|b|c|\n|-|-|-|\n|1|2||\n|3||4|");
}

#[test]
fn aligned_escaped_and_wide_cells() {
    let v = json!([{"k": "a|b", "w": "李雷", "e": " x"}, {"k": "c", "w": "ab", "e": "y"}]);
    assert_eq!(
        aligned().format("", &v),
        "| k    | w    | e       |\n|------|------|---------|\n| a\\|b | 李雷 | \\u{20}x |\n| c    | ab   | y       |"
    );
}

/// A header over the cap leaves its column unpadded like a cell does (padding is
/// spent only where the column lines up), so padding never exceeds the cap.
#[test]
fn a_header_over_the_cap_leaves_its_column_unpadded() {
    let name = "n".repeat(100);
    let v = json!([{ name.clone(): 1 }]);
    let md = aligned().format("", &v);
    assert_eq!(md, format!("| {name} |\n|---|\n| 1 |"));
    let name = "n".repeat(32);
    let md = aligned().format("", &json!([{ name.clone(): 1 }]));
    assert_eq!(
        md,
        format!("| {name} |\n|{}|\n| 1{} |", "-".repeat(34), " ".repeat(31))
    );
}

#[test]
fn over_wide_cells_do_not_widen_the_column() {
    let long = "x".repeat(40);
    let v = json!([{"a": long}, {"a": "y"}]);
    assert_eq!(
        aligned().format("", &v),
        format!("| a |\n|---|\n| {long} |\n| y |")
    );
}
