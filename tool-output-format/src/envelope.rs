//! Envelopes in the document: the parts of an agent result (a page's footer, an error, a
//! batch's counts and retry call, a reply's links, references and next actions) that live
//! around the data and are never cut.
//!
//! [`Page`](crate::Page), [`ToolError`], [`Batch`](crate::Batch), [`Reply`](crate::Reply)
//! and `Err` describe themselves as a [`Node::Envelope`]: an optional body (the data: the
//! page's items, the batch's failures, the reply's result) and the parts. Caps and budgets
//! act on the body only. The formatter takes the envelopes at the root of a result apart
//! ([`split`]), cuts and fits the body with every candidate rendered inside its envelopes
//! (so the budget is measured on the whole text, parts included), then puts them back
//! ([`join`]) for the sink. A page's footer is computed after the cut from the items kept
//! ([`Envelope::foot_lines`]). Envelopes nested in a record or list are rendered in place
//! by the sink, their lines after their body, and are never cut either.
//!
//! # JSON shape
//!
//! [`Envelope::to_json`] (and each type's [`ToolOutput::to_json`](crate::ToolOutput::to_json))
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

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::agent::{Link, NextAction, PageFooter, ResourceRef, ToolError};
use crate::doc::Node;

pub(crate) use crate::agent::PageMeta;

/// An agent result's envelope: its body (the data, which caps and budgets may cut) and its
/// parts (never cut). Its JSON shape ([`to_json`](Envelope::to_json)): a page is
/// `{"items", "has_more", "next_cursor", "total", "notice", "next"}`, an error
/// `{"error": {...}}`, a batch `{"total", "succeeded", "failed", "failures", "results",
/// "next"}`, a reply `{"result", "links", "references", "next": [...]}`.
///
/// ```
/// use tool_output_format::{Context, Node, Page, ToolOutput};
///
/// let page = Page::new(vec!["a", "b"]).has_more(true).next_cursor("c2");
/// let Node::Envelope(e) = page.to_node(&Context::new()) else { unreachable!() };
/// assert!(!e.is_error());
/// assert_eq!(e.foot_lines(2), ["has_more: true", "next_cursor: c2"]);
/// assert_eq!(e.to_json(None, 2)["has_more"], true);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope<'a> {
    body: Option<Node<'a>>,
    parts: Parts<'a>,
}

/// What an envelope holds besides its body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Parts<'a> {
    Page(PageMeta<'a>),
    Error(Cow<'a, ToolError>),
    Batch(BatchMeta),
    Reply(ReplyMeta<'a>),
}

/// A batch's counts and retry call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BatchMeta {
    pub succeeded: usize,
    pub failed: usize,
    pub retry: Option<NextAction>,
}

/// A reply's next actions, links and references.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ReplyMeta<'a> {
    pub next: Cow<'a, [NextAction]>,
    pub links: Cow<'a, [Link]>,
    pub references: Cow<'a, [ResourceRef]>,
}

impl<'a> Envelope<'a> {
    pub(crate) fn new(body: Option<Node<'a>>, parts: Parts<'a>) -> Self {
        Envelope { body, parts }
    }

    /// The data inside the envelope, if any (an error and a batch without failures have
    /// none).
    ///
    /// ```
    /// use tool_output_format::{Context, ErrorKind, Node, ToolError, ToolOutput};
    /// let err = ToolError::new(ErrorKind::Timeout, "slow");
    /// let Node::Envelope(e) = err.to_node(&Context::new()) else { unreachable!() };
    /// assert!(e.body().is_none());
    /// ```
    #[must_use]
    pub fn body(&self) -> Option<&Node<'a>> {
        self.body.as_ref()
    }

    /// True for an error's envelope (a [`ToolError`] or an `Err`).
    ///
    /// ```
    /// use tool_output_format::{Context, ErrorKind, Node, ToolError, ToolOutput};
    /// let err = ToolError::new(ErrorKind::Timeout, "slow");
    /// let Node::Envelope(e) = err.to_node(&Context::new()) else { unreachable!() };
    /// assert!(e.is_error());
    /// ```
    /// The key of the body in the envelope's JSON (`items`, `result`, `failures`), or `None`
    /// when the body's members sit in the envelope itself (a batch with values) or there is
    /// no body.
    pub(crate) fn body_key(&self) -> Option<&'static str> {
        match (&self.parts, &self.body) {
            (Parts::Page(_), _) => Some("items"),
            (Parts::Reply(_), _) => Some("result"),
            (Parts::Batch(_), Some(Node::Record(_)) | None) | (Parts::Error(_), _) => None,
            (Parts::Batch(_), Some(_)) => Some("failures"),
        }
    }

    #[must_use]
    pub fn is_error(&self) -> bool {
        matches!(self.parts, Parts::Error(_))
    }

    /// The error, for an error's envelope.
    pub(crate) fn error(&self) -> Option<&ToolError> {
        match &self.parts {
            Parts::Error(e) => Some(e),
            _ => None,
        }
    }

    /// How many items of the body a rendering shows: rows of a table, items of a list (the
    /// number a page's footer is computed from).
    #[must_use]
    pub(crate) fn kept(&self, body: Option<&Node<'_>>) -> usize {
        match (&self.parts, body) {
            (_, Some(Node::Table(t))) => t.rows(),
            (_, Some(Node::List(items))) => items.len(),
            // A page whose body was omitted (nothing fit the budget) kept none.
            (Parts::Page(p), Some(_)) => p.len,
            _ => 0,
        }
    }

    /// The lines written before the body (a batch's counts line), exact and escaped.
    ///
    /// ```
    /// use tool_output_format::{Batch, Context, Node, ToolOutput};
    /// let batch = Batch::new().ok("a").ok("b");
    /// let Node::Envelope(e) = batch.to_node(&Context::new()) else { unreachable!() };
    /// assert_eq!(e.head_lines(), ["2 total, 2 succeeded, 0 failed"]);
    /// ```
    #[must_use]
    pub fn head_lines(&self) -> Vec<String> {
        match &self.parts {
            Parts::Batch(b) => vec![crate::agent::counts_line(b.succeeded, b.failed)],
            _ => Vec::new(),
        }
    }

    /// The lines written after the body when `kept` of its items are shown: a page's footer
    /// ([`Page::footer`](crate::Page::footer)), a batch's retry line, a reply's `Links:`,
    /// `Resource:` and `Next:` lines. Exact and escaped; an error has none (its fields are
    /// written as bullets).
    ///
    /// ```
    /// use tool_output_format::{Context, Node, Page, ToolOutput};
    /// let page = Page::new(vec![1, 2, 3]).item_cursors(["c0", "c1", "c2"]);
    /// let Node::Envelope(e) = page.to_node(&Context::new()) else { unreachable!() };
    /// assert_eq!(
    ///     e.foot_lines(1),
    ///     ["has_more: true", "next_cursor: c1", "[Items 2-3 of this page were cut: next_cursor resumes at item 2]"]
    /// );
    /// ```
    #[must_use]
    pub fn foot_lines(&self, kept: usize) -> Vec<String> {
        match &self.parts {
            Parts::Page(p) => p.footer(kept).lines(),
            Parts::Error(_) => Vec::new(),
            Parts::Batch(b) => b.retry.iter().map(NextAction::line).collect(),
            Parts::Reply(r) => {
                let mut lines = Vec::with_capacity(1 + r.references.len() + r.next.len());
                lines.extend(crate::agent::links_line(&r.links));
                lines.extend(r.references.iter().map(ResourceRef::line));
                lines.extend(r.next.iter().map(NextAction::line));
                lines
            }
        }
    }

    /// The envelope as JSON around `body` (the body already serialised; `None` when it has
    /// none), with `kept` items of the body shown (see [`Envelope`] for the shape).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::{Context, Node, Page, ToolOutput};
    /// let page = Page::new(vec![1, 2]).has_more(true).next_cursor("c2").next_call("list", "cursor");
    /// let Node::Envelope(e) = page.to_node(&Context::new()) else { unreachable!() };
    /// assert_eq!(
    ///     e.to_json(Some(json!([1, 2])), 2),
    ///     json!({"items": [1, 2], "has_more": true, "next_cursor": "c2",
    ///            "next": {"tool": "list", "args": {"cursor": "c2"}}})
    /// );
    /// ```
    #[must_use]
    pub fn to_json(&self, body: Option<Value>, kept: usize) -> Value {
        let mut m = Map::new();
        match &self.parts {
            Parts::Page(p) => {
                m.insert("items".into(), body.unwrap_or(Value::Array(Vec::new())));
                page_json(&p.footer(kept), &mut m);
            }
            Parts::Error(e) => {
                m.insert("error".into(), error_json(e));
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

    /// A copy that owns its text.
    pub(crate) fn into_owned(self) -> Envelope<'static> {
        Envelope {
            body: self.body.map(Node::into_owned),
            parts: match self.parts {
                Parts::Page(p) => Parts::Page(p.into_owned()),
                Parts::Error(e) => Parts::Error(Cow::Owned(e.into_owned())),
                Parts::Batch(b) => Parts::Batch(b),
                Parts::Reply(r) => Parts::Reply(ReplyMeta {
                    next: Cow::Owned(r.next.into_owned()),
                    links: Cow::Owned(r.links.into_owned()),
                    references: Cow::Owned(r.references.into_owned()),
                }),
            },
        }
    }

    pub(crate) fn body_mut(&mut self) -> Option<&mut Node<'a>> {
        self.body.as_mut()
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
        m.insert("notice".into(), n.into());
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

/// The envelopes at the root of a node, outermost first (each without its body), and the
/// innermost body: what caps and budgets act on.
pub(crate) fn split(node: Node<'_>) -> (Vec<Envelope<'_>>, Option<Node<'_>>) {
    let mut shells = Vec::new();
    let mut body = Some(node);
    while let Some(Node::Envelope(mut e)) = body {
        body = e.body.take();
        shells.push(*e);
    }
    (shells, body)
}

/// The innermost body of a node (the node itself when it is not an envelope).
pub(crate) fn innermost(node: Node<'_>) -> Option<Node<'_>> {
    split(node).1
}

/// Put `body` back into copies of the `shells` [`split`] took apart.
pub(crate) fn join<'a>(shells: &[Envelope<'a>], body: Option<Node<'a>>) -> Node<'a> {
    let mut node = body;
    for shell in shells.iter().rev() {
        let mut e = Envelope {
            body: None,
            parts: shell.parts.clone(),
        };
        e.body = node;
        node = Some(Node::Envelope(Box::new(e)));
    }
    node.unwrap_or(Node::Null)
}

/// Append an envelope nested in a cell as compact JSON (the shape of [`Envelope::to_json`]).
pub(crate) fn write_json(e: &Envelope<'_>, secrets: &crate::redact::Secrets, out: &mut String) {
    let body = e.body().map(|b| {
        let mut text = String::new();
        crate::source::json::write_node(b, secrets, &mut text);
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    });
    let value = e.to_json(body, e.kept(e.body()));
    crate::source::json::write_compact(&value, secrets, out);
}
