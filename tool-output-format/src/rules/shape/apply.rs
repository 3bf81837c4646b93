//! One application of a [`Shape`] to one record: the walk that builds its shaped fields.
//!
//! The walk borrows what the rules leave as it was. A field whose name and value no rule
//! changes (no drop below it, no rename, no conversion, no secret) is the input's own
//! name and value; only what a rule changed is new. So a record the rules barely touch
//! costs a list of borrowed fields, not a copy of every kept value, and the renderer builds
//! its document from the input itself.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Convert, MAX_SHAPE_DEPTH, Shape, ShapeStats, holds_no_data, is_empty_value, is_table};
use crate::rules::detail::LeftOut;
use crate::rules::redact::{REDACTED, Secrets};
use crate::text::name_index::NameIndex;

/// A shaped record: its fields in order. A name or value the rules left as it was is
/// borrowed from the input; only what they changed is owned.
pub(crate) type Fields<'a> = Vec<(Cow<'a, str>, Shaped<'a>)>;

/// The shaped value of a field.
pub(crate) enum Shaped<'a> {
    /// The input's own value (no rule changed it), or a new one.
    Value(Cow<'a, Value>),
    /// An object a rule changed, as its shaped fields: a record's document, or a table's
    /// cells and dotted columns, are built from them without a copy.
    Record(Fields<'a>),
    /// A list of records a rule changed (with `drop_empty`): its rows as shaped fields (a
    /// nested table is built from them without a copy, like a [`Shaped::Record`]).
    Rows(Vec<Fields<'a>>),
}

impl<'a> Shaped<'a> {
    /// The value, as a `Value` of its own.
    pub fn into_value(self) -> Value {
        match self {
            Shaped::Value(v) => v.into_owned(),
            Shaped::Record(fields) => Value::Object(into_map(fields)),
            Shaped::Rows(rows) => rows_value(rows),
        }
    }

    /// The value as a `Value`: borrowed, or built from a record's fields.
    pub fn value(&self) -> Cow<'_, Value> {
        match self {
            Shaped::Value(v) => Cow::Borrowed(v.as_ref()),
            Shaped::Record(fields) => Cow::Owned(Value::Object(map_of(fields))),
            Shaped::Rows(rows) => Cow::Owned(rows_of(rows)),
        }
    }

    /// True for null, `""`, `[]` and `{}`.
    pub fn is_empty(&self) -> bool {
        match self {
            Shaped::Value(v) => is_empty_value(v),
            Shaped::Record(fields) => fields.is_empty(),
            Shaped::Rows(rows) => rows.is_empty(),
        }
    }
}

/// A copy of shaped fields as a map.
pub(crate) fn map_of(fields: &Fields<'_>) -> Map<String, Value> {
    fields
        .iter()
        .map(|(k, v)| (k.to_string(), v.value().into_owned()))
        .collect()
}

/// A copy of shaped rows as an array of maps.
pub(crate) fn rows_of(rows: &[Fields<'_>]) -> Value {
    Value::Array(rows.iter().map(|row| Value::Object(map_of(row))).collect())
}

/// Shaped rows as an array of maps of their own.
fn rows_value(rows: Vec<Fields<'_>>) -> Value {
    Value::Array(
        rows.into_iter()
            .map(|row| Value::Object(into_map(row)))
            .collect(),
    )
}

/// The fields as a map of their own (the public [`Shape::apply`] results).
pub(crate) fn into_map(fields: Fields<'_>) -> Map<String, Value> {
    fields
        .into_iter()
        .map(|(k, v)| (k.into_owned(), v.into_value()))
        .collect()
}

/// The columns of shaped rows that are absent or empty (null, `""`, `[]`, `{}`) in every
/// row, in first-seen order.
pub(crate) fn empty_columns<'r, 'a: 'r>(
    rows: impl IntoIterator<Item = &'r Fields<'a>>,
) -> Vec<String> {
    let mut seen: Vec<(&str, bool)> = Vec::new();
    for row in rows {
        for (key, value) in row {
            let filled = !value.is_empty();
            match seen.iter_mut().find(|(k, _)| *k == key.as_ref()) {
                Some((_, any)) => *any |= filled,
                None => seen.push((key, filled)),
            }
        }
    }
    seen.into_iter()
        .filter(|(_, any)| !any)
        .map(|(k, _)| k.to_owned())
        .collect()
}

/// Removes the columns of shaped rows that are absent or empty in every row (see
/// [`empty_columns`]), and returns their names.
pub(crate) fn drop_empty_columns(rows: &mut [Fields<'_>]) -> Vec<String> {
    let empty = empty_columns(rows.iter());
    if !empty.is_empty() {
        for row in rows {
            row.retain(|(k, _)| !empty.iter().any(|e| e == k));
        }
    }
    empty
}

/// Whether a field of `out` at one of the places `renamed` was given the name `key` by a
/// rename.
fn given_by_rename(out: &Fields<'_>, renamed: &[usize], key: &str) -> bool {
    renamed.iter().any(|&i| out[i].0 == key)
}

/// The name of a shaped field.
fn field_name<'f>(field: &'f (Cow<'_, str>, Shaped<'_>)) -> &'f [u8] {
    field.0.as_bytes()
}

/// True when shaping left an object of `len` fields as it was: every field kept, under its
/// own name, with its own value.
fn unchanged(fields: &Fields<'_>, len: usize) -> bool {
    fields.len() == len
        && fields
            .iter()
            .all(|(k, v)| matches!((k, v), (Cow::Borrowed(_), Shaped::Value(Cow::Borrowed(_)))))
}

/// One application of a shape: the rules, the counters, and whether this is a table row.
pub(super) struct Apply<'s> {
    pub shape: &'s Shape,
    pub stats: &'s mut ShapeStats,
    /// Input keys whose values are replaced by [`REDACTED`] before any rule reads them.
    pub secrets: &'s Secrets,
    pub row: bool,
    /// Containers entered (objects and arrays), bounded by [`MAX_SHAPE_DEPTH`].
    pub depth: usize,
    /// Where a folding shape names what it drops.
    pub names: Option<&'s LeftOut>,
    /// The dotted path of an empty field it names (one buffer for every name).
    pub path: String,
}

impl<'s> Apply<'s> {
    pub fn record<'a>(&mut self, record: &'a Map<String, Value>) -> Fields<'a> {
        let mut at = Vec::new();
        if self.shape.keep.is_empty() {
            return self.object(record, &mut at, self.row);
        }
        let mut out = Fields::new();
        for path in &self.shape.keep {
            let Some(value) = self.select(record, path.keys(), &mut at) else {
                continue;
            };
            if self.shape.drop_empty && !self.row && is_empty_value(&value) {
                continue;
            }
            let name = self.shape.output_name(path);
            if out.iter().any(|(k, _)| *k == name) {
                // Only a shape that failed `check` gets here.
                self.stats.name_collisions += 1;
                continue;
            }
            out.push((Cow::Owned(name), Shaped::Value(value)));
        }
        out
    }

    /// The value at `keys` below `object`, shaped; arrays are transparent.
    fn select<'a>(
        &mut self,
        object: &'a Map<String, Value>,
        keys: &[String],
        at: &mut Vec<&'a str>,
    ) -> Option<Cow<'a, Value>> {
        let (first, rest) = keys.split_first()?;
        let (key, child) = object.get_key_value(first)?;
        if self.secrets.matches(key) {
            return Some(Cow::Owned(Value::String(REDACTED.to_owned())));
        }
        at.push(key);
        let found = if rest.is_empty() {
            Some(self.field(child, at))
        } else {
            self.select_in(child, rest, at)
        };
        at.pop();
        found
    }

    fn select_in<'a>(
        &mut self,
        value: &'a Value,
        keys: &[String],
        at: &mut Vec<&'a str>,
    ) -> Option<Cow<'a, Value>> {
        match value {
            Value::Object(object) => self.select(object, keys, at),
            Value::Array(items) => {
                if self.depth >= MAX_SHAPE_DEPTH {
                    return Some(Cow::Owned(self.too_deep()));
                }
                self.depth += 1;
                let items = items
                    .iter()
                    .filter_map(|item| self.select_in(item, keys, at))
                    .map(Cow::into_owned)
                    .collect();
                self.depth -= 1;
                Some(Cow::Owned(Value::Array(items)))
            }
            _ => None,
        }
    }

    /// The fields of `object` (at input path `at`) with every rule applied. A table `row`
    /// keeps its own empty fields (its table drops columns empty in every row).
    fn object<'a>(
        &mut self,
        object: &'a Map<String, Value>,
        at: &mut Vec<&'a str>,
        row: bool,
    ) -> Fields<'a> {
        let mut out = Fields::with_capacity(object.len());
        // The keys of one object are distinct, so two fields can share a name only through
        // a rename: the names given are looked up only when the shape renames (searched in
        // the fields while there are at most 16), and a field that keeps its key only among
        // the names earlier fields were renamed to (`renamed`: their places in `out`).
        let renames = !self.shape.rename.is_empty();
        let mut given = NameIndex::default();
        let mut renamed: Vec<usize> = Vec::new();
        for (key, input) in object {
            at.push(key);
            if self.shape.drops_value(at, input) {
                if let Some(names) = self.names {
                    names.add_machine(key);
                    if self.row && at.len() == 1 {
                        names.add_machine_cell(input);
                    }
                }
            } else {
                let secret = self.secrets.matches(key);
                // A field that holds no data (an object included whose every field holds
                // none) is named as itself, not by its fields.
                let no_data = !row && self.shape.drop_empty && !secret && holds_no_data(input);
                let value = if no_data {
                    Shaped::Value(Cow::Borrowed(input))
                } else if secret {
                    Shaped::Value(Cow::Owned(Value::String(REDACTED.to_owned())))
                } else {
                    self.member(input, at)
                };
                let empty = no_data || (!row && self.shape.drop_empty && value.is_empty());
                // A container emptied by the rules is not named: what it held is.
                if empty
                    && (no_data || is_empty_value(input))
                    && let Some(names) = self.names
                {
                    self.path.clear();
                    for (i, key) in at.iter().enumerate() {
                        if i > 0 {
                            self.path.push('.');
                        }
                        self.path.push_str(key);
                    }
                    names.add_empty(&self.path);
                }
                if !empty && !renames {
                    out.push((Cow::Borrowed(key.as_str()), value));
                } else if !empty {
                    match self.shape.renamed(at) {
                        // A field that keeps its own name has it, before or after the rename.
                        Some(new)
                            if given.contains(&out, field_name, 16, new.as_bytes())
                                || self.keeps_own_name(object, new, at) =>
                        {
                            self.stats.name_collisions += 1;
                            if given_by_rename(&out, &renamed, key) {
                                self.stats.name_collisions += 1;
                            } else {
                                out.push((Cow::Borrowed(key.as_str()), value));
                            }
                        }
                        // A name no field has yet (looked up just above).
                        Some(new) => {
                            renamed.push(out.len());
                            out.push((Cow::Owned(new.to_owned()), value));
                        }
                        None if given_by_rename(&out, &renamed, key) => {
                            self.stats.name_collisions += 1;
                        }
                        None => out.push((Cow::Borrowed(key.as_str()), value)),
                    }
                }
            }
            at.pop();
        }
        out
    }

    /// True when `object` (whose field at `at` is being renamed to `name`) has a field called
    /// `name` that is neither dropped nor renamed, so it will keep that name.
    fn keeps_own_name<'a>(
        &self,
        object: &'a Map<String, Value>,
        name: &str,
        at: &mut Vec<&'a str>,
    ) -> bool {
        let Some((sibling, _)) = object.get_key_value(name) else {
            return false;
        };
        let Some(own) = at.pop() else { return false };
        at.push(sibling);
        let keeps = !self.shape.drops(at) && self.shape.renamed(at).is_none();
        at.pop();
        at.push(own);
        keeps
    }

    /// The converter of the field at `at`, if any.
    fn converter(&self, at: &[&str]) -> Option<&'s Convert> {
        let shape: &'s Shape = self.shape;
        shape.convert.iter().find(|(p, _)| p.is(at)).map(|(_, c)| c)
    }

    /// The shaped value of an object's field at `at`: an object a rule changed stays its
    /// fields, and a list of records its rows; else as [`Apply::field`].
    fn member<'a>(&mut self, value: &'a Value, at: &mut Vec<&'a str>) -> Shaped<'a> {
        match value {
            Value::Array(items)
                if self.shape.drop_empty
                    && is_table(items)
                    && self.depth < MAX_SHAPE_DEPTH
                    && self.converter(at).is_none() =>
            {
                self.depth += 1;
                let rows = self.table_rows(items, at);
                self.depth -= 1;
                rows.map_or(Shaped::Value(Cow::Borrowed(value)), Shaped::Rows)
            }
            Value::Object(object)
                if self.depth < MAX_SHAPE_DEPTH && self.converter(at).is_none() =>
            {
                self.depth += 1;
                let fields = self.object(object, at, false);
                self.depth -= 1;
                if unchanged(&fields, object.len()) {
                    Shaped::Value(Cow::Borrowed(value))
                } else {
                    Shaped::Record(fields)
                }
            }
            _ => Shaped::Value(self.field(value, at)),
        }
    }

    /// The shaped value of the field at `at`: the input's own when no rule changed it.
    fn field<'a>(&mut self, value: &'a Value, at: &mut Vec<&'a str>) -> Cow<'a, Value> {
        if let Some(converter) = self.converter(at) {
            return Cow::Owned(self.converted(value, converter, at));
        }
        if !(value.is_object() || value.is_array()) {
            return Cow::Borrowed(value);
        }
        if self.depth >= MAX_SHAPE_DEPTH {
            return Cow::Owned(self.too_deep());
        }
        self.depth += 1;
        let shaped = match value {
            Value::Object(object) => {
                let fields = self.object(object, at, false);
                if unchanged(&fields, object.len()) {
                    Cow::Borrowed(value)
                } else {
                    Cow::Owned(Value::Object(into_map(fields)))
                }
            }
            Value::Array(items) if self.shape.drop_empty && is_table(items) => {
                self.table(value, items, at)
            }
            Value::Array(items) => {
                let shaped: Vec<Cow<'a, Value>> =
                    items.iter().map(|item| self.field(item, at)).collect();
                if shaped.iter().all(|v| matches!(v, Cow::Borrowed(_))) {
                    Cow::Borrowed(value)
                } else {
                    Cow::Owned(Value::Array(
                        shaped.into_iter().map(Cow::into_owned).collect(),
                    ))
                }
            }
            _ => Cow::Borrowed(value),
        };
        self.depth -= 1;
        shaped
    }

    /// A list of records nested in a record renders as a table too, so with `drop_empty` it
    /// loses the columns empty in every row, not each row's own empty cells.
    fn table<'a>(
        &mut self,
        value: &'a Value,
        items: &'a [Value],
        at: &mut Vec<&'a str>,
    ) -> Cow<'a, Value> {
        match self.table_rows(items, at) {
            Some(rows) => Cow::Owned(rows_value(rows)),
            None => Cow::Borrowed(value),
        }
    }

    /// The shaped rows of [`Apply::table`], `None` when the rules changed none of them.
    fn table_rows<'a>(
        &mut self,
        items: &'a [Value],
        at: &mut Vec<&'a str>,
    ) -> Option<Vec<Fields<'a>>> {
        let objects = || items.iter().filter_map(Value::as_object);
        let mut rows: Vec<Fields<'a>> = objects().map(|item| self.object(item, at, true)).collect();
        let empty = drop_empty_columns(&mut rows);
        if !empty.is_empty() {
            if let Some(names) = self.names {
                let at = at.join(".");
                for column in &empty {
                    names.add_empty(&format!("{at}.{column}"));
                }
            }
        } else if rows
            .iter()
            .zip(objects())
            .all(|(row, item)| unchanged(row, item.len()))
        {
            return None;
        }
        Some(rows)
    }

    fn converted<'a>(
        &mut self,
        value: &'a Value,
        converter: &Convert,
        at: &mut Vec<&'a str>,
    ) -> Value {
        match value {
            Value::Array(_) | Value::Object(_) if self.depth >= MAX_SHAPE_DEPTH => self.too_deep(),
            Value::Array(items) => {
                self.depth += 1;
                let items = items
                    .iter()
                    .map(|item| self.converted(item, converter, at))
                    .collect();
                self.depth -= 1;
                Value::Array(items)
            }
            Value::Object(object) => {
                self.failed(value, converter, at);
                self.depth += 1;
                let object = self.object(object, at, false);
                self.depth -= 1;
                Value::Object(into_map(object))
            }
            scalar => {
                if let Some(new) = converter.apply(scalar) {
                    new
                } else {
                    self.failed(scalar, converter, at);
                    scalar.clone()
                }
            }
        }
    }

    fn failed(&mut self, value: &Value, converter: &Convert, at: &[&str]) {
        self.stats.conversions_failed += 1;
        if self.stats.first_failure.is_none() {
            let shown = match value {
                Value::Object(_) => "an object".to_owned(),
                other => {
                    let text = other.to_string();
                    match text.char_indices().nth(40) {
                        Some((cut, _)) => format!("{}…", &text[..cut]),
                        None => text,
                    }
                }
            };
            self.stats.first_failure = Some(format!(
                "`{}`: {} could not read {shown}",
                at.join("."),
                converter.name()
            ));
        }
    }

    fn too_deep(&mut self) -> Value {
        self.stats.too_deep += 1;
        Value::String(crate::sink::notice::not_shaped(MAX_SHAPE_DEPTH))
    }
}
