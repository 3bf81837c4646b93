//! The cell rules: how one value becomes the text of a table cell, and its [`Kind`].
//!
//! | value | cell text | kind |
//! |---|---|---|
//! | null / `None` | empty | `Null` |
//! | bool, number | as `serde_json` writes it (`true`, `1.0`, `1e20`) | `Bool`, `Number` |
//! | string | the string | `Text` |
//! | empty array / object | `[]` / `{}` | `Json` |
//! | array of strings, numbers and bools | the items joined by `, ` | `List` |
//! | any other array or object | compact JSON (key order kept) | `Json` |
//!
//! Record fields follow the same rules for scalars; nested objects and lists of records
//! become sub-bullets and tables instead (see [`Formatter::format`](crate::Formatter::format)).
//!
//! For the structured JSON form ([`Context::is_structured`]) an array of scalars is compact
//! JSON (kind `Json`) like any other array, so it reads back as an array.

use serde_json::Value;

use super::json;
use crate::doc::{Kind, Node};
use crate::input::context::Context;
use crate::shape::Shaped;

/// Append the cell text of a JSON value; returns its kind.
pub(crate) fn write_value(v: &Value, cx: &Context<'_>, out: &mut String) -> Kind {
    let secrets = cx.secrets();
    match v {
        Value::Null => Kind::Null,
        Value::Bool(b) => {
            out.push_str(if *b { "true" } else { "false" });
            Kind::Bool
        }
        Value::Number(n) => {
            json::write_number(n, out);
            Kind::Number
        }
        Value::String(s) => {
            out.push_str(s);
            Kind::Text
        }
        Value::Array(items) => write_array(items, cx, out),
        Value::Object(_) => {
            json::write_compact(v, secrets, out);
            Kind::Json
        }
    }
}

/// Append the cell text of a shaped value: what [`write_value`] writes for the value it
/// stands for, without building it (an object or a list of records a rule changed is
/// compact JSON).
pub(crate) fn write_shaped(v: &Shaped<'_>, cx: &Context<'_>, out: &mut String) -> Kind {
    match v {
        Shaped::Value(v) => write_value(v, cx, out),
        Shaped::Record(fields) => {
            json::write_fields(fields, cx.secrets(), out);
            Kind::Json
        }
        Shaped::Rows(rows) => {
            json::write_rows(rows, cx.secrets(), out);
            Kind::Json
        }
    }
}

/// Append the cell text of an array: `[]`, the items joined by `, `, or compact JSON.
pub(crate) fn write_array(items: &[Value], cx: &Context<'_>, out: &mut String) -> Kind {
    let secrets = cx.secrets();
    if items.is_empty() {
        out.push_str("[]");
        Kind::Json
    } else if !cx.is_structured() && items.iter().all(is_plain_scalar) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_value(item, cx, out);
        }
        Kind::List
    } else {
        json::write_array(items, secrets, out);
        Kind::Json
    }
}

/// True for strings, numbers and booleans (the values an array may hold to print joined).
fn is_plain_scalar(v: &Value) -> bool {
    matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_))
}

/// Append the cell text of a node (the same rules as for JSON values); returns its kind.
pub(crate) fn write_node(node: &Node<'_>, cx: &Context<'_>, out: &mut String) -> Kind {
    match node {
        Node::Null => Kind::Null,
        Node::Bool(b) => {
            out.push_str(if *b { "true" } else { "false" });
            Kind::Bool
        }
        Node::Number(n) => {
            out.push_str(n);
            Kind::Number
        }
        Node::Str(s) => {
            out.push_str(s);
            Kind::Text
        }
        Node::DepthCut(n) => {
            out.push_str(&crate::sink::notice::depth(*n));
            Kind::Text
        }
        Node::List(items)
            if !cx.is_structured() && !items.is_empty() && items.iter().all(is_plain_node) =>
        {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_node(item, cx, out);
            }
            Kind::List
        }
        Node::List(_) | Node::Record(_) | Node::Table(_) | Node::Envelope(_) => {
            json::write_node(node, cx.secrets(), out);
            Kind::Json
        }
    }
}

/// True for the nodes a list may hold to print joined.
fn is_plain_node(n: &Node<'_>) -> bool {
    matches!(n, Node::Bool(_) | Node::Number(_) | Node::Str(_))
}

/// Append the cell text of a sequence whose items write their own cells: joined by `, `
/// when every item is a string, number or bool, else a JSON array of the items' nodes.
pub(crate) fn write_seq<T: crate::ToolOutput>(
    items: &[T],
    cx: &Context<'_>,
    out: &mut String,
) -> Kind {
    if items.is_empty() {
        out.push_str("[]");
        return Kind::Json;
    }
    if cx.is_structured() {
        let inner = cx.nested();
        let nodes: Vec<Node<'_>> = items.iter().map(|i| i.to_node(&inner)).collect();
        json::write_node(&Node::List(nodes), cx.secrets(), out);
        return Kind::Json;
    }
    let start = out.len();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if !matches!(
            item.write_cell(cx, out),
            Kind::Bool | Kind::Number | Kind::Text
        ) {
            out.truncate(start);
            let inner = cx.nested();
            let nodes: Vec<Node<'_>> = items.iter().map(|i| i.to_node(&inner)).collect();
            json::write_node(&Node::List(nodes), cx.secrets(), out);
            return Kind::Json;
        }
    }
    Kind::List
}
