//! The result types a typed result carries ([`McpData`](super::McpData)): their data form's
//! schema, where their items are, and the data the text shows; the schemas of the error and
//! next-call forms.

use std::any::TypeId;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::ToolOutput;
use crate::doc::agent::{Batch, ErrorKind, NextAction, Page, Reply, ResourceRef, ToolError};
use crate::input::hook::Hooks;
// The envelope parts in the same JSON form as `format_json` writes them.
pub(super) use crate::sink::json_envelope::error_json;
use crate::sink::json_envelope::{action_json, reference_json};

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

pub mod sealed {
    use super::{Place, Schema, SchemaGenerator, Value};

    /// The adapter's view of a result type.
    pub trait Data {
        /// The data form's schema (an object).
        fn schema(generator: &mut SchemaGenerator) -> Schema;
        /// Where the items are.
        fn place() -> Place;
        /// The whole data as JSON, the fields the types mark `redact` redacted (before the
        /// runtime secret keys and cuts).
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
        static PLACES: RefCell<HashMap<TypeId, Place>> = RefCell::default();
    }
    PLACES.with(|cache| {
        if let Some(p) = cache.borrow().get(&TypeId::of::<T>()).copied() {
            return p;
        }
        let schema = T::json_schema(&mut settings().into_generator());
        let place = match schema.get("type").and_then(Value::as_str) {
            Some("object") => Place::Record,
            Some("array") => Place::Items("/items"),
            _ => Place::Result,
        };
        cache.borrow_mut().insert(TypeId::of::<T>(), place);
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
        let mut data = serde_json::to_value(self)?;
        self.redact_serialized(&mut data);
        Ok(data)
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
        let mut data = serde_json::to_value(self.items())?;
        self.items().redact_serialized(&mut data);
        Ok(data)
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
        if let Some(text) = footer.notice().map(crate::sink::notice::page_cut) {
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
        let mut data = serde_json::to_value(self.result())?;
        self.result().redact_serialized(&mut data);
        Ok(data)
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
