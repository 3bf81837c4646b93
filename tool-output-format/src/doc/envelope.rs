//! Envelopes in the document: the parts of an agent result (a page's footer, an error, a
//! batch's counts and retry call, a reply's links, references and next actions) that live
//! around the data and are never cut.
//!
//! [`Page`](crate::Page), [`ToolError`], [`Batch`](crate::Batch), [`Reply`](crate::Reply)
//! and `Err` describe themselves as a [`Node::Envelope`]: an optional body (the data: the
//! page's items, the batch's failures, the reply's result) and the parts. Caps and budgets
//! act on the body only. The formatter takes the envelopes at the root of a result apart
//! (`split_envelopes`), cuts and fits the body with every candidate rendered inside its envelopes
//! (so the budget is measured on the whole text, parts included), then puts them back
//! (`join_envelopes`) for the sink. A page's footer is computed after the cut from the items kept
//! ([`Envelope::foot_lines`]). Envelopes nested in a record or list are rendered in place
//! by the sink, their lines after their body, and are never cut either.

use std::borrow::Cow;

use super::{Node, PageMeta};
use crate::doc::agent::{Link, NextAction, ResourceRef, ToolError};

/// An agent result's envelope: its body (the data, which caps and budgets may cut) and its
/// parts (never cut). Its JSON shape (each type's [`ToolOutput::to_json`]): a page is
/// `{"items", "has_more", "next_cursor", "total", "notice", "next"}`, an error
/// `{"error": {...}}`, a batch `{"total", "succeeded", "failed", "failures", "results",
/// "next"}`, a reply `{"result", "links", "references", "next": [...]}`.
///
/// ```
/// use tool_output_format::{Context, Page, ToolOutput, doc::Node};
///
/// let page = Page::new(vec!["a", "b"]).has_more(true).next_cursor("c2");
/// assert!(matches!(page.to_node(&Context::new()), Node::Envelope(_)));
/// assert_eq!(page.to_json()["has_more"], true);
/// ```
///
/// [`ToolOutput::to_json`]: crate::ToolOutput::to_json
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope<'a> {
    body: Option<Node<'a>>,
    pub(super) parts: Parts<'a>,
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
    /// The parts (never cut), for the sinks.
    pub(crate) fn parts(&self) -> &Parts<'a> {
        &self.parts
    }

    pub(crate) fn new(body: Option<Node<'a>>, parts: Parts<'a>) -> Self {
        Envelope { body, parts }
    }

    /// The data inside the envelope, if any (an error and a batch without failures have
    /// none).
    #[must_use]
    pub(crate) fn body(&self) -> Option<&Node<'a>> {
        self.body.as_ref()
    }

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

    /// True for an error's envelope (a [`ToolError`] or an `Err`).
    #[must_use]
    pub(crate) fn is_error(&self) -> bool {
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
    #[must_use]
    pub(crate) fn head_lines(&self) -> Vec<String> {
        match &self.parts {
            Parts::Batch(b) => vec![crate::doc::agent::counts_line(b.succeeded, b.failed)],
            _ => Vec::new(),
        }
    }

    /// The lines written after the body when `kept` of its items are shown: a page's footer
    /// ([`Page::footer`](crate::Page::footer)), a batch's retry line, a reply's `Links:`,
    /// `Resource:` and `Next:` lines. Exact and escaped; an error has none (its fields are
    /// written as bullets).
    #[must_use]
    /// `cut_line` words a page's cut notice (the sink's: the model words no notice).
    pub(crate) fn foot_lines(
        &self,
        kept: usize,
        cut_line: fn(crate::doc::agent::PageCut) -> String,
    ) -> Vec<String> {
        match &self.parts {
            Parts::Page(p) => p.footer(kept).lines(cut_line),
            Parts::Error(_) => Vec::new(),
            Parts::Batch(b) => b.retry.iter().map(NextAction::line).collect(),
            Parts::Reply(r) => {
                let mut lines = Vec::with_capacity(1 + r.references.len() + r.next.len());
                lines.extend(crate::doc::agent::links_line(&r.links));
                lines.extend(r.references.iter().map(ResourceRef::line));
                lines.extend(r.next.iter().map(NextAction::line));
                lines
            }
        }
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

/// The envelopes at the root of a node, outermost first (each without its body), and the
/// innermost body: what caps and budgets act on.
pub(crate) fn split_envelopes(node: Node<'_>) -> (Vec<Envelope<'_>>, Option<Node<'_>>) {
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
    split_envelopes(node).1
}

/// Put `body` back into copies of the `shells` [`split`] took apart.
pub(crate) fn join_envelopes<'a>(
    shells: &[Envelope<'a>],
    body: Option<Node<'a>>,
    stored: bool,
) -> Node<'a> {
    let mut node = body;
    for shell in shells.iter().rev() {
        let mut e = Envelope {
            body: None,
            parts: shell.parts.clone(),
        };
        if let Parts::Page(p) = &mut e.parts {
            p.stored = stored;
        }
        e.body = node;
        node = Some(Node::Envelope(Box::new(e)));
    }
    node.unwrap_or(Node::Null)
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod tests {
    #[test]
    fn body() {
        use crate::{Context, ErrorKind, ToolError, ToolOutput, doc::Node};
        let err = ToolError::new(ErrorKind::Timeout, "slow");
        let Node::Envelope(e) = err.to_node(&Context::new()) else {
            unreachable!()
        };
        assert!(e.body().is_none());
    }

    #[test]
    fn is_error() {
        use crate::{Context, ErrorKind, ToolError, ToolOutput, doc::Node};
        let err = ToolError::new(ErrorKind::Timeout, "slow");
        let Node::Envelope(e) = err.to_node(&Context::new()) else {
            unreachable!()
        };
        assert!(e.is_error());
    }

    #[test]
    fn head_lines() {
        use crate::{Batch, Context, ToolOutput, doc::Node};
        let batch = Batch::new().ok("a").ok("b");
        let Node::Envelope(e) = batch.to_node(&Context::new()) else {
            unreachable!()
        };
        assert_eq!(e.head_lines(), ["2 total, 2 succeeded, 0 failed"]);
    }

    #[test]
    fn foot_lines() {
        use crate::{Context, Page, ToolOutput, doc::Node};
        let page = Page::new(vec![1, 2, 3]).item_cursors(["c0", "c1", "c2"]);
        let Node::Envelope(e) = page.to_node(&Context::new()) else {
            unreachable!()
        };
        assert_eq!(
            e.foot_lines(1, crate::sink::notice::page_cut),
            [
                "has_more: true",
                "next_cursor: c1",
                "[Items 2-3 of this page were cut: next_cursor resumes at item 2]"
            ]
        );
    }
}
