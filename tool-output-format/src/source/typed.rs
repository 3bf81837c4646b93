//! [`ToolOutput`] for standard types: the runtime traits that generated code targets.
//!
//! Numbers print byte-identically to serde_json (`itoa` for integers; floats through
//! `serde_json::Number`'s own `Display`, whatever float printer the serde_json in the build
//! uses; `f32` is widened to `f64` first, as `serde_json::to_value` does; NaN and infinities
//! are `null`), so a typed result renders exactly like its `serde_json::to_value` form.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::ToolOutput;
use crate::doc::{Name, Node, Record};

/// Cell text of a list of scalars: joined by `, `, `[]` when empty (the cell rule, for
/// types whose items are never null or nested; derived unit-only enums use it too).
#[doc(hidden)]
pub fn scalar_list_cell<T: ToolOutput>(items: &[T], out: &mut String) {
    if items.is_empty() {
        out.push_str("[]");
        return;
    }
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item.write_cell(out);
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl ToolOutput for $t {
            fn to_node(&self) -> Node {
                Node::Scalar(itoa::Buffer::new().format(*self).to_owned())
            }
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
            fn write_cell(&self, out: &mut String) {
                out.push_str(itoa::Buffer::new().format(*self));
            }
            fn __list_cell(items: &[Self], out: &mut String) {
                scalar_list_cell(items, out)
            }
        }
    )*};
}
integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! wide_integers {
    ($($t:ty),*) => {$(
        /// Printed exactly; its JSON form is a number when it fits `i64`/`u64`, else a string
        /// (serde_json cannot hold it as a number without `arbitrary_precision`).
        impl ToolOutput for $t {
            fn to_node(&self) -> Node {
                Node::Scalar(itoa::Buffer::new().format(*self).to_owned())
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
            fn write_cell(&self, out: &mut String) {
                out.push_str(itoa::Buffer::new().format(*self));
            }
        }
    )*};
}
wide_integers!(i128, u128);

fn write_f64(x: f64, out: &mut String) {
    if let Some(n) = serde_json::Number::from_f64(x) {
        super::json::write_number(&n, out);
    }
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl ToolOutput for $t {
            fn to_node(&self) -> Node {
                let mut s = String::new();
                write_f64(f64::from(*self), &mut s);
                if s.is_empty() { Node::Null } else { Node::Scalar(s) }
            }
            fn to_json(&self) -> Value {
                serde_json::Number::from_f64(f64::from(*self)).map_or(Value::Null, Value::Number)
            }
            fn write_cell(&self, out: &mut String) {
                write_f64(f64::from(*self), out);
            }
        }
    )*};
}
floats!(f32, f64);

impl ToolOutput for bool {
    fn to_node(&self) -> Node {
        Node::Scalar(self.to_string())
    }
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
    fn write_cell(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
    fn __list_cell(items: &[Self], out: &mut String) {
        scalar_list_cell(items, out)
    }
}

impl ToolOutput for str {
    fn to_node(&self) -> Node {
        Node::Str(self.to_owned())
    }
    fn to_json(&self) -> Value {
        Value::String(self.to_owned())
    }
    fn write_cell(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl ToolOutput for String {
    fn to_node(&self) -> Node {
        self.as_str().to_node()
    }
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
    fn write_cell(&self, out: &mut String) {
        out.push_str(self);
    }
    fn __list_cell(items: &[Self], out: &mut String) {
        scalar_list_cell(items, out)
    }
}

impl ToolOutput for char {
    fn to_node(&self) -> Node {
        Node::Str(self.to_string())
    }
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
    fn write_cell(&self, out: &mut String) {
        out.push(*self);
    }
    fn __list_cell(items: &[Self], out: &mut String) {
        scalar_list_cell(items, out)
    }
}

impl ToolOutput for () {
    fn to_node(&self) -> Node {
        Node::Null
    }
    fn to_json(&self) -> Value {
        Value::Null
    }
    fn write_cell(&self, _: &mut String) {}
}

impl<T: ToolOutput> ToolOutput for Option<T> {
    fn to_node(&self) -> Node {
        self.as_ref().map_or(Node::Null, T::to_node)
    }
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_json)
    }
    fn write_cell(&self, out: &mut String) {
        if let Some(v) = self {
            v.write_cell(out);
        }
    }
}

impl<T: ToolOutput> ToolOutput for [T] {
    fn to_node(&self) -> Node {
        T::__list_node(self, usize::MAX)
    }
    fn __node_limited(&self, max_rows: usize) -> Node {
        T::__list_node(self, max_rows)
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
    fn write_cell(&self, out: &mut String) {
        T::__list_cell(self, out);
    }
}

macro_rules! as_slice {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> ToolOutput for $t {
            fn to_node(&self) -> Node {
                T::__list_node(&self[..], usize::MAX)
            }
            fn __node_limited(&self, max_rows: usize) -> Node {
                T::__list_node(&self[..], max_rows)
            }
            fn to_json(&self) -> Value {
                self[..].to_json()
            }
            fn write_cell(&self, out: &mut String) {
                T::__list_cell(&self[..], out);
            }
        }
    )*};
}
as_slice!([T: ToolOutput] Vec<T>, [T: ToolOutput, const N: usize] [T; N]);

impl<T: ToolOutput> ToolOutput for VecDeque<T> {
    fn to_node(&self) -> Node {
        match self.as_slices() {
            (front, []) => T::__list_node(front, usize::MAX),
            _ => Value::__list_node(&self.iter().map(T::to_json).collect::<Vec<_>>(), usize::MAX),
        }
    }
    fn __node_limited(&self, max_rows: usize) -> Node {
        match self.as_slices() {
            (front, []) => T::__list_node(front, max_rows),
            _ => self.to_node(),
        }
    }
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

macro_rules! deref {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> ToolOutput for $t {
            fn to_node(&self) -> Node {
                (**self).to_node()
            }
            fn __node_limited(&self, max_rows: usize) -> Node {
                (**self).__node_limited(max_rows)
            }
            fn to_json(&self) -> Value {
                (**self).to_json()
            }
            fn write_cell(&self, out: &mut String) {
                (**self).write_cell(out)
            }
        }
    )*};
}
deref!(
    [T: ToolOutput + ?Sized] Box<T>,
    [T: ToolOutput + ?Sized] Rc<T>,
    [T: ToolOutput + ?Sized] Arc<T>,
    [T: ToolOutput + ?Sized + ToOwned] Cow<'_, T>
);

/// References render like the referenced value; slices of references like slices of values.
impl<T: ToolOutput + ?Sized> ToolOutput for &T {
    fn to_node(&self) -> Node {
        (**self).to_node()
    }
    fn __node_limited(&self, max_rows: usize) -> Node {
        (**self).__node_limited(max_rows)
    }
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
    fn write_cell(&self, out: &mut String) {
        (**self).write_cell(out)
    }
}

macro_rules! maps {
    ($([$($g:tt)*] $t:ty),*) => {$(
        /// Maps render like JSON objects: a record (nested sub-bullets), or compact JSON
        /// in a table cell.
        impl<$($g)*> ToolOutput for $t {
            fn to_node(&self) -> Node {
                let mut r = Record::default();
                for (k, v) in self {
                    r.push(Name::Owned(k.as_ref().to_owned()), v.to_node());
                }
                Node::Record(r)
            }
            fn to_json(&self) -> Value {
                Value::Object(self.iter().map(|(k, v)| (k.as_ref().to_owned(), v.to_json())).collect())
            }
        }
    )*};
}
maps!(
    [K: AsRef<str>, V: ToolOutput] BTreeMap<K, V>,
    [K: AsRef<str>, V: ToolOutput, S] HashMap<K, V, S>
);
