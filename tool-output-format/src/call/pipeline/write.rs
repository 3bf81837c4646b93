//! Cut, fit, add the trailing lines, store, write: one call's document through the caps,
//! the focus and the fit to its output (see [`super`]).

use std::borrow::Cow;

use serde_json::Value;

use crate::call::focused::Lens;
use crate::cut::caps::{Cut, Notice, cut_owned};
use crate::cut::fit::Fitter;
use crate::cut::trailer::{Trailer, squeezed, summary_squeezed};
use crate::doc::{Envelope, Kind, Node, Parts, innermost, join_envelopes, split_envelopes};
use crate::rules::detail::LeftOut;
use crate::sink::json::Json;
use crate::sink::{Document, Layout, Sink};

use super::output::Facts;
use super::{Call, FIRST_BUILD, Target, Written};
use crate::shape::ShapeStats;

impl Call<'_> {
    /// Cut, fit, add trailers, store, write. `shape_stats`: the shape's counts once the walk
    /// is done (for the report).
    #[allow(clippy::too_many_lines)]
    pub(super) fn cut_and_write<'a>(
        &self,
        build: &dyn Fn(usize, usize) -> Node<'a>,
        json: &dyn Fn() -> Option<Value>,
        left_out: &LeftOut,
        shape_stats: &dyn Fn() -> Option<ShapeStats>,
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
        let frame = Frame {
            sink,
            title: title.as_deref(),
            shells: &shells,
        };
        let Some(mut node) = body else {
            // An envelope without data (an error, a batch with nothing failed).
            let doc = frame.around(None);
            let json = (!text_target).then(|| self.structured(&doc, &[], 0, None, left_out));
            let facts = Facts {
                error,
                shape: shape_stats(),
                ..Facts::default()
            };
            let out = self.finish(frame.write(&doc, &[]), json, Cut::none(), facts);
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
            && let Some(written) = self.text_result(s, json, left_out, shape_stats)
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
        let mut trailer = self.trailer(summary, left_out, text_target);
        if let Some(Parts::Page(p)) = shells.last().map(Envelope::parts) {
            trailer.set_page(p.len, p.item_cursors.as_ref().map_or(0, |c| c.len()));
        }
        // Candidates are written with the trailer as it stands: each writer borrows it, so
        // it changes (the focus cut, values shortened, what the store answered, summary
        // lines) only between writers.
        let limits = self.limits();
        let unfocused = Pen {
            call: self,
            frame: &frame,
            lens: None,
            left_out,
        };
        let lens = self.query.and_then(|q| {
            let w = unfocused.with(&trailer);
            Lens::new(q, &mut node, opts, &limits, &|n, ns| w.plain(n, ns))
        });
        if lens.as_ref().is_some_and(Lens::cut) {
            trailer.set_cut_elsewhere();
        }
        let lens = lens.as_ref();
        let pen = Pen { lens, ..unfocused };
        let caps = opts.keep(&node);
        // A summary is made under a budget even when the caps cut nothing, and a lens reads
        // the budget: with either, the output may differ from the unbudgeted one.
        let budget_free = !opts.summarize && lens.is_none();
        let (text, cut, unbudgeted) = if limits.is_empty() {
            let c = cut_owned(node, &caps, opts.strategy);
            // Values shortened in place (a field's or a cell's cap) are a cut too.
            if c.values_shortened > 0 {
                trailer.set_values_cut(c.cap_shortest.or(opts.max_cell_chars));
            }
            // The put runs once the text is chosen, outside the walk and the fit.
            if trailer.wants_store(&c.node, &c.notices) {
                self.put(&mut trailer, json().as_ref());
            }
            (pen.with(&trailer).render(&c.node, &c.notices), c, true)
        } else {
            let fit = |trailer: &Trailer<'_>, node: Node<'a>| {
                let w = pen.with(trailer);
                Fitter {
                    render: &|n, ns| w.render(n, ns),
                    limits: &limits,
                    strategy: opts.strategy,
                    grow: build,
                }
                .fit(node, &caps)
            };
            let rebuild = || {
                let mut node = innermost(build(0, first)).unwrap_or(Node::Null);
                crate::cut::arrange::arrange(&mut node, opts.salience, fold);
                node
            };
            let mut f = fit(&trailer, node);
            // What a budget cuts after rows and before cells: the summary's column lines
            // (the most that still leave a whole row, found by bisection).
            if trailer.summary_len() > 0 && summary_squeezed(&f.cut.notices) {
                f = squeeze_summary(&mut trailer, &|t| fit(t, rebuild()));
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
                trailer.set_values_cut(f.cut.cap_shortest.or(opts.max_cell_chars));
            }
            let mut unbudgeted = f.whole && budget_free;
            if trailer.wants_store(&f.cut.node, &f.cut.notices) {
                unbudgeted = false;
                self.put(&mut trailer, json().as_ref());
                // The fit reserved room for a stand-in reference of the same shape; the real
                // one (or the line saying the store failed) may count differently: fit again
                // in the rare case it breaks the budget.
                f.text = pen.with(&trailer).text_of(&f.cut);
                let over = limits.iter().any(|l| (l.measure)(&f.text) > l.budget);
                if over && !squeezed(&f.cut.notices) {
                    f = fit(&trailer, rebuild());
                    f.text = pen.with(&trailer).text_of(&f.cut);
                }
            } else if matches!(f.cut.notices.as_slice(), [Notice::Omitted { .. }]) {
                f.text = pen.with(&trailer).text_of(&f.cut);
            }
            (f.text, f.cut, unbudgeted)
        };
        // The final document is built only for the JSON target: the text is already written.
        let json = (!text_target).then(|| {
            pen.with(&trailer)
                .structured(&cut.node, &cut.notices, cut.values_shortened)
        });
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
        let floor = matches!(cut.notices.as_slice(), [Notice::Omitted { .. }]);
        let facts = Facts {
            error,
            lens,
            outcome: trailer.outcome(),
            shape: shape_stats(),
        };
        let out = self.finish(text, json, cut, facts);
        Written {
            out,
            unbudgeted,
            plain_table,
            floor,
        }
    }
}

/// The most summary lines that still leave a whole row under the budget (bisection); `fit`:
/// the fit with the trailer as it stands.
fn squeeze_summary<'a>(
    trailer: &mut Trailer<'_>,
    fit: &dyn Fn(&Trailer<'_>) -> crate::cut::fit::Fitted<'a>,
) -> crate::cut::fit::Fitted<'a> {
    let (mut lo, mut hi) = (0, trailer.summary_len());
    let mut best = None;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        trailer.set_summary_lines(mid);
        let g = fit(trailer);
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
        fit(trailer)
    }
}

/// How a call's documents are written: its sink, its title and the envelopes around the body.
struct Frame<'f, 'a> {
    sink: &'f dyn Sink,
    title: Option<&'f str>,
    shells: &'f [Envelope<'a>],
}

impl<'a> Frame<'_, 'a> {
    /// `node` with its notices, through the sink.
    fn write(&self, node: &Node<'a>, notices: &[Notice]) -> String {
        self.sink.render(&Document {
            notices,
            title: self.title,
            body: node,
        })
    }

    /// `body` inside the envelopes (`ends_with_fetch`: the fetch tool's Next line follows,
    /// so a page's own gives way).
    fn wrap(&self, body: Option<Node<'a>>, ends_with_fetch: bool) -> Node<'a> {
        if self.shells.is_empty() {
            body.unwrap_or(Node::Null)
        } else {
            join_envelopes(self.shells, body, ends_with_fetch)
        }
    }

    /// `body` inside the envelopes, as the structured form holds it.
    fn around(&self, body: Option<Node<'a>>) -> Node<'a> {
        self.wrap(body, false)
    }
}

/// What writes a call's candidates besides its trailer: the call, its frame, its focus.
#[derive(Clone, Copy)]
struct Pen<'p, 'a> {
    call: &'p Call<'p>,
    frame: &'p Frame<'p, 'a>,
    lens: Option<&'p Lens>,
    left_out: &'p LeftOut,
}

impl<'p, 'a> Pen<'p, 'a> {
    /// The writer of these parts with the trailer as it stands.
    fn with<'w>(&'w self, trailer: &'w Trailer<'w>) -> Writer<'w, 'a>
    where
        'p: 'w,
    {
        Writer { pen: self, trailer }
    }
}

/// Writes the candidates of one call with its trailer as it stands (and its focus).
struct Writer<'w, 'a> {
    pen: &'w Pen<'w, 'a>,
    trailer: &'w Trailer<'w>,
}

impl<'a> Writer<'_, 'a> {
    /// A candidate in the text's sink without the focus: the body in its envelopes, then the
    /// trailing lines (text only).
    fn plain(&self, node: &Node<'a>, notices: &[Notice]) -> String {
        let mut text = if self.pen.frame.shells.is_empty() {
            self.pen.frame.write(node, notices)
        } else {
            let ends = self.trailer.ends_with_fetch(node, notices);
            self.pen
                .frame
                .write(&self.pen.frame.wrap(Some(node.clone()), ends), notices)
        };
        if self.pen.call.target == Target::Text {
            self.trailer.append(&mut text, node, notices);
        }
        text
    }

    /// The structured form of a cut node, as the JSON target gives it (`shortened`: the
    /// values the caps shortened).
    fn structured(&self, node: &Node<'a>, notices: &[Notice], shortened: usize) -> Value {
        let (body, notices, line) = match self.pen.lens {
            Some(lens) => (
                lens.arrange(node),
                lens.notices(notices),
                Some(lens.line(node)),
            ),
            None => (Cow::Borrowed(node), Cow::Borrowed(notices), None),
        };
        let doc = if self.pen.frame.shells.is_empty() {
            body
        } else {
            Cow::Owned(self.pen.frame.around(Some(body.into_owned())))
        };
        self.pen
            .call
            .structured(&doc, &notices, shortened, line, self.pen.left_out)
    }

    /// A candidate as the target writes it: what the fit measures.
    fn render(&self, node: &Node<'a>, notices: &[Notice]) -> String {
        match (self.pen.call.target, self.pen.lens) {
            // The shortened values counted by their cut markers: never fewer than the exact
            // count the final form uses, so the measured text is never shorter.
            (Target::Json, _) => self
                .structured(node, notices, crate::sink::json::count_marked(node))
                .to_string(),
            (Target::Text, Some(lens)) => lens.render(node, notices, &|n, ns| self.plain(n, ns)),
            (Target::Text, None) => self.plain(node, notices),
        }
    }

    /// The text of the fitted cut `c`.
    fn text_of(&self, c: &Cut<'a>) -> String {
        let text_target = self.pen.call.target == Target::Text;
        match c.notices.as_slice() {
            // Nothing of the body fits: the envelope's parts and the trailer are still
            // written.
            [Notice::Omitted { .. }] if !self.pen.frame.shells.is_empty() => {
                let ends = self.trailer.ends_with_fetch(&Node::Null, &c.notices);
                let mut text = self
                    .pen
                    .frame
                    .write(&self.pen.frame.wrap(None, ends), &c.notices);
                if text_target {
                    self.trailer.append(&mut text, &Node::Null, &c.notices);
                }
                text
            }
            [n @ Notice::Omitted { .. }] if text_target => self.trailer.omitted(*n),
            notices => self.render(&c.node, notices),
        }
    }
}
