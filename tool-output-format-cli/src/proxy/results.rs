//! One upstream `tools/call` result rendered by the library with that tool's options.
//!
//! The result is upstream's JSON (every field it sent); the proxy changes only what it says
//! here, and everything else is passed as it came:
//!
//! - A text block that holds a JSON object or array is rendered as that JSON (tables,
//!   records, pages), a tree whose items hold only a name, a kind and children as its
//!   indented outline of names (`crate::outline`); any other text through the string path
//!   (lines, budget). When the call
//!   carries the tool's query argument (`query_arg`), both are focused on its text. Both go through
//!   [`Formatter::format_async`], so a cut result is stored and ends with its `Next:` line.
//! - `isError` stays what upstream said (an error's text is rendered too, within the budget).
//! - Image, audio, embedded resource and resource link blocks pass through untouched.
//! - `structuredContent` is sent as upstream sent it (so it stays valid against upstream's
//!   `outputSchema`) or left out, as the tool's [`StructuredContent`] says; a tool with keys
//!   to redact never sends it.
//! - What the proxy did goes in `_meta` under [`META_KEY`] (SPEC 23), beside upstream's own
//!   `_meta` keys: `reports`, the library's report of each text block it cut (in order), and
//!   `structured_content`, what became of upstream's `structuredContent`
//!   (`{"option": "fit", "sent": false, "chars": 104140}`).

use serde_json::{Value, json};
use tool_output_format::Formatter;
use tool_output_format::adapt::META_KEY;

use super::config::{Budget, StructuredContent};

/// Render `result`, upstream's result of its tool `tool` as JSON, with `fmt` (its store
/// included), focused on `query` when the call carried one (the tool's `query_arg`);
/// `structured` says what becomes of its `structuredContent` (under `fit`: sent when no text
/// was cut and its JSON is within `budget`).
pub async fn render(
    fmt: &Formatter,
    tool: &str,
    query: Option<&str>,
    mut result: Value,
    (structured, budget): (StructuredContent, Budget),
) -> Value {
    let mut reports = Vec::new();
    let mut cut = false;
    let blocks = result.get_mut("content").and_then(Value::as_array_mut);
    for block in blocks.into_iter().flatten() {
        if block.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        let Some(Value::String(text)) = block.get_mut("text") else {
            continue;
        };
        // Data as JSON, NDJSON or a Python literal is rendered as the data it is; a tree of
        // names as their outline (a text).
        let mut json = crate::notation::parse(text);
        if let Some(outlined) = json.as_ref().and_then(crate::outline::outline) {
            *text = outlined;
            json = None;
        }
        let out = match (query, &json) {
            (Some(q), Some(v)) => fmt.focus(q).format_async(tool, v).await,
            (Some(q), None) => fmt.focus(q).format_async(tool, text.as_str()).await,
            (None, Some(v)) => fmt.format_async(tool, v).await,
            (None, None) => fmt.format_async(tool, text.as_str()).await,
        };
        cut |= out.report.truncated();
        if out.report.truncated()
            || out.report.reference.is_some()
            || out.report.store_error.is_some()
        {
            reports.push(out.report.to_json());
        } else if json.is_none() && query.is_none() && !text.contains(['\n', '\r']) {
            // A short text (one line: an error, a status) the formatter kept whole passes
            // as upstream sent it: a fence would only add to it.
            continue;
        }
        *text = out.text;
    }
    let mut meta = serde_json::Map::new();
    if !reports.is_empty() {
        meta.insert("reports".into(), Value::Array(reports));
    }
    if let Some(obj) = result.as_object_mut()
        && let Some(data) = obj.get("structuredContent").filter(|v| !v.is_null())
    {
        let json = data.to_string();
        let chars = json.chars().count();
        let sent = match structured {
            StructuredContent::Keep => true,
            StructuredContent::Drop => false,
            StructuredContent::Fit => !cut && budget.holds(&json),
        };
        if !sent {
            obj.remove("structuredContent");
        }
        meta.insert(
            "structured_content".into(),
            json!({"option": structured.name(), "sent": sent, "chars": chars}),
        );
    }
    if !meta.is_empty()
        && let Some(obj) = result.as_object_mut()
    {
        let upstream = obj
            .entry("_meta")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Some(m) = upstream.as_object_mut() {
            m.insert(META_KEY.to_owned(), Value::Object(meta));
        }
    }
    result
}

/// A tool of upstream's `tools/list` (JSON) as the host sees it: every field as upstream
/// lists it, but a tool whose `structuredContent` may be left out (`fit`, `drop`, a
/// redacting tool) is listed without its `outputSchema`, so that a client that validates
/// results does not reject the ones without it.
pub fn list_tool(tool: &mut Value, structured: StructuredContent) {
    if structured != StructuredContent::Keep
        && let Some(obj) = tool.as_object_mut()
    {
        obj.remove("outputSchema");
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::json;
    use tool_output_format::store::Fetch;
    use tool_output_format::{ToolOptions, store::MemoryStore};

    use super::*;

    /// [`render`] on rmcp's typed result; `redacting`: `drop`, else `keep`.
    async fn render(
        fmt: &Formatter,
        tool: &str,
        query: Option<&str>,
        result: CallToolResult,
        redacting: bool,
    ) -> CallToolResult {
        let sc = if redacting {
            StructuredContent::Drop
        } else {
            StructuredContent::Keep
        };
        let v = serde_json::to_value(result).unwrap();
        let out = super::render(fmt, tool, query, v, (sc, Budget::default())).await;
        serde_json::from_value(out).unwrap()
    }

    fn rows(n: usize) -> Value {
        Value::Array(
            (0..n)
                .map(|i| json!({"id": format!("row-{i}"), "n": i}))
                .collect(),
        )
    }

    #[tokio::test]
    async fn json_text_is_a_table_cut_with_a_next_line_and_the_fetch_reaches_every_row() {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
        let fmt = Formatter::for_agents()
            .tool("list", ToolOptions::new().max_rows(10))
            .store_async(store.clone(), "get_stored_result", Duration::from_secs(1));
        let upstream = CallToolResult::success(vec![ContentBlock::text(rows(120).to_string())]);
        let out = render(&fmt, "list", None, upstream, false).await;
        assert_eq!(out.is_error, Some(false));
        let text = &out.content[0].as_text().unwrap().text;
        assert!(
            text.starts_with("[Truncated to 10 rows of 120 total]"),
            "{text}"
        );
        assert!(text.contains("|row-9|"), "{text}");
        assert_eq!(text.matches("\nNext: ").count(), 1, "{text}");
        let meta = out.meta.as_ref().unwrap();
        assert_eq!(meta.0[META_KEY]["reports"].as_array().unwrap().len(), 1);
        // Follow the Next lines to the last row.
        let fetch = Fetch::new_async(store, "get_stored_result").formatter(&fmt);
        let mut next = text.lines().last().unwrap().to_owned();
        let mut seen = text.matches("|row-").count();
        for _ in 0..50 {
            let args = next_args(&next);
            let page = fetch.mcp_call_async(args.as_object()).await;
            assert!(!page.is_error(), "{}", page.text());
            seen += page.text().matches("|row-").count();
            match page.text().lines().last() {
                Some(l) if l.starts_with("Next: call get_stored_result(") => next = l.to_owned(),
                _ => break,
            }
        }
        assert!(seen >= 120, "{seen}");
    }

    #[tokio::test]
    async fn a_query_focuses_json_rows_and_text_and_the_cut_is_stored() {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
        let fmt = Formatter::new().max_rows(2).max_lines(2).store_async(
            store.clone(),
            "get_stored_result",
            Duration::from_secs(1),
        );
        let tickets = json!([
            {"id": 1, "t": "printer jam"},
            {"id": 2, "t": "refund late"},
            {"id": 3, "t": "vpn down"},
            {"id": 4, "t": "refund twice"},
            {"id": 5, "t": "mouse"},
        ]);
        let upstream = CallToolResult::success(vec![ContentBlock::text(tickets.to_string())]);
        let out = render(&fmt, "search", Some("refund"), upstream, false).await;
        let text = &out.content[0].as_text().unwrap().text;
        assert_eq!(
            text.matches("\nNext: call get_stored_result(").count(),
            1,
            "{text}"
        );
        assert!(
            text.starts_with("[Kept 2 of 5 rows relevant to \"refund\"]"),
            "{text}"
        );
        assert!(text.contains("refund late") && text.contains("refund twice"));
        assert!(!text.contains("printer"), "{text}");
        assert_eq!(store.len(), 1, "the focused cut stores the whole result");
        let log = "boot ok\nfan ok\ndisk full on /var\nnet ok\ndisk slow";
        let upstream = CallToolResult::success(vec![ContentBlock::text(log)]);
        let out = render(&fmt, "logs", Some("disk"), upstream, false).await;
        let text = &out.content[0].as_text().unwrap().text;
        assert!(
            text.starts_with("[Kept 1 of 5 lines relevant to \"disk\"]"),
            "{text}"
        );
        assert!(text.contains("disk slow"), "{text}");
        assert!(!text.contains("fan ok"), "{text}");
        // No query: the same result unfocused.
        let upstream = CallToolResult::success(vec![ContentBlock::text(tickets.to_string())]);
        let out = render(&fmt, "search", None, upstream, false).await;
        let text = &out.content[0].as_text().unwrap().text;
        assert!(text.contains("printer jam"), "{text}");
    }

    /// `Next: call get_stored_result(ref="r_x", cursor="10")` as arguments.
    fn next_args(line: &str) -> Value {
        let inner = line
            .trim_start_matches("Next: call get_stored_result(")
            .trim_end_matches(')');
        let mut args = serde_json::Map::new();
        for part in inner.split(", ") {
            let (k, v) = part.split_once('=').unwrap();
            args.insert(k.to_owned(), Value::String(v.trim_matches('"').to_owned()));
        }
        Value::Object(args)
    }

    #[tokio::test]
    async fn a_one_line_text_kept_whole_passes_as_upstream_sent_it() {
        let fmt = Formatter::for_agents();
        for line in [
            "Error: ENOENT: no such file or directory, open '/x'",
            "# not | a `table`",
        ] {
            let upstream = CallToolResult::error(vec![ContentBlock::text(line)]);
            let out = render(&fmt, "t", None, upstream, false).await;
            assert_eq!(out.content[0].as_text().unwrap().text, line);
        }
        // Two lines are a text, fenced.
        let upstream = CallToolResult::success(vec![ContentBlock::text("a\nb")]);
        let out = render(&fmt, "t", None, upstream, false).await;
        assert_eq!(out.content[0].as_text().unwrap().text, "```\na\nb\n```");
        // One line too long for the budget is cut, announced and fenced.
        let fmt = Formatter::new().max_chars(100);
        let upstream = CallToolResult::success(vec![ContentBlock::text("x".repeat(1_000))]);
        let out = render(&fmt, "t", None, upstream, false).await;
        let text = &out.content[0].as_text().unwrap().text;
        assert!(
            text.chars().count() <= 100 && text.contains("```"),
            "{text}"
        );
    }

    #[tokio::test]
    async fn errors_stay_errors_and_other_blocks_pass_through() {
        let fmt = Formatter::for_agents();
        let image = ContentBlock::image("aGVsbG8=", "image/png");
        let mut upstream = CallToolResult::error(vec![
            ContentBlock::text("boom\n".repeat(30_000)),
            image.clone(),
        ]);
        upstream.structured_content = Some(json!({"token": "s3", "ok": false}));
        let out = render(&fmt, "t", None, upstream.clone(), false).await;
        assert_eq!(out.is_error, Some(true));
        assert_eq!(out.content[1], image);
        let text = &out.content[0].as_text().unwrap().text;
        assert!(
            // The preset's budget is the bound (no default cap of 100 lines under it).
            text.starts_with("[Truncated to ") && text.contains(" lines of 30000 total]"),
            "{text}"
        );
        assert_eq!(out.structured_content, upstream.structured_content);
        // A redacting tool: no structuredContent.
        let out = render(&fmt, "t", None, upstream, true).await;
        assert_eq!(out.structured_content, None);
    }

    /// server-filesystem's `directory_tree` (JSON text of `name`, `type`, `children`): an
    /// outline of names in a fence, not a table with the nested levels as JSON in a cell.
    #[tokio::test]
    async fn a_tree_of_names_is_rendered_as_its_outline() {
        let tree = json!([
            {"name": "src", "type": "directory", "children": [
                {"name": "main.rs", "type": "file"},
                {"name": "proxy", "type": "directory", "children": [
                    {"name": "raw.rs", "type": "file"}
                ]}
            ]},
            {"name": "Cargo.toml", "type": "file"}
        ]);
        let upstream = json!({"content": [{"type": "text", "text": tree.to_string()}]});
        let fmt = Formatter::for_agents();
        let out = super::render(
            &fmt,
            "directory_tree",
            None,
            upstream,
            (StructuredContent::Fit, Budget::default()),
        );
        let text = out.await["content"][0]["text"].as_str().unwrap().to_owned();
        assert!(
            text.contains(
                "src (directory)\n  main.rs (file)\n  proxy (directory)\n    raw.rs (file)\n\
                 Cargo.toml (file)"
            ),
            "{text}"
        );
        assert!(!text.contains("\"children\""), "{text}");
    }

    #[tokio::test]
    async fn a_python_literal_text_is_rendered_as_the_data_it_is() {
        let rows: Vec<String> = (1..=300)
            .map(|i| format!("{{'order_id': {i}, 'amount': {i}.5, 'paid': True, 'note': None}}"))
            .collect();
        let upstream =
            json!({"content": [{"type": "text", "text": format!("[{}]", rows.join(", "))}]});
        let budget = Budget {
            chars: Some(2000),
            tokens: None,
        };
        let fmt = Formatter::for_agents().max_chars(2000);
        let out = super::render(
            &fmt,
            "read_query",
            None,
            upstream,
            (StructuredContent::Fit, budget),
        );
        let text = out.await["content"][0]["text"].as_str().unwrap().to_owned();
        assert!(text.chars().count() <= 2000, "{text}");
        assert!(text.contains("300 total"), "{text}");
        assert!(text.contains("|order_id|"), "{text}");
        assert!(
            text.contains("|1|1.5|") && text.contains("|300|300.5|"),
            "{text}"
        );
        assert!(!text.contains("'order_id'"), "{text}");
    }

    #[tokio::test]
    async fn fit_sends_structured_content_only_with_a_whole_text_and_says_so() {
        let fmt = Formatter::new().max_chars(400);
        let data = json!({"content": "line\n".repeat(500)});
        let mut upstream = json!({"content": [{"type": "text", "text": data["content"]}],
                                  "structuredContent": data, "_meta": {"up": 1}});
        let budget = Budget {
            chars: Some(400),
            tokens: None,
        };
        let fit = (StructuredContent::Fit, budget);
        let out = super::render(&fmt, "read", None, upstream.clone(), fit).await;
        assert!(out.get("structuredContent").is_none(), "{out}");
        let said = &out["_meta"][META_KEY]["structured_content"];
        let chars = data.to_string().chars().count();
        assert_eq!(
            said,
            &json!({"option": "fit", "sent": false, "chars": chars})
        );
        assert_eq!(out["_meta"]["up"], 1, "upstream's _meta keys stay");
        assert!(out["_meta"][META_KEY]["reports"][0].is_object());
        // Kept: upstream's data unchanged, as its outputSchema describes it.
        let keep = (StructuredContent::Keep, budget);
        let kept = super::render(&fmt, "read", None, upstream.clone(), keep);
        assert_eq!(kept.await["structuredContent"], data);
        // A text within the budget: sent under fit, not under drop.
        upstream["content"][0]["text"] = json!("short");
        upstream["structuredContent"] = json!({"content": "short"});
        let out = super::render(&fmt, "read", None, upstream.clone(), fit).await;
        assert_eq!(out["structuredContent"], json!({"content": "short"}));
        assert_eq!(out["_meta"][META_KEY]["structured_content"]["sent"], true);
        let drop = (StructuredContent::Drop, budget);
        let out = super::render(&fmt, "read", None, upstream.clone(), drop).await;
        assert!(out.get("structuredContent").is_none(), "{out}");
        // A text within the budget whose JSON is not: left out under fit (a host that reads
        // structuredContent in place of the text would read past the budget).
        let wide = json!({"rows": (0..60).map(|i| json!({"id": i, "url": format!("https://api.example.com/items/{i}")})).collect::<Vec<_>>()});
        upstream["content"][0]["text"] = json!("60 items");
        upstream["structuredContent"] = wide;
        let out = super::render(&fmt, "read", None, upstream, fit).await;
        assert!(out.get("structuredContent").is_none(), "{out}");
        assert_eq!(out["_meta"][META_KEY]["structured_content"]["sent"], false);
    }

    #[test]
    fn a_tool_whose_structured_content_may_be_left_out_is_listed_without_its_output_schema() {
        let tool = json!({"name": "t", "inputSchema": {"type": "object"},
                          "outputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}});
        let mut kept = tool.clone();
        list_tool(&mut kept, StructuredContent::Keep);
        assert_eq!(kept, tool);
        for sc in [StructuredContent::Fit, StructuredContent::Drop] {
            let mut listed = tool.clone();
            list_tool(&mut listed, sc);
            assert!(listed.get("outputSchema").is_none());
            assert_eq!(listed["execution"], tool["execution"]);
        }
    }

    #[tokio::test]
    async fn a_result_within_the_budget_is_the_library_s_text_and_no_report() {
        let fmt = Formatter::for_agents();
        let v = json!({"id": 7, "name": "n", "url": "https://api.github.com/repos/a/b"});
        let upstream = CallToolResult::success(vec![ContentBlock::text(v.to_string())]);
        let out = render(&fmt, "get_repo", None, upstream, false).await;
        assert_eq!(
            out.content[0].as_text().unwrap().text,
            fmt.format("get_repo", &v)
        );
        assert!(out.meta.is_none());
        let plain = CallToolResult::success(vec![ContentBlock::text("hello\nworld")]);
        let out = render(&fmt, "t", None, plain, false).await;
        assert_eq!(
            out.content[0].as_text().unwrap().text,
            fmt.format("t", "hello\nworld")
        );
    }
}
