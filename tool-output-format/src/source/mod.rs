//! Sources: everything that turns a tool result into a [`Node`].
//!
//! The [`ToolOutput`] trait is the extension point. It is implemented here for
//! [`serde_json::Value`] (the [`value`] walker) and for strings, numbers, `bool`, `char`,
//! `Option<T>`, sequences, maps and smart pointers ([`typed`]); `#[derive(ToolOutput)]`
//! implements it for your structs.

mod agent;
pub(crate) mod cell;
pub(crate) mod json;
pub(crate) mod list;
pub(crate) mod shaped;

pub(crate) mod stream;
pub(crate) mod table;
pub(crate) mod typed;
pub(crate) mod value;

use crate::build::Context;
use crate::doc::{Kind, Node};

/// A tool result that can be rendered for a model.
///
/// Two methods are required: [`to_node`](ToolOutput::to_node) describes the value's shape
/// as a [`Node`] (borrowing its text where it can), and [`to_json`](ToolOutput::to_json)
/// gives its JSON form, used only when a custom renderer is registered for the tool. For a
/// type that also implements `serde::Serialize`, keep both consistent with
/// `serde_json::to_value`, and the typed output equals the JSON output.
///
/// A hand-written impl passes the [`Context`] on: to a field or item through
/// [`Context::child`] (one level down, so depth stays bounded), to a wrapped value unchanged.
/// It then renders the same alone and inside a `Vec`, `Option`, `Box` or map:
///
/// ```
/// use tool_output_format::{Context, Formatter, Node, Record, ToolOutput};
///
/// struct Temperature { celsius: f64, station: String }
///
/// impl ToolOutput for Temperature {
///     fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
///         let mut r = Record::default();
///         r.push("celsius", cx.child(&self.celsius));
///         r.push("station", cx.child(&self.station));
///         Node::Record(r)
///     }
///     fn to_json(&self) -> serde_json::Value {
///         serde_json::json!({ "celsius": self.celsius, "station": self.station })
///     }
/// }
///
/// let t = Temperature { celsius: 21.5, station: "Oslo".into() };
/// let fmt = Formatter::new();
/// assert_eq!(fmt.format("weather", &t), "**weather result**\n\n- celsius: 21.5\n- station: Oslo");
/// assert_eq!(
///     fmt.format("weather", &vec![t]),
///     "| celsius | station |\n|---------|---------|\n| 21.5    | Oslo    |"
/// );
/// ```
pub trait ToolOutput {
    /// Describe this value as a document node.
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a>;

    /// This value as JSON (the form a registered renderer receives).
    fn to_json(&self) -> serde_json::Value;

    /// This value when it already is a `serde_json::Value` (`Value` itself and the smart
    /// pointers around one), so a tool's [`Shape`](crate::Shape) walks it without first
    /// copying it through [`to_json`](ToolOutput::to_json). Other types leave the default
    /// (`None`): their shaped form is built from `to_json`.
    #[doc(hidden)]
    fn as_json_value(&self) -> Option<&serde_json::Value> {
        None
    }

    /// Append this value's table-cell text (cell rules applied, not escaped) to `out` and
    /// return its [`Kind`].
    ///
    /// The default writes the cell of [`to_node`](ToolOutput::to_node)'s result;
    /// implementations override it to skip building the node.
    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        cell::write_node(&self.to_node(cx), cx, out)
    }

    /// A sequence of `Self` as a node: a table when every item is a record with at least one
    /// field between them, else a list. Only the rows [`Context::rows`] asks for are built;
    /// the table records the full row count.
    ///
    /// The default builds each item's node through [`to_node`](ToolOutput::to_node) (so a
    /// hand-written impl needs nothing more); derived records override it to write the table
    /// cell by cell.
    fn list_node<'a>(items: &'a [Self], cx: &Context<'_>) -> Node<'a>
    where
        Self: Sized,
    {
        list::of_nodes(items, cx)
    }
}

/// The context's walk into a child value (here, beside the trait it calls).
impl Context<'_> {
    /// The node of a field's or item's value, one level down (bounded by [`MAX_DEPTH`](crate::MAX_DEPTH)).
    ///
    /// ```
    /// use tool_output_format::{Context, Node};
    /// assert_eq!(Context::new().child("hi"), Node::Str("hi".into()));
    /// ```
    pub fn child<'a, T: crate::ToolOutput + ?Sized>(&self, value: &'a T) -> Node<'a> {
        value.to_node(&self.nested())
    }
}
