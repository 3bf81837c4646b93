//! The build context: everything a source needs to know while it describes a result,
//! passed down explicitly (no thread-locals, no hidden hooks).

use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use crate::doc::MAX_DEPTH;
use crate::rules::detail::{Detail, LeftOut};
use crate::rules::redact::Secrets;
use crate::shape::{Shape, ShapeStats};

/// What sources are told while they build a [`Node`](crate::doc::Node): how deep they are, which rows of a
/// table to build, which keys are secret.
///
/// A hand-written [`ToolOutput`](crate::ToolOutput) receives it in `to_node` and passes it
/// on: to a wrapped value unchanged (a wrapper is transparent), to a field or list item
/// through [`child`](Context::child), which also bounds the depth.
///
/// ```
/// use tool_output_format::{Context, ToolOutput, doc::Node};
/// let cx = Context::new();
/// assert_eq!(cx.child(&7u8), Node::Number("7".into()));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Context<'c> {
    depth: usize,
    plan: &'c RowPlan,
    secrets: &'c Secrets,
    /// The tool's shape, applied by the `Value` walker to the result's record or rows
    /// (depth 0 only), with the counts of what it could not do cleanly.
    shaping: Option<Shaping<'c>>,
    detail: Detail,
    /// Where summary-detail records report the fields they leave out (none outside a
    /// formatter).
    left_out: Option<&'c LeftOut>,
    /// Building for the structured JSON form: list cells are written as JSON arrays (kind
    /// `Json`) instead of joined text, so they read back as arrays.
    structured: bool,
    /// What the first build of a call works out for later builds of the same call (none
    /// outside a formatter).
    memo: Option<&'c Memo>,
}

/// What one call's first build works out once, so that a budget's later builds (of more
/// rows) do not walk every row again: the column union of a `Value` array's table.
///
/// An entry is keyed by the array's address and length. That is sound because a memo lives
/// for one call only, and every array its builds see is borrowed from that call's input,
/// which outlives the call: no two arrays of one call share an address.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    /// The array (its address and length) and its table's columns, `None` when the array is
    /// not a table.
    value_columns: RefCell<Option<(ArrayKey, ValueColumns)>>,
}

/// An array's address and length.
type ArrayKey = (usize, usize);

/// A `Value` array's table columns, `None` when it is not a table.
type ValueColumns = Option<Rc<[String]>>;

impl Memo {
    /// The columns of the table of `items`, computed by `columns` the first time only.
    pub(crate) fn value_columns<T>(
        &self,
        items: &[T],
        columns: impl FnOnce() -> Option<Rc<[String]>>,
    ) -> Option<Rc<[String]>> {
        let key = (items.as_ptr() as usize, items.len());
        if let Some((k, cols)) = &*self.value_columns.borrow()
            && *k == key
        {
            return cols.clone();
        }
        let cols = columns();
        *self.value_columns.borrow_mut() = Some((key, cols.clone()));
        cols
    }
}

/// A shape in force and where its counts go.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shaping<'c> {
    pub shape: &'c Shape,
    /// Counted by the first build only (it shapes every row); later builds of more rows
    /// of the same table do not count again.
    pub stats: &'c RefCell<ShapeStats>,
    /// The main table's columns, kept by the first build so that a budget's later builds
    /// shape only the rows they ask for.
    pub columns: &'c RefCell<Option<Vec<ShapedColumn>>>,
}

/// Which rows of the result's main table to build, and the caps that decide it.
#[derive(Debug, Clone, Default)]
pub(crate) struct RowPlan {
    /// The tool's own `max_rows` (beats the type's attribute).
    pub tool_cap: Option<usize>,
    /// The formatter's `max_rows` (the type's attribute beats it).
    pub global_cap: usize,
    /// First row to build of the main table.
    pub start: usize,
    /// At most this many rows of the main table from `start` (a budget builds a few first,
    /// then asks for more).
    pub want: usize,
    /// Build the rows of the main table from `start` whatever the caps (up to `want`):
    /// summaries count every row, query-focused trimming ranks every row before it keeps
    /// some; the caps stage cuts the rendered rows as usual.
    pub all_rows: bool,
}

impl RowPlan {
    /// The row cap for a table whose type says `type_cap`: tool > type > formatter.
    pub fn cap(&self, type_cap: Option<usize>) -> usize {
        self.tool_cap.or(type_cap).unwrap_or(self.global_cap)
    }
}

static DEFAULT_PLAN: RowPlan = RowPlan {
    tool_cap: None,
    global_cap: usize::MAX,
    start: 0,
    want: usize::MAX,
    all_rows: false,
};
static NO_SECRETS: Secrets = Secrets::EMPTY;

impl Default for Context<'static> {
    fn default() -> Self {
        Context::new()
    }
}

impl Context<'static> {
    /// A context outside any formatter: depth 0, every row, no secrets, every field
    /// ([`Detail::Full`]).
    ///
    /// ```
    /// use tool_output_format::{Context, ToolOutput, doc::Node};
    /// assert_eq!(true.to_node(&Context::new()), Node::Bool(true));
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Context {
            depth: 0,
            plan: &DEFAULT_PLAN,
            secrets: &NO_SECRETS,
            shaping: None,
            detail: Detail::Full,
            left_out: None,
            structured: false,
            memo: None,
        }
    }
}

impl<'c> Context<'c> {
    pub(crate) fn root(plan: &'c RowPlan, secrets: &'c Secrets) -> Self {
        Context {
            depth: 0,
            plan,
            secrets,
            shaping: None,
            detail: Detail::Full,
            left_out: None,
            structured: false,
            memo: None,
        }
    }

    /// This context at detail level `detail`, reporting left-out fields to `left_out`.
    pub(crate) fn with_detail(self, detail: Detail, left_out: Option<&'c LeftOut>) -> Self {
        Context {
            detail,
            left_out,
            ..self
        }
    }

    /// This context, building for the structured JSON form.
    pub(crate) fn structured(self) -> Self {
        Context {
            structured: true,
            ..self
        }
    }

    /// The detail level: [`Detail::Summary`] leaves out the fields marked
    /// `#[tool_output(detail = "full")]`.
    #[must_use]
    pub(crate) fn detail(&self) -> Detail {
        self.detail
    }

    /// Report fields left out at this detail level, so the output can name them and the
    /// call that shows them. A hand-written [`ToolOutput`](crate::ToolOutput) that leaves
    /// fields out in [`Detail::Summary`] calls it too. Names are kept once each, in
    /// first-seen order; outside a formatter this does nothing.
    pub(crate) fn leave_out(&self, names: &[&str]) {
        if let Some(l) = self.left_out {
            l.add(names);
        }
    }

    /// Where the fields left out of this rendering are named (none outside a formatter).
    pub(crate) fn left_out(&self) -> Option<&'c LeftOut> {
        self.left_out
    }

    /// This context, keeping what its builds work out once in `memo`.
    pub(crate) fn with_memo(self, memo: &'c Memo) -> Self {
        Context {
            memo: Some(memo),
            ..self
        }
    }

    /// Where this call's builds keep what they work out once (none outside a formatter).
    pub(crate) fn memo(&self) -> Option<&'c Memo> {
        self.memo
    }

    /// This root context with a shape for the `Value` walker.
    pub(crate) fn with_shaping(self, shaping: Option<Shaping<'c>>) -> Self {
        Context { shaping, ..self }
    }

    /// The shape to apply here: the tool's shape at depth 0 (the result's record or rows),
    /// `None` below it and outside a shaped rendering.
    pub(crate) fn shaping(&self) -> Option<Shaping<'c>> {
        self.shaping.filter(|_| self.depth == 0)
    }

    /// True when building for the structured JSON form (list cells as JSON arrays).
    pub(crate) fn is_structured(&self) -> bool {
        self.structured
    }

    /// How many records or lists enclose the value being built.
    #[must_use]
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// True when a record or list built here would be nested deeper than
    /// [`MAX_DEPTH`]: sources then return [`Node::DepthCut`](crate::doc::Node::DepthCut) instead of recursing.
    #[must_use]
    pub(crate) fn too_deep(&self) -> bool {
        self.depth >= MAX_DEPTH
    }

    /// The context for a field or item one level down.
    #[must_use]
    pub(crate) fn nested(&self) -> Context<'c> {
        Context {
            depth: self.depth + 1,
            ..*self
        }
    }

    /// True when values under `key` must render as `[redacted]`.
    #[must_use]
    pub(crate) fn is_secret(&self, key: &str) -> bool {
        self.secrets.matches(key)
    }

    pub(crate) fn secrets(&self) -> &'c Secrets {
        self.secrets
    }

    /// The rows to build of a table of `total` rows whose type caps it at `type_cap`
    /// (`#[tool_output(max_rows = N)]`). The result's main table (built at depth 0) gets the
    /// rows the formatter asks for; a nested table its first rows up to the cap.
    #[must_use]
    pub(crate) fn rows(&self, total: usize, type_cap: Option<usize>) -> Range<usize> {
        let cap = self.plan.cap(type_cap).min(total);
        if self.depth == 0 && self.plan.all_rows {
            let start = self.plan.start.min(total);
            start..total.min(start.saturating_add(self.plan.want))
        } else if self.depth == 0 {
            let start = self.plan.start.min(cap);
            start..cap.min(start.saturating_add(self.plan.want))
        } else {
            0..cap
        }
    }
}

/// A column of a shaped main table, kept between the builds of one rendering.
#[derive(Debug, Clone)]
pub(crate) struct ShapedColumn {
    pub name: String,
    pub keys: Vec<String>,
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod tests {
    #[test]
    fn detail() {
        use crate::{Context, Detail};
        assert_eq!(Context::new().detail(), Detail::Full);
    }

    #[test]
    fn leave_out() {
        use crate::Context;
        Context::new().leave_out(&["body"]); // no formatter: nothing to report to
    }

    #[test]
    fn rows() {
        use crate::Context;
        assert_eq!(Context::new().rows(10, Some(3)), 0..3);
    }
}
