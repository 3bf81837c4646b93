//! Lean records (the compact layout): empty fields grouped on one `(empty)` line, a nested
//! value that repeats an earlier sibling's written `(same as KEY)`, one that differs from it
//! in at most half its fields written `(same as KEY, except:)` above them. Exact outputs, the
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
         - (empty): description, homepage, topics, extra"
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
    assert!(
        typed_as_untyped(&r)
            .ends_with("- organization: (same as owner)\n- (empty): description, homepage")
    );
}

/// `t` in the compact layout, checked to be the same text as its JSON's; returns it.
fn typed_as_untyped<T: Serialize + ToolOutput>(t: &T) -> String {
    let v: Value = serde_json::to_value(t).unwrap();
    let md = compact().format("get", t);
    assert_eq!(md, compact().format("get", &v));
    md
}

/// The composition matrix's untyped record exercises the three rules, so every option set of the
/// matrix runs over them (secrets redacted inside the repeated value too).
#[test]
fn the_composition_matrix_record_runs_every_rule() {
    let v = tof_support::compose::ticket_value(0);
    let md = compact()
        .redact_keys(["password", "api_key"])
        .format("get_ticket", &v);
    assert!(md.contains("\n- origin: (same as meta)\n"), "{md}");
    assert!(
        md.contains("\n- escalation: (same as meta, except:)\n  - team: ops\n"),
        "{md}"
    );
    assert!(md.ends_with("\n- (empty): assignee, due"), "{md}");
    assert!(!md.contains("SECRET"), "{md}");
}

#[test]
fn near_repeats_are_written_as_their_difference() {
    let v = json!({
        "versions": {
            "6.0.0": {
                "name": "is-number",
                "version": "6.0.0",
                "license": "MIT",
                "dist": {"shasum": "aa", "fileCount": 4, "unpackedSize": 9615},
            },
            "7.0.0": {
                "name": "is-number",
                "version": "7.0.0",
                "license": "MIT",
                "dist": {"shasum": "bb", "fileCount": 4, "unpackedSize": 9615},
            },
        }
    });
    assert_eq!(
        compact().format("", &v),
        "- versions:\n  \
           - 6.0.0:\n    \
             - name: is-number\n    \
             - version: 6.0.0\n    \
             - license: MIT\n    \
             - dist:\n      \
               - shasum: aa\n      \
               - fileCount: 4\n      \
               - unpackedSize: 9615\n  \
           - 7.0.0: (same as 6.0.0, except:)\n    \
             - version: 7.0.0\n    \
             - dist: (same as in 6.0.0, except:)\n      \
               - shasum: bb"
    );
    // The aligned layout writes both out.
    assert!(!Formatter::new().format("", &v).contains("same as"));
}

#[test]
fn a_commit_committer_differs_from_its_author_in_the_date() {
    let v = json!({
        "author": {"name": "Mona", "email": "mona@example.com", "date": "2024-01-01"},
        "committer": {"name": "Mona", "email": "mona@example.com", "date": "2024-01-02"},
    });
    assert_eq!(
        compact().format("", &v),
        "- author:\n  \
           - name: Mona\n  \
           - email: mona@example.com\n  \
           - date: 2024-01-01\n\
         - committer: (same as author, except:)\n  \
           - date: 2024-01-02"
    );
}

#[test]
fn the_closest_earlier_record_is_named_and_only_when_it_pays() {
    let rec = |a: i64, b: i64, c: i64, d: i64| json!({"a": a, "b": b, "c": c, "d": d});
    let v = json!({
        "x": rec(1, 2, 3, 4),
        "y": rec(1, 9, 9, 4),
        "z": rec(1, 9, 9, 5),
        // Three of four differ from each: written out.
        "w": rec(7, 8, 7, 6),
    });
    let md = compact().format("", &v);
    assert!(
        md.contains("- y: (same as x, except:)\n  - b: 9\n  - c: 9\n"),
        "{md}"
    );
    // z is one field from y, two from x.
    assert!(md.contains("- z: (same as y, except:)\n  - d: 5\n"), "{md}");
    assert!(
        md.ends_with("- w:\n  - a: 7\n  - b: 8\n  - c: 7\n  - d: 6"),
        "{md}"
    );
    // Two fields are too few; other keys or another order are not compared.
    let v = json!({"p": {"a": 1, "b": 2}, "q": {"a": 1, "b": 3}});
    assert!(!compact().format("", &v).contains("same as"));
    let v = json!({"p": {"a": 1, "b": 2, "c": 3}, "q": {"b": 2, "a": 1, "c": 4}});
    assert!(!compact().format("", &v).contains("same as"));
    // The fields below a reference are grouped as usual.
    let v =
        json!({"p": {"a": 1, "b": 2, "c": 3, "d": 4}, "q": {"a": null, "b": "", "c": 3, "d": 4}});
    assert!(
        compact()
            .format("", &v)
            .ends_with("- q: (same as p, except:)\n  - (empty): a, b")
    );
}

#[test]
fn a_key_with_a_comma_is_never_named() {
    let r = json!({"a": 1, "b": 2, "c": 3});
    let v = json!({"x, except:": r.clone(), "y": r.clone(), "z": {"a": 1, "b": 2, "c": 4}});
    let md = compact().format("", &v);
    assert!(!md.contains("same as x"), "{md}");
    // y is named instead: it is the first candidate without a comma.
    assert!(md.ends_with("- z: (same as y, except:)\n  - c: 4"), "{md}");
}

#[test]
fn nothing_is_written_as_a_difference_when_a_value_holds_a_cut() {
    let long = "x".repeat(400);
    let v = json!({
        "a": {"s": long.clone(), "t": 1, "u": 2},
        "b": {"s": long + "y", "t": 1, "u": 3},
    });
    let md = compact().max_chars(300).format("", &v);
    assert!(!md.contains("same as"), "{md}");
    let rows = json!([{"n": 1}, {"n": 2}, {"n": 3}]);
    let v = json!({"a": {"r": rows.clone(), "t": 1, "u": 2}, "b": {"r": rows, "t": 1, "u": 3}});
    let md = compact().max_rows(2).format("", &v);
    assert!(!md.contains("same as"), "{md}");
}

#[derive(Serialize, ToolOutput, Clone)]
struct Signature {
    name: String,
    email: String,
    date: String,
}

#[derive(Serialize, ToolOutput)]
struct Commit {
    sha: String,
    author: Signature,
    committer: Signature,
}

#[test]
fn typed_near_repeats_render_the_same_as_their_json() {
    let author = Signature {
        name: "Mona".into(),
        email: "mona@example.com".into(),
        date: "2024-01-01".into(),
    };
    let c = Commit {
        sha: "abc".into(),
        committer: Signature {
            date: "2024-01-02".into(),
            ..author.clone()
        },
        author,
    };
    assert!(typed_as_untyped(&c).contains("- committer: (same as author, except:)\n"));
}

/// The bundled npm packument: its second version is written as its difference from the
/// first, and the oracle (tables, items, code blocks re-parsed by two GFM parsers) agrees.
#[test]
fn the_packument_s_second_version_is_its_difference() {
    let v: Value =
        serde_json::from_str(include_str!("../examples/data/api/npm_packument.json")).unwrap();
    let o = tof_support::check::Opts {
        layout: Layout::Compact,
        tool: "get".into(),
        ..Default::default()
    };
    let md = tof_support::check::render_and_check(&v, &o).unwrap();
    assert!(
        md.contains(
            "  - 7.0.0: (same as 6.0.0, except:)\n    \
               - version: 7.0.0\n    \
               - _id: is-number@7.0.0\n    \
               - dist: (same as in 6.0.0, except:)\n      \
                 - shasum: 24fd6201a4782cf50561c810276afc7d12d71bc7\n      \
                 - tarball: https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz\n\
             - time:\n"
        ),
        "{md}"
    );
}

/// A record that holds no data (its fields null, empty or such records) is named on the
/// `(empty)` line as itself, not by its fields.
#[test]
fn a_record_that_holds_no_data_is_named_as_empty() {
    let v = json!({
        "id": "ch_1",
        "billing": {"address": {"city": null, "line1": ""}, "email": null},
        "metadata": {},
        "outcome": {"type": "authorized", "reason": null}
    });
    assert_eq!(
        compact().format("", &v),
        "- id: ch_1\n\
         - outcome:\n  \
           - type: authorized\n  \
           - reason:\n\
         - (empty): billing, metadata"
    );
}

/// A nested record's fields equal to the top-level record's fields of the same names (two
/// or more, text or blocks) are named on one line; a scalar that is not text stays.
#[test]
fn fields_equal_to_the_top_level_are_named_once() {
    let v = json!({
        "name": "is-number",
        "license": "MIT",
        "author": {"name": "Jon", "url": "https://github.com/jon"},
        "private": false,
        "versions": {
            "7.0.0": {
                "version": "7.0.0",
                "license": "MIT",
                "author": {"name": "Jon", "url": "https://github.com/jon"},
                "private": false
            }
        }
    });
    assert_eq!(
        compact().format("", &v),
        "- name: is-number\n\
         - license: MIT\n\
         - author:\n  \
           - name: Jon\n  \
           - url: https://github.com/jon\n\
         - private: false\n\
         - versions:\n  \
           - 7.0.0:\n    \
             - version: 7.0.0\n    \
             - private: false\n    \
             - (same as the top level): license, author"
    );
    // One equal field is written out (the line would cost as much).
    let one = json!({"license": "MIT", "v": {"license": "MIT", "version": "1"}});
    assert_eq!(
        compact().format("", &one),
        "- license: MIT\n- v:\n  - license: MIT\n  - version: 1"
    );
    // A literal key that reads as the line is escaped.
    let literal = json!({"a": {"(same as the top level)": "x"}});
    assert_eq!(
        compact().format("", &literal),
        "- a:\n  - \\u{28}same as the top level): x"
    );
}
