//! A compact JSON writer with bounded depth, byte-identical to `serde_json::to_string` for
//! values nested less than [`MAX_DEPTH`] deep.
//!
//! `serde_json`'s own serializer recurses once per level, so a hostile 100,000-deep value
//! would overflow the stack; this writer stops at the depth limit and writes an announced
//! placeholder string instead.

use serde_json::{Number, Value};

use crate::doc::MAX_DEPTH;

/// Append `v` as compact JSON.
///
/// ```
/// use tool_output_format::source::json::write_compact;
/// let v = serde_json::json!({"a": [1, "x"], "b": null});
/// let mut s = String::new();
/// write_compact(&v, &mut s);
/// assert_eq!(s, serde_json::to_string(&v).unwrap());
/// ```
pub fn write_compact(v: &Value, out: &mut String) {
    write_at(v, 0, out);
}

/// Append a slice of values as a compact JSON array (the same text as `write_compact` of a
/// `Value::Array` holding them, without building one).
pub fn write_array(items: &[Value], out: &mut String) {
    write_items(items, 0, out);
}

fn write_items(items: &[Value], depth: usize, out: &mut String) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_at(item, depth + 1, out);
    }
    out.push(']');
}

fn write_at(v: &Value, depth: usize, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_str(s, out),
        Value::Array(_) | Value::Object(_) if depth >= MAX_DEPTH => {
            write_str(&depth_notice(count_values(v)), out);
        }
        Value::Array(items) => write_items(items, depth, out),
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(k, out);
                out.push(':');
                if crate::redact::is_active_secret(k) {
                    write_str(crate::redact::REDACTED, out);
                } else {
                    write_at(item, depth + 1, out);
                }
            }
            out.push('}');
        }
    }
}

/// Append a number exactly as serde_json writes it.
pub fn write_number(n: &Number, out: &mut String) {
    if let Some(i) = n.as_u64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else if let Some(i) = n.as_i64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else {
        use std::fmt::Write;
        let _ = write!(out, "{n}");
    }
}

/// Append a JSON string literal (quotes and escapes as serde_json writes them).
pub fn write_str(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// The text that stands for a subtree cut at the depth limit.
///
/// ```
/// assert_eq!(
///     tool_output_format::source::json::depth_notice(3),
///     "[Truncated at depth 32: 3 nested values omitted]"
/// );
/// ```
pub fn depth_notice(values: usize) -> String {
    format!("[Truncated at depth {MAX_DEPTH}: {values} nested values omitted]")
}

/// Count the values in a subtree without recursion (so any depth is safe).
pub fn count_values(v: &Value) -> usize {
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
