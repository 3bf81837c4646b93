//! Redaction: the values of secret keys never reach the output.
//!
//! Keys are matched case-insensitively wherever they occur: record fields at any depth,
//! table columns, and keys inside nested values written as JSON in a cell. The value is
//! replaced by [`REDACTED`] before any text is written, and a registered renderer receives
//! the redacted JSON. `#[tool_output(redact)]` on a derived field does the same for that
//! field, whatever the runtime keys.

use std::cell::RefCell;

use serde_json::Value;

use crate::doc::Node;

/// What a redacted value renders as.
pub const REDACTED: &str = "[redacted]";

/// A set of secret keys, matched case-insensitively.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Secrets(Vec<String>);

impl Secrets {
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

    /// Redact record fields and table columns, at any depth.
    pub fn node(&self, node: &mut Node) {
        if self.is_empty() {
            return;
        }
        match node {
            Node::Record(r) => {
                for (k, v) in &mut r.fields {
                    if self.matches(k) {
                        *v = Node::Str(REDACTED.to_owned());
                    } else {
                        self.node(v);
                    }
                }
            }
            Node::Table(t) => {
                let secret: Vec<bool> = t.columns().iter().map(|c| self.matches(c)).collect();
                if secret.contains(&true) {
                    t.map_cells(|col, cell, out| {
                        out.push_str(if secret[col] { REDACTED } else { cell })
                    });
                }
            }
            Node::List(items) => items.iter_mut().for_each(|v| self.node(v)),
            Node::Null | Node::Scalar(_) | Node::Str(_) | Node::DepthCut(_) => {}
        }
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

thread_local! {
    /// The secrets of the `format` call running on this thread, for JSON written inside
    /// cells (nested values reach the cell writer without the formatter's options).
    static ACTIVE: RefCell<Option<Secrets>> = const { RefCell::new(None) };
}

/// Run `f` with `secrets` active for [`is_active_secret`].
pub(crate) fn scope<R>(secrets: &Secrets, f: impl FnOnce() -> R) -> R {
    if secrets.is_empty() {
        return f();
    }
    struct Reset(Option<Secrets>);
    impl Drop for Reset {
        fn drop(&mut self) {
            ACTIVE.with(|a| *a.borrow_mut() = self.0.take());
        }
    }
    let _reset = Reset(ACTIVE.with(|a| a.borrow_mut().replace(secrets.clone())));
    f()
}

/// True when `key` is secret in the `format` call running on this thread.
pub(crate) fn is_active_secret(key: &str) -> bool {
    ACTIVE.with(|a| a.borrow().as_ref().is_some_and(|s| s.matches(key)))
}
