//! The cell rules: how one value becomes the text of a table cell.
//!
//! | value | cell text |
//! |---|---|
//! | null / `None` | empty |
//! | bool, number | as serde_json writes it (`true`, `1.0`, `1e20`) |
//! | string | the string |
//! | empty array / object | `[]` / `{}` |
//! | array of strings, numbers and bools | the items joined by `, ` |
//! | any other array or object | compact JSON (key order kept) |
//!
//! Record fields follow the same rules for scalars; nested objects and lists of records
//! become sub-bullets and tables instead (see the crate docs).

use serde_json::Value;

use super::json;

/// Append the cell text of a JSON value.
///
/// ```
/// use tool_output_format::source::cell::write_value;
/// let mut s = String::new();
/// write_value(&serde_json::json!(["a", 1, true]), &mut s);
/// assert_eq!(s, "a, 1, true");
/// ```
pub fn write_value(v: &Value, out: &mut String) {
    match v {
        Value::Null => {}
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => json::write_number(n, out),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => write_array(items, out),
        Value::Object(_) => json::write_compact(v, out),
    }
}

/// Append the cell text of an array: `[]`, the items joined by `, `, or compact JSON.
///
/// ```
/// use tool_output_format::source::cell::write_array;
/// let mut s = String::new();
/// write_array(&[serde_json::json!(1), serde_json::json!(null)], &mut s);
/// assert_eq!(s, "[1,null]");
/// ```
pub fn write_array(items: &[Value], out: &mut String) {
    if items.is_empty() {
        out.push_str("[]");
    } else if items.iter().all(is_plain_scalar) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_value(item, out);
        }
    } else {
        json::write_array(items, out);
    }
}

/// True for strings, numbers and booleans (the values an array may hold to print joined).
pub fn is_plain_scalar(v: &Value) -> bool {
    matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_))
}
