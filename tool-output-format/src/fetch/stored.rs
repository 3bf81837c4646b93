//! What a stored value is served as ([`Stored`]): rows (of a list, or of a stored page with
//! what follows it), a text, or a whole value; and which rows a query's words match.

use serde_json::{Map, Value};

use crate::doc::agent::NextAction;

/// A stored value split for serving: rows (and the call that continues after the last), or
/// a value served whole.
pub(super) enum Stored {
    Rows(Vec<Value>, Option<Then>),
    Text(String),
    Whole(Value),
}

/// The call after the last stored row: a stored page's own next call.
pub(super) struct Then {
    pub(super) cursor: String,
    pub(super) action: NextAction,
    pub(super) arg: String,
}

/// The rows of a stored value: see the type documentation.
pub(super) fn rows_of(value: Value) -> Stored {
    match value {
        Value::Array(items) => Stored::Rows(items, None),
        Value::String(s) => Stored::Text(s),
        Value::Object(mut map) => {
            // A stored page (the JSON form `Page` writes): its items, then its next call.
            if matches!(map.get("has_more"), Some(Value::Bool(_)))
                && let Some(Value::Array(_)) = map.get("items")
            {
                let then = then_of(&map);
                let Some(Value::Array(items)) = map.remove("items") else {
                    unreachable!("checked above")
                };
                return Stored::Rows(items, then);
            }
            // A stored reply around a list: the list.
            let reply_keys = ["result", "links", "references", "next"];
            if map.keys().all(|k| reply_keys.contains(&k.as_str()))
                && let Some(Value::Array(_)) = map.get("result")
            {
                let Some(Value::Array(items)) = map.remove("result") else {
                    unreachable!("checked above")
                };
                return Stored::Rows(items, None);
            }
            Stored::Whole(Value::Object(map))
        }
        other => Stored::Whole(other),
    }
}

/// A stored page's next call (`has_more` with a cursor and a call that passes it).
fn then_of(page: &Map<String, Value>) -> Option<Then> {
    if page.get("has_more") != Some(&Value::Bool(true)) {
        return None;
    }
    let cursor = page.get("next_cursor")?.as_str()?;
    let next = page.get("next")?.as_object()?;
    let tool = next.get("tool")?.as_str()?;
    let args = next.get("args")?.as_object()?;
    // The cursor's argument is the one that passes the page's cursor.
    let arg = args.iter().find(|(_, v)| v.as_str() == Some(cursor))?.0;
    let mut action = NextAction::call(tool);
    for (k, v) in args.iter().filter(|(k, _)| *k != arg) {
        action = action.arg(k, v.clone());
    }
    Some(Then {
        cursor: cursor.to_owned(),
        action,
        arg: arg.clone(),
    })
}

/// Whether every word occurs in the text of some value of `row` (case-insensitive).
pub(super) fn matches(row: &Value, words: &[String]) -> bool {
    let mut text = String::new();
    scalars(row, &mut text);
    let text = text.to_lowercase();
    words.iter().all(|w| text.contains(w.as_str()))
}

fn scalars(v: &Value, out: &mut String) {
    match v {
        Value::Null => {}
        Value::Bool(b) => out.push_str(if *b { "true " } else { "false " }),
        Value::Number(n) => {
            out.push_str(&n.to_string());
            out.push(' ');
        }
        Value::String(s) => {
            out.push_str(s);
            out.push(' ');
        }
        Value::Array(items) => items.iter().for_each(|i| scalars(i, out)),
        Value::Object(map) => map.values().for_each(|i| scalars(i, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(v: Value) -> Vec<Value> {
        match rows_of(v) {
            Stored::Rows(rows, _) => rows,
            Stored::Whole(v) => panic!("served whole: {v}"),
            Stored::Text(t) => panic!("served as text: {t}"),
        }
    }

    fn whole(v: Value) -> Value {
        match rows_of(v) {
            Stored::Whole(v) => v,
            Stored::Rows(rows, _) => panic!("served as rows: {rows:?}"),
            Stored::Text(t) => panic!("served as text: {t}"),
        }
    }

    #[test]
    fn rows_of_each_kind_of_value() {
        assert_eq!(rows(json!([1, 2])), [json!(1), json!(2)]);
        assert!(matches!(rows_of(json!("a\nb")), Stored::Text(t) if t == "a\nb"));
        // A record is served whole, its arrays included (not its largest array alone).
        let record = json!({"total": 3, "a": [1], "b": [1, 2], "c": [3, 4]});
        assert_eq!(whole(record.clone()), record);
        assert_eq!(whole(json!({"x": 1})), json!({"x": 1}));
        assert_eq!(whole(json!(7)), json!(7));
        // A stored page: its items, then its own next call.
        let page = json!({"items": [1, 2], "has_more": true, "next_cursor": "c2",
                          "next": {"tool": "list", "args": {"status": "open", "cursor": "c2"}}});
        let Stored::Rows(items, Some(then)) = rows_of(page) else {
            panic!("a page with a next call")
        };
        assert_eq!(items, [json!(1), json!(2)]);
        assert_eq!((then.cursor.as_str(), then.arg.as_str()), ("c2", "cursor"));
        assert_eq!(
            then.action.arg(&then.arg, then.cursor.as_str()).line(),
            "Next: call list(status=\"open\", cursor=\"c2\")"
        );
        // A reply around a list: the list.
        assert_eq!(
            rows(json!({"result": [3, 4], "links": []})),
            [json!(3), json!(4)]
        );
    }

    #[test]
    fn query_words_all_match_values_not_keys() {
        let row = json!({"status": "Shipped", "city": "Oslo", "n": 12});
        let w = |q: &str| {
            q.split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        };
        assert!(matches(&row, &w("shipped oslo")));
        assert!(matches(&row, &w("12")));
        assert!(!matches(&row, &w("status")));
        assert!(!matches(&row, &w("shipped bergen")));
    }
}
