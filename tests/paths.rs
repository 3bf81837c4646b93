//! The promises on every path a result takes (SPEC 18, 19), beyond `format` and
//! `format_json` (which `tests/compose.rs` covers): typed MCP data (`McpJson`, sync and async),
//! untyped MCP results, the full result put in a store and every page the fetch tool serves.
//!
//! ```text
//! cargo test --features rmcp --test paths
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::CallToolResult;
use rmcp::schemars;
use serde::Serialize;
use serde_json::Value;
use tool_output_format::adapt::rmcp::{McpJson, McpResult};
use tool_output_format::store::Fetch;
use tool_output_format::{
    Formatter, Page, Reply, Shape, ToolOptions, ToolOutput,
    store::{MemoryStore, ResultStore},
};

/// Every secret value of the fixtures below: none may appear in any output.
const SECRETS: [&str; 5] = [
    "sk_live_derived",
    "tok_nested",
    "tok_in_list",
    "pw_runtime",
    "tok_in_map",
];

#[derive(Clone, Serialize, schemars::JsonSchema, ToolOutput)]
struct Credential {
    kind: String,
    #[tool_output(redact)]
    token: String,
}

#[derive(Clone, Serialize, schemars::JsonSchema, ToolOutput)]
#[serde(rename_all = "camelCase")]
struct Account {
    account_id: u32,
    /// serde and the text name it differently: the data is found by serde's name.
    #[serde(rename = "apiKey")]
    #[tool_output(rename = "key", redact)]
    api_key: String,
    primary: Credential,
    others: Vec<Credential>,
    backup: Option<Credential>,
    by_host: BTreeMap<String, Credential>,
    /// A runtime secret key (`redact_keys`), not marked on the type.
    password: String,
}

fn account(id: u32) -> Account {
    let cred = |token: &str| Credential {
        kind: "api".into(),
        token: token.into(),
    };
    Account {
        account_id: id,
        api_key: "sk_live_derived".into(),
        primary: cred("tok_nested"),
        others: vec![cred("tok_in_list"), cred("tok_in_list")],
        backup: Some(cred("tok_nested")),
        by_host: BTreeMap::from([("db".to_owned(), cred("tok_in_map"))]),
        password: "pw_runtime".into(),
    }
}

fn assert_no_secret(what: &str, out: &str) {
    for s in SECRETS {
        assert!(
            !out.contains(s),
            "{what}: the secret {s} is in clear:\n{out}"
        );
    }
}

/// The whole wire form of a typed result: text, structuredContent and `_meta`.
fn wire<S>(r: McpJson<S>) -> String {
    let call: CallToolResult = r.into();
    serde_json::to_string(&call).unwrap()
}

/// Formatters that each hide the old probe's answer one way: a shape that drops the secret
/// key, a budget under 40 characters, and the agent preset.
fn formatters() -> Vec<(&'static str, Formatter)> {
    let base = || Formatter::new().redact_keys(["password"]);
    vec![
        ("plain", base()),
        (
            "shape drops the key",
            base().tool(
                "get_account",
                ToolOptions::new().shape(Shape::new().drop(["password", "apiKey"])),
            ),
        ),
        ("budget of 30", base().max_chars(30)),
        (
            "agent preset",
            Formatter::for_agents().redact_keys(["password"]),
        ),
    ]
}

#[test]
fn typed_mcp_data_never_carries_a_secret() {
    for (name, fmt) in formatters() {
        let one = account(1);
        let many = vec![account(1), account(2)];
        let page = Page::new(many.clone()).has_more(true).next_cursor("c2");
        let reply = Reply::new(account(3));
        let out = wire(McpJson::new(&fmt, "get_account", &one));
        assert_no_secret(&format!("{name}: record"), &out);
        let v: Value = serde_json::from_str(&out).unwrap();
        let data = &v["structuredContent"];
        // Present, redacted, under serde's names, at every depth.
        if name == "plain" {
            assert_eq!(data["apiKey"], "[redacted]", "{out}");
            assert_eq!(data["primary"]["token"], "[redacted]");
            assert_eq!(data["others"][1]["token"], "[redacted]");
            assert_eq!(data["backup"]["token"], "[redacted]");
            assert_eq!(data["byHost"]["db"]["token"], "[redacted]");
            assert_eq!(data["password"], "[redacted]");
            // What is not secret is untouched.
            assert_eq!(data["primary"]["kind"], "api");
            assert_eq!(data["accountId"], 1);
        }
        assert_no_secret(
            &format!("{name}: list"),
            &wire(McpJson::new(&fmt, "get_account", &many)),
        );
        assert_no_secret(
            &format!("{name}: page"),
            &wire(McpJson::new(&fmt, "get_account", &page)),
        );
        assert_no_secret(
            &format!("{name}: reply"),
            &wire(McpJson::new(&fmt, "get_account", &reply)),
        );
        let ok: Result<Account, String> = Ok(account(4));
        assert_no_secret(
            &format!("{name}: result"),
            &wire(McpJson::result(&fmt, "get_account", &ok)),
        );
        // The untyped results too.
        let untyped: CallToolResult = McpResult::structured(&fmt, "get_account", &one).into();
        assert_no_secret(
            &format!("{name}: untyped"),
            &serde_json::to_string(&untyped).unwrap(),
        );
    }
}

#[test]
fn redacted_typed_data_still_validates_against_its_schema() {
    let fmt = Formatter::new().redact_keys(["password"]);
    let schema = Value::Object((*McpJson::<Vec<Account>>::output_schema()).clone());
    let validator = jsonschema::validator_for(&schema).unwrap();
    let r = McpJson::new(&fmt, "list_accounts", &vec![account(1), account(2)]);
    let data = r.structured_content().unwrap().clone();
    assert!(validator.is_valid(&data), "{data}");
}

#[derive(Clone, Serialize, schemars::JsonSchema, ToolOutput)]
struct Run {
    id: u32,
    started: std::time::SystemTime,
    took: Duration,
    retried_at: Option<std::time::SystemTime>,
}

/// One form per value type: a `SystemTime` and a `Duration` read the same in the
/// text, the stored full result and `structuredContent` (serde writes
/// `{"secs_since_epoch": ...}`), and the data still validates against the declared schema.
#[test]
fn time_values_have_one_form_in_text_data_and_schema() {
    let at = std::time::UNIX_EPOCH + Duration::from_millis(1_703_203_200_500);
    let runs: Vec<Run> = (0..3)
        .map(|id| Run {
            id,
            started: at,
            took: Duration::from_millis(5_405_250),
            retried_at: (id == 1).then_some(std::time::UNIX_EPOCH),
        })
        .collect();
    let fmt = Formatter::new();
    let schema = Value::Object((*McpJson::<Vec<Run>>::output_schema()).clone());
    let validator = jsonschema::validator_for(&schema).unwrap();
    let r = McpJson::new(&fmt, "list_runs", &runs);
    let data = r.structured_content().unwrap().clone();
    assert!(validator.is_valid(&data), "{data}\n{schema:#}");
    assert_eq!(data["items"][0]["started"], "2023-12-22T00:00:00.5Z");
    assert_eq!(data["items"][0]["took"], "1h 30m 5s 250ms");
    assert_eq!(data["items"][1]["retried_at"], "1970-01-01T00:00:00Z");
    let text = fmt.format("list_runs", &runs);
    assert!(text.contains("2023-12-22T00:00:00.5Z") && text.contains("1h 30m 5s 250ms"));
    assert_eq!(runs.to_json()[0]["started"], data["items"][0]["started"]);
    assert!(
        !schema.to_string().contains("secs_since_epoch"),
        "{schema:#}"
    );
}

#[test]
fn the_stored_result_and_every_fetch_page_hold_no_secret() {
    let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let rows: Vec<Account> = (1..=7).map(account).collect();
    for (name, fmt) in formatters() {
        let fmt = fmt
            .max_rows(2)
            .store(store.clone(), "get_stored_result")
            .tool("get_account", ToolOptions::new());
        let out = fmt.format_with_report("get_account", &rows);
        assert_no_secret(&format!("{name}: text"), &out.text);
        let reference = out
            .report
            .reference
            .clone()
            .expect("a cut result is stored");
        let stored = store.get(&reference).unwrap();
        assert_no_secret(&format!("{name}: stored"), &stored.to_string());
        let fetch = Fetch::new(store.clone(), "get_stored_result")
            .formatter(&fmt)
            .page_size(2);
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let page = fetch.call(&reference, cursor.as_deref(), None);
            assert_no_secret(&format!("{name}: fetch page {pages}"), &page);
            pages += 1;
            let p = fetch.page(&reference, cursor.as_deref(), None).unwrap();
            match p.get_next_cursor() {
                Some(c) if pages < 20 => cursor = Some(c.to_owned()),
                _ => break,
            }
        }
        assert!(pages >= 4, "{name}: 7 rows in pages of 2");
    }
}

/// The first cell of each table row of a text (the account ids).
fn first_cells(text: &str) -> Vec<u32> {
    text.lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split('|').next()?.trim().parse().ok())
        .collect()
}

/// The reference and cursor of a text's fetch Next line.
fn fetch_args(text: &str) -> Option<serde_json::Map<String, Value>> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Next: call get_stored_result("))?;
    let mut args = serde_json::Map::new();
    for part in line.strip_suffix(')')?.split(", ") {
        let (k, v) = part.split_once('=')?;
        args.insert(k.to_owned(), Value::String(v.trim_matches('"').to_owned()));
    }
    Some(args)
}

/// `McpJson` on the async path (SPEC 18, 19): a cut typed result is stored in the async
/// store, its text ends with the one Next line from where it stopped, its data holds the rows
/// the text shows and no secret; the fetch tool on the async store, called as an MCP client
/// would call it, walks the rest to the last row with no secret on any page.
#[tokio::test(flavor = "current_thread")]
async fn mcp_json_async_stores_and_the_fetch_walks_to_the_last_row() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fmt = Formatter::new()
        .max_rows(3)
        .redact_keys(["password"])
        .store_async(store.clone(), "get_stored_result", Duration::from_secs(2));
    let rows: Vec<Account> = (1..=10).map(account).collect();
    let r = McpJson::new_async(&fmt, "list_accounts", &rows).await;
    let text = r.text().to_owned();
    assert_eq!(text.matches("Next:").count(), 1, "{text}");
    let args = fetch_args(&text).expect("a fetch Next line");
    assert_eq!(args["cursor"], "3", "{text}");
    assert_eq!(store.len(), 1);
    assert_eq!(
        r.structured_content().unwrap()["items"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_no_secret("async typed result", &wire(r));
    let fetch = Fetch::new_async(store.clone(), "get_stored_result").formatter(&fmt);
    let mut seen = first_cells(&text);
    let mut next = Some(args);
    let mut calls = 0;
    while let Some(args) = next {
        calls += 1;
        assert!(calls < 20, "the walk does not end");
        let page = fetch.mcp_call_async(Some(&args)).await;
        assert!(!page.is_error(), "{}", page.text());
        assert_no_secret("fetch page", page.text());
        assert!(page.text().matches("Next:").count() <= 1);
        seen.extend(first_cells(page.text()));
        next = fetch_args(page.text());
    }
    assert_eq!(seen, (1..=10).collect::<Vec<_>>());
    assert_eq!(store.len(), 1, "a page was stored again");
}

/// The sync `Fetch::mcp_call` on an async store tells the model what happened (an error
/// result), and the async call serves the page.
#[tokio::test(flavor = "current_thread")]
async fn the_fetch_tool_on_an_async_store_answers_on_the_async_path() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let reference = ResultStore::put(&*store, &serde_json::json!([1, 2, 3])).unwrap();
    let fetch = Fetch::new_async(store, "get_stored_result");
    let args = serde_json::json!({"ref": reference});
    let page = fetch.mcp_call_async(args.as_object()).await;
    assert!(!page.is_error(), "{}", page.text());
    assert!(page.text().contains("- 3"), "{}", page.text());
}

/// A formatter with only an async store, used on the sync path (`McpJson::new`): nothing is
/// stored and the text says so, instead of a cut result that promises nothing and says
/// nothing.
#[test]
fn the_sync_path_on_an_async_store_says_nothing_was_stored() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fmt = Formatter::new().max_rows(3).store_async(
        store.clone(),
        "get_stored_result",
        Duration::from_secs(1),
    );
    let rows: Vec<Account> = (1..=10).map(account).collect();
    let r = McpJson::new(&fmt, "list_accounts", &rows);
    assert!(
        r.text().ends_with(
            "[Full result not stored: the store is asynchronous and this result was rendered \
             on the sync path (the server should call format_async or McpJson::new_async)]"
        ),
        "{}",
        r.text()
    );
    assert!(!r.text().contains("Next:"), "{}", r.text());
    assert_eq!(store.len(), 0);
}
