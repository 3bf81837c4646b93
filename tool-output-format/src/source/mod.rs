//! Sources: everything that turns a tool result into a [`Node`].
//!
//! The [`ToolOutput`] trait is the extension point. It is implemented here for
//! [`serde_json::Value`] (the [`value`] walker) and for strings, numbers, `bool`, `char`,
//! `Option<T>`, sequences, maps and smart pointers ([`typed`]); `#[derive(ToolOutput)]`
//! implements it for your structs.

pub mod cell;
pub mod json;
pub mod typed;
pub mod value;

use crate::doc::Node;

/// A tool result that can be rendered for a model.
///
/// Two methods are required: [`to_node`](ToolOutput::to_node) describes the value's shape
/// as a [`Node`], and [`to_json`](ToolOutput::to_json) gives its JSON form, used only when a
/// custom renderer is registered for the tool (and for nested values inside table cells).
/// For any type that also implements `serde::Serialize`, keep both consistent with
/// `serde_json::to_value`, and the typed output equals the JSON output.
///
/// ```
/// use tool_output_format::{Formatter, ToolOutput};
/// use tool_output_format::doc::{Node, Record};
///
/// struct Temperature { celsius: f64 }
///
/// impl ToolOutput for Temperature {
///     fn to_node(&self) -> Node {
///         let mut r = Record::default();
///         r.push("celsius", self.celsius.to_node());
///         Node::Record(r)
///     }
///     fn to_json(&self) -> serde_json::Value {
///         serde_json::json!({ "celsius": self.celsius })
///     }
/// }
///
/// let md = Formatter::new().format("weather", &Temperature { celsius: 21.5 });
/// assert_eq!(md, "**weather result**\n\n- celsius: 21.5");
/// ```
pub trait ToolOutput {
    /// Describe this value as a document node.
    fn to_node(&self) -> Node;

    /// This value as JSON (the form a registered renderer receives).
    fn to_json(&self) -> serde_json::Value;

    /// Append this value's table-cell text (cell rules applied, not escaped) to `out`.
    ///
    /// The default goes through [`to_json`](ToolOutput::to_json); implementations override it
    /// to avoid the allocation.
    fn write_cell(&self, out: &mut String) {
        cell::write_value(&self.to_json(), out);
    }

    #[doc(hidden)]
    /// This value as a node, building at most `max_rows` rows (at least one) of a top-level
    /// table; the table records the data's full row count. Shape and columns still come from
    /// all the data. Sources that cannot build a prefix ignore the hint. Not part of the
    /// stable API.
    fn __node_limited(&self, max_rows: usize) -> Node {
        let _ = max_rows;
        self.to_node()
    }

    #[doc(hidden)]
    /// A sequence of `Self` as a node, building at most `max_rows` rows (at least one) when
    /// it is a table (`usize::MAX`: all). Derived records override this to build the table
    /// directly. Not part of the stable API.
    fn __list_node(items: &[Self], max_rows: usize) -> Node
    where
        Self: Sized,
    {
        value::array_node(items.iter().map(ToolOutput::to_json).collect(), max_rows)
    }

    #[doc(hidden)]
    /// A sequence of `Self` as one table cell. Not part of the stable API.
    fn __list_cell(items: &[Self], out: &mut String)
    where
        Self: Sized,
    {
        let v = serde_json::Value::Array(items.iter().map(ToolOutput::to_json).collect());
        cell::write_value(&v, out);
    }
}
