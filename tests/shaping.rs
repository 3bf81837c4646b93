//! Shapes through the formatter (SPEC section 11): exact shaped tables and records, typed
//! results shaped through their JSON form, the three order systems to one canonical table,
//! failed conversions in the report, and shapes together with budgets and redaction.

use serde_json::{Value, json};
use tool_output_format::{Convert, Formatter, Layout, Shape, ToolOptions, ToolOutput};

use tof_support::data::{
    CONTACTS_RAW as CONTACTS, ISSUES_30 as ISSUES, ORDERS_LEGACY as LEGACY, ORDERS_V2 as V2,
    ORDERS_V3 as V3,
};
use tof_support::shapes::{legacy_shape, v2_shape, v3_shape};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn compact() -> Formatter {
    Formatter::new()
        .layout(Layout::Compact)
        .max_lines(usize::MAX)
}

fn issue_shape() -> Shape {
    Shape::new()
        .keep([
            "number",
            "title",
            "state",
            "user.login",
            "labels.name",
            "created_at",
        ])
        .drop(["*_url", "node_id"])
        .rename("user.login", "author")
        .convert("created_at", Convert::Timestamp)
        .drop_empty()
}

#[test]
fn a_shaped_table_and_record_read_exactly() {
    let issues = json!([
        {"url": "https://api.example.com/1", "number": 1, "title": "Crash", "state": "open",
         "user": {"login": "ada", "avatar_url": "https://a.example.com/1"},
         "labels": [{"name": "bug"}, {"name": "docs"}], "created_at": "2023-12-22T01:00:00+01:00"},
        {"url": "https://api.example.com/2", "number": 2, "title": "Slow", "state": "closed",
         "user": {"login": "bo"}, "labels": [], "created_at": "2023-12-23 00:00:00+00:00"},
    ]);
    let fmt = Formatter::new().tool("search_issues", ToolOptions::new().shape(issue_shape()));
    assert_eq!(
        fmt.format("search_issues", &issues),
        "\
| number | title | state  | author | labels.name | created_at           |
|--------|-------|--------|--------|-------------|----------------------|
| 1      | Crash | open   | ada    | bug, docs   | 2023-12-22T00:00:00Z |
| 2      | Slow  | closed | bo     | []          | 2023-12-23T00:00:00Z |"
    );
    // One record: the empty `labels.name` is dropped (a record has no columns to keep).
    assert_eq!(
        fmt.format("search_issues", &issues[1]),
        "**search_issues result**\n\n- number: 2\n- title: Slow\n- state: closed\n- author: bo\n- created_at: 2023-12-23T00:00:00Z"
    );
    // Other tools are not shaped.
    assert!(fmt.format("other", &issues).contains("avatar_url"));
}

#[derive(ToolOutput)]
struct User {
    login: String,
    avatar_url: String,
}

#[derive(ToolOutput)]
#[tool_output(title = "Issue")]
struct Issue {
    number: u64,
    title: String,
    user: User,
    created_at: i64,
    html_url: String,
}

#[test]
fn a_typed_result_is_shaped_through_its_json_form() {
    let issues = vec![
        Issue {
            number: 7,
            title: "Crash".into(),
            user: User {
                login: "ada".into(),
                avatar_url: "https://a.example.com/1".into(),
            },
            created_at: 1_703_203_200,
            html_url: "https://example.com/7".into(),
        },
        Issue {
            number: 8,
            title: "Slow".into(),
            user: User {
                login: "bo".into(),
                avatar_url: "https://a.example.com/2".into(),
            },
            created_at: 1_703_289_600,
            html_url: "https://example.com/8".into(),
        },
    ];
    let shape = Shape::new()
        .drop(["*_url"])
        .rename("user.login", "author")
        .convert("created_at", Convert::EpochSeconds)
        .flatten();
    let fmt = compact().tool("issues", ToolOptions::new().shape(shape));
    assert_eq!(
        fmt.format("issues", &issues),
        "|number|title|user.author|created_at|\n|-|-|-|-|\n\
         |7|Crash|ada|2023-12-22T00:00:00Z|\n|8|Slow|bo|2023-12-23T00:00:00Z|"
    );
    // Through its JSON form the type's title gives way to the tool name, as for any record.
    assert_eq!(
        fmt.format("issues", &issues[0]),
        "**issues result**\n\n- number: 7\n- title: Crash\n- user:\n  - author: ada\n- created_at: 2023-12-22T00:00:00Z"
    );
    assert_eq!(
        fmt.format("issues", &issues[0]),
        fmt.format("issues", &issues[0].to_json())
    );
    // Unshaped, the type renders as itself.
    assert!(
        compact()
            .format("issues", &issues[0])
            .starts_with("**Issue**")
    );
}

fn orders_formatter() -> Formatter {
    compact()
        .tool("orders_legacy", ToolOptions::new().shape(legacy_shape()))
        .tool("orders_v2", ToolOptions::new().shape(v2_shape()))
        .tool("orders_v3", ToolOptions::new().shape(v3_shape()))
}

#[test]
fn three_order_systems_render_as_one_canonical_table() {
    let fmt = orders_formatter();
    // The classic order, once per system, reads identically (no title: tool names differ).
    let one = [
        (
            "orders_legacy",
            json!({"order_id": 12345, "status": 3, "created_ts": 1703203200, "total_cents": 4999}),
        ),
        (
            "orders_v2",
            json!({"orderId": "ORD-12345", "status": "shipped", "createdAt": "2023-12-22T00:00:00Z", "totalAmount": 49.99}),
        ),
        (
            "orders_v3",
            json!({"id": "12345", "order_status": "in_transit", "creation_date": "2023-12-22 00:00:00+00:00", "amount": "49.99"}),
        ),
    ];
    for (tool, order) in &one {
        let out = fmt.format_with_report(tool, order);
        assert_eq!(
            out.text.split_once("\n\n").unwrap().1,
            "- order_id: ORD-12345\n- status: shipped\n- created_at: 2023-12-22T00:00:00Z\n- amount: 49.99",
            "{tool}"
        );
        assert_eq!(
            out.report
                .shape
                .as_ref()
                .map_or(0, |s| s.conversions_failed),
            0
        );
    }
    // The three 50-row tables: one header, only canonical values, exact first rows.
    let statuses = ["pending", "processing", "shipped", "delivered", "cancelled"];
    let mut first_rows = Vec::new();
    for (tool, text) in [
        ("orders_legacy", LEGACY),
        ("orders_v2", V2),
        ("orders_v3", V3),
    ] {
        let out = fmt.format_with_report(tool, &parse(text));
        assert_eq!(
            out.report.shape.as_ref().map(|s| s.conversions_failed),
            Some(0)
        );
        let mut lines = out.text.lines();
        assert_eq!(
            lines.next(),
            Some("|order_id|status|created_at|amount|"),
            "{tool}"
        );
        assert_eq!(lines.next(), Some("|-|-|-|-|"));
        let rows: Vec<&str> = lines.collect();
        assert_eq!(rows.len(), 50, "{tool}");
        first_rows.push(rows[0].to_owned());
        for row in rows {
            let cells: Vec<&str> = row.trim_matches('|').split('|').collect();
            let [id, status, at, amount] = cells[..] else {
                panic!("{row}")
            };
            assert!(
                id.starts_with("ORD-") && id[4..].parse::<u32>().is_ok(),
                "{row}"
            );
            assert!(statuses.contains(&status), "{row}");
            assert!(at.len() == 20 && at.ends_with("T00:00:00Z"), "{row}");
            let (units, cents) = amount.split_once('.').unwrap();
            assert!(units.parse::<u64>().is_ok() && cents.len() == 2, "{row}");
        }
    }
    assert_eq!(
        first_rows,
        [
            "|ORD-12000|shipped|2023-12-22T00:00:00Z|1625.18|",
            "|ORD-13000|delivered|2024-01-01T00:00:00Z|1325.05|",
            "|ORD-14000|cancelled|2024-02-01T00:00:00Z|1585.71|",
        ]
    );
}

#[test]
fn failed_conversions_are_kept_and_counted() {
    let fmt = compact().tool("orders_legacy", ToolOptions::new().shape(legacy_shape()));
    let rows = json!([
        {"order_id": 1, "status": 3, "created_ts": 1703203200, "total_cents": 4999},
        {"order_id": 2, "status": 9, "created_ts": "yesterday", "total_cents": 12.5},
        {"order_id": 3, "status": 1, "created_ts": 0, "total_cents": -5},
    ]);
    let out = fmt.format_with_report("orders_legacy", &rows);
    assert_eq!(
        out.text,
        "|order_id|status|created_at|amount|\n|-|-|-|-|\n\
         |ORD-1|shipped|2023-12-22T00:00:00Z|49.99|\n\
         |ORD-2|9|yesterday|12.5|\n\
         |ORD-3|pending|1970-01-01T00:00:00Z|-0.05|"
    );
    assert_eq!(
        out.report
            .shape
            .as_ref()
            .map_or(0, |s| s.conversions_failed),
        3
    );
    let stats = out.report.shape.unwrap();
    assert_eq!(
        stats.first_failure.as_deref(),
        Some("`status`: map could not read 9")
    );
    assert!(out.report.shape_errors.is_empty());
    // Counted over every row, shown or not.
    let capped = fmt
        .clone()
        .max_rows(1)
        .format_with_report("orders_legacy", &rows);
    assert_eq!(
        capped
            .report
            .shape
            .as_ref()
            .map_or(0, |s| s.conversions_failed),
        3
    );
    // Plain `format` is the same text.
    assert_eq!(fmt.format("orders_legacy", &rows), out.text);
}

#[test]
fn an_invalid_shape_applies_its_valid_rules_and_reports_the_rest() {
    let shape = Shape::new()
        .keep(["id", "user..login", "name"])
        .drop(["**"]);
    assert!(shape.check().is_err());
    let fmt = compact().shape(shape);
    let out = fmt.format_with_report("", &json!([{"id": 1, "name": "a", "x": 2}]));
    assert_eq!(out.text, "|id|name|\n|-|-|\n|1|a|");
    let at: Vec<&str> = out.report.shape_errors.iter().map(|e| e.at()).collect();
    assert_eq!(at, ["keep[1]", "drop[0]"]);
}

#[test]
fn a_tool_shape_replaces_the_global_one() {
    let fmt = compact()
        .shape(Shape::new().drop(["secret_*"]))
        .tool("a", ToolOptions::new().shape(Shape::new().keep(["id"])))
        .tool("b", ToolOptions::new().shape(Shape::new()));
    let v = json!([{"id": 1, "secret_x": 2, "y": 3}]);
    assert_eq!(fmt.format("", &v), "|id|y|\n|-|-|\n|1|3|");
    assert_eq!(fmt.format("a", &v), "|id|\n|-|\n|1|");
    assert_eq!(fmt.format("b", &v), "|id|secret_x|y|\n|-|-|-|\n|1|2|3|");
}

#[test]
fn shape_budget_and_redaction_work_together() {
    let rows: Vec<Value> = (0..200)
        .map(|i| {
            json!({"id": i, "token": format!("tok-{i}"), "auth": {"api_key": format!("k-{i}"), "user": "ada"},
                   "created_ts": 1703203200 + i * 86400, "html_url": "https://example.com/x", "note": null})
        })
        .collect();
    let shape = shape_again();
    fn shape_again() -> Shape {
        Shape::new()
            .keep([
                "id",
                "token",
                "auth.api_key",
                "auth.user",
                "created_ts",
                "note",
            ])
            .rename("token", "t")
            .rename("created_ts", "created_at")
            .rename("auth.api_key", "key")
            .convert("created_ts", Convert::EpochSeconds)
            .drop_empty()
    }
    let fmt = compact()
        .redact_keys(["token", "api_key"])
        .tool("t", ToolOptions::new().shape(shape).max_chars(6000));
    let out = fmt.format_with_report("t", &rows);
    assert!(out.report.chars <= 6000, "{}", out.text);
    let mut lines = out.text.lines();
    let notice = lines.next().unwrap();
    assert!(
        notice.starts_with("[Truncated to ") && notice.ends_with(" rows of 200 total]"),
        "{notice}"
    );
    assert_eq!(lines.next(), Some(""));
    assert_eq!(lines.next(), Some("|id|t|key|auth.user|created_at|"));
    assert_eq!(lines.next(), Some("|-|-|-|-|-|"));
    assert_eq!(
        lines.next(),
        Some("|0|[redacted]|[redacted]|ada|2023-12-22T00:00:00Z|")
    );
    assert!(!out.text.contains("tok-") && !out.text.contains("k-1"));
    let kept = out.report.rows.unwrap();
    assert_eq!(kept.total, 200);
    assert_eq!(kept.kept, out.text.lines().count() - 4);
    // The rows a budget builds later (shaped on demand) are those of the whole table.
    let whole = compact()
        .redact_keys(["token", "api_key"])
        .tool("t", ToolOptions::new().shape(shape_again()))
        .format("t", &rows);
    let body = out.text.split_once("\n\n").unwrap().1;
    assert!(whole.starts_with(body), "{body}");
    assert!(kept.kept > 64, "{kept:?}"); // more than the first build
    // The same with a token budget.
    let fmt = compact().redact_keys(["token"]).tool(
        "t",
        ToolOptions::new()
            .shape(Shape::new().rename("token", "t").drop(["auth"]))
            .max_tokens(120),
    );
    let out = fmt.format_with_report("t", &rows);
    assert!(out.report.tokens.unwrap() <= 120);
    assert!(!out.text.contains("tok-"), "{}", out.text);
}

#[test]
fn flatten_splits_small_objects_and_keeps_wide_or_sparse_ones() {
    let issues = parse(ISSUES);
    let drop = Shape::new().drop(["*_url", "url", "node_id"]).drop_empty();
    let fmt = compact().shape(drop.clone().flatten());
    let md = fmt.format("", &issues);
    assert_eq!(
        md.lines().next().unwrap(),
        "|id|number|title|user.login|user.id|user.type|user.site_admin|labels|state|locked|comments|created_at|updated_at|author_association|body|reactions.total_count|reactions.+1|reactions.-1|reactions.heart|score|"
    );
    // Without the drop rules the user object has 18 keys: too wide, it stays one cell.
    let raw = compact().shape(Shape::new().flatten()).format("", &issues);
    assert!(raw.lines().next().unwrap().contains("|user|"));
    let contacts = parse(CONTACTS);
    let md = compact()
        .shape(Shape::new().drop_empty().flatten())
        .format("", &contacts);
    assert_eq!(
        md.lines().next().unwrap(),
        "|Id|Name|Email|Phone|AccountId|Account.Id|Account.Name|Account.Industry|\
         Account.AnnualRevenue|Account.NumberOfEmployees|Account.BillingAddress.city|\
         Account.BillingAddress.country|RecordTypeId|CreatedDate|LastModifiedDate|\
         SystemModstamp|LastActivityDate|IsDeleted|attributes.type|attributes.url|"
    );
}

/// A shape with no rules changes nothing, and (without `flatten`) the formatter's shaped walk
/// renders exactly what `Shape::apply` gives, on every bundled dataset.
#[test]
fn the_walk_agrees_with_apply_and_an_empty_shape_is_a_no_op() {
    let shapes = [
        Shape::new().drop(["*_url", "url", "node_id"]),
        Shape::new().drop(["*_url", "url", "node_id"]).drop_empty(),
        issue_shape(),
        Shape::new()
            .rename("id", "Id")
            .rename("Id", "id")
            .convert("amount", Convert::Fixed(1)),
        Shape::new()
            .keep(["Account.Name", "Name", "attributes"])
            .drop_empty(),
    ];
    for (name, text) in tof_support::data::ALL
        .iter()
        .chain([&("issues_30.json", ISSUES)])
    {
        let v = parse(text);
        let plain = compact().format("t", &v);
        assert_eq!(
            compact().shape(Shape::new()).format("t", &v),
            plain,
            "{name}"
        );
        for shape in &shapes {
            assert_eq!(
                compact().shape(shape.clone()).format("t", &v),
                compact().format("t", &shape.apply(&v)),
                "{name} {shape:?}"
            );
        }
    }
}

/// Rows wider than the few fields looked up by a search (an index finds their values), in
/// different key orders, with a rename that collides in some rows: every cell under its
/// column, the same as the shaped rows' own values.
#[test]
fn wide_rows_in_any_key_order_keep_every_cell_under_its_column() {
    let keys: Vec<String> = (0..40).map(|i| format!("k{i:02}")).collect();
    let rows: Vec<Value> = (0..6)
        .map(|r| {
            let mut order = keys.clone();
            if r % 2 == 1 {
                order.reverse();
            }
            let mut m = serde_json::Map::new();
            for k in &order {
                m.insert(k.clone(), json!(format!("{k}-r{r}")));
            }
            if r == 3 {
                // A field of its own under the rename's new name.
                m.insert("name".into(), json!("own"));
            }
            Value::Object(m)
        })
        .collect();
    let rows = Value::Array(rows);
    let shape = Shape::new().drop(["k39"]).rename("k00", "name");
    let shaped = shape.apply(&rows);
    let fmt = Formatter::new()
        .max_rows(usize::MAX)
        .tool("t", ToolOptions::new().shape(shape));
    let out = fmt.format_json("t", &rows);
    let got = out["result"].as_array().expect("rows");
    for (r, (row, want)) in got.iter().zip(shaped.as_array().unwrap()).enumerate() {
        for (k, v) in want.as_object().unwrap() {
            assert_eq!(&row[k], v, "row {r}, column {k}");
        }
        assert!(row.get("k39").is_none());
    }
    // Row 3 has its own `name`: `k00` keeps its name there, and the collision is counted.
    let want3 = shaped[3].as_object().unwrap();
    assert_eq!(want3["name"], json!("own"));
    assert_eq!(want3["k00"], json!("k00-r3"));
    assert_eq!(shaped[0]["name"], json!("k00-r0"));
    assert_eq!(shaped[1]["name"], json!("k00-r1"));
    assert_eq!(shaped[1]["k01"], json!("k01-r1"));
    assert_eq!(got.len(), 6);
}

/// A shaped record's changed objects (and, with `drop_empty`, its changed lists of records)
/// are built into the document from their shaped fields; at every depth, up to and past the
/// renderer's depth limit, that renders what shaping the value first and rendering the
/// result renders.
#[test]
fn shaping_in_the_walk_renders_what_shaping_first_renders_at_every_depth() {
    for shape in [
        Shape::new().drop(["x"]),
        Shape::new().drop(["x"]).drop_empty(),
    ] {
        walk_agrees_at_every_depth(&shape);
    }
}

fn walk_agrees_at_every_depth(shape: &Shape) {
    let shaped = Formatter::new().tool("t", ToolOptions::new().shape(shape.clone()));
    let plain = Formatter::new();
    for depth in [
        1,
        2,
        5,
        tool_output_format::doc::MAX_DEPTH - 1,
        tool_output_format::doc::MAX_DEPTH,
        tool_output_format::doc::MAX_DEPTH + 3,
    ] {
        let mut v = json!({"x": 0, "id": "leaf", "tags": ["a", "b"]});
        for level in 0..depth {
            // A list of records: a column emptied in every row, a nested object changed.
            let rows = json!([
                {"x": level, "e": null, "n": level, "o": {"x": 1, "k": "v"}},
                {"e": "", "n": "two", "late": [1, 2], "o": {"x": 2}},
            ]);
            v = json!({"x": level, "id": format!("level {level}"), "keep": {"n": level},
                       "rows": rows, "a": v});
        }
        assert_eq!(
            shaped.format("t", &v),
            plain.format("t", &shape.apply(&v)),
            "depth {depth}"
        );
        assert_eq!(
            shaped.format_json("t", &v),
            plain.format_json("t", &shape.apply(&v)),
            "depth {depth}"
        );
    }
}

/// Objects and lists of records a rule changed are written into table cells from their
/// shaped fields; past the depth limit, with the placeholder the built value gets. In a
/// table at the top and in one nested in a record, as text and as structured JSON, that is
/// what shaping first and rendering the result gives.
#[test]
fn a_changed_cell_past_the_depth_limit_writes_what_the_built_value_writes() {
    let shape = Shape::new().drop(["x"]).drop_empty();
    let shaped = Formatter::new().tool("t", ToolOptions::new().shape(shape.clone()));
    let plain = Formatter::new();
    let mut deep = json!({"x": 0, "leaf": "end"});
    for level in 0..40 {
        deep = json!({"x": level, "n": level, "e": null,
                      "rows": [{"x": 1, "e": null, "n": level}], "d": deep});
    }
    let rows = json!([{"id": 1, "deep": deep}, {"id": 2, "deep": {"x": 1, "k": "v"}}]);
    let record = json!({"id": "top", "x": 0, "rows": rows});
    for v in [rows, record] {
        assert_eq!(shaped.format("t", &v), plain.format("t", &shape.apply(&v)));
        assert_eq!(
            shaped.format_json("t", &v),
            plain.format_json("t", &shape.apply(&v))
        );
        let json = shaped.format_json("t", &v).to_string();
        assert!(json.contains("Truncated at depth"), "{json}");
    }
}
