//! Options resolved once per call (tool > type > formatter): what every stage reads.

use crate::cut::caps::Keep;
use crate::doc::Node;
use crate::doc::notice::Strategy;
use crate::input::context::RowPlan;
use crate::rules::detail::Detail;
use crate::rules::redact::Secrets;
use crate::shape::Shape;
use crate::sink::Layout;
use std::sync::Arc;

/// Options with every value decided.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub max_lines: usize,
    /// The tool's own row cap (beats a type's `max_rows`).
    pub tool_rows: Option<usize>,
    /// The formatter's row cap (a type's `max_rows` beats it).
    pub global_rows: usize,
    pub max_cell_chars: Option<usize>,
    pub max_chars: Option<usize>,
    #[cfg_attr(not(feature = "tokens"), allow(dead_code))]
    pub max_tokens: Option<usize>,
    pub layout: Layout,
    pub strategy: Strategy,
    pub secrets: Secrets,
    /// The tool's shape, else the global one.
    pub shape: Option<Arc<Shape>>,
    /// Summaries of cut tables over all their rows.
    pub summarize: bool,
    /// Columns the summary sums.
    pub sum: Vec<String>,
    pub detail: Detail,
    /// Fields and columns kept and shown by salience (SPEC 22).
    pub salience: bool,
    /// A page the fetch tool serves: a table keeps its rows from the first and every
    /// column, so the next page resumes where this one stopped (SPEC 19).
    pub paged: bool,
}

impl Resolved {
    /// The row caps, building every row they allow.
    pub(crate) fn row_plan(&self) -> RowPlan {
        RowPlan {
            tool_cap: self.tool_rows,
            global_cap: self.global_rows,
            start: 0,
            want: usize::MAX,
            all_rows: false,
        }
    }

    /// Whether a character or token budget applies.
    pub(crate) fn has_budget(&self) -> bool {
        self.max_chars.is_some() || self.max_tokens.is_some()
    }

    /// What the caps keep of `node`.
    pub(crate) fn keep(&self, node: &Node<'_>) -> Keep {
        let plan = self.row_plan();
        let count = match node {
            Node::Table(t) => plan.cap(t.max_rows),
            Node::Str(_) => self.max_lines,
            _ => usize::MAX,
        };
        // A top-level string is cut by lines; `max_cell_chars` is for cells and values.
        let value_chars = if matches!(node, Node::Str(_)) {
            None
        } else {
            self.max_cell_chars
        };
        Keep {
            count,
            value_chars,
            budget_chars: None,
            nested: None,
            drop: Vec::new(),
            plan,
            salience: self.salience && !self.paged,
            columns: None,
            names_chars: usize::MAX,
            paged: self.paged,
        }
    }
}
