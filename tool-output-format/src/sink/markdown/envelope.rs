//! Envelopes in markdown: a page's footer, an error's bullets, a batch's counts and retry
//! line, a reply's links, references and next actions, written around the body (at the top
//! level, or in place inside a record or list). The lines come exact and escaped from
//! [`Envelope`]; nothing here is cut.

use super::{TableStyle, Writer};
use crate::doc::Envelope;
use crate::doc::agent::ToolError;
use crate::doc::notice::Notice;
use crate::doc::{Node, Record};

/// An error's bullets: kind, message, retryable (with the delay), hint when set.
fn error_record(e: &ToolError) -> Record<'_> {
    let mut r = Record::default();
    r.push("kind", Node::Str(e.kind().as_str().into()));
    r.push("message", Node::Str(e.message().into()));
    r.push("retryable", Node::Str(e.retryable_text().into()));
    if let Some(hint) = e.get_hint() {
        r.push("hint", Node::Str(hint.into()));
    }
    r
}

/// The title of an error when the tool has no name.
const UNNAMED_FAILURE: &str = "failed";

impl<S: TableStyle> Writer<'_, '_, S> {
    /// An envelope at the top level: `title` is the formatter's (`{tool} failed` for an
    /// error), printed above an error's bullets or a record body.
    pub(super) fn envelope_root(&mut self, e: &Envelope<'_>, title: Option<&str>) {
        if let Some(err) = e.error() {
            self.title(title.unwrap_or(UNNAMED_FAILURE));
            self.blank();
            self.fields(&error_record(err), "");
            return;
        }
        let head = e.head_lines();
        for l in &head {
            self.line("", l);
        }
        if let Some(body) = e.body() {
            if !head.is_empty() {
                self.blank();
            }
            // A batch's counts line stands for the title.
            self.root(body, if head.is_empty() { title } else { None });
        }
        let foot = e.foot_lines(e.kept(e.body()), crate::sink::notice::page_cut);
        if !foot.is_empty() {
            if !self.out.is_empty() && !self.out.ends_with("\n\n") {
                self.blank();
            }
            for l in &foot {
                self.line("", l);
            }
        }
    }

    /// An envelope as a record value or list item (after `- key:` or `-`): the body as a
    /// value would be, then the lines inside the item after a blank line.
    pub(super) fn envelope_value(&mut self, e: &Envelope<'_>, indent: &str, keyed: bool) {
        let inner = super::deeper(indent);
        if let Some(err) = e.error() {
            self.out.push_str(" **");
            self.out.push_str(UNNAMED_FAILURE);
            self.out.push_str("**\n");
            self.fields(&error_record(err), &inner);
            return;
        }
        let head = e.head_lines();
        let mut foot = e
            .foot_lines(e.kept(e.body()), crate::sink::notice::page_cut)
            .into_iter();
        match (head.split_first(), e.body()) {
            (Some((first, rest)), body) => {
                self.out.push(' ');
                self.out.push_str(first);
                self.out.push('\n');
                for l in rest {
                    self.line(&inner, l);
                }
                if let Some(body) = body {
                    self.blank();
                    self.block(body, &inner);
                }
            }
            // An empty page is `*(empty)*`, as at the top level.
            (None, Some(Node::List(items))) if items.is_empty() => {
                self.out.push_str(" *(empty)*\n");
            }
            (None, Some(body)) => self.value(body, indent, keyed),
            (None, None) => match foot.next() {
                Some(first) => {
                    self.out.push(' ');
                    self.out.push_str(&first);
                    self.out.push('\n');
                }
                None => self.out.push('\n'),
            },
        }
        let foot: Vec<String> = foot.collect();
        if !foot.is_empty() {
            self.blank();
            for l in &foot {
                self.line(&inner, l);
            }
        }
    }

    /// A node as a block of its own at `indent` (a batch's body below its counts line).
    fn block(&mut self, node: &Node<'_>, indent: &str) {
        match node {
            Node::Table(t) => {
                if t.total_rows() > t.rows() {
                    let notice = Notice::Rows {
                        kept: t.rows(),
                        total: t.total_rows(),
                    };
                    self.line(indent, &notice.to_string());
                    self.blank();
                }
                self.table(t, indent);
            }
            Node::Record(r) if !r.fields.is_empty() => self.fields(r, indent),
            Node::List(items) if !items.is_empty() => self.items(items, indent),
            other => self.items(std::slice::from_ref(other), indent),
        }
    }
}
