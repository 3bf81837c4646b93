//! One upstream `tools/call` result rendered by the library with that tool's options.
//!
//! - A text block that holds a JSON object or array is rendered as that JSON (tables,
//!   records, pages); any other text through the string path (lines, budget). When the call
//!   carries the tool's query argument (`query_arg`), both are focused on its text. Both go through
//!   [`Formatter::format_async`], so a cut result is stored and ends with its `Next:` line.
//! - `isError` stays what upstream said (an error's text is rendered too, within the budget).
//! - Image, audio, embedded resource and resource link blocks pass through untouched.
//! - The library's report of each cut text goes in `_meta` under [`META_KEY`], beside
//!   upstream's own `_meta` keys.
//! - `structuredContent` is kept as upstream sent it (so it stays valid against upstream's
//!   `outputSchema`), except for a tool with keys to redact: there it is dropped, with the
//!   tool's `outputSchema` (see [`strip_schema`]), so no secret reaches the host in clear.

use rmcp::model::{CallToolResult, ContentBlock, MetaObject, Tool};
use serde_json::Value;
use tool_output_format::Formatter;

/// The `_meta` key of the proxy's reports: one per text block the library cut, in order.
pub const META_KEY: &str = "tool-output-format/reports";

/// Render `result`, a result of upstream's tool `tool`, with `fmt` (its store included),
/// focused on `query` when the call carried one (the tool's `query_arg`).
/// `redacting`: the tool redacts keys, so upstream's `structuredContent` is dropped.
pub async fn render(
    fmt: &Formatter,
    tool: &str,
    query: Option<&str>,
    mut result: CallToolResult,
    redacting: bool,
) -> CallToolResult {
    let mut reports = Vec::new();
    for block in &mut result.content {
        let ContentBlock::Text(text) = block else {
            continue;
        };
        let json = match serde_json::from_str::<Value>(&text.text) {
            Ok(v @ (Value::Object(_) | Value::Array(_))) => Some(v),
            _ => None,
        };
        let out = match (query, &json) {
            (Some(q), Some(v)) => fmt.focus(q).format_async(tool, v).await,
            (Some(q), None) => fmt.focus(q).format_async(tool, text.text.as_str()).await,
            (None, Some(v)) => fmt.format_async(tool, v).await,
            (None, None) => fmt.format_async(tool, text.text.as_str()).await,
        };
        if out.report.truncated()
            || out.report.reference.is_some()
            || out.report.store_error.is_some()
        {
            reports.push(out.report.to_json());
        }
        text.text = out.text;
    }
    if redacting {
        result.structured_content = None;
    }
    if !reports.is_empty() {
        let meta = result.meta.get_or_insert_with(MetaObject::default);
        meta.0.insert(META_KEY.to_owned(), Value::Array(reports));
    }
    result
}

/// A tool as the host sees it: a redacting tool loses its `outputSchema` (its results carry
/// no `structuredContent` through the proxy); every other tool is listed as upstream lists it.
pub fn strip_schema(mut tool: Tool, redacting: bool) -> Tool {
    if redacting {
        tool.output_schema = None;
    }
    tool
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use rmcp::model::ContentBlock;
    use serde_json::json;
    use tool_output_format::store::Fetch;
    use tool_output_format::{MemoryStore, ToolOptions};

    use super::*;

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
        assert_eq!(meta.0[META_KEY].as_array().unwrap().len(), 1);
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
        let plain = CallToolResult::success(vec![ContentBlock::text("hello")]);
        let out = render(&fmt, "t", None, plain, false).await;
        assert_eq!(
            out.content[0].as_text().unwrap().text,
            fmt.format("t", "hello")
        );
    }
}
