//! The structured JSON form ([`Formatter::format_json`](crate::Formatter::format_json)): the
//! same shaped, capped document as the markdown, as a [`serde_json::Value`], with every cut
//! recorded in a `notices` array. For hosts that read structured content (MCP
//! `structuredContent`).
//!
//! # Shape
//!
//! ```json
//! {
//!   "result": [{"id": 1, "name": "Ada", "tags": ["a", "b"], "meta": {"k": 1}, "note": null}],
//!   "notices": [
//!     {"kind": "rows", "path": "", "kept": 100, "total": 1000,
//!      "text": "[Truncated to 100 rows of 1000 total]"}
//!   ]
//! }
//! ```
//!
//! - `result`: the value after caps and budgets. A table is an array of objects, one per
//!   kept row, keys in column order, every column in every row; cells keep their kind:
//!   numbers are JSON numbers (an integer beyond 64 bits is a string, as
//!   [`ToolOutput::to_json`](crate::ToolOutput::to_json) gives it), booleans booleans, an
//!   empty cell `null`, nested arrays and objects JSON again. A shortened value is a string
//!   ending with its `…[+N chars]` marker (a shortened nested value too: it is no longer
//!   JSON). A record is an object (its title is presentation and is left out), a list an
//!   array, a string result a string (cut by lines, each kept line ending in `\n`), a
//!   subtree cut at the depth limit the notice string in place. Redacted values are
//!   `"[redacted]"`. When nothing fits a budget, `result` is `null`.
//! - `notices`: every cut, in the order: the top-level cuts (what markdown prints first),
//!   then the cuts inside the result in document order (tables nested in records cut by the
//!   row cap, subtrees cut at the depth limit), then values shortened by `max_cell_chars` or
//!   a field's `max_chars` (which markdown marks only in place). Each notice is an object:
//!
//! | `kind` | other keys |
//! |---|---|
//! | `rows`, `fields`, `items` | `kept`, `total` |
//! | `lines` | `kept`, `total`, `strategy` (`head`, `tail`, `head_tail`) |
//! | `shortened` | `values`, `max_chars` (null when each value had its own limit) |
//! | `omitted` | `needed`, `budget`, `unit` (`chars`, `tokens`) |
//! | `depth` | `values` (null when not counted) |
//!
//!   and always `path` (an RFC 6901 JSON Pointer into `result` to the value that was cut:
//!   `""` is the whole result, `/orders` a field, `/3/items` a field of the fourth row) and
//!   `text` (the line markdown would print, or prints in place).
//!
//! The array is empty when nothing was cut, so "no notices" means "nothing cut".
//!
//! # Budgets
//!
//! `max_chars` and `max_tokens` measure this document serialized compactly
//! (`serde_json::to_string`), notices included, so the structured form meets the same
//! budget its text would.
//!
//! # Envelopes
//!
//! The agent envelope parts (a page footer, an error, a next action) are not data and are
//! never cut. They sit inside `result`, in the envelope's own JSON shape (see
//! `sink/json_envelope.rs`), with the data under its key: for a page
//! `{"result": {"items": [...], "has_more": true, "next_cursor": "c2", "next": {...}},
//! "notices": [{"kind": "rows", "path": "/items", ...}]}`, for an error
//! `{"result": {"error": {"kind": "not_found", "message": "...", "retryable": false}},
//! "notices": []}`. The notices' paths point into the envelope's data (`/items` for a page's
//! rows, `/result` for a reply's). A focused result (`focus(q).format_json`) starts its
//! notices with one of kind `focus` (its `text` the line markdown prints). When the agent
//! preset's folding shape left fields out, the notices end with one of kind `left_out` whose
//! `text` is the left-out line (with the detail call: the structured form never stores).

use serde_json::{Map, Number, Value};

use super::{Document, Sink};
use crate::doc::notice::Notice;
use crate::doc::{Kind, Node, Table};
use crate::sink::notice::depth as depth_notice;

/// The structured sink, as text: the compact serialization of [`to_value`], which is what
/// budgets measure. `max_chars` is the value cap (`max_cell_chars`) in force.
pub(crate) struct Json {
    pub max_chars: Option<usize>,
}

impl Sink for Json {
    fn render(&self, doc: &Document<'_, '_>) -> String {
        // Values shortened by the caps carry no notice in the document: count the cut
        // markers instead. Every cut piece ends with one, so this is never fewer than the
        // exact count the final form uses, and the measured text never shorter.
        let shortened = Shortened {
            values: count_marked(doc.body),
            max_chars: self.max_chars,
        };
        to_value(doc, shortened).to_string()
    }
}

/// Values shortened by the caps (not by a budget, whose cut is a notice already).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Shortened {
    pub values: usize,
    pub max_chars: Option<usize>,
}

/// The structured form of a document (see the [module docs](self)).
pub(crate) fn to_value(doc: &Document<'_, '_>, shortened: Shortened) -> Value {
    // The top-level cuts are cuts of the innermost envelope's data: `/items` for a page.
    let mut base = String::new();
    let mut at = doc.body;
    while let Node::Envelope(e) = at {
        if let Some(key) = e.body_key() {
            base.push('/');
            base.push_str(key);
        }
        match e.body() {
            Some(b) => at = b,
            None => break,
        }
    }
    let mut w = Writer {
        notices: doc.notices.iter().map(|n| notice(n, &base)).collect(),
        path: String::new(),
        extra: Map::new(),
    };
    let result = w.node(doc.body, true);
    let budget_cut = doc
        .notices
        .iter()
        .any(|n| matches!(n, Notice::Shortened { .. }));
    if shortened.values > 0 && !budget_cut {
        w.notices.push(cap_shortened(shortened));
    }
    let mut top = Map::new();
    top.insert("result".into(), result);
    top.insert("notices".into(), Value::Array(w.notices));
    top.append(&mut w.extra);
    Value::Object(top)
}

/// Writes nodes as JSON values, collecting the cuts it meets on the way.
/// Put the focus line first among the notices (kind `focus`, path `""`).
pub(crate) fn push_focus_notice(v: &mut Value, line: String) {
    if let Some(Value::Array(notices)) = v.get_mut("notices") {
        let mut m = Map::new();
        m.insert("kind".into(), "focus".into());
        m.insert("path".into(), "".into());
        m.insert("text".into(), line.into());
        notices.insert(0, Value::Object(m));
    }
}

/// The agent preset's left-out line as a notice of kind `left_out` (last), so the structured
/// form names what the folding shape took out, as the text does.
pub(crate) fn push_left_out_notice(v: &mut Value, line: String) {
    if let Some(Value::Array(notices)) = v.get_mut("notices") {
        let mut m = Map::new();
        m.insert("kind".into(), "left_out".into());
        m.insert("path".into(), "".into());
        m.insert("text".into(), line.into());
        notices.push(Value::Object(m));
    }
}

pub(crate) struct Writer {
    /// Every notice so far.
    notices: Vec<Value>,
    /// JSON Pointer of the value being written.
    path: String,
    /// Keys beside `result` (envelope parts).
    extra: Map<String, Value>,
}

impl Writer {
    /// The JSON of one node. `top` for the result itself (whose cuts the document's notices
    /// already hold).
    pub(crate) fn node(&mut self, node: &Node<'_>, top: bool) -> Value {
        match node {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(n) => number(n),
            Node::Str(s) => Value::String(s.to_string()),
            Node::List(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.at(&i.to_string(), |w| w.node(item, false)))
                    .collect(),
            ),
            Node::Record(r) => Value::Object(
                r.fields
                    .iter()
                    .map(|f| {
                        let v = self.at(&f.name, |w| w.node(&f.value, false));
                        (f.name.to_string(), v)
                    })
                    .collect(),
            ),
            Node::Table(t) => {
                if !top && t.total_rows() > t.rows() {
                    let cut = Notice::Rows {
                        kept: t.rows(),
                        total: t.total_rows(),
                    };
                    self.notices.push(notice(&cut, &self.path));
                }
                table(t)
            }
            Node::DepthCut(values) => {
                let text = depth_notice(*values);
                let mut m = Map::new();
                m.insert("kind".into(), "depth".into());
                m.insert("path".into(), self.path.clone().into());
                m.insert("values".into(), values.map_or(Value::Null, Value::from));
                m.insert("text".into(), text.clone().into());
                self.notices.push(Value::Object(m));
                Value::String(text)
            }
            // A page, error, batch or reply: its parts beside its body, in the shape of
            // `Envelope::to_json`.
            Node::Envelope(e) => {
                let body = e.body().map(|b| match e.body_key() {
                    Some(key) => self.at(key, |w| w.node(b, top)),
                    None => self.node(b, top),
                });
                e.to_json(body, e.kept(e.body()))
            }
        }
    }

    /// Put a part of an envelope beside `result` (for the envelope arm of [`node`](Self::node)).
    #[allow(dead_code)]
    pub(crate) fn extra(&mut self, key: &str, value: Value) {
        self.extra.insert(key.to_owned(), value);
    }

    /// Run `f` with the path one segment deeper.
    fn at(&mut self, segment: &str, f: impl FnOnce(&mut Self) -> Value) -> Value {
        let len = self.path.len();
        crate::text::push_pointer_segment(&mut self.path, segment);
        let v = f(self);
        self.path.truncate(len);
        v
    }
}

/// A table as an array of objects, cells by kind.
fn table(t: &Table<'_>) -> Value {
    let cols = t.columns();
    let mut cells = t.cells().zip(t.kinds());
    let rows = (0..t.rows())
        .map(|_| {
            let row: Map<String, Value> = cols
                .iter()
                .zip(cells.by_ref())
                .map(|(name, (text, kind))| (name.to_string(), cell(text, *kind)))
                .collect();
            Value::Object(row)
        })
        .collect();
    Value::Array(rows)
}

/// One cell's value, by its kind.
fn cell(text: &str, kind: Kind) -> Value {
    match kind {
        Kind::Null => Value::Null,
        Kind::Bool => Value::Bool(text == "true"),
        Kind::Number => number(text),
        // A nested value written as JSON; a shortened one no longer parses and stays text.
        Kind::Json => serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.into())),
        // Text, and a joined list from a table built outside `format_json` (its build writes
        // lists as JSON).
        _ => Value::String(text.into()),
    }
}

/// A number's text (as `serde_json` writes it) as a JSON number. Integers beyond 64 bits are
/// strings, as `ToolOutput::to_json` gives them for `i128` / `u128`.
fn number(text: &str) -> Value {
    if !text.contains(['.', 'e', 'E']) {
        if let Ok(u) = text.parse::<u64>() {
            return Value::from(u);
        }
        if let Ok(i) = text.parse::<i64>() {
            return Value::from(i);
        }
        return Value::String(text.into());
    }
    text.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map_or_else(|| Value::String(text.into()), Value::Number)
}

/// A notice as an object (see the [module docs](self) for the keys).
pub(crate) fn notice(n: &Notice, path: &str) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.into(), v);
    };
    let kind = match *n {
        Notice::Rows { .. } => "rows",
        Notice::Lines { .. } => "lines",
        Notice::Fields { .. } => "fields",
        Notice::Items { .. } => "items",
        Notice::Shortened { .. } => "shortened",
        Notice::Nested { .. } => "nested",
        Notice::Omitted { .. } => "omitted",
    };
    put("kind", kind.into());
    put("path", path.into());
    match *n {
        Notice::Rows { kept, total }
        | Notice::Fields { kept, total }
        | Notice::Items { kept, total } => {
            put("kept", kept.into());
            put("total", total.into());
        }
        Notice::Lines {
            kept,
            total,
            strategy,
        } => {
            put("kept", kept.into());
            put("total", total.into());
            put("strategy", strategy.as_str().into());
        }
        Notice::Shortened { values, max_chars } => {
            put("values", values.into());
            put("max_chars", max_chars.into());
        }
        Notice::Nested { parts, kept } => {
            put("parts", parts.into());
            put("kept", kept.into());
        }
        Notice::Omitted {
            total,
            what,
            needed,
            budget,
            unit,
        } => {
            put("total", total.into());
            put("what", what.into());
            put("needed", needed.into());
            put("budget", budget.into());
            put("unit", unit.as_str().into());
        }
    }
    put("text", n.to_string().into());
    Value::Object(m)
}

/// The notice for values the caps shortened.
fn cap_shortened(s: Shortened) -> Value {
    let text = super::notice::cap_shortened_line(s.values, s.max_chars);
    let mut m = Map::new();
    m.insert("kind".into(), "shortened".into());
    m.insert("path".into(), "".into());
    m.insert("values".into(), s.values.into());
    m.insert("max_chars".into(), s.max_chars.into());
    m.insert("text".into(), text.into());
    Value::Object(m)
}

/// How many values or lines of a node end with a cut marker (`…[+N chars]`).
pub(crate) fn count_marked(node: &Node<'_>) -> usize {
    match node {
        Node::Str(s) => crate::text::lines(s).filter(|l| is_marked(l)).count(),
        Node::List(items) => items.iter().map(count_marked).sum(),
        Node::Record(r) => r.fields.iter().map(|f| count_marked(&f.value)).sum(),
        Node::Table(t) => t
            .cells()
            .zip(t.kinds())
            .filter(|(c, k)| k.may_shorten() && is_marked(c))
            .count(),
        Node::Envelope(e) => e.body().map_or(0, count_marked),
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::DepthCut(_) => 0,
    }
}

/// True when `s` ends with `…[+N chars]`.
fn is_marked(s: &str) -> bool {
    let Some(rest) = s.strip_suffix(" chars]") else {
        return false;
    };
    let digits = rest.bytes().rev().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[..rest.len() - digits].ends_with("…[+")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_kind() {
        assert_eq!(number("7"), Value::from(7u64));
        assert_eq!(number("-7"), Value::from(-7i64));
        assert_eq!(number("1.5"), serde_json::json!(1.5));
        assert_eq!(number("1e20"), serde_json::json!(1e20));
        assert_eq!(
            number("340282366920938463463374607431768211455"),
            Value::String("340282366920938463463374607431768211455".into())
        );
    }

    #[test]
    fn markers_are_recognised() {
        assert!(is_marked("abc…[+12 chars]"));
        assert!(!is_marked("abc[+12 chars]"));
        assert!(!is_marked("abc…[+ chars]"));
    }

    #[test]
    fn pointer_segments_are_escaped() {
        let mut w = Writer {
            notices: Vec::new(),
            path: String::new(),
            extra: Map::new(),
        };
        w.at("a/b~c", |w| {
            assert_eq!(w.path, "/a~1b~0c");
            Value::Null
        });
        assert_eq!(w.path, "");
    }
}
