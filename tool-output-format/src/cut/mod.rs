//! The cut: what a call keeps of a document. The fixed limits ([`caps`]), query focus
//! ([`focus`]), the summary of a cut table ([`summary`]), the budget search ([`fit`]), the
//! lines after the body ([`trailer`]), the order and grouping of fields ([`arrange`]) and a
//! text result kept as text ([`passage`]).

pub(crate) mod arrange;
pub(crate) mod caps;
pub(crate) mod fit;
pub mod focus;
pub(crate) mod passage;
pub(crate) mod summary;
pub(crate) mod trailer;
