//! Sequences: the column union shared by every source, and the default
//! [`ToolOutput::list_node`](crate::ToolOutput::list_node), which tabulates item nodes.

use super::table::{Builder, Columns, MAX_COLUMNS};
use crate::doc::{Mark, Node, Text};
use crate::input::context::Context;

/// The default list node: each item's node; a table when they are all records with at least
/// one field between them (and at most [`MAX_COLUMNS`]), else a list.
pub(crate) fn of_nodes<'a, T: crate::ToolOutput>(items: &'a [T], cx: &Context<'_>) -> Node<'a> {
    if let Some(sh) = cx.shaping() {
        return super::shaped::typed_list(items, T::to_json, cx, sh);
    }
    let inner = cx.nested();
    let nodes: Vec<Node<'a>> = items.iter().map(|i| i.to_node(&inner)).collect();
    let records: Option<Vec<_>> = nodes
        .iter()
        .map(|n| match n {
            Node::Record(r) => Some(r),
            _ => None,
        })
        .collect();
    let Some(records) = records.filter(|r| r.iter().any(|r| !r.fields.is_empty())) else {
        return Node::List(nodes);
    };
    let mut columns = Columns::default();
    for r in &records {
        columns.add(r.fields.iter().map(|f| &*f.name), r.fields.len());
    }
    if columns.names.len() > MAX_COLUMNS {
        return Node::List(nodes);
    }
    let mut limits = vec![None; columns.names.len()];
    let mut marks = vec![Mark::None; columns.names.len()];
    let names: Vec<Text<'a>> = columns
        .names
        .iter()
        .map(|&n| Text::Owned(n.to_owned()))
        .collect();
    let mut t = Builder::new(names, cx);
    let range = cx.rows(records.len(), None);
    for r in &records[range] {
        let in_order = r.fields.len() == columns.names.len()
            && columns.is_prefix(r.fields.iter().map(|f| &*f.name), r.fields.len());
        for (c, name) in columns.names.iter().enumerate() {
            let field = if in_order {
                Some(&r.fields[c])
            } else {
                r.fields.iter().find(|f| f.name == *name)
            };
            if let Some(f) = field {
                limits[c] = limits[c].or(f.max_chars);
                if marks[c] == Mark::None {
                    marks[c] = f.mark;
                }
            }
            t.node(field.map(|f| &f.value), &inner);
        }
    }
    let mut t = t.finish(records.len());
    t.set_limits(limits);
    t.set_marks(marks);
    Node::Table(t)
}
