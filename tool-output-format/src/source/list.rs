//! Sequences: the column union shared by every source, and the default
//! [`ToolOutput::list_node`](crate::ToolOutput::list_node), which tabulates item nodes.

use std::collections::HashSet;

use super::cell;
use crate::build::Context;
use crate::doc::{Kind, Node, Table, Text};

/// The most columns a table may have. GFM parsers read a row of more cells as plain text
/// (cmark-gfm and comrak give up at 65,535), so records with more keys between them than
/// this are written as a list of records (bullets) instead: same data, honest structure.
pub const MAX_COLUMNS: usize = 65_535;

/// Column names in first-seen order across rows.
///
/// Rows of a tool result nearly always share one key order, so a row's keys are first
/// compared by position with the columns (no hashing); a set of the names is built only when
/// a row brings a new key.
#[derive(Default)]
pub(crate) struct Columns<'k> {
    pub names: Vec<&'k str>,
    seen: Option<HashSet<&'k str>>,
}

impl<'k> Columns<'k> {
    /// Whether `keys` are the first `len` columns, in order.
    pub fn is_prefix<I: Iterator<Item = &'k str>>(&self, keys: I, len: usize) -> bool {
        len <= self.names.len() && keys.zip(&self.names).all(|(k, c)| k == *c)
    }

    /// Add the keys of one row.
    pub fn add<I: Iterator<Item = &'k str> + Clone>(&mut self, keys: I, len: usize) {
        if self.is_prefix(keys.clone(), len) {
            return;
        }
        let names = &self.names;
        let seen = self
            .seen
            .get_or_insert_with(|| names.iter().copied().collect());
        for k in keys {
            if seen.insert(k) {
                self.names.push(k);
            }
        }
    }
}

/// The default list node: each item's node; a table when they are all records with at least
/// one field between them (and at most [`MAX_COLUMNS`]), else a list.
pub(crate) fn of_nodes<'a, T: crate::ToolOutput>(items: &'a [T], cx: &Context<'_>) -> Node<'a> {
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
    let names: Vec<Text<'a>> = columns
        .names
        .iter()
        .map(|&n| Text::Owned(n.to_owned()))
        .collect();
    let mut t = Table::new(names);
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
            let kind = match field {
                Some(f) => {
                    limits[c] = limits[c].or(f.max_chars);
                    cell::write_node(&f.value, &inner, t.buf_mut())
                }
                None => Kind::Null,
            };
            t.end_cell(kind);
        }
    }
    t.set_limits(limits);
    t.set_total_rows(records.len());
    Node::Table(t)
}
