//! TEMPORARY STAND-INS, TO DELETE AT MERGE (issue 15 branch `rmcp`).
//!
//! Other branches add the real pieces the adapters call:
//!
//! - `Formatted::is_error(&self) -> bool` and the `ToolOutput` impls for `Page<T>`,
//!   `ToolError`, `Batch`, `Reply<T>` and `Result<T, E: ToToolError>` (agent helper);
//! - `Formatter::format_json<T: ToolOutput + ?Sized>(&self, tool, &T) -> serde_json::Value`
//!   (sinks helper).
//!
//! The adapters call them only through [`is_error`] and [`format_json`] below. At merge:
//! delete this file and its `mod pending;` line in `adapt/mod.rs`, and replace the two
//! function bodies' callers (`pending::is_error(&out)` -> `out.is_error()`,
//! `pending::format_json(fmt, tool, result)` -> `fmt.format_json(tool, result)`), both in
//! `adapt/mod.rs` (`render` and `render_json`).
//!
//! The stand-in `ToolOutput` impls render the envelope as a plain record (the real ones lay
//! it out as SPEC section 10 says); they keep the pinned lines the end-to-end test reads:
//! `has_more: ...` and `Next: call ...`, and the `**... failed**` title of an error.

use serde_json::{Value, json};

use crate::agent::{Batch, Page, Reply, ToToolError, ToolError};
use crate::build::Context;
use crate::doc::{Node, Record};
use crate::{Formatted, Formatter, ToolOutput};

/// Stand-in for `Formatted::is_error()`: an error's first line is its `**... failed**` title.
pub(crate) fn is_error(out: &Formatted) -> bool {
    let first = out.text.lines().next().unwrap_or("");
    first.starts_with("**") && first.ends_with(" failed**")
}

/// Stand-in for `Formatter::format_json`: the result's JSON form, unshaped and uncapped.
pub(crate) fn format_json<T: ToolOutput + ?Sized>(
    _fmt: &Formatter,
    _tool: &str,
    result: &T,
) -> Value {
    result.to_json()
}

fn str_node(s: String) -> Node<'static> {
    Node::Str(s.into())
}

fn error_record(e: &ToolError) -> Record<'static> {
    let mut r = Record {
        title: Some("tool failed".into()),
        ..Record::default()
    };
    r.push("kind", str_node(e.kind().as_str().to_string()));
    r.push("message", str_node(e.message().to_string()));
    r.push("retryable", str_node(e.retryable_text()));
    if let Some(h) = e.get_hint() {
        r.push("hint", str_node(h.to_string()));
    }
    r
}

fn error_json(e: &ToolError) -> Value {
    json!({"kind": e.kind().as_str(), "message": e.message(), "retryable": e.is_retryable()})
}

impl ToolOutput for ToolError {
    fn to_node<'a>(&'a self, _cx: &Context<'_>) -> Node<'a> {
        Node::Record(error_record(self))
    }

    fn to_json(&self) -> Value {
        json!({"error": error_json(self)})
    }
}

impl<T: ToolOutput, E: ToToolError> ToolOutput for Result<T, E> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        match self {
            Ok(v) => v.to_node(cx),
            Err(e) => Node::Record(error_record(&e.to_tool_error())),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Ok(v) => v.to_json(),
            Err(e) => json!({"error": error_json(&e.to_tool_error())}),
        }
    }
}

impl<T: ToolOutput> ToolOutput for Page<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        let footer = self.footer(self.len());
        let mut r = Record::default();
        r.push("items", T::list_node(self.items(), &cx.nested()));
        for (i, line) in footer.lines().into_iter().enumerate() {
            r.push(format!("footer_{i}"), str_node(line));
        }
        Node::Record(r)
    }

    fn to_json(&self) -> Value {
        json!({
            "items": self.items().iter().map(ToolOutput::to_json).collect::<Vec<_>>(),
            "has_more": self.get_has_more(),
            "next_cursor": self.get_next_cursor(),
        })
    }
}

impl<T> ToolOutput for Batch<T> {
    fn to_node<'a>(&'a self, _cx: &Context<'_>) -> Node<'a> {
        let mut r = Record::default();
        r.push("counts", str_node(self.counts_line()));
        for (id, e) in self.failures() {
            r.push(format!("failed {id}"), Node::Record(error_record(e)));
        }
        if let Some(line) = self.retry_line() {
            r.push("retry", str_node(line));
        }
        Node::Record(r)
    }

    fn to_json(&self) -> Value {
        json!({
            "total": self.total(),
            "succeeded": self.succeeded_count(),
            "failed": self.failures().map(|(id, e)| json!({"id": id, "error": error_json(e)})).collect::<Vec<_>>(),
        })
    }
}

impl<T: ToolOutput> ToolOutput for Reply<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        let mut r = Record::default();
        r.push("result", self.result().to_node(&cx.nested()));
        for (i, line) in self.lines().into_iter().enumerate() {
            r.push(format!("line_{i}"), str_node(line));
        }
        Node::Record(r)
    }

    fn to_json(&self) -> Value {
        json!({"result": self.result().to_json(), "lines": self.lines()})
    }
}
