//! The shaped `Value` walk: a tool's [`Shape`](crate::Shape) applied to the result's one
//! record or to each row of its main table while the document is built.
//!
//! Only the result itself is shaped (depth 0 of the walk: the record, the rows of a list of
//! records, or the records of a mixed list); rule paths are relative to it. The input is only
//! read: each row is shaped on its own ([`Shape::fields`](crate::Shape::fields) builds
//! the row's kept fields, never the dropped ones), its cells are written into the table's
//! buffer, and the shaped row is freed unless it is one of the rows the caps keep. One pass
//! over every row gives the column union, the columns `drop_empty` removes (empty in every
//! row) and the objects [`flatten`](crate::Shape::flatten) splits into dotted columns; cells
//! are written for the kept rows only.

use std::borrow::Cow;
mod flat;

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::ToolOutput;
use super::table::{Builder, Columns, MAX_COLUMNS};
use crate::doc::{Mark, Node, Record, Table, Text};
use crate::input::context::{Context, ShapedColumn, Shaping};
use crate::shape::{Fields, Shaped, is_empty_value};
use flat::{Cols, Flat, leaves};

/// The most sub-keys an object column may have to be flattened into dotted columns; wider
/// objects stay one compact-JSON cell (see [`Shape::flatten`](crate::Shape::flatten)).
pub(crate) const MAX_FLAT_KEYS: usize = 12;

/// The one record of a result, shaped. The document borrows every field the rules left as
/// it was from the input; only what they changed is built anew (and owned by its node).
pub(super) fn record<'a>(
    map: &'a Map<String, Value>,
    cx: &Context<'_>,
    sh: Shaping<'_>,
) -> Node<'a> {
    let fields = {
        let mut stats = sh.stats.borrow_mut();
        sh.shape
            .fields(map, cx.secrets(), &mut stats, false, cx.left_out())
    };
    let mut node = Node::Record(fields_record(fields, cx));
    let marks = sh.shape.output_marks();
    if !marks.is_empty() {
        mark_node(&mut node, &marks, "");
    }
    node
}

/// The mark whose output path is `prefix.name` (`name` at the top), if any.
fn mark_at(marks: &[(String, Mark)], prefix: &str, name: &str) -> Mark {
    marks
        .iter()
        .find(|(path, _)| is_at(path, prefix, name))
        .map_or(Mark::None, |(_, m)| *m)
}

/// True when the dotted `path` is `prefix.name` (`name` when `prefix` is empty).
fn is_at(path: &str, prefix: &str, name: &str) -> bool {
    if prefix.is_empty() {
        return path == name;
    }
    path.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest == name)
}

/// True when a mark's output path is below `prefix` (`prefix.…`).
fn marks_below(marks: &[(String, Mark)], prefix: &str) -> bool {
    marks.iter().any(|(path, _)| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// Sets the shape's marks (by output path, `Shape::output_marks`) on the
/// fields of a shaped record and of the records and tables nested in it (arrays are
/// transparent, as in the shape's paths); `prefix` is the dotted path of `node`.
fn mark_node(node: &mut Node<'_>, marks: &[(String, Mark)], prefix: &str) {
    match node {
        Node::Record(r) => {
            for f in &mut r.fields {
                let m = mark_at(marks, prefix, &f.name);
                if m != Mark::None {
                    f.mark = m;
                }
                let path = if prefix.is_empty() {
                    f.name.to_string()
                } else {
                    format!("{prefix}.{}", f.name)
                };
                if marks_below(marks, &path) {
                    mark_node(&mut f.value, marks, &path);
                }
            }
        }
        Node::List(items) => {
            for item in items {
                mark_node(item, marks, prefix);
            }
        }
        Node::Table(t) => mark_columns(t, marks, prefix),
        _ => {}
    }
}

/// Sets the shape's marks on the columns of a table at `prefix` (a column's name is its
/// dotted path below the rows: a kept or flattened `user.login`).
fn mark_columns(t: &mut Table<'_>, marks: &[(String, Mark)], prefix: &str) {
    let shaped: Vec<Mark> = (0..t.columns().len())
        .map(|c| match mark_at(marks, prefix, &t.columns()[c]) {
            Mark::None => t.mark(c),
            by_shape => by_shape,
        })
        .collect();
    t.set_marks(shaped);
}

/// The record of shaped fields, each built one level below `cx`: from the input where no
/// rule changed it, else from what the rules made.
fn fields_record<'a>(fields: Fields<'a>, cx: &Context<'_>) -> Record<'a> {
    let inner = cx.nested();
    let fields = fields.into_iter().map(|(name, value)| {
        let node = match value {
            Shaped::Value(Cow::Borrowed(v)) => v.to_node(&inner),
            Shaped::Record(fields) if !inner.too_deep() => {
                Node::Record(fields_record(fields, &inner))
            }
            Shaped::Rows(rows) if !inner.too_deep() && deep(cx) => {
                Node::Table(deep_rows_table(rows, &inner, cx))
            }
            Shaped::Rows(rows) if !inner.too_deep() => match rows_table(rows, &inner) {
                Ok(t) => Node::Table(t),
                Err(rows) => Shaped::Rows(rows).into_value().to_node(&inner).into_owned(),
            },
            other => other.into_value().to_node(&inner).into_owned(),
        };
        (name, node)
    });
    super::table::record_of(fields, cx)
}

/// Whether the result's shape flattens deep (the agent preset's folding shape): then a list
/// of records in the result's record becomes a table of leaf paths too.
fn deep(cx: &Context<'_>) -> bool {
    cx.shaping()
        .is_some_and(|sh| sh.shape.flattens() && sh.shape.folds())
}

/// The table of shaped rows nested in the result's record, its object columns split into
/// their leaf paths (as a result's own table under the agent preset).
fn deep_rows_table<'t>(rows: Vec<Fields<'_>>, inner: &Context<'_>, cx: &Context<'_>) -> Table<'t> {
    let mut cols = Cols::default();
    for row in &rows {
        cols.add(field_entries(row), true, 0);
    }
    let drop_empty = cx.shaping().is_some_and(|sh| sh.shape.drops_empty());
    let mut out = Vec::new();
    leaves(
        &cols,
        rows.len(),
        drop_empty,
        Flat::Deep,
        None,
        &mut Vec::new(),
        &mut out,
    );
    let mut names: Vec<&str> = out.iter().map(|l| l.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        // A dotted name that is also a key: keep the objects as cells.
        out.clear();
        leaves(
            &cols,
            rows.len(),
            drop_empty,
            Flat::No,
            None,
            &mut Vec::new(),
            &mut out,
        );
    }
    let total = rows.len();
    let range = inner.rows(total, None);
    let kept = rows.into_iter().skip(range.start).take(range.len());
    let leaves = out.iter().map(|l| (l.name.as_str(), &l.keys[..]));
    write(&leaves, kept, total, inner)
}

/// The table of shaped rows nested in a record, as the same rows as `Value`s would build
/// it (columns in first-seen order, cells of the rows `cx` asks for) without that copy.
/// The rows come back when they are not a table: no key between them, or more than
/// [`MAX_COLUMNS`].
fn rows_table<'t, 'a>(
    rows: Vec<Fields<'a>>,
    cx: &Context<'_>,
) -> Result<Table<'t>, Vec<Fields<'a>>> {
    let mut columns = Columns::default();
    for row in &rows {
        columns.add_distinct(row.iter().map(|(k, _)| k.as_ref()), row.len());
    }
    if columns.names.is_empty() || columns.names.len() > MAX_COLUMNS {
        drop(columns);
        return Err(rows);
    }
    let names = &columns.names;
    let mut t = Builder::new(
        names.iter().map(|&k| Text::Owned(k.to_owned())).collect(),
        cx,
    );
    let range = cx.rows(rows.len(), None);
    for row in rows.iter().skip(range.start).take(range.len()) {
        let mut find = Find::new(row);
        for name in names {
            cell(&mut t, find.get(name), cx);
        }
    }
    Ok(t.finish(rows.len()))
}

/// A list at the top of a result, shaped: a table when every item is a record and the
/// shaped rows have a column between them, else a list whose records are shaped.
/// A typed list under a shape: each item through its JSON form, shaped like `Value` rows
/// (the envelope around the list is the caller's and stays).
pub(crate) fn typed_list<T>(
    items: &[T],
    to_json: impl Fn(&T) -> Value,
    cx: &Context<'_>,
    sh: Shaping<'_>,
) -> Node<'static> {
    let json: Vec<Value> = items.iter().map(to_json).collect();
    list(&json, cx, sh).into_owned()
}

/// A typed record under a shape, through its JSON form.
pub(crate) fn json_record(v: &Value, cx: &Context<'_>, sh: Shaping<'_>) -> Node<'static> {
    match v {
        Value::Object(map) => record(map, cx, sh).into_owned(),
        other => other.to_node(cx).into_owned(),
    }
}

pub(crate) fn list<'a>(items: &'a [Value], cx: &Context<'_>, sh: Shaping<'_>) -> Node<'a> {
    list_with(items, None, cx, sh)
}

/// [`list`], the table's columns decided over `items` and one more record that is not shown
/// (the late columns of a stream, [`Rows`](crate::Rows)).
pub(crate) fn list_with<'a>(
    items: &'a [Value],
    unshown: Option<&Map<String, Value>>,
    cx: &Context<'_>,
    sh: Shaping<'_>,
) -> Node<'a> {
    if !items.is_empty()
        && items.iter().all(Value::is_object)
        && let Some(t) = table(items, unshown, cx, sh)
    {
        return Node::Table(t);
    }
    let inner = cx.nested();
    Node::List(
        items
            .iter()
            .map(|v| match v {
                Value::Object(map) => record(map, &inner, sh),
                other => other.to_node(&inner),
            })
            .collect(),
    )
}

/// A value of a shaped row: the input's own, or what the rules made of an object or a
/// list of records (read where it is: the table copies only the cells it shows).
#[derive(Clone, Copy)]
enum Cell<'r, 'a> {
    Value(&'r Value),
    Shaped(&'r Shaped<'a>),
}

impl<'r, 'a> Cell<'r, 'a> {
    fn of(shaped: &'r Shaped<'a>) -> Self {
        match shaped {
            Shaped::Value(v) => Cell::Value(v.as_ref()),
            other => Cell::Shaped(other),
        }
    }

    fn is_empty(self) -> bool {
        match self {
            Cell::Value(v) => is_empty_value(v),
            Cell::Shaped(s) => s.is_empty(),
        }
    }

    /// The value under `key` when this is an object.
    fn get(self, key: &str) -> Option<Self> {
        match self {
            Cell::Value(Value::Object(m)) => m.get(key).map(Cell::Value),
            Cell::Shaped(Shaped::Record(fields)) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| Cell::of(v)),
            _ => None,
        }
    }
}

/// The next cell of `t`: a value of a shaped row, written where it is (an empty cell for
/// `None`).
fn cell(t: &mut Builder<'_>, v: Option<Cell<'_, '_>>, cx: &Context<'_>) {
    match v {
        Some(Cell::Shaped(s)) => t.cell(|out| super::cell::write_shaped(s, cx, out)),
        Some(Cell::Value(v)) => t.value(Some(v), cx),
        None => t.value(None, cx),
    }
}

/// The most sub-keys an object column may have to be deep-flattened.
const MAX_DEEP_KEYS: usize = 64;

/// The shaped table of `items` (all objects), or `None` when the shaped rows have no column
/// or more than [`MAX_COLUMNS`].
fn table<'a>(
    items: &[Value],
    unshown: Option<&Map<String, Value>>,
    cx: &Context<'_>,
    sh: Shaping<'_>,
) -> Option<Table<'a>> {
    let range = cx.rows(items.len(), None);
    let shape = sh.shape;
    if let Some(columns) = sh.columns.borrow().as_ref() {
        // A later build of the same table: shape only the rows asked for.
        let mut uncounted = crate::shape::ShapeStats::default();
        let rows = items[range.start.min(items.len())..range.end.min(items.len())]
            .iter()
            .filter_map(Value::as_object)
            .map(|row| shape.fields(row, cx.secrets(), &mut uncounted, true, None));
        let leaves = columns.iter().map(|c| (c.name.as_str(), &c.keys[..]));
        return Some(marked(write(&leaves, rows, items.len(), cx), sh));
    }
    let flatten = shape.flattens();
    let flat = match (flatten, shape.folds()) {
        (false, _) => Flat::No,
        (true, false) => Flat::Cheaper,
        (true, true) => Flat::Deep,
    };
    let mut cols = Cols::default();
    let mut kept: Vec<Fields<'_>> = Vec::with_capacity(range.len().min(items.len()));
    {
        let mut stats = sh.stats.borrow_mut();
        for (i, row) in items.iter().filter_map(Value::as_object).enumerate() {
            let shaped = shape.fields(row, cx.secrets(), &mut stats, true, cx.left_out());
            cols.add(field_entries(&shaped), flatten, 0);
            if range.contains(&i) {
                kept.push(shaped);
            }
        }
        if let Some(row) = unshown {
            let shaped = shape.fields(row, cx.secrets(), &mut stats, true, cx.left_out());
            cols.add(field_entries(&shaped), flatten, 0);
        }
    }
    let analysed = items.len() + usize::from(unshown.is_some());
    let mut out = Vec::new();
    let drop_empty = shape.drops_empty();
    let folded = cx.left_out().filter(|_| shape.folds());
    leaves(
        &cols,
        analysed,
        drop_empty,
        flat,
        folded,
        &mut Vec::new(),
        &mut out,
    );
    if flatten {
        let mut names: Vec<&str> = out.iter().map(|l| l.name.as_str()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            // A dotted name that is also a key: keep the objects as cells.
            out.clear();
            leaves(
                &cols,
                analysed,
                drop_empty,
                Flat::No,
                folded,
                &mut Vec::new(),
                &mut out,
            );
        }
    }
    if out.is_empty() || out.len() > MAX_COLUMNS {
        return None;
    }
    *sh.columns.borrow_mut() = Some(
        out.iter()
            .map(|l| ShapedColumn {
                name: l.name.clone(),
                keys: l.keys.iter().map(|k| (*k).to_owned()).collect(),
            })
            .collect(),
    );
    let leaves = out.iter().map(|l| (l.name.as_str(), &l.keys[..]));
    Some(marked(
        write(&leaves, kept.into_iter(), items.len(), cx),
        sh,
    ))
}

/// The shaped table with the shape's marks on its columns.
fn marked<'a>(mut t: Table<'a>, sh: Shaping<'_>) -> Table<'a> {
    let marks = sh.shape.output_marks();
    if !marks.is_empty() {
        mark_columns(&mut t, &marks, "");
    }
    t
}

/// The table of shaped `rows` with these columns (name, keys to the value).
fn write<'a, 'l, 'r, K: AsRef<str> + 'l>(
    leaves: &(impl Iterator<Item = (&'l str, &'l [K])> + Clone),
    rows: impl Iterator<Item = Fields<'r>>,
    total: usize,
    cx: &Context<'_>,
) -> Table<'a> {
    let mut t = Builder::new(
        leaves
            .clone()
            .map(|(n, _)| Text::Owned(n.to_owned()))
            .collect(),
        cx,
    );
    for row in rows {
        let mut find = Find::new(&row);
        for (_, keys) in leaves.clone() {
            let mut found = find.get(keys[0].as_ref());
            for key in &keys[1..] {
                found = found.and_then(|v| v.get(key.as_ref()));
            }
            cell(&mut t, found, cx);
        }
    }
    t.finish(total)
}

/// The `(key, value)` pairs of an object.
fn entries<'r>(map: &'r Map<String, Value>) -> impl Iterator<Item = (&'r str, Cell<'r, 'r>)> {
    map.iter().map(|(k, v)| (k.as_str(), Cell::Value(v)))
}

/// The `(name, value)` pairs of shaped fields.
fn field_entries<'r, 'a>(fields: &'r Fields<'a>) -> impl Iterator<Item = (&'r str, Cell<'r, 'a>)> {
    fields.iter().map(|(k, v)| (k.as_ref(), Cell::of(v)))
}

/// Finds a shaped row's values by name. The columns are asked for in nearly the row's own
/// order, so each search starts after the last field found; a row of many fields is indexed
/// instead, so no row costs more than a pass over its fields per column asked for few.
struct Find<'r, 'a> {
    row: &'r Fields<'a>,
    next: usize,
    index: Option<HashMap<&'r str, usize>>,
}

impl<'r, 'a> Find<'r, 'a> {
    /// Rows with more fields than this are indexed.
    const FEW: usize = 16;

    fn new(row: &'r Fields<'a>) -> Self {
        let index = (row.len() > Self::FEW).then(|| {
            row.iter()
                .enumerate()
                .map(|(i, (k, _))| (k.as_ref(), i))
                .collect()
        });
        Find {
            row,
            next: 0,
            index,
        }
    }

    fn get(&mut self, name: &str) -> Option<Cell<'r, 'a>> {
        let at = match &self.index {
            Some(index) => index.get(name).copied(),
            None => {
                let n = self.row.len();
                (0..n)
                    .map(|i| (self.next + i) % n)
                    .find(|&i| self.row[i].0 == name)
            }
        }?;
        self.next = at + 1;
        Some(Cell::of(&self.row[at].1))
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use serde_json::{Value, json};

    use crate::doc::{Mark, Node};
    use crate::input::ToolOutput;
    use crate::input::context::{Context, Shaping};
    use crate::shape::{Shape, ShapeStats};

    /// The names and marks of the fields of a record, or of the columns of a table, that
    /// `value` builds under `shape`.
    fn marks(shape: &Shape, value: &impl ToolOutput) -> Vec<(String, Mark)> {
        let stats = RefCell::new(ShapeStats::default());
        let columns = RefCell::new(None);
        let sh = Shaping {
            shape,
            stats: &stats,
            columns: &columns,
        };
        let cx = Context::new().with_shaping(Some(sh));
        match value.to_node(&cx) {
            Node::Record(r) => r
                .fields
                .iter()
                .map(|f| (f.name.to_string(), f.mark))
                .collect(),
            Node::Table(t) => (0..t.columns().len())
                .map(|c| (t.columns()[c].to_string(), t.mark(c)))
                .collect(),
            other => panic!("not a record or a table: {other:?}"),
        }
    }

    fn named(marks: &[(&str, Mark)]) -> Vec<(String, Mark)> {
        marks.iter().map(|(n, m)| ((*n).to_owned(), *m)).collect()
    }

    #[test]
    fn an_essential_path_reaches_the_record_field() {
        let shape = Shape::new().essential(["title"]).minor(["etag"]);
        let v = json!({"id": 1, "title": "Crash", "etag": "W/1"});
        assert_eq!(
            marks(&shape, &v),
            named(&[
                ("id", Mark::None),
                ("title", Mark::Essential),
                ("etag", Mark::Minor)
            ])
        );
    }

    #[test]
    fn essential_and_minor_paths_reach_the_table_columns() {
        let shape = Shape::new().essential(["title"]).minor(["etag"]);
        let v = json!([{"id": 1, "title": "a", "etag": "W/1"}, {"id": 2, "title": "b"}]);
        assert_eq!(
            marks(&shape, &v),
            named(&[
                ("id", Mark::None),
                ("title", Mark::Essential),
                ("etag", Mark::Minor)
            ])
        );
    }

    #[test]
    fn a_mark_follows_its_field_through_keep_and_rename() {
        let shape = Shape::new()
            .keep(["number", "user.login", "labels.name"])
            .rename("user.login", "author")
            .essential(["user.login"])
            .minor(["labels.name"]);
        let v = json!([{"number": 1, "user": {"login": "ada"}, "labels": [{"name": "bug"}]}]);
        let want = named(&[
            ("number", Mark::None),
            ("author", Mark::Essential),
            ("labels.name", Mark::Minor),
        ]);
        assert_eq!(marks(&shape, &v), want);
        assert_eq!(marks(&shape, &v[0]), want);
        // Renamed in place, at the top.
        let shape = Shape::new().rename("id", "order_id").essential(["id"]);
        assert_eq!(
            marks(&shape, &json!([{"id": 1, "x": 2}])),
            named(&[("order_id", Mark::Essential), ("x", Mark::None)])
        );
    }

    #[test]
    fn a_dotted_path_marks_a_flattened_column_and_a_nested_field() {
        let shape = Shape::new().flatten().essential(["user.login"]);
        let rows = json!([{"id": 1, "user": {"login": "ada", "type": "User"}}]);
        assert_eq!(
            marks(&shape, &rows),
            named(&[
                ("id", Mark::None),
                ("user.login", Mark::Essential),
                ("user.type", Mark::None)
            ])
        );
        // In a record the object stays nested: its field carries the mark.
        let stats = RefCell::new(ShapeStats::default());
        let columns = RefCell::new(None);
        let sh = Shaping {
            shape: &shape,
            stats: &stats,
            columns: &columns,
        };
        let cx = Context::new().with_shaping(Some(sh));
        let record: Value = rows[0].clone();
        let Node::Record(r) = record.to_node(&cx) else {
            panic!("a record")
        };
        assert_eq!(r.fields[1].mark, Mark::None);
        let Node::Record(user) = &r.fields[1].value else {
            panic!("a nested record")
        };
        assert_eq!(
            user.fields.iter().map(|f| f.mark).collect::<Vec<_>>(),
            [Mark::Essential, Mark::None]
        );
    }

    #[test]
    fn a_shape_of_marks_only_is_applied_and_changes_no_value() {
        let shape = Shape::new().minor(["etag"]);
        assert!(!shape.is_empty());
        let v = json!([{"id": 1, "etag": "W/1"}]);
        assert_eq!(shape.apply(&v), v);
        assert_eq!(
            marks(&shape, &v),
            named(&[("id", Mark::None), ("etag", Mark::Minor)])
        );
    }

    #[cfg(feature = "derive")]
    #[derive(crate::ToolOutput, serde::Serialize)]
    #[tool_output(crate = "crate")]
    struct Issue {
        #[tool_output(key)]
        number: u32,
        #[tool_output(minor)]
        title: &'static str,
        etag: &'static str,
    }

    #[cfg(feature = "derive")]
    #[test]
    fn a_shaped_typed_result_keeps_its_own_marks_where_the_shape_gives_none() {
        let issue = || Issue {
            number: 1,
            title: "Crash",
            etag: "W/1",
        };
        let shape = Shape::new()
            .essential(["title"])
            .minor(["etag"])
            .rename("number", "id");
        // `number` is renamed: a mark of the type's goes with the type's name.
        let want = named(&[
            ("id", Mark::None),
            ("title", Mark::Essential),
            ("etag", Mark::Minor),
        ]);
        assert_eq!(marks(&shape, &issue()), want);
        assert_eq!(marks(&shape, &vec![issue(), issue()]), want);
        let shape = Shape::new().minor(["etag"]);
        let want = named(&[
            ("number", Mark::Key),
            ("title", Mark::Minor),
            ("etag", Mark::Minor),
        ]);
        assert_eq!(marks(&shape, &issue()), want);
        assert_eq!(marks(&shape, &vec![issue(), issue()]), want);
    }

    #[test]
    fn a_path_left_out_by_keep_marks_nothing() {
        let shape = Shape::new().keep(["id"]).essential(["title"]);
        assert_eq!(shape.output_marks(), []);
        assert_eq!(
            marks(&shape, &json!({"id": 1, "title": "x"})),
            named(&[("id", Mark::None)])
        );
    }
}
