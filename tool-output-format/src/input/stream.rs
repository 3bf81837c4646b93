//! [`Rows`]: records from a stream, of which only the rows the caps can show are kept; the
//! rest are counted (and their new keys noted), so a table of any length renders in bounded
//! memory with the true total in its notice.

use std::fmt;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::ToolOutput;
use super::hook::Hook;
use super::table::{Builder, Columns, MAX_COLUMNS};
use crate::doc::{Node, Table, Text};
use crate::input::context::Context;
use crate::shape::is_empty_value;

/// Records of which only the first are kept: a table with the true row count.
///
/// [`Formatter::format_rows`](crate::Formatter::format_rows) builds one from an iterator,
/// keeping as many rows as the tool's row cap shows. Build one yourself when the records
/// come from elsewhere (a reader that counts lines without parsing them):
/// [`Rows::new`] takes the kept records and the total, [`Rows::with_columns`] the keys seen
/// only in records that were not kept. A `Rows` is a [`ToolOutput`], so every entry point
/// takes it (`format`, `format_with_report`, `format_json`).
///
/// It renders byte for byte like the whole array would, as long as the kept records are
/// at least the rows the caps show: the columns are the keys of every record in first-seen
/// order (kept ones, then the added ones), the notice gives the true total
/// (`[Truncated to 100 rows of 523000 total]`). Kept fewer than the cap, it shows the
/// records it has and says how many there were.
///
/// Records are JSON objects. When a kept item is not an object the data is not a table: the
/// kept items render as a list (as the whole array would), and if items were dropped a last
/// list item says how many (`[Truncated to 100 items of 5000 total]`), so nothing is lost
/// silently. [`Rows::push`] avoids that case: it keeps every item once one is not an object
/// (a list is not cut by a row cap, so its output holds every item anyway).
///
/// ```
/// use serde_json::json;
/// use tool_output_format::{Formatter, Rows};
///
/// let fmt = Formatter::new().max_rows(2);
/// let lines = (0..1000).map(|i| json!({"id": i}));
/// assert_eq!(
///     fmt.format_rows("t", lines),
///     "[Truncated to 2 rows of 1000 total]\n\n| id |\n|----|\n| 0  |\n| 1  |"
/// );
///
/// // Kept elsewhere: two records of 10, a key first seen in a dropped record.
/// let rows = Rows::new(vec![json!({"id": 0}), json!({"id": 1})], 10)
///     .with_columns(["late".to_string()]);
/// assert_eq!(
///     fmt.format("t", &rows),
///     "[Truncated to 2 rows of 10 total]\n\n| id | late |\n|----|------|\n| 0  |      |\n| 1  |      |"
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rows {
    kept: Vec<Value>,
    total: usize,
    late: Vec<String>,
    /// A value seen for each late key (the first that is not empty): what a shape decides a
    /// late column by (kept, dropped as empty, flattened), as it would over the whole array.
    late_values: Map<String, Value>,
    /// Keys of the kept records (to note late keys while pushing).
    seen: std::collections::HashSet<String>,
    /// True once an item is not an object: everything is kept from then on.
    list: bool,
}

impl Rows {
    /// Records kept from a stream of `total` records (`total` below `kept.len()` counts as
    /// `kept.len()`).
    ///
    /// ```
    /// let rows = tool_output_format::Rows::new(vec![serde_json::json!({"a": 1})], 5);
    /// assert_eq!((rows.kept().len(), rows.total()), (1, 5));
    /// ```
    #[must_use]
    pub fn new(kept: Vec<Value>, total: usize) -> Rows {
        let total = total.max(kept.len());
        let list = kept.iter().any(|v| !v.is_object());
        Rows {
            kept,
            total,
            list,
            ..Rows::default()
        }
    }

    /// Add columns: keys first seen in records that were not kept, in first-seen order
    /// (a key the kept records have is ignored). Kept records show them as empty cells.
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout, Rows};
    /// let rows = Rows::new(vec![serde_json::json!({"a": 1})], 2).with_columns(["b".into()]);
    /// let csv = Formatter::new().layout(Layout::Csv).max_rows(1).format("", &rows);
    /// assert_eq!(csv, "[Truncated to 1 rows of 2 total]\n\na,b\n1,");
    /// ```
    #[must_use]
    pub fn with_columns(mut self, keys: impl IntoIterator<Item = String>) -> Rows {
        self.late.extend(keys);
        self
    }

    /// Add columns with a value seen for each: keys first seen in records that were not
    /// kept, in first-seen order, each with the first value that is not empty (null, `""`,
    /// `[]`, `{}`) seen under it, else an empty one. Unshaped, it is
    /// [`with_columns`](Self::with_columns); under a [`Shape`](crate::Shape) (the agent
    /// preset's among them) a late column is kept, dropped as empty (and named) or flattened
    /// from these values as the whole array would be, so no column that first appears after
    /// the cut is dropped unnamed.
    ///
    /// ```
    /// use serde_json::{Map, json};
    /// use tool_output_format::{Formatter, Rows};
    /// let mut late = Map::new();
    /// late.insert("b".to_owned(), json!(4));
    /// let rows = Rows::new(vec![json!({"a": 1}), json!({"a": 2})], 3).with_values(late);
    /// let whole = json!([{"a": 1}, {"a": 2}, {"a": 3, "b": 4}]);
    /// let fmt = Formatter::for_agents().max_rows(2);
    /// assert_eq!(fmt.format("t", &rows), fmt.format("t", &whole));
    /// ```
    #[must_use]
    pub fn with_values(mut self, values: Map<String, Value>) -> Rows {
        for (k, v) in values {
            if !self.late.contains(&k) {
                self.late.push(k.clone());
            }
            self.late_values.insert(k, v);
        }
        self
    }

    /// Take the next item of a stream, keeping it when fewer than `keep` records are kept
    /// (or once an item was not an object: see the [type docs](Rows)), else counting it and
    /// noting its new keys.
    ///
    /// ```
    /// let mut rows = tool_output_format::Rows::default();
    /// for i in 0..5 {
    ///     rows.push(serde_json::json!({"id": i}), 2);
    /// }
    /// assert_eq!((rows.kept().len(), rows.total()), (2, 5));
    /// ```
    pub fn push(&mut self, item: Value, keep: usize) {
        self.total += 1;
        if !item.is_object() && self.kept.len() == self.total - 1 {
            self.list = true;
        }
        match item {
            Value::Object(m) if !self.list && self.kept.len() >= keep => self.note_keys(&m),
            Value::Object(m) => {
                self.seen.extend(m.keys().cloned());
                self.kept.push(Value::Object(m));
            }
            other if self.list => self.kept.push(other),
            // Not an object after records were dropped: counted only (see the type docs).
            _ => {}
        }
    }

    fn note_keys(&mut self, m: &Map<String, Value>) {
        for (k, v) in m {
            if self.note_key(k) || self.wants_value(k) {
                self.note_value(k, v);
            }
        }
    }

    /// The late-key rule, for a key of a record that is not kept: a key not seen yet is a
    /// late column (up to one more than [`MAX_COLUMNS`], so a hostile stream's memory stays
    /// bounded). Whether it was new.
    fn note_key(&mut self, k: &str) -> bool {
        if !self.seen.contains(k) && self.seen.len() < MAX_COLUMNS + 1 {
            self.seen.insert(k.to_owned());
            self.late.push(k.to_owned());
            return true;
        }
        false
    }

    /// Whether the late key `k` still wants a value (it has only an empty one so far).
    fn wants_value(&self, k: &str) -> bool {
        self.late_values.get(k).is_some_and(is_empty_value)
    }

    /// Keep `v` as the value seen under the late key `k` unless one that is not empty is
    /// kept already.
    fn note_value(&mut self, k: &str, v: &Value) {
        match self.late_values.get_mut(k) {
            Some(seen) if is_empty_value(seen) && !is_empty_value(v) => v.clone_into(seen),
            Some(_) => {}
            None => {
                self.late_values.insert(k.to_owned(), v.clone());
            }
        }
    }

    /// Take the next record of a stream from a deserializer, as [`push`](Self::push) takes
    /// a value, without building a record that is not kept: its keys are noted and its values
    /// skipped (but for a late column's first value that is not empty), so a reader of any
    /// length keeps only the rows the cap shows. The record must be a JSON object (a
    /// reader's records are rows); anything else is an error of `d`'s and nothing is taken.
    ///
    /// # Errors
    ///
    /// `d`'s error: bad syntax, or a value that is not an object.
    ///
    /// ```
    /// use tool_output_format::Rows;
    /// let mut rows = Rows::default();
    /// for line in [r#"{"id": 1}"#, r#"{"id": 2, "late": ""}"#, r#"{"late": "x", "more": 3}"#] {
    ///     rows.push_from(&mut serde_json::Deserializer::from_str(line), 1).unwrap();
    /// }
    /// assert_eq!((rows.kept().len(), rows.total()), (1, 3));
    /// assert_eq!(rows.late_keys(), ["late", "more"]);
    /// assert!(rows.push_from(&mut serde_json::Deserializer::from_str("[1]"), 1).is_err());
    /// ```
    pub fn push_from<'de, D: Deserializer<'de>>(
        &mut self,
        d: D,
        keep: usize,
    ) -> Result<(), D::Error> {
        if self.list || self.kept.len() < keep {
            let m = Map::<String, Value>::deserialize(d)?;
            self.push(Value::Object(m), keep);
            return Ok(());
        }
        d.deserialize_map(KeyProbe(self))?;
        self.total += 1;
        Ok(())
    }

    /// The keys first seen in records that were not kept, in first-seen order (the columns
    /// a table adds for them).
    ///
    /// ```
    /// let mut rows = tool_output_format::Rows::default();
    /// rows.push(serde_json::json!({"a": 1}), 1);
    /// rows.push(serde_json::json!({"a": 2, "b": 3}), 1);
    /// assert_eq!(rows.late_keys(), ["b"]);
    /// ```
    #[must_use]
    pub fn late_keys(&self) -> &[String] {
        &self.late
    }

    /// The late columns as one record (a value seen for each; null when none was given), for
    /// a shape's column analysis.
    fn late_record(&self) -> Option<Map<String, Value>> {
        (!self.late.is_empty()).then(|| {
            self.late
                .iter()
                .map(|k| {
                    (
                        k.clone(),
                        self.late_values.get(k).cloned().unwrap_or(Value::Null),
                    )
                })
                .collect()
        })
    }

    /// The records kept.
    #[must_use]
    pub fn kept(&self) -> &[Value] {
        &self.kept
    }

    /// How many records the stream had.
    #[must_use]
    pub fn total(&self) -> usize {
        self.total
    }
}

/// Reads one record that is not kept (see [`Rows::push_from`]): checks that it is an object,
/// notes its keys, and skips its values without building them, but for the late keys that
/// still want a value.
struct KeyProbe<'r>(&'r mut Rows);

impl<'de> Visitor<'de> for KeyProbe<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object (a record: each NDJSON line is one row of the table)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(wanted) = map.next_key_seed(KeySeed(&mut *self.0))? {
            match wanted {
                Some(k) => {
                    let v: Value = map.next_value()?;
                    self.0.note_value(&k, &v);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// One key of a record that is not kept: the key, when its value is wanted.
struct KeySeed<'r>(&'r mut Rows);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, k: &str) -> Result<Option<String>, E> {
        let new = self.0.note_key(k);
        Ok((new || self.0.wants_value(k)).then(|| k.to_owned()))
    }
}

impl ToolOutput for Rows {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        if let Some(sh) = cx.shaping()
            && !self.list
        {
            // Under a shape: the kept rows shaped, the columns decided with the late ones;
            // the table still counts every row.
            let late = self.late_record();
            let mut node = super::shaped::list_with(&self.kept, late.as_ref(), cx, sh);
            if let Node::Table(t) = &mut node {
                t.set_total_rows(self.total);
                return node;
            }
        }
        if !self.list
            && let Some(t) = table(self, cx)
        {
            return Node::Table(t);
        }
        // Not a table (as the whole array would not be): the kept items as a list, and the
        // count of the others as its last item.
        let mut node = self.kept.to_node(cx);
        if let Node::List(items) = &mut node
            && self.total > self.kept.len()
        {
            let cut = crate::doc::notice::Notice::Items {
                kept: self.kept.len(),
                total: self.total,
            };
            items.push(Node::Str(Text::Owned(cut.to_string())));
        }
        node
    }

    /// The kept records (what a registered renderer sees).
    fn to_json(&self) -> Value {
        Value::Array(self.kept.clone())
    }

    /// Whole only when every record was kept.
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        hook.whole(self.kept.len() >= self.total);
    }
}

/// The kept records as a table of `total` rows. `None` when the records have no key, or
/// more than [`MAX_COLUMNS`] between them (the whole array would be a list then too).
fn table<'a>(rows: &'a Rows, cx: &Context<'_>) -> Option<Table<'a>> {
    let objects = || rows.kept.iter().filter_map(Value::as_object);
    let mut columns = Columns::default();
    for m in objects() {
        columns.add_distinct(m.keys().map(String::as_str), m.len());
    }
    columns.add(rows.late.iter().map(String::as_str), rows.late.len());
    if columns.names.is_empty() || columns.names.len() > MAX_COLUMNS {
        return None;
    }
    let names = &columns.names;
    let mut t = Builder::new(names.iter().map(|&k| Text::Borrowed(k)).collect(), cx);
    let range = cx.rows(rows.total, None);
    let end = range.end.min(rows.kept.len());
    for m in objects().take(end).skip(range.start) {
        for k in names {
            t.value(m.get(*k), cx);
        }
    }
    Some(t.finish(rows.total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Formatter;
    use serde_json::json;

    fn all(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| match i {
                7 => json!({"id": i, "late": true}),
                _ => json!({"id": i, "name": format!("n{i}")}),
            })
            .collect()
    }

    #[test]
    fn pushing_renders_like_the_whole_array() {
        for (n, cap) in [(0, 3), (2, 3), (10, 3), (10, 0), (10, 8), (10, 10)] {
            let fmt = Formatter::new().max_rows(cap);
            let whole = fmt.format("t", &Value::Array(all(n)));
            assert_eq!(fmt.format_rows("t", all(n)), whole, "{n} rows, cap {cap}");
        }
    }

    #[test]
    fn a_stream_that_is_not_records_is_a_whole_list() {
        let items = vec![json!(1), json!({"a": 1}), json!("x")];
        let fmt = Formatter::new().max_rows(1);
        assert_eq!(
            fmt.format_rows("t", items.clone()),
            fmt.format("t", &Value::Array(items))
        );
    }

    #[test]
    fn a_non_record_after_the_cut_is_counted() {
        let mut rows = Rows::default();
        for v in [json!({"a": 1}), json!({"a": 2}), json!(3)] {
            rows.push(v, 1);
        }
        assert_eq!(
            Formatter::new().max_rows(1).format("", &rows),
            "[Truncated to 1 rows of 3 total]\n\n| a |\n|---|\n| 1 |"
        );
    }

    #[test]
    fn late_keys_stop_one_past_the_columns_a_table_has() {
        let mut rows = Rows::default();
        for i in 0..MAX_COLUMNS + 10 {
            let line = format!("{{\"k{i}\":1}}");
            rows.push_from(&mut serde_json::Deserializer::from_str(&line), 0)
                .unwrap();
        }
        assert_eq!(rows.total(), MAX_COLUMNS + 10);
        assert_eq!(rows.late_keys().len(), MAX_COLUMNS + 1);
    }

    #[test]
    fn a_probed_record_keeps_the_first_value_that_is_not_empty() {
        let mut rows = Rows::default();
        for line in [
            r#"{"a":1}"#,
            r#"{"b":""}"#,
            r#"{"b":null,"c":[]}"#,
            r#"{"b":"x","c":[1]}"#,
        ] {
            rows.push_from(&mut serde_json::Deserializer::from_str(line), 1)
                .unwrap();
        }
        let mut pushed = Rows::default();
        for v in [
            json!({"a":1}),
            json!({"b":""}),
            json!({"b":null,"c":[]}),
            json!({"b":"x","c":[1]}),
        ] {
            pushed.push(v, 1);
        }
        assert_eq!(rows, pushed);
        assert_eq!(
            rows.late_values,
            *json!({"b": "x", "c": [1]}).as_object().unwrap()
        );
    }

    #[test]
    fn dropped_items_of_a_list_are_announced() {
        let rows = Rows::new(vec![json!(1), json!(2)], 5);
        assert_eq!(
            Formatter::new().format("", &rows),
            "- 1\n- 2\n- \\[Truncated to 2 items of 5 total]"
        );
    }
}
