//! A compact JSON writer with bounded depth, byte-identical to `serde_json::to_string` for
//! values nested less than [`MAX_DEPTH`] deep.
//!
//! `serde_json`'s own serializer recurses once per level, so a hostile 100,000-deep value
//! would overflow the stack; this writer stops at the depth limit and writes an announced
//! placeholder string instead.

use serde_json::{Number, Value};

use crate::doc::Envelope;
use crate::doc::{Kind, MAX_DEPTH, Node};
use crate::rules::redact::{REDACTED, Secrets};
use crate::shape::{Fields, Shaped};
use crate::sink::notice::depth as depth_notice;

/// Append `v` as compact JSON; values under secret keys are written as `"[redacted]"`.
pub(crate) fn write_compact(v: &Value, secrets: &Secrets, out: &mut String) {
    write_at(v, 0, secrets, out);
}

/// Append a slice of values as a compact JSON array (the same text as `write_compact` of a
/// `Value::Array` holding them, without building one).
pub(crate) fn write_array(items: &[Value], secrets: &Secrets, out: &mut String) {
    write_items(items, 0, secrets, out);
}

fn write_items(items: &[Value], depth: usize, secrets: &Secrets, out: &mut String) {
    write_list(items, out, |item, out| {
        write_at(item, depth + 1, secrets, out)
    });
}

/// Append `[a,b,...]`, each item written by `item`.
fn write_list<T>(
    items: impl IntoIterator<Item = T>,
    out: &mut String,
    mut item: impl FnMut(T, &mut String),
) {
    out.push('[');
    for (i, v) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item(v, out);
    }
    out.push(']');
}

/// Append `{"key":value,...}`, each value written by `item`, or `"[redacted]"` under a
/// secret key.
fn write_object<'k, V>(
    entries: impl Iterator<Item = (&'k str, V)>,
    secrets: &Secrets,
    out: &mut String,
    mut item: impl FnMut(V, &mut String),
) {
    out.push('{');
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(k, out);
        out.push(':');
        if secrets.matches(k) {
            write_str(REDACTED, out);
        } else {
            item(v, out);
        }
    }
    out.push('}');
}

fn write_at(v: &Value, depth: usize, secrets: &Secrets, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_str(s, out),
        Value::Array(_) | Value::Object(_) if depth >= MAX_DEPTH => {
            write_str(&depth_notice(Some(count_values(v))), out);
        }
        Value::Array(items) => write_items(items, depth, secrets, out),
        Value::Object(map) => {
            let entries = map.iter().map(|(k, v)| (k.as_str(), v));
            write_object(entries, secrets, out, |v, out| {
                write_at(v, depth + 1, secrets, out);
            });
        }
    }
}

/// Append shaped fields as a compact JSON object: the text [`write_compact`] writes for the
/// object they stand for, without building it (the input's own values are written where
/// they are).
pub(crate) fn write_fields(fields: &Fields<'_>, secrets: &Secrets, out: &mut String) {
    write_fields_at(fields, 0, secrets, out);
}

/// Append shaped rows as a compact JSON array of objects (see [`write_fields`]).
pub(crate) fn write_rows(rows: &[Fields<'_>], secrets: &Secrets, out: &mut String) {
    write_rows_at(rows, 0, secrets, out);
}

fn write_shaped_at(v: &Shaped<'_>, depth: usize, secrets: &Secrets, out: &mut String) {
    match v {
        Shaped::Value(v) => write_at(v, depth, secrets, out),
        Shaped::Record(fields) => write_fields_at(fields, depth, secrets, out),
        Shaped::Rows(rows) => write_rows_at(rows, depth, secrets, out),
    }
}

fn write_fields_at(fields: &Fields<'_>, depth: usize, secrets: &Secrets, out: &mut String) {
    if depth >= MAX_DEPTH {
        // Past the limit: the placeholder counts the values, as for the built object.
        let v = Value::Object(crate::shape::fields_map(fields));
        return write_at(&v, depth, secrets, out);
    }
    let entries = fields.iter().map(|(k, v)| (k.as_ref(), v));
    write_object(entries, secrets, out, |v, out| {
        write_shaped_at(v, depth + 1, secrets, out);
    });
}

fn write_rows_at(rows: &[Fields<'_>], depth: usize, secrets: &Secrets, out: &mut String) {
    if depth >= MAX_DEPTH {
        return write_at(&crate::shape::rows_of(rows), depth, secrets, out);
    }
    write_list(rows, out, |row, out| {
        write_fields_at(row, depth + 1, secrets, out)
    });
}

/// Append a node as compact JSON (the text `serde_json` writes for the value it came from).
/// Nodes are bounded in depth by their sources, so the recursion is bounded too.
pub(crate) fn write_node(node: &Node<'_>, secrets: &Secrets, out: &mut String) {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => out.push_str(n),
        Node::Str(s) => write_str(s, out),
        Node::DepthCut(n) => write_str(&depth_notice(*n), out),
        Node::Envelope(e) => write_envelope(e, secrets, out),
        Node::List(items) => write_list(items, out, |item, out| write_node(item, secrets, out)),
        Node::Record(r) => {
            let entries = r.fields.iter().map(|f| (&*f.name, &f.value));
            write_object(entries, secrets, out, |v, out| write_node(v, secrets, out));
        }
        Node::Table(t) => {
            let cols = t.columns();
            write_list(0..t.rows(), out, |row, out| {
                let entries = cols.iter().enumerate().map(|(c, name)| (&**name, c));
                write_object(entries, secrets, out, |c, out| {
                    let (text, kind) = t.cell(row, c);
                    match kind {
                        Kind::Null => out.push_str("null"),
                        Kind::Bool | Kind::Number | Kind::Json => out.push_str(text),
                        _ => write_str(text, out),
                    }
                });
            });
        }
    }
}

/// Append a number exactly as `serde_json` writes it.
pub(crate) fn write_number(n: &Number, out: &mut String) {
    if let Some(i) = n.as_u64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else if let Some(i) = n.as_i64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else if let Some(f) = n.as_f64()
        // The float's own text (it is, unless serde_json keeps numbers as their source
        // text, `arbitrary_precision`: then the text it keeps is written).
        && Number::from_f64(f).as_ref() == Some(n)
    {
        out.push_str(zmij::Buffer::new().format_finite(f));
    } else {
        use std::fmt::Write;
        let _ = write!(out, "{n}");
    }
}

/// What a JSON string writes for each byte: `0` the byte itself, `u` a `\u00XX` escape, any
/// other the letter after its backslash (as `serde_json` escapes).
const JSON_ESCAPE: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t
};

/// Append a JSON string literal (quotes and escapes as `serde_json` writes them). Words of
/// eight bytes with nothing to escape are passed over whole, the other bytes looked up in
/// [`JSON_ESCAPE`]; the runs between escapes are copied whole.
pub(crate) fn write_str(s: &str, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if i + 8 <= bytes.len() && crate::text::json_plain_word(&bytes[i..i + 8]) {
            i += 8;
            continue;
        }
        let b = bytes[i];
        let esc = JSON_ESCAPE[b as usize];
        if esc == 0 {
            i += 1;
            continue;
        }
        out.push_str(&s[start..i]);
        if esc == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push('\\');
            out.push(char::from(esc));
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Count the values in a subtree without recursion (so any depth is safe).
pub(crate) fn count_values(v: &Value) -> usize {
    let mut stack = vec![v];
    let mut n = 0usize;
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    n
}

/// Append an envelope nested in a cell as compact JSON (the shape of [`Envelope::to_json`]).
fn write_envelope(e: &Envelope<'_>, secrets: &Secrets, out: &mut String) {
    let body = e.body().map(|b| {
        let mut text = String::new();
        write_node(b, secrets, &mut text);
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    });
    let value = e.to_json(body, e.kept(e.body()));
    write_compact(&value, secrets, out);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The word-at-a-time string writer writes what `serde_json` writes.
        #[test]
        fn write_str_writes_what_serde_json_writes(
            parts in prop::collection::vec(
                prop::sample::select(vec![
                    "a", "abcdefgh", " ", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{1}",
                    "\u{1f}", "\u{7f}", "é", "\u{2028}", "👍",
                ]),
                0..24,
            ),
        ) {
            let s = parts.concat();
            let mut out = String::new();
            super::write_str(&s, &mut out);
            prop_assert_eq!(out, serde_json::to_string(&s).unwrap());
        }

        /// Numbers are written as `serde_json` writes them.
        #[test]
        fn write_number_writes_what_serde_json_writes(
            f in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
            i in any::<i64>(),
            u in any::<u64>(),
        ) {
            for n in [serde_json::Number::from_f64(f), Some(i.into()), Some(u.into())].into_iter().flatten() {
                let mut out = String::new();
                super::write_number(&n, &mut out);
                prop_assert_eq!(out, serde_json::to_string(&n).unwrap());
            }
        }
    }
}
