//! Sources: everything that turns a tool result into a [`Node`].
//!
//! The [`ToolOutput`] trait is the extension point. It is implemented here for
//! [`serde_json::Value`] (the [`value`] walker) and for strings, numbers, `bool`, `char`,
//! `Option<T>`, sequences, maps and smart pointers ([`typed`]); `#[derive(ToolOutput)]`
//! implements it for your structs.

mod agent;
pub(crate) mod cell;
pub(crate) mod context;
mod ecosystem;
pub(crate) mod hook;
pub(crate) mod json;
pub(crate) mod list;
pub(crate) mod shaped;

pub(crate) mod stream;
pub(crate) mod table;
// `ToolOutput` for std's and jiff's time values.
pub(crate) mod time;
pub(crate) mod typed;
pub(crate) mod value;

use crate::doc::{Kind, Node};
use crate::input::context::Context;

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
/// use tool_output_format::{Context, Formatter, ToolOutput, doc::{Node, Record}};
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
///
/// # Deriving
///
/// With the `derive` feature (on by default), `use tool_output_format::ToolOutput;` brings the
/// trait and its derive, like serde. A struct with named fields renders as a record, and
/// `Vec<T>`, `&[T]`, `[T; N]`, `Box<[T]>` or `VecDeque<T>` of it as a table whose header
/// cells are string literals fixed at compile time. A newtype renders as its field (as
/// serde serializes it), a tuple struct with several fields as the list of their values, an
/// enum of unit variants as the variant's name; unit structs, enums with data and unions are
/// compile errors.
///
/// Field types go through this trait: strings, numbers (printed as `serde_json` prints them;
/// NaN and infinities are null), `bool`, `char`, `Option`, sequences, maps with string-like
/// keys (a `HashMap` in sorted key order), smart pointers, other derived types,
/// `serde_json::Value`, `std::time::SystemTime` (RFC 3339 in UTC) and `Duration`
/// (`1h 30m 5s 250ms`), jiff's types, and with their features `rust_decimal`, `chrono`,
/// `time`, `url` and `uuid` types. A field whose type implements `serde::Serialize` but not
/// `ToolOutput` renders through its JSON form; a type with neither is a compile error at
/// the field's type.
///
/// ```
/// use tool_output_format::{ToolOutput, to_markdown};
///
/// #[derive(ToolOutput)]
/// struct Money(#[tool_output(with = "cents")] u64);
///
/// #[derive(ToolOutput)]
/// #[tool_output(rename_all = "camelCase")]
/// struct Order {
///     order_id: u64,
///     total: Money,
///     #[tool_output(with = "epoch_seconds")]
///     due: i64,
///     #[tool_output(skip)]
///     internal: u8,
/// }
///
/// let order = Order { order_id: 7, total: Money(4999), due: 1_705_881_600, internal: 0 };
/// assert_eq!(to_markdown(&order), "- orderId: 7\n- total: 49.99\n- due: 2024-01-22T00:00:00Z");
/// ```
///
/// | attribute | on | effect |
/// |---|---|---|
/// | `rename = "name"` | field, variant | the column / key / value name (also `#[serde(rename)]`) |
/// | `rename_all = "rule"` | struct, enum | serde's eight rules (also `#[serde(rename_all)]`) |
/// | `skip` | field | left out everywhere (also `#[serde(skip)]`, `skip_serializing`); no other key beside it but a mark (ignored) |
/// | `flatten` | field | the nested derived struct's fields in place (also `#[serde(flatten)]`) |
/// | `max_chars = N` | field | cut to N characters on a grapheme boundary, `…[+K chars]` |
/// | `with = "path::to::fn"` | field | render `fn(&field)` instead (any `ToolOutput` or `Serialize` return type) |
/// | `with = "epoch_seconds"`, `"epoch_millis"`, `"timestamp"`, `"cents"`, `"fixed(N)"` | field | the field's JSON form through that [`Convert`](crate::Convert) |
/// | `redact` | field | the value is never read: `[redacted]` |
/// | `detail = "full"` | field | shown only in [`Detail::Full`](crate::Detail::Full) |
/// | `key` | field | the field's identity: kept under every budget, shown first (a [`Mark`](crate::doc::Mark)) |
/// | `essential` | field | kept before every unmarked field when a budget must leave fields out |
/// | `minor` | field | left out first when a budget must leave fields out |
/// | `title = "..."` | struct | a `**title**` line over the table or record |
/// | `max_rows = N` | struct | row cap for tables of this type |
/// | `crate = "path"` | struct, enum | path of this crate when it is re-exported |
/// | `canonical = "path::to::const_fn"` | struct | every final field name must satisfy `const fn(&str) -> bool` |
///
/// Name precedence: ours `rename` > serde `rename` > ours `rename_all` > serde `rename_all` >
/// the field name. Mistakes are compile errors spanned at the key or literal, all reported
/// in one compile. A field has at most one mark (`key`, `essential` or `minor`); a mark
/// wins over the salience rank the field's name and value would give it, with every
/// formatter, and a [`Shape`](crate::Shape)'s own mark for the field wins over it. For a type that also derives `serde::Serialize` and uses only the
/// serde-compatible attributes (and no `skip_serializing_if`), the output equals the output
/// of its `serde_json::to_value` form. The repository's `docs/derive.md` has every
/// attribute with an example and the full rules.
pub trait ToolOutput {
    /// Describe this value as a document node.
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a>;

    /// This value as JSON (the form a registered renderer receives).
    fn to_json(&self) -> serde_json::Value;

    /// Answer one of the runtime's questions that the methods above do not (see
    /// `input/hook.rs`): derived types and this crate's containers override it; a
    /// hand-written impl keeps this default, which leaves every answer at its default (the
    /// whole result, no secret of its own). Not public API: only this crate can build a
    /// [`Hook`](hook::Hook), so only it calls this method.
    ///
    /// It is the one item the derive's helpers keep on this trait: a default that the
    /// derive overrides and a hand-written impl inherits without a line of its own is, in
    /// Rust without specialization, a provided item of the trait itself (a supertrait would
    /// make every hand-written impl implement it too; a blanket impl of a separate trait
    /// could not be overridden). The helpers themselves live on the sealed `Hooks` trait.
    #[doc(hidden)]
    #[inline]
    fn __tof_hook(&self, hook: &mut hook::Hook<'_>) {
        let _ = hook;
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
    /// field between them, else a list. Only the rows the [`Context`]'s plan asks for are built;
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
    /// The node of a field's or item's value, one level down (bounded by [`MAX_DEPTH`](crate::doc::MAX_DEPTH)).
    ///
    /// ```
    /// use tool_output_format::{Context, doc::Node};
    /// assert_eq!(Context::new().child("hi"), Node::Str("hi".into()));
    /// ```
    pub fn child<'a, T: crate::ToolOutput + ?Sized>(&self, value: &'a T) -> Node<'a> {
        value.to_node(&self.nested())
    }
}
