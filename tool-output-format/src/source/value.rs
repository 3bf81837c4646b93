//! The `serde_json::Value` walker: shape detection and the first-seen column union.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{ToolOutput, cell, json};
use crate::doc::{MAX_DEPTH, Name, Node, Record, Table};

impl ToolOutput for Value {
    fn to_node(&self) -> Node {
        node_at(self, 0)
    }

    fn to_json(&self) -> Value {
        self.clone()
    }

    fn write_cell(&self, out: &mut String) {
        cell::write_value(self, out);
    }

    fn __node_limited(&self, max_rows: usize) -> Node {
        match self {
            Value::Array(items) => array_node_at(items, 0, max_rows),
            _ => self.to_node(),
        }
    }

    fn __list_node(items: &[Self], max_rows: usize) -> Node {
        array_node_at(items, 0, max_rows)
    }

    fn __list_cell(items: &[Self], out: &mut String) {
        cell::write_array(items, out);
    }
}

/// The node for a value nested `depth` levels deep.
fn node_at(v: &Value, depth: usize) -> Node {
    match v {
        Value::Null => Node::Null,
        Value::Bool(b) => Node::Scalar(b.to_string()),
        Value::Number(n) => {
            let mut s = String::new();
            json::write_number(n, &mut s);
            Node::Scalar(s)
        }
        Value::String(s) => Node::Str(s.clone()),
        Value::Array(_) | Value::Object(_) if depth >= MAX_DEPTH => {
            Node::DepthCut(json::count_values(v))
        }
        Value::Array(items) => array_node_at(items, depth, usize::MAX),
        Value::Object(map) => Node::Record(record(map, depth)),
    }
}

fn record(map: &Map<String, Value>, depth: usize) -> Record {
    Record {
        title: None,
        fields: map
            .iter()
            .map(|(k, v)| (Name::Owned(k.clone()), node_at(v, depth + 1)))
            .collect(),
    }
}

/// The node for an owned array (used by the default list impl of [`ToolOutput`]).
pub fn array_node(items: Vec<Value>, max_rows: usize) -> Node {
    array_node_at(&items, 0, max_rows)
}

/// Dispatch a sequence by shape: a table when every item is an object and they have at
/// least one key between them, else a list. A table builds at most `max_rows` rows (at least
/// one): the shape and the columns still come from every item, and the table records the
/// full row count.
fn array_node_at(items: &[Value], depth: usize, max_rows: usize) -> Node {
    let all_objects = !items.is_empty() && items.iter().all(Value::is_object);
    if all_objects
        && items
            .iter()
            .any(|v| v.as_object().is_some_and(|m| !m.is_empty()))
    {
        let mut t = table(items, max_rows.max(1));
        if t.columns().len() <= MAX_COLUMNS {
            t.set_total_rows(items.len());
            return Node::Table(t);
        }
    }
    Node::List(items.iter().map(|v| node_at(v, depth + 1)).collect())
}

/// The most columns a table may have. GFM parsers read a row of more cells as plain text
/// (cmark-gfm and comrak give up at 65,535), so records with more keys between them than
/// this are written as a list of records (bullets) instead: same data, honest structure.
pub const MAX_COLUMNS: usize = 65_535;

/// Build a table from objects: columns are the keys in first-seen order across all rows.
///
/// Rows of a tool result nearly always share one key order, so keys are first compared by
/// position with the columns (no hashing); a set of the column names is built only when a
/// row brings a new key, and a row whose keys differ from the columns is looked up by name.
/// Build a table from objects (cells of the first `max_rows` only): columns are the keys in
/// first-seen order across all rows.
fn table(items: &[Value], max_rows: usize) -> Table {
    let rows = || items.iter().filter_map(Value::as_object);
    // Whether `m`'s keys are the first `m.len()` columns, in order.
    let is_prefix = |m: &Map<String, Value>, columns: &[&str]| {
        m.len() <= columns.len() && m.keys().zip(columns).all(|(k, c)| k == c)
    };
    let mut columns: Vec<&str> = Vec::new();
    let mut seen: Option<HashSet<&str>> = None;
    for m in rows() {
        if is_prefix(m, &columns) {
            continue;
        }
        let seen = seen.get_or_insert_with(|| columns.iter().copied().collect());
        for k in m.keys() {
            if seen.insert(k) {
                columns.push(k);
            }
        }
    }
    let mut t = Table::new(columns.iter().map(|&k| Name::Owned(k.to_owned())).collect());
    for m in rows().take(max_rows) {
        if m.len() == columns.len() && is_prefix(m, &columns) {
            for v in m.values() {
                cell::write_value(v, t.buf_mut());
                t.end_cell();
            }
        } else {
            for k in &columns {
                if let Some(v) = m.get(*k) {
                    cell::write_value(v, t.buf_mut());
                }
                t.end_cell();
            }
        }
    }
    t
}
