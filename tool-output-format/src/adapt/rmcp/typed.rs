//! Typed MCP results (features `rmcp` and `schemars`): the markdown for the model, typed data
//! with a declared `outputSchema` for the client. Documented in the
//! [`adapt::rmcp`](crate::adapt::rmcp#typed-results-mcpjson-feature-schemars) module docs
//! (`typed.md`).

mod data;
mod meta;

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, JsonObject};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value, json};

use data::{Place, error_json, sealed};
use meta::{kept, meta};

use super::McpResult;
use crate::adapt::META_KEY;
use crate::doc::agent::{ErrorKind, ToToolError, ToolError};
use crate::{Formatted, Formatter, ToolOutput};

/// What the budget of a typed result covers: the part of the result the model reads (see
/// [the module docs](crate::adapt::rmcp#one-budget-for-what-the-model-reads)).
///
/// ```
/// use tool_output_format::Formatter;
/// use tool_output_format::adapt::rmcp::{McpJson, ModelView};
///
/// let rows: Vec<u32> = (0..1000).collect();
/// let fmt = Formatter::new();
/// let r = McpJson::render(&fmt, "ids", &Ok::<_, String>(rows), ModelView::TextAndStructured(400));
/// let structured = serde_json::to_string(r.structured_content().unwrap()).unwrap();
/// assert!(r.text().chars().count() + structured.chars().count() <= 400);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ModelView {
    /// The model reads the text block: the formatter's budget covers the text, and
    /// `structuredContent` holds the same items (the default).
    #[default]
    Text,
    /// The model reads the text and the structured content: both together (the text's
    /// characters plus those of `structuredContent` as compact JSON) stay within this many
    /// characters, by rendering the text with a smaller `max_chars`.
    ///
    /// A `max_chars` set for this tool with [`Formatter::tool`] wins over the smaller one
    /// (per-tool options come first), so with this view set the tool's budget here, not there;
    /// when the two still do not fit, `_meta` says so (`"fits": false`).
    TextAndStructured(usize),
}

/// A typed MCP tool result: the rendered markdown as the text block and the data it shows as
/// `structuredContent`, valid against the schema [`McpJson::output_schema`] declares (see
/// [the module docs](crate::adapt::rmcp#typed-results-mcpjson-feature-schemars)).
///
/// `S` is the result's type: a `Serialize + JsonSchema + ToolOutput` type (a struct, a
/// `Vec`, a string), a [`Page`](crate::Page) or a [`Batch`](crate::Batch) of such items, a [`Reply`](crate::Reply) around one
/// ([`McpData`]). Rendered at once, it holds no borrow; it converts into rmcp's
/// `CallToolResult` (`Into`, and rmcp's `IntoCallToolResult` for a `#[tool]` return type).
///
/// ```
/// use rmcp::model::CallToolResult;
/// use serde_json::json;
/// use tool_output_format::adapt::rmcp::McpJson;
/// use tool_output_format::{Formatter, Page};
///
/// let page = Page::new(vec!["a".to_string(), "b".to_string()])
///     .has_more(true)
///     .next_cursor("c2")
///     .next_call("list_names", "cursor");
/// let call: CallToolResult = McpJson::new(&Formatter::new(), "list_names", &page).into();
/// let wire = serde_json::to_value(&call).unwrap();
/// assert_eq!(wire["isError"], false);
/// assert_eq!(
///     wire["content"][0]["text"],
///     "- a\n- b\n\nhas_more: true\nnext_cursor: c2\nNext: call list_names(cursor=\"c2\")"
/// );
/// assert_eq!(
///     wire["structuredContent"],
///     json!({"items": ["a", "b"], "has_more": true, "next_cursor": "c2",
///            "next": {"tool": "list_names", "args": {"cursor": "c2"}}})
/// );
/// ```
#[must_use]
pub struct McpJson<S> {
    inner: McpResult,
    _data: PhantomData<fn() -> S>,
}

impl<S> Clone for McpJson<S> {
    fn clone(&self) -> Self {
        McpJson {
            inner: self.inner.clone(),
            _data: PhantomData,
        }
    }
}

impl<S> std::fmt::Debug for McpJson<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpJson")
            .field("type", &std::any::type_name::<S>())
            .field("result", &self.inner)
            .finish()
    }
}

impl<S: McpData> McpJson<S> {
    /// Render a successful result; the formatter's budget covers the text
    /// ([`ModelView::Text`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::Formatter;
    ///
    /// // A list is wrapped in an object: MCP wants an object root.
    /// let r = McpJson::new(&Formatter::new(), "ids", &vec![1, 2]);
    /// assert_eq!(r.text(), "- 1\n- 2");
    /// assert_eq!(r.structured_content(), Some(&json!({"items": [1, 2]})));
    /// assert!(!r.is_error());
    /// ```
    pub fn new(fmt: &Formatter, tool: &str, data: &S) -> Self {
        let out = fmt.format_with_report(tool, data);
        Self::from_data(fmt, tool, data, out, ModelView::Text, &|f| {
            f.format_with_report(tool, data)
        })
    }

    /// [`McpJson::new`] on the async path: a cut result is stored in the formatter's
    /// [async store](Formatter::store_async) without blocking the server's runtime, bounded
    /// by its timeout (a failed put is told in the text, no reference promised), as
    /// [`McpResult::new_async`](super::McpResult::new_async) does.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use std::{sync::Arc, time::Duration};
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::{Formatter, store::MemoryStore};
    /// let store = Arc::new(MemoryStore::new(Duration::from_secs(600)));
    /// let fmt = Formatter::new()
    ///     .max_chars(200)
    ///     .store_async(store.clone(), "get_stored_result", Duration::from_secs(2));
    /// let ids: Vec<u32> = (1..=100).collect();
    /// let r = McpJson::new_async(&fmt, "ids", &ids).await;
    /// // The data holds the items the text shows; the text resumes after them.
    /// let shown = r.structured_content().unwrap()["items"].as_array().unwrap().len();
    /// assert!(shown < 100);
    /// assert!(r.text().ends_with(&format!("cursor=\"{shown}\")")), "{}", r.text());
    /// assert_eq!(store.len(), 1);
    /// # }
    /// ```
    pub async fn new_async(fmt: &Formatter, tool: &str, data: &S) -> Self {
        let out = fmt.format_async(tool, data).await;
        Self::from_data(fmt, tool, data, out, ModelView::Text, &|f| {
            f.format_with_report(tool, data)
        })
    }

    /// [`McpJson::result`] on the async path (see [`McpJson::new_async`]).
    pub async fn result_async<E: ToToolError>(
        fmt: &Formatter,
        tool: &str,
        result: &Result<S, E>,
    ) -> Self {
        match result {
            Ok(data) => Self::new_async(fmt, tool, data).await,
            Err(e) => Self::failed(fmt, tool, &e.to_tool_error()),
        }
    }

    /// Render a result that may have failed: `Ok` as [`McpJson::new`] does, `Err` as an error
    /// result (`isError: true`, the text under `**{tool} failed**`, `structuredContent`
    /// `{"error": {...}}`). The error type is any [`ToToolError`] ([`ToolError`], `String`,
    /// `std::io::Error`, ...).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::{ErrorKind, Formatter, ToolError};
    ///
    /// let missing: Result<Vec<u32>, ToolError> = Err(
    ///     ToolError::new(ErrorKind::NotFound, "order ORD-9 does not exist").hint("list_orders lists them"),
    /// );
    /// let r = McpJson::result(&Formatter::new(), "get_order", &missing);
    /// assert!(r.is_error());
    /// assert!(r.text().starts_with("**get_order failed**"));
    /// assert_eq!(
    ///     r.structured_content(),
    ///     Some(&json!({"error": {"kind": "not_found", "message": "order ORD-9 does not exist",
    ///                            "retryable": false, "hint": "list_orders lists them"}}))
    /// );
    /// ```
    pub fn result<E: ToToolError>(fmt: &Formatter, tool: &str, result: &Result<S, E>) -> Self {
        Self::render(fmt, tool, result, ModelView::Text)
    }

    /// Render a result with the budget covering `view` (see [`ModelView`]).
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::{McpJson, ModelView};
    /// use tool_output_format::Formatter;
    ///
    /// let names: Vec<String> = (0..500).map(|i| format!("name {i}")).collect();
    /// let shared = McpJson::render(&Formatter::new(), "names", &Ok::<_, String>(names), ModelView::TextAndStructured(1000));
    /// let structured = serde_json::to_string(shared.structured_content().unwrap()).unwrap();
    /// assert!(shared.text().chars().count() + structured.chars().count() <= 1000);
    /// // The same items in both: the text says how many.
    /// let shown = shared.structured_content().unwrap()["items"].as_array().unwrap().len();
    /// assert!(shared.text().starts_with(&format!("[Truncated to {shown} items of 500 total]")));
    /// ```
    pub fn render<E: ToToolError>(
        fmt: &Formatter,
        tool: &str,
        result: &Result<S, E>,
        view: ModelView,
    ) -> Self {
        match result {
            Ok(data) => {
                let out = fmt.format_with_report(tool, data);
                Self::from_data(fmt, tool, data, out, view, &|f| {
                    f.format_with_report(tool, data)
                })
            }
            Err(e) => Self::failed(fmt, tool, &e.to_tool_error()),
        }
    }

    /// The `outputSchema` to declare for a tool returning `McpJson<S>`, as rmcp lists it
    /// (`schema_for_output`: JSON Schema 2020-12, the serialize contract, root `"type":
    /// "object"`); give it to `#[tool(output_schema = ...)]`.
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::Page;
    ///
    /// let schema = McpJson::<Page<String>>::output_schema();
    /// assert_eq!(schema["type"], "object");
    /// let page = &schema["anyOf"][0];
    /// assert_eq!(page["required"], serde_json::json!(["items", "has_more"]));
    /// assert_eq!(page["properties"]["next_cursor"]["type"], "string");
    /// assert_eq!(schema["anyOf"][1]["required"], serde_json::json!(["error"]));
    /// ```
    #[must_use]
    pub fn output_schema() -> Arc<JsonObject> {
        rmcp::handler::server::tool::schema_for_output::<Self>()
    }

    /// The markdown of the text block.
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::Formatter;
    /// assert_eq!(McpJson::new(&Formatter::new(), "n", &3).text(), "3");
    /// ```
    #[must_use]
    pub fn text(&self) -> &str {
        self.inner.text()
    }

    /// Whether the result is an error (`isError`).
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::{Formatter, Page};
    /// // Empty is not failed.
    /// let empty = Page::new(Vec::<u32>::new());
    /// assert!(!McpJson::new(&Formatter::new(), "list", &empty).is_error());
    /// ```
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.inner.is_error()
    }

    /// The `structuredContent` (always there: the data form or the error form).
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::Formatter;
    /// let r = McpJson::new(&Formatter::new(), "n", &3);
    /// assert_eq!(r.structured_content(), Some(&serde_json::json!({"result": 3})));
    /// ```
    #[must_use]
    pub fn structured_content(&self) -> Option<&Value> {
        self.inner.structured_content()
    }

    /// The `_meta` object's entry under [`META_KEY`], when there is one (a cut, a stored
    /// reference or a shared budget).
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::Formatter;
    /// assert!(McpJson::new(&Formatter::new(), "n", &3).cuts().is_none());
    /// let long: Vec<u32> = (0..500).collect();
    /// let r = McpJson::new(&Formatter::new().max_chars(100), "n", &long);
    /// assert_eq!(r.cuts().unwrap()["notices"][0]["total"], 500);
    /// ```
    #[must_use]
    pub fn cuts(&self) -> Option<&Value> {
        self.inner.meta.as_ref().and_then(|m| m.get(META_KEY))
    }

    /// The untyped result this sends (text, `isError`, `structuredContent`, `_meta`), to add
    /// references with [`McpResult::reference`](super::McpResult::reference).
    #[cfg(test)]
    pub(crate) fn into_untyped(self) -> McpResult {
        self.inner
    }

    /// The `CallToolResult`.
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::Formatter;
    /// let call = McpJson::new(&Formatter::new(), "n", &3).into_call_tool_result();
    /// assert_eq!(call.structured_content, Some(serde_json::json!({"result": 3})));
    /// ```
    #[must_use]
    pub fn into_call_tool_result(self) -> CallToolResult {
        self.inner.into_call_tool_result()
    }

    /// The error result: the text of the error, `{"error": ...}`.
    fn failed(fmt: &Formatter, tool: &str, error: &ToolError) -> Self {
        let out = fmt.format_with_report(tool, error);
        let meta = meta(&out.report, Place::Record, None, None);
        Self::wrap(out.text, true, json!({ "error": error_json(error) }), meta)
    }

    fn wrap(text: String, is_error: bool, structured: Value, meta: Option<Value>) -> Self {
        McpJson {
            inner: McpResult {
                text,
                is_error,
                structured: Some(structured),
                references: Vec::new(),
                meta: meta.map(|m| {
                    let mut o = Map::new();
                    o.insert(META_KEY.to_owned(), m);
                    o
                }),
            },
            _data: PhantomData,
        }
    }

    /// A success: the data (serialized once, redacted as the text is), cut to the items the
    /// text shows; with a shared budget, rendered again (`again`) with smaller budgets.
    fn from_data(
        fmt: &Formatter,
        tool: &str,
        data: &S,
        out: Formatted,
        view: ModelView,
        again: &dyn Fn(&Formatter) -> Formatted,
    ) -> Self {
        let mut full = match data.full() {
            Ok(v) => v,
            Err(e) => {
                let error = ToolError::new(
                    ErrorKind::Internal,
                    format!("the result could not be serialized as structured content: {e}"),
                );
                return Self::failed(fmt, tool, &error);
            }
        };
        // The types' `redact` fields are redacted in `full`; the secret keys here, from the
        // same resolved set the text's walk uses.
        fmt.secrets_for(tool).value(&mut full);
        // One form per value type: a `SystemTime` or `Duration` as the text shows it.
        crate::input::time::serde_forms_as_text(&mut full);
        let place = S::place();
        let build = |out: Formatted| {
            let kept = kept(&out.report);
            let mut notes = Vec::new();
            let structured = data.shown(&full, kept, &mut notes);
            (out, structured, notes)
        };
        let size = |(out, structured, _): &(Formatted, Value, Vec<Value>)| {
            out.text.chars().count() + structured.to_string().chars().count()
        };
        let first = build(out);
        let (chosen, budget) = match view {
            ModelView::TextAndStructured(max) if size(&first) > max => {
                // The largest text budget whose text and data fit together (binary search:
                // the size grows with the text's budget). Never above the length of the text
                // the formatter's own options gave, so its own budget still holds.
                let (mut lo, mut hi) = (0usize, max.min(first.0.text.chars().count()));
                let mut best: Option<(Formatted, Value, Vec<Value>)> = None;
                let mut smallest = first;
                while lo <= hi {
                    let mid = lo + (hi - lo) / 2;
                    let candidate = build(again(&fmt.clone().max_chars(mid)));
                    if size(&candidate) <= max {
                        lo = mid + 1;
                        best = Some(candidate);
                    } else {
                        if size(&candidate) < size(&smallest) {
                            smallest = candidate;
                        }
                        if mid == 0 {
                            break;
                        }
                        hi = mid - 1;
                    }
                }
                let chosen = best.unwrap_or(smallest);
                let fits = size(&chosen) <= max;
                (chosen, Some((max, fits)))
            }
            ModelView::TextAndStructured(max) => (first, Some((max, true))),
            ModelView::Text => (first, None),
        };
        let (out, structured, notes) = chosen;
        let view = budget.map(|(max, fits)| {
            json!({
                "covers": "text_and_structured",
                "max_chars": max,
                "text_chars": out.text.chars().count(),
                "structured_chars": structured.to_string().chars().count(),
                "fits": fits,
            })
        });
        let meta = meta(&out.report, place, Some(notes), view);
        let is_error = out.is_error();
        let mut result = Self::wrap(out.text, is_error, structured, meta);
        // A reply's references: `resource_link` blocks (their lines are in the text already).
        result.inner = result
            .inner
            .with_references(data.references().iter().cloned());
        result
    }
}

impl<S> From<McpJson<S>> for CallToolResult {
    fn from(result: McpJson<S>) -> Self {
        result.inner.into_call_tool_result()
    }
}

impl<S: 'static> IntoCallToolResult for McpJson<S> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, rmcp::ErrorData> {
        Ok(CallToolResult::from(self).into())
    }
}

/// The schema of `McpJson<S>`: an object that is the data form of `S` or the error form.
impl<S: McpData> JsonSchema for McpJson<S> {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("McpJson")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Owned(format!(
            "tool_output_format::McpJson<{}>",
            std::any::type_name::<S>()
        ))
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut data = Value::from(S::schema(generator));
        let error = generator.subschema_for::<ToolError>();
        // The data writes a `SystemTime` or `Duration` as its text (one form per value type),
        // so their schemas say so, inline or among the definitions.
        crate::input::time::serde_form_schemas_as_text(&mut data);
        for definition in generator.definitions_mut().values_mut() {
            crate::input::time::serde_form_schemas_as_text(definition);
        }
        json_schema!({
            "type": "object",
            "anyOf": [
                data,
                {
                    "type": "object",
                    "description": "The tool failed (isError is true).",
                    "properties": { "error": error },
                    "required": ["error"],
                },
            ],
        })
    }
}

/// The result types [`McpJson`] carries: a type that is `Serialize + JsonSchema +
/// ToolOutput` (a struct, a `Vec`, a string, a number), a [`Page`](crate::Page) of such items, a [`Batch`](crate::Batch)
/// and a [`Reply`](crate::Reply) around such a result. Sealed: its methods are the adapter's.
///
/// ```
/// use tool_output_format::adapt::rmcp::McpData;
/// use tool_output_format::{Batch, Page};
/// fn carried<S: McpData>() {}
/// carried::<Vec<String>>();
/// carried::<Page<u32>>();
/// carried::<Batch>();
/// carried::<tool_output_format::Reply<Vec<String>>>();
/// ```
pub trait McpData: sealed::Data + ToolOutput + 'static {}

impl<T: sealed::Data + ToolOutput + 'static> McpData for T {}

#[cfg(test)]
mod tests;

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn into_untyped() {
        use crate::adapt::rmcp::McpJson;
        use crate::{Formatter, ResourceRef};
        let r = McpJson::new(&Formatter::new(), "export", &120)
            .into_untyped()
            .reference(ResourceRef::new("resource://exports/7"));
        assert_eq!(r.text(), "120\n\nResource: resource://exports/7");
    }
}
