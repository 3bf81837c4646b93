//! [`ToolOutput`] for the agent shapes: each describes itself as a [`Node::Envelope`] whose
//! body is its data and whose parts are never cut (see [`crate::envelope`]).

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::doc::agent::{Batch, Page, Reply, ToToolError, ToolError};
use crate::doc::{BatchMeta, Envelope, Parts, ReplyMeta};
use crate::doc::{Kind, Node, Record, Table, Text};
use crate::input::ToolOutput;
use crate::input::cell;
use crate::input::context::{Context, Shaping};
use crate::input::hook::{Hook, Hooks};
use crate::input::table::{Builder, Columns, redact_record};
use crate::sink::json_envelope::error_json;

fn envelope<'a>(body: Option<Node<'a>>, parts: Parts<'a>) -> Node<'a> {
    Node::Envelope(Box::new(Envelope::new(body, parts)))
}

/// The items as they render alone (a table for records, `*(empty)*` for none), then the
/// footer (`has_more` always). The context is passed on unchanged, so the items are the
/// result's main table: only the rows a cap or budget keeps are built, and a cut page's
/// footer resumes at the first dropped item.
///
/// ```
/// use tool_output_format::{Formatter, Page};
/// let page = Page::new(vec!["Ada", "Bob"]).has_more(true).next_cursor("c2").next_call("list", "cursor");
/// assert_eq!(
///     Formatter::new().format("list", &page),
///     "- Ada\n- Bob\n\nhas_more: true\nnext_cursor: c2\nNext: call list(cursor=\"c2\")"
/// );
/// ```
impl<T: ToolOutput> ToolOutput for Page<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        if cx.too_deep() {
            return Node::DepthCut(None);
        }
        let body = T::list_node(self.items(), cx);
        envelope(Some(body), Parts::Page(self.meta()))
    }

    fn to_json(&self) -> Value {
        let items = self.items().to_json();
        Envelope::new(None, Parts::Page(self.meta())).to_json(Some(items), self.len())
    }

    /// The items' secrets, in the data's `items`.
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact()
            && let Some(items) = data.get_mut("items")
        {
            self.items().redact_serialized(items);
        }
    }
}

/// Under the title `**{tool} failed**`: the kind, the message, whether a retry can help (and
/// after how long), and the hint, as bullets; never cut.
///
/// ```
/// use tool_output_format::{ErrorKind, Formatter, ToolError};
/// let err = ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist");
/// assert_eq!(
///     Formatter::new().format("get_order", &err),
///     "**get_order failed**\n\n- kind: not_found\n- message: order ORD-1 does not exist\n- retryable: false"
/// );
/// ```
impl ToolOutput for ToolError {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        envelope(None, Parts::Error(Cow::Borrowed(self)))
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("error".into(), error_json(self));
        Value::Object(m)
    }
}

/// `Ok` renders as `T` (the context passed on unchanged), `Err` as the [`ToolError`] from
/// [`ToToolError`]: `**{tool} failed**` and the error's bullets.
///
/// The bound is `E: ToToolError`, not `E: Into<ToolError> + Clone`: a result is rendered by
/// reference, and the errors tools return most (`std::io::Error`, `serde_json::Error`) are
/// not `Clone`. `ToToolError` is implemented for [`ToolError`], those errors, strings, boxed
/// `dyn Error`s and the std parse errors; implement it for your own error type in one line
/// (see [`ToToolError`]).
///
/// ```
/// use tool_output_format::{Formatter, ToolError};
/// let fmt = Formatter::new();
/// let ok: Result<u32, ToolError> = Ok(7);
/// assert_eq!(fmt.format("count", &ok), "7");
/// let err: Result<u32, std::io::Error> = Err(std::io::ErrorKind::NotFound.into());
/// let out = fmt.format_with_report("count", &err);
/// assert!(out.is_error());
/// assert!(out.text.starts_with("**count failed**\n\n- kind: not_found\n"));
/// ```
impl<T: ToolOutput, E: ToToolError> ToolOutput for Result<T, E> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        match self {
            Ok(v) => v.to_node(cx),
            Err(e) => envelope(None, Parts::Error(Cow::Owned(e.to_tool_error()))),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Ok(v) => v.to_json(),
            Err(e) => e.to_tool_error().to_json(),
        }
    }

    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact()
            && let Ok(v) = self
        {
            v.redact_serialized(data);
        }
    }

    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        match self {
            Ok(v) => v.write_cell(cx, out),
            Err(e) => cell::write_node(&e.to_tool_error().to_node(cx), cx, out),
        }
    }
}

/// The counts line, the failures table (`id`, `kind`, `message`, `retryable`), then the
/// retry line naming exactly the retryable failures. When succeeded items carry values
/// ([`Batch::ok_with`]), the body is a record: `failures` (the table) then `results` (an
/// `id` column and the value's columns). A batch is not an error, even when every item
/// failed: it reports per-item outcomes.
///
/// ```
/// use tool_output_format::{Batch, ErrorKind, Formatter, ToolError};
/// let batch = Batch::new()
///     .ok("a@example.com")
///     .failed("c@example.com", ToolError::new(ErrorKind::Unavailable, "mailbox full"))
///     .retry_call("send_invites", "emails");
/// assert_eq!(
///     Formatter::new().format("send_invites", &batch),
///     "2 total, 1 succeeded, 1 failed\n\n\
///      | id            | kind        | message      | retryable |\n\
///      |---------------|-------------|--------------|-----------|\n\
///      | c@example.com | unavailable | mailbox full | true      |\n\n\
///      Next: call send_invites(emails=[\"c@example.com\"])"
/// );
/// ```
impl<T: ToolOutput> ToolOutput for Batch<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        if cx.too_deep() {
            return Node::DepthCut(None);
        }
        let meta = BatchMeta {
            succeeded: self.succeeded_count(),
            failed: self.failed_count(),
            retry: self.retry_action(),
        };
        let with_values = self.items().iter().any(|i| i.value().is_some());
        let body = if with_values {
            let inner = cx.nested();
            let mut r = Record::default();
            if meta.failed > 0 {
                r.push("failures", Node::Table(self.failures_table(&inner)));
            }
            r.push(
                "results",
                Node::Table(self.results_table(&inner, cx.shaping())),
            );
            Some(Node::Record(r))
        } else if meta.failed > 0 {
            Some(Node::Table(self.failures_table(cx)))
        } else {
            None
        };
        envelope(body, Parts::Batch(meta))
    }

    fn to_json(&self) -> Value {
        let failures: Vec<Value> = self
            .failures()
            .map(|(id, e)| {
                let mut m = Map::new();
                m.insert("id".into(), id.clone());
                if let Value::Object(fields) = error_json(e) {
                    m.extend(fields);
                }
                Value::Object(m)
            })
            .collect();
        let mut body = Map::new();
        body.insert("failures".into(), Value::Array(failures));
        let results = self.results_json();
        if !results.is_empty() {
            body.insert("results".into(), Value::Array(results));
        }
        let meta = BatchMeta {
            succeeded: self.succeeded_count(),
            failed: self.failed_count(),
            retry: self.retry_action(),
        };
        Envelope::new(None, Parts::Batch(meta)).to_json(Some(Value::Object(body)), 0)
    }
}

impl<T: ToolOutput> Batch<T> {
    /// The failures as a table, building the rows `cx` asks for (the result's main table at
    /// depth 0).
    fn failures_table<'a>(&'a self, cx: &Context<'_>) -> Table<'a> {
        let names = ["id", "kind", "message", "retryable"];
        let mut t = Builder::new(names.iter().map(|&n| Text::Borrowed(n)).collect(), cx);
        let total = self.failed_count();
        let range = cx.rows(total, None);
        for (id, e) in self.failures().skip(range.start).take(range.len()) {
            t.cell(|out| write_id(id, cx, out));
            t.cell(|out| {
                out.push_str(e.kind().as_str());
                Kind::Text
            });
            t.cell(|out| {
                out.push_str(e.message());
                Kind::Text
            });
            t.cell(|out| {
                let retryable = e.retryable_text();
                out.push_str(&retryable);
                if retryable.contains(',') {
                    Kind::Text
                } else {
                    Kind::Bool
                }
            });
        }
        t.finish(total)
    }

    /// The succeeded items that carry a value, as JSON rows: `id`, then the value's fields
    /// (or `value`).
    fn results_json(&self) -> Vec<Value> {
        self.items()
            .iter()
            .filter_map(|i| {
                let v = i.value()?;
                let mut m = Map::new();
                m.insert("id".into(), i.id().clone());
                match v.to_json() {
                    Value::Object(fields) => m.extend(fields),
                    other => {
                        m.insert("value".into(), other);
                    }
                }
                Some(Value::Object(m))
            })
            .collect()
    }

    /// The succeeded items that carry a value: an `id` column, then the value's columns (a
    /// `value` column when the value is not a record).
    fn results_table<'a>(&'a self, cx: &Context<'_>, shaping: Option<Shaping<'_>>) -> Table<'a> {
        let inner = cx.nested();
        if let Some(sh) = shaping {
            // Under a shape: each value's JSON form beside its id, shaped like `Value` rows.
            let rows: Vec<Value> = self.results_json();
            if let Node::Table(t) = crate::input::shaped::list(&rows, &inner, sh).into_owned() {
                return t;
            }
        }
        let records: Vec<Record<'a>> = self
            .items()
            .iter()
            .filter_map(|i| {
                let v = i.value()?;
                let mut r = Record::default();
                r.push("id", i.id().to_node(&inner));
                match v.to_node(&inner) {
                    Node::Record(fields) => r.fields.extend(fields.fields),
                    other => r.push("value", other),
                }
                redact_record(&mut r, cx);
                Some(r)
            })
            .collect();
        let mut columns = Columns::default();
        for r in &records {
            columns.add(r.fields.iter().map(|f| &*f.name), r.fields.len());
        }
        let names = columns.names.iter().map(|&n| Text::Owned(n.to_owned()));
        let mut t = Builder::new(names.collect(), cx);
        let range = cx.rows(records.len(), None);
        for r in &records[range] {
            for name in &columns.names {
                t.node(
                    r.fields.iter().find(|f| f.name == *name).map(|f| &f.value),
                    &inner,
                );
            }
        }
        t.finish(records.len())
    }
}

/// An id cell: a string as text, anything else as its cell form (compact JSON).
fn write_id(id: &Value, cx: &Context<'_>, out: &mut String) -> Kind {
    match id {
        Value::String(s) => {
            out.push_str(s);
            Kind::Text
        }
        other => cell::write_value(other, cx, out),
    }
}

/// The result as it renders alone (the context passed on unchanged), then one `Links:`
/// line, one `Resource:` line per reference and one `Next:` line per action; never cut.
///
/// ```
/// use tool_output_format::{Formatter, NextAction, Reply};
/// let reply = Reply::new("queued")
///     .next(NextAction::call("check_job_status").arg("jobId", "job_9").after_secs(30))
///     .link("view", "https://jobs.example.com/9");
/// assert_eq!(
///     Formatter::new().format("start_job", &reply),
///     "```\nqueued\n```\n\nLinks: [view](https://jobs.example.com/9)\n\
///      Next: call check_job_status(jobId=\"job_9\") after 30 s"
/// );
/// ```
impl<T: ToolOutput> ToolOutput for Reply<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        let meta = ReplyMeta {
            next: Cow::Borrowed(self.next_actions()),
            links: Cow::Borrowed(self.links()),
            references: Cow::Borrowed(self.references()),
        };
        envelope(Some(self.result().to_node(cx)), Parts::Reply(meta))
    }

    fn to_json(&self) -> Value {
        let meta = ReplyMeta {
            next: Cow::Borrowed(self.next_actions()),
            links: Cow::Borrowed(self.links()),
            references: Cow::Borrowed(self.references()),
        };
        Envelope::new(None, Parts::Reply(meta)).to_json(Some(self.result().to_json()), 0)
    }

    /// The result's secrets, in the data's `result`.
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact()
            && let Some(result) = data.get_mut("result")
        {
            self.result().redact_serialized(result);
        }
    }
}
