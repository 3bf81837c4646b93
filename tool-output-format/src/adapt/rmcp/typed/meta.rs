//! The `_meta` entry of a typed result: the text's notices, with where they apply in the data.

use serde_json::{Map, Value, json};

use super::Place;
use crate::{Notice, Report};

/// How many items of the data the text shows (`None`: all of them): the rows of its table,
/// the items of its list, none when nothing fitted.
pub(super) fn kept(report: &Report) -> Option<usize> {
    let mut kept = report.rows.map(|r| r.kept);
    for n in &report.notices {
        match *n {
            Notice::Items { kept: k, .. } if kept.is_none() => kept = Some(k),
            Notice::Omitted { .. } => kept = Some(0),
            _ => {}
        }
    }
    kept
}

/// The `_meta` entry: the notices (the text's, then the data's own), the stored reference
/// and the shared budget; `None` when there is nothing to say.
pub(super) fn meta(
    report: &Report,
    place: Place,
    notes: Option<Vec<Value>>,
    view: Option<Value>,
) -> Option<Value> {
    let mut notices: Vec<Value> = report.notices.iter().map(|n| notice(n, place)).collect();
    notices.extend(notes.into_iter().flatten());
    if report.values_shortened > 0
        && !report
            .notices
            .iter()
            .any(|n| matches!(n, Notice::Shortened { .. }))
    {
        notices.push(json!({
            "kind": "shortened",
            "values": report.values_shortened,
            "path": "",
            "applies_to": "text",
            "text": crate::sink::notice::cap_shortened_line(report.values_shortened, None),
        }));
    }
    if notices.is_empty() && report.reference.is_none() && view.is_none() {
        return None;
    }
    let mut m = Map::new();
    m.insert("notices".into(), Value::Array(notices));
    if let Some(r) = &report.reference {
        m.insert("reference".into(), r.as_str().into());
    }
    if let Some(e) = &report.store_error {
        m.insert("store_error".into(), e.as_str().into());
    }
    if let Some(v) = view {
        m.insert("view".into(), v);
    }
    Some(Value::Object(m))
}

/// One notice of the text, with where it applies in the data: the notice as `format_json`
/// writes it (kind, path, figures, text), then `applies_to`.
fn notice(n: &Notice, place: Place) -> Value {
    let (path, both) = match (n, place) {
        (Notice::Rows { .. } | Notice::Items { .. } | Notice::Omitted { .. }, Place::Items(p)) => {
            (p, true)
        }
        (_, Place::Result) => ("/result", false),
        _ => ("", false),
    };
    let mut v = crate::sink::json::notice(n, path);
    if let Value::Object(m) = &mut v {
        m.insert(
            "applies_to".into(),
            if both { "both" } else { "text" }.into(),
        );
    }
    v
}
