//! The call: one pipeline every entry point runs (`format`, `format_with_report`,
//! `format_json`, `format_rows`, `focus(q).format*`, registered renderers, the adapters, the
//! CLI), in this order:
//!
//! 1. **walk**: the result describes itself as a document; the context carries the plan of
//!    rows, the secret keys, the shape, the detail level and the depth, into envelopes too;
//! 2. **cut**: caps, then focus (when there is a query), then the one budget search;
//! 3. **trailers**: summary, left-out fields, the stored reference (text only), measured by
//!    the budget;
//! 4. **store**: the full result is put *after* rendering (a reference of the same shape was
//!    reserved), so no I/O happens inside the walk or the fit; a failed put is told in one line
//!    and no reference is promised;
//! 5. **sink**: markdown (aligned, compact), CSV or structured JSON.

use std::cell::RefCell;
use std::sync::Arc;

use serde_json::Value;

use crate::call::focused::Query;
use crate::call::report::{Formatted, Report};
use crate::call::resolved::Resolved;
use crate::input::ToolOutput;
use crate::input::context::{Context, Memo, RowPlan, Shaping};
use crate::input::hook::Hooks as _;
use crate::rules::detail::{CELL_FLOOR, LeftOut};
use crate::shape::ShapeStats;
use crate::store::ResultStore;
#[cfg(feature = "tokens")]
use crate::text::tokens::TokenCounter;

/// A registered renderer: the tool's JSON (redacted, shaped) to markdown.
pub(crate) type Renderer = Arc<dyn Fn(&Value) -> String + Send + Sync + 'static>;

/// Where cut results are kept, and the tool that fetches them.
#[derive(Clone)]
pub(crate) struct StoreTarget {
    pub store: Arc<dyn ResultStore>,
    pub fetch_tool: String,
}

/// Rows built first when a budget applies (the fit asks the source for more).
const FIRST_BUILD: usize = 64;

/// What the call writes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// Markdown or CSV text (the layout's sink), with trailers.
    Text,
    /// The structured JSON form.
    Json,
}

/// The longest result (in characters) for which [`Call::run`] checks that folding paid.
const FOLD_CHECK_CHARS: usize = 1_000;

/// What one run of a call gives ([`Call::run_shaped`]).
struct Run {
    out: Output,
    /// Nothing of the result fits: `out` is the least it can be (see [`Written::floor`]).
    floor: bool,
    /// A folding shape left something out.
    folded: bool,
    /// `out` is the output the call gives without its budget (see [`Call::cut_and_write`]).
    unbudgeted: bool,
    /// The same result with nothing folded is known to be longer (see [`Call::run_folding`]).
    unfolded_longer: bool,
}

/// What [`Call::run_folding`] chose.
struct Rendered {
    out: Output,
    /// Nothing of the result fits: `out` is the least it can be (see [`Written::floor`]).
    floor: bool,
}

impl Rendered {
    /// An output that holds some of the result.
    fn of(out: Output) -> Self {
        Rendered { out, floor: false }
    }
}

/// What [`Call::cut_and_write`] wrote.
struct Written {
    out: Output,
    /// The output the call gives without its budget: there is none, or the fit kept the
    /// whole (then no summary, focus or store step depends on the budget either).
    unbudgeted: bool,
    /// The text is a compact table shown whole: every row, no notice, no value shortened,
    /// no object or dotted column, no envelope, summary or focus. Folded columns put back
    /// only add cells to such a table.
    plain_table: bool,
    /// Nothing of the result fits its budget: the output is the least the result can be
    /// (the `[Omitted: ...]` notice, with the parts that are never cut), which a smaller
    /// budget can not shorten.
    floor: bool,
}

/// One call: the tool, its options resolved once, the query and where it goes.
pub(crate) struct Call<'c> {
    pub tool: &'c str,
    pub opts: Resolved,
    pub query: Option<&'c Query>,
    pub report: bool,
    pub target: Target,
    pub store: Option<&'c StoreTarget>,
    /// The fetch tool's reference argument in the Next line.
    pub ref_arg: &'c str,
    pub renderer: Option<&'c Renderer>,
    #[cfg(feature = "tokens")]
    pub counter: Option<&'c dyn TokenCounter>,
}

/// What a call gives: the text and its report, or the structured JSON.
#[allow(clippy::large_enum_variant)] // made once per call and consumed at once
pub(crate) enum Output {
    Text(Formatted),
    Json(Value),
}

impl Output {
    pub fn text(self) -> Formatted {
        match self {
            Output::Text(f) => f,
            Output::Json(v) => Formatted {
                text: v.to_string(),
                report: Report::default(),
            },
        }
    }

    pub fn json(self) -> Value {
        match self {
            Output::Json(v) => v,
            Output::Text(f) => Value::String(f.text),
        }
    }
}

impl Call<'_> {
    /// Run the pipeline on `result`.
    ///
    /// A folding shape (the agent preset's) folds only where that pays: when it left fields
    /// out of a small result (text, or the structured JSON written compactly, of at most
    /// [`FOLD_CHECK_CHARS`] characters; no budget, no store), the same result with nothing
    /// folded is rendered too and kept when it is no longer (a left-out line naming one
    /// short URL costs more than the URL). It is not rendered when a bound already shows
    /// it longer: a compact table whose folded cells outweigh the left-out line.
    ///
    /// The budget holds on the exact output of every target: the fit measures each candidate
    /// as the target writes it (the text with its trailing lines, or the JSON written
    /// compactly with every notice). When the output as written is still over (an estimate
    /// that was off: the stored reference counting differently from its stand-in, a left-out
    /// line that grew with rows built after the candidate was measured), the call renders once
    /// more with the budget smaller by the overshoot: never more than two renders in all.
    pub fn run<T: ToolOutput + ?Sized>(&self, result: &T) -> Output {
        let first = self.run_folding(result);
        if first.floor {
            return first.out;
        }
        let written = Self::written(&first.out);
        let mut opts = self.opts.clone();
        let mut over = false;
        for l in &self.limits() {
            let n = (l.measure)(&written);
            if n > l.budget {
                over = true;
                let b = match l.unit {
                    crate::BudgetUnit::Chars => &mut opts.max_chars,
                    crate::BudgetUnit::Tokens => &mut opts.max_tokens,
                };
                *b = b.map(|b| b.saturating_sub(n - l.budget).max(1));
            }
        }
        if !over {
            return first.out;
        }
        let second = Call { opts, ..*self }.run_folding(result);
        debug_assert!(
            second.floor || self.within_budget(&second.out),
            "the second render of {:?} is within its budget",
            self.tool
        );
        second.out
    }

    /// The output as written: the text, or the JSON written compactly.
    fn written(out: &Output) -> std::borrow::Cow<'_, str> {
        match out {
            Output::Text(f) => std::borrow::Cow::Borrowed(f.text.as_str()),
            Output::Json(v) => std::borrow::Cow::Owned(v.to_string()),
        }
    }

    /// [`Call::run`] before the exact-output check (folding decided as documented there).
    fn run_folding<T: ToolOutput + ?Sized>(&self, result: &T) -> Rendered {
        if let (Some(render), Target::Text) = (self.renderer, self.target) {
            let (f, floor) = self.custom(render, result);
            return Rendered {
                out: Output::Text(f),
                floor,
            };
        }
        let run = self.run_shaped(result, false);
        let folded = Rendered {
            out: run.out,
            floor: run.floor,
        };
        let out = &folded.out;
        if !run.folded || self.store.is_some() || Self::size(out) > FOLD_CHECK_CHARS {
            return folded;
        }
        // `out` is what the call gives without its budget: its unbudgeted folded run.
        let as_unbudgeted = !self.opts.has_budget() || (run.unbudgeted && !self.report);
        debug_assert!(
            !as_unbudgeted
                || Self::written(&self.unbudgeted().run_shaped(result, false).out)
                    == Self::written(out),
            "an output the fit kept whole equals the unbudgeted one"
        );
        if run.unfolded_longer && as_unbudgeted {
            // Folding paid: the unfolded run is not rendered.
            debug_assert!(
                Self::size(&self.unbudgeted().run_shaped(result, true).out) > Self::size(out),
                "the unfolded table is longer"
            );
            return folded;
        }
        if !self.opts.has_budget() {
            let unfolded = self.run_shaped(result, true).out;
            return if Self::size(&unfolded) <= Self::size(out) {
                Rendered::of(unfolded)
            } else {
                folded
            };
        }
        // A budget that is not reached changes nothing: the output without it, when that
        // output is within it.
        let free = self.unbudgeted();
        let unbudgeted = if as_unbudgeted {
            // The fit kept the whole: only the unfolded run is left to compare with.
            let unfolded = free.run_shaped(result, true).out;
            if Self::size(&unfolded) > Self::size(out) {
                return folded;
            }
            unfolded
        } else {
            free.run_folding(result).out
        };
        if self.within_budget(&unbudgeted) {
            Rendered::of(unbudgeted)
        } else {
            folded
        }
    }

    /// This call without its budget.
    fn unbudgeted(&self) -> Call<'_> {
        Call {
            opts: Resolved {
                max_chars: None,
                max_tokens: None,
                ..self.opts.clone()
            },
            ..*self
        }
    }

    /// The length of an output in characters (JSON written compactly).
    fn size(out: &Output) -> usize {
        Self::written(out).chars().count()
    }

    /// Whether `out` is within every budget of this call.
    fn within_budget(&self, out: &Output) -> bool {
        let written = Self::written(out);
        self.limits()
            .iter()
            .all(|l| (l.measure)(&written) <= l.budget)
    }

    /// [`Call::run`] with the options' shape; `unfold`: a folding shape only flattens, as
    /// in full detail.
    fn run_shaped<T: ToolOutput + ?Sized>(&self, result: &T, unfold: bool) -> Run {
        let opts = &self.opts;
        let left_out = LeftOut::default();
        let stats = RefCell::new(ShapeStats::default());
        let columns = RefCell::new(None);
        let memo = Memo::default();
        // A folding shape (the agent preset's) folds only in summary detail: full detail
        // shows every field, flattened where the preset would flatten.
        let flat_only;
        let shape = match opts.shape.as_deref().filter(|s| !s.is_empty()) {
            Some(s) if s.folds() && (unfold || opts.detail.is_full()) => {
                flat_only = crate::shape::Shape::new().flatten();
                Some(&flat_only)
            }
            other => other,
        };
        let structured = self.target == Target::Json;
        let build = |start: usize, want: usize| {
            let plan = self.plan(start, want);
            let shaping = shape.map(|shape| Shaping {
                shape,
                stats: &stats,
                columns: &columns,
            });
            let mut cx = Context::root(&plan, &opts.secrets)
                .with_detail(opts.detail, Some(&left_out))
                .with_shaping(shaping)
                .with_memo(&memo);
            if structured {
                cx = cx.structured();
            }
            result.to_node(&cx)
        };
        // The full result, redacted: what a store keeps (`None` for records a stream did not
        // keep, which no store can give back).
        let json = || {
            if !result.is_whole() {
                return None;
            }
            let mut json = result.to_json();
            opts.secrets.value(&mut json);
            Some(json)
        };
        let Written {
            out,
            unbudgeted,
            plain_table,
            floor,
        } = self.cut_and_write(&build, &json, &left_out, &|| {
            shape.map(|_| stats.borrow().clone())
        });
        // The unfolded table holds this table's cells and, in its rows, the folded columns'
        // cells, of at least `machine_cells` characters (the cap lets a cell keep at least
        // that many), and not the left-out line (with its blank line before it).
        let unfolded_longer = plain_table
            && opts.max_cell_chars.is_none_or(|cap| cap >= CELL_FLOOR)
            && left_out
                .line(self.tool, false)
                .is_some_and(|line| left_out.machine_cells() > line.chars().count() + 2);
        Run {
            out,
            floor,
            folded: left_out.folded(),
            unbudgeted,
            unfolded_longer,
        }
    }

    fn plan(&self, start: usize, want: usize) -> RowPlan {
        RowPlan {
            start,
            want,
            all_rows: self.opts.summarize || self.query.is_some_and(Query::ranks_rows),
            ..self.opts.row_plan()
        }
    }
}

mod output;
mod text;
mod write;
