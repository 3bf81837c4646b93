//! The shape's rules ([`Shape`]): what to keep, drop, rename, convert and mark, as the
//! builders and shape files set them. The crate root exports it; the methods live in the
//! module's other files.

use super::Convert;
use super::ShapeError;
use super::path::{Path, Patterns};
use crate::doc::Mark;

/// Per-tool normalisation of untyped results: which fields to keep or drop, their names, and
/// how their values read. See the [module docs](crate::shape) for the rules.
///
/// ```
/// use tool_output_format::{Shape, Convert};
/// use serde_json::json;
///
/// let legacy = Shape::new()
///     .rename("created_ts", "created_at")
///     .convert("created_ts", Convert::EpochSeconds) // rules name the input's keys
///     .convert("total_cents", Convert::Cents)
///     .rename("total_cents", "amount");
/// assert_eq!(
///     legacy.apply(&json!({"created_ts": 1703203200, "total_cents": 4999})),
///     json!({"created_at": "2023-12-22T00:00:00Z", "amount": "49.99"})
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shape {
    pub(super) keep: Vec<Path>,
    pub(super) drop: Patterns,
    pub(super) rename: Vec<(Path, String)>,
    pub(super) convert: Vec<(Path, Convert)>,
    /// The `essential` and `minor` paths, in the order given.
    pub(super) marks: Vec<(Path, Mark)>,
    pub(super) drop_empty: bool,
    pub(super) flatten: bool,
    /// Name what `drop` and `drop_empty` take out in the left-out line (the agent preset's
    /// folding shape, [`Shape::folding`]).
    pub(super) fold: bool,
    /// Fields a folding shape never drops, whatever its `drop` patterns say (the agent
    /// preset's pages for people: `html_url`, `web_url`, ...).
    pub(super) spare: Patterns,
    pub(super) errors: Vec<ShapeError>,
}
