//! The agent preset (`Formatter::for_agents()`, SPEC section 16): exact outputs on recorded
//! API responses (what is kept, what is named as left out, how to get it), full detail, the
//! stored full result, and the property that every field of the input is either shown or
//! named in the left-out line.

use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Map, Value, json};
use tool_output_format::store::Fetch;
use tool_output_format::{
    Detail, Formatter,
    store::{MemoryStore, ResultStore},
};

fn api(name: &str) -> Value {
    let text = match name {
        "github_labels" => include_str!("../examples/data/api/github_labels.json"),
        "github_error_422" => include_str!("../examples/data/api/github_error_422.json"),
        "stripe_charge" => include_str!("../examples/data/api/stripe_charge.json"),
        "github_repository" => include_str!("../examples/data/api/github_repository.json"),
        "github_search_issues" => include_str!("../examples/data/api/github_search_issues.json"),
        "github_events" => include_str!("../examples/data/api/github_events.json"),
        "k8s_pod_list" => include_str!("../examples/data/api/k8s_pod_list.json"),
        _ => unreachable!("not bundled: {name}"),
    };
    serde_json::from_str(text).expect("bundled data is JSON")
}

/// A list response: a compact table without the API URLs and node ids, named in the line.
#[test]
fn github_labels_exact() {
    let md = Formatter::for_agents().format("list_labels", &api("github_labels"));
    assert_eq!(
        md,
        "[Same on all 9 rows: default: true]\n\n\
         |name|id|description|color|\n\
         |-|-|-|-|\n\
         |bug|1000|Something isn't working|d73a4a|\n\
         |documentation|1001|Improvements or additions to documentation|0075ca|\n\
         |duplicate|1002|This issue or pull request already exists|cfd3d7|\n\
         |enhancement|1003|New feature or request|a2eeef|\n\
         |good first issue|1004|Good for newcomers|7057ff|\n\
         |help wanted|1005|Extra attention is needed|008672|\n\
         |invalid|1006|This doesn't seem right|e4e669|\n\
         |question|1007|Further information is requested|d876e3|\n\
         |wontfix|1008|This will not be worked on|ffffff|\n\n\
         [Left out in summary detail: machine-only: url, node_id. \
         Call list_labels(detail=\"full\") for them]"
    );
}

/// A small table keeps a machine-only column folded only when the left-out line is shorter
/// than the cells it stands for. With long values the unfolded table is not even rendered
/// (the cells' least length outweighs the line; debug builds render it anyway and check that
/// it is longer); with short ones the unfolded table is shorter and shown.
#[test]
fn a_small_table_folds_a_column_only_when_the_line_is_shorter() {
    let fmt = Formatter::for_agents();
    let rows = |url: &dyn Fn(usize) -> String| {
        Value::Array((0..12).map(|i| json!({"id": i, "url": url(i)})).collect())
    };
    let long = rows(&|i| format!("https://api.github.com/repos/o/r/labels/{i}"));
    let mut expected = String::from("|id|\n|-|\n");
    for i in 0..12 {
        expected += &format!("|{i}|\n");
    }
    expected += "\n[Left out in summary detail: machine-only: url. \
                 Call list_labels(detail=\"full\") for them]";
    assert_eq!(fmt.format("list_labels", &long), expected);
    let short = fmt.format("list_labels", &rows(&|i| format!("u{i}")));
    assert!(short.starts_with("|id|url|\n|-|-|\n|0|u0|\n"), "{short}");
    assert!(!short.contains("Left out"), "{short}");
}

/// An error body whose only machine-only field is one URL: the left-out line naming it
/// would cost more than the URL, so the preset folds nothing and shows it all (the text and
/// the structured form alike).
#[test]
fn github_error_422_exact() {
    let v = api("github_error_422");
    let md = Formatter::for_agents().format("create_label", &v);
    assert_eq!(
        md,
        "**create_label result**\n\n\
         - message: Validation Failed\n\
         - documentation_url: https://docs.github.com/rest/reference/issues#create-a-label\n\
         - errors:\n\n  \
           |code|resource|field|\n  |-|-|-|\n  |invalid|Label|color|"
    );
    assert_eq!(
        Formatter::for_agents().format_json("create_label", &v),
        json!({"result": v, "notices": []})
    );
    // The same error with a long API URL folds it (and names it); a page for people, however
    // long, is shown.
    let mut page = v.clone();
    let docs = format!("https://docs.github.com/{}", "x".repeat(120));
    page["documentation_url"] = json!(docs);
    let md = Formatter::for_agents().format("create_label", &page);
    assert!(md.contains(&docs) && !md.contains("Left out"), "{md}");
    let mut long = v.clone();
    long["documentation_url"] = json!(format!("https://api.github.com/{}", "x".repeat(120)));
    let md = Formatter::for_agents().format("create_label", &long);
    assert!(
        md.ends_with(
            "[Left out in summary detail: machine-only: documentation_url. \
         Call create_label(detail=\"full\") for them]"
        ),
        "{md}"
    );
}

#[test]
fn stripe_charge_exact() {
    let md = Formatter::for_agents().format("get_charge", &api("stripe_charge"));
    assert_eq!(
        md,
        "**get_charge result**\n\n\
         - id: ch_3MmlLrLkdIwHu7ix0snN0B15\n\
         - status: succeeded\n\
         - amount: 1099\n\
         - currency: usd\n\
         - outcome:\n  \
           - network_status: approved_by_network\n  \
           - type: authorized\n  \
           - seller_message: Payment complete.\n  \
           - risk_level: normal\n  \
           - risk_score: 32\n\
         - paid: true\n\
         - payment_method_details:\n  \
           - type: card\n  \
           - card:\n    \
             - brand: visa\n    \
             - country: US\n    \
             - exp_month: 3\n    \
             - exp_year: 2024\n    \
             - fingerprint: mToisGZ01V71BCos\n    \
             - funding: credit\n    \
             - last4: 4242\n    \
             - network: visa\n\
         - receipt_url: https://pay.stripe.com/receipts/payment/CAcaFwoVYWNjdF8xTTJKVGtMa2RJd0h1N2l4KOvG06AGMgZfBXyr1aw6LBa9vaaSRWU96d8qBwz9z2J_CObiV_H2-e8RezSK_sw0KISesp4czsOUlVKY\n\
         - created: 1679090539\n\
         - object: charge\n\
         - amount_captured: 1099\n\
         - balance_transaction: txn_3MmlLrLkdIwHu7ix0uke3Ezy\n\
         - calculated_statement_descriptor: Stripe\n\
         - captured: true\n\
         - payment_method: card_1MmlLrLkdIwHu7ixIJwEWSNR\n\
         - amount_refunded: 0\n\
         - disputed: false\n\
         - livemode: false\n\
         - refunded: false\n\n\
         [Left out in summary detail: empty: receipt_number, outcome.reason, description, \
         failure_message, customer, application, application_fee, application_fee_amount \
         and 21 more. Call get_charge(detail=\"full\") for them]"
    );
}

/// Full detail (what the tool renders for `detail="full"`) shows every field: the compact
/// layout of the default formatter, no left-out line.
#[test]
fn full_detail_shows_everything() {
    let v = api("github_repository");
    let full = Formatter::for_agents()
        .detail(Detail::Full)
        .format("get_repo", &v);
    assert!(!full.contains("[Left out"));
    assert!(full.contains("- node_id: MDA6RW50aXR5MQ=="), "{full}");
    // Empty fields are shown too, on the record's `(empty)` line (the compact layout).
    let empty_line = full
        .lines()
        .find(|l| l.starts_with("- (empty): "))
        .expect("an (empty) line");
    assert!(empty_line.contains("homepage"), "{full}");
    assert!(full.contains("- owner: (same as organization)"), "{full}");
    let summary = Formatter::for_agents().format("get_repo", &v);
    assert!(summary.len() * 3 < full.len());
}

/// With a store, the full result is stored whenever fields are folded, the line says so and
/// the Next line fetches what was folded (the cursor names it), and only that.
#[test]
fn with_a_store_the_full_result_holds_them() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fmt = Formatter::for_agents().store(store.clone(), "get_stored_result");
    let mut v = api("github_error_422");
    v["url"] = json!("https://api.github.com/repos/o/r/labels");
    let out = fmt.format_with_report("create_label", &v);
    let reference = out.report.reference.clone().expect("stored");
    assert!(
        out.text.ends_with(&format!(
            "[Left out in summary detail: machine-only: url. \
             They are in the stored full result]\n\
             Next: call get_stored_result(ref=\"{reference}\", cursor=\"/~v0;+url\")"
        )),
        "{}",
        out.text
    );
    assert_eq!(store.get(&reference).unwrap(), v);
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    let page = fetch.call(&reference, Some("/~v0;+url"), None);
    assert!(
        page.contains("https://api.github.com/repos/o/r/labels") && !page.contains("Validation"),
        "{page}"
    );
    // Nothing folded: nothing stored, no lines.
    let out = fmt.format_with_report("t", &json!({"id": 1}));
    assert_eq!(out.text, "**t result**\n\n- id: 1");
    assert!(out.report.reference.is_none());
}

// ---- every field is either shown or named --------------------------------------------

const KEYS: &[&str] = &[
    "id",
    "name",
    "url",
    "html_url",
    "node_id",
    "gravatar_id",
    "note",
    "owner",
    "tags",
];

/// The keys the preset folds as machine-only: API endpoints, not a resource's page for
/// people (`html_url` and the like are shown, SPEC 20).
fn machine(key: &str) -> bool {
    let page_for_people = matches!(key, "html_url" | "web_url" | "permalink_url");
    !page_for_people
        && (key == "url" || key.ends_with("_url") || key == "node_id" || key == "gravatar_id")
}

fn tree() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        Just(json!("")),
        Just(json!([])),
        Just(json!({})),
        Just(json!("x")),
        Just(json!("x")),
    ];
    leaf.prop_recursive(3, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec((prop::sample::select(KEYS), inner.clone()), 0..5).prop_map(
                |kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            ),
            prop::collection::vec(inner, 0..3).prop_map(Value::Array),
        ]
    })
}

fn object(tree: impl Strategy<Value = Value>) -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((prop::sample::select(KEYS), tree), 1..6)
        .prop_map(|kv| kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A record or a list of records.
fn input() -> impl Strategy<Value = Value> {
    prop_oneof![
        object(tree()).prop_map(Value::Object),
        prop::collection::vec(object(tree()), 1..5)
            .prop_map(|rows| Value::Array(rows.into_iter().map(Value::Object).collect())),
    ]
}

/// Every `"x"` becomes a unique value (`v1q`, `v2q`, ...) so a value shown is found once.
fn relabel(v: &mut Value, n: &mut usize) {
    match v {
        Value::String(s) if s == "x" => {
            *n += 1;
            *s = format!("v{n}q");
        }
        Value::Array(items) => items.iter_mut().for_each(|i| relabel(i, n)),
        Value::Object(m) => m.values_mut().for_each(|i| relabel(i, n)),
        _ => {}
    }
}

/// A value that holds no data: null, `""`, `[]`, `{}`, or an object whose every field holds
/// none (named as itself, not by its fields).
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_empty),
        _ => false,
    }
}

/// The left-out line's names: (machine-only keys, empty paths).
fn named(line: &str) -> (Vec<String>, Vec<String>) {
    let inner = line
        .strip_prefix("[Left out in summary detail: ")
        .expect("the line");
    let end = inner
        .find(". Call ")
        .or_else(|| inner.find(". Full detail"))
        .expect("how to get them");
    let (mut machine, mut empty) = (Vec::new(), Vec::new());
    for part in inner[..end].split("; ") {
        let names = |p: &str| p.split(", ").map(str::to_owned).collect::<Vec<_>>();
        if let Some(p) = part.strip_prefix("machine-only: ") {
            machine = names(p);
        } else if let Some(p) = part.strip_prefix("empty: ") {
            empty = names(p);
        }
    }
    (machine, empty)
}

/// Whether the field at `path` (key `key`, value `v`) is shown in `body` or named.
fn accounted(
    path: &str,
    key: &str,
    v: &Value,
    body: &str,
    names: &(Vec<String>, Vec<String>),
) -> bool {
    if machine(key) {
        // Named; or, when nothing was folded (folding would not have paid), shown.
        let nothing_folded = names.0.is_empty() && names.1.is_empty();
        return names.0.iter().any(|n| n == key) || (nothing_folded && body.contains(key));
    }
    if is_empty(v) {
        // Named, or shown as an empty cell of a column that is kept (filled in another row).
        return names.1.iter().any(|n| n == path) || body.contains(key);
    }
    match v {
        Value::String(s) => body.contains(s.as_str()),
        Value::Object(m) => m
            .iter()
            .all(|(k, x)| accounted(&format!("{path}.{k}"), k, x, body, names)),
        Value::Array(items) => items.iter().all(|x| match x {
            Value::Object(m) => m
                .iter()
                .all(|(k, y)| accounted(&format!("{path}.{k}"), k, y, body, names)),
            other => accounted(path, key, other, body, names),
        }),
        _ => true,
    }
}

proptest! {
    #![proptest_config(Config {
        cases: 1_500,
        rng_seed: RngSeed::Fixed(23),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn every_field_is_shown_or_named(mut v in input()) {
        relabel(&mut v, &mut 0);
        let text = Formatter::for_agents().max_lines(usize::MAX).format("t", &v);
        let (body, line) = match text.find("\n\n[Left out in summary detail: ") {
            Some(i) => (&text[..i], &text[i + 2..]),
            None => (text.as_str(), ""),
        };
        // Short lists only (long ones end with a count; see the unit test of the line).
        prop_assume!(!line.contains(" more. "));
        let names = if line.is_empty() { (Vec::new(), Vec::new()) } else { named(line) };
        let rows: Vec<&Map<String, Value>> = match &v {
            Value::Object(m) => vec![m],
            Value::Array(items) => items.iter().filter_map(Value::as_object).collect(),
            _ => unreachable!(),
        };
        for row in rows {
            for (k, x) in row {
                prop_assert!(
                    accounted(k, k, x, body, &names),
                    "`{}` = {} neither shown nor named in:\n{}", k, x, text
                );
            }
        }
        // And nothing is named that the input does not have.
        for key in &names.0 {
            prop_assert!(v.to_string().contains(&format!("\"{key}\":")), "{key} named but absent");
        }
    }
}

/// The property can fail: a line that forgets a name is caught.
#[test]
fn the_property_catches_a_silent_drop() {
    // A URL long enough that folding it pays.
    let v = json!({"id": "v1q", "url": format!("https://api.example.com/{}", "u".repeat(120)), "note": null});
    let text = Formatter::for_agents().format("t", &v);
    let (body, line) = text
        .split_once("\n\n")
        .map(|(_, r)| r.split_once("\n\n").unwrap())
        .unwrap();
    let names = named(line);
    assert!(accounted("url", "url", &v["url"], body, &names));
    let forgetful =
        named("[Left out in summary detail: empty: note. Call t(detail=\"full\") for them]");
    assert!(!accounted("url", "url", &v["url"], body, &forgetful));
}

/// The structured form names the folded fields too: a notice of kind `left_out` whose text
/// is the line.
#[test]
fn the_structured_form_names_them() {
    let mut v = api("github_error_422");
    let url = format!("https://api.github.com/{}", "x".repeat(120));
    v["documentation_url"] = json!(url);
    let out = Formatter::for_agents().format_json("create_label", &v);
    assert_eq!(
        out,
        json!({
            "result": {"message": "Validation Failed",
                       "errors": [{"resource": "Label", "code": "invalid", "field": "color"}]},
            "notices": [{"kind": "left_out", "path": "",
                         "text": "[Left out in summary detail: machine-only: documentation_url. \
                                  Call create_label(detail=\"full\") for them]"}]
        })
    );
}

/// Seed 003's "link to the interface" (SPEC 20): a resource's page for people is shown, its
/// API endpoints folded, on every recorded GitHub response that has one.
#[test]
fn the_preset_shows_the_page_for_people_and_folds_api_endpoints() {
    fn pages(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match x {
                        Value::String(url) if k == "html_url" => out.push(url.clone()),
                        _ => pages(x, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|x| pages(x, out)),
            _ => {}
        }
    }
    for name in ["github_repository", "github_search_issues", "github_events"] {
        let v = api(name);
        let mut urls = Vec::new();
        pages(&v, &mut urls);
        assert!(!urls.is_empty(), "{name} has html_url fields");
        let md = Formatter::for_agents()
            .max_lines(usize::MAX)
            .format("t", &v);
        for url in &urls {
            assert!(md.contains(url.as_str()), "{name}: {url} not shown:\n{md}");
        }
        let line = md
            .lines()
            .find(|l| l.starts_with("[Left out in summary detail: machine-only: "))
            .unwrap_or_else(|| panic!("{name}: API endpoints folded:\n{md}"));
        assert!(!line.contains("html_url"), "{name}: {line}");
        assert!(line.contains("url"), "{name}: {line}");
    }
}

/// A link a person opens is never folded as machine-only, whatever its key (SPEC 22): a
/// release page under `url` is shown, an API endpoint under `url` and an avatar are folded.
#[test]
fn a_page_under_any_key_is_shown_and_endpoints_and_images_fold() {
    let v = json!({
        "name": "v1.2.0",
        "url": "https://pypi.org/project/demo/1.2.0/",
        "release_url": "https://pypi.org/project/demo/1.2.0/#files",
        "api_url": "https://api.example.com/v2/projects/demo/releases/1.2.0/assets?per_page=100",
        "avatar_url": "https://avatars.example.com/u/1.png?size=460&version=4&format=png",
        "body": "Fixes the parser. ".repeat(8),
    });
    let md = Formatter::for_agents().format("get_release", &v);
    assert!(
        md.contains("- url: https://pypi.org/project/demo/1.2.0/\n"),
        "{md}"
    );
    assert!(
        md.contains("- release_url: https://pypi.org/project/demo/1.2.0/#files"),
        "{md}"
    );
    assert!(md.contains("machine-only: api_url, avatar_url."), "{md}");
}

/// A table narrowed by a budget keeps each row's page for people with what identifies it
/// and what it says, and leaves out the rest of its columns first (SPEC 22).
#[test]
fn a_narrowed_table_keeps_the_page_for_people() {
    let rows: Vec<Value> = (0..45)
        .map(|i| {
            json!({
                "id": format!("T-{i:04}"),
                "title": format!("Printer {i} jammed"),
                "meta": {"url": format!("https://api.example.com/t/{i}"), "shard": i % 3},
                "html_url": format!("https://desk.example.com/t/{i}"),
                "body": "The printer stops. ".repeat(8),
                "queue": format!("queue-{}", i % 7),
            })
        })
        .collect();
    let md = Formatter::for_agents()
        .max_chars(2500)
        .format("list_tickets", &Value::Array(rows));
    assert!(md.chars().count() <= 2500, "{}", md.chars().count());
    let header = md
        .lines()
        .find(|l| l.starts_with('|') && l.contains("|id|"))
        .expect("a table");
    assert!(header.contains("|html_url|"), "{md}");
    assert!(md.contains("|https://desk.example.com/t/0|"), "{md}");
    assert!(md.contains("[Columns left out to fit the budget: "), "{md}");
}

/// A budget that is never reached changes nothing in the preset's output (SPEC 20): the
/// folding rule decides the same with it as without it.
#[test]
fn a_budget_not_reached_changes_nothing() {
    for name in [
        "github_error_422",
        "stripe_charge",
        "github_labels",
        "github_repository",
    ] {
        let v = api(name);
        let free = Formatter::for_agents().format("t", &v);
        let budgeted = Formatter::for_agents()
            .max_chars(100_000_000)
            .format("t", &v);
        assert_eq!(budgeted, free, "{name}");
        let json_free = Formatter::for_agents().format_json("t", &v);
        let json_budgeted = Formatter::for_agents()
            .max_chars(100_000_000)
            .format_json("t", &v);
        assert_eq!(json_budgeted, json_free, "{name}");
    }
}

/// A list of records nested in a table's rows (a pod's containers) becomes columns of its
/// leaf paths, ranked like any column: no cell holds JSON text, at any budget (SPEC 22).
#[test]
fn a_nested_list_of_records_becomes_leaf_columns() {
    let pods = api("k8s_pod_list");
    for budget in [None, Some(4_000), Some(1_500)] {
        let fmt = match budget {
            Some(b) => Formatter::for_agents().max_chars(b),
            None => Formatter::for_agents(),
        };
        let md = fmt.format("list_pods", &pods);
        assert!(!md.contains("[{"), "{budget:?}: JSON text in a cell\n{md}");
        assert!(
            md.contains("nginx-deployment-66b6c48dd5-4jw2p"),
            "{budget:?}\n{md}"
        );
        if budget != Some(1_500) {
            assert!(
                md.contains("spec.containers.image: nginx:1.14.2"),
                "{budget:?}\n{md}"
            );
        }
    }
    let md = Formatter::for_agents().format("list_pods", &pods);
    // A leaf of a list lists its records' values in order.
    assert!(
        md.contains("status.conditions.type: Initialized, Ready, ContainersReady, PodScheduled")
            || md.contains("|Initialized, Ready, ContainersReady, PodScheduled|"),
        "{md}"
    );
}
