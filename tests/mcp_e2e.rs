//! End to end over a real transport: `examples/mcp_server.rs` runs as a child process on
//! stdio, driven by rmcp's own client (`TokioChildProcess`), as an MCP host drives it.
//!
//! This test has its own `main` (`harness = false` in Cargo.toml): run with the environment
//! variable [`CHILD_ENV`] set, the same binary is the server (the example's
//! `serve_stdio`), so the test needs no other build step and nothing but MCP on stdout.
//! It prints libtest's lines (`test NAME ... ok`, `test result: ...`) and exits non-zero on
//! a failure.
//!
//! Each check reads both parts of a result: the markdown the model reads and the
//! `structuredContent` a client hands to code (the same orders, the same cursor), with every
//! tool listing an `outputSchema` (the validation itself is `tests/mcp_schema.rs`).
//!
//! ```text
//! cargo test --features rmcp --test mcp_e2e
//! ```

#[path = "../examples/mcp_server.rs"]
#[allow(dead_code)]
mod mcp_server;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// Set in the child's environment: run the server instead of the tests.
const CHILD_ENV: &str = "TOF_MCP_E2E_SERVE";

type Client = RunningService<RoleClient, ()>;
type Check = Result<(), String>;

fn main() -> ExitCode {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if std::env::var_os(CHILD_ENV).is_some() {
        return match rt.block_on(mcp_server::serve_stdio()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("mcp_server: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let outcome = rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), run_all())
            .await
            .unwrap_or_else(|_| {
                vec![(
                    "timeout".to_string(),
                    Err("no answer within 120 s".to_string()),
                )]
            })
    });
    report(&outcome)
}

/// Start the server as a child process and run every check against it, in order (the
/// batch check cancels orders, so it runs after the paging check).
async fn run_all() -> Vec<(String, Check)> {
    let mut results = Vec::new();
    let client = match connect().await {
        Ok(c) => c,
        Err(e) => return vec![("connect".to_string(), Err(e))],
    };
    results.push((
        "lists_the_tools".to_string(),
        lists_the_tools(&client).await,
    ));
    results.push((
        "pages_through_every_order_once".to_string(),
        pages_through_every_order_once(&client).await,
    ));
    results.push((
        "a_cut_page_keeps_text_and_data_in_step".to_string(),
        a_cut_page_keeps_text_and_data_in_step(&client).await,
    ));
    results.push((
        "a_bad_cursor_is_an_error".to_string(),
        a_bad_cursor_is_an_error(&client).await,
    ));
    results.push((
        "get_order_finds_one_and_flags_unknown_ids".to_string(),
        get_order_finds_one_and_flags_unknown_ids(&client).await,
    ));
    results.push((
        "cancel_orders_returns_a_batch".to_string(),
        cancel_orders_returns_a_batch(&client).await,
    ));
    if let Err(e) = client.cancel().await {
        results.push((
            "shutdown".to_string(),
            Err(format!("closing the client: {e}")),
        ));
    }
    results
}

fn report(results: &[(String, Check)]) -> ExitCode {
    println!("\nrunning {} tests", results.len());
    let mut failed = Vec::new();
    for (name, r) in results {
        match r {
            Ok(()) => println!("test {name} ... ok"),
            Err(e) => {
                println!("test {name} ... FAILED");
                failed.push((name, e));
            }
        }
    }
    for (name, e) in &failed {
        println!("\n---- {name} ----\n{e}");
    }
    let passed = results.len() - failed.len();
    let status = if failed.is_empty() { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {status}. {passed} passed; {} failed; 0 ignored; 0 measured; 0 filtered out\n",
        failed.len()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}

async fn connect() -> Result<Client, String> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let transport = TokioChildProcess::new(tokio::process::Command::new(exe).configure(|cmd| {
        cmd.env(CHILD_ENV, "1");
    }))
    .map_err(|e| format!("spawning the server: {e}"))?;
    ().serve(transport)
        .await
        .map_err(|e| format!("initialize: {e}"))
}

async fn call(client: &Client, tool: &str, args: Value) -> Result<CallToolResult, String> {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    client
        .call_tool(params)
        .await
        .map_err(|e| format!("{tool}: {e}"))
}

/// The text block (the markdown), which every result carries first.
fn text(result: &CallToolResult) -> Result<&str, String> {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.as_str())
        .ok_or_else(|| format!("no text block first: {result:?}"))
}

fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Check {
    if cond { Ok(()) } else { Err(msg()) }
}

async fn lists_the_tools(client: &Client) -> Check {
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list: {e}"))?;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for want in ["list_orders", "get_order", "cancel_orders"] {
        ensure(names.contains(&want), || {
            format!("no tool {want} in {names:?}")
        })?;
    }
    let list = tools
        .iter()
        .find(|t| t.name == "list_orders")
        .ok_or("list_orders")?;
    let props = list
        .input_schema
        .get("properties")
        .cloned()
        .unwrap_or_default();
    ensure(props.get("cursor").is_some(), || {
        format!("list_orders has no cursor argument: {props}")
    })?;
    let required = list
        .input_schema
        .get("required")
        .cloned()
        .unwrap_or(json!([]));
    ensure(
        !required
            .as_array()
            .is_some_and(|r| r.contains(&json!("cursor"))),
        || format!("cursor must be optional: {required}"),
    )?;
    for tool in &tools {
        let schema = tool
            .output_schema
            .as_deref()
            .ok_or_else(|| format!("{} lists no outputSchema", tool.name))?;
        ensure(schema.get("type") == Some(&json!("object")), || {
            format!("{}: the outputSchema's root is not an object", tool.name)
        })?;
    }
    let get = tools
        .iter()
        .find(|t| t.name == "get_order")
        .ok_or("get_order")?;
    let props = get
        .input_schema
        .get("properties")
        .cloned()
        .unwrap_or_default();
    ensure(props.get("order_id").is_some(), || {
        format!("get_order has no order_id argument: {props}")
    })
}

/// The order ids in the rows of the markdown table(s) of a result.
fn order_ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix('|'))
        .filter_map(|rest| rest.split('|').next())
        .map(str::trim)
        .filter(|cell| cell.starts_with("ORD-"))
        .map(str::to_string)
        .collect()
}

/// The cursor argument of the `Next: call list_orders(cursor=...)` line (a JSON string).
fn next_cursor(text: &str) -> Result<Option<String>, String> {
    const NEXT: &str = "Next: call list_orders(cursor=";
    let Some(line) = text.lines().find(|l| l.contains(NEXT)) else {
        return Ok(None);
    };
    let arg = &line[line.find(NEXT).unwrap_or(0) + NEXT.len()..];
    let end = arg
        .find(')')
        .ok_or_else(|| format!("unclosed Next line: {line}"))?;
    serde_json::from_str::<String>(&arg[..end])
        .map(Some)
        .map_err(|e| format!("cursor in {line:?} is not a JSON string: {e}"))
}

async fn pages_through_every_order_once(client: &Client) -> Check {
    let expected: Vec<String> = mcp_server::bundled_orders()
        .into_iter()
        .map(|o| o.order_id)
        .collect();
    ensure(expected.len() == 120, || {
        format!("bundled orders: {}", expected.len())
    })?;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        pages += 1;
        ensure(pages <= 10, || {
            "more than 10 pages: the cursors do not advance".to_string()
        })?;
        // The first call sends no arguments at all, as a model that omits the optional one.
        let args = match &cursor {
            None => Value::Null,
            Some(c) => json!({ "cursor": c }),
        };
        let result = call(client, "list_orders", args).await?;
        let md = text(&result)?;
        ensure(result.is_error == Some(false), || {
            format!("page {pages} is an error:\n{md}")
        })?;
        let data = result
            .structured_content
            .as_ref()
            .filter(|v| v.is_object())
            .ok_or_else(|| {
                format!(
                    "page {pages}: structuredContent is not an object: {:?}",
                    result.structured_content
                )
            })?;
        let ids = order_ids(md);
        ensure(structured_ids(data)? == ids, || {
            format!("page {pages}: the data's orders are not the text's: {data}")
        })?;
        ensure(
            data["has_more"] == json!(md.contains("has_more: true")),
            || format!("page {pages}: has_more differs: {data}"),
        )?;
        ensure(data.get("notices").is_none(), || {
            format!("page {pages}: notices inside the data: {data}")
        })?;
        ensure(
            ids.len() == mcp_server::PAGE_SIZE.min(120 - (pages - 1) * 25),
            || format!("page {pages} has {} orders:\n{md}", ids.len()),
        )?;
        for id in ids {
            *seen.entry(id).or_default() += 1;
        }
        let more = md.contains("has_more: true");
        let done = md.contains("has_more: false");
        ensure(more != done, || {
            format!("page {pages} must state has_more exactly once:\n{md}")
        })?;
        if done {
            ensure(next_cursor(md)?.is_none(), || {
                format!("last page has a Next line:\n{md}")
            })?;
            ensure(
                data.get("next_cursor").is_none() && data.get("next").is_none(),
                || format!("last page's data has a cursor: {data}"),
            )?;
            break;
        }
        let next = next_cursor(md)?
            .ok_or_else(|| format!("page {pages} has more but no Next line:\n{md}"))?;
        ensure(data["next_cursor"] == json!(next), || {
            format!("page {pages}: the data's next_cursor is not {next:?}: {data}")
        })?;
        ensure(md.contains(&format!("next_cursor: {next}")), || {
            format!(
                "page {pages}: the footer's cursor differs from the Next line's {next:?}:\n{md}"
            )
        })?;
        cursor = Some(next);
    }
    ensure(pages == 5, || {
        format!("120 orders in {pages} pages, expected 5")
    })?;
    let twice: Vec<_> = seen.iter().filter(|(_, n)| **n != 1).collect();
    ensure(twice.is_empty(), || {
        format!("seen more than once: {twice:?}")
    })?;
    let missing: Vec<_> = expected
        .iter()
        .filter(|id| !seen.contains_key(*id))
        .collect();
    ensure(missing.is_empty(), || format!("never seen: {missing:?}"))?;
    ensure(seen.len() == 120, || {
        format!("{} distinct orders seen", seen.len())
    })
}

/// The order ids of a page's `structuredContent`.
fn structured_ids(data: &Value) -> Result<Vec<String>, String> {
    data["items"]
        .as_array()
        .ok_or_else(|| format!("no items array: {data}"))?
        .iter()
        .map(|o| {
            o["order_id"]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("an item without order_id: {o}"))
        })
        .collect()
}

/// All 120 orders in one call do not fit the server's 4,000-character budget: the text and
/// `structuredContent` hold the same orders, the cursor resumes at the first order cut, and
/// the cut notice is in `_meta`, not in the data.
async fn a_cut_page_keeps_text_and_data_in_step(client: &Client) -> Check {
    let result = call(client, "list_orders", json!({"limit": 120})).await?;
    let md = text(&result)?;
    ensure(result.is_error == Some(false), || {
        format!("an error:\n{md}")
    })?;
    ensure(md.chars().count() <= mcp_server::MAX_CHARS, || {
        format!("{} chars over the budget", md.chars().count())
    })?;
    let ids = order_ids(md);
    ensure(!ids.is_empty() && ids.len() < 120, || {
        format!("not cut ({} orders):\n{md}", ids.len())
    })?;
    let data = result
        .structured_content
        .as_ref()
        .ok_or("no structuredContent")?;
    ensure(structured_ids(data)? == ids, || {
        format!("the data's orders are not the text's: {data}")
    })?;
    let resume = ids.len().to_string();
    ensure(
        data["has_more"] == true && data["next_cursor"] == json!(resume),
        || format!("has_more / next_cursor of the cut page: {data}"),
    )?;
    ensure(next_cursor(md)?.as_deref() == Some(resume.as_str()), || {
        format!("the Next line does not resume at {resume}:\n{md}")
    })?;
    let cuts = result
        .meta
        .as_ref()
        .and_then(|m| m.0.get("tool-output-format/cuts"))
        .ok_or("no cut notices in _meta")?;
    let first = &cuts["notices"][0];
    ensure(
        first["kind"] == "rows" && first["kept"] == json!(ids.len()) && first["total"] == 120,
        || format!("the rows notice: {cuts}"),
    )?;
    ensure(
        first["text"].as_str().is_some_and(|t| md.contains(t)),
        || format!("the notice is not the text's: {cuts}"),
    )
}

async fn a_bad_cursor_is_an_error(client: &Client) -> Check {
    let result = call(client, "list_orders", json!({"cursor": "not-a-cursor"})).await?;
    let md = text(&result)?;
    ensure(result.is_error == Some(true), || {
        format!("isError is {:?}:\n{md}", result.is_error)
    })?;
    ensure(
        md.contains("invalid_input") && md.contains("not-a-cursor"),
        || md.to_string(),
    )
}

async fn get_order_finds_one_and_flags_unknown_ids(client: &Client) -> Check {
    let result = call(client, "get_order", json!({"order_id": "ORD-13007"})).await?;
    let md = text(&result)?;
    ensure(result.is_error == Some(false), || {
        format!("isError on a known id:\n{md}")
    })?;
    ensure(md.contains("ORD-13007") && md.contains("order_id"), || {
        md.to_string()
    })?;

    let result = call(client, "get_order", json!({"order_id": "ORD-404"})).await?;
    let md = text(&result)?;
    ensure(result.is_error == Some(true), || {
        format!("isError is {:?} for an unknown id:\n{md}", result.is_error)
    })?;
    ensure(
        md.lines()
            .next()
            .is_some_and(|l| l.starts_with("**") && l.ends_with("failed**")),
        || format!("no `**... failed**` title:\n{md}"),
    )?;
    ensure(md.contains("not_found"), || {
        format!("no kind not_found:\n{md}")
    })?;
    ensure(md.contains("order ORD-404 does not exist"), || {
        format!("no message:\n{md}")
    })?;
    ensure(md.contains("list_orders lists every order id"), || {
        format!("no hint:\n{md}")
    })?;
    let error = result
        .structured_content
        .as_ref()
        .map(|v| v["error"].clone())
        .unwrap_or_default();
    ensure(
        error["kind"] == "not_found"
            && error["message"] == "order ORD-404 does not exist"
            && error["retryable"] == false,
        || format!("structured error: {:?}", result.structured_content),
    )
}

async fn cancel_orders_returns_a_batch(client: &Client) -> Check {
    let orders = mcp_server::bundled_orders();
    let with = |status: &str| {
        orders
            .iter()
            .find(|o| o.status == status)
            .map(|o| o.order_id.clone())
            .ok_or_else(|| format!("no {status} order in the data"))
    };
    let (pending, delivered, shipped) = (with("pending")?, with("delivered")?, with("shipped")?);
    let ids = json!([pending, delivered, shipped, "ORD-404"]);
    let result = call(client, "cancel_orders", json!({ "order_ids": ids })).await?;
    let md = text(&result)?;
    // A batch reports per-item outcomes: the call itself did not fail.
    ensure(result.is_error == Some(false), || {
        format!("a batch is not an error:\n{md}")
    })?;
    ensure(md.contains("4 total, 1 succeeded, 3 failed"), || {
        format!("counts:\n{md}")
    })?;
    let retry = format!("Next: call cancel_orders(order_ids=[\"{shipped}\"])");
    ensure(md.contains(&retry), || format!("no {retry:?}:\n{md}"))?;

    let again = call(client, "get_order", json!({ "order_id": pending })).await?;
    ensure(text(&again)?.contains("cancelled"), || {
        format!("{pending} was not cancelled")
    })
}
