//! [`ToolOutput`] for standard types: the runtime traits that generated code targets.
//!
//! Numbers print byte-identically to `serde_json` (`itoa` for integers; floats through
//! `serde_json::Number`'s own `Display`, whatever float printer the `serde_json` in the build
//! uses; `f32` is widened to `f64` first, as `serde_json::to_value` does; NaN and infinities
//! are `null`), so a typed result renders exactly like its `serde_json::to_value` form.
//!
//! Maps render in their iteration order; `HashMap` keys are sorted first, so the same map
//! renders the same way on every run.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::hook::{Hook, Hooks};
use super::{ToolOutput, cell};
use crate::doc::{Kind, Node, Record, Text};
use crate::input::context::Context;

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl ToolOutput for $t {
            fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
                Node::Number(Text::Owned(itoa::Buffer::new().format(*self).to_owned()))
            }
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
            fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
                out.push_str(itoa::Buffer::new().format(*self));
                Kind::Number
            }
        }
    )*};
}
integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! wide_integers {
    ($($t:ty),*) => {$(
        /// Printed exactly; its JSON form is a number when it fits `i64`/`u64`, else a string
        /// (`serde_json` cannot hold it as a number without `arbitrary_precision`).
        impl ToolOutput for $t {
            fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
                Node::Number(Text::Owned(itoa::Buffer::new().format(*self).to_owned()))
            }
            fn to_json(&self) -> Value {
                if let Ok(v) = i64::try_from(*self) {
                    Value::from(v)
                } else if let Ok(v) = u64::try_from(*self) {
                    Value::from(v)
                } else {
                    Value::String(self.to_string())
                }
            }
            fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
                out.push_str(itoa::Buffer::new().format(*self));
                Kind::Number
            }
        }
    )*};
}
wide_integers!(i128, u128);

fn write_f64(x: f64, out: &mut String) -> Kind {
    match serde_json::Number::from_f64(x) {
        Some(n) => {
            super::json::write_number(&n, out);
            Kind::Number
        }
        None => Kind::Null,
    }
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl ToolOutput for $t {
            fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
                let mut s = String::new();
                match write_f64(f64::from(*self), &mut s) {
                    Kind::Number => Node::Number(Text::Owned(s)),
                    _ => Node::Null,
                }
            }
            fn to_json(&self) -> Value {
                serde_json::Number::from_f64(f64::from(*self)).map_or(Value::Null, Value::Number)
            }
            fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
                write_f64(f64::from(*self), out)
            }
        }
    )*};
}
floats!(f32, f64);

impl ToolOutput for bool {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        Node::Bool(*self)
    }
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
    fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
        out.push_str(if *self { "true" } else { "false" });
        Kind::Bool
    }
}

impl ToolOutput for str {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        Node::Str(Text::Borrowed(self))
    }
    fn to_json(&self) -> Value {
        Value::String(self.to_owned())
    }
    fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
        out.push_str(self);
        Kind::Text
    }
}

impl ToolOutput for String {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        Node::Str(Text::Borrowed(self))
    }
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
    fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
        out.push_str(self);
        Kind::Text
    }
}

impl ToolOutput for char {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        Node::Str(Text::Owned(self.to_string()))
    }
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
    fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
        out.push(*self);
        Kind::Text
    }
}

impl ToolOutput for () {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        Node::Null
    }
    fn to_json(&self) -> Value {
        Value::Null
    }
    fn write_cell(&self, _: &Context<'_>, _: &mut String) -> Kind {
        Kind::Null
    }
}

impl<T: ToolOutput> ToolOutput for Option<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        self.as_ref().map_or(Node::Null, |v| v.to_node(cx))
    }
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_json)
    }
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact()
            && let Some(v) = self
        {
            v.redact_serialized(data);
        }
    }
    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        match self {
            Some(v) => v.write_cell(cx, out),
            None => Kind::Null,
        }
    }
}

impl<T: ToolOutput> ToolOutput for [T] {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        if cx.too_deep() {
            return Node::DepthCut(None);
        }
        T::list_node(self, cx)
    }
    fn to_json(&self) -> Value {
        // A plain loop: an iterator chain here is a dozen more functions to compile for
        // every element type (it is instantiated for each derived struct that is formatted).
        let mut items = Vec::with_capacity(self.len());
        for item in self {
            items.push(item.to_json());
        }
        Value::Array(items)
    }
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact()
            && let Value::Array(items) = data
        {
            for (item, data) in self.iter().zip(items) {
                item.redact_serialized(data);
            }
        }
    }
    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        cell::write_seq(self, cx, out)
    }
}

macro_rules! as_slice {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> ToolOutput for $t {
            fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
                self[..].to_node(cx)
            }
            fn to_json(&self) -> Value {
                self[..].to_json()
            }
            fn __tof_hook(&self, hook: &mut Hook<'_>) {
                if let Some(data) = hook.redact() {
                    self[..].redact_serialized(data);
                }
            }
            fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
                self[..].write_cell(cx, out)
            }
        }
    )*};
}
as_slice!([T: ToolOutput] Vec<T>, [T: ToolOutput, const N: usize] [T; N]);

/// A `VecDeque` renders like the `Vec` of its items. When it wraps around its buffer, the
/// items are listed as references first (no copy of the items).
impl<T: ToolOutput> ToolOutput for VecDeque<T> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        match self.as_slices() {
            (front, []) => front.to_node(cx),
            _ if cx.too_deep() => Node::DepthCut(None),
            _ => {
                let refs: Vec<&'a T> = self.iter().collect();
                <&'a T>::list_node(&refs, cx).into_owned()
            }
        }
    }
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact()
            && let Value::Array(items) = data
        {
            for (item, data) in self.iter().zip(items) {
                item.redact_serialized(data);
            }
        }
    }
    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        let refs: Vec<&T> = self.iter().collect();
        cell::write_seq(&refs, cx, out)
    }
}

macro_rules! deref {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> ToolOutput for $t {
            fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
                (**self).to_node(cx)
            }
            fn to_json(&self) -> Value {
                (**self).to_json()
            }
            fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
                (**self).write_cell(cx, out)
            }
            fn __tof_hook(&self, hook: &mut Hook<'_>) {
                if let Some(data) = hook.redact() {
                    (**self).redact_serialized(data);
                }
            }
        }
    )*};
}
deref!(
    [T: ToolOutput + ?Sized] Box<T>,
    [T: ToolOutput + ?Sized] Rc<T>,
    [T: ToolOutput + ?Sized] Arc<T>,
    [T: ToolOutput + ?Sized + ToOwned] Cow<'_, T>,
    [T: ToolOutput + ?Sized] &T
);

/// A map's entries as a record (nested sub-bullets), or compact JSON in a table cell.
fn map_node<'a, K, V>(entries: impl Iterator<Item = (&'a K, &'a V)>, cx: &Context<'_>) -> Node<'a>
where
    K: AsRef<str> + 'a,
    V: ToolOutput + 'a,
{
    if cx.too_deep() {
        return Node::DepthCut(None);
    }
    let mut r = Record::default();
    for (k, v) in entries {
        r.push(Text::Borrowed(k.as_ref()), cx.child(v));
    }
    super::table::redact_record(&mut r, cx);
    Node::Record(r)
}

impl<K: AsRef<str>, V: ToolOutput> ToolOutput for BTreeMap<K, V> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        map_node(self.iter(), cx)
    }
    fn to_json(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.as_ref().to_owned(), v.to_json()))
                .collect(),
        )
    }
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact() {
            redact_entries(self.iter(), data);
        }
    }
}

/// Entries in sorted key order (a `HashMap` iterates in a random order per process, so the
/// same result would render differently between runs and defeat prompt caching). Its JSON
/// form is sorted too.
impl<K: AsRef<str>, V: ToolOutput, S> ToolOutput for HashMap<K, V, S> {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        map_node(sorted(self).into_iter(), cx)
    }
    fn to_json(&self) -> Value {
        Value::Object(
            sorted(self)
                .into_iter()
                .map(|(k, v)| (k.as_ref().to_owned(), v.to_json()))
                .collect(),
        )
    }
    fn __tof_hook(&self, hook: &mut Hook<'_>) {
        if let Some(data) = hook.redact() {
            redact_entries(self.iter(), data);
        }
    }
}

/// A map's entries' own secrets, in its serialized object (by key).
fn redact_entries<'a, K, V>(entries: impl Iterator<Item = (&'a K, &'a V)>, data: &mut Value)
where
    K: AsRef<str> + 'a,
    V: ToolOutput + 'a,
{
    if let Value::Object(m) = data {
        for (k, v) in entries {
            if let Some(d) = m.get_mut(k.as_ref()) {
                v.redact_serialized(d);
            }
        }
    }
}

fn sorted<K: AsRef<str>, V, S>(map: &HashMap<K, V, S>) -> Vec<(&K, &V)> {
    let mut entries: Vec<(&K, &V)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
    entries
}
