//! The JSON shape of the agent envelopes (pages, errors, batches, replies), for the JSON
//! sink, the cell form of a nested envelope and the envelopes' own `to_json`.
//!
//! # JSON shape
//!
//! `Envelope::to_json` (behind each type's [`ToolOutput::to_json`](crate::ToolOutput::to_json))
//! gives the structured form a JSON sink writes, with the body already serialised:
//!
//! | envelope | JSON |
//! |---|---|
//! | page | `{"items": [...], "has_more": bool, "next_cursor": "...", "total": n, "notice": "...", "next": ACTION}` |
//! | error | `{"error": {"kind": "not_found", "message": "...", "retryable": bool, "retry_after_secs": n, "hint": "..."}}` |
//! | batch | `{"total": n, "succeeded": n, "failed": n, "failures": [{"id", "kind", "message", "retryable"}], "results": [{"id", ...}], "next": ACTION}` |
//! | reply | `{"result": ..., "links": [{"label", "url"}], "references": [{"uri", "name", "content_type", "size_bytes"}], "next": [ACTION, ...]}` |
//!
//! `ACTION` is `{"tool": "...", "args": {...}, "after_secs": n, "reason": "..."}`. Optional
//! members (`next_cursor`, `total`, `notice` (a cut page's notice), `next`, `hint`,
//! `retry_after_secs`, `results`, empty reply lists) are left out when absent.
//! `has_more` is always present.

use serde_json::{Map, Value};

use crate::doc::agent::{NextAction, PageFooter, ResourceRef, ToolError};
use crate::doc::{Envelope, Parts};

impl Envelope<'_> {
    /// The envelope as JSON around `body` (the body already serialised; `None` when it has
    /// none), with `kept` items of the body shown (see [`Envelope`] for the shape).
    ///
    /// What users see of it is each envelope type's [`ToolOutput::to_json`]:
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::{Page, ToolOutput};
    /// let page = Page::new(vec![1, 2]).has_more(true).next_cursor("c2").next_call("list", "cursor");
    /// assert_eq!(
    ///     page.to_json(),
    ///     json!({"items": [1, 2], "has_more": true, "next_cursor": "c2",
    ///            "next": {"tool": "list", "args": {"cursor": "c2"}}})
    /// );
    /// ```
    ///
    /// [`ToolOutput::to_json`]: crate::ToolOutput::to_json
    #[must_use]
    pub(crate) fn to_json(&self, body: Option<Value>, kept: usize) -> Value {
        let mut m = Map::new();
        match self.parts() {
            Parts::Page(p) => {
                m.insert("items".into(), body.unwrap_or(Value::Array(Vec::new())));
                page_json(&p.footer(kept), &mut m);
            }
            Parts::Error(e) => {
                m.insert("error".into(), error_json(e.as_ref()));
            }
            Parts::Batch(b) => {
                m.insert("total".into(), (b.succeeded + b.failed).into());
                m.insert("succeeded".into(), b.succeeded.into());
                m.insert("failed".into(), b.failed.into());
                match body {
                    Some(Value::Object(parts)) => m.extend(parts),
                    Some(failures) => {
                        m.insert("failures".into(), failures);
                    }
                    None => {}
                }
                if let Some(retry) = &b.retry {
                    m.insert("next".into(), action_json(retry));
                }
            }
            Parts::Reply(r) => {
                m.insert("result".into(), body.unwrap_or(Value::Null));
                if !r.links.is_empty() {
                    let links = r.links.iter().map(|l| {
                        let mut o = Map::new();
                        o.insert("label".into(), l.label().into());
                        o.insert("url".into(), l.url().into());
                        Value::Object(o)
                    });
                    m.insert("links".into(), links.collect());
                }
                if !r.references.is_empty() {
                    let refs = r.references.iter().map(reference_json);
                    m.insert("references".into(), refs.collect());
                }
                if !r.next.is_empty() {
                    m.insert("next".into(), r.next.iter().map(action_json).collect());
                }
            }
        }
        Value::Object(m)
    }
}

/// The footer's members.
fn page_json(f: &PageFooter, m: &mut Map<String, Value>) {
    m.insert("has_more".into(), f.has_more().into());
    if let Some(c) = f.cursor() {
        m.insert("next_cursor".into(), c.into());
    }
    if let Some(t) = f.total() {
        m.insert("total".into(), t.into());
    }
    if let Some(n) = f.notice() {
        m.insert("notice".into(), super::notice::page_cut(n).into());
    }
    if let Some(next) = f.next() {
        m.insert("next".into(), action_json(next));
    }
}

/// `{"tool", "args", "after_secs", "reason"}`.
pub(crate) fn action_json(a: &NextAction) -> Value {
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

/// `{"kind", "message", "retryable", "retry_after_secs", "hint"}`.
pub(crate) fn error_json(e: &ToolError) -> Value {
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

/// `{"uri", "name", "content_type", "size_bytes"}`.
pub(crate) fn reference_json(r: &ResourceRef) -> Value {
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
