//! How derived code renders one field: through the field type's [`ToolOutput`] impl when it
//! has one, else through its `serde::Serialize` form (a `serde_json::Value`, with the cell
//! rules of any JSON value), else a compile error that says what to do.
//!
//! The choice is made by the compiler, per field type, with auto-ref specialization: the
//! generated code calls `(&&&Field(&value)).__tof_node(cx)`, and method lookup tries the
//! receiver `&&&Field<T>` first (found when `T: ToolOutput`), then `&&Field<T>` (found when
//! `T: Serialize`), then `&Field<T>` (always found, with a bound nothing satisfies, so its
//! error message is the one the user reads). Generic fields work the same way: the derive
//! bounds each type parameter by `ToolOutput`, so a field of type `T` takes the first route.

use serde::Serialize;
use serde_json::Value;

use crate::doc::{Kind, Node};
use crate::input::ToolOutput;
use crate::input::context::Context;
use crate::input::hook::Hooks;

/// A field's value, borrowed for the route choice above.
pub struct Field<'a, T: ?Sized>(pub &'a T);

/// First choice: the type's own [`ToolOutput`] impl.
pub trait ViaToolOutput<'a> {
    /// The field's node.
    fn __tof_node(&self, cx: &Context<'_>) -> Node<'a>;
    /// Append the field's cell text to `out`; its kind.
    fn __tof_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind;
    /// The field's JSON form.
    fn __tof_json(&self) -> Value;
    /// Redact the secrets of the field's value in its serialized data `data`.
    fn __tof_redact_data(&self, data: &mut Value);
    /// Nothing: this route exists (see [`ViaNothing::__tof_check`]).
    #[inline]
    fn __tof_check(&self) {}
}

impl<'a, T: ToolOutput + ?Sized> ViaToolOutput<'a> for &&Field<'a, T> {
    #[inline]
    fn __tof_redact_data(&self, data: &mut Value) {
        <T as Hooks>::redact_serialized(self.0, data);
    }
    #[inline]
    fn __tof_node(&self, cx: &Context<'_>) -> Node<'a> {
        <T as ToolOutput>::to_node(self.0, cx)
    }
    #[inline]
    fn __tof_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        <T as ToolOutput>::write_cell(self.0, cx, out)
    }
    #[inline]
    fn __tof_json(&self) -> Value {
        <T as ToolOutput>::to_json(self.0)
    }
}

/// Second choice: the type's `serde::Serialize` impl, rendered as the `serde_json::Value` it
/// serializes to.
pub trait ViaSerialize<'a> {
    /// The field's node.
    fn __tof_node(&self, cx: &Context<'_>) -> Node<'a>;
    /// Append the field's cell text to `out`; its kind.
    fn __tof_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind;
    /// The field's JSON form.
    fn __tof_json(&self) -> Value;
    /// Nothing: a type known only by its `Serialize` form marks no secret.
    #[inline]
    fn __tof_redact_data(&self, _: &mut Value) {}
    /// Nothing: this route exists (see [`ViaNothing::__tof_check`]).
    #[inline]
    fn __tof_check(&self) {}
}

impl<'a, T: Serialize + ?Sized> ViaSerialize<'a> for &Field<'a, T> {
    #[inline]
    fn __tof_node(&self, cx: &Context<'_>) -> Node<'a> {
        json_node(&json_form(self.0), cx)
    }
    #[inline]
    fn __tof_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        json_cell(&json_form(self.0), cx, out)
    }
    #[inline]
    fn __tof_json(&self) -> Value {
        json_form(self.0)
    }
}

/// The JSON form of a `Serialize` value. A value whose `Serialize` impl fails (a map with
/// keys JSON cannot hold, a custom impl's error) shows the error instead of vanishing.
fn json_form<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value)
        .unwrap_or_else(|e| Value::String(format!("[not serializable: {e}]")))
}

/// A computed value's node, owned (not generic: compiled once, not per field type).
#[must_use]
pub fn json_node(value: &Value, cx: &Context<'_>) -> Node<'static> {
    value.to_node(cx).into_owned()
}

/// Append a computed value's cell text to `out`; its kind.
pub fn json_cell(value: &Value, cx: &Context<'_>, out: &mut String) -> Kind {
    value.write_cell(cx, out)
}

/// Implemented by nothing: the bound of the last route, so a field type with neither impl
/// gets this message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be rendered by `#[derive(ToolOutput)]`: it implements neither `ToolOutput` nor `serde::Serialize`",
    label = "cannot be rendered",
    note = "derive `ToolOutput` or `serde::Serialize` for it (for a type from another crate, enable that crate's `serde` feature), implement `ToolOutput` by hand, show it through a function with `#[tool_output(with = \"path::to::fn\")]`, or leave it out with `#[tool_output(skip)]`"
)]
pub trait Renderable {}

/// Last choice: no impl fits. Derived code calls [`__tof_check`](ViaNothing::__tof_check)
/// once per field, and its `Renderable` bound is the one error the user reads (the other
/// methods carry no bound, so a field is not reported three times). They are never run: a
/// program that would call them does not compile.
pub trait ViaNothing<'a> {
    /// The field's type.
    type Value: ?Sized;
    /// The field's node (never called).
    fn __tof_node(&self, cx: &Context<'_>) -> Node<'a>;
    /// The field's cell (never called).
    fn __tof_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind;
    /// The field's JSON form (never called).
    fn __tof_json(&self) -> Value;
    /// Nothing (called for a field only serde writes: `#[tool_output(skip)]`).
    #[inline]
    fn __tof_redact_data(&self, _: &mut Value) {}
    /// Fails to compile: no type implements `Renderable`.
    fn __tof_check(&self)
    where
        Self::Value: Renderable;
}

impl<'a, T: ?Sized> ViaNothing<'a> for Field<'a, T> {
    type Value = T;
    fn __tof_node(&self, _: &Context<'_>) -> Node<'a> {
        unreachable!("a field type with no route does not compile")
    }
    fn __tof_cell(&self, _: &Context<'_>, _: &mut String) -> Kind {
        unreachable!("a field type with no route does not compile")
    }
    fn __tof_json(&self) -> Value {
        unreachable!("a field type with no route does not compile")
    }
    fn __tof_check(&self)
    where
        T: Renderable,
    {
    }
}
