//! The parts of a stored record that its text cut, and how a long text is served in pieces:
//! what the fetch tool walks after a record's own page (SPEC 19: every row, field and value the
//! first text cut is reachable).

use serde_json::Value;

use crate::call::report::Report;
use crate::cut::caps::SHORT_SCALAR;
use crate::doc::notice::Notice;
use crate::text::resume::{Fields, Short};

/// Deeper than this, a stored value is not searched for cut parts (its own page shows it).
const MAX_DEPTH: usize = 64;

/// The parts of the stored record `value` that its text (with `report`) cut, in the order the
/// walk serves them: JSON pointer and the cursor of the rest inside it (`"20"`: from row or
/// character 20; `"20;20>34"`: see [`Short`]).
///
/// - the tables it cut, from the first row not shown; when the budget shortened values to
///   `C` characters, then the values of the rows shown that it cut (`"K;K>C"`: pages never
///   shorten one);
/// - when the budget shortened values, every other text and array outside those tables that
///   holds a value longer than the shortened length (from its first row or character);
/// - with none of those, the largest array when values were shortened.
pub(super) fn cut_parts(value: &Value, report: &Report) -> Vec<(String, String)> {
    let tables = report.cut_tables.iter().cloned();
    let Some(max) = shortened_to(report) else {
        return tables.map(|(at, k)| (at, k.to_string())).collect();
    };
    let mut parts: Vec<(String, String)> = tables
        .map(|(at, k)| {
            let rest = Short {
                before: k,
                over: Some(max),
                fields: None,
            };
            (at, rest.row_cursor(k))
        })
        .collect();
    let mut long = Vec::new();
    long_parts(value, max, &mut String::new(), 0, &mut long);
    for at in long {
        if !parts.iter().any(|(p, _)| *p == at) {
            parts.push((at, "0".to_owned()));
        }
    }
    if parts.is_empty() {
        parts.extend(largest_table(value).map(|(at, _)| (at, "0".to_owned())));
    }
    parts
}

/// The length the budget shortened values to, when it did.
fn shortened_to(report: &Report) -> Option<usize> {
    report.notices.iter().find_map(|n| match *n {
        Notice::Shortened { max_chars, .. } => Some(max_chars),
        _ => None,
    })
}

/// The texts (longer than `max`, and than [`SHORT_SCALAR`]: a budget never shortens a shorter
/// record value) and the arrays (holding a text longer than `max`) of the records in `v`,
/// in document order, as JSON pointers.
fn long_parts(v: &Value, max: usize, at: &mut String, depth: usize, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if depth < MAX_DEPTH => {
            for (k, child) in m {
                let len = at.len();
                crate::text::push_pointer_segment(at, k);
                long_parts(child, max, at, depth + 1, out);
                at.truncate(len);
            }
        }
        Value::String(s) if depth > 0 && longer(s, max.max(SHORT_SCALAR)) => out.push(at.clone()),
        Value::Array(_) if depth > 0 && holds_longer(v, max, depth) => out.push(at.clone()),
        _ => {}
    }
}

/// Whether `s` has more than `max` characters (counted only when it has more bytes).
fn longer(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().count() > max
}

/// Whether `v` holds a text longer than `max` characters.
fn holds_longer(v: &Value, max: usize, depth: usize) -> bool {
    match v {
        Value::String(s) => longer(s, max),
        Value::Array(items) if depth < MAX_DEPTH => {
            items.iter().any(|c| holds_longer(c, max, depth + 1))
        }
        Value::Object(m) if depth < MAX_DEPTH => {
            m.values().any(|c| holds_longer(c, max, depth + 1))
        }
        _ => false,
    }
}

/// The largest non-empty array of `value` (by the size of its JSON, about), from its first row.
pub(super) fn largest_table(value: &Value) -> Option<(String, usize)> {
    fn walk(v: &Value, at: &mut String, depth: usize, best: &mut Option<(String, usize)>) -> usize {
        let mut own = 0;
        let mut visit = |key: &str, child: &Value, at: &mut String, own: &mut usize| {
            let len = at.len();
            crate::text::push_pointer_segment(at, key);
            *own += walk(child, at, depth + 1, best) + key.len() + 4;
            at.truncate(len);
        };
        match v {
            Value::Object(m) if depth < MAX_DEPTH => {
                m.iter().for_each(|(k, c)| visit(k, c, at, &mut own));
            }
            Value::Array(items) if depth < MAX_DEPTH => {
                items
                    .iter()
                    .enumerate()
                    .for_each(|(i, c)| visit(&i.to_string(), c, at, &mut own));
            }
            Value::String(s) => own = s.len(),
            _ => own = 4,
        }
        if v.as_array().is_some_and(|a| !a.is_empty())
            && best.as_ref().is_none_or(|(_, size)| own > *size)
        {
            *best = Some((at.clone(), own));
        }
        own
    }
    let mut best = None;
    walk(value, &mut String::new(), 0, &mut best);
    best.filter(|(at, _)| !at.is_empty()).map(|(at, _)| (at, 0))
}

/// The piece of `text` of about `chars` characters from the character `start`: its end, in
/// characters, after a space or line break where one is near, so a word reaches the model
/// whole and the next piece starts with one. A piece followed by a space takes it (one
/// character more); one that would split a word ends after the last space or line break
/// in its second half, if any.
pub(super) fn piece_end(text: &str, start: usize, chars: usize) -> usize {
    let mut it = text.chars().skip(start);
    let piece: Vec<char> = it.by_ref().take(chars).collect();
    let after = it.next();
    if after.is_some_and(char::is_whitespace) && piece.last().is_some_and(|c| !c.is_whitespace()) {
        return start + piece.len() + 1;
    }
    let splits_word = after.is_some_and(|c| !c.is_whitespace())
        && piece.last().is_some_and(|c| !c.is_whitespace());
    if splits_word
        && let Some(space) = piece.iter().rposition(|c| c.is_whitespace())
        && space + 1 > piece.len() / 2
    {
        return start + space + 1;
    }
    start + piece.len()
}

/// Whether `fields` leaves the field `key` of a row out; `only_known`: [`Fields::Only`] names
/// something of these rows (else every field is).
fn left_out(fields: &Fields, key: &str, only_known: bool) -> bool {
    match fields {
        Fields::Except(shown) => !shown.iter().any(|s| s == key),
        Fields::Only(names) => !only_known || names.iter().any(|n| names_field(n, key)),
    }
}

/// Whether the name `name` (a column or a path) is the field `key` or a path into it.
fn names_field(name: &str, key: &str) -> bool {
    name.strip_prefix(key)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// The parts of the rows a first text showed that it did not show whole (see
/// [`Short`]): what the fetch serves after the rows from `K`.
impl Short {
    /// This rest of `rows`, in row order, each naming its row (from 1):
    ///
    /// - with `fields`: per row, a record of the fields left out and of the values shortening
    ///   cut (`row` first; `_row` when a field is named `row`), rows with none left out;
    /// - else per value shortening cuts, a record of its row, its column and the value.
    pub fn values(&self, rows: &[Value]) -> Vec<Value> {
        let before = &rows[..self.before.min(rows.len())];
        let long = |v: &Value| self.over.is_some_and(|c| long_value(v, c));
        let Some(fields) = &self.fields else {
            return self.each_value(before);
        };
        // Names that name nothing of these rows say nothing of what was shown: rows whole.
        let only_known = match fields {
            Fields::Only(names) => names.iter().all(|n| {
                before.iter().any(|r| {
                    r.as_object()
                        .is_some_and(|m| m.keys().any(|k| names_field(n, k)))
                })
            }),
            Fields::Except(_) => true,
        };
        let whole =
            matches!(fields, Fields::Except(s) | Fields::Only(s) if s.is_empty()) || !only_known;
        let rest: Vec<(usize, serde_json::Map<String, Value>)> = before
            .iter()
            .enumerate()
            .filter_map(|(i, row)| {
                let fields = match row {
                    Value::Object(m) => m
                        .iter()
                        .filter(|(k, v)| left_out(fields, k, only_known) || long(v))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                    // A row that is not a record was shown whole unless shortened.
                    other if whole || long(other) => {
                        std::iter::once(("value".to_owned(), other.clone())).collect()
                    }
                    _ => serde_json::Map::new(),
                };
                (!fields.is_empty()).then_some((i, fields))
            })
            .collect();
        let mut label = "row".to_owned();
        while rest.iter().any(|(_, f)| f.contains_key(&label)) {
            label.insert(0, '_');
        }
        rest.into_iter()
            .map(|(i, fields)| {
                let mut out = serde_json::Map::with_capacity(fields.len() + 1);
                out.insert(label.clone(), Value::from(i + 1));
                out.extend(fields);
                Value::Object(out)
            })
            .collect()
    }

    /// Per value shortening to `over` cuts, a record of its row (from 1), its column and the
    /// value: a text that it cuts, or an object or array whose JSON it cuts.
    fn each_value(&self, rows: &[Value]) -> Vec<Value> {
        let Some(over) = self.over else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let Value::Object(fields) = row else {
                if long_value(row, over) {
                    out.push(serde_json::json!({"row": i + 1, "value": row}));
                }
                continue;
            };
            for (column, value) in fields {
                if long_value(value, over) {
                    out.push(serde_json::json!({"row": i + 1, "column": column, "value": value}));
                }
            }
        }
        out
    }
}

/// Whether a table cell shortened to `max` characters is cut: a text, or an object or array
/// by its JSON (a value is cut only when the cut form, marker included, is shorter).
pub(super) fn long_value(v: &Value, max: usize) -> bool {
    match v {
        Value::String(s) => crate::text::shorten(s, max).is_some(),
        Value::Array(_) | Value::Object(_) => crate::text::shorten(&v.to_string(), max).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn long_texts_and_arrays_in_document_order() {
        let v = json!({
            "id": "x".repeat(70),
            "short": "y".repeat(50),
            "user": {"bio": "b".repeat(100)},
            "rows": [{"cell": "c".repeat(40)}],
            "tags": ["t"],
        });
        let mut out = Vec::new();
        long_parts(&v, 32, &mut String::new(), 0, &mut out);
        assert_eq!(out, ["/id", "/user/bio", "/rows"]);
    }

    #[test]
    fn shortened_values_are_named_by_row_and_column() {
        let short = Short::parse("2>5").unwrap();
        assert_eq!(
            short,
            Short {
                before: 2,
                over: Some(5),
                fields: None
            }
        );
        assert_eq!(short.row_cursor(7), "7;2>5");
        assert_eq!(short.value_cursor(0), "v0;2>5");
        let long = "abcdefg".repeat(3);
        let rows = [
            json!({"id": 1, "body": long, "tags": ["aaaaaaaaaa", "bbbbbbbbbb"]}),
            // Not cut: the cut form, marker included, would not be shorter.
            json!({"id": 2, "body": "abcdefghijklmn"}),
            json!({"id": 3, "body": "not shown before"}),
        ];
        assert_eq!(
            short.values(&rows),
            [
                json!({"row": 1, "column": "body", "value": long}),
                json!({"row": 1, "column": "tags", "value": ["aaaaaaaaaa", "bbbbbbbbbb"]}),
            ]
        );
        assert_eq!(Short::parse("2>"), None);
        assert_eq!(Short::parse("2"), None);
    }

    #[test]
    fn the_fields_a_text_did_not_show_are_named_by_row() {
        let short = Short::parse("2-id,a%2Cb").unwrap();
        assert_eq!(
            short.fields,
            Some(Fields::Except(vec!["id".to_owned(), "a,b".to_owned()]))
        );
        assert_eq!(short.over, None);
        assert_eq!(short.row_cursor(7), "7;2-id,a%2Cb");
        assert_eq!(short.value_cursor(1), "v1;2-id,a%2Cb");
        let rows = [
            json!({"id": 1, "a,b": "x", "state": "open", "owner": "ada"}),
            json!({"id": 2, "a,b": "y"}),
            json!({"id": 3, "state": "not shown before"}),
        ];
        assert_eq!(
            short.values(&rows),
            [json!({"row": 1, "state": "open", "owner": "ada"})]
        );
        // With values shortened too: the shown values that shortening cut come with them.
        let both = Short::parse("2>5-id,a%2Cb").unwrap();
        let rows = [json!({"id": 1, "a,b": "x".repeat(30), "row": 4})];
        assert_eq!(
            both.values(&rows),
            [json!({"_row": 1, "a,b": "x".repeat(30), "row": 4})]
        );
        assert_eq!(both.row_cursor(1), "1;2>5-id,a%2Cb");
        // Nothing known shown: the rows whole.
        let whole = Short::parse("1-").unwrap();
        assert_eq!(
            whole.values(&[json!({"id": 1})]),
            [json!({"row": 1, "id": 1})]
        );
        assert_eq!(whole.row_cursor(3), "3;1-");
        assert_eq!(Short::parse("1-a%2"), None);
        // Named by the fields left out: those (a path names its field), and the values cut.
        let only = Short::parse("2>5+state,user.login").unwrap();
        assert_eq!(only.row_cursor(4), "4;2>5+state,user.login");
        let rows = [
            json!({"id": 1, "state": "open", "user": {"login": "ada"}, "body": "x".repeat(30)}),
            json!({"id": 2, "title": "t"}),
        ];
        assert_eq!(
            only.values(&rows),
            [json!({"row": 1, "state": "open", "user": {"login": "ada"}, "body": "x".repeat(30)})]
        );
        // A name that is no field of any row: the rows whole.
        let unknown = Short::parse("1+nope").unwrap();
        assert_eq!(
            unknown.values(&[json!({"id": 1})]),
            [json!({"row": 1, "id": 1})]
        );
    }

    #[test]
    fn a_piece_ends_after_a_word() {
        let text = "alpha beta gamma delta";
        assert_eq!(piece_end(text, 0, 8), 6); // "alpha "
        assert_eq!(piece_end(text, 6, 5), 11); // "beta " (ends on the space)
        assert_eq!(piece_end(text, 6, 4), 11); // "beta" takes the space after it
        assert_eq!(piece_end(text, 0, 3), 3); // no space in the second half: cut inside
        assert_eq!(piece_end(text, 17, 99), 22); // the rest
        assert_eq!(piece_end(text, 30, 5), 30); // past the end: empty
    }
}
