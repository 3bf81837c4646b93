//! What the first text of a record did not show outside the one table it resumes in: the
//! values that shortening to `C` characters cut (`>C`), the parts a budget cut to their first
//! `N` rows, items or lines (`*N`), and the fields it left out (`+a,b.c`; `-`: every field).
//! The fetch serves it after that table's rows, one entry per field, so following the Next
//! lines reaches the whole record and serves none of the table's rows twice.
//!
//! Cursors: `/items/20;20>34~>34+owner` (the table's rows from 20, then this rest),
//! `/items/~v3;>34+owner` (this rest from its fourth entry), `/items/~v3:400;>34+owner` (that
//! entry, a long text, from its character 400), `/~v0;>34` (a record that cut no table).

use serde_json::{Map, Value};

use super::parts::long_value;
use crate::text::resume::{Fields, RecordRest};

/// A text of the rest longer than this (in characters) is served alone, in pieces that fit
/// the budget, so no page is over it; shorter entries share pages as rows.
pub(super) const ALONE_CHARS: usize = 200;

/// Deeper than this, an object is one field (served whole).
const MAX_DEPTH: usize = 64;

impl RecordRest {
    /// The entries of `record` (with the table at the JSON pointer `skip` left out) that the
    /// first text did not show whole, in document order, each naming its field (dotted):
    /// a field left out, a text or list that shortening cut, or a part cut to its first rows,
    /// items or lines: `{"field", "value"}`; of a table's row, the cells left out (a name
    /// names a column by itself or after the table's path) and those shortening cut, or all
    /// of them for a row past the first `N` rows a budget kept:
    /// `{"field", "row", COLUMN: VALUE...}` (the row from 1; `{"field", "row", "column",
    /// "value"}` per cell when a column is named `field` or `row`). Names that name nothing
    /// of the record: every field.
    pub fn entries(&self, record: &Value, skip: &str) -> Vec<Value> {
        let mut leaves = Vec::new();
        if let Value::Object(m) = record {
            walk(
                m,
                skip,
                &mut String::new(),
                &mut String::new(),
                0,
                &mut leaves,
            );
        }
        let names = match &self.fields {
            Some(Fields::Only(names)) if names.iter().all(|n| names_any(n, &leaves)) => {
                Some(names.as_slice())
            }
            _ => None,
        };
        let every = self.fields.is_some() && names.is_none();
        let named =
            |path: &str| every || names.is_some_and(|ns| ns.iter().any(|n| related(n, path)));
        let mut out = Vec::new();
        for (path, v) in leaves {
            let rows = match v {
                Value::Array(rows) if rows.iter().any(Value::is_object) && !self.cut_whole(v) => {
                    rows
                }
                _ => {
                    if named(&path) || self.cut_whole(v) {
                        out.push(serde_json::json!({"field": path, "value": v}));
                    }
                    continue;
                }
            };
            for (i, row) in rows.iter().enumerate() {
                let Value::Object(row) = row else { continue };
                // A row past the first `N` a budget kept was not shown: all of it.
                let unseen = self.nested.is_some_and(|n| i >= n);
                let cells: Vec<(&String, &Value)> = row
                    .iter()
                    .filter(|(column, value)| {
                        unseen
                            || named(&format!("{path}.{column}"))
                            || names.is_some_and(|ns| ns.iter().any(|n| related(n, column)))
                            || self.over.is_some_and(|c| long_value(value, c))
                    })
                    .collect();
                if cells.iter().any(|(c, _)| *c == "field" || *c == "row") {
                    for (column, value) in cells {
                        out.push(serde_json::json!({
                            "field": path, "row": i + 1, "column": column, "value": value,
                        }));
                    }
                } else if !cells.is_empty() {
                    let mut entry = Map::with_capacity(cells.len() + 2);
                    entry.insert("field".to_owned(), Value::from(path.as_str()));
                    entry.insert("row".to_owned(), Value::from(i + 1));
                    entry.extend(cells.into_iter().map(|(c, v)| (c.clone(), v.clone())));
                    out.push(Value::Object(entry));
                }
            }
        }
        out
    }

    /// Whether the first text showed `v` (a leaf) cut as a whole: a text shortened, a list of
    /// values (not of records) shortened, or a list of values or a text cut to its first items
    /// or lines (a table cut to its first rows is served row by row).
    fn cut_whole(&self, v: &Value) -> bool {
        let table = matches!(v, Value::Array(rows) if rows.iter().any(Value::is_object));
        let shortened = self.over.is_some_and(|c| !table && long_value(v, c));
        let nested = self.nested.is_some_and(|n| match v {
            Value::Array(items) => !table && items.len() > n,
            Value::String(s) => crate::text::lines(s).count() > n,
            _ => false,
        });
        shortened || nested
    }
}

/// Whether the name `name` names something of these leaves: a leaf (see [`related`]), or a
/// column of a table among them, by itself or after the table's path.
fn names_any(name: &str, leaves: &[(String, &Value)]) -> bool {
    leaves.iter().any(|(path, v)| {
        related(name, path)
            || v.as_array().is_some_and(|rows| {
                rows.iter().filter_map(Value::as_object).any(|row| {
                    row.keys()
                        .any(|c| related(name, c) || related(name, &format!("{path}.{c}")))
                })
            })
    })
}

/// Whether the name `name` (a dotted path) is the leaf `path`, an object above it, or a value
/// inside it.
fn related(name: &str, path: &str) -> bool {
    let under = |a: &str, b: &str| a.strip_prefix(b).is_some_and(|r| r.starts_with('.'));
    name == path || under(path, name) || under(name, path)
}

/// The leaves of `m` (values that are not non-empty objects), with their dotted paths, but
/// the value at the JSON pointer `skip`.
fn walk<'v>(
    m: &'v Map<String, Value>,
    skip: &str,
    pointer: &mut String,
    path: &mut String,
    depth: usize,
    out: &mut Vec<(String, &'v Value)>,
) {
    for (k, v) in m {
        let (plen, len) = (pointer.len(), path.len());
        crate::text::push_pointer_segment(pointer, k);
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(k);
        match v {
            _ if *pointer == skip => {}
            Value::Object(inner) if !inner.is_empty() && depth < MAX_DEPTH => {
                walk(inner, skip, pointer, path, depth + 1, out);
            }
            v => out.push((path.clone(), v)),
        }
        pointer.truncate(plen);
        path.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_entries_are_what_the_text_did_not_show_but_the_table() {
        let long = "x".repeat(40);
        let record = json!({
            "id": 7,
            "title": long,
            "owner": {"login": "ada", "bio": "short"},
            "items": [{"id": 1, "body": long}],
            "failures": [{"id": 9, "message": long}, {"id": 10, "message": "ok"}],
            "tags": ["a", "b", "c"],
        });
        let rest = RecordRest::parse(">10*2+owner.login,id").unwrap();
        assert_eq!(
            rest.entries(&record, "/items"),
            [
                json!({"field": "id", "value": 7}),
                json!({"field": "title", "value": long}),
                json!({"field": "owner.login", "value": "ada"}),
                json!({"field": "failures", "row": 1, "id": 9, "message": long}),
                json!({"field": "failures", "row": 2, "id": 10}),
                json!({"field": "tags", "value": ["a", "b", "c"]}),
            ]
        );
        // A column named `row`: a cell per entry.
        let odd = json!({"list": [{"row": 3, "b": long}]});
        assert_eq!(
            RecordRest::parse("+list.row").unwrap().entries(&odd, ""),
            [json!({"field": "list", "row": 1, "column": "row", "value": 3})]
        );
        // A name that names nothing: every field (but the table), a table's rows whole.
        let unknown = RecordRest::parse("+nope").unwrap();
        let every = unknown.entries(&record, "/items");
        assert_eq!(every.len(), 7);
        assert_eq!(
            every[5],
            json!({"field": "failures", "row": 2, "id": 10, "message": "ok"})
        );
    }
}
