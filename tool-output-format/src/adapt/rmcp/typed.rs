//! Typed MCP results (features `rmcp` and `schemars`): the markdown for the model, typed data
//! with a declared `outputSchema` for the client. Documented in the
//! [`adapt::rmcp`](crate::adapt::rmcp#typed-results-mcpjson-feature-schemars) module docs
//! (`typed.md`).

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::marker::PhantomData;
use std::sync::{Arc, RwLock};

use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, JsonObject};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::McpResult;
use crate::agent::{
    Batch, ErrorKind, NextAction, Page, Reply, ResourceRef, ToToolError, ToolError,
};
use crate::{Formatted, Formatter, Notice, Report, ToolOutput};

/// The `_meta` key of a typed result's cut notices, stored reference and budget (see
/// [the module docs](crate::adapt::rmcp#cuts-stay-honest-without-breaking-validation)).
///
/// ```
/// use rmcp::model::CallToolResult;
/// use tool_output_format::Formatter;
/// use tool_output_format::adapt::rmcp::{META_KEY, McpJson};
///
/// let rows: Vec<u32> = (0..500).collect();
/// let fmt = Formatter::new().max_chars(100);
/// let call: CallToolResult = McpJson::new(&fmt, "ids", &rows).into();
/// let cuts = &call.meta.unwrap().0[META_KEY];
/// assert_eq!(cuts["notices"][0]["kind"], "items");
/// assert_eq!(cuts["notices"][0]["applies_to"], "both");
/// ```
pub const META_KEY: &str = "tool-output-format/cuts";

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
/// `Vec`, a string), a [`Page`] or a [`Batch`] of such items, a [`Reply`] around one
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
    ///
    /// ```
    /// use tool_output_format::adapt::rmcp::McpJson;
    /// use tool_output_format::{Formatter, ResourceRef};
    /// let r = McpJson::new(&Formatter::new(), "export", &120)
    ///     .into_untyped()
    ///     .reference(ResourceRef::new("resource://exports/7"));
    /// assert_eq!(r.text(), "120\n\nResource: resource://exports/7");
    /// ```
    pub fn into_untyped(self) -> McpResult {
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
        redact(fmt, tool, &mut full);
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
                // the size grows with the text's budget).
                let (mut lo, mut hi) = (0usize, max);
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
        let data = S::schema(generator);
        let error = generator.subschema_for::<ToolError>();
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

/// The error form's `error` object.
impl JsonSchema for ToolError {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ToolError")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("tool_output_format::ToolError")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let kinds: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        json_schema!({
            "type": "object",
            "description": "Why the call failed and what to do about it.",
            "properties": {
                "kind": { "type": "string", "enum": kinds },
                "message": { "type": "string" },
                "retryable": {
                    "type": "boolean",
                    "description": "Whether the same call may succeed later.",
                },
                "retry_after_secs": { "type": "integer", "minimum": 0 },
                "hint": {
                    "type": "string",
                    "description": "How to fix the call.",
                },
            },
            "required": ["kind", "message", "retryable"],
        })
    }
}

/// A follow-up call (`next` of a page or a batch).
impl JsonSchema for NextAction {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("NextAction")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("tool_output_format::NextAction")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "The call to make next: the tool and its arguments.",
            "properties": {
                "tool": { "type": "string" },
                "args": { "type": "object" },
                "after_secs": { "type": "integer", "minimum": 0 },
                "reason": { "type": "string" },
            },
            "required": ["tool", "args"],
        })
    }
}

/// The result types [`McpJson`] carries: a type that is `Serialize + JsonSchema +
/// ToolOutput` (a struct, a `Vec`, a string, a number), a [`Page`] of such items, a [`Batch`]
/// and a [`Reply`] around such a result. Sealed: its methods are the adapter's.
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

/// Where the items of the data are, for the notices' paths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[doc(hidden)]
pub enum Place {
    /// An object sent as it is: the text's cuts are the text's alone.
    Record,
    /// A list of items at `/items` (a list, a page), `/failures` (a batch) or `/result` (a
    /// reply's list).
    Items(&'static str),
    /// Anything else, at `/result`.
    Result,
}

mod sealed {
    use super::{Place, Schema, SchemaGenerator, Value};

    /// The adapter's view of a result type.
    pub trait Data {
        /// The data form's schema (an object).
        fn schema(generator: &mut SchemaGenerator) -> Schema;
        /// Where the items are.
        fn place() -> Place;
        /// The whole data as JSON (before redaction and cuts).
        fn full(&self) -> serde_json::Result<Value>;
        /// The `structuredContent` when the text shows `kept` items (`None`: all), from
        /// `full` (redacted); notices only the data has go to `notes`.
        fn shown(&self, full: &Value, kept: Option<usize>, notes: &mut Vec<Value>) -> Value;
        /// The references sent as `resource_link` blocks too (a reply's).
        fn references(&self) -> &[super::ResourceRef] {
            &[]
        }
    }
}

/// How serializing `T` writes its root, read from its schema (`"type"`), cached per type.
fn place_of<T: JsonSchema + 'static>() -> Place {
    thread_local! {
        static PLACES: RwLock<HashMap<TypeId, Place>> = RwLock::default();
    }
    PLACES.with(|cache| {
        if let Some(p) = cache
            .read()
            .ok()
            .and_then(|c| c.get(&TypeId::of::<T>()).copied())
        {
            return p;
        }
        let schema = T::json_schema(&mut settings().into_generator());
        let place = match schema.get("type").and_then(Value::as_str) {
            Some("object") => Place::Record,
            Some("array") => Place::Items("/items"),
            _ => Place::Result,
        };
        if let Ok(mut c) = cache.write() {
            c.insert(TypeId::of::<T>(), place);
        }
        place
    })
}

/// rmcp's settings for output schemas (JSON Schema 2020-12, what `Serialize` writes).
fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12().for_serialize()
}

/// The first `kept` items of an array (all of them for `None`).
fn prefix(items: &Value, kept: Option<usize>) -> Value {
    match (items, kept) {
        (Value::Array(a), Some(k)) => Value::Array(a.iter().take(k).cloned().collect()),
        _ => items.clone(),
    }
}

impl<T: Serialize + JsonSchema + ToolOutput + 'static> sealed::Data for T {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        let own = generator.subschema_for::<T>();
        match place_of::<T>() {
            Place::Record => own,
            Place::Items(_) => json_schema!({
                "type": "object",
                "description": "The items the text shows, in order.",
                "properties": { "items": own },
                "required": ["items"],
            }),
            Place::Result => json_schema!({
                "type": "object",
                "properties": { "result": own },
                "required": ["result"],
            }),
        }
    }

    fn place() -> Place {
        place_of::<T>()
    }

    fn full(&self) -> serde_json::Result<Value> {
        serde_json::to_value(self)
    }

    fn shown(&self, full: &Value, kept: Option<usize>, _: &mut Vec<Value>) -> Value {
        match place_of::<T>() {
            Place::Record => full.clone(),
            Place::Items(_) => json!({ "items": prefix(full, kept) }),
            Place::Result => json!({ "result": full }),
        }
    }
}

impl<T: Serialize + JsonSchema + ToolOutput + 'static> sealed::Data for Page<T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        let item = generator.subschema_for::<T>();
        let next = generator.subschema_for::<NextAction>();
        json_schema!({
            "type": "object",
            "description": "One page of items. When has_more is true, call `next` (or pass next_cursor) for the rest.",
            "properties": {
                "items": {
                    "type": "array",
                    "description": "The items the text shows, in order.",
                    "items": item,
                },
                "has_more": {
                    "type": "boolean",
                    "description": "Whether more items follow (true when the page was cut).",
                },
                "next_cursor": {
                    "type": "string",
                    "description": "The cursor that resumes at the first item not shown.",
                },
                "total": { "type": "integer", "minimum": 0 },
                "next": next,
            },
            "required": ["items", "has_more"],
        })
    }

    fn place() -> Place {
        Place::Items("/items")
    }

    fn full(&self) -> serde_json::Result<Value> {
        serde_json::to_value(self.items())
    }

    fn shown(&self, full: &Value, kept: Option<usize>, notes: &mut Vec<Value>) -> Value {
        let footer = self.footer(kept.unwrap_or(self.len()));
        let mut m = Map::new();
        m.insert("items".into(), prefix(full, kept));
        m.insert("has_more".into(), footer.has_more().into());
        if let Some(c) = footer.cursor() {
            m.insert("next_cursor".into(), c.into());
        }
        if let Some(t) = footer.total() {
            m.insert("total".into(), t.into());
        }
        if let Some(next) = footer.next() {
            m.insert("next".into(), action_json(next));
        }
        if let Some(text) = footer.notice() {
            notes.push(json!({
                "kind": "page",
                "path": "/items",
                "applies_to": "both",
                "text": text,
            }));
        }
        Value::Object(m)
    }
}

impl<T: ToolOutput + 'static> sealed::Data for Batch<T>
where
    Batch<T>: ToolOutput,
{
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        let error = generator.subschema_for::<ToolError>();
        let next = generator.subschema_for::<NextAction>();
        json_schema!({
            "type": "object",
            "description": "The outcome of each item of a batch call. `next` retries exactly the failed, retryable ids.",
            "properties": {
                "total": { "type": "integer", "minimum": 0 },
                "succeeded": { "type": "integer", "minimum": 0 },
                "failed": { "type": "integer", "minimum": 0 },
                "failures": {
                    "type": "array",
                    "description": "The failed items the text shows, in order.",
                    "items": {
                        "type": "object",
                        "properties": { "id": true, "error": error },
                        "required": ["id", "error"],
                    },
                },
                "next": next,
            },
            "required": ["total", "succeeded", "failed", "failures"],
        })
    }

    fn place() -> Place {
        Place::Items("/failures")
    }

    fn full(&self) -> serde_json::Result<Value> {
        Ok(self
            .failures()
            .map(|(id, e)| json!({ "id": id, "error": error_json(e) }))
            .collect())
    }

    fn shown(&self, full: &Value, kept: Option<usize>, _: &mut Vec<Value>) -> Value {
        let mut m = Map::new();
        m.insert("total".into(), self.total().into());
        m.insert("succeeded".into(), self.succeeded_count().into());
        m.insert("failed".into(), self.failed_count().into());
        m.insert("failures".into(), prefix(full, kept));
        if let Some(next) = self.retry_action() {
            m.insert("next".into(), action_json(&next));
        }
        Value::Object(m)
    }
}

impl<T: Serialize + JsonSchema + ToolOutput + 'static> sealed::Data for Reply<T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        let result = generator.subschema_for::<T>();
        let next = generator.subschema_for::<NextAction>();
        json_schema!({
            "type": "object",
            "description": "A result with what to do next: links, resources and follow-up calls.",
            "properties": {
                "result": result,
                "links": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "label": { "type": "string" },
                            "url": { "type": "string" },
                        },
                        "required": ["label", "url"],
                    },
                },
                "references": {
                    "type": "array",
                    "description": "Resources the result points to (also sent as resource_link blocks).",
                    "items": {
                        "type": "object",
                        "properties": {
                            "uri": { "type": "string" },
                            "name": { "type": "string" },
                            "content_type": { "type": "string" },
                            "size_bytes": { "type": "integer", "minimum": 0 },
                        },
                        "required": ["uri"],
                    },
                },
                "next": { "type": "array", "items": next },
            },
            "required": ["result"],
        })
    }

    fn place() -> Place {
        match place_of::<T>() {
            Place::Items(_) => Place::Items("/result"),
            _ => Place::Result,
        }
    }

    fn full(&self) -> serde_json::Result<Value> {
        serde_json::to_value(self.result())
    }

    fn shown(&self, full: &Value, kept: Option<usize>, _: &mut Vec<Value>) -> Value {
        let mut m = Map::new();
        let result = match place_of::<T>() {
            Place::Items(_) => prefix(full, kept),
            _ => full.clone(),
        };
        m.insert("result".into(), result);
        if !self.links().is_empty() {
            let links = self
                .links()
                .iter()
                .map(|l| json!({ "label": l.label(), "url": l.url() }));
            m.insert("links".into(), links.collect());
        }
        if !self.references().is_empty() {
            let refs = self.references().iter().map(reference_json);
            m.insert("references".into(), refs.collect());
        }
        if !self.next_actions().is_empty() {
            let next = self.next_actions().iter().map(action_json);
            m.insert("next".into(), next.collect());
        }
        Value::Object(m)
    }

    fn references(&self) -> &[ResourceRef] {
        Reply::references(self)
    }
}

/// `{"uri", "name", "content_type", "size_bytes"}`.
fn reference_json(r: &ResourceRef) -> Value {
    let mut m = Map::new();
    m.insert("uri".into(), r.uri().into());
    if let Some(n) = r.get_name() {
        m.insert("name".into(), n.into());
    }
    if let Some(c) = r.get_content_type() {
        m.insert("content_type".into(), c.into());
    }
    if let Some(s) = r.get_size_bytes() {
        m.insert("size_bytes".into(), s.into());
    }
    Value::Object(m)
}

/// How many items of the data the text shows (`None`: all of them): the rows of its table,
/// the items of its list, none when nothing fitted.
fn kept(report: &Report) -> Option<usize> {
    let mut kept = report.rows.map(|r| r.kept);
    for n in &report.notices {
        match *n {
            Notice::Items { kept: k, .. } if kept.is_none() => kept = Some(k),
            Notice::Omitted { .. } => kept = Some(0),
            _ => {}
        }
    }
    kept
}

/// The `_meta` entry: the notices (the text's, then the data's own), the stored reference
/// and the shared budget; `None` when there is nothing to say.
fn meta(
    report: &Report,
    place: Place,
    notes: Option<Vec<Value>>,
    view: Option<Value>,
) -> Option<Value> {
    let mut notices: Vec<Value> = report.notices.iter().map(|n| notice(n, place)).collect();
    notices.extend(notes.into_iter().flatten());
    if report.values_shortened > 0
        && !report
            .notices
            .iter()
            .any(|n| matches!(n, Notice::Shortened { .. }))
    {
        notices.push(json!({
            "kind": "shortened",
            "values": report.values_shortened,
            "path": "",
            "applies_to": "text",
            "text": format!("[Shortened {} values]", report.values_shortened),
        }));
    }
    if notices.is_empty() && report.reference.is_none() && view.is_none() {
        return None;
    }
    let mut m = Map::new();
    m.insert("notices".into(), Value::Array(notices));
    if let Some(r) = &report.reference {
        m.insert("reference".into(), r.as_str().into());
    }
    if let Some(e) = &report.store_error {
        m.insert("store_error".into(), e.as_str().into());
    }
    if let Some(v) = view {
        m.insert("view".into(), v);
    }
    Some(Value::Object(m))
}

/// One notice of the text, with where it applies in the data.
fn notice(n: &Notice, place: Place) -> Value {
    let mut m = Map::new();
    let (path, both) = match (n, place) {
        (Notice::Rows { .. } | Notice::Items { .. } | Notice::Omitted { .. }, Place::Items(p)) => {
            (p, true)
        }
        (_, Place::Result) => ("/result", false),
        _ => ("", false),
    };
    let mut put = |k: &str, v: Value| {
        m.insert(k.into(), v);
    };
    match *n {
        Notice::Rows { kept, total } => {
            put("kind", "rows".into());
            put("kept", kept.into());
            put("total", total.into());
        }
        Notice::Items { kept, total } => {
            put("kind", "items".into());
            put("kept", kept.into());
            put("total", total.into());
        }
        Notice::Fields { kept, total } => {
            put("kind", "fields".into());
            put("kept", kept.into());
            put("total", total.into());
        }
        Notice::Lines { kept, total, .. } => {
            put("kind", "lines".into());
            put("kept", kept.into());
            put("total", total.into());
        }
        Notice::Shortened { values, max_chars } => {
            put("kind", "shortened".into());
            put("values", values.into());
            put("max_chars", max_chars.into());
        }
        Notice::Nested { parts, kept } => {
            put("kind", "nested".into());
            put("parts", parts.into());
            put("kept", kept.into());
        }
        Notice::Omitted {
            total,
            what,
            needed,
            budget,
            unit,
        } => {
            put("kind", "omitted".into());
            put("total", total.into());
            put("what", what.into());
            put("needed", needed.into());
            put("budget", budget.into());
            put("unit", unit.into());
        }
    }
    put("path", path.into());
    put("applies_to", if both { "both" } else { "text" }.into());
    put("text", n.to_string().into());
    Value::Object(m)
}

/// `{"kind", "message", "retryable", "retry_after_secs", "hint"}` (the form of the error in
/// [`Formatter::format_json`]).
fn error_json(e: &ToolError) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), e.kind().as_str().into());
    m.insert("message".into(), e.message().into());
    m.insert("retryable".into(), e.is_retryable().into());
    if let Some(s) = e.get_retry_after_secs().filter(|_| e.is_retryable()) {
        m.insert("retry_after_secs".into(), s.into());
    }
    if let Some(h) = e.get_hint() {
        m.insert("hint".into(), h.into());
    }
    Value::Object(m)
}

/// `{"tool", "args", "after_secs", "reason"}`.
fn action_json(a: &NextAction) -> Value {
    let mut m = Map::new();
    m.insert("tool".into(), a.tool().into());
    let args: Map<String, Value> = a.args().iter().cloned().collect();
    m.insert("args".into(), Value::Object(args));
    if let Some(s) = a.get_after_secs() {
        m.insert("after_secs".into(), s.into());
    }
    if let Some(r) = a.get_reason() {
        m.insert("reason".into(), r.into());
    }
    Value::Object(m)
}

/// Replace the values of the keys the formatter redacts for `tool` with `[redacted]`, at
/// every depth, as the text and `format_json` do.
///
/// Which keys are secret is asked of the formatter itself (the public API has no getter):
/// each distinct key is rendered once as `{key: ""}` with [`Formatter::format_json`] and is a
/// secret when its value comes back redacted. A key that the tool's [`Shape`](crate::Shape)
/// drops from that probe, or a budget too small for it (under 40 characters), is not seen;
/// see the module docs.
fn redact(fmt: &Formatter, tool: &str, value: &mut Value) {
    let mut keys = BTreeSet::new();
    collect_keys(value, &mut keys);
    let secret: BTreeSet<String> = keys
        .into_iter()
        .filter(|k| {
            let probe = fmt.format_json(tool, &json!({ k.as_str(): "" }));
            contains_redacted(&probe["result"])
        })
        .collect();
    if !secret.is_empty() {
        redact_keys(value, &secret);
    }
}

fn collect_keys(value: &Value, keys: &mut BTreeSet<String>) {
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                if !keys.contains(k) {
                    keys.insert(k.clone());
                }
                collect_keys(v, keys);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_keys(v, keys)),
        _ => {}
    }
}

fn contains_redacted(value: &Value) -> bool {
    match value {
        Value::String(s) => s == crate::redact::REDACTED,
        Value::Object(m) => m.values().any(contains_redacted),
        Value::Array(a) => a.iter().any(contains_redacted),
        _ => false,
    }
}

fn redact_keys(value: &mut Value, secret: &BTreeSet<String>) {
    match value {
        Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                if secret.contains(k) {
                    *v = Value::String(crate::redact::REDACTED.to_owned());
                } else {
                    redact_keys(v, secret);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|v| redact_keys(v, secret)),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
