//! A table's column of lists of records (a pod's `spec.containers`, a tag's `images`) as
//! columns of their leaf paths (`spec.containers.image`, `images.architecture`): salience
//! ranks them and a budget picks them like any other column, so a nested list is never JSON
//! text cut inside a cell.
//!
//! A cell lists the leaf's values of the row's records in order, joined by `, ` as a list of
//! scalars is (`amd64, arm64`); a record without the leaf is `null` there when another has
//! it (`null, v8`), so the values stay in their records' places. A list nested deeper (a
//! container's `ports`) adds its records' values in order. A column expands only when every
//! row is built, every cell is empty or a list of records, and its records have at most
//! [`MAX_LEAVES`] leaf paths; else it stays JSON text.

mod cell_json;

use cell_json::{Json, Record};

use crate::doc::{Kind, LeafColumn, Mark, Table, Text};

/// The most leaf columns one list of records becomes.
const MAX_LEAVES: usize = 24;

/// Expand every column of lists of records of `t` (see the module docs).
pub(super) fn expand(t: &mut Table<'_>) {
    if t.rows() == 0 || t.rows() != t.total_rows() {
        return;
    }
    let with: Vec<_> = (0..t.columns().len())
        .filter(|&c| t.mark(c) == Mark::None)
        .filter_map(|c| leaf_columns(t, c).map(|leaves| (c, leaves)))
        .collect();
    t.replace_columns(with);
}

/// A leaf's path below the column: its keys, outermost first.
type Path<'v> = Vec<&'v str>;

/// The leaf columns of column `c`, when it holds lists of records (read from the cells'
/// JSON text: [`cell_json`]).
fn leaf_columns<'a>(t: &Table<'a>, c: usize) -> Option<Vec<LeafColumn<'a>>> {
    let mut lists: Vec<Option<Vec<Record<'_>>>> = Vec::with_capacity(t.rows());
    let mut any = false;
    for r in 0..t.rows() {
        match t.cell(r, c) {
            ("", Kind::Null) => lists.push(None),
            (text, Kind::Json) if text.starts_with('[') => {
                let Some(Json::List(items)) = Json::parse(text) else {
                    return None;
                };
                let mut records = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        Json::Record(m) => records.push(m),
                        _ => return None,
                    }
                }
                any |= !records.is_empty();
                lists.push(Some(records));
            }
            _ => return None,
        }
    }
    if !any {
        return None;
    }
    let mut paths: Vec<Path<'_>> = Vec::new();
    for record in lists.iter().flatten().flatten() {
        collect(record, &mut Vec::new(), &mut paths);
        if paths.len() > MAX_LEAVES {
            return None;
        }
    }
    // Records with no field at all: nothing to name a column by (the JSON text stays).
    if paths.is_empty() {
        return None;
    }
    let name = &t.columns()[c];
    let mut found = Vec::new();
    Some(
        paths
            .iter()
            .map(|p| {
                let cells = lists
                    .iter()
                    .map(|l| cell(l.as_deref(), p, &mut found))
                    .collect();
                LeafColumn {
                    name: Text::Owned(format!("{name}.{}", p.join("."))),
                    depth: u8::try_from(p.len()).unwrap_or(u8::MAX),
                    cells,
                }
            })
            .collect(),
    )
}

/// The leaf paths of `record` not yet in `paths`, in first-seen order (a record within is
/// walked; so are the records of a list of records).
fn collect<'v>(record: &'v Record<'_>, at: &mut Path<'v>, paths: &mut Vec<Path<'v>>) {
    for (k, v) in record {
        at.push(k);
        match v {
            Json::Record(m) if !m.is_empty() => collect(m, at, paths),
            Json::List(items) if is_records(items) => {
                for item in items {
                    if let Json::Record(m) = item {
                        collect(m, at, paths);
                    }
                }
            }
            _ => {
                if !paths.contains(at) {
                    paths.push(at.clone());
                }
            }
        }
        at.pop();
    }
}

/// A non-empty list whose items are all records.
fn is_records(items: &[Json<'_>]) -> bool {
    !items.is_empty() && items.iter().all(|i| matches!(i, Json::Record(_)))
}

/// The values at `path` below `v` (a list of records fans out), in order.
fn values<'v, 't>(v: &'v Json<'t>, path: &[&str], out: &mut Vec<&'v Json<'t>>) {
    let Some((first, rest)) = path.split_first() else {
        if *v != Json::Null {
            out.push(v);
        }
        return;
    };
    match v {
        Json::Record(m) => {
            if let Some(inner) = Json::get(m, first) {
                values(inner, rest, out);
            }
        }
        Json::List(items) if is_records(items) => {
            for item in items {
                values(item, path, out);
            }
        }
        _ => {}
    }
}

/// The values at `path` in `record` (its first key looked up, the rest by [`values`]), into
/// `out` (cleared first).
fn record_values<'v, 't>(record: &'v Record<'t>, path: &[&str], out: &mut Vec<&'v Json<'t>>) {
    out.clear();
    if let Some((first, rest)) = path.split_first()
        && let Some(v) = Json::get(record, first)
    {
        values(v, rest, out);
    }
}

/// The cell of one row for the leaf at `path`: its records' values in order (`found`: room
/// for one record's values, reused).
fn cell<'v, 't>(
    records: Option<&'v [Record<'t>]>,
    path: &[&str],
    found: &mut Vec<&'v Json<'t>>,
) -> (String, Kind) {
    let Some(records) = records else {
        return (String::new(), Kind::Null);
    };
    if let [one] = records {
        record_values(one, path, found);
        match found.as_slice() {
            [] => return (String::new(), Kind::Null),
            [v] => return scalar(v),
            _ => {}
        }
    }
    let mut text = String::new();
    let mut any = false;
    for (i, record) in records.iter().enumerate() {
        record_values(record, path, found);
        if i > 0 {
            text.push_str(", ");
        }
        if found.is_empty() {
            text.push_str("null");
        }
        any |= !found.is_empty();
        for (j, v) in found.iter().enumerate() {
            if j > 0 {
                text.push_str(", ");
            }
            push_scalar(v, &mut text);
        }
    }
    if any {
        (text, Kind::List)
    } else {
        (String::new(), Kind::Null)
    }
}

/// Whether a list holds only scalars (written `a, b` in a cell).
fn all_scalars(items: &[Json<'_>]) -> bool {
    items
        .iter()
        .all(|i| !matches!(i, Json::Record(_) | Json::List(_)))
}

/// One value's cell text and kind (a list of scalars joined by `, `, anything else compact
/// JSON), as a table cell writes it.
fn scalar(v: &Json<'_>) -> (String, Kind) {
    let kind = match v {
        Json::Null => Kind::Null,
        Json::Bool(_) => Kind::Bool,
        Json::Number(_) => Kind::Number,
        Json::Str(_) => Kind::Text,
        Json::List(items) if all_scalars(items) => Kind::List,
        _ => Kind::Json,
    };
    let mut text = String::new();
    push_scalar(v, &mut text);
    (text, kind)
}

/// [`scalar`]'s text, appended to `out`.
fn push_scalar(v: &Json<'_>, out: &mut String) {
    match v {
        Json::Null => {}
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(n),
        Json::Str(s) => out.push_str(s),
        Json::List(items) if all_scalars(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_scalar(item, out);
            }
        }
        other => other.write(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    /// [`values`] by its definition, on the values `serde_json` reads.
    fn values_of<'v>(v: &'v Value, path: &[&str], out: &mut Vec<&'v Value>) {
        let Some((first, rest)) = path.split_first() else {
            if !v.is_null() {
                out.push(v);
            }
            return;
        };
        match v {
            Value::Object(m) => {
                if let Some(inner) = m.get(*first) {
                    values_of(inner, rest, out);
                }
            }
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
                for item in items {
                    values_of(item, path, out);
                }
            }
            _ => {}
        }
    }

    /// [`cell`] by its definition: on the values `serde_json` reads, each record's values in
    /// a list of their own, each value's text in a `String` of its own.
    fn cell_by_records(records: Option<&[Map<String, Value>]>, path: &[&str]) -> (String, Kind) {
        let Some(records) = records else {
            return (String::new(), Kind::Null);
        };
        let per: Vec<Vec<&Value>> = records
            .iter()
            .map(|m| {
                let mut out = Vec::new();
                if let Some((first, rest)) = path.split_first()
                    && let Some(v) = m.get(*first)
                {
                    values_of(v, rest, &mut out);
                }
                out
            })
            .collect();
        match per.as_slice() {
            _ if per.iter().all(Vec::is_empty) => (String::new(), Kind::Null),
            [one] if one.len() == 1 => scalar_by_parts(one[0]),
            _ => {
                let texts: Vec<String> = per
                    .iter()
                    .map(|vals| match vals.as_slice() {
                        [] => "null".to_owned(),
                        vals => {
                            let t: Vec<String> =
                                vals.iter().map(|v| scalar_by_parts(v).0).collect();
                            t.join(", ")
                        }
                    })
                    .collect();
                (texts.join(", "), Kind::List)
            }
        }
    }

    fn scalar_by_parts(v: &Value) -> (String, Kind) {
        match v {
            Value::Null => (String::new(), Kind::Null),
            Value::Bool(b) => (b.to_string(), Kind::Bool),
            Value::Number(n) => (n.to_string(), Kind::Number),
            Value::String(s) => (s.clone(), Kind::Text),
            Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
                let texts: Vec<String> = items.iter().map(|i| scalar_by_parts(i).0).collect();
                (texts.join(", "), Kind::List)
            }
            other => (other.to_string(), Kind::Json),
        }
    }

    fn leaf_value() -> impl Strategy<Value = Value> {
        prop::sample::select(vec![
            Value::Null,
            json!(true),
            json!(false),
            json!(7),
            json!(-2.5),
            json!("x, y"),
            json!(""),
            json!([]),
            json!([1, null, "z"]),
            json!({"a": 1}),
            json!([{"a": 2}, {"b": null}]),
            json!([[1]]),
        ])
    }

    fn record() -> impl Strategy<Value = Map<String, Value>> {
        prop::collection::vec(
            (prop::sample::select(vec!["a", "b", "c"]), leaf_value()),
            0..4,
        )
        .prop_map(|kv| kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    }

    proptest! {
        #[test]
        fn a_cell_is_its_records_values_by_definition(
            records in prop::option::of(prop::collection::vec(record(), 0..4)),
            path in prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 1..3),
        ) {
            // Read back from the JSON text a cell holds, as the leaf columns read it.
            let text = records.as_ref().map(|r| {
                Value::from(r.iter().cloned().map(Value::Object).collect::<Vec<_>>()).to_string()
            });
            let read: Option<Vec<Record<'_>>> = text.as_deref().map(|t| match Json::parse(t) {
                Some(Json::List(items)) => items
                    .into_iter()
                    .map(|i| match i {
                        Json::Record(m) => m,
                        _ => unreachable!(),
                    })
                    .collect(),
                _ => unreachable!(),
            });
            let mut found = Vec::new();
            prop_assert_eq!(
                cell(read.as_deref(), &path, &mut found),
                cell_by_records(records.as_deref(), &path)
            );
        }

        #[test]
        fn expanding_every_column_at_once_is_expanding_them_one_by_one(
            rows in prop::collection::vec(
                prop::collection::vec(prop::option::of(prop::collection::vec(record(), 0..3)), 3),
                1..4,
            ),
        ) {
            let mut t = Table::new(vec!["x".into(), "y".into(), "z".into()]);
            for row in &rows {
                for cell in row {
                    match cell {
                        None => t.push_cell("", Kind::Null),
                        Some(records) => t.push_cell(&Value::from(records.iter().cloned().map(Value::Object).collect::<Vec<_>>()).to_string(), Kind::Json),
                    }
                }
            }
            let mut one_by_one = t.clone();
            for c in (0..3).rev() {
                if let Some(leaves) = leaf_columns(&one_by_one, c) {
                    one_by_one.replace_columns(vec![(c, leaves)]);
                }
            }
            expand(&mut t);
            prop_assert_eq!(t, one_by_one);
        }
    }

    fn table(cells: &[Value]) -> Table<'static> {
        let mut t = Table::new(vec!["name".into(), "images".into()]);
        for (i, c) in cells.iter().enumerate() {
            t.push_cell(&format!("t{i}"), Kind::Text);
            match c {
                Value::Null => t.push_cell("", Kind::Null),
                v => t.push_cell(&v.to_string(), Kind::Json),
            }
        }
        t
    }

    fn cells<'t>(t: &'t Table<'_>, c: usize) -> Vec<&'t str> {
        (0..t.rows()).map(|r| t.cell(r, c).0).collect()
    }

    #[test]
    fn a_list_of_records_becomes_columns_of_its_leaf_paths() {
        let mut t = table(&[
            json!([{"architecture": "amd64", "variant": null, "os": {"name": "linux"}},
                   {"architecture": "arm64", "variant": "v8", "os": {"name": "linux"}}]),
            Value::Null,
            json!([{"architecture": "amd64", "ports": [{"port": 80}, {"port": 443}]}]),
        ]);
        expand(&mut t);
        assert_eq!(
            t.columns(),
            [
                "name",
                "images.architecture",
                "images.variant",
                "images.os.name",
                "images.ports.port"
            ]
        );
        assert_eq!(cells(&t, 1), ["amd64, arm64", "", "amd64"]);
        assert_eq!(t.cell(2, 1).1, Kind::Text);
        assert_eq!(cells(&t, 2), ["null, v8", "", ""]);
        assert_eq!(cells(&t, 3), ["linux, linux", "", ""]);
        assert_eq!(cells(&t, 4), ["", "", "80, 443"]);
        assert_eq!(t.cell(2, 4).1, Kind::List);
    }

    #[test]
    fn other_cells_stay_json_text() {
        for other in [
            json!([1, {"a": 1}]),
            json!({"a": 1}),
            json!([[{"a": 1}]]),
            json!([{}]),
        ] {
            let mut t = table(std::slice::from_ref(&other));
            expand(&mut t);
            assert_eq!(t.columns(), ["name", "images"], "{other}");
        }
        let wide: Map<String, Value> = (0..=MAX_LEAVES)
            .map(|i| (format!("k{i}"), json!(i)))
            .collect();
        let mut t = table(&[json!([wide])]);
        expand(&mut t);
        assert_eq!(t.columns().len(), 2);
    }
}
