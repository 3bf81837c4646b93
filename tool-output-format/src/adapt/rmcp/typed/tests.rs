//! The typed MCP result: its wire form, its cuts, its budget, its redaction. Schema validation
//! with a real validator is in the workspace's `tests/mcp_schema.rs`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::store::MemoryStore;
use crate::{Batch, Formatter, NextAction, Page, Reply, ResourceRef, ToolOptions};

fn wire<S>(r: McpJson<S>) -> Value {
    serde_json::to_value(CallToolResult::from(r)).unwrap()
}

/// A typed record (the derive cannot be used inside the crate: its output names
/// `::tool_output_format`); its markdown is its JSON form's.
#[derive(Clone, serde::Serialize)]
struct Account {
    id: u32,
    name: String,
    password: String,
    #[serde(skip)]
    json: Value,
}

impl ToolOutput for Account {
    fn to_node<'a>(&'a self, cx: &crate::Context<'_>) -> crate::doc::Node<'a> {
        self.json.to_node(cx)
    }

    fn to_json(&self) -> Value {
        self.json.clone()
    }
}

impl JsonSchema for Account {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Account")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "password": {"type": "string"},
            },
            "required": ["id", "name", "password"],
        })
    }
}

fn accounts(n: u32) -> Vec<Account> {
    (0..n)
        .map(|id| Account {
            id,
            name: format!("account number {id}"),
            password: format!("hunter{id}"),
            json: json!({"id": id, "name": format!("account number {id}"), "password": format!("hunter{id}")}),
        })
        .collect()
}

#[test]
fn a_record_is_sent_as_it_is_with_no_meta() {
    let fmt = Formatter::new();
    let w = wire(McpJson::new(&fmt, "get_account", &accounts(1)[0]));
    assert_eq!(
        w,
        json!({
            "resultType": "complete",
            "content": [{"type": "text", "text": "**get_account result**\n\n- id: 0\n- name: account number 0\n- password: hunter0"}],
            "structuredContent": {"id": 0, "name": "account number 0", "password": "hunter0"},
            "isError": false,
        })
    );
}

#[test]
fn the_error_form_is_the_one_format_json_writes() {
    let fmt = Formatter::new();
    let errors = [
        ToolError::new(ErrorKind::NotFound, "no such account").hint("list_accounts"),
        ToolError::new(ErrorKind::RateLimited, "slow down")
            .retryable(true)
            .retry_after_secs(30),
        ToolError::new(ErrorKind::Timeout, "no answer in 10 s").retry_after_secs(5),
    ];
    for e in errors {
        let r = McpJson::<Account>::result(&fmt, "get_account", &Err::<Account, _>(e.clone()));
        assert!(r.is_error());
        assert_eq!(r.text(), fmt.format("get_account", &e));
        let core = fmt.format_json("get_account", &e);
        assert_eq!(r.structured_content(), Some(&core["result"]), "{core}");
    }
}

#[test]
fn any_error_type_converts() {
    let fmt = Formatter::new();
    let r: McpJson<u32> = McpJson::result(&fmt, "t", &Err("disk full".to_string()));
    assert!(r.is_error());
    assert_eq!(
        r.structured_content().unwrap()["error"]["message"],
        "disk full"
    );
}

#[test]
fn a_cut_page_holds_the_texts_items_and_its_cursor() {
    let fmt = Formatter::new().max_chars(400);
    let page = Page::new(accounts(20))
        .has_more(true)
        .next_cursor("p2")
        .total(40)
        .item_cursors((0..20).map(|i| format!("c{i}")))
        .next_call("list_accounts", "cursor");
    let r = McpJson::new(&fmt, "list_accounts", &page);
    let text = r.text().to_string();
    assert!(text.chars().count() <= 400, "{text}");
    let data = r.structured_content().unwrap().clone();
    let items = data["items"].as_array().unwrap();
    let rows = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| id "))
        .count();
    assert!(rows > 0 && rows < 20, "{text}");
    assert_eq!(items.len(), rows);
    // Each item whole, as the type serializes it.
    assert_eq!(
        items[0],
        json!({"id": 0, "name": "account number 0", "password": "hunter0"})
    );
    let cursor = format!("c{rows}");
    assert_eq!(
        (&data["has_more"], &data["next_cursor"], &data["total"]),
        (&json!(true), &json!(cursor), &json!(40))
    );
    assert_eq!(
        data["next"],
        json!({"tool": "list_accounts", "args": {"cursor": cursor}})
    );
    assert!(text.contains(&format!("next_cursor: {cursor}")), "{text}");
    let cuts = r.cuts().unwrap();
    assert_eq!(cuts["notices"][0]["kind"], "rows");
    assert_eq!(cuts["notices"][0]["kept"], rows);
    assert_eq!(cuts["notices"][0]["total"], 20);
    assert_eq!(cuts["notices"][1]["kind"], "page");
    for n in cuts["notices"].as_array().unwrap() {
        assert!(
            text.contains(n["text"].as_str().unwrap()),
            "{n} not in\n{text}"
        );
    }
}

#[test]
fn shortened_values_are_the_texts_cut_only() {
    let long = vec!["x".repeat(500), "y".repeat(500)];
    let fmt = Formatter::new().max_chars(300);
    let r = McpJson::new(&fmt, "t", &long);
    assert!(r.text().contains("…[+"), "{}", r.text());
    let items = r.structured_content().unwrap()["items"].as_array().unwrap();
    assert!(items.iter().all(|v| v.as_str().unwrap().len() == 500));
    let notices = &r.cuts().unwrap()["notices"];
    let shortened = notices
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == "shortened")
        .unwrap();
    assert_eq!(shortened["applies_to"], "text");
}

#[test]
fn non_objects_are_wrapped() {
    let fmt = Formatter::new();
    let cases: [(McpJson<String>, Value); 1] = [(
        McpJson::new(&fmt, "t", &"hi".to_string()),
        json!({"result": "hi"}),
    )];
    for (r, want) in cases {
        assert_eq!(r.structured_content(), Some(&want));
    }
    let none: McpJson<Option<u32>> = McpJson::new(&fmt, "t", &None);
    assert_eq!(none.structured_content(), Some(&json!({"result": null})));
    assert!(!none.is_error());
    let empty: McpJson<Vec<Account>> = McpJson::new(&fmt, "t", &Vec::new());
    assert_eq!(empty.text(), "*(empty)*");
    assert_eq!(empty.structured_content(), Some(&json!({"items": []})));
    assert!(!empty.is_error());
}

#[test]
fn secrets_are_redacted_in_the_data_too() {
    let fmt = Formatter::new().redact_keys(["password"]);
    let r = McpJson::new(&fmt, "list_accounts", &accounts(2));
    assert!(!r.text().contains("hunter"), "{}", r.text());
    let data = r.structured_content().unwrap().to_string();
    assert!(!data.contains("hunter"), "{data}");
    assert!(data.contains("\"password\":\"[redacted]\""), "{data}");
    // Per tool, as the text.
    let fmt = Formatter::new().tool("get_account", ToolOptions::new().redact_keys(["name"]));
    let r = McpJson::new(&fmt, "get_account", &accounts(1)[0]);
    assert_eq!(r.structured_content().unwrap()["name"], "[redacted]");
    assert_eq!(r.structured_content().unwrap()["password"], "hunter0");
    let r = McpJson::new(&fmt, "other", &accounts(1)[0]);
    assert_eq!(r.structured_content().unwrap()["name"], "account number 0");
}

#[test]
fn a_batch_lists_its_failures_and_retry_call() {
    let fmt = Formatter::new();
    let batch = Batch::new()
        .ok("a")
        .failed(
            "b",
            ToolError::new(ErrorKind::Unavailable, "down").retryable(true),
        )
        .failed("c", ToolError::new(ErrorKind::NotFound, "gone"))
        .retry_call("send", "ids");
    let r = McpJson::new(&fmt, "send", &batch);
    assert!(!r.is_error());
    assert_eq!(
        r.structured_content(),
        Some(&json!({
            "total": 3, "succeeded": 1, "failed": 2,
            "failures": [
                {"id": "b", "error": {"kind": "unavailable", "message": "down", "retryable": true}},
                {"id": "c", "error": {"kind": "not_found", "message": "gone", "retryable": false}},
            ],
            "next": {"tool": "send", "args": {"ids": ["b"]}},
        }))
    );
}

#[test]
fn a_stored_result_names_its_reference() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fmt = Formatter::new()
        .max_chars(300)
        .store(store, "get_stored_result");
    let r = McpJson::new(&fmt, "list_accounts", &accounts(30));
    let reference = r.cuts().unwrap()["reference"].as_str().unwrap().to_string();
    assert!(r.text().contains(&reference), "{}", r.text());
}

#[test]
fn the_shared_budget_holds_text_and_data_together() {
    let fmt = Formatter::new();
    let all = accounts(200);
    for max in [300, 1000, 4000] {
        let r = McpJson::render(
            &fmt,
            "list_accounts",
            &Ok::<_, String>(all.clone()),
            ModelView::TextAndStructured(max),
        );
        let data = r.structured_content().unwrap();
        let total = r.text().chars().count() + data.to_string().chars().count();
        assert!(total <= max, "{max}: {total}");
        let view = &r.cuts().unwrap()["view"];
        assert_eq!(view["fits"], true);
        assert_eq!(view["text_chars"], r.text().chars().count());
    }
    // Small enough already: rendered once, as the text view, with the view said.
    let r = McpJson::render(
        &fmt,
        "t",
        &Ok::<_, String>(accounts(1)),
        ModelView::TextAndStructured(4000),
    );
    assert!(r.cuts().unwrap()["notices"].as_array().unwrap().is_empty());
    assert_eq!(r.cuts().unwrap()["view"]["fits"], true);
}

#[test]
fn a_tools_own_budget_wins_and_the_meta_says_it_does_not_fit() {
    let fmt = Formatter::new().tool("list_accounts", ToolOptions::new().max_chars(4000));
    let r = McpJson::render(
        &fmt,
        "list_accounts",
        &Ok::<_, String>(accounts(200)),
        ModelView::TextAndStructured(1000),
    );
    assert_eq!(r.cuts().unwrap()["view"]["fits"], false);
}

#[test]
fn references_can_be_added_through_the_untyped_result() {
    let fmt = Formatter::new();
    let w = serde_json::to_value(
        McpJson::new(&fmt, "export", &7)
            .into_untyped()
            .reference(ResourceRef::new("resource://x"))
            .into_call_tool_result(),
    )
    .unwrap();
    assert_eq!(w["structuredContent"], json!({"result": 7}));
    assert_eq!(w["content"][1]["type"], "resource_link");
}

#[test]
fn the_schema_is_an_object_of_the_data_or_the_error() {
    let schema = Value::Object((*McpJson::<Account>::output_schema()).clone());
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["anyOf"][0], json!({"$ref": "#/$defs/Account"}));
    assert_eq!(schema["anyOf"][1]["required"], json!(["error"]));
    assert_eq!(
        schema["$defs"]["ToolError"]["properties"]["kind"]["enum"],
        json!(
            ErrorKind::ALL
                .iter()
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
        )
    );
    let list = Value::Object((*McpJson::<Vec<Account>>::output_schema()).clone());
    assert_eq!(list["anyOf"][0]["required"], json!(["items"]));
    let text = Value::Object((*McpJson::<String>::output_schema()).clone());
    assert_eq!(text["anyOf"][0]["required"], json!(["result"]));
    let batch = Value::Object((*McpJson::<Batch>::output_schema()).clone());
    assert_eq!(
        batch["anyOf"][0]["required"],
        json!(["total", "succeeded", "failed", "failures"])
    );
}

#[test]
fn a_reply_carries_its_links_references_and_next_calls() {
    let fmt = Formatter::new();
    let reply = Reply::new(accounts(2))
        .link("view", "https://example.com/accounts")
        .reference(ResourceRef::new("resource://exports/7").name("accounts.csv"))
        .next(NextAction::call("get_account").arg("id", 1));
    let r = McpJson::new(&fmt, "list_accounts", &reply);
    let w = wire(r);
    assert_eq!(w["content"][1]["type"], "resource_link");
    assert_eq!(w["content"][1]["uri"], "resource://exports/7");
    assert_eq!(w["content"].as_array().unwrap().len(), 2);
    assert_eq!(
        w["structuredContent"],
        json!({
            "result": [
                {"id": 0, "name": "account number 0", "password": "hunter0"},
                {"id": 1, "name": "account number 1", "password": "hunter1"},
            ],
            "links": [{"label": "view", "url": "https://example.com/accounts"}],
            "references": [{"uri": "resource://exports/7", "name": "accounts.csv"}],
            "next": [{"tool": "get_account", "args": {"id": 1}}],
        })
    );
    // A cut reply: the same rows in the data, the notice's path in it.
    let r = McpJson::new(
        &Formatter::new().max_chars(300),
        "list_accounts",
        &Reply::new(accounts(40)),
    );
    let rows = r.structured_content().unwrap()["result"]
        .as_array()
        .unwrap()
        .len();
    assert!(rows < 40 && rows > 0, "{}", r.text());
    assert_eq!(r.cuts().unwrap()["notices"][0]["kept"], rows);
    assert_eq!(r.cuts().unwrap()["notices"][0]["path"], "/result");
}

#[test]
fn the_shared_budget_never_raises_the_formatters_own() {
    let fmt = Formatter::new().max_chars(500);
    let own = McpJson::new(&fmt, "list_accounts", &accounts(200));
    let shared = McpJson::render(
        &fmt,
        "list_accounts",
        &Ok::<_, String>(accounts(200)),
        ModelView::TextAndStructured(1500),
    );
    assert!(shared.text().chars().count() <= 500, "{}", shared.text());
    let rows = |r: &McpJson<Vec<Account>>| {
        r.structured_content().unwrap()["items"]
            .as_array()
            .unwrap()
            .len()
    };
    assert!(rows(&shared) <= rows(&own));
    let view = &shared.cuts().unwrap()["view"];
    assert_eq!(view["fits"], true);
}
