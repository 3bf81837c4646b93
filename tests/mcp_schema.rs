//! Every tool of `examples/mcp_server.rs` lists an `outputSchema`, and every result it sends
//! (full, cut, empty and error) has `structuredContent` that validates against it with a JSON
//! Schema 2020-12 validator (the `jsonschema` crate), with the cut notices in `_meta`, outside
//! the validated data (SPEC section 16).
//!
//! The server runs in process behind rmcp's own transport (an in-memory duplex pipe), so the
//! schemas and results are exactly what `tools/list` and `tools/call` put on the wire.
//!
//! ```text
//! cargo test --features rmcp --test mcp_schema
//! ```

#[path = "../examples/mcp_server.rs"]
#[allow(dead_code)]
mod mcp_server;

use std::collections::BTreeMap;

use jsonschema::Validator;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tool_output_format::Formatter;
use tool_output_format::adapt::META_KEY;
use tool_output_format::adapt::rmcp::McpResult;
use tool_output_format::adapt::rmcp::{McpJson, ModelView};

use mcp_server::{MAX_CHARS, Order, OrderServer};

type Client = RunningService<RoleClient, ()>;

/// A client connected to `server` over an in-memory pipe.
async fn connect(server: OrderServer) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("initialize")
}

/// Each tool's validator, from its `outputSchema` in `tools/list`.
async fn validators(client: &Client) -> BTreeMap<String, (Value, Validator)> {
    let tools = client.list_all_tools().await.expect("tools/list");
    tools
        .into_iter()
        .map(|tool| {
            let schema = Value::Object(
                tool.output_schema
                    .as_deref()
                    .cloned()
                    .unwrap_or_else(|| panic!("{} lists no outputSchema", tool.name)),
            );
            let validator = jsonschema::validator_for(&schema)
                .unwrap_or_else(|e| panic!("{}: the outputSchema is not a schema: {e}", tool.name));
            (tool.name.to_string(), (schema, validator))
        })
        .collect()
}

async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    client.call_tool(params).await.expect(tool)
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0]
        .as_text()
        .expect("a text block first")
        .text
}

/// `structuredContent` is there and valid against the tool's schema.
fn assert_valid(
    schemas: &BTreeMap<String, (Value, Validator)>,
    tool: &str,
    result: &CallToolResult,
) -> Value {
    let (schema, validator) = &schemas[tool];
    let data = result
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("{tool}: no structuredContent:\n{}", text(result)));
    let errors: Vec<String> = validator
        .iter_errors(&data)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{tool}: structuredContent does not validate:\n{errors:#?}\ndata: {data}\nschema: {schema}"
    );
    data
}

/// The `_meta` cut notices, when there are any.
fn cuts(result: &CallToolResult) -> Option<&Value> {
    result.meta.as_ref().and_then(|m| m.0.get(META_KEY))
}

/// The order ids in the rows of the markdown table of a result.
fn table_ids(md: &str) -> Vec<String> {
    md.lines()
        .filter_map(|l| l.strip_prefix('|'))
        .filter_map(|rest| rest.split('|').next())
        .map(str::trim)
        .filter(|cell| cell.starts_with("ORD-"))
        .map(str::to_string)
        .collect()
}

fn item_ids(data: &Value) -> Vec<String> {
    data["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|o| o["order_id"].as_str().expect("order_id").to_string())
        .collect()
}

#[tokio::test]
async fn every_tool_declares_an_object_output_schema() {
    let client = connect(OrderServer::default()).await;
    let schemas = validators(&client).await;
    assert_eq!(
        schemas.keys().collect::<Vec<_>>(),
        ["cancel_orders", "get_order", "list_orders"]
    );
    for (tool, (schema, _)) in &schemas {
        assert_eq!(schema["type"], "object", "{tool}: {schema}");
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{tool}"
        );
    }
    let page = &schemas["list_orders"].0["anyOf"][0];
    assert_eq!(page["required"], json!(["items", "has_more"]));
    for key in ["has_more", "next_cursor", "total", "next"] {
        assert!(page["properties"].get(key).is_some(), "no {key}: {page}");
    }
    let error = &schemas["get_order"].0["$defs"]["ToolError"];
    assert_eq!(error["required"], json!(["kind", "message", "retryable"]));
    assert!(
        error["properties"]["kind"]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("not_found"))
    );
    client.cancel().await.ok();
}

#[tokio::test]
async fn list_orders_full_cut_empty_and_error_results_validate() {
    let client = connect(OrderServer::default()).await;
    let schemas = validators(&client).await;

    // Full: a page of 25 that fits the budget, nothing cut, no `_meta`.
    let full = call(&client, "list_orders", json!({})).await;
    assert_eq!(full.is_error, Some(false));
    let data = assert_valid(&schemas, "list_orders", &full);
    assert_eq!(item_ids(&data), table_ids(text(&full)));
    assert_eq!(item_ids(&data).len(), 25);
    assert_eq!(data["has_more"], true);
    assert_eq!(data["next_cursor"], "25");
    assert_eq!(data["total"], 120);
    assert_eq!(
        data["next"],
        json!({"tool": "list_orders", "args": {"cursor": "25"}})
    );
    assert!(cuts(&full).is_none(), "{:?}", full.meta);

    // Cut: all 120 orders do not fit 4,000 characters. The data holds the text's rows, the
    // cursor resumes at the first order cut, the notices are in `_meta`.
    let cut = call(&client, "list_orders", json!({"limit": 120})).await;
    assert_eq!(cut.is_error, Some(false));
    let md = text(&cut);
    assert!(md.chars().count() <= MAX_CHARS, "{md}");
    let data = assert_valid(&schemas, "list_orders", &cut);
    let shown = table_ids(md);
    assert!(shown.len() < 120 && !shown.is_empty(), "{md}");
    assert_eq!(item_ids(&data), shown);
    assert_eq!(data["has_more"], true);
    assert_eq!(data["next_cursor"], shown.len().to_string());
    assert!(
        md.contains(&format!("next_cursor: {}", shown.len())),
        "{md}"
    );
    let notices = &cuts(&cut).expect("_meta cut notices")["notices"];
    assert_eq!(notices[0]["kind"], "rows");
    assert_eq!(notices[0]["kept"], shown.len());
    assert_eq!(notices[0]["total"], 120);
    assert_eq!(notices[0]["path"], "/items");
    assert_eq!(notices[0]["applies_to"], "both");
    assert!(
        md.contains(notices[0]["text"].as_str().unwrap()),
        "the notice is the text's: {notices}"
    );
    assert_eq!(notices[1]["kind"], "page");
    assert!(md.contains(notices[1]["text"].as_str().unwrap()), "{md}");
    // No notice leaks into the validated data.
    assert!(data.get("notices").is_none() && data.get("notice").is_none());

    // The rest, from the cut's cursor: nothing skipped.
    let rest = call(
        &client,
        "list_orders",
        json!({"cursor": data["next_cursor"], "limit": 120 - shown.len()}),
    )
    .await;
    let rest_data = assert_valid(&schemas, "list_orders", &rest);
    let first_rest = item_ids(&rest_data)[0].clone();
    let all: Vec<String> = mcp_server::bundled_orders()
        .into_iter()
        .map(|o| o.order_id)
        .collect();
    assert_eq!(first_rest, all[shown.len()]);

    // Empty: the page after the last one. Not an error; `has_more` false, no cursor.
    let empty = call(&client, "list_orders", json!({"cursor": "120"})).await;
    assert_eq!(empty.is_error, Some(false));
    let data = assert_valid(&schemas, "list_orders", &empty);
    assert_eq!(data, json!({"items": [], "has_more": false, "total": 120}));
    assert!(text(&empty).starts_with("*(empty)*"), "{}", text(&empty));

    // Errors: a bad cursor, a bad limit. `isError`, the error's structured form.
    for args in [json!({"cursor": "nope"}), json!({"limit": 0})] {
        let failed = call(&client, "list_orders", args.clone()).await;
        assert_eq!(failed.is_error, Some(true), "{args}");
        let data = assert_valid(&schemas, "list_orders", &failed);
        assert_eq!(data["error"]["kind"], "invalid_input", "{data}");
        assert!(data["error"]["hint"].is_string(), "{data}");
        assert!(text(&failed).starts_with("**list_orders failed**"));
    }
    client.cancel().await.ok();
}

#[tokio::test]
async fn an_empty_store_gives_an_empty_page() {
    let client = connect(OrderServer::new(Vec::new())).await;
    let schemas = validators(&client).await;
    let empty = call(&client, "list_orders", json!({})).await;
    assert_eq!(empty.is_error, Some(false));
    let data = assert_valid(&schemas, "list_orders", &empty);
    assert_eq!(data, json!({"items": [], "has_more": false, "total": 0}));
    client.cancel().await.ok();
}

#[tokio::test]
async fn get_order_found_and_not_found_validate() {
    let client = connect(OrderServer::default()).await;
    let schemas = validators(&client).await;
    let found = call(&client, "get_order", json!({"order_id": "ORD-13007"})).await;
    assert_eq!(found.is_error, Some(false));
    let data = assert_valid(&schemas, "get_order", &found);
    let order: &Order = &mcp_server::bundled_orders()[7];
    assert_eq!(data, serde_json::to_value(order).unwrap());
    assert!(text(&found).contains("ORD-13007"));

    let missing = call(&client, "get_order", json!({"order_id": "ORD-404"})).await;
    assert_eq!(missing.is_error, Some(true));
    let data = assert_valid(&schemas, "get_order", &missing);
    assert_eq!(
        data,
        json!({"error": {
            "kind": "not_found",
            "message": "order ORD-404 does not exist",
            "retryable": false,
            "hint": "list_orders lists every order id",
        }})
    );
    client.cancel().await.ok();
}

#[tokio::test]
async fn cancel_orders_batches_validate() {
    let client = connect(OrderServer::default()).await;
    let schemas = validators(&client).await;
    let orders = mcp_server::bundled_orders();
    let with = |status: &str| {
        orders
            .iter()
            .find(|o| o.status == status)
            .map(|o| o.order_id.clone())
            .unwrap()
    };
    let ids = json!([
        with("pending"),
        with("delivered"),
        with("shipped"),
        "ORD-404"
    ]);
    let batch = call(&client, "cancel_orders", json!({ "order_ids": ids })).await;
    assert_eq!(batch.is_error, Some(false), "a batch is not an error");
    let data = assert_valid(&schemas, "cancel_orders", &batch);
    assert_eq!(
        (&data["total"], &data["succeeded"], &data["failed"]),
        (&json!(4), &json!(1), &json!(3))
    );
    assert_eq!(data["failures"].as_array().unwrap().len(), 3);
    assert_eq!(
        data["next"],
        json!({"tool": "cancel_orders", "args": {"order_ids": [with("shipped")]}})
    );

    // Empty: nothing to cancel is not an error either.
    let none = call(&client, "cancel_orders", json!({ "order_ids": [] })).await;
    assert_eq!(none.is_error, Some(false));
    let data = assert_valid(&schemas, "cancel_orders", &none);
    assert_eq!(data["total"], 0);
    client.cancel().await.ok();
}

/// The budget and the model's view, measured on all 120 orders with a 4,000-character
/// budget (printed with `--nocapture`): the untyped structured result cuts its text and its
/// JSON each to the budget, on their own; `ModelView::Text` sends the text's rows in both;
/// `ModelView::TextAndStructured` holds both together to the budget.
#[test]
fn the_budget_covers_the_models_view() {
    let orders = mcp_server::bundled_orders();
    let fmt = Formatter::new().max_chars(4000);
    let chars = |call: &CallToolResult| {
        let text = text(call).chars().count();
        let structured = call
            .structured_content
            .as_ref()
            .map_or(0, |v| v.to_string().chars().count());
        (text, structured)
    };

    let before: CallToolResult = McpResult::structured(&fmt, "list_orders", &orders).into();
    let (bt, bs) = chars(&before);
    let before_rows = before.structured_content.as_ref().unwrap()["result"]
        .as_array()
        .map_or(0, Vec::len);
    println!(
        "untyped McpResult::structured: text {bt} + structured {bs} = {} ({} rows in the text, {before_rows} in the JSON)",
        bt + bs,
        table_ids(text(&before)).len()
    );
    assert!(bt <= 4000 && bs <= 4000);

    let text_view = McpJson::new(&fmt, "list_orders", &orders);
    let rows = text_view.structured_content().unwrap()["items"]
        .as_array()
        .unwrap()
        .len();
    let text_view: CallToolResult = text_view.into();
    let (tt, ts) = chars(&text_view);
    println!(
        "McpJson, ModelView::Text: text {tt} + structured {ts} = {} ({rows} rows in both)",
        tt + ts
    );
    assert!(tt <= 4000);
    assert_eq!(table_ids(text(&text_view)).len(), rows);

    let shared = McpJson::render(
        &fmt,
        "list_orders",
        &Ok::<_, String>(orders.clone()),
        ModelView::TextAndStructured(4000),
    );
    let rows = shared.structured_content().unwrap()["items"]
        .as_array()
        .unwrap()
        .len();
    let view = shared.cuts().unwrap()["view"].clone();
    let shared: CallToolResult = shared.into();
    let (st, ss) = chars(&shared);
    println!(
        "McpJson, ModelView::TextAndStructured(4000): text {st} + structured {ss} = {} ({rows} rows in both)",
        st + ss
    );
    assert!(st + ss <= 4000, "{st} + {ss}");
    assert_eq!(table_ids(text(&shared)).len(), rows);
    assert_eq!(
        view,
        json!({"covers": "text_and_structured", "max_chars": 4000, "text_chars": st,
               "structured_chars": ss, "fits": true})
    );
    // The shared budget spends its characters: one more row would not fit.
    assert!(st + ss > 4000 - 2 * 130, "{st} + {ss}");
}

/// The validator has teeth: data that breaks the declared schema is rejected (a cut notice
/// inside an item, an item of the wrong type, a page without `has_more`, an unknown error
/// kind).
#[tokio::test]
async fn the_schemas_reject_what_they_do_not_declare() {
    let client = connect(OrderServer::default()).await;
    let schemas = validators(&client).await;
    let order = serde_json::to_value(&mcp_server::bundled_orders()[0]).unwrap();
    let list = &schemas["list_orders"].1;
    assert!(list.is_valid(&json!({"items": [order], "has_more": false})));
    assert!(!list.is_valid(&json!({"items": [order]})));
    assert!(
        !list.is_valid(&json!({"items": ["[Truncated to 1 rows of 2 total]"], "has_more": true}))
    );
    assert!(!list.is_valid(&json!({"items": [{"order_id": 7}], "has_more": false})));
    let get = &schemas["get_order"].1;
    assert!(get.is_valid(&order));
    assert!(!get.is_valid(&json!({"order_id": "ORD-1"})));
    assert!(!get.is_valid(&json!({"error": {"kind": "oops", "message": "m", "retryable": false}})));
    client.cancel().await.ok();
}

/// The guide's adapters page (`docs/adapters.md`): the `outputSchema` it shows for `get_order`
/// is the one the server lists, and its typed server snippet (not compiled by the guide's
/// doctests, as it needs the features) is the doctest of `adapt::rmcp`, word for word.
#[tokio::test]
async fn the_guide_shows_what_clients_see() {
    let guide = include_str!("../docs/adapters.md");
    let section = &guide[guide
        .find("## rmcp: typed results")
        .expect("a typed rmcp section")..];
    let json_block = section
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("a json block");
    let shown: Value = serde_json::from_str(json_block).expect("the guide's schema is JSON");
    let client = connect(OrderServer::default()).await;
    let schemas = validators(&client).await;
    assert_eq!(
        shown, schemas["get_order"].0,
        "docs/adapters.md is out of date"
    );
    client.cancel().await.ok();

    let snippet = section
        .split("```rust,ignore\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a rust block");
    assert!(snippet.contains("McpJson<Reading>"), "{snippet}");
    let doctest = include_str!("../tool-output-format/src/adapt/rmcp/typed.md");
    assert!(
        doctest.contains(snippet),
        "the guide's snippet differs from the doctest in adapt/rmcp/typed.md"
    );
}

/// Every shape `McpJson` carries, full, cut (by caps and by budgets, in both model views),
/// empty and failed, validates against its own declared schema.
#[test]
fn every_shape_validates_full_cut_empty_and_failed() {
    use tool_output_format::adapt::rmcp::McpData;
    use tool_output_format::{Batch, ErrorKind, Page, Reply, ResourceRef, ToolError};

    fn check<S: McpData + Clone>(name: &str, values: &[S]) {
        let schema = Value::Object((*McpJson::<S>::output_schema()).clone());
        let validator = jsonschema::validator_for(&schema).expect(name);
        let formatters = [
            Formatter::new(),
            Formatter::new().max_rows(3).max_cell_chars(40),
            Formatter::new().max_chars(600),
            Formatter::new().max_chars(20),
            Formatter::new().redact_keys(["customer_id"]),
        ];
        let failed = ToolError::new(ErrorKind::RateLimited, "slow down")
            .retryable(true)
            .retry_after_secs(9)
            .hint("wait");
        for fmt in &formatters {
            for value in values {
                let ok: Result<S, ToolError> = Ok(value.clone());
                let err: Result<S, ToolError> = Err(failed.clone());
                for (result, view) in [
                    (&ok, ModelView::Text),
                    (&ok, ModelView::TextAndStructured(900)),
                    (&err, ModelView::Text),
                ] {
                    let r = McpJson::render(fmt, name, result, view);
                    assert_eq!(r.is_error(), result.is_err(), "{name}");
                    let data = r.structured_content().expect(name);
                    let errors: Vec<String> =
                        validator.iter_errors(data).map(|e| e.to_string()).collect();
                    assert!(
                        errors.is_empty(),
                        "{name}: {errors:?}\n{data}\n{}",
                        r.text()
                    );
                }
            }
        }
    }

    let orders = mcp_server::bundled_orders();
    let page = |items: Vec<Order>| {
        let n = items.len();
        Page::new(items)
            .has_more(true)
            .next_cursor("c")
            .total(120)
            .item_cursors((0..n).map(|i| format!("c{i}")))
            .next_call("list_orders", "cursor")
    };
    check("get_order", &[orders[0].clone()]);
    check("list_all", &[orders.clone(), Vec::new()]);
    check(
        "list_orders",
        &[
            page(orders.clone()),
            page(Vec::new()),
            Page::new(Vec::new()),
        ],
    );
    check(
        "cancel_orders",
        &[
            Batch::new(),
            Batch::new()
                .ok("a")
                .failed("b", ToolError::new(ErrorKind::Conflict, "already shipped"))
                .retry_call("cancel_orders", "order_ids"),
        ],
    );
    check(
        "export",
        &[Reply::new(orders.clone())
            .link("view", "https://shop.example.com/orders")
            .reference(ResourceRef::new("resource://exports/7").size_bytes(48_213))],
    );
    check("note", &["a\nlong\nnote".repeat(50), String::new()]);
    check("maybe", &[Some(orders[1].clone()), None]);
}
