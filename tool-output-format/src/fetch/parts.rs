//! The parts of a stored record that its text cut, and how a long text is served in pieces:
//! what the fetch tool walks after a record's own page (SPEC 19: every row, field and value the
//! first text cut is reachable).

use serde_json::Value;

use crate::call::report::Report;
use crate::cut::caps::SHORT_SCALAR;
use crate::doc::notice::Notice;

/// Deeper than this, a stored value is not searched for cut parts (its own page shows it).
const MAX_DEPTH: usize = 64;

/// The parts of the stored record `value` that its text (with `report`) cut, in the order the
/// walk serves them: JSON pointer and where the rest starts.
///
/// - the tables it cut, from the first row not shown (from the first row when the budget
///   shortened values: the rows pages never shorten one);
/// - when the budget shortened values, every other text and array outside those tables that
///   holds a value longer than the shortened length (a text from its first character);
/// - with none of those, the largest array when values were shortened.
pub(super) fn cut_parts(value: &Value, report: &Report) -> Vec<(String, usize)> {
    let mut parts = report.cut_tables.clone();
    let Some(max) = shortened_to(report) else {
        return parts;
    };
    parts.iter_mut().for_each(|(_, shown)| *shown = 0);
    let mut long = Vec::new();
    long_parts(value, max, &mut String::new(), 0, &mut long);
    for at in long {
        if !parts.iter().any(|(p, _)| *p == at) {
            parts.push((at, 0));
        }
    }
    if parts.is_empty() {
        parts.extend(largest_table(value));
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

/// The values the first text of a table shortened: those over `over` characters in the rows
/// before `before` (the cursor `"K;K>C"`: the rows from `K`, then the values over `C`
/// characters of the rows before `K`, see [`super::Fetch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Short {
    pub before: usize,
    pub over: usize,
}

impl Short {
    /// Reads `"K>C"`.
    pub fn parse(s: &str) -> Option<Self> {
        let (before, over) = s.split_once('>')?;
        Some(Short {
            before: before.parse().ok()?,
            over: over.parse().ok()?,
        })
    }

    /// The cursor of row `row`, then these values.
    pub fn row_cursor(self, row: usize) -> String {
        format!("{row};{}>{}", self.before, self.over)
    }

    /// The cursor of the `i`-th of these values.
    pub fn value_cursor(self, i: usize) -> String {
        format!("v{i};{}>{}", self.before, self.over)
    }

    /// These values of `rows`, in row order, each a record naming its row (from 1) and its
    /// column: a text that shortening to `over` characters cuts, or an object or array whose
    /// JSON it cuts.
    pub fn values(self, rows: &[Value]) -> Vec<Value> {
        let mut out = Vec::new();
        for (i, row) in rows.iter().take(self.before).enumerate() {
            let Value::Object(fields) = row else {
                if long_value(row, self.over) {
                    out.push(serde_json::json!({"row": i + 1, "value": row}));
                }
                continue;
            };
            for (column, value) in fields {
                if long_value(value, self.over) {
                    out.push(serde_json::json!({"row": i + 1, "column": column, "value": value}));
                }
            }
        }
        out
    }
}

/// Whether a table cell shortened to `max` characters is cut: a text, or an object or array
/// by its JSON (a value is cut only when the cut form, marker included, is shorter).
fn long_value(v: &Value, max: usize) -> bool {
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
        assert_eq!(short, Short { before: 2, over: 5 });
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
