//! Shaping untyped results: three order systems normalised to one canonical
//! table, a GitHub-style issue search trimmed with keep / drop / rename, and the o200k token
//! report of shaping on the bundled API responses.
//!
//! Run with `cargo run --release --example shaping` (it also runs as a test). Tokens are
//! counted with [`tool_output_format::O200k`]; JSON is `serde_json::to_string` (compact),
//! TOON is `toon_format::encode_default`, markdown is the compact layout with nothing cut.

use serde_json::Value;
use tool_output_format::{Convert, Formatter, Layout, O200k, Shape, TokenCounter, ToolOptions};

const LEGACY: &str = include_str!("data/orders_legacy.json");
const V2: &str = include_str!("data/orders_v2.json");
const V3: &str = include_str!("data/orders_v3.json");
const ISSUES: &str = include_str!("data/issues_30.json");
const SEARCH: &str = include_str!("data/search_page.json");
const CONTACTS: &str = include_str!("data/contacts_raw.json");
const REPOS: &str = include_str!("data/repos_100.json");
const EMPLOYEES: &str = include_str!("data/employees_100.json");

/// The legacy system: integer ids, status codes, Unix seconds, cents.
fn legacy() -> Shape {
    Shape::new()
        .keep(["order_id", "status", "created_ts", "total_cents"])
        .rename("created_ts", "created_at")
        .rename("total_cents", "amount")
        .convert("order_id", Convert::prefix("ORD-"))
        .convert(
            "status",
            Convert::map([
                (1, "pending"),
                (2, "processing"),
                (3, "shipped"),
                (4, "delivered"),
                (5, "cancelled"),
            ]),
        )
        .convert("created_ts", Convert::EpochSeconds)
        .convert("total_cents", Convert::Cents)
}

/// The v2 system: camelCase, amounts as floats.
fn v2() -> Shape {
    Shape::new()
        .keep(["orderId", "status", "createdAt", "totalAmount"])
        .rename("orderId", "order_id")
        .rename("createdAt", "created_at")
        .rename("totalAmount", "amount")
        .convert("orderId", Convert::prefix("ORD-"))
        .convert("createdAt", Convert::Timestamp)
        .convert("totalAmount", Convert::Fixed(2))
}

/// The v3 system, as a shape file (what `tof --shape` and non-Rust hosts load).
fn v3() -> Shape {
    Shape::from_json_str(
        r#"{
            "keep": ["id", "order_status", "creation_date", "amount"],
            "rename": {"id": "order_id", "order_status": "status", "creation_date": "created_at"},
            "convert": {
                "id": {"prefix": "ORD-"},
                "order_status": {"map": {"pending": "pending", "in_transit": "shipped",
                                         "fulfilled": "delivered", "voided": "cancelled"}},
                "creation_date": "timestamp",
                "amount": {"fixed": 2}
            }
        }"#,
    )
    .expect("the v3 shape file is valid")
}

/// Link noise dropped at every depth.
fn generic() -> Shape {
    Shape::new().drop(["*_url", "url", "node_id"])
}

/// What an agent triaging issues needs, in seven fields.
fn issue_fields() -> Shape {
    Shape::new()
        .keep([
            "number",
            "title",
            "state",
            "user.login",
            "labels.name",
            "comments",
            "created_at",
        ])
        .rename("user.login", "author")
        .rename("labels.name", "labels")
        .convert("created_at", Convert::Timestamp)
}

/// A response, its JSON text, and the shapes measured on it.
type Case = (&'static str, &'static str, Vec<(&'static str, Shape)>);

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("bundled data is JSON")
}

fn main() {
    // 1. Three order systems, one canonical table.
    let fmt = Formatter::new()
        .layout(Layout::Compact)
        .max_rows(3)
        .tool("orders_legacy", ToolOptions::new().shape(legacy()))
        .tool("orders_v2", ToolOptions::new().shape(v2()))
        .tool("orders_v3", ToolOptions::new().shape(v3()));
    for (tool, text) in [
        ("orders_legacy", LEGACY),
        ("orders_v2", V2),
        ("orders_v3", V3),
    ] {
        let out = fmt.format_with_report(tool, &parse(text));
        println!("## {tool}\n\n{}\n", out.text);
        assert!(out.text.contains("\n|order_id|status|created_at|amount|\n"));
        assert_eq!(
            out.report
                .shape
                .as_ref()
                .map_or(0, |s| s.conversions_failed),
            0
        );
    }

    // 2. An issue search: keep, drop, rename, convert.
    let fmt = Formatter::new()
        .layout(Layout::Compact)
        .max_rows(5)
        .max_cell_chars(40)
        .tool("search_issues", ToolOptions::new().shape(issue_fields()));
    let issues = parse(ISSUES);
    let md = fmt.format("search_issues", &issues);
    println!("## search_issues (keep 7 fields)\n\n{md}\n");
    assert!(md.contains("|number|title|state|author|labels|comments|created_at|"));

    // 3. The token report.
    println!("## Tokens (o200k)\n");
    println!(
        "| response | shaping | JSON | TOON | markdown | markdown / JSON of the raw response |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    let contacts_fields = Shape::new().keep([
        "Name",
        "Email",
        "Phone",
        "Account.Name",
        "Account.Industry",
        "CreatedDate",
        "LastActivityDate",
    ]);
    let cases: Vec<Case> = vec![
        ("issues_30", ISSUES, {
            let mut v = generic_rows();
            v.push(("keep 7 fields", issue_fields()));
            v
        }),
        ("search_page", SEARCH, generic_rows()),
        ("contacts_raw", CONTACTS, {
            let mut v = generic_rows();
            v.push(("keep 7 fields", contacts_fields));
            v
        }),
        ("repos_100", REPOS, generic_rows()),
        ("employees_100", EMPLOYEES, generic_rows()),
        ("orders_legacy", LEGACY, vec![("canonical", legacy())]),
        ("orders_v2", V2, vec![("canonical", v2())]),
        ("orders_v3", V3, vec![("canonical", v3())]),
    ];
    let md_fmt = Formatter::new()
        .layout(Layout::Compact)
        .max_lines(usize::MAX);
    let o200k = O200k;
    let (mut raw_total, mut md_raw_total) = (0, 0);
    for (name, text, shapes) in cases {
        let raw = parse(text);
        let json_raw = o200k.count(&serde_json::to_string(&raw).unwrap());
        let md_raw = o200k.count(&md_fmt.format("", &raw));
        raw_total += json_raw;
        md_raw_total += md_raw;
        let toon_raw = toon(&raw);
        println!(
            "| {name} | none | {json_raw} | {toon_raw} | {md_raw} | {:.2}x |",
            md_raw as f64 / json_raw as f64
        );
        for (label, shape) in shapes {
            let shaped = shape.apply(&raw);
            let json = o200k.count(&serde_json::to_string(&shaped).unwrap());
            let out = md_fmt.clone().shape(shape).format_with_report("", &raw);
            assert_eq!(
                out.report
                    .shape
                    .as_ref()
                    .map_or(0, |s| s.conversions_failed),
                0,
                "{name} {label}"
            );
            let md = o200k.count(&out.text);
            println!(
                "| {name} | {label} | {json} | {} | {md} | {:.2}x |",
                toon(&shaped),
                md as f64 / json_raw as f64
            );
        }
    }
    println!(
        "\nAll responses unshaped: JSON {raw_total}, markdown {md_raw_total} ({:.2}x).",
        md_raw_total as f64 / raw_total as f64
    );
}

/// The generic rules, each on top of the last.
fn generic_rows() -> Vec<(&'static str, Shape)> {
    vec![
        ("drop urls, node_id", generic()),
        ("+ drop_empty", generic().drop_empty()),
        ("+ flatten", generic().drop_empty().flatten()),
    ]
}

/// TOON tokens of a value (`-` when the encoder refuses it).
fn toon(v: &Value) -> String {
    match toon_format::encode_default(v) {
        Ok(t) => O200k.count(&t).to_string(),
        Err(_) => "-".into(),
    }
}
