//! Redaction: the values of secret keys never reach the output.
//!
//! Keys are matched case-insensitively wherever they occur: record fields at any depth,
//! table columns, and keys inside nested values written as JSON in a cell. The value is
//! replaced by [`REDACTED`] before any text is written, and a registered renderer receives
//! the redacted JSON. `#[tool_output(redact)]` on a derived field does the same for that
//! field, whatever the runtime keys.

use serde_json::Value;

/// What a redacted value renders as.
pub const REDACTED: &str = "[redacted]";

/// A set of secret keys, matched case-insensitively.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Secrets(Vec<String>);

impl Secrets {
    /// No secret keys.
    pub const EMPTY: Secrets = Secrets(Vec::new());

    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(keys: I) -> Self {
        let mut v: Vec<String> = keys.into_iter().map(|k| k.into().to_lowercase()).collect();
        v.sort();
        v.dedup();
        Secrets(v)
    }

    /// Both sets together (a tool's secrets add to the global ones, never replace them).
    pub fn union(&self, other: &Secrets) -> Secrets {
        Secrets::new(self.0.iter().chain(&other.0).cloned())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn matches(&self, key: &str) -> bool {
        self.0
            .iter()
            .any(|s| key.chars().flat_map(char::to_lowercase).eq(s.chars()))
    }

    /// Redact a JSON value in place, at any depth (no recursion).
    pub fn value(&self, v: &mut Value) {
        if self.is_empty() {
            return;
        }
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(m) => {
                    for (k, v) in m.iter_mut() {
                        if self.matches(k) {
                            *v = Value::String(REDACTED.to_owned());
                        } else {
                            stack.push(v);
                        }
                    }
                }
                Value::Array(items) => stack.extend(items.iter_mut()),
                _ => {}
            }
        }
    }
}
