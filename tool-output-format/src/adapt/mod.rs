//! Where agents run it: a rendered result in the shape each agent framework and model API
//! expects.
//!
//! | where | what you call | what the host or model gets |
//! |---|---|---|
//! | an MCP server on `rmcp` with output schemas (feature `schemars`) | `McpJson::result(&fmt, tool, &result)` as the return type, `McpJson::<T>::output_schema()` as the `#[tool]`'s `output_schema` (`adapt::rmcp`) | the tool's `outputSchema` in `tools/list`; a `CallToolResult` with the markdown as a text block, the data the text shows as `structuredContent` (valid against the schema, errors included), the cut notices in `_meta` |
//! | an MCP server on `rmcp` (feature `rmcp`) | `McpResult::new(&fmt, tool, &result)` as the `#[tool]` function's return type (`adapt::rmcp`) | a `CallToolResult`: the markdown as a text block, `isError` for errors, a `resource_link` block per reference, `structuredContent` with `McpResult::structured` |
//! | a rig agent (feature `rig`) | `adapt::rig::output(&fmt, tool, &result)` as the tool's `call` result | the markdown as one text block (not a JSON-quoted string); errors as a `ToolExecutionError` whose model output is the markdown |
//! | the Anthropic Messages API | [`anthropic_tool_result`] | a `tool_result` content block: `tool_use_id`, `content`, `is_error` |
//! | the `OpenAI` Chat Completions API | [`openai_tool_message`] | a `role: "tool"` message: `tool_call_id`, `content` |
//!
//! Every adapter renders once with [`Formatter::format_with_report`]: the text is exactly
//! what [`Formatter::format`] returns, and "is this an error" is `Formatted::is_error()`
//! (true for a `ToolError` and an `Err`, false for everything else, an empty page and a
//! batch whose items all failed included).
//!
//! ```
//! use serde_json::json;
//! use tool_output_format::{Formatter, adapt::{anthropic_tool_result, openai_tool_message}};
//!
//! let fmt = Formatter::new();
//! let block = anthropic_tool_result(&fmt, "get_weather", "toolu_01", &json!({"temp_c": 21}));
//! assert_eq!(block, json!({
//!     "type": "tool_result",
//!     "tool_use_id": "toolu_01",
//!     "content": "**get_weather result**\n\n- temp_c: 21",
//!     "is_error": false,
//! }));
//! let msg = openai_tool_message(&fmt, "add", "call_abc", &3);
//! assert_eq!(msg, json!({"role": "tool", "tool_call_id": "call_abc", "content": "3"}));
//! ```

/// The `_meta` key under which every MCP face puts what it did to a result: the typed
/// adapter's cut notices, stored reference and budget (`adapt::rmcp`, feature `schemars`),
/// and `tof proxy`'s reports. One key for every path.
///
/// ```
/// assert_eq!(tool_output_format::adapt::META_KEY, "tool-output-format/cuts");
/// ```
#[cfg_attr(
    feature = "schemars",
    doc = r#"
With the typed adapter:

```
use rmcp::model::CallToolResult;
use tool_output_format::Formatter;
use tool_output_format::adapt::{META_KEY, rmcp::McpJson};

let rows: Vec<u32> = (0..500).collect();
let fmt = Formatter::new().max_chars(100);
let call: CallToolResult = McpJson::new(&fmt, "ids", &rows).into();
let cuts = &call.meta.unwrap().0[META_KEY];
assert_eq!(cuts["notices"][0]["kind"], "items");
assert_eq!(cuts["notices"][0]["applies_to"], "both");
```
"#
)]
pub const META_KEY: &str = "tool-output-format/cuts";

mod api;
#[cfg(feature = "rig")]
pub mod rig;
#[cfg(feature = "rmcp")]
pub mod rmcp;

pub use api::{anthropic_tool_result, openai_tool_message};

use crate::{Formatter, ToolOutput};

/// The one place the adapters render: the markdown and whether the result is an error.
pub(crate) fn render<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    result: &T,
) -> (String, bool) {
    let out = fmt.format_with_report(tool, result);
    let is_error = out.is_error();
    (out.text, is_error)
}

/// [`render`] on the async path ([`Formatter::format_async`]): the adapters' `*_async`
/// constructors, for tokio hosts whose formatter has an async store.
#[cfg(any(feature = "rmcp", feature = "rig"))]
pub(crate) async fn render_async<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    result: &T,
) -> (String, bool) {
    let out = fmt.format_async(tool, result).await;
    let is_error = out.is_error();
    (out.text, is_error)
}

/// The one place the adapters ask for the structured JSON form.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) fn render_json<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    result: &T,
) -> serde_json::Value {
    fmt.format_json(tool, result)
}
