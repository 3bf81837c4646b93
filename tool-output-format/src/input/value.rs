//! The `serde_json::Value` walker: shape detection and the first-seen column union. Text is
//! borrowed from the value, never copied into the document (a table's column names are copied
//! once per call).

use std::rc::Rc;

use serde_json::{Map, Value};

use super::table::{Builder, Columns, MAX_COLUMNS, record_of};
use super::{ToolOutput, cell, json, shaped};
use crate::doc::{Kind, Node, Record, Table, Text};
use crate::input::context::Context;

impl ToolOutput for Value {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        match self {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => {
                let mut s = String::new();
                json::write_number(n, &mut s);
                Node::Number(Text::Owned(s))
            }
            Value::String(s) => Node::Str(Text::Borrowed(s)),
            Value::Array(_) | Value::Object(_) if cx.too_deep() => {
                Node::DepthCut(Some(json::count_values(self)))
            }
            Value::Array(items) => Value::list_node(items, cx),
            Value::Object(map) => match cx.shaping() {
                Some(sh) => shaped::record(map, cx, sh),
                None => Node::Record(record(map, cx)),
            },
        }
    }

    fn to_json(&self) -> Value {
        self.clone()
    }

    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        cell::write_value(self, cx, out)
    }

    /// A table when every item is an object and they have at least one key between them,
    /// else a list. Only the rows the [`Context`]'s plan asks for are built; the columns come
    /// from every item.
    ///
    /// With a tool's shape (at the top of a result), the rows are shaped as they are walked;
    /// see [`Shape`](crate::Shape).
    fn list_node<'a>(items: &'a [Self], cx: &Context<'_>) -> Node<'a> {
        if let Some(sh) = cx.shaping() {
            return shaped::list(items, cx, sh);
        }
        if let Some(t) = table(items, cx) {
            return Node::Table(t);
        }
        let inner = cx.nested();
        Node::List(items.iter().map(|v| v.to_node(&inner)).collect())
    }
}

pub(super) fn record<'a>(map: &'a Map<String, Value>, cx: &Context<'_>) -> Record<'a> {
    let inner = cx.nested();
    record_of(
        map.iter()
            .map(|(k, v)| (Text::Borrowed(k.as_str()), v.to_node(&inner))),
        cx,
    )
}

/// Build a table from objects (cells of the rows the context asks for only): columns are
/// the keys in first-seen order across all rows. `None` when not every item is an object,
/// when they have no key between them, or past [`MAX_COLUMNS`]. Within one call (a budget
/// builds more rows as it needs them) the result's own table finds its columns once: see
/// [`Memo`](crate::input::context::Memo).
fn table<'a>(items: &'a [Value], cx: &Context<'_>) -> Option<Table<'a>> {
    let rows = || items.iter().filter_map(Value::as_object);
    // The column names, borrowed from the items' keys.
    let columns = || {
        let all_objects = !items.is_empty() && items.iter().all(Value::is_object);
        if !all_objects || rows().all(Map::is_empty) {
            return None;
        }
        let mut columns = Columns::default();
        for m in rows() {
            columns.add_distinct(m.keys().map(String::as_str), m.len());
        }
        (columns.names.len() <= MAX_COLUMNS).then_some(columns.names)
    };
    // The memo is keyed by the array's address: only the result's own arrays (depth 0,
    // borrowed for the whole call) keep theirs; a nested array may be a temporary whose
    // address a later one reuses. A nested table's names stay borrowed from its items (no
    // `String` per column).
    let memo = cx.memo().filter(|_| cx.depth() == 0);
    let kept: Option<Rc<[String]>> = match memo {
        Some(memo) => Some(memo.value_columns(items, || {
            columns().map(|names| names.iter().map(|&k| k.to_owned()).collect())
        })?),
        None => None,
    };
    let (mut t, names) = match &kept {
        Some(kept) => (
            Builder::new(kept.iter().map(|k| Text::Owned(k.clone())).collect(), cx),
            kept.iter().map(String::as_str).collect(),
        ),
        None => {
            let names: Vec<&'a str> = columns()?;
            (
                Builder::new(names.iter().map(|&k| Text::Borrowed(k)).collect(), cx),
                names,
            )
        }
    };
    let range = cx.rows(items.len(), None);
    for m in rows().skip(range.start).take(range.len()) {
        if m.len() == names.len() && m.keys().zip(&names).all(|(k, c)| k == c) {
            for v in m.values() {
                t.value(Some(v), cx);
            }
        } else {
            for &k in &names {
                t.value(m.get(k), cx);
            }
        }
    }
    Some(t.finish(items.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::context::{Memo, RowPlan};
    use crate::rules::redact::Secrets;
    use serde_json::json;

    fn columns(t: &Table<'_>) -> Vec<String> {
        t.columns().iter().map(ToString::to_string).collect()
    }

    /// Two arrays at one address (a temporary freed and another made in its place): a
    /// nested table finds its own columns, the result's own table keeps what it found.
    #[test]
    fn only_the_results_own_table_keeps_its_columns() {
        let plan = RowPlan::default();
        let memo = Memo::default();
        let secrets = Secrets::EMPTY;
        let root = Context::root(&plan, &secrets).with_memo(&memo);
        let mut items = vec![json!({"a": 1})];
        let nested = root.nested();
        assert_eq!(columns(&table(&items, &nested).unwrap()), ["a"]);
        items[0] = json!({"b": 2});
        assert_eq!(columns(&table(&items, &nested).unwrap()), ["b"]);
        assert_eq!(columns(&table(&items, &root).unwrap()), ["b"]);
        items[0] = json!({"b": 2, "c": 3});
        items.truncate(1);
        // The same call's result: its columns were found once.
        assert_eq!(columns(&table(&items, &root).unwrap()), ["b"]);
    }
}
