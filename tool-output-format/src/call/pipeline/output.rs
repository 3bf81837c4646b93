//! What a call gives: the structured form, the text with its report, a registered
//! renderer's text, the trailer and the store step, and the budgets with their measures.

use serde_json::Value;

use crate::call::focused::Lens;
use crate::call::report::{Formatted, Report};
use crate::cut::caps::{Cut, Notice};
use crate::cut::fit::Limit;
use crate::cut::trailer::{StoreOutcome, Trailer};
use crate::doc::{Envelope, Node, split_envelopes};
use crate::input::ToolOutput;
use crate::input::context::{Context, RowPlan};
use crate::input::hook::Hooks as _;
use crate::rules::detail::LeftOut;
use crate::shape::ShapeStats;
use crate::sink::Document;
use crate::sink::json::Shortened;
#[cfg(feature = "tokens")]
use crate::text::tokens::TokenCounter;

use super::{Call, Output, Renderer, Target};

impl Call<'_> {
    /// The structured form of a document (the JSON target): its notices, then the focus line
    /// first among them and the agent preset's left-out line last. `shortened`: the values
    /// the caps shortened.
    pub(super) fn structured(
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
    pub(super) fn finish(
        &self,
        text: String,
        json: Option<Value>,
        cut: Cut<'_>,
        facts: Facts<'_>,
    ) -> Output {
        if let (Target::Json, Some(v)) = (self.target, json) {
            return Output::Json(v);
        }
        Output::Text(self.formatted(text, cut, facts))
    }

    /// The text with its [`Report`]: the one place a report is filled (what was cut, from the
    /// cut; whether it is an error, the focus, the store's answer and the shape's counts,
    /// from `facts`; tokens when counted), traced when tracing is on. Without
    /// [`Formatter::report`](crate::Formatter::report) the report says only whether the
    /// result is an error.
    pub(super) fn formatted(&self, text: String, cut: Cut<'_>, facts: Facts<'_>) -> Formatted {
        let trace = crate::call::trace::enabled();
        let bare = |facts: Facts<'_>| Report {
            error: facts.error,
            reference: facts.outcome.reference,
            store_error: facts.outcome.error,
            ..Report::default()
        };
        if !self.report && !trace {
            return Formatted {
                text,
                report: bare(facts),
            };
        }
        let mut r = Report::new(&text, &cut.node, cut.notices, cut.values_shortened);
        r.error = facts.error;
        if let Some(lens) = facts.lens {
            lens.report(&mut r, &cut.node);
        }
        (r.reference, r.store_error) =
            (facts.outcome.reference.clone(), facts.outcome.error.clone());
        if let Some(shape) = &self.opts.shape {
            if !shape.is_empty() {
                r.shape = facts.shape.clone();
            }
            r.shape_errors = shape.errors();
        }
        #[cfg(feature = "tokens")]
        {
            r.tokens = Some(self.count_tokens(&text));
        }
        let mut f = Formatted { text, report: r };
        crate::call::trace::event(self.tool, &f.report);
        if !self.report {
            f.report = bare(facts);
        }
        f
    }

    /// A registered renderer's text: its own markdown, through the line cap and the budgets
    /// (the same fit as any string), the report telling whether the result is an error.
    /// Also whether nothing of the text fits (the output is its `[Omitted: ...]` notice).
    pub(super) fn custom<T: ToolOutput + ?Sized>(
        &self,
        render: &Renderer,
        result: &T,
    ) -> (Formatted, bool) {
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
        // a stand-in reference of the real shape and a cursor as long as any; again with the
        // real lines if longer).
        let fit = |lines: &str| {
            let mut limits = self.limits();
            for l in &mut limits {
                l.budget = l.budget.saturating_sub((l.measure)(lines));
            }
            crate::cut::fit::fit_text(&raw, opts.max_lines, opts.strategy, &limits)
        };
        let lines_at = |trailer: &Trailer<'_>, cursor: &str| {
            let mut lines = String::new();
            trailer.append_text_cut(&mut lines, cursor);
            lines
        };
        let left_out = LeftOut::default();
        let mut trailer = self.trailer(None, &left_out, true);
        let longest = format!("{}:{}", crate::text::lines(&raw).count(), raw.len());
        let (mut text, mut notices, mut shortened) = fit(&lines_at(&trailer, &longest));
        // The store step, after the text is chosen: the renderer's whole text is stored, and
        // the Next line resumes it where this text stopped.
        if trailer.wants_store(&Node::Null, &notices) {
            let whole = Value::String(raw.clone());
            self.put(&mut trailer, Some(&whole).filter(|_| result.is_whole()));
            let mut lines = lines_at(&trailer, &crate::cut::fit::text_cursor(&raw, &notices));
            let over = self
                .limits()
                .iter()
                .any(|l| (l.measure)(&text) + (l.measure)(&lines) > l.budget);
            if over {
                (text, notices, shortened) = fit(&lines);
                lines = lines_at(&trailer, &crate::cut::fit::text_cursor(&raw, &notices));
            }
            text.push_str(&lines);
        }
        let floor = matches!(notices.as_slice(), [Notice::Omitted { .. }]);
        // Whether it is an error: the node's envelopes, built without table rows (only when
        // a report is wanted).
        let error = self.report && {
            let plan = RowPlan {
                want: 0,
                ..opts.row_plan()
            };
            let node = result.to_node(&Context::root(&plan, &opts.secrets));
            split_envelopes(node).0.iter().any(Envelope::is_error)
        };
        let cut = Cut {
            node: Node::Null,
            notices,
            values_shortened: shortened,
            cap_shortest: None,
        };
        let facts = Facts {
            error,
            lens: None,
            outcome: trailer.outcome(),
            shape: stats,
        };
        (self.formatted(text, cut, facts), floor)
    }

    /// The trailer of this call: with a store (text targets only), the fetch tool, its
    /// reference argument and a stand-in reference of the real shape (a fresh random one), so
    /// a budget reserves about the right room before anything is stored.
    pub(super) fn trailer<'t>(
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
    pub(super) fn put(&self, trailer: &mut Trailer<'_>, json: Option<&Value>) {
        if let Some(s) = self.store {
            let put = match json {
                Some(json) => s.store.put_for(self.tool, json).map_err(|e| e.to_string()),
                None => Err(crate::sink::notice::NOT_KEPT.to_owned()),
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
}

/// What a [`Report`] says beyond the cut, gathered by the stages that know it and filled in
/// by [`Call::formatted`].
#[derive(Default)]
pub(super) struct Facts<'l> {
    /// The result is an error (an envelope's, or the renderer's).
    pub error: bool,
    /// The query focus that kept part of the result.
    pub lens: Option<&'l Lens>,
    /// What the store answered.
    pub outcome: StoreOutcome,
    /// The shape's counts, when a shape with rules applied.
    pub shape: Option<ShapeStats>,
}
