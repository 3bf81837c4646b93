//! Shape behaviour on small inline records and on the bundled corpus (tests/data).

use super::*;
use serde_json::json;

const LEGACY: &str = include_str!("../../../tests/data/orders_legacy.json");
const V2: &str = include_str!("../../../tests/data/orders_v2.json");
const V3: &str = include_str!("../../../tests/data/orders_v3.json");
const ISSUES: &str = include_str!("../../../tests/data/issues_30.json");
const SEARCH: &str = include_str!("../../../tests/data/search_page.json");

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

// ---- the three order systems --------------------------------------------------------------

include!("../../../tests/data/order_shapes.rs");

#[test]
fn the_classic_order_renders_identically_through_three_shapes() {
    let legacy =
        json!({"order_id": 12345, "status": 3, "created_ts": 1703203200, "total_cents": 4999});
    let v2 = json!({"orderId": "ORD-12345", "status": "shipped", "createdAt": "2023-12-22T00:00:00Z", "totalAmount": 49.99});
    let v3 = json!({"id": "12345", "order_status": "in_transit", "creation_date": "2023-12-22 00:00:00+00:00", "amount": "49.99"});
    let canonical = json!({"order_id": "ORD-12345", "status": "shipped", "created_at": "2023-12-22T00:00:00Z", "amount": "49.99"});
    let shaped = [
        legacy_shape().apply(&legacy),
        v2_shape().apply(&v2),
        v3_shape().apply(&v3),
    ];
    let fmt = crate::Formatter::new();
    for one in &shaped {
        assert_eq!(one, &canonical);
        assert_eq!(
            fmt.format("get_order", one),
            "**get_order result**\n\n- order_id: ORD-12345\n- status: shipped\n- created_at: 2023-12-22T00:00:00Z\n- amount: 49.99"
        );
    }
}

#[test]
fn three_corpus_systems_give_one_canonical_table() {
    let systems = [
        (legacy_shape(), parse(LEGACY)),
        (v2_shape(), parse(V2)),
        (v3_shape(), parse(V3)),
    ];
    let statuses = ["pending", "processing", "shipped", "delivered", "cancelled"];
    let mut tables = Vec::new();
    for (shape, raw) in &systems {
        let mut stats = ShapeStats::default();
        let table = shape.apply_with_stats(raw, &mut stats);
        assert_eq!(stats, ShapeStats::default(), "every value read");
        let rows = table.as_array().unwrap();
        assert_eq!(rows.len(), 50);
        for row in rows {
            let row = row.as_object().unwrap();
            assert_eq!(
                row.keys().collect::<Vec<_>>(),
                ["order_id", "status", "created_at", "amount"]
            );
            let id = row["order_id"].as_str().unwrap();
            assert!(
                id.strip_prefix("ORD-")
                    .unwrap()
                    .bytes()
                    .all(|b| b.is_ascii_digit()),
                "{id}"
            );
            assert!(
                statuses.contains(&row["status"].as_str().unwrap()),
                "{row:?}"
            );
            let at = row["created_at"].as_str().unwrap();
            assert_eq!(at.len(), 20, "{at}");
            assert!(at.ends_with("T00:00:00Z"), "{at}");
            let amount = row["amount"].as_str().unwrap();
            let (units, cents) = amount.split_once('.').unwrap();
            assert!(
                units.bytes().all(|b| b.is_ascii_digit()) && cents.len() == 2,
                "{amount}"
            );
        }
        tables.push(table);
    }
    // Where the systems hold the same facts, the canonical values agree with the raw ones.
    let (legacy, v2, v3) = (parse(LEGACY), parse(V2), parse(V3));
    for (raw, row) in legacy
        .as_array()
        .unwrap()
        .iter()
        .zip(tables[0].as_array().unwrap())
    {
        assert_eq!(row["order_id"], json!(format!("ORD-{}", raw["order_id"])));
        let cents: String = row["amount"].as_str().unwrap().replace('.', "");
        assert_eq!(
            cents.parse::<u64>().unwrap(),
            raw["total_cents"].as_u64().unwrap()
        );
    }
    for (raw, row) in v2
        .as_array()
        .unwrap()
        .iter()
        .zip(tables[1].as_array().unwrap())
    {
        assert_eq!(row["order_id"], raw["orderId"]);
        assert_eq!(row["status"], raw["status"]);
        assert_eq!(row["created_at"], raw["createdAt"]);
        assert_eq!(
            row["amount"],
            json!(format!("{:.2}", raw["totalAmount"].as_f64().unwrap()))
        );
    }
    for (raw, row) in v3
        .as_array()
        .unwrap()
        .iter()
        .zip(tables[2].as_array().unwrap())
    {
        assert_eq!(row["amount"], raw["amount"]);
        let date = &raw["creation_date"].as_str().unwrap()[..10];
        assert_eq!(row["created_at"], json!(format!("{date}T00:00:00Z")));
    }
    // Exact first rows (checked by hand against the raw files).
    assert_eq!(
        tables.iter().map(|t| t[0].clone()).collect::<Vec<_>>(),
        [
            json!({"order_id": "ORD-12000", "status": "shipped", "created_at": "2023-12-22T00:00:00Z", "amount": "1625.18"}),
            json!({"order_id": "ORD-13000", "status": "delivered", "created_at": "2024-01-01T00:00:00Z", "amount": "1325.05"}),
            json!({"order_id": "ORD-14000", "status": "cancelled", "created_at": "2024-02-01T00:00:00Z", "amount": "1585.71"}),
        ]
    );
    assert_eq!(
        tables[1][2]["amount"],
        json!("1897.00"),
        "1897.0 gets its two decimals"
    );
    assert_eq!(tables[0][49]["created_at"], json!("2024-02-09T00:00:00Z"));
    // The three tables render with one header.
    let fmt = crate::Formatter::new().layout(crate::Layout::Compact);
    for table in &tables {
        let md = fmt.format("list_orders", table);
        assert!(
            md.starts_with("|order_id|status|created_at|amount|\n|-|-|-|-|\n"),
            "{md}"
        );
    }
}

// ---- GitHub-style issues --------------------------------------------------------------------

#[test]
fn issues_keep_drop_rename_as_in_the_spec() {
    let shape = Shape::new()
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
        .drop_empty();
    shape.check().unwrap();
    let table = shape.apply(&parse(ISSUES));
    assert_eq!(table.as_array().unwrap().len(), 30);
    assert_eq!(
        table[0],
        json!({"number": 1000, "title": "Query agent agent error model batch window schema safe batch",
               "state": "open", "author": "li-lei", "labels.name": ["enhancement"],
               "created_at": "2026-06-15T13:05:00Z"})
    );
    // In a table an empty cell stays (the column is not empty in every row).
    assert_eq!(
        table[1],
        json!({"number": 1001, "title": "Timeout stream parse budget", "state": "closed",
               "author": "grace_h", "labels.name": [], "created_at": "2026-02-21T08:57:00Z"})
    );
    let md = crate::Formatter::new()
        .layout(crate::Layout::Compact)
        .format("search_issues", &table);
    let mut lines = md.lines();
    assert_eq!(
        lines.next(),
        Some("|number|title|state|author|labels.name|created_at|")
    );
    assert_eq!(
        lines.nth(1),
        Some(
            "|1000|Query agent agent error model batch window schema safe batch|open|li-lei|enhancement|2026-06-15T13:05:00Z|"
        )
    );
    // As one record, the empty field goes.
    let one = shape.apply(&table_row(ISSUES, 1));
    assert!(
        !one.as_object().unwrap().contains_key("labels.name"),
        "{one}"
    );
}

fn table_row(text: &str, i: usize) -> Value {
    parse(text)[i].clone()
}

#[test]
fn generic_drop_rules_on_issues() {
    let raw = parse(ISSUES);
    let dropped = Shape::new().drop(["*_url", "url", "node_id"]).apply(&raw);
    fn no_links(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().all(|(k, v)| {
                !(k.ends_with("_url") || k == "url" || k == "node_id") && no_links(v)
            }),
            Value::Array(a) => a.iter().all(no_links),
            _ => true,
        }
    }
    assert!(no_links(&dropped));
    assert_eq!(
        dropped[0]["user"],
        json!({"login": "li-lei", "id": 511752, "gravatar_id": "", "type": "User", "site_admin": false})
    );
    let first_keys: Vec<&String> = dropped[0].as_object().unwrap().keys().collect();
    assert_eq!(
        first_keys,
        [
            "id",
            "number",
            "title",
            "user",
            "labels",
            "state",
            "locked",
            "assignee",
            "assignees",
            "milestone",
            "comments",
            "created_at",
            "updated_at",
            "closed_at",
            "author_association",
            "body",
            "reactions",
            "score"
        ]
    );

    let cleaned = Shape::new()
        .drop(["*_url", "url", "node_id"])
        .drop_empty()
        .apply(&raw);
    let keys: Vec<&String> = cleaned[0].as_object().unwrap().keys().collect();
    // assignee, assignees, milestone, closed_at are empty in all 30 rows; labels only in some.
    assert_eq!(
        keys,
        [
            "id",
            "number",
            "title",
            "user",
            "labels",
            "state",
            "locked",
            "comments",
            "created_at",
            "updated_at",
            "author_association",
            "body",
            "reactions",
            "score"
        ]
    );
    assert_eq!(
        cleaned[0]["user"],
        json!({"login": "li-lei", "id": 511752, "type": "User", "site_admin": false})
    );
    assert_eq!(
        cleaned[1]["labels"],
        json!([]),
        "a column empty in some rows keeps its empty cells"
    );
}

#[test]
fn a_page_envelope_is_one_record_and_its_items_are_reached_through_the_array() {
    let page = parse(SEARCH);
    let shape = Shape::new()
        .keep([
            "total_count",
            "items.number",
            "items.user.login",
            "next_cursor",
        ])
        .rename("items.number", "numbers");
    let out = shape.apply(&page);
    let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["total_count", "numbers", "items.user.login", "next_cursor"]
    );
    assert_eq!(out["numbers"].as_array().unwrap().len(), 30);
    assert_eq!(out["items.user.login"][0], json!("li-lei"));
}

// ---- rule semantics ---------------------------------------------------------------------

#[test]
fn a_shape_with_no_rules_changes_nothing() {
    let samples = [
        parse(LEGACY),
        parse(ISSUES),
        parse(SEARCH),
        json!(null),
        json!("text"),
        json!([]),
        json!({}),
        json!([1, {"a": null}, [{}]]),
        json!({"a.b": {"": [null, "", {}]}}),
    ];
    for v in &samples {
        assert_eq!(&Shape::new().apply(v), v);
        let mut stats = ShapeStats::default();
        if let Value::Object(m) = v {
            assert_eq!(&Shape::new().apply_record(m, &mut stats), m);
        }
        assert_eq!(stats, ShapeStats::default());
    }
    // A shape whose rules match nothing changes nothing either (and is not an error).
    let unmatched = Shape::new()
        .drop(["nope*"])
        .rename("missing", "x")
        .convert("also.missing", Convert::Cents);
    unmatched.check().unwrap();
    for v in &samples {
        assert_eq!(&unmatched.apply(v), v);
    }
    // Marks change no value (they only say what a budget keeps first).
    let marked = Shape::new()
        .essential(["number", "title"])
        .minor(["user.login", "missing"]);
    marked.check().unwrap();
    for v in &samples {
        assert_eq!(&marked.apply(v), v);
        if let Value::Object(m) = v {
            assert_eq!(&marked.apply_record(m, &mut ShapeStats::default()), m);
        }
    }
}

#[test]
fn rules_name_the_input_keys() {
    let shape = Shape::new()
        .rename("a", "b")
        .drop(["b"]) // names the input's `b`, not the renamed `a`
        .convert("a", Convert::Cents);
    assert_eq!(
        shape.apply(&json!({"a": 150, "b": 1, "c": 2})),
        json!({"b": "1.50", "c": 2})
    );
    // Order of the builder calls does not matter.
    let reordered = Shape::new()
        .convert("a", Convert::Cents)
        .drop(["b"])
        .rename("a", "b");
    assert_eq!(
        reordered.apply(&json!({"a": 150, "b": 1, "c": 2})),
        json!({"b": "1.50", "c": 2})
    );
}

#[test]
fn keep_orders_flattens_and_reaches_through_arrays() {
    let record = json!({
        "z": 1, "a": {"b": {"c": 3}, "d": 4},
        "labels": [{"name": "bug", "id": 1}, {"id": 2}, {"name": "docs"}, "stray"],
        "matrix": [[{"v": 1}], [{"v": 2}, {"w": 0}]],
    });
    let shape = Shape::new().keep([
        "a.b.c",
        "z",
        "labels.name",
        "matrix.v",
        "a",
        "missing",
        "z.deeper",
    ]);
    assert_eq!(
        shape.apply(&record),
        json!({"a.b.c": 3, "z": 1, "labels.name": ["bug", "docs"], "matrix.v": [[1], [2]],
               "a": {"b": {"c": 3}, "d": 4}})
    );
}

#[test]
fn keep_beats_drop_at_the_kept_path_and_drop_prunes_inside() {
    let record =
        json!({"html_url": "h", "user": {"login": "li", "avatar_url": "a", "id": 7}, "url": "u"});
    let shape = Shape::new()
        .keep(["html_url", "user"])
        .drop(["*_url", "user.id"]);
    assert_eq!(
        shape.apply(&record),
        json!({"html_url": "h", "user": {"login": "li"}})
    );
}

#[test]
fn rename_in_place_and_renames_inside_kept_objects() {
    let record = json!({"user": {"login": "li", "id": 7}, "id": 1});
    let renames = Shape::new()
        .rename("user.login", "author")
        .rename("id", "issue_id");
    assert_eq!(
        renames.apply(&record),
        json!({"user": {"author": "li", "id": 7}, "issue_id": 1})
    );
    let kept = renames.clone().keep(["user"]);
    assert_eq!(
        kept.apply(&record),
        json!({"user": {"author": "li", "id": 7}})
    );
}

/// `rename("address.city", "city")`: alone it renames where the field stands (inside
/// `address`, so here the key is unchanged); with the path in `keep`, the field moves up to
/// a top-level key (a column of a table) called `city`, beside the other kept paths.
#[test]
fn rename_of_a_nested_path_in_place_or_moved_up_with_keep() {
    let record = json!({"id": 1, "address": {"city": "Oslo", "zip": "0150"}});
    let cases = [
        (
            Shape::new().rename("address.city", "city"),
            json!({"id": 1, "address": {"city": "Oslo", "zip": "0150"}}),
        ),
        (
            Shape::new().rename("address.city", "town"),
            json!({"id": 1, "address": {"town": "Oslo", "zip": "0150"}}),
        ),
        (
            Shape::new()
                .keep(["id", "address.city"])
                .rename("address.city", "city"),
            json!({"id": 1, "city": "Oslo"}),
        ),
        // Kept without a rename, the path becomes a dotted key.
        (
            Shape::new().keep(["id", "address.city"]),
            json!({"id": 1, "address.city": "Oslo"}),
        ),
        // Keeping the parent keeps the object: the rename applies inside it, in place.
        (
            Shape::new()
                .keep(["id", "address"])
                .rename("address.city", "town"),
            json!({"id": 1, "address": {"town": "Oslo", "zip": "0150"}}),
        ),
    ];
    for (shape, want) in cases {
        shape.check().unwrap();
        assert_eq!(shape.apply(&record), want, "{shape:?}");
    }
    // In a table, the moved-up field is a column.
    let moved = Shape::new()
        .keep(["id", "address.city"])
        .rename("address.city", "city");
    assert_eq!(
        moved.apply(&json!([record, {"id": 2, "address": {"city": "Rome"}}])),
        json!([{"id": 1, "city": "Oslo"}, {"id": 2, "city": "Rome"}])
    );
}

#[test]
fn a_rename_onto_a_taken_name_keeps_both_values_and_counts() {
    let run = |shape: &Shape, v: Value| {
        let mut stats = ShapeStats::default();
        let out = shape.apply_record(v.as_object().unwrap(), &mut stats);
        (Value::Object(out), stats.name_collisions)
    };
    let shape = Shape::new().rename("b", "a");
    assert_eq!(
        run(&shape, json!({"a": 1, "b": 2})),
        (json!({"a": 1, "b": 2}), 1)
    );
    assert_eq!(
        run(&shape, json!({"b": 2, "a": 1})),
        (json!({"b": 2, "a": 1}), 1),
        "order does not matter"
    );
    // A dropped or renamed sibling frees its name.
    assert_eq!(
        run(&shape.clone().drop(["a"]), json!({"b": 2, "a": 1})),
        (json!({"a": 2}), 0)
    );
    let swap = Shape::new().rename("b", "a").rename("a", "b");
    assert_eq!(
        run(&swap, json!({"b": 2, "a": 1})),
        (json!({"a": 2, "b": 1}), 0)
    );
    // Two renames onto one name: the second keeps its input name.
    let two = Shape::new().rename("a", "c").rename("b", "c");
    assert_eq!(
        run(&two, json!({"a": 1, "b": 2})),
        (json!({"c": 1, "b": 2}), 1)
    );
    // ... and when that is taken too (by the first rename), it is left out and counted twice.
    let worst = Shape::new().rename("x", "a").rename("a", "c");
    assert_eq!(
        run(&worst, json!({"x": 0, "a": 1, "c": 3})),
        (json!({"a": 0, "c": 3}), 2)
    );
}

#[test]
fn converters_reach_through_arrays_and_count_failures() {
    let shape = Shape::new()
        .convert("seen", Convert::EpochSeconds)
        .convert("items.price", Convert::Cents)
        .convert("meta", Convert::Timestamp);
    let mut stats = ShapeStats::default();
    let out = shape.apply_with_stats(
        &json!({"seen": [0, null, "x", [86400]], "items": [{"price": 5}, {"price": 1.5}], "meta": {"a": 1}}),
        &mut stats,
    );
    assert_eq!(
        out,
        json!({"seen": ["1970-01-01T00:00:00Z", null, "x", ["1970-01-02T00:00:00Z"]],
               "items": [{"price": "0.05"}, {"price": 1.5}], "meta": {"a": 1}})
    );
    assert_eq!(stats.conversions_failed, 3);
    assert_eq!(
        stats.first_failure.as_deref(),
        Some("`seen`: epoch_seconds could not read \"x\"")
    );
    let long = Shape::new().convert("a", Convert::Cents);
    let mut stats = ShapeStats::default();
    long.apply_with_stats(&json!({"a": "ü".repeat(50)}), &mut stats);
    assert_eq!(
        stats.first_failure.unwrap(),
        format!("`a`: cents could not read \"{}…", "ü".repeat(39))
    );
}

#[test]
fn drop_empty_records_and_tables() {
    let shape = Shape::new().drop_empty();
    assert_eq!(
        shape.apply(
            &json!({"a": {"b": null, "c": {"d": ""}}, "e": [null, {"f": []}], "g": 0, "h": false})
        ),
        json!({"e": [null, {}], "g": 0, "h": false}),
        "fields emptied by the cleaning go too; array items are not fields"
    );
    assert_eq!(
        shape.apply(
            &json!({"page": 1, "items": [{"a": null, "b": null, "c": {}}, {"a": 1, "b": ""}]})
        ),
        json!({"page": 1, "items": [{"a": null}, {"a": 1}]}),
        "a nested list of records is a table: columns empty in every row go, rows keep one set"
    );
    let rows = json!([
        {"id": 1, "gone": null, "some": null, "nested": {"x": null, "y": 1}},
        {"id": 2, "gone": "", "some": 5, "nested": {"x": null}},
    ]);
    assert_eq!(
        shape.apply(&rows),
        json!([{"id": 1, "some": null, "nested": {"y": 1}}, {"id": 2, "some": 5, "nested": {}}])
    );
    let mut stats = ShapeStats::default();
    let shaped: Vec<_> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            shape.fields(
                r.as_object().unwrap(),
                &Secrets::EMPTY,
                &mut stats,
                true,
                None,
            )
        })
        .collect();
    assert_eq!(apply::empty_columns(&shaped), ["gone"]);
}

#[test]
fn mixed_lists_and_scalars() {
    let shape = Shape::new().drop(["x"]);
    assert_eq!(
        shape.apply(&json!([1, {"x": 1, "y": 2}, "s"])),
        json!([1, {"y": 2}, "s"])
    );
    assert_eq!(shape.apply(&json!("x")), json!("x"));
    assert_eq!(shape.apply(&json!([])), json!([]));
}

#[test]
fn deep_values_are_bounded_not_overflowed() {
    let mut deep = json!(1);
    for _ in 0..1000 {
        deep = json!([deep]);
    }
    let mut stats = ShapeStats::default();
    let out = Shape::new()
        .drop(["x"])
        .apply_with_stats(&json!({"deep": deep}), &mut stats);
    assert_eq!(stats.too_deep, 1);
    let mut cursor = &out["deep"];
    let mut levels = 0;
    while let Value::Array(a) = cursor {
        cursor = &a[0];
        levels += 1;
    }
    assert_eq!(levels, MAX_SHAPE_DEPTH);
    assert_eq!(
        cursor,
        &json!("[not shaped: nested deeper than 128 levels]")
    );
}

// ---- errors --------------------------------------------------------------------------------

#[test]
fn builder_errors_name_the_rule_and_the_path() {
    let shape = Shape::new()
        .keep(["a", "", "a"])
        .drop(["ok", "**_url", "x."])
        .rename("b", "")
        .rename("c", "x")
        .rename("c", "y")
        .convert("d*", Convert::Cents)
        .convert("e", Convert::Cents)
        .convert("e", Convert::Fixed(2))
        .essential(["f", "f", "g.*"])
        .minor(["f", "h", "h"]);
    let all: Vec<String> = shape.errors().iter().map(ToString::to_string).collect();
    assert_eq!(
        all,
        [
            "shape keep[1]: malformed path ``: it is empty; write a key, or keys separated by dots like `user.login`",
            "shape keep[1]: `a` is kept twice; list each path once",
            "shape drop[1]: malformed pattern `**_url`: `**` is not supported; `*` matches any run of characters within one key, and a pattern without a dot already matches at every depth",
            "shape drop[1]: malformed pattern `x.`: it ends with a dot; write keys separated by single dots, like `user.login`",
            "shape rename[\"b\"]: the new name for `b` is empty; give a field name like `author`",
            "shape rename[\"c\"]: `c` is renamed twice (to `x` and to `y`); give it one name",
            "shape convert[\"d*\"]: malformed path `d*`: `*` is only allowed in drop patterns; name the field exactly, like `user.login`",
            "shape convert[\"e\"]: `e` has two converters (cents and fixed(2)); give it one",
            "shape essential[1]: `f` is marked essential twice; list each path once",
            "shape essential[1]: malformed path `g.*`: `*` is only allowed in drop patterns; name the field exactly, like `user.login`",
            "shape minor[0]: `f` is marked both essential and minor; give it one mark",
            "shape minor[1]: `h` is marked minor twice; list each path once",
        ]
    );
    assert_eq!(
        shape.check().unwrap_err().kind(),
        ShapeErrorKind::MalformedPath
    );
    // The valid rules still apply.
    assert_eq!(
        shape.apply(&json!({"a": 1, "ok": 2, "e": 5})),
        json!({"a": 1})
    );
}

#[test]
fn shape_files() {
    let shape = Shape::from_json_str(
        r#"{"keep": ["created_at", "total_cents", "status", "id", "user.login"],
            "drop": ["*_url"],
            "rename": {"user.login": "author"},
            "convert": {"created_at": "epoch_millis", "total_cents": "cents",
                        "status": {"map": {"3": "shipped", "4": {"name": "delivered"}}},
                        "id": {"prefix": "ORD-"}},
            "drop_empty": false}"#,
    )
    .unwrap();
    assert_eq!(
        shape.apply(
            &json!({"id": 7, "status": 4, "total_cents": 1, "created_at": 1703203200000_i64,
                             "user": {"login": "li"}})
        ),
        json!({"created_at": "2023-12-22T00:00:00Z", "total_cents": "0.01", "status": {"name": "delivered"},
               "id": "ORD-7", "author": "li"})
    );
    assert_eq!(Shape::from_json_str("{}").unwrap(), Shape::new());
    let same = Shape::from_json_str(
        r#"{"keep": ["a"], "convert": {"a": {"fixed": 2}}, "drop_empty": true}"#,
    )
    .unwrap();
    assert_eq!(
        same,
        Shape::new()
            .keep(["a"])
            .convert("a", Convert::Fixed(2))
            .drop_empty()
    );
}

#[test]
fn shape_file_essential_and_minor_keys_parse() {
    let shape =
        Shape::from_json_str(r#"{"essential": ["title", "user.login"], "minor": ["etag"]}"#)
            .unwrap();
    assert_eq!(
        shape,
        Shape::new()
            .essential(["title", "user.login"])
            .minor(["etag"])
    );
    assert!(!shape.is_empty());
    let err = |text: &str| Shape::from_json_str(text).unwrap_err().to_string();
    assert_eq!(
        err(r#"{"minor": "etag"}"#),
        "shape minor: `minor` is an array of paths, like [\"id\", \"user.login\"], found the string \"etag\""
    );
    assert_eq!(
        err(r#"{"essential": [1]}"#),
        "shape essential[0]: a path is a string, like \"user.login\", found 1"
    );
    assert_eq!(
        err(r#"{"essential": ["id"], "minor": ["id"]}"#),
        "shape minor[0]: `id` is marked both essential and minor; give it one mark"
    );
}

#[test]
fn shape_file_errors_say_where_and_what_was_expected() {
    let err = |text: &str| Shape::from_json_str(text).unwrap_err().to_string();
    let cases = [
        ("[]", "shape: a shape file is a JSON object, found an array"),
        (
            r#"{"keep": "a"}"#,
            "shape keep: `keep` is an array of paths, like [\"id\", \"user.login\"], found the string \"a\"",
        ),
        (
            r#"{"keep": ["a", 1]}"#,
            "shape keep[1]: a path is a string, like \"user.login\", found 1",
        ),
        (
            r#"{"keep": ["a", "b..c"]}"#,
            "shape keep[1]: malformed path `b..c`: it has an empty key between two dots; write keys separated by single dots, like `user.login`",
        ),
        (
            r#"{"drop": ["", "x"]}"#,
            "shape drop[0]: malformed pattern ``: it is empty; write a key, or keys separated by dots like `user.login`",
        ),
        (
            r#"{"rename": ["a"]}"#,
            "shape rename: `rename` is an object from input paths, like {\"user.login\": ...}, found an array",
        ),
        (
            r#"{"rename": {"a": null}}"#,
            "shape rename[\"a\"]: the new name is a string, found null",
        ),
        (
            r#"{"convert": {"a": "epoch"}}"#,
            "shape convert[\"a\"]: unknown converter \"epoch\"; expected one of \"epoch_seconds\", \"epoch_millis\", \"timestamp\", \"cents\", {\"fixed\": N}, {\"map\": {...}}, {\"prefix\": \"...\"}",
        ),
        (
            r#"{"convert": {"a": "fixed"}}"#,
            "shape convert[\"a\"]: `fixed` takes an argument: write {\"fixed\": ...}, e.g. {\"fixed\": 2}",
        ),
        (
            r#"{"convert": {"a": {"fixed": 256}}}"#,
            "shape convert[\"a\"].fixed: `fixed` takes the number of decimals, 0 to 255, found 256",
        ),
        (
            r#"{"convert": {"a": {"fixed": -1}}}"#,
            "shape convert[\"a\"].fixed: `fixed` takes the number of decimals, 0 to 255, found -1",
        ),
        (
            r#"{"convert": {"a": {"map": [1]}}}"#,
            "shape convert[\"a\"].map: `map` takes an object from input values to output values, like {\"3\": \"shipped\"}, found an array",
        ),
        (
            r#"{"convert": {"a": {"prefix": ""}}}"#,
            "shape convert[\"a\"].prefix: `prefix` takes a non-empty string, like \"ORD-\", found the string \"\"",
        ),
        (
            r#"{"convert": {"a": {"fixed": 2, "map": {}}}}"#,
            "shape convert[\"a\"]: a converter is one of \"epoch_seconds\", \"epoch_millis\", \"timestamp\", \"cents\", {\"fixed\": N}, {\"map\": {...}}, {\"prefix\": \"...\"}, found an object",
        ),
        (
            r#"{"convert": {"a": {"round": 2}}}"#,
            "shape convert[\"a\"]: unknown converter {\"round\": ...}; expected one of \"epoch_seconds\", \"epoch_millis\", \"timestamp\", \"cents\", {\"fixed\": N}, {\"map\": {...}}, {\"prefix\": \"...\"}",
        ),
        (
            r#"{"drop_empty": "yes"}"#,
            "shape drop_empty: `drop_empty` is true or false, found the string \"yes\"",
        ),
        (
            r#"{"keep": ["a", "b"], "rename": {"b": "a"}}"#,
            "shape keep[1]: `a` and `b` are both kept as `a`; rename one of them",
        ),
        (
            r#"{"Keep": []}"#,
            "shape \"Keep\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`",
        ),
        (
            "{\n  \"keep\": [\"a\",]\n}",
            "shape line 2 column 16: not valid JSON: trailing comma at line 2 column 16",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(err(text), want, "{text}");
    }
    let e = Shape::from_json_str(r#"{"Keep": []}"#).unwrap_err();
    assert_eq!((e.kind(), e.at()), (ShapeErrorKind::UnknownKey, "\"Keep\""));
}

// ---- measured size (run with `--nocapture`; `--features tokens` adds o200k counts) ----------

#[test]
fn measured_ratios_on_issues_and_a_search_page() {
    let issues = parse(ISSUES);
    // search_page.json's items are issues_30.json; the page is measured as one record (its
    // envelope), where the drop rules reach the items at every depth.
    let page = parse(SEARCH);
    assert_eq!(page["items"], issues);
    let links = ["*_url", "url", "node_id"];
    let shapes = [
        ("raw", Shape::new()),
        ("drop links", Shape::new().drop(links)),
        ("+ drop_empty", Shape::new().drop(links).drop_empty()),
        (
            "keep 7",
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
                .rename("labels.name", "labels"),
        ),
    ];
    let fmt = crate::Formatter::new()
        .layout(crate::Layout::Compact)
        .max_lines(1000);
    for (name, input) in [("issues_30", &issues), ("search_page", &page)] {
        let raw_json = serde_json::to_string(input).unwrap();
        for (rule, shape) in &shapes {
            if name == "search_page" && *rule == "keep 7" {
                continue; // a keep list names each item's fields, so it is for the items table
            }
            let shaped = shape.apply(input);
            let json = serde_json::to_string(&shaped).unwrap();
            let md = fmt.format("search_issues", &shaped);
            let ratio = json.len() as f64 / raw_json.len() as f64;
            let md_ratio = md.len() as f64 / raw_json.len() as f64;
            #[cfg(feature = "tokens")]
            let tokens = {
                use crate::TokenCounter;
                let raw = crate::O200k.count(&raw_json) as f64;
                format!(
                    " | o200k json {:.2}x, markdown {:.2}x",
                    crate::O200k.count(&json) as f64 / raw,
                    crate::O200k.count(&md) as f64 / raw
                )
            };
            #[cfg(not(feature = "tokens"))]
            let tokens = String::new();
            println!(
                "{name:18} {rule:13} json {:6} chars {ratio:.2}x | markdown {:6} chars {md_ratio:.2}x{tokens}",
                json.len(),
                md.len()
            );
            match *rule {
                "drop links" | "+ drop_empty" => assert!(ratio <= 0.6, "{name} {rule}: {ratio}"),
                "keep 7" => assert!(ratio <= 0.25, "{name} {rule}: {ratio}"),
                _ => {}
            }
        }
    }
}

proptest::proptest! {
    /// The names given in one object are looked up among the renamed ones only for a field
    /// that keeps its key: by the definition, every field's name is new among those given
    /// before it, and each holds the value of a key that is, or is renamed to, that name.
    #[test]
    fn every_name_given_is_new_and_names_its_own_value(
        keys in proptest::sample::subsequence(vec!["a", "b", "c", "d"], 0..=4),
        renames in proptest::collection::vec(
            (proptest::sample::select(vec!["a", "b", "c", "d"]), proptest::sample::select(vec!["a", "b", "c", "d", "e"])),
            0..4,
        ),
        dropped in proptest::sample::subsequence(vec!["a", "b", "c", "d"], 0..=2),
    ) {
        let record: Map<String, Value> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| ((*k).to_owned(), json!(i)))
            .collect();
        let mut shape = Shape::new().drop(&dropped);
        for (from, to) in &renames {
            shape = shape.rename(from, *to);
        }
        proptest::prop_assume!(shape.check().is_ok());
        let mut stats = ShapeStats::default();
        let fields = shape.fields(&record, &Secrets::EMPTY, &mut stats, false, None);
        let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_ref()).collect();
        for (i, (name, value)) in fields.iter().enumerate() {
            proptest::prop_assert!(fields[..i].iter().all(|(n, _)| n != name), "{names:?}");
            let Shaped::Value(v) = value else { panic!("a scalar") };
            let key = keys[usize::try_from(v.as_u64().unwrap()).unwrap()];
            let renamed = renames.iter().rev().find(|(from, _)| *from == key).map(|(_, to)| *to);
            proptest::prop_assert!(name == key || Some(name.as_ref()) == renamed, "{names:?}");
        }
        let kept = keys.iter().filter(|k| !dropped.contains(k)).count();
        proptest::prop_assert!(fields.len() == kept || stats.name_collisions > 0);
    }
}
