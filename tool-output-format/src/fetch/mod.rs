//! The fetch tool: serves a stored result back page by page ([`Fetch`], public as
//! `store::Fetch`), through a formatter; the leaves of a stored record ([`leaves`]), the
//! parts a cut output left out ([`parts`]) and a store failure as a tool error
//! ([`tool_error`]).

mod leaves;
mod parts;
mod tool;
mod tool_error;

#[cfg(feature = "async")]
use crate::store::AsyncResultStore;
use crate::store::{CURSOR_ARG, ResultStore, StoreError, StoreErrorKind};

pub use tool::{DEFAULT_PAGE_SIZE, Fetch};
