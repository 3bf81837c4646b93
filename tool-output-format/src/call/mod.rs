//! The call: the stages in order for every entry point ([`pipeline`]), the options with every
//! value decided ([`resolved`]), the call focused on a query ([`focused`]), what a call
//! reports ([`report`]) and its trace ([`trace`]).

pub(crate) mod focused;
pub(crate) mod pipeline;
pub(crate) mod report;
pub(crate) mod resolved;
pub(crate) mod trace;
