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

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use serde_json::Value;

use crate::call::focused::{Lens, Query};
use crate::call::report::{Formatted, Report};
use crate::call::resolved::Resolved;
use crate::cut::caps::{Cut, Keep, Notice, cut_owned};
use crate::cut::fit::{Fitter, Limit};
use crate::cut::trailer::{Trailer, squeezed, summary_squeezed};
use crate::doc::{Envelope, Kind, Node, Parts, innermost, join_envelopes, split_envelopes};
use crate::input::ToolOutput;
use crate::input::context::{Context, Memo, RowPlan, Shaping};
use crate::rules::detail::{CELL_FLOOR, LeftOut};
use crate::shape::ShapeStats;
use crate::sink::json::{Json, Shortened};
use crate::sink::{Document, Layout, Sink};
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
            mut out,
            unbudgeted,
            plain_table,
            floor,
        } = self.cut_and_write(&build, &json, &left_out);
        // The unfolded table holds this table's cells and, in its rows, the folded columns'
        // cells, of at least `machine_cells` characters (the cap lets a cell keep at least
        // that many), and not the left-out line (with its blank line before it).
        let unfolded_longer = plain_table
            && opts.max_cell_chars.is_none_or(|cap| cap >= CELL_FLOOR)
            && left_out
                .line(self.tool, false)
                .is_some_and(|line| left_out.machine_cells() > line.chars().count() + 2);
        if let Output::Text(f) = &mut out
            && self.report
            && let Some(shape) = &opts.shape
        {
            let stats = stats.into_inner();
            if shape.is_empty() {
                f.report.shape_errors = shape.errors();
            } else {
                f.report.shape = Some(stats);
                f.report.shape_errors = shape.errors();
            }
        }
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

    /// Cut, fit, add trailers, store, write.
    #[allow(clippy::too_many_lines)]
    fn cut_and_write<'a>(
        &self,
        build: &dyn Fn(usize, usize) -> Node<'a>,
        json: &dyn Fn() -> Option<Value>,
        left_out: &LeftOut,
    ) -> Written {
        let opts = &self.opts;
        let text_target = self.target == Target::Text;
        // Salience reads every row of a table (a column said once must hold on every row).
        let first =
            if opts.has_budget() && self.query.is_none() && !opts.summarize && !opts.salience {
                FIRST_BUILD
            } else {
                usize::MAX
            };
        let (shells, body) = split_envelopes(build(0, first));
        let error = shells.iter().any(Envelope::is_error);
        let title = (text_target && !self.tool.is_empty())
            .then(|| format!("{} {}", self.tool, if error { "failed" } else { "result" }));
        let json_sink;
        let sink: &dyn Sink = match self.target {
            Target::Text => opts.layout.sink(),
            Target::Json => {
                json_sink = Json {
                    max_chars: opts.max_cell_chars,
                };
                &json_sink
            }
        };
        let whole = |node: Option<Node<'a>>| {
            if shells.is_empty() {
                node.unwrap_or(Node::Null)
            } else {
                join_envelopes(&shells, node, false)
            }
        };
        let write = |node: &Node<'a>, notices: &[Notice]| {
            sink.render(&Document {
                notices,
                title: title.as_deref(),
                body: node,
            })
        };
        let Some(mut node) = body else {
            // An envelope without data (an error, a batch with nothing failed).
            let doc = whole(None);
            let json = (!text_target).then(|| self.structured(&doc, &[], 0, None, left_out));
            let out = self.finish(write(&doc, &[]), json, Cut::none(), error, None);
            return Written {
                out,
                unbudgeted: true,
                plain_table: false,
                // Nothing of an envelope without data is ever cut.
                floor: true,
            };
        };
        // A text result is kept as text (see `crate::passage`).
        if let Node::Str(s) = &node
            && shells.is_empty()
            && let Some(written) = self.text_result(s, json, left_out)
        {
            return written;
        }
        // Fields and columns in salience order (marks only, without salience).
        // Columns are said once in text only, and only where no cell cap is shorter than
        // what a said-once value may hold.
        let fold = text_target
            && opts
                .max_cell_chars
                .is_none_or(|c| c >= crate::cut::arrange::SAID_ONCE_CHARS);
        crate::cut::arrange::arrange(&mut node, opts.salience, fold);
        // Rows built later are arranged the same way (marks only: salience builds every row
        // at once).
        let grow = |start: usize, want: usize| {
            let mut more = innermost(build(start, want)).unwrap_or(Node::Null);
            crate::cut::arrange::arrange(&mut more, opts.salience, fold);
            more
        };
        let build: &dyn Fn(usize, usize) -> Node<'a> = &grow;
        let summary = match &node {
            Node::Table(t)
                if text_target
                    && opts.summarize
                    && (opts.has_budget() || t.total_rows() > opts.keep(&node).count) =>
            {
                let options = crate::cut::summary::SummaryOptions {
                    sum: opts.sum.clone(),
                    ..crate::cut::summary::SummaryOptions::default()
                };
                Some(crate::cut::summary::of_table(t, &options))
            }
            _ => None,
        };
        let trailer = self.trailer(summary, left_out, text_target);
        if let Some(Parts::Page(p)) = shells.last().map(Envelope::parts) {
            trailer.set_page(p.len, p.item_cursors.as_ref().map_or(0, |c| c.len()));
        }
        // The put runs once the text is chosen, outside the walk and the fit.
        let put = |json: Option<Value>| self.put(&trailer, json.as_ref());
        let plain = |node: &Node<'a>, notices: &[Notice]| {
            let mut text = if shells.is_empty() {
                write(node, notices)
            } else {
                write(
                    &join_envelopes(
                        &shells,
                        Some(node.clone()),
                        trailer.ends_with_fetch(node, notices),
                    ),
                    notices,
                )
            };
            if text_target {
                trailer.append(&mut text, node, notices);
            }
            text
        };
        let limits = self.limits();
        let lens = self
            .query
            .and_then(|q| Lens::new(q, &mut node, opts, &limits, &plain));
        if lens.as_ref().is_some_and(Lens::cut) {
            trailer.set_cut_elsewhere();
        }
        // The structured form of a cut node, as the JSON target gives it (`shortened`: the
        // values the caps shortened).
        let structured = |node: &Node<'a>, notices: &[Notice], shortened: usize| {
            let (body, notices, line) = match &lens {
                Some(lens) => (
                    lens.arrange(node),
                    lens.notices(notices),
                    Some(lens.line(node)),
                ),
                None => (Cow::Borrowed(node), Cow::Borrowed(notices), None),
            };
            let doc = if shells.is_empty() {
                body
            } else {
                Cow::Owned(join_envelopes(&shells, Some(body.into_owned()), false))
            };
            self.structured(&doc, &notices, shortened, line, left_out)
        };
        // A candidate as the target writes it: what the fit measures.
        let render = |node: &Node<'a>, notices: &[Notice]| match (self.target, &lens) {
            // The shortened values counted by their cut markers: never fewer than the exact
            // count the final form uses, so the measured text is never shorter.
            (Target::Json, _) => {
                structured(node, notices, crate::sink::json::count_marked(node)).to_string()
            }
            (Target::Text, Some(lens)) => lens.render(node, notices, &plain),
            (Target::Text, None) => plain(node, notices),
        };
        let caps = opts.keep(&node);
        // A summary is made under a budget even when the caps cut nothing, and a lens reads
        // the budget: with either, the output may differ from the unbudgeted one.
        let budget_free = !opts.summarize && lens.is_none();
        let (text, cut, unbudgeted) = if limits.is_empty() {
            let c = cut_owned(node, &caps, opts.strategy);
            // Values shortened in place (a field's or a cell's cap) are a cut too.
            if c.values_shortened > 0 {
                trailer.set_values_cut(opts.max_cell_chars);
            }
            if trailer.wants_store(&c.node, &c.notices) {
                put(json());
            }
            (render(&c.node, &c.notices), c, true)
        } else {
            let fitter = Fitter {
                render: &render,
                limits: &limits,
                strategy: opts.strategy,
                grow: build,
            };
            let text_of = |c: &Cut<'a>| match c.notices.as_slice() {
                // Nothing of the body fits: the envelope's parts and the trailer are still
                // written.
                [Notice::Omitted { .. }] if !shells.is_empty() => {
                    let mut text = write(
                        &join_envelopes(
                            &shells,
                            None,
                            trailer.ends_with_fetch(&Node::Null, &c.notices),
                        ),
                        &c.notices,
                    );
                    if text_target {
                        trailer.append(&mut text, &Node::Null, &c.notices);
                    }
                    text
                }
                [n @ Notice::Omitted { .. }] if text_target => trailer.omitted(*n),
                notices => render(&c.node, notices),
            };
            let rebuild = || {
                let mut node = innermost(build(0, first)).unwrap_or(Node::Null);
                crate::cut::arrange::arrange(&mut node, opts.salience, fold);
                node
            };
            let mut f = fitter.fit(node, &caps);
            // What a budget cuts after rows and before cells: the summary's column lines
            // (the most that still leave a whole row, found by bisection).
            if trailer.summary_len() > 0 && summary_squeezed(&f.cut.notices) {
                f = squeeze_summary(&trailer, &fitter, &rebuild, &caps);
            }
            // Values shortened by a cap, beside those the budget shortened (its notice).
            let by_budget: usize = f
                .cut
                .notices
                .iter()
                .map(|n| match n {
                    Notice::Shortened { values, .. } => *values,
                    _ => 0,
                })
                .sum();
            if f.cut.values_shortened > by_budget {
                trailer.set_values_cut(opts.max_cell_chars);
            }
            let mut unbudgeted = f.whole && budget_free;
            if trailer.wants_store(&f.cut.node, &f.cut.notices) {
                unbudgeted = false;
                put(json());
                // The fit reserved room for a stand-in reference of the same shape; the real
                // one (or the line saying the store failed) may count differently: fit again
                // in the rare case it breaks the budget.
                f.text = text_of(&f.cut);
                let over = limits.iter().any(|l| (l.measure)(&f.text) > l.budget);
                if over && !squeezed(&f.cut.notices) {
                    f = fitter.fit(rebuild(), &caps);
                    f.text = text_of(&f.cut);
                }
            } else if matches!(f.cut.notices.as_slice(), [Notice::Omitted { .. }]) {
                f.text = text_of(&f.cut);
            }
            (f.text, f.cut, unbudgeted)
        };
        // The final document is built only for the JSON target: the text is already written.
        let json =
            (!text_target).then(|| structured(&cut.node, &cut.notices, cut.values_shortened));
        // Only a folded result is checked (every other call skips the scan of its cells).
        let plain_table = left_out.folded()
            && text_target
            && opts.layout == Layout::Compact
            && shells.is_empty()
            && budget_free
            && cut.notices.is_empty()
            && cut.values_shortened == 0
            && matches!(&cut.node, Node::Table(t)
                if t.rows() == t.total_rows()
                    && !t.kinds().contains(&Kind::Json)
                    && !t.columns().iter().any(|c| c.contains('.')));
        let outcome = trailer.outcome();
        let floor = matches!(cut.notices.as_slice(), [Notice::Omitted { .. }]);
        let mut out = self.finish(text, json, cut, error, lens.as_ref());
        if let Output::Text(f) = &mut out {
            f.report.reference = outcome.reference;
            f.report.store_error = outcome.error;
        }
        Written {
            out,
            unbudgeted,
            plain_table,
            floor,
        }
    }

    /// A string result as text (see [`crate::passage`]), in a fence; cut, the most whole
    /// lines that fit the line cap and the budget (or the
    /// first characters of a line too long for it), announced first, and ending with the
    /// Next line whose cursor resumes exactly where the text stopped. `None` where the general
    /// path applies: another target or line strategy, a query, an empty text, a cap of no
    /// lines, or a budget too small for one character (the general path says what it omits).
    fn text_result(
        &self,
        s: &str,
        json: &dyn Fn() -> Option<Value>,
        left_out: &LeftOut,
    ) -> Option<Written> {
        let opts = &self.opts;
        if self.target != Target::Text
            || self.query.is_some()
            || opts.strategy != crate::doc::notice::Strategy::Head
            || opts.max_lines == 0
            || s.is_empty()
        {
            return None;
        }
        let text = crate::cut::passage::Passage::new(s);
        let limits = self.limits();
        let within = |t: &str| limits.iter().all(|l| (l.measure)(t) <= l.budget);
        let total = text.lines();
        if total <= opts.max_lines {
            let mut whole = String::new();
            crate::cut::passage::write_fenced(s, &mut whole);
            if within(&whole) {
                let cut = Cut::whole(Node::Str(s.into()));
                let out = self.finish(whole, None, cut, false, None);
                return Some(Written {
                    out,
                    unbudgeted: true,
                    plain_table: false,
                    floor: false,
                });
            }
        }
        let trailer = self.trailer(None, left_out, true);
        let render = |end: usize| {
            let mut t = text.span(0, end).first_notice();
            t.push_str("\n\n");
            crate::cut::passage::write_fenced(&s[..end], &mut t);
            trailer.append_text_cut(&mut t, &text.cursor(end));
            t
        };
        let fits = |end: usize| within(&render(end));
        let mut end = text.stop(0, opts.max_lines, opts.max_chars, &fits)?;
        let span = text.span(0, end);
        let notices = vec![Notice::Lines {
            kept: span.whole_lines(),
            total,
            strategy: crate::doc::notice::Strategy::Head,
        }];
        if trailer.wants_store(&Node::Null, &notices) {
            self.put(&trailer, json().as_ref());
        }
        // The stored reference (or the line saying the store failed) may count differently
        // from the stand-in the search measured.
        if !fits(end) {
            end = text.stop(0, opts.max_lines, opts.max_chars, &fits)?;
        }
        let span = text.span(0, end);
        let notices = vec![Notice::Lines {
            kept: span.whole_lines(),
            total,
            strategy: crate::doc::notice::Strategy::Head,
        }];
        let cut = Cut {
            node: Node::Str(s[..end].into()),
            notices,
            values_shortened: usize::from(span.to.is_some()),
        };
        let outcome = trailer.outcome();
        let mut out = self.finish(render(end), None, cut, false, None);
        if let Output::Text(f) = &mut out {
            f.report.reference = outcome.reference;
            f.report.store_error = outcome.error;
        }
        Some(Written {
            out,
            unbudgeted: false,
            plain_table: false,
            floor: false,
        })
    }

    /// A page of the text `s` from byte `start` (a fetch page, see [`crate::passage`]): the
    /// lines it holds, the most that fit the line cap and the budget in a fence, and the
    /// call `next` words for the cursor where it stopped (none after the last). When not one
    /// character fits with them, the first character alone, over the budget and said so.
    pub(crate) fn text_page(&self, s: &str, start: usize, next: &dyn Fn(&str) -> String) -> String {
        let text = crate::cut::passage::Passage::new(s);
        let limits = self.limits();
        let render = |end: usize| {
            let mut t = text.span(start, end).page_notice();
            t.push_str("\n\n");
            crate::cut::passage::write_fenced(&s[start..end], &mut t);
            if end < s.len() {
                t.push_str("\n\n");
                t.push_str(&next(&text.cursor(end)));
            }
            t
        };
        let fits = |end: usize| limits.iter().all(|l| (l.measure)(&render(end)) <= l.budget);
        if let Some(end) = text.stop(start, self.opts.max_lines, self.opts.max_chars, &fits) {
            return render(end);
        }
        let end = text.one_grapheme(start);
        let page = render(end);
        format!(
            "[Over the budget: this character alone needs {} characters; shown so the rest \
             stays reachable]\n\n{page}",
            page.chars().count()
        )
    }

    /// The structured form of a document (the JSON target): its notices, then the focus line
    /// first among them and the agent preset's left-out line last. `shortened`: the values
    /// the caps shortened.
    fn structured(
        &self,
        doc: &Node<'_>,
        notices: &[Notice],
        shortened: usize,
        focus_line: Option<String>,
        left_out: &LeftOut,
    ) -> Value {
        let mut v = crate::sink::json::to_value(
            &Document {
                notices,
                title: None,
                body: doc,
            },
            Shortened {
                values: shortened,
                max_chars: self.opts.max_cell_chars,
            },
        );
        if let Some(line) = focus_line {
            crate::sink::json::push_focus_notice(&mut v, line);
        }
        if let Some(line) = left_out
            .folded()
            .then(|| left_out.line(self.tool, false))
            .flatten()
        {
            crate::sink::json::push_left_out_notice(&mut v, line);
        }
        v
    }

    /// The output of the target: the text with its report, or the structured form (`json`,
    /// given for the JSON target).
    fn finish(
        &self,
        text: String,
        json: Option<Value>,
        cut: Cut<'_>,
        error: bool,
        lens: Option<&Lens>,
    ) -> Output {
        if let (Target::Json, Some(v)) = (self.target, json) {
            return Output::Json(v);
        }
        let trace = crate::call::trace::enabled();
        if !self.report && !trace {
            let report = Report {
                error,
                ..Report::default()
            };
            return Output::Text(Formatted { text, report });
        }
        let mut r = Report::new(&text, &cut.node, cut.notices, cut.values_shortened);
        r.error = error;
        if let Some(lens) = lens {
            lens.report(&mut r, &cut.node);
        }
        let mut f = self.with_tokens(Formatted { text, report: r }, true);
        crate::call::trace::event(self.tool, &f.report);
        if !self.report {
            f.report = Report {
                error,
                ..Report::default()
            };
        }
        Output::Text(f)
    }

    /// A registered renderer's text: its own markdown, through the line cap and the budgets
    /// (the same fit as any string), the report telling whether the result is an error.
    /// Also whether nothing of the text fits (the output is its `[Omitted: ...]` notice).
    fn custom<T: ToolOutput + ?Sized>(&self, render: &Renderer, result: &T) -> (Formatted, bool) {
        let opts = &self.opts;
        let mut json = result.to_json();
        opts.secrets.value(&mut json);
        let mut stats = None;
        let raw = match opts.shape.as_deref().filter(|s| !s.is_empty()) {
            Some(shape) => {
                let mut counts = ShapeStats::default();
                let shaped = shape.apply_with_stats(&json, &mut counts);
                stats = Some(counts);
                render(&shaped)
            }
            None => render(&json),
        };
        // With a store, room is kept for the lines that follow a cut text (the trailer's, with
        // a stand-in reference of the real shape; again with the real lines if longer).
        let fit = |lines: &str| {
            let mut limits = self.limits();
            for l in &mut limits {
                l.budget = l.budget.saturating_sub((l.measure)(lines));
            }
            crate::cut::fit::fit_text(&raw, opts.max_lines, opts.strategy, &limits)
        };
        let left_out = LeftOut::default();
        let trailer = self.trailer(None, &left_out, true);
        let (mut text, mut notices, mut shortened) = fit(&trailer.lines_if_cut());
        // The store step, after the text is chosen: the same lines as any cut result.
        if trailer.wants_store(&Node::Null, &notices) {
            self.put(&trailer, Some(&json).filter(|_| result.is_whole()));
            let lines = trailer.lines_if_cut();
            let over = self
                .limits()
                .iter()
                .any(|l| (l.measure)(&text) + (l.measure)(&lines) > l.budget);
            if over {
                (text, notices, shortened) = fit(&lines);
            }
            text.push_str(&lines);
        }
        let floor = matches!(notices.as_slice(), [Notice::Omitted { .. }]);
        let mut r = Report::new(&text, &Node::Null, notices, shortened);
        let outcome = trailer.outcome();
        (r.reference, r.store_error) = (outcome.reference, outcome.error);
        if let Some(shape) = &opts.shape {
            r.shape = stats;
            r.shape_errors = shape.errors();
        }
        if self.report {
            // Whether it is an error: the node's envelopes, built without table rows.
            let plan = RowPlan {
                want: 0,
                ..opts.row_plan()
            };
            let node = result.to_node(&Context::root(&plan, &opts.secrets));
            r.error = split_envelopes(node).0.iter().any(Envelope::is_error);
        }
        let trace = crate::call::trace::enabled();
        let f = self.with_tokens(Formatted { text, report: r }, self.report || trace);
        crate::call::trace::event(self.tool, &f.report);
        (f, floor)
    }

    /// The trailer of this call: with a store (text targets only), the fetch tool, its
    /// reference argument and a stand-in reference of the real shape (a fresh random one), so
    /// a budget reserves about the right room before anything is stored.
    fn trailer<'t>(
        &'t self,
        summary: Option<crate::cut::summary::Summary>,
        left_out: &'t LeftOut,
        text_target: bool,
    ) -> Trailer<'t> {
        let fetch = self.store.filter(|_| text_target).map(|s| {
            let stand_in =
                crate::store::new_reference().unwrap_or_else(|_| format!("r_{}", "0".repeat(26)));
            (&*s.fetch_tool, self.ref_arg, stand_in)
        });
        let limits = self.limits();
        Trailer::new(self.tool, summary, left_out, fetch).with_names_chars(
            crate::cut::fit::names_chars(&limits),
            crate::cut::fit::room(&limits),
        )
    }

    /// The store step: put the full result and tell the trailer what the store answered.
    /// `json`: the whole result, `None` when the result is not whole (a stream's counted
    /// records), which is told instead of stored.
    fn put(&self, trailer: &Trailer<'_>, json: Option<&Value>) {
        if let Some(s) = self.store {
            let put = match json {
                Some(json) => s.store.put_for(self.tool, json).map_err(|e| e.to_string()),
                None => Err(crate::doc::notice::NOT_KEPT.to_owned()),
            };
            trailer.stored(put);
        }
    }

    /// The budgets of this call (characters, tokens), each with its measure.
    pub(crate) fn limits(&self) -> Vec<Limit<'_>> {
        let mut limits = Vec::new();
        if let Some(budget) = self.opts.max_chars {
            limits.push(Limit {
                measure: Box::new(|t: &str| t.chars().count()),
                budget,
                unit: crate::BudgetUnit::Chars,
            });
        }
        #[cfg(feature = "tokens")]
        if let Some(budget) = self.opts.max_tokens {
            limits.push(Limit {
                measure: Box::new(|t: &str| self.count_tokens(t)),
                budget,
                unit: crate::BudgetUnit::Tokens,
            });
        }
        limits
    }

    #[cfg(feature = "tokens")]
    fn count_tokens(&self, text: &str) -> usize {
        match self.counter {
            Some(c) => c.count(text),
            None => crate::text::tokens::O200k.count(text),
        }
    }

    #[allow(unused_mut, clippy::unused_self)] // both used with the `tokens` feature
    fn with_tokens(&self, mut f: Formatted, count: bool) -> Formatted {
        #[cfg(feature = "tokens")]
        if count {
            f.report.tokens = Some(self.count_tokens(&f.text));
        }
        let _ = count;
        f
    }
}

/// The most summary lines that still leave a whole row under the budget (bisection).
fn squeeze_summary<'a>(
    trailer: &Trailer<'_>,
    fitter: &Fitter<'_, 'a>,
    rebuild: &dyn Fn() -> Node<'a>,
    caps: &Keep,
) -> crate::cut::fit::Fitted<'a> {
    let (mut lo, mut hi) = (0, trailer.summary_len());
    let mut best = None;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        trailer.set_summary_lines(mid);
        let g = fitter.fit(rebuild(), caps);
        if summary_squeezed(&g.cut.notices) {
            hi = mid;
        } else {
            best = Some((mid, g));
            lo = mid + 1;
        }
    }
    if let Some((n, g)) = best {
        trailer.set_summary_lines(n);
        g
    } else {
        trailer.set_summary_lines(0);
        fitter.fit(rebuild(), caps)
    }
}
