//! Secrets in the data of a typed result, redacted as the text redacts them.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::Formatter;

/// Replace the values of the keys the formatter redacts for `tool` with `[redacted]`, at
/// every depth, as the text and `format_json` do.
///
/// Which keys are secret is asked of the formatter itself (the public API has no getter):
/// each distinct key is rendered once as `{key: ""}` with [`Formatter::format_json`] and is a
/// secret when its value comes back redacted. A key that the tool's [`Shape`](crate::Shape)
/// drops from that probe, or a budget too small for it (under 40 characters), is not seen;
/// see the module docs.
pub(super) fn redact(fmt: &Formatter, tool: &str, value: &mut Value) {
    let mut keys = BTreeSet::new();
    collect_keys(value, &mut keys);
    let secret: BTreeSet<String> = keys
        .into_iter()
        .filter(|k| {
            let probe = fmt.format_json(tool, &json!({ k.as_str(): "" }));
            contains_redacted(&probe["result"])
        })
        .collect();
    if !secret.is_empty() {
        redact_keys(value, &secret);
    }
}

fn collect_keys(value: &Value, keys: &mut BTreeSet<String>) {
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                if !keys.contains(k) {
                    keys.insert(k.clone());
                }
                collect_keys(v, keys);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_keys(v, keys)),
        _ => {}
    }
}

fn contains_redacted(value: &Value) -> bool {
    match value {
        Value::String(s) => s == crate::redact::REDACTED,
        Value::Object(m) => m.values().any(contains_redacted),
        Value::Array(a) => a.iter().any(contains_redacted),
        _ => false,
    }
}

fn redact_keys(value: &mut Value, secret: &BTreeSet<String>) {
    match value {
        Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                if secret.contains(k) {
                    *v = Value::String(crate::redact::REDACTED.to_owned());
                } else {
                    redact_keys(v, secret);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|v| redact_keys(v, secret)),
        _ => {}
    }
}
