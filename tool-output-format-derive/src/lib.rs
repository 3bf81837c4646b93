//! `#[derive(ToolOutput)]` for [`tool-output-format`](https://docs.rs/tool-output-format):
//! compile-time renderers for typed tool results.
//!
//! Use it through the runtime crate (`use tool_output_format::ToolOutput;` brings the trait
//! and the derive, like serde); the attribute reference is in the runtime crate's docs of
//! the `ToolOutput` trait, section "Deriving", and with an example of each in the
//! repository's `docs/derive.md`.
//!
//! - A struct with named fields renders as a record, and `Vec<T>` / `&[T]` of it as a table
//!   whose header names are string literals fixed at compile time.
//! - A tuple struct with one field (a newtype) renders as that field, one with several as
//!   the list of their values (as serde serializes them).
//! - An enum whose variants are all unit variants renders as the variant's name.
//! - Unit structs, enums with data and unions are refused with a compile error on the
//!   offending item.
//! - Each field renders through its type's `ToolOutput` impl, else its `serde::Serialize`
//!   form, else a compile error at its type (the choice is made by the compiler, see the
//!   runtime's `__private::Field`).
//!
//! The pipeline is `serde_derive`'s: `attr` parses `#[tool_output(...)]` and the
//! `#[serde(...)]` keys we honour, `ast` resolves every final name, `check` runs the
//! cross-field rules, `ctxt` collects all errors for one compile, `expand` generates the
//! code and `fallback` a stub impl when there were errors.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod fallback;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derive `ToolOutput` for a struct, a tuple struct or a unit-only enum (see the
/// `tool_output_format::ToolOutput` trait docs, section "Deriving", for the attributes).
#[proc_macro_derive(ToolOutput, attributes(tool_output))]
pub fn derive_tool_output(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
