//! Shaping untyped results: keep, drop, rename and convert fields of each record before the
//! model reads them.
//!
//! | task | rule |
//! |---|---|
//! | only the fields an agent needs, in this order | `.keep(["number", "title", "user.login"])` |
//! | strip link noise at every depth | `.drop(["*_url", "url", "node_id"])` |
//! | strip one nested field | `.drop(["user.gravatar_id"])` |
//! | one name for one concept | `.rename("orderId", "order_id")`, `.rename("user.login", "author")` |
//! | Unix seconds to ISO 8601 UTC | `.convert("created_ts", Convert::EpochSeconds)` |
//! | any offset to UTC | `.convert("creation_date", Convert::Timestamp)` |
//! | cents to an amount | `.convert("total_cents", Convert::Cents)` |
//! | status codes to names | `.convert("status", Convert::map([(3, "shipped")]))` |
//! | one id format | `.convert("id", Convert::prefix("ORD-"))` |
//! | no empty noise | `.drop_empty()` |
//! | what a budget keeps first, and what it leaves out first | `.essential(["number", "title"])`, `.minor(["etag"])` |
//!
//! # Paths
//!
//! A path is dot-separated keys relative to each record (each row of a table, or the one
//! record). Every rule names the **input's** keys: a rename does not change what other rules
//! match, and rules may be given in any order. Arrays are transparent: `labels.name` on an
//! array of objects is the array of their `name` values (items without the key are left out).
//! A key that itself contains a dot cannot be named. A path that matches nothing is not an
//! error (APIs omit fields); a malformed one is (see [`Shape::check`]).
//!
//! - `keep(paths)`: only these fields, in this order (the column order of a table). A nested
//!   path becomes a dotted key (`user.login`) unless renamed. A kept path is kept even when a
//!   drop pattern matches it; drop patterns still prune inside it. Calling `keep` again
//!   appends.
//! - `drop(patterns)`: `*` matches any run of characters within one key; a pattern without a
//!   dot matches keys at every depth, a dotted one is anchored at the record (`user.*_url`).
//! - `rename(path, name)`: the field at `path` is called `name` where it stands (in place,
//!   inside its parent object), and a kept path's column is called `name`. So
//!   `rename("address.city", "town")` alone gives `{"address": {"town": ...}}`, while with
//!   `keep(["id", "address.city"])` the field moves up: `{"id": ..., "town": ...}` (a
//!   column of a table). To move a nested field up, keep its path. If another field of that
//!   object keeps that name, or an earlier rename took it, the renamed field keeps its input
//!   name instead and the clash is counted in [`ShapeStats::name_collisions`].
//! - `convert(path, converter)`: see [`Convert`]. On an array, each item is converted; a
//!   value the converter cannot read is kept unchanged and counted in
//!   [`ShapeStats::conversions_failed`].
//! - `essential(paths)`, `minor(paths)`: mark the fields (or table columns) at these paths:
//!   when a budget must leave fields out, an essential field is kept before every unmarked
//!   one and a minor field is left out first (see [`Mark`]). A mark wins over
//!   the salience rank the field's name and value would give it, and over a derived type's
//!   own mark for the field; every formatter honours it. Marks change no value: [`Shape::apply`]
//!   gives the same JSON with them or without. A path has at most one mark.
//! - `drop_empty()`: fields that are null, `""`, `[]` or `{}` (after the other rules) are
//!   dropped at every depth; in a table (a list of records, at the top or nested in a
//!   record), a column is dropped only when it is empty in every row, so rows keep one set of
//!   columns.
//!
//! # Cost
//!
//! The input is only read. Applying builds the shaped record from the kept parts alone:
//! dropped fields and fields outside a keep list are never copied; kept subtrees are copied
//! once, pruned and converted on the way. Rules are matched against the path of input keys
//! held on a stack (no path strings are built per field). A shape with no rules returns its
//! input as it is ([`Shape::is_empty`] lets a caller skip it altogether).
//!
//! # Errors
//!
//! The builders never fail, so a shape reads as one chain. Each malformed path or pattern,
//! a path given twice to `keep`, `rename` or `convert`, an empty new name, and two kept
//! fields that end up with one name are recorded; [`Shape::check`] returns the first and
//! [`Shape::errors`] all of them. Applying a shape with errors applies its valid rules only,
//! so call `check` once where the shape is built. Shape files ([`Shape::from_json_str`])
//! are checked as they load.
//!
//! ```
//! use tool_output_format::{Shape, Convert};
//! use serde_json::json;
//!
//! let shape = Shape::new()
//!     .keep(["number", "title", "user.login", "labels.name", "created_at"])
//!     .drop(["*_url", "node_id"])
//!     .rename("user.login", "author")
//!     .convert("created_at", Convert::Timestamp)
//!     .drop_empty();
//! shape.check().unwrap();
//!
//! let issue = json!({
//!     "url": "https://api.example.com/issues/1", "number": 1, "title": "Crash", "node_id": "I_1",
//!     "user": {"login": "li-lei", "avatar_url": "https://a.example.com/u/1"},
//!     "labels": [{"name": "bug", "color": "d73a4a"}, {"name": "docs"}],
//!     "created_at": "2023-12-22T01:00:00+01:00", "closed_at": null,
//! });
//! assert_eq!(
//!     shape.apply(&issue),
//!     json!({"number": 1, "title": "Crash", "author": "li-lei", "labels.name": ["bug", "docs"],
//!            "created_at": "2023-12-22T00:00:00Z"})
//! );
//! ```

mod apply;
pub(crate) mod convert;
mod error;
mod file;
mod path;
pub(crate) mod spec;
#[cfg(test)]
mod tests;

pub(crate) use apply::{Fields, Shaped, map_of as fields_map, rows_of};
pub(crate) use convert::Convert;
pub use convert::ValueMap;
pub use error::ShapeError;
pub(crate) use error::ShapeErrorKind;
pub(crate) use spec::Shape;

use apply::Apply;
use path::{Path, Pattern};
use serde_json::{Map, Value};

use crate::doc::Mark;
use crate::rules::detail::LeftOut;
use crate::rules::redact::Secrets;

/// Values nested deeper than this (below the record) are not copied: `serde_json`'s parser stops
/// at 128 levels, so only a hand-built value reaches it, and the renderer cuts at
/// [`MAX_DEPTH`](crate::doc::MAX_DEPTH) anyway. Such a subtree becomes the string
/// `[not shaped: nested deeper than 128 levels]` and is counted in [`ShapeStats::too_deep`].
pub(crate) const MAX_SHAPE_DEPTH: usize = 128;

/// What applying a [`Shape`] could not do cleanly, for the size report. Nothing here means
/// data was lost: a value a converter could not read is kept unchanged.
///
/// ```
/// use tool_output_format::{Convert, Formatter, Shape, ToolOptions};
/// use serde_json::json;
///
/// let shape = Shape::new().convert("at", Convert::Timestamp);
/// let fmt = Formatter::new().tool("t", ToolOptions::new().shape(shape));
/// let out = fmt.format_with_report("t", &json!([{"at": "soon"}, {"at": "2023-12-22T00:00:00Z"}]));
/// let stats = out.report.shape.unwrap();
/// assert_eq!(stats.conversions_failed, 1);
/// assert_eq!(stats.first_failure.as_deref(), Some("`at`: timestamp could not read \"soon\""));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShapeStats {
    /// Values a converter could not read (kept unchanged).
    pub conversions_failed: usize,
    /// The first of them: the path, the converter and the value (cut to 40 characters).
    pub first_failure: Option<String>,
    /// Renamed fields whose new name was taken in their object: each keeps its input name
    /// instead. (Only when that is taken too, by an earlier rename, is the field left out;
    /// it is counted here twice.)
    pub name_collisions: usize,
    /// Subtrees nested deeper than 128 levels that were not copied.
    pub too_deep: usize,
}

impl Shape {
    /// A shape with no rules: it changes nothing.
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let v = json!([{"a": null, "b_url": "x"}]);
    /// assert_eq!(Shape::new().apply(&v), v);
    /// ```
    #[must_use]
    pub fn new() -> Shape {
        Shape::default()
    }

    /// Only these fields, in this order. See the [module docs](self).
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::new().keep(["title", "user.login"]);
    /// assert_eq!(
    ///     shape.apply(&json!({"user": {"login": "li"}, "title": "T", "body": "..."})),
    ///     json!({"title": "T", "user.login": "li"})
    /// );
    /// ```
    #[must_use]
    pub fn keep<I, S>(mut self, paths: I) -> Shape
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for text in paths {
            let text = text.as_ref();
            let at = format!("keep[{}]", self.keep.len());
            match Path::parse(text) {
                Ok(path) if self.keep.contains(&path) => self.error(
                    ShapeErrorKind::Duplicate,
                    at,
                    format!("`{text}` is kept twice; list each path once"),
                ),
                Ok(path) => self.keep.push(path),
                Err(e) => self.error(ShapeErrorKind::MalformedPath, at, e.0),
            }
        }
        self
    }

    /// Drop fields matching these patterns. See the [module docs](self).
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::new().drop(["*_url", "url", "user.id"]);
    /// assert_eq!(
    ///     shape.apply(&json!({"id": 1, "url": "u", "html_url": "h", "user": {"id": 2, "login": "li", "avatar_url": "a"}})),
    ///     json!({"id": 1, "user": {"login": "li"}})
    /// );
    /// ```
    #[must_use]
    pub fn drop<I, S>(mut self, patterns: I) -> Shape
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for text in patterns {
            let text = text.as_ref();
            let at = format!("drop[{}]", self.drop.len());
            match Pattern::parse(text) {
                Ok(pattern) => self.drop.push(pattern),
                Err(e) => self.error(ShapeErrorKind::MalformedPath, at, e.0),
            }
        }
        self
    }

    /// Call the field at `path` (an input path) `name`. See the [module docs](self).
    ///
    /// A nested field is renamed where it stands, inside its parent; with its path in
    /// [`keep`](Shape::keep) it moves up to a top-level key (a column) called `name`:
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::new().rename("orderId", "order_id").rename("user.login", "author");
    /// assert_eq!(
    ///     shape.apply(&json!({"orderId": "ORD-1", "user": {"login": "li", "id": 7}})),
    ///     json!({"order_id": "ORD-1", "user": {"author": "li", "id": 7}}) // in place
    /// );
    /// let moved_up = shape.keep(["orderId", "user.login"]);
    /// assert_eq!(
    ///     moved_up.apply(&json!({"orderId": "ORD-1", "user": {"login": "li", "id": 7}})),
    ///     json!({"order_id": "ORD-1", "author": "li"})
    /// );
    /// ```
    #[must_use]
    pub fn rename(mut self, path: impl AsRef<str>, name: impl Into<String>) -> Shape {
        let text = path.as_ref();
        let name = name.into();
        let at = format!("rename[{text:?}]");
        match Path::parse(text) {
            Err(e) => self.error(ShapeErrorKind::MalformedPath, at, e.0),
            Ok(_) if name.is_empty() => self.error(
                ShapeErrorKind::BadName,
                at,
                format!("the new name for `{text}` is empty; give a field name like `author`"),
            ),
            Ok(path) => match self.rename.iter().find(|(p, _)| *p == path) {
                Some((_, first)) => {
                    let message = format!(
                        "`{text}` is renamed twice (to `{first}` and to `{name}`); give it one name"
                    );
                    self.error(ShapeErrorKind::Duplicate, at, message);
                }
                None => self.rename.push((path, name)),
            },
        }
        self
    }

    /// Convert the value at `path` (an input path). See [`Convert`].
    ///
    /// ```
    /// use tool_output_format::{Shape, Convert};
    /// use serde_json::json;
    ///
    /// let shape = Shape::new().convert("items.price_cents", Convert::Cents);
    /// assert_eq!(
    ///     shape.apply(&json!({"items": [{"price_cents": 250}, {"price_cents": -5}]})),
    ///     json!({"items": [{"price_cents": "2.50"}, {"price_cents": "-0.05"}]})
    /// );
    /// ```
    #[must_use]
    pub fn convert(mut self, path: impl AsRef<str>, converter: Convert) -> Shape {
        let text = path.as_ref();
        let at = format!("convert[{text:?}]");
        match Path::parse(text) {
            Err(e) => self.error(ShapeErrorKind::MalformedPath, at, e.0),
            Ok(path) => match self.convert.iter().find(|(p, _)| *p == path) {
                Some((_, first)) => {
                    let message = format!(
                        "`{text}` has two converters ({first} and {converter}); give it one"
                    );
                    self.error(ShapeErrorKind::Duplicate, at, message);
                }
                None => self.convert.push((path, converter)),
            },
        }
        self
    }

    /// Mark the fields at these input paths essential: when a budget must leave fields (or
    /// table columns) out, they are kept before every unmarked one. Paths as in
    /// [`keep`](Shape::keep); a kept or renamed field keeps its mark under its new name, and
    /// the mark wins over the salience rank and over a derived type's own mark. See
    /// [`Mark`] and the [module docs](self).
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::new().essential(["number", "user.login"]).rename("user.login", "author");
    /// shape.check().unwrap();
    /// // A mark changes no value: only what a budget keeps first.
    /// let issue = json!({"number": 7, "user": {"login": "ada"}, "body": "..."});
    /// assert_eq!(shape.apply(&issue), json!({"number": 7, "user": {"author": "ada"}, "body": "..."}));
    ///
    /// let err = Shape::new().essential(["id"]).minor(["id"]).check().unwrap_err();
    /// assert_eq!(err.to_string(), "shape minor[0]: `id` is marked both essential and minor; give it one mark");
    /// ```
    #[must_use]
    pub fn essential<I, S>(self, paths: I) -> Shape
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.mark(paths, Mark::Essential)
    }

    /// Mark the fields at these input paths minor: when a budget must leave fields (or table
    /// columns) out, they go first. Paths as in [`keep`](Shape::keep); see
    /// [`essential`](Shape::essential) and [`Mark`].
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::new().minor(["etag", "meta.request_id"]);
    /// shape.check().unwrap();
    /// let rows = json!([{"id": 1, "etag": "W/1", "meta": {"request_id": "r1"}}]);
    /// assert_eq!(shape.apply(&rows), rows);
    ///
    /// let err = Shape::new().minor(["etag", "user.*"]).check().unwrap_err();
    /// assert_eq!(err.at(), "minor[1]");
    /// ```
    #[must_use]
    pub fn minor<I, S>(self, paths: I) -> Shape
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.mark(paths, Mark::Minor)
    }

    /// [`essential`](Shape::essential) or [`minor`](Shape::minor): each path given once, with
    /// one mark.
    fn mark<I, S>(mut self, paths: I, mark: Mark) -> Shape
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let key = mark_key(mark);
        for text in paths {
            let text = text.as_ref();
            let given = self.marks.iter().filter(|(_, m)| *m == mark).count();
            let at = format!("{key}[{given}]");
            match Path::parse(text) {
                Err(e) => self.error(ShapeErrorKind::MalformedPath, at, e.0),
                Ok(path) => match self.marks.iter().find(|(p, _)| *p == path) {
                    Some((_, first)) if *first == mark => self.error(
                        ShapeErrorKind::Duplicate,
                        at,
                        format!("`{text}` is marked {key} twice; list each path once"),
                    ),
                    Some((_, first)) => {
                        let message = format!(
                            "`{text}` is marked both {} and {key}; give it one mark",
                            mark_key(*first)
                        );
                        self.error(ShapeErrorKind::Duplicate, at, message);
                    }
                    None => self.marks.push((path, mark)),
                },
            }
        }
        self
    }

    /// The marks by the dotted name of the field in the shaped record (from the record
    /// down, after `keep` and `rename`): each marked input path where it ends up. A path
    /// that no kept path leads to is not shown, and has none.
    pub(crate) fn output_marks(&self) -> Vec<(String, Mark)> {
        let mut out = Vec::new();
        for (path, mark) in &self.marks {
            let keys: Vec<&str> = path.keys().iter().map(String::as_str).collect();
            if self.keep.is_empty() {
                out.push((self.renamed_below(&keys, 0, String::new()), *mark));
                continue;
            }
            for kept in &self.keep {
                let k = kept.keys();
                if k.len() <= keys.len() && k.iter().zip(&keys).all(|(a, b)| a == b) {
                    let name = self.renamed_below(&keys, k.len(), self.output_name(kept));
                    out.push((name, *mark));
                }
            }
        }
        out
    }

    /// `name` followed by the output names of `keys[from..]`, each renamed where it stands.
    fn renamed_below(&self, keys: &[&str], from: usize, mut name: String) -> String {
        for j in from..keys.len() {
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(self.renamed(&keys[..=j]).unwrap_or(keys[j]));
        }
        name
    }

    /// Drop null, `""`, `[]` and `{}` fields; in a table, columns empty in every row.
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let rows = json!([{"a": 1, "b": null, "c": ""}, {"a": null, "b": [], "c": "x"}]);
    /// assert_eq!(Shape::new().drop_empty().apply(&rows), json!([{"a": 1, "c": ""}, {"a": null, "c": "x"}]));
    /// assert_eq!(Shape::new().drop_empty().apply(&rows[0]), json!({"a": 1}));
    /// ```
    #[must_use]
    pub fn drop_empty(mut self) -> Shape {
        self.drop_empty = true;
        self
    }

    /// In a rendered table, split object columns into dotted columns (`user.login`,
    /// `user.type`) where that reads in fewer tokens, and leave them one compact-JSON cell
    /// where it would not.
    ///
    /// An object column is split when every non-empty value in it is an object, the objects
    /// have at most 12 keys between them, and the dotted columns would be at least half
    /// filled (filled cells >= rows x columns / 2), so a table never grows a run of mostly
    /// empty columns; objects nested in those objects follow the same rule, down to 4
    /// levels. With [`drop_empty`](Shape::drop_empty), dotted columns empty in every row
    /// are dropped first. If a dotted name would equal another column's name, nothing is
    /// split. Records (bullets) already show nested objects as sub-bullets and are not
    /// changed, and neither is [`Shape::apply`]'s output: flattening is a rendering rule.
    ///
    /// Its effect on the corpus is measured in BENCHMARKS.md, "Shaping" (in the repository).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout, Shape, ToolOptions};
    /// use serde_json::json;
    ///
    /// let rows = json!([
    ///     {"id": 1, "user": {"login": "ada", "type": "User"}, "milestone": null},
    ///     {"id": 2, "user": {"login": "bo", "type": "Bot"}, "milestone": {"title": "v1", "due": null}},
    /// ]);
    /// let fmt = Formatter::new().layout(Layout::Compact).tool("t", ToolOptions::new().shape(Shape::new().flatten()));
    /// // `milestone` is filled in one row of two and its `due` in none: it stays a JSON cell.
    /// assert_eq!(
    ///     fmt.format("t", &rows),
    ///     "|id|user.login|user.type|milestone|\n|-|-|-|-|\n|1|ada|User||\n|2|bo|Bot|{\"title\":\"v1\",\"due\":null}|"
    /// );
    /// ```
    #[must_use]
    pub fn flatten(mut self) -> Shape {
        self.flatten = true;
        self
    }

    pub(crate) fn flattens(&self) -> bool {
        self.flatten
    }

    /// This shape, naming what its `drop` patterns and `drop_empty` take out in the
    /// left-out line of the rendered text (the agent preset). Only for shapes without `keep`:
    /// every field is then either shown or named.
    pub(crate) fn folding(mut self) -> Shape {
        debug_assert!(
            self.keep.is_empty(),
            "a folding shape names drops, not keeps"
        );
        self.fold = true;
        self
    }

    /// This shape, never dropping the fields `patterns` match (valid patterns only; the
    /// agent preset's pages for people).
    pub(crate) fn sparing(mut self, patterns: &[&str]) -> Shape {
        for pattern in patterns.iter().filter_map(|p| Pattern::parse(p).ok()) {
            self.spare.push(pattern);
        }
        self
    }

    /// Whether the field at `at` is dropped: a `drop` pattern matches it and no spared one.
    fn drops(&self, at: &[&str]) -> bool {
        self.drop.matches(at) && !self.spare.matches(at)
    }

    /// Whether the field at `at` holding `value` is dropped: as [`Shape::drops`], except that a
    /// folding shape keeps a link a person opens (a page, not an API endpoint or an image),
    /// whatever its key: folding takes out what only a program reads.
    fn drops_value(&self, at: &[&str], value: &Value) -> bool {
        self.drops(at)
            && !(self.fold
                && matches!(value, Value::String(s) if crate::rules::salience::is_page(s)))
    }

    /// Whether this shape names what it drops (see [`Shape::folding`]).
    pub(crate) fn folds(&self) -> bool {
        self.fold
    }

    pub(crate) fn drops_empty(&self) -> bool {
        self.drop_empty
    }

    /// The first mistake in this shape, if any. See [`Shape::errors`] for all of them.
    ///
    /// # Errors
    ///
    /// The first [`ShapeError`] of [`Shape::errors`].
    ///
    /// ```
    /// use tool_output_format::Shape;
    ///
    /// assert!(Shape::new().keep(["a.b"]).check().is_ok());
    /// let err = Shape::new().keep(["user.login", "author"]).rename("user.login", "author").check().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "shape keep[1]: `user.login` and `author` are both kept as `author`; rename one of them"
    /// );
    /// ```
    pub fn check(&self) -> Result<(), ShapeError> {
        match self.errors().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Every mistake in this shape, in the order the rules were given (the output-name clashes
    /// of kept fields last).
    #[must_use]
    pub fn errors(&self) -> Vec<ShapeError> {
        let mut all = self.errors.clone();
        let names: Vec<String> = self.keep.iter().map(|p| self.output_name(p)).collect();
        for (i, name) in names.iter().enumerate() {
            if let Some(j) = names[..i].iter().position(|n| n == name) {
                all.push(ShapeError::new(
                    ShapeErrorKind::Duplicate,
                    format!("keep[{i}]"),
                    format!(
                        "`{}` and `{}` are both kept as `{name}`; rename one of them",
                        self.keep[j].dotted(),
                        self.keep[i].dotted()
                    ),
                ));
            }
        }
        all
    }

    /// True when the shape has no rules: applying it changes nothing, and it marks no field.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty() && self.changes_nothing()
    }

    /// True when applying the shape changes no value (it may still mark fields).
    fn changes_nothing(&self) -> bool {
        self.keep.is_empty()
            && self.drop.is_empty()
            && self.rename.is_empty()
            && self.convert.is_empty()
            && !self.drop_empty
            && !self.flatten
    }

    /// Shapes a result: a record, an array of records (a table), or a mixed array (each record
    /// in it shaped as a record). Anything else comes back unchanged.
    #[must_use]
    pub fn apply(&self, value: &Value) -> Value {
        self.apply_with_stats(value, &mut ShapeStats::default())
    }

    /// [`Shape::apply`], counting what could not be done cleanly into `stats`.
    pub(crate) fn apply_with_stats(&self, value: &Value, stats: &mut ShapeStats) -> Value {
        if self.changes_nothing() {
            return value.clone();
        }
        match value {
            Value::Object(record) => Value::Object(self.apply_record(record, stats)),
            Value::Array(items) if is_table(items) => {
                let rows = items.iter().filter_map(Value::as_object);
                Value::Array(
                    self.apply_table(rows, stats)
                        .into_iter()
                        .map(Value::Object)
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| match item {
                        Value::Object(record) => Value::Object(self.apply_record(record, stats)),
                        other => other.clone(),
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Shapes one record (the one record of a result, or an item of a mixed list).
    pub(crate) fn apply_record(
        &self,
        record: &Map<String, Value>,
        stats: &mut ShapeStats,
    ) -> Map<String, Value> {
        apply::into_map(self.fields(record, &Secrets::EMPTY, stats, false, None))
    }

    /// The shaped fields of one map, as a table `row` (`drop_empty` leaves its own empty
    /// fields) or as a record, borrowed from `map` where no rule changed them. A field whose
    /// **input** key is secret (or a kept path through one) becomes
    /// [`REDACTED`](crate::rules::redact::REDACTED) before any
    /// rule reads it, so neither a rename nor a keep path can move a secret out from under
    /// its key. A folding shape names what it drops in `names`. The `Value` walker calls
    /// this per row, so a table is never shaped as a whole in memory twice.
    pub(crate) fn fields<'a>(
        &self,
        map: &'a Map<String, Value>,
        secrets: &Secrets,
        stats: &mut ShapeStats,
        row: bool,
        names: Option<&LeftOut>,
    ) -> Fields<'a> {
        Apply {
            shape: self,
            stats,
            secrets,
            row,
            depth: 0,
            names: names.filter(|_| self.fold),
            path: String::new(),
        }
        .record(map)
    }

    /// Shapes a table: each row as a table row (see [`Shape::fields`]), then (with
    /// `drop_empty`) the columns empty in every row removed.
    pub(crate) fn apply_table<'a, I>(
        &self,
        rows: I,
        stats: &mut ShapeStats,
    ) -> Vec<Map<String, Value>>
    where
        I: IntoIterator<Item = &'a Map<String, Value>>,
    {
        let mut shaped: Vec<Fields<'a>> = rows
            .into_iter()
            .map(|row| self.fields(row, &Secrets::EMPTY, stats, true, None))
            .collect();
        if self.drop_empty {
            apply::drop_empty_columns(&mut shaped);
        }
        shaped.into_iter().map(apply::into_map).collect()
    }

    fn error(&mut self, kind: ShapeErrorKind, at: String, message: String) {
        self.errors.push(ShapeError::new(kind, at, message));
    }

    fn output_name(&self, path: &Path) -> String {
        let at: Vec<&str> = path.keys().iter().map(String::as_str).collect();
        self.renamed(&at)
            .map_or_else(|| path.dotted(), str::to_owned)
    }

    fn renamed(&self, at: &[&str]) -> Option<&str> {
        self.rename
            .iter()
            .find(|(p, _)| p.is(at))
            .map(|(_, name)| name.as_str())
    }
}

/// The builder (and shape file key) of a mark.
fn mark_key(mark: Mark) -> &'static str {
    if mark == Mark::Minor {
        "minor"
    } else {
        "essential"
    }
}

/// A non-empty list whose items are all records: rendered as a table.
fn is_table(items: &[Value]) -> bool {
    !items.is_empty() && items.iter().all(Value::is_object)
}

/// True for a value that holds no data: null, `""`, `[]`, `{}`, or an object whose every
/// field holds no data (`{"address": {"city": null}, "email": ""}`), nested at most
/// [`MAX_SHAPE_DEPTH`] deep (deeper is taken as data).
pub(crate) fn holds_no_data(value: &Value) -> bool {
    fn within(value: &Value, depth: usize) -> bool {
        match value {
            Value::Object(o) if depth < MAX_SHAPE_DEPTH => o.values().all(|v| within(v, depth + 1)),
            _ => is_empty_value(value),
        }
    }
    within(value, 0)
}

/// True for null, `""`, `[]` and `{}`.
pub(crate) fn is_empty_value(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}
