//! A tree as an indented outline of names: data whose items hold only a name, a
//! kind and their children (a directory tree: `{"name": "src", "type": "directory",
//! "children": [...]}`) reads best as the outline a person would draw, one name per line, two
//! spaces per level, rather than a table whose cells hold the nested levels as JSON text.
//!
//! Only such trees are outlined: an item with any other field (a size, an id), or a name
//! or kind holding a line break, stays data, rendered as usual, so the outline says every
//! value and reads back as the tree.

use serde_json::{Map, Value};

/// Deeper than this, a tree is left as data.
const MAX_DEPTH: usize = 64;

/// The outline of `value` when it is a tree (a list of items, or one item, each with a
/// string `name`, an optional string `type` or `kind`, an optional list of such items under
/// `children`, and nothing else; at least one item has children): one line per item, its
/// name and its kind in parentheses, indented two spaces per level.
///
/// `[{"name": "src", "type": "directory", "children": [{"name": "main.rs", "type":
/// "file"}]}]` is
///
/// ```text
/// src (directory)
///   main.rs (file)
/// ```
pub fn outline(value: &Value) -> Option<String> {
    let items: &[Value] = match value {
        Value::Array(items) => items,
        Value::Object(_) => std::slice::from_ref(value),
        _ => return None,
    };
    if items.is_empty() || !has_children(items) {
        return None;
    }
    let mut out = String::new();
    write_items(items, 0, &mut out)?;
    out.pop(); // the last line break
    Some(out)
}

/// Whether an item of `items` has a non-empty list of children.
fn has_children(items: &[Value]) -> bool {
    items.iter().any(|item| {
        item.get("children")
            .and_then(Value::as_array)
            .is_some_and(|c| !c.is_empty())
    })
}

/// The lines of `items` at `depth`, or `None` when one of them is not a tree item.
fn write_items(items: &[Value], depth: usize, out: &mut String) -> Option<()> {
    if depth >= MAX_DEPTH {
        return None;
    }
    for item in items {
        let (name, kind, children) = parts(item.as_object()?)?;
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str(name);
        if let Some(kind) = kind {
            out.push_str(" (");
            out.push_str(kind);
            out.push(')');
        }
        out.push('\n');
        write_items(children, depth + 1, out)?;
    }
    Some(())
}

/// An item's name, kind and children, or `None` when it has another field or a name or
/// kind that would not stay on its line.
fn parts(item: &Map<String, Value>) -> Option<(&str, Option<&str>, &[Value])> {
    let one_line = |s: &str| !s.contains(['\n', '\r']);
    let mut name = None;
    let mut kind = None;
    let mut children: &[Value] = &[];
    for (k, v) in item {
        match (k.as_str(), v) {
            ("name", Value::String(s)) if one_line(s) => name = Some(s.as_str()),
            ("type" | "kind", Value::String(s)) if kind.is_none() && one_line(s) => {
                kind = Some(s.as_str());
            }
            ("children", Value::Array(c)) => children = c,
            _ => return None,
        }
    }
    Some((name?, kind, children))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_directory_tree_is_an_outline_of_names() {
        let tree = json!([
            {"name": "src", "type": "directory", "children": [
                {"name": "main.rs", "type": "file"},
                {"name": "proxy", "type": "directory", "children": [
                    {"name": "raw.rs", "type": "file"}
                ]}
            ]},
            {"name": "Cargo.toml", "type": "file"}
        ]);
        assert_eq!(
            outline(&tree).unwrap(),
            "src (directory)\n  main.rs (file)\n  proxy (directory)\n    raw.rs (file)\n\
             Cargo.toml (file)"
        );
        // One root item, and items without a kind.
        let one = json!({"name": "a", "children": [{"name": "b"}]});
        assert_eq!(outline(&one).unwrap(), "a\n  b");
    }

    #[test]
    fn items_with_other_fields_or_no_children_stay_data() {
        let sized = json!([{"name": "a", "children": [{"name": "b", "size": 3}]}]);
        assert_eq!(outline(&sized), None);
        let flat = json!([{"name": "a", "type": "file"}, {"name": "b", "type": "file"}]);
        assert_eq!(outline(&flat), None);
        assert_eq!(outline(&json!([])), None);
        assert_eq!(outline(&json!("text")), None);
        let nameless = json!([{"type": "dir", "children": [{"name": "b"}]}]);
        assert_eq!(outline(&nameless), None);
    }

    #[test]
    fn a_name_with_a_line_break_stays_data() {
        let tree = json!([{"name": "a\nb", "children": [{"name": "c"}]}]);
        assert_eq!(outline(&tree), None);
    }

    #[test]
    fn a_tree_deeper_than_the_limit_stays_data() {
        let mut v = json!({"name": "leaf"});
        for i in 0..100 {
            v = json!({"name": format!("n{i}"), "children": [v]});
        }
        assert_eq!(outline(&v), None);
    }
}
