//! Cut, fit, add the trailing lines, store, write: one call's document through the caps,
//! the focus and the fit to its output (see [`super`]).

use std::borrow::Cow;

use serde_json::Value;

use crate::call::focused::Lens;
use crate::cut::caps::{Cut, Keep, Notice, cut_owned};
use crate::cut::fit::Fitter;
use crate::cut::trailer::{Trailer, squeezed, summary_squeezed};
use crate::doc::{Envelope, Kind, Node, Parts, innermost, join_envelopes, split_envelopes};
use crate::rules::detail::LeftOut;
use crate::sink::json::Json;
use crate::sink::{Document, Layout, Sink};

use super::{Call, FIRST_BUILD, Output, Target, Written};

impl Call<'_> {
    /// Cut, fit, add trailers, store, write.
    #[allow(clippy::too_many_lines)]
    pub(super) fn cut_and_write<'a>(
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
        // A text result is kept as text (see `crate::cut::passage`).
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
