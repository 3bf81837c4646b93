//! A budget the user sets is the bound (no hidden default cap).

use serde_json::{Value, json};
use tool_output_format::{Formatter, ToolOptions};

fn rows(n: usize) -> Value {
    json!((0..n).map(|i| json!({"id": i})).collect::<Vec<_>>())
}

fn lines(n: usize) -> String {
    (0..n)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn without_a_budget_the_default_cap_holds() {
    let md = Formatter::new().format("t", &rows(500));
    assert!(
        md.starts_with("[Truncated to 100 rows of 500 total]\n\n| id |"),
        "{md}"
    );
    let md = Formatter::new().format("t", lines(1000).as_str());
    assert!(
        md.starts_with("[Truncated to 100 lines of 1000 total]\n\n```\nline 0\n"),
        "{md}"
    );
}

#[test]
fn a_character_budget_is_the_bound() {
    let fmt = Formatter::new().max_chars(60_000);
    let md = fmt.format("t", &rows(500));
    assert!(!md.contains("[Truncated"), "{md}");
    assert_eq!(md.lines().count(), 502);
    assert!(md.ends_with("| 499 |"), "{md}");
    let md = fmt.format("t", lines(1000).as_str());
    assert!(!md.contains("[Truncated"), "{md}");
    assert!(md.ends_with("line 999\n```"), "{md}");
}

#[cfg(feature = "tokens")]
#[test]
fn a_token_budget_is_the_bound() {
    let md = Formatter::new().max_tokens(20_000).format("t", &rows(500));
    assert!(!md.contains("[Truncated"), "{md}");
    assert!(md.ends_with("| 499 |"), "{md}");
}

#[test]
fn a_budget_on_one_tool_is_the_bound_for_that_tool_only() {
    let fmt = Formatter::new().tool("big", ToolOptions::new().max_chars(60_000));
    assert!(!fmt.format("big", &rows(500)).contains("[Truncated"));
    assert!(
        fmt.format("other", &rows(500))
            .starts_with("[Truncated to 100 rows of 500 total]")
    );
}

#[test]
fn the_agent_preset_s_budget_is_the_bound() {
    let fmt = Formatter::for_agents();
    let md = fmt.format("t", &rows(500));
    assert!(!md.contains("[Truncated"), "{md}");
    assert!(md.ends_with("|499|"), "{md}");
    let md = fmt.format("t", lines(1000).as_str());
    assert!(!md.contains("[Truncated"), "{md}");
    assert!(md.ends_with("line 999\n```"), "{md}");
}

#[test]
fn an_explicit_cap_still_applies_under_a_budget() {
    let md = Formatter::new()
        .max_chars(60_000)
        .max_rows(10)
        .format("t", &rows(500));
    assert!(
        md.starts_with("[Truncated to 10 rows of 500 total]\n\n| id |"),
        "{md}"
    );
    let md = Formatter::new()
        .max_chars(60_000)
        .max_lines(10)
        .format("t", lines(1000).as_str());
    assert!(
        md.starts_with("[Truncated to 10 lines of 1000 total]\n\n```\nline 0\n"),
        "{md}"
    );
    let md = Formatter::for_agents()
        .tool("t", ToolOptions::new().max_rows(7))
        .format("t", &rows(500));
    assert!(md.starts_with("[Truncated to 7 rows of 500 total]"), "{md}");
}
