//! A stored record served in runs of its leaves: when a record's page leaves fields out, the
//! fetch serves the record again in parts, each the fields of a run of its leaves in document
//! order (cursor `@K`: from the `K`-th leaf), so following the Next lines reaches every field,
//! nested objects included (SPEC 22, "the rest").
//!
//! A leaf is a value that is not a non-empty object: a scalar, a list, an empty object. Objects
//! nested deeper than [`MAX_DEPTH`] are leaves too.

use std::ops::Range;

use serde_json::{Map, Value};

/// Deeper than this, an object is a leaf (served whole as one field).
const MAX_DEPTH: usize = 64;

/// How many leaves `value` has (0 for a value that is not an object).
pub(super) fn count(value: &Value) -> usize {
    fn walk(m: &Map<String, Value>, depth: usize) -> usize {
        m.values()
            .map(|v| match v {
                Value::Object(inner) if !inner.is_empty() && depth < MAX_DEPTH => {
                    walk(inner, depth + 1)
                }
                _ => 1,
            })
            .sum()
    }
    match value {
        Value::Object(m) => walk(m, 0),
        _ => 0,
    }
}

/// `value` with only the leaves in `range` (by their document order), under their objects.
pub(super) fn pruned(value: &Value, range: Range<usize>) -> Value {
    fn walk(
        m: &Map<String, Value>,
        depth: usize,
        i: &mut usize,
        range: &Range<usize>,
        out: &mut Map<String, Value>,
    ) {
        for (k, v) in m {
            if *i >= range.end {
                return;
            }
            match v {
                Value::Object(inner) if !inner.is_empty() && depth < MAX_DEPTH => {
                    let mut sub = Map::new();
                    walk(inner, depth + 1, i, range, &mut sub);
                    if !sub.is_empty() {
                        out.insert(k.clone(), Value::Object(sub));
                    }
                }
                _ => {
                    if range.contains(i) {
                        out.insert(k.clone(), v.clone());
                    }
                    *i += 1;
                }
            }
        }
    }
    let mut out = Map::new();
    if let Value::Object(m) = value {
        walk(m, 0, &mut 0, &range, &mut out);
    }
    Value::Object(out)
}

/// The JSON pointer of the `k`-th leaf and its value.
pub(super) fn nth(value: &Value, k: usize) -> Option<(String, &Value)> {
    fn walk<'v>(
        m: &'v Map<String, Value>,
        depth: usize,
        k: &mut usize,
        path: &mut String,
    ) -> Option<&'v Value> {
        for (key, v) in m {
            let len = path.len();
            crate::text::push_pointer_segment(path, key);
            match v {
                Value::Object(inner) if !inner.is_empty() && depth < MAX_DEPTH => {
                    let n = count(v);
                    if *k < n {
                        return walk(inner, depth + 1, k, path);
                    }
                    *k -= n;
                }
                _ if *k == 0 => return Some(v),
                _ => *k -= 1,
            }
            path.truncate(len);
        }
        None
    }
    let Value::Object(m) = value else { return None };
    let mut path = String::new();
    let v = walk(m, 0, &mut { k }, &mut path)?;
    Some((path, v))
}

/// The index of the leaf that holds the JSON pointer `at` (the leaf itself or a value inside
/// it), if any.
pub(super) fn holding(value: &Value, at: &str) -> Option<usize> {
    fn walk(
        m: &Map<String, Value>,
        depth: usize,
        i: &mut usize,
        path: &mut String,
        at: &str,
    ) -> Option<usize> {
        for (k, v) in m {
            let len = path.len();
            crate::text::push_pointer_segment(path, k);
            let inside = at == path.as_str()
                || (at.starts_with(path.as_str()) && at.as_bytes().get(path.len()) == Some(&b'/'));
            let found = match v {
                Value::Object(inner) if !inner.is_empty() && depth < MAX_DEPTH => {
                    if inside {
                        walk(inner, depth + 1, i, path, at)
                    } else {
                        *i += count(v);
                        None
                    }
                }
                _ if inside => Some(*i),
                _ => {
                    *i += 1;
                    None
                }
            };
            path.truncate(len);
            if found.is_some() {
                return found;
            }
        }
        None
    }
    match value {
        Value::Object(m) => walk(m, 0, &mut 0, &mut String::new(), at),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record() -> Value {
        json!({"id": 1, "owner": {"login": "ada", "site": {"url": "u"}, "tags": []},
               "meta": {}, "items": [{"a": 1}], "name": "x"})
    }

    #[test]
    fn leaves_are_counted_in_document_order() {
        assert_eq!(count(&record()), 7);
        assert_eq!(count(&json!([1, 2])), 0);
        assert_eq!(count(&json!({})), 0);
    }

    #[test]
    fn a_run_keeps_its_leaves_under_their_objects() {
        let v = record();
        assert_eq!(
            pruned(&v, 0..2),
            json!({"id": 1, "owner": {"login": "ada"}})
        );
        assert_eq!(
            pruned(&v, 2..5),
            json!({"owner": {"site": {"url": "u"}, "tags": []}, "meta": {}})
        );
        assert_eq!(pruned(&v, 5..7), json!({"items": [{"a": 1}], "name": "x"}));
        // The runs together are the record.
        let mut joined = pruned(&v, 0..3);
        for (k, x) in pruned(&v, 3..7).as_object().unwrap() {
            match (joined.get_mut(k), x) {
                (Some(Value::Object(a)), Value::Object(b)) => a.extend(b.clone()),
                _ => {
                    joined[k] = x.clone();
                }
            }
        }
        assert_eq!(joined, v);
    }

    #[test]
    fn the_leaf_holding_a_pointer_is_found() {
        let v = record();
        assert_eq!(holding(&v, "/items"), Some(5));
        assert_eq!(holding(&v, "/items/0"), Some(5));
        assert_eq!(holding(&v, "/owner/site/url"), Some(2));
        assert_eq!(holding(&v, "/owner/tags"), Some(3));
        assert_eq!(holding(&v, "/name"), Some(6));
        assert_eq!(holding(&v, "/nam"), None);
        assert_eq!(holding(&v, "/owner"), None);
    }

    #[test]
    fn the_nth_leaf_is_found_with_its_pointer() {
        let v = json!({"id": 1, "owner": {"login": "ada", "a/b": {"u": 2}}, "items": [3]});
        assert_eq!(nth(&v, 0), Some(("/id".to_owned(), &json!(1))));
        assert_eq!(nth(&v, 2), Some(("/owner/a~1b/u".to_owned(), &json!(2))));
        assert_eq!(nth(&v, 3), Some(("/items".to_owned(), &json!([3]))));
        assert_eq!(nth(&v, 4), None);
        for k in 0..4 {
            let (at, _) = nth(&v, k).unwrap();
            assert_eq!(holding(&v, &at), Some(k));
        }
    }

    #[test]
    fn deep_objects_are_leaves() {
        let mut v = json!(1);
        for _ in 0..100 {
            v = json!({ "a": v });
        }
        assert_eq!(count(&v), 1);
        assert_eq!(pruned(&v, 0..1), v);
    }
}
