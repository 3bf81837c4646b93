//! Lean records (the compact layout): empty fields grouped on one `(empty)` line, a nested
//! value that repeats an earlier sibling's written `(same as KEY)`. Exact outputs, the
//! escapes that keep the mapping invertible, and the cases where nothing may be named.

use serde::Serialize;
use serde_json::{Value, json};
use tof_support::gfm;
use tool_output_format::{Formatter, Layout, ToolOutput};

fn compact() -> Formatter {
    Formatter::new().layout(Layout::Compact)
}

#[test]
fn empty_fields_are_grouped_and_repeats_named() {
    let v = json!({
        "id": 7,
        "description": null,
        "owner": {"login": "octo", "id": 1},
        "homepage": "",
        "organization": {"login": "octo", "id": 1},
        "topics": [],
        "extra": {}
    });
    assert_eq!(
        compact().format("get_repo", &v),
        "**get_repo result**\n\n\
         - id: 7\n\
         - owner:\n  \
           - login: octo\n  \
           - id: 1\n\
         - organization: (same as owner)\n\
         - topics: []\n\
         - extra: {}\n\
         - (empty): description, homepage"
    );
    // The aligned layout keeps every field in place, written out.
    assert_eq!(
        Formatter::new().format("get_repo", &v),
        "**get_repo result**\n\n\
         - id: 7\n\
         - description:\n\
         - owner:\n  \
           - login: octo\n  \
           - id: 1\n\
         - homepage:\n\
         - organization:\n  \
           - login: octo\n  \
           - id: 1\n\
         - topics: []\n\
         - extra: {}"
    );
}

#[test]
fn one_empty_field_stays_in_place_and_nested_records_group_their_own() {
    let v = json!({"a": null, "b": 1, "addr": {"city": null, "zip": "", "country": "US"}});
    assert_eq!(
        compact().format("", &v),
        "- a:\n- b: 1\n- addr:\n  - country: US\n  - (empty): city, zip"
    );
}

#[test]
fn lists_and_tables_repeat_by_name_too() {
    let v = json!({
        "assignees": [{"login": "a"}, {"login": "b"}],
        "reviewers": [{"login": "a"}, {"login": "b"}],
        "tags": ["x", "y"],
        "labels": ["x", "y"],
    });
    // Scalar lists are one short line already: written out.
    assert_eq!(
        compact().format("", &v),
        "- assignees:\n\n  |login|\n  |-|\n  |a|\n  |b|\n\
         - reviewers: (same as assignees)\n\
         - tags: x, y\n\
         - labels: x, y"
    );
}

#[test]
fn literal_forms_are_escaped_and_invert() {
    let v = json!({"(empty)": "k", "note": "(same as owner)", "x": null, "y": null});
    let md = compact().format("", &v);
    assert_eq!(
        md,
        "- \\u{28}empty): k\n- note: \\u{28}same as owner)\n- (empty): x, y"
    );
    assert_eq!(gfm::unescape("\\u{28}same as owner)"), "(same as owner)");
    // A key with a comma cannot sit in the list: it stays in place.
    let v = json!({"a,b": null, "c": null, "d": null});
    assert_eq!(compact().format("", &v), "- a,b:\n- (empty): c, d");
}

#[test]
fn nothing_is_named_when_a_value_holds_a_cut() {
    // Equal after the row cap, different in the data: both written, each with its notice.
    let rows = |last: i64| json!([{"n": 1}, {"n": 2}, {"n": last}]);
    let v = json!({"a": rows(3), "b": rows(4)});
    let md = compact().max_rows(2).format("", &v);
    assert!(!md.contains("same as"), "{md}");
    assert_eq!(
        md.matches("[Truncated to 2 rows of 3 total]").count(),
        2,
        "{md}"
    );
    // Equal and cut the same way: still written out, since a cut hides what follows.
    let v = json!({"a": rows(3), "b": rows(3)});
    assert!(!compact().max_rows(2).format("", &v).contains("same as"));
    // Values shortened to fit a budget: nothing named.
    let long = "x".repeat(400);
    let v = json!({"a": {"s": long.clone(), "t": 1}, "b": {"s": long + "y", "t": 1}});
    let md = compact().max_chars(300).format("", &v);
    assert!(!md.contains("same as"), "{md}");
}

#[derive(Serialize, ToolOutput, Clone)]
struct User {
    login: String,
    id: u64,
}

#[derive(Serialize, ToolOutput)]
struct Repo {
    id: u64,
    description: Option<String>,
    homepage: Option<String>,
    owner: User,
    organization: User,
}

#[test]
fn typed_results_render_the_same_as_their_json() {
    let u = User {
        login: "octo".into(),
        id: 1,
    };
    let r = Repo {
        id: 7,
        description: None,
        homepage: None,
        owner: u.clone(),
        organization: u,
    };
    let v: Value = serde_json::to_value(&r).unwrap();
    let fmt = compact();
    assert_eq!(fmt.format("get", &r), fmt.format("get", &v));
    assert!(
        fmt.format("get", &r)
            .ends_with("- organization: (same as owner)\n- (empty): description, homepage")
    );
}

/// The composition matrix's untyped record exercises both rules, so every option set of the
/// matrix runs over them (secrets redacted inside the repeated value too).
#[test]
fn the_composition_matrix_record_runs_both_rules() {
    let v = tof_support::compose::ticket_value(0);
    let md = compact()
        .redact_keys(["password", "api_key"])
        .format("get_ticket", &v);
    assert!(md.contains("\n- origin: (same as meta)\n"), "{md}");
    assert!(md.ends_with("\n- (empty): assignee, due"), "{md}");
    assert!(!md.contains("SECRET"), "{md}");
}
