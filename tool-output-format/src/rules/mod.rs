//! The rules a walk applies to a result: shapes ([`shape`]), secret keys ([`redact`]),
//! detail levels and the left-out fields ([`detail`]), what says what a row is
//! ([`salience`]).

pub(crate) mod detail;
pub(crate) mod redact;
pub(crate) mod salience;
pub mod shape;
