//! Budgets: fit a rendered result into a character or token limit.
//!
//! Fitting is a search over a few knobs, each of which only shrinks the output: how many
//! rows, items or lines to keep (of the result and of every collection nested in it), how
//! long values may be, and which fields of a record to drop. Every candidate is cut by the
//! same [`cut`] the caps use, rendered by the real sink and measured by the real counter, so
//! the guarantee is exact. Each search interpolates between a fitting and a failing
//! candidate, so it renders only a few prefixes, each about the size of the kept part. A
//! table's rows are built as the search asks for them: when a candidate needs more rows than
//! were built, the source is asked for the next ones (it does not start over).
//!
//! What gets cut first:
//! 1. **The largest collections**: one bound `n` on the rows, items and lines kept applies to
//!    the result (a table's rows, a list's items, a string's lines) and to every collection
//!    nested in a record or list at any depth, so the longest ones are cut first; the largest
//!    `n` that fits is kept. Rows kept are a prefix of the data. A nested cut is announced
//!    in place (`[Truncated to K rows of N total]` above a nested table, as a last item of a
//!    list, as a last line of a multi-line string).
//! 2. **Long values, when that keeps more**: when values shortened to [`MIN_VALUE_CHARS`]
//!    (32) let more rows or items fit, the fit keeps that many and shortens values only as
//!    much as it must (the longest limit that still keeps them). Each cut value ends with
//!    `…[+N chars]`, and a value is cut only when that form is shorter. Numbers, booleans
//!    and record values of up to [`SHORT_SCALAR`] (64) characters (ids, counts, flags,
//!    cursors) are never shortened. A string result is shortened only when not one line
//!    fits.
//! 3. **Whole fields of a record**, last: the largest first, the short scalar fields (up to
//!    64 characters) only when nothing else is left.
//! 4. When not even that fits, one line with true figures:
//!    `[Omitted: 1000 rows; 1 row needs 365 chars, over the budget of 120]` (for a scalar:
//!    `[Omitted: the result needs N chars, over the budget of M]`). If the budget cannot
//!    hold even that line, the line is returned anyway: the output then exceeds the budget,
//!    but never silently.
//!
//! An output that fits is returned unchanged.

// The searches interpolate in f64 between counts and sizes (far below 2^52); a guess is
// floored and clamped to the search range before it is used.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use crate::cut::caps::{Cut, Keep, Notice, SHORT_SCALAR, cut, nested_len, untouched};
use crate::doc::Node;
use crate::doc::notice::Strategy;

mod salient;
mod text;

pub(crate) use text::{fit_text, text_cursor};

/// Values are never shortened below this many characters (plus the cut marker) to fit a
/// budget.
pub const MIN_VALUE_CHARS: usize = 32;

/// One budget: a measure and its limit.
pub(crate) struct Limit<'a> {
    /// Size of a rendered text in the budget's unit.
    pub measure: Box<dyn Fn(&str) -> usize + 'a>,
    /// The budget.
    pub budget: usize,
    /// What the budget counts.
    pub unit: crate::BudgetUnit,
}

/// Builds `want` more rows of the result's main table from row `start`: the source's node
/// for those rows only.
pub(crate) type Grow<'f, 'a> = &'f dyn Fn(usize, usize) -> Node<'a>;

/// How to render a candidate and what it costs.
pub(crate) struct Fitter<'f, 'a> {
    /// Render a node with its notices.
    pub render: &'f dyn Fn(&Node<'a>, &[Notice]) -> String,
    /// Every budget the output must meet.
    pub limits: &'f [Limit<'f>],
    /// Line strategy for strings.
    pub strategy: Strategy,
    /// Ask the source for more rows of the main table.
    pub grow: Grow<'f, 'a>,
}

/// A rendered, fitted result.
pub(crate) struct Fitted<'a> {
    pub text: String,
    pub cut: Cut<'a>,
    /// The whole was tried first and fit: the text is what the caps alone give, as if
    /// there were no budget.
    pub whole: bool,
}

/// What the top-level search counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Table,
    Lines,
    Record,
    List,
    Scalar,
}

/// The node being fitted, owned by one fit; its main table grows as candidates need more
/// rows.
struct Doc<'a>(Node<'a>);

/// Rendering a node whose text is larger than this is never tried whole before the search
/// (the search renders only prefixes around the answer).
const WHOLE_FIRST_BYTES: usize = 1 << 20;

impl<'a> Fitter<'_, 'a> {
    /// Make sure the main table has at least `rows` rows built (or all of them).
    fn ensure(&self, doc: &mut Doc<'a>, rows: usize) {
        let Node::Table(t) = &mut doc.0 else { return };
        let built = t.rows();
        let wanted = rows.min(t.total_rows());
        if built >= wanted {
            return;
        }
        if let Node::Table(more) = (self.grow)(built, wanted - built) {
            t.append_rows(&more);
        }
    }

    /// The load of a text (its size over its budget, the largest over all budgets) and
    /// whether it fits every budget. Each budget measures the text once.
    fn load(&self, text: &str) -> (f64, bool) {
        let (mut load, mut fits) = (0.0f64, true);
        for l in self.limits {
            let size = (l.measure)(text);
            fits &= size <= l.budget;
            let over = if l.budget == 0 { 2.0 } else { 1.0 };
            load = load.max(size as f64 / l.budget.max(1) as f64 * over);
        }
        (load, fits)
    }

    /// Whether a candidate keeping `parts` rows, items, lines or fields may fit: every part
    /// after the first costs at least one character in every sink (a line break, a `<br>`,
    /// a comma), so a character budget rules out more than one part per character.
    fn may_fit_parts(&self, parts: usize) -> bool {
        self.limits
            .iter()
            .all(|l| l.unit != crate::BudgetUnit::Chars || parts.saturating_sub(1) <= l.budget)
    }

    /// Render one candidate.
    fn render_keep(&self, doc: &mut Doc<'a>, keep: &Keep) -> (String, Cut<'a>) {
        self.ensure(doc, keep.count.min(keep.nested.unwrap_or(usize::MAX)));
        let c = cut(&doc.0, keep, self.strategy);
        ((self.render)(&c.node, &c.notices), c)
    }

    /// Render and measure one candidate.
    fn eval(&self, doc: &mut Doc<'a>, keep: &Keep) -> Result<(f64, Fitted<'a>), f64> {
        let (text, c) = self.render_keep(doc, keep);
        match self.load(&text) {
            (load, true) => Ok((
                load,
                Fitted {
                    text,
                    cut: c,
                    whole: false,
                },
            )),
            (load, false) => Err(load),
        }
    }

    /// Whether the candidate's content, without its notice lines, fits.
    fn bare_fits(&self, doc: &mut Doc<'a>, keep: &Keep) -> bool {
        self.ensure(doc, keep.count);
        let c = cut(&doc.0, keep, self.strategy);
        self.load(&(self.render)(&c.node, &[])).1
    }

    /// Fit `node` (uncut) into the budget, starting from what the caps keep.
    // One search over one shared state (the document, the kept counts, the measures); its
    // steps are in order and commented, and split they would pass that state around.
    #[allow(clippy::too_many_lines)]
    pub fn fit(&self, node: Node<'a>, caps: &Keep) -> Fitted<'a> {
        let mut doc = Doc(node);
        let (shape, total, what) = match &doc.0 {
            Node::Table(t) => (Shape::Table, t.total_rows(), "rows"),
            Node::Str(s) => (Shape::Lines, crate::text::lines(s).count(), "lines"),
            Node::Record(r) => (Shape::Record, r.fields.len(), "fields"),
            Node::List(items) => (Shape::List, items.len(), "items"),
            _ => (Shape::Scalar, 0, ""),
        };
        // An output that fits is unchanged: try the whole first when it is all built and
        // not huge (sizes are not always monotone in what is kept: the aligned layout pads
        // a column only while its widest cell fits the cap, so more rows can be shorter).
        if shape != Shape::Scalar
            && all_built(&doc.0, caps.count)
            && crate::cut::arrange::text_bytes(&doc.0, WHOLE_FIRST_BYTES) <= WHOLE_FIRST_BYTES
        {
            if untouched(&doc.0, caps) {
                // The caps cut nothing: the candidate is the document itself, not a copy.
                let text = (self.render)(&doc.0, &[]);
                if self.load(&text).1 {
                    debug_assert!(same_as_cut(&doc.0, caps, self.strategy));
                    return Fitted {
                        text,
                        cut: Cut::whole(doc.0),
                        whole: true,
                    };
                }
            } else if let Ok((_, f)) = self.eval(&mut doc, caps) {
                return Fitted { whole: true, ..f };
            }
        }
        // The most the search's bound `n` can keep (measured only now: a record's or list's
        // walk of every nested collection is not needed when the whole fits).
        let max_n = match shape {
            Shape::Table | Shape::Lines => caps.count.min(total),
            Shape::Record => nested_len(&doc.0),
            Shape::List => total.max(nested_len(&doc.0)),
            Shape::Scalar => 0,
        };
        let names_chars = self.names_chars();
        let keep_with =
            |n: Option<usize>, chars: Option<usize>, drop: Vec<bool>, cols: Option<usize>| {
                let mut k = caps.clone();
                match shape {
                    Shape::Table | Shape::Lines => k.count = n.unwrap_or(caps.count),
                    Shape::List => {
                        k.count = n.unwrap_or(caps.count);
                        k.nested = n;
                    }
                    Shape::Record => k.nested = n,
                    Shape::Scalar => {}
                }
                k.budget_chars = chars;
                k.drop = drop;
                k.columns = cols;
                k.names_chars = names_chars;
                k
            };
        // Salience (SPEC 22): a record's least needed leaves are left out before anything
        // else is cut, a table's least needed columns before its rows.
        let (base, cols) = if caps.salience {
            match shape {
                Shape::Record => {
                    let cols = self.salient_columns(&mut doc, &keep_with, max_n);
                    (self.salient_leaves(&mut doc, &keep_with, max_n, cols), cols)
                }
                Shape::Table => (
                    Vec::new(),
                    self.salient_columns(&mut doc, &keep_with, max_n),
                ),
                _ => (Vec::new(), None),
            }
        } else {
            (Vec::new(), None)
        };
        let keep = |n: Option<usize>, chars: Option<usize>, drop: Vec<bool>| {
            let drop = if drop.is_empty() { base.clone() } else { drop };
            keep_with(n, chars, drop, cols)
        };
        // Measured only when values must be shortened: it reads every built value.
        let longest = |doc: &Doc<'a>| longest_value(&doc.0, false);
        // 1. The largest `n` (at least 1) with values whole.
        let by_n = |doc: &mut Doc<'a>, chars: Option<usize>| {
            if max_n == 0 {
                return self
                    .eval(doc, &keep(None, chars, Vec::new()))
                    .ok()
                    .map(|(_, f)| (0, f));
            }
            self.largest(max_n - 1, |k| keep(Some(k + 1), chars, Vec::new()), doc)
                .map(|(k, f)| (k + 1, f))
        };
        let whole = match by_n(&mut doc, None) {
            Some((n, f)) if n == max_n => return f,
            w => w,
        };
        // 2. Shorter values when that keeps more (a string: only when not one line fits).
        let floor = value_floor(&doc);
        let shortened = match (shape, &whole, floor) {
            (Shape::Lines, Some(_), _) | (_, _, None) => None,
            // They keep more only when one more part fits with them (sizes grow with the
            // parts kept): one candidate instead of a search that finds nothing more.
            (_, Some((n, _)), Some(min))
                if self
                    .eval(&mut doc, &keep(Some(n + 1), Some(min), Vec::new()))
                    .is_err() =>
            {
                None
            }
            (_, _, Some(min)) => {
                by_n(&mut doc, Some(min)).filter(|(n, _)| whole.as_ref().is_none_or(|(w, _)| n > w))
            }
        };
        let found = match (shortened, whole) {
            (Some((n, at_min)), _) => {
                let n = (max_n > 0).then_some(n);
                let room = longest(&doc) - MIN_VALUE_CHARS;
                Some(
                    self.largest(
                        room,
                        |e| keep(n, Some(MIN_VALUE_CHARS + e), Vec::new()),
                        &mut doc,
                    )
                    .map_or(at_min, |(_, f)| f),
                )
            }
            (None, Some((_, f))) => Some(f),
            (None, None) => None,
        };
        if let Some(f) = found {
            return f;
        }
        // 3. Whole fields, largest first, short scalar fields last. Under salience the least
        // needed first, and a record's items (its payload) last while one row of them fits
        // (their rows are cut); else in the plain order, so the record still says something.
        let (order, items_last) = match &doc.0 {
            Node::Record(r) if shape == Shape::Record && caps.salience => {
                let leaves = crate::cut::arrange::leaves(r, true);
                let order = crate::cut::arrange::drop_order(&leaves);
                let items_last = crate::cut::arrange::items_field(r)
                    .map(|i| &r.fields[i].name)
                    .and_then(|items| order.iter().position(|&i| leaves[i].path == **items))
                    .map(|at| {
                        let mut o = order.clone();
                        let i = o.remove(at);
                        o.push(i);
                        o
                    });
                (order, items_last)
            }
            Node::Record(r) if shape == Shape::Record => (drop_order(&r.fields), None),
            _ => (Vec::new(), None),
        };
        // (Only a record drops fields, and a record's document does not grow: the shortest
        // length values are cut to stays what it was measured.)
        let floor = value_floor(&doc);
        let least_of = |order: &[usize], kept: usize| {
            let mut drop = vec![!order.is_empty(); order.len()];
            for &i in order.iter().rev().take(kept) {
                drop[i] = false;
            }
            keep((max_n > 0).then_some(1), floor, drop)
        };
        for order in items_last.iter().chain(std::iter::once(&order)) {
            if order.len() > 1
                && let Some((_, f)) =
                    self.largest(order.len() - 2, |k| least_of(order, k + 1), &mut doc)
            {
                return f;
            }
        }
        // 4. Nothing fits: announce the least the result needs.
        let smallest = if shape == Shape::Scalar {
            caps.clone()
        } else {
            least_of(&order, 1)
        };
        let (text, _) = self.render_keep(&mut doc, &smallest);
        let limit = self
            .limits
            .iter()
            .find(|l| (l.measure)(&text) > l.budget)
            .unwrap_or(&self.limits[0]);
        let notice = Notice::Omitted {
            total,
            what,
            needed: (limit.measure)(&text),
            budget: limit.budget,
            unit: limit.unit,
        };
        Fitted {
            text: notice.to_string(),
            cut: Cut {
                node: Node::Null,
                notices: vec![notice],
                values_shortened: 0,
                cap_shortest: None,
            },
            whole: false,
        }
    }

    /// The most characters the line naming what a budget left out may take: a sixth of the
    /// budget (a token counts as about three characters), at least 60.
    fn names_chars(&self) -> usize {
        names_chars(self.limits)
    }

    /// The budget in characters (the smallest of the limits; a token is about three).
    fn room(&self) -> usize {
        room(self.limits)
    }

    /// The largest `k` in `0..=max` whose candidate fits, assuming size grows with `k`.
    ///
    /// Starts from `k = 0` and extrapolates from the measured size per unit (at most 8x
    /// further each step), then interpolates between the best fitting and the smallest
    /// failing candidate, alternating with bisection so the search always ends. It never
    /// renders more than a few prefixes around the answer, and never the whole input unless
    /// the whole input fits.
    fn largest(
        &self,
        max: usize,
        keep: impl Fn(usize) -> Keep,
        node: &mut Doc<'a>,
    ) -> Option<(usize, Fitted<'a>)> {
        let (base, mut best) = self.eval(node, &keep(0)).ok()?;
        let (mut lo, mut lo_size) = (0usize, base);
        let mut hi: Option<(usize, f64)> = None;
        let mut bisect = false;
        loop {
            let guess = match hi {
                Some((h, _)) if h - lo <= 1 => break,
                Some((h, h_size)) => {
                    let g = if bisect {
                        lo + (h - lo) / 2
                    } else {
                        let frac = (1.0 - lo_size) / (h_size - lo_size).max(f64::EPSILON);
                        lo + ((h - lo) as f64 * frac) as usize
                    };
                    bisect = !bisect;
                    g.clamp(lo + 1, h - 1)
                }
                None if lo == max => break,
                None if lo == 0 => 1,
                None => {
                    let per = ((lo_size - base) / lo as f64).max(f64::EPSILON);
                    let more = ((1.0 - lo_size) / per) as usize;
                    (lo + more.clamp(1, lo.saturating_mul(8).max(1))).min(max)
                }
            };
            match self.eval(node, &keep(guess)) {
                Ok((load, f)) => {
                    lo_size = load;
                    lo = guess;
                    best = f;
                }
                Err(load) => hi = Some((guess, load)),
            }
        }
        // Sizes grow with `k` except for the notice, which the uncut whole does not print,
        // so the whole may fit where a slightly smaller cut (with its notice) does not.
        // Content without notices does grow with `k`: double `k` from the failing bound
        // while that content fits; reaching `max` means the whole is worth trying. This
        // renders at most about twice the budget, never the whole input when it is large.
        if let Some((mut j, _)) = hi.filter(|_| lo < max && self.may_fit_parts(max)) {
            while self.bare_fits(node, &keep(j)) {
                if j == max {
                    if let Ok((_, f)) = self.eval(node, &keep(max)) {
                        return Some((max, f));
                    }
                    break;
                }
                j = j.saturating_mul(2).min(max);
            }
        }
        Some((lo, best))
    }
}

/// The budget in characters: the smallest of the limits, a token counted as about three
/// characters (`usize::MAX` without a budget).
pub(crate) fn room(limits: &[Limit<'_>]) -> usize {
    limits
        .iter()
        .map(|l| {
            if l.unit == crate::BudgetUnit::Chars {
                l.budget
            } else {
                l.budget.saturating_mul(3)
            }
        })
        .min()
        .unwrap_or(usize::MAX)
}

/// The most characters a line naming what was left out (fields, columns, columns said once)
/// may list: a sixth of the budget, at least 60 and at most 400; no bound without a budget.
pub(crate) fn names_chars(limits: &[Limit<'_>]) -> usize {
    if limits.is_empty() {
        usize::MAX
    } else {
        (room(limits) / 12).clamp(40, 400)
    }
}

/// Whether [`cut`] gives `node` back unchanged under `keep` (what [`untouched`] promises).
fn same_as_cut(node: &Node<'_>, keep: &Keep, strategy: Strategy) -> bool {
    let c = cut(node, keep, strategy);
    c.node == *node && c.notices.is_empty() && c.values_shortened == 0
}

/// True when every row the caps keep of the main table is built (always for other nodes).
fn all_built(node: &Node<'_>, count: usize) -> bool {
    match node {
        Node::Table(t) => t.rows() >= count.min(t.total_rows()),
        _ => true,
    }
}

/// The order in which a budget drops the fields of a record: the largest first, short
/// scalar fields (up to [`SHORT_SCALAR`] characters) after every other, later fields first
/// among equals. Returns field indices.
fn drop_order(fields: &[crate::doc::Field<'_>]) -> Vec<usize> {
    let mut order: Vec<(bool, usize, usize)> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let short = match &f.value {
                Node::Str(s) => {
                    !crate::text::has_line_break(s) && s.chars().count() <= SHORT_SCALAR
                }
                Node::Null | Node::Bool(_) | Node::Number(_) => true,
                _ => false,
            };
            (
                short,
                crate::cut::arrange::text_bytes(&f.value, WHOLE_FIRST_BYTES) + f.name.len(),
                i,
            )
        })
        .collect();
    order.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
    order.into_iter().map(|(_, _, i)| i).collect()
}

/// The longest value a budget may shorten in a node, in characters (`field`: the node is a
/// record field's value, whose short strings are never shortened).
fn longest_value(node: &Node<'_>, field: bool) -> usize {
    match node {
        Node::Str(s) => {
            let longest = crate::text::lines(s)
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0);
            if field && s.chars().count() <= SHORT_SCALAR {
                0
            } else {
                longest
            }
        }
        Node::Record(r) => r
            .fields
            .iter()
            .map(|f| longest_value(&f.value, true))
            .max()
            .unwrap_or(0),
        Node::List(items) => items
            .iter()
            .map(|v| longest_value(v, false))
            .max()
            .unwrap_or(0),
        Node::Table(t) => t
            .cells()
            .zip(t.kinds())
            .filter(|(_, k)| k.may_shorten())
            // A cell of no more bytes than the longest so far has no more characters.
            .fold(0, |longest, (c, _)| {
                if c.len() <= longest {
                    longest
                } else {
                    longest.max(c.chars().count())
                }
            }),
        _ => 0,
    }
}

/// The shortest a value is cut to when shortening keeps more ([`MIN_VALUE_CHARS`]), or
/// `None` when no value of `node` is longer than that.
fn value_floor(node: &Doc<'_>) -> Option<usize> {
    (longest_value(&node.0, false) > MIN_VALUE_CHARS).then_some(MIN_VALUE_CHARS)
}
