//! MCP tool results for servers written with [`rmcp`](https://docs.rs/rmcp) (feature `rmcp`).
//!
//! [`McpResult`] is a rendered tool result that converts into rmcp's `CallToolResult`, so a
//! `#[tool]` function returns it directly:
//!
//! - the markdown as a `text` content block, always (hosts that show the model only the text
//!   lose nothing);
//! - `isError: true` for a `ToolError` and an `Err` (false otherwise);
//! - with [`McpResult::structured`], the structured JSON form of the same result as
//!   `structuredContent`, for hosts that prefer it;
//! - each [`ResourceRef`] given to [`McpResult::reference`] (or carried by a [`Reply`], with
//!   [`McpResult::reply`]) as a `resource_link` block **and** as its `Resource: ...` line in
//!   the text, since some clients drop or reject `resource_link` blocks.
//!
//! ```
//! use rmcp::model::CallToolResult;
//! use tool_output_format::{ErrorKind, Formatter, ToolError};
//! use tool_output_format::adapt::rmcp::McpResult;
//!
//! let fmt = Formatter::new();
//! let ok: CallToolResult = McpResult::new(&fmt, "add", &3).into();
//! assert_eq!(ok.is_error, Some(false));
//! assert_eq!(ok.content[0].as_text().unwrap().text, "3");
//!
//! let err = ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist");
//! let failed: CallToolResult = McpResult::new(&fmt, "get_order", &err).into();
//! assert_eq!(failed.is_error, Some(true));
//! ```
//!
//! In a server (the complete program is `examples/mcp_server.rs`):
//!
//! ```
//! use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
//! use tool_output_format::Formatter;
//! use tool_output_format::adapt::rmcp::McpResult;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Args { city: String }
//!
//! #[derive(Clone)]
//! struct Weather { fmt: std::sync::Arc<Formatter> }
//!
//! #[tool_router(server_handler)]
//! impl Weather {
//!     #[tool(description = "Current weather in a city")]
//!     async fn get_weather(&self, Parameters(args): Parameters<Args>) -> McpResult {
//!         let reading = serde_json::json!({"city": args.city, "temp_c": 21});
//!         McpResult::new(&self.fmt, "get_weather", &reading)
//!     }
//! }
//! # fn main() {}
//! ```
//!
//! # Structured content
//!
//! `structuredContent` is the structured JSON form of the result (`Formatter::format_json`:
//! `{"result": ..., "notices": [...]}`, shaped and capped like the text, every cut recorded).
//! MCP wants an object there (rmcp drops a non-object for peers older than protocol
//! `2026-07-28` and then puts its JSON text first in `content`, ahead of the markdown), so
//! anything that is not an object would be sent wrapped as `{"result": ...}`.
//!
//! `McpResult` declares no `outputSchema`: its structured form records cuts and shaping that
//! no declared type describes. For a tool whose clients validate and use the data, return the
//! typed [`McpJson`](#typed-results-mcpjson-feature-schemars) instead (feature `schemars`):
//! the same markdown, `structuredContent` valid against a declared schema, and the cut notices
//! in `_meta`.
#![cfg_attr(feature = "schemars", doc = include_str!("rmcp/typed.md"))]

use std::borrow::Cow;

use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, MetaObject, Resource};
use serde_json::Value;

use crate::doc::agent::{Reply, ResourceRef};
use crate::{Formatter, ToolOutput};

mod fetch;
#[cfg(feature = "schemars")]
mod typed;
#[cfg(feature = "schemars")]
pub use typed::{McpData, McpJson, ModelView};

/// A tool result rendered for MCP: converts into rmcp's `CallToolResult` (`Into`, and
/// rmcp's `IntoCallToolResult`, so it is a valid `#[tool]` return type).
///
/// Built from a [`Formatter`] (a `&Formatter` or an `&Arc<Formatter>`), the tool name and
/// the result; the result is rendered at once, so the value holds no borrow.
///
/// ```
/// use rmcp::model::CallToolResult;
/// use serde_json::json;
/// use tool_output_format::{Formatter, ResourceRef};
/// use tool_output_format::adapt::rmcp::McpResult;
///
/// let fmt = Formatter::new();
/// let result = McpResult::structured(&fmt, "export", &json!({"rows": 120}))
///     .reference(ResourceRef::new("resource://exports/7").name("export.csv").size_bytes(48_213));
/// let call: CallToolResult = result.into();
/// let wire = serde_json::to_value(&call).unwrap();
/// assert_eq!(wire["isError"], false);
/// assert_eq!(wire["content"][0]["type"], "text");
/// assert_eq!(wire["content"][1]["type"], "resource_link");
/// assert_eq!(wire["content"][1]["uri"], "resource://exports/7");
/// assert_eq!(wire["structuredContent"], json!({"result": {"rows": 120}, "notices": []}));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct McpResult {
    text: String,
    is_error: bool,
    structured: Option<Value>,
    references: Vec<ResourceRef>,
    /// The result's `_meta` (typed results put their cut notices there).
    meta: Option<serde_json::Map<String, Value>>,
}

impl McpResult {
    /// Render `result` as the markdown text block (no `structuredContent`).
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let r = McpResult::new(&Formatter::new(), "count", &42);
    /// assert_eq!(r.text(), "42");
    /// assert!(!r.is_error());
    /// assert!(r.structured_content().is_none());
    /// ```
    pub fn new<T: ToolOutput + ?Sized>(fmt: &Formatter, tool: &str, result: &T) -> Self {
        let (text, is_error) = super::render(fmt, tool, result);
        Self::text_only(text, is_error)
    }

    /// A rendered text as the result's one block (no structured content, references or
    /// `_meta`).
    fn text_only(text: String, is_error: bool) -> Self {
        McpResult {
            text,
            is_error,
            structured: None,
            references: Vec::new(),
            meta: None,
        }
    }

    /// [`McpResult::new`] on the async path: a cut result is stored in the formatter's
    /// [async store](Formatter::store_async) without blocking the server's runtime, bounded
    /// by its timeout (a failed put is told in the text, no reference promised).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use std::{sync::Arc, time::Duration};
    /// use tool_output_format::{Formatter, store::MemoryStore};
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let store = Arc::new(MemoryStore::new(Duration::from_secs(600)));
    /// let fmt = Formatter::new()
    ///     .max_rows(2)
    ///     .store_async(store.clone(), "get_stored_result", Duration::from_secs(2));
    /// let rows: Vec<_> = (1..=10).map(|id| serde_json::json!({"id": id})).collect();
    /// let r = McpResult::new_async(&fmt, "list", &rows).await;
    /// assert!(r.text().contains("Next: call get_stored_result(ref=\"r_"));
    /// assert_eq!(store.len(), 1);
    /// # }
    /// ```
    pub async fn new_async<T: ToolOutput + ?Sized>(
        fmt: &Formatter,
        tool: &str,
        result: &T,
    ) -> Self {
        let (text, is_error) = super::render_async(fmt, tool, result).await;
        Self::text_only(text, is_error)
    }

    /// [`McpResult::structured`] on the async path (see [`McpResult::new_async`]); the
    /// structured form is never stored.
    pub async fn structured_async<T: ToolOutput + ?Sized>(
        fmt: &Formatter,
        tool: &str,
        result: &T,
    ) -> Self {
        let mut out = Self::new_async(fmt, tool, result).await;
        out.structured = Some(as_object(super::render_json(fmt, tool, result)));
        out
    }

    /// Render `result` as the markdown text block **and** its structured JSON form as
    /// `structuredContent` (see [the module docs](self#structured-content)).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::Formatter;
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let r = McpResult::structured(&Formatter::new(), "count", &json!({"n": 3}));
    /// assert_eq!(r.text(), "**count result**\n\n- n: 3");
    /// assert_eq!(r.structured_content(), Some(&json!({"result": {"n": 3}, "notices": []})));
    /// ```
    pub fn structured<T: ToolOutput + ?Sized>(fmt: &Formatter, tool: &str, result: &T) -> Self {
        let mut out = Self::new(fmt, tool, result);
        out.structured = Some(as_object(super::render_json(fmt, tool, result)));
        out
    }

    /// Render a [`Reply`] and add each of its references as a `resource_link` block (its
    /// `Resource:` line is already in the reply's text).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Reply, ResourceRef};
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let reply = Reply::new("exported")
    ///     .reference(ResourceRef::new("resource://files/abc").name("report.pdf"));
    /// let r = McpResult::reply(&Formatter::new(), "export", &reply);
    /// // The text block and one `resource_link` block.
    /// assert_eq!(r.clone().into_call_tool_result().content.len(), 2);
    /// assert!(r.text().contains("resource://files/abc"));
    /// ```
    pub fn reply<T>(fmt: &Formatter, tool: &str, reply: &Reply<T>) -> Self
    where
        Reply<T>: ToolOutput,
    {
        Self::new(fmt, tool, reply).with_references(reply.references().iter().cloned())
    }

    /// Add a reference: a `resource_link` block after the text block, and its
    /// `Resource: ...` line at the end of the text unless the text already has it.
    ///
    /// ```
    /// use tool_output_format::{Formatter, ResourceRef};
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let r = McpResult::new(&Formatter::new(), "export", &120)
    ///     .reference(ResourceRef::new("resource://files/abc").name("report.pdf"));
    /// assert_eq!(r.text(), "120\n\nResource: report.pdf resource://files/abc");
    /// ```
    pub fn reference(mut self, reference: ResourceRef) -> Self {
        let line = reference.line();
        if !self.text.lines().any(|l| l.contains(line.as_str())) {
            let appended = self
                .references
                .iter()
                .any(|r| self.text.ends_with(&r.line()));
            let sep = match (self.text.is_empty(), appended) {
                (true, _) => "",
                (false, true) => "\n",
                (false, false) => "\n\n",
            };
            self.text.push_str(sep);
            self.text.push_str(&line);
        }
        self.references.push(reference);
        self
    }

    /// Add several references ([`McpResult::reference`] for each).
    pub(crate) fn with_references<I: IntoIterator<Item = ResourceRef>>(
        self,
        references: I,
    ) -> Self {
        references.into_iter().fold(self, Self::reference)
    }

    /// The markdown text (what the text content block carries).
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// assert_eq!(McpResult::new(&Formatter::new(), "t", &1).text(), "1");
    /// ```
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the result is an error (`isError`).
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, Formatter, ToolError};
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let e = ToolError::new(ErrorKind::Timeout, "upstream took 30 s");
    /// assert!(McpResult::new(&Formatter::new(), "t", &e).is_error());
    /// ```
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The `structuredContent`, when built with [`McpResult::structured`].
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// // A form that is not an object is wrapped (MCP wants an object).
    /// let r = McpResult::structured(&Formatter::new(), "t", &[1, 2]);
    /// assert_eq!(
    ///     r.structured_content(),
    ///     Some(&serde_json::json!({"result": [1, 2], "notices": []}))
    /// );
    /// ```
    #[must_use]
    pub fn structured_content(&self) -> Option<&Value> {
        self.structured.as_ref()
    }

    /// The references, in the order their `resource_link` blocks are sent.
    #[cfg(test)]
    pub(crate) fn references(&self) -> &[ResourceRef] {
        &self.references
    }

    /// The `CallToolResult`: the text block, then one `resource_link` block per reference;
    /// `isError`; `structuredContent` when asked for.
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// use tool_output_format::adapt::rmcp::McpResult;
    /// let call = McpResult::new(&Formatter::new(), "t", "hi").into_call_tool_result();
    /// assert_eq!(call.content.len(), 1);
    /// assert_eq!(call.structured_content, None);
    /// ```
    #[must_use]
    pub fn into_call_tool_result(self) -> CallToolResult {
        let mut content = Vec::with_capacity(1 + self.references.len());
        content.push(ContentBlock::text(self.text));
        content.extend(
            self.references
                .iter()
                .map(|r| ContentBlock::resource_link(resource(r))),
        );
        let mut call = if self.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        call.structured_content = self.structured;
        call.meta = self.meta.map(MetaObject);
        call
    }
}

/// An MCP `Resource` (the body of a `resource_link` block) for a reference: its URI, its
/// name (the URI when it has none), MIME type and size.
fn resource(r: &ResourceRef) -> Resource {
    let name = r.get_name().map_or(Cow::Borrowed(r.uri()), Cow::Borrowed);
    let mut res = Resource::new(r.uri(), name.into_owned());
    if let Some(t) = r.get_content_type() {
        res = res.with_mime_type(t);
    }
    if let Some(n) = r.get_size_bytes() {
        res = res.with_size(n);
    }
    res
}

/// MCP's `structuredContent` is an object: anything else is wrapped as `{"result": ...}`.
fn as_object(value: Value) -> Value {
    match value {
        Value::Object(_) => value,
        other => serde_json::json!({ "result": other }),
    }
}

impl From<McpResult> for CallToolResult {
    fn from(result: McpResult) -> Self {
        result.into_call_tool_result()
    }
}

impl IntoCallToolResult for McpResult {
    fn into_call_tool_result(self) -> Result<CallToolResponse, rmcp::ErrorData> {
        Ok(McpResult::into_call_tool_result(self).into())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Batch, ErrorKind, Page, ToolError};

    fn wire(r: McpResult) -> Value {
        serde_json::to_value(CallToolResult::from(r)).unwrap()
    }

    #[test]
    fn text_block_exact_wire_form() {
        let fmt = Formatter::new();
        let r = McpResult::new(&fmt, "list_users", &json!([{"id": 1}, {"id": 2}]));
        assert_eq!(
            wire(r),
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": "| id |\n|----|\n| 1  |\n| 2  |"}],
                "isError": false,
            })
        );
    }

    #[test]
    fn errors_set_is_error_and_keep_the_text() {
        let fmt = Formatter::new();
        let e = ToolError::new(ErrorKind::NotFound, "order ORD-9 does not exist")
            .hint("list_orders lists them");
        let w = wire(McpResult::new(&fmt, "get_order", &e));
        assert_eq!(w["isError"], json!(true));
        let text = w["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("not_found") && text.contains("order ORD-9 does not exist"),
            "{text}"
        );
        let r: Result<u32, ToolError> = Err(e);
        assert!(McpResult::new(&fmt, "get_order", &r).is_error());
        let r: Result<u32, ToolError> = Ok(1);
        assert!(!McpResult::new(&fmt, "get_order", &r).is_error());
    }

    #[test]
    fn empty_page_and_failed_batch_are_not_errors() {
        let fmt = Formatter::new();
        let page: Page<Value> = Page::new(vec![]);
        assert!(!McpResult::new(&fmt, "list", &page).is_error());
        let batch = Batch::new().failed("a", ToolError::new(ErrorKind::Unavailable, "down"));
        assert!(!McpResult::new(&fmt, "send", &batch).is_error());
    }

    #[test]
    fn references_become_resource_links_and_lines() {
        let fmt = Formatter::new();
        let r = McpResult::new(&fmt, "export", &7)
            .reference(
                ResourceRef::new("resource://files/abc")
                    .name("report.pdf")
                    .content_type("application/pdf")
                    .size_bytes(48_213),
            )
            .reference(ResourceRef::new("file:///tmp/x.csv"));
        assert_eq!(
            r.text(),
            "7\n\nResource: report.pdf (application/pdf, 48.2 kB) resource://files/abc\nResource: file:///tmp/x.csv"
        );
        let w = wire(r);
        assert_eq!(
            w["content"],
            json!([
                {"type": "text", "text": "7\n\nResource: report.pdf (application/pdf, 48.2 kB) resource://files/abc\nResource: file:///tmp/x.csv"},
                {"type": "resource_link", "uri": "resource://files/abc", "name": "report.pdf", "mimeType": "application/pdf", "size": 48213},
                {"type": "resource_link", "uri": "file:///tmp/x.csv", "name": "file:///tmp/x.csv"},
            ])
        );
    }

    #[test]
    fn a_reference_already_in_the_text_is_not_repeated() {
        let fmt = Formatter::new();
        let reference = ResourceRef::new("resource://files/abc").name("report.pdf");
        let reply = Reply::new("exported").reference(reference.clone());
        let r = McpResult::reply(&fmt, "export", &reply);
        assert_eq!(
            r.text().matches(&reference.line()).count(),
            1,
            "{}",
            r.text()
        );
        assert_eq!(r.references(), [reference]);
    }

    #[test]
    fn structured_content_is_an_object_and_text_stays() {
        let fmt = Formatter::new();
        let w = wire(McpResult::structured(&fmt, "count", &json!({"n": 3})));
        assert_eq!(
            w["structuredContent"],
            json!({"result": {"n": 3}, "notices": []})
        );
        assert_eq!(w["content"][0]["text"], json!("**count result**\n\n- n: 3"));
        let w = wire(McpResult::structured(&fmt, "list", &json!([{"a": 1}])));
        assert!(w["structuredContent"].is_object(), "{w}");
        let w = wire(McpResult::structured(&fmt, "t", "plain"));
        assert_eq!(
            w["structuredContent"],
            json!({"result": "plain", "notices": []})
        );
        // Not asked: absent on the wire.
        assert!(
            wire(McpResult::new(&fmt, "t", "x"))
                .get("structuredContent")
                .is_none()
        );
    }

    #[test]
    fn the_trait_conversion_is_the_same_result() {
        let fmt = Formatter::new();
        let r = McpResult::new(&fmt, "t", "x");
        let via_trait = IntoCallToolResult::into_call_tool_result(r.clone()).unwrap();
        match via_trait {
            CallToolResponse::Complete(call) => assert_eq!(call, CallToolResult::from(r)),
            _ => panic!("not a complete result"),
        }
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn with_references() {
        use crate::adapt::rmcp::McpResult;
        use crate::{Formatter, ResourceRef};
        let refs = [
            ResourceRef::new("resource://a"),
            ResourceRef::new("resource://b"),
        ];
        let r = McpResult::new(&Formatter::new(), "t", &1).with_references(refs);
        assert_eq!(
            r.text(),
            "1\n\nResource: resource://a\nResource: resource://b"
        );
    }

    #[test]
    fn references() {
        use crate::Formatter;
        use crate::adapt::rmcp::McpResult;
        assert!(
            McpResult::new(&Formatter::new(), "t", &1)
                .references()
                .is_empty()
        );
    }
}
