//! Budgets: fit a rendered result into a character or token limit.
//!
//! Fitting is a search over "how many rows / lines / fields / items to keep" and, when not
//! even one fits, "how long may each value be". Every candidate is cut by the same
//! [`cut`](crate::budget) the caps use, rendered by the real sink and measured by the real
//! counter, so the guarantee is exact. The search interpolates between a fitting and a
//! failing candidate, so it renders only a few prefixes, each about the size of the kept part.
//! A table's rows are built as the search asks for them: when a candidate needs more rows
//! than were built, the source is asked for the next ones (it does not start over).
//!
//! The order of cuts:
//! - tables: drop trailing rows; if not one row fits, shorten cells, then drop rows;
//! - strings: drop lines by the strategy; if not one line fits, cut that line;
//! - records: shorten long values (down to 16 characters), then drop trailing fields;
//! - lists: drop trailing items;
//! - when nothing fits (or the result is a scalar): the single line
//!   `[Omitted: the result needs N chars, over the budget of M]`. If the budget cannot
//!   hold even that line, the line is returned anyway: the output then exceeds the budget,
//!   but never silently.

use std::cell::RefCell;

use crate::caps::{Cut, Keep, Notice, cut};
use crate::doc::Node;
use crate::options::Strategy;

/// Shortest length record values are cut to before fields are dropped.
pub const MIN_VALUE_CHARS: usize = 16;

/// One budget: a measure and its limit.
pub(crate) struct Limit<'a> {
    /// Size of a rendered text in the budget's unit.
    pub measure: &'a dyn Fn(&str) -> usize,
    /// The budget.
    pub budget: usize,
    /// `"chars"` or `"tokens"`.
    pub unit: &'static str,
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
}

/// What the search cuts: rows or lines, fields, items, or nothing.
#[derive(Clone, Copy)]
enum Shape {
    Lines,
    Record,
    List,
    Scalar,
}

/// The node being fitted; its main table grows as candidates need more rows.
type Doc<'a> = RefCell<Node<'a>>;

impl<'a> Fitter<'_, 'a> {
    /// Make sure the main table has at least `rows` rows built (or all of them).
    fn ensure(&self, doc: &Doc<'a>, rows: usize) {
        let mut node = doc.borrow_mut();
        let Node::Table(t) = &mut *node else { return };
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

    /// Render and measure one candidate.
    fn eval(&self, doc: &Doc<'a>, keep: &Keep) -> Result<(f64, Fitted<'a>), f64> {
        self.ensure(doc, keep.count);
        let c = cut(&doc.borrow(), keep, self.strategy);
        let text = (self.render)(&c.node, &c.notices);
        match self.load(&text) {
            (load, true) => Ok((load, Fitted { text, cut: c })),
            (load, false) => Err(load),
        }
    }

    /// Whether the candidate's content, without its notice lines, fits.
    fn bare_fits(&self, doc: &Doc<'a>, keep: &Keep) -> bool {
        self.ensure(doc, keep.count);
        let c = cut(&doc.borrow(), keep, self.strategy);
        self.load(&(self.render)(&c.node, &[])).1
    }

    /// Fit `node` (uncut) into the budget, starting from what the caps keep.
    pub fn fit(&self, node: Node<'a>, caps: &Keep) -> Fitted<'a> {
        let doc = RefCell::new(node);
        let node = &doc;
        let (shape, count) = match &*doc.borrow() {
            Node::Table(t) => (Shape::Lines, caps.count.min(t.total_rows())),
            Node::Str(s) => (Shape::Lines, caps.count.min(crate::text::lines(s).count())),
            Node::Record(r) => (Shape::Record, r.fields.len()),
            Node::List(items) => (Shape::List, items.len()),
            _ => (Shape::Scalar, 0),
        };
        let budget_keep = |count: usize, chars: Option<usize>| Keep {
            count,
            value_chars: match (chars, caps.value_chars) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            budget: chars.is_some(),
            plan: caps.plan.clone(),
        };
        // Measured only when values must be shortened: it reads every built cell.
        let longest = || longest_value(&doc.borrow());
        let found = match shape {
            Shape::Lines => match self.largest(count, |k| budget_keep(k, None), node) {
                Some((k, f)) if k > 0 || count == 0 => Some(f),
                _ => self
                    .largest(longest(), |len| budget_keep(1, Some(len)), node)
                    .and_then(|(len, f)| {
                        if count <= 1 {
                            return Some(f);
                        }
                        self.largest(count, |k| budget_keep(k, Some(len)), node)
                            .map(|(_, f)| f)
                    }),
            },
            Shape::Record => match self.eval(node, caps) {
                Ok((_, whole)) => Some(whole),
                Err(_) => {
                    let longest = longest();
                    let shorten = (longest > MIN_VALUE_CHARS)
                        .then(|| {
                            self.largest(
                                longest - MIN_VALUE_CHARS,
                                |extra| budget_keep(count, Some(MIN_VALUE_CHARS + extra)),
                                node,
                            )
                        })
                        .flatten();
                    match shorten {
                        Some((_, f)) => Some(f),
                        None => self
                            .largest(count, |k| budget_keep(k, Some(MIN_VALUE_CHARS)), node)
                            .map(|(_, f)| f),
                    }
                }
            },
            Shape::List => self
                .largest(count, |k| budget_keep(k, None), node)
                .map(|(_, f)| f),
            Shape::Scalar => None,
        };
        found.unwrap_or_else(|| {
            let full = match self.eval(node, caps) {
                Ok((_, f)) => return f,
                Err(_) => (self.render)(&cut(&doc.borrow(), caps, self.strategy).node, &[]),
            };
            // Announce against the first budget the full rendering breaks.
            let limit = self
                .limits
                .iter()
                .find(|l| (l.measure)(&full) > l.budget)
                .unwrap_or(&self.limits[0]);
            let notice = Notice::Omitted {
                needed: (limit.measure)(&full),
                budget: limit.budget,
                unit: limit.unit,
            };
            Fitted {
                text: notice.to_string(),
                cut: Cut {
                    node: Node::Null,
                    notices: vec![notice],
                    values_shortened: 0,
                },
            }
        })
    }

    /// The largest `k` in `0..=max` whose candidate fits, assuming size grows with `k`.
    ///
    /// Starts from `k = 0` and extrapolates from the measured size per unit (at most 4x
    /// further each step), then interpolates between the best fitting and the smallest
    /// failing candidate, alternating with bisection so the search always ends. It never
    /// renders more than a few prefixes around the answer, and never the whole input unless
    /// the whole input fits.
    fn largest(
        &self,
        max: usize,
        keep: impl Fn(usize) -> Keep,
        node: &Doc<'a>,
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
                    (lo + more.clamp(1, lo.saturating_mul(4).max(1))).min(max)
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
        if let Some((mut j, _)) = hi.filter(|_| lo < max) {
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

/// The longest string or cell in a node, in characters.
fn longest_value(node: &Node<'_>) -> usize {
    match node {
        Node::Str(s) => crate::text::lines(s)
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0),
        Node::Record(r) => r
            .fields
            .iter()
            .map(|f| longest_value(&f.value))
            .max()
            .unwrap_or(0),
        Node::List(items) => items.iter().map(longest_value).max().unwrap_or(0),
        Node::Table(t) => t
            .cells()
            .zip(t.kinds())
            .filter(|(_, k)| k.may_shorten())
            .map(|(c, _)| c.chars().count())
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}
