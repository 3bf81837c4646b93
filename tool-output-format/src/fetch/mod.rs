//! The fetch tool: serves a stored result back page by page through a formatter ([`Fetch`],
//! public as `store::Fetch`; it uses the face). Its cursors (`cursor.rs`); what a stored value
//! is served as (`stored.rs`); serving a page (`serve.rs`); a record too large for a page, in
//! runs of its leaves (`leaf_runs.rs`, `leaves.rs`); what a call serves (`served.rs`) and its
//! text (`write.rs`); the parts a cut output left out (`parts.rs`) and what a record's text
//! left out beside them (`record_rest.rs`); a store failure as a tool
//! error (`tool_error.rs`).

mod cursor;
mod leaf_runs;
mod leaves;
mod parts;
mod record_rest;
mod serve;
mod served;
mod stored;
mod tool;
mod tool_error;
mod write;

#[cfg(feature = "async")]
use crate::store::AsyncResultStore;
use crate::store::{CURSOR_ARG, ResultStore, StoreError, StoreErrorKind};

pub use tool::{DEFAULT_PAGE_SIZE, Fetch};
