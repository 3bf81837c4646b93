//! Query-focused trimming in the formatter: [`Formatter::focus`] returns a [`Focused`] view
//! whose `format` keeps the parts of a long result that matter to the question instead of
//! its head. The ranking and selection are the [`focus`](crate::focus) module's; this file is
//! the glue between them and the pipeline (build -> caps -> fit -> sink).
//!
//! # What is focused
//!
//! - **A top-level string** over its caps: more lines than `max_lines`, or over `max_chars`
//!   / `max_tokens`. It is split by content (headings, paragraphs or lines), its sections
//!   ranked by BM25 against the query, and the best kept **in their original order**, each
//!   run of omitted sections announced in place (`[… 12 paragraphs omitted …]`) inside the
//!   code block. The line `[Kept 4 of 40 sections relevant to "refund policy"]` comes first,
//!   outside the block, where the other notices go. Code blocks in the text stay whole or go
//!   whole.
//! - **The main table** (a list of records at the top) over its row cap: every row is built
//!   (over the cap, unlike a plain `format`), scored by its text cells (text, lists and JSON;
//!   not numbers, booleans or nulls), and the best rows up to the cap are kept, in the data's
//!   order by default ([`RowOrder::Data`]: a tool's row order usually means something: time,
//!   id, priority) or best first ([`Focused::row_order`]). The line is
//!   `[Kept 10 of 500 rows relevant to "refund policy"]`; rows that match nothing are never
//!   kept.
//!
//! Records, lists, nested tables, scalars and results of a registered renderer render as
//! without a query. Typed results and `serde_json::Value` results behave the same (both go
//! through the same pipeline).
//!
//! # Budgets
//!
//! - `max_lines` (default 100) always applies: the code block of a focused string (kept
//!   sections, gap lines and the blank lines between them) has at most `max_lines` lines.
//!   With no character or token budget this is the whole budget: the best sections that fit
//!   in `max_lines` lines.
//! - `max_chars`: the sections are chosen for a character budget, the result is rendered and
//!   measured, and the character budget is corrected by what the rendering adds (the fences,
//!   escapes) and chosen again: usually two selections.
//! - `max_tokens`: the same loop starts from 3 characters per token and corrects the
//!   character budget by the tokens the rendering measures (up to six selections; the text is
//!   split and scored once).
//! - Either way the budget stays exact: the focused result then goes through the usual fit,
//!   which cuts lines (announced) if the selection still did not fit. A table's rows are
//!   given to the fit best first, so a budget drops the least relevant rows, and the kept
//!   rows are then shown in the chosen order; the line counts the rows shown.
//!
//! # When nothing is focused
//!
//! No words in the query, a result within its caps, a budget too small for the notice: the
//! output is exactly what [`Formatter::format`] writes. When no section (or row) matches the
//! query, the output is that too, after the line `[No section matched "refund policy"]`
//! (`[No row matched "…"]`).
//!
//! # With a result store
//!
//! A focused result that left rows, sections or lines out is a cut result: with
//! `Formatter::store` the full result is stored and the output ends with the fetch tool's
//! `Next:` line, as for any cut.

// The budget search guesses in f64 from character counts (far below 2^52); a guess is
// floored, kept at 0 or more and clamped between the fitting and the failing budget.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::borrow::Cow;

use crate::call::report::{FocusReport, Kept, Report};
use crate::call::resolved::Resolved;
use crate::cut::fit::Limit;
use crate::doc::notice::Notice;
use crate::doc::{Node, Table};
use crate::focus::{Fallback, Focus, Limits, RowOrder, Trimmed, Unit, notice_line};

/// The per-call question and its options, as the formatter's render path sees it.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    focus: Focus,
    order: RowOrder,
}

impl Query {
    /// The query's words, kept in data order by default.
    pub(crate) fn new(query: &str) -> Self {
        Query {
            focus: Focus::new(query),
            order: RowOrder::Data,
        }
    }

    /// Keep the rows in this order.
    pub(crate) fn set_order(&mut self, order: RowOrder) {
        self.order = order;
    }

    /// The query as notices show it.
    pub(crate) fn text(&self) -> &str {
        self.focus.query()
    }

    /// Whether a table result is ranked, so its main table must be built whole.
    pub(crate) fn ranks_rows(&self) -> bool {
        self.focus.has_words()
    }
}

/// What the focus did to the node, kept for rendering its line and reporting.
pub(crate) struct Lens {
    mode: Mode,
}

enum Mode {
    /// A fixed line before the output: a focused string, or no match.
    Line {
        line: String,
        /// For a focused string: units kept of the total, lines kept and lines in the text.
        kept: Option<(Kept, Kept)>,
    },
    /// The main table holds the best rows, best first: `indices` are their rows in the data.
    Rows {
        indices: Vec<usize>,
        total: usize,
        order: RowOrder,
        query: String,
    },
}

/// Renders a node with its cut notices (the sink, without the focus line).
type Plain<'p, 'a> = &'p dyn Fn(&Node<'a>, &[Notice]) -> String;

/// Most selections tried to meet a character or token budget.
const MAX_TRIES: usize = 6;
/// Characters per token assumed for the first selection under `max_tokens`.
const CHARS_PER_TOKEN: usize = 3;

impl Lens {
    /// Focus `node` (the built, uncut result) on the query: replace it by its relevant part
    /// when it is over its caps or budget. `None` when focus does not apply.
    pub(crate) fn new<'a>(
        query: &Query,
        node: &mut Node<'a>,
        opts: &Resolved,
        limits: &[Limit<'_>],
        plain: Plain<'_, 'a>,
    ) -> Option<Lens> {
        match node {
            Node::Str(s) => {
                let (mode, body) = focus_text(query, s.as_ref(), opts, limits, plain)?;
                if let Some(body) = body {
                    *node = Node::Str(Cow::Owned(body));
                }
                Some(Lens { mode })
            }
            Node::Table(t) => {
                let (mode, table) = focus_rows(query, t, opts)?;
                if let Some(table) = table {
                    *node = Node::Table(table);
                }
                Some(Lens { mode })
            }
            _ => None,
        }
    }

    /// Render a candidate: the focus line, then the sink's output.
    pub(crate) fn render<'a>(
        &self,
        node: &Node<'a>,
        notices: &[Notice],
        plain: Plain<'_, 'a>,
    ) -> String {
        match &self.mode {
            Mode::Line { line, .. } => before(line, &plain(node, notices), notices.is_empty()),
            Mode::Rows { .. } => {
                if !matches!(node, Node::Table(_)) {
                    return plain(node, notices);
                }
                let notices = self.notices(notices);
                let body = plain(&self.arrange(node), &notices);
                before(&self.line(node), &body, notices.is_empty())
            }
        }
    }

    /// Add what the focus did to a report of the rendering of `node` (the fitted node).
    /// Whether the focus left something out (rows, sections or lines of the result), so the
    /// result is cut even when no notice of the caps or the fit says so.
    pub(crate) fn cut(&self) -> bool {
        match &self.mode {
            Mode::Rows { indices, total, .. } => indices.len() < *total,
            Mode::Line { kept, .. } => kept.is_some_and(|(units, _)| units.kept < units.total),
        }
    }

    /// The cut notices printed with the focus line: all of them, but a row notice when the
    /// line counts the rows shown (it would repeat it).
    pub(crate) fn notices<'n>(&self, notices: &'n [Notice]) -> Cow<'n, [Notice]> {
        match self.mode {
            Mode::Rows { .. } => Cow::Owned(
                notices
                    .iter()
                    .filter(|n| !matches!(n, Notice::Rows { .. }))
                    .copied()
                    .collect(),
            ),
            Mode::Line { .. } => Cow::Borrowed(notices),
        }
    }

    /// The focus line for the cut node (what markdown prints first).
    pub(crate) fn line(&self, node: &Node<'_>) -> String {
        match &self.mode {
            Mode::Line { line, .. } => line.clone(),
            Mode::Rows { total, query, .. } => {
                let shown = match node {
                    Node::Table(t) => t.rows(),
                    _ => 0,
                };
                notice_line(shown, *total, Unit::Rows, query)
            }
        }
    }

    /// The cut node as the focused text shows it: a table's kept rows in their shown order.
    pub(crate) fn arrange<'n, 'a>(&self, node: &'n Node<'a>) -> Cow<'n, Node<'a>> {
        match (&self.mode, node) {
            (Mode::Rows { indices, order, .. }, Node::Table(t))
                if !matches!(order, RowOrder::Ranked) =>
            {
                let mut shown: Vec<usize> = (0..t.rows()).collect();
                shown.sort_by_key(|&p| indices.get(p).copied().unwrap_or(usize::MAX));
                Cow::Owned(Node::Table(pick_rows(t, &shown)))
            }
            _ => Cow::Borrowed(node),
        }
    }

    pub(crate) fn report(&self, r: &mut Report, node: &Node<'_>) {
        if r.notices
            .iter()
            .any(|n| matches!(n, Notice::Omitted { .. }))
        {
            // Nothing of the result fit: the output is the omitted line alone.
            return;
        }
        match &self.mode {
            Mode::Line { line, kept } => {
                if let Some((units, lines)) = kept
                    && !r.notices.iter().any(|n| matches!(n, Notice::Lines { .. }))
                {
                    r.lines = Some(*lines);
                    r.focus = Some(FocusReport {
                        notice: line.clone(),
                        kept: Some(*units),
                    });
                } else {
                    r.focus = Some(FocusReport {
                        notice: line.clone(),
                        kept: kept.map(|(units, _)| units),
                    });
                }
            }
            Mode::Rows { total, .. } => {
                let shown = match node {
                    Node::Table(t) => t.rows(),
                    _ => 0,
                };
                let kept = Kept {
                    kept: shown,
                    total: *total,
                };
                r.notices.retain(|n| !matches!(n, Notice::Rows { .. }));
                r.rows = Some(kept);
                r.focus = Some(FocusReport {
                    notice: self.line(node),
                    kept: Some(kept),
                });
            }
        }
    }
}

/// `line` before a rendering: in the block of notices when there is one, else as its own.
fn before(line: &str, rendered: &str, no_notices: bool) -> String {
    let sep = if no_notices { "\n\n" } else { "\n" };
    let mut out = String::with_capacity(line.len() + sep.len() + rendered.len());
    out.push_str(line);
    out.push_str(sep);
    out.push_str(rendered);
    out
}

/// Focus a top-level string. Returns the mode and the new body (`None`: keep the node).
fn focus_text(
    query: &Query,
    text: &str,
    opts: &Resolved,
    limits: &[Limit<'_>],
    plain: Plain<'_, '_>,
) -> Option<(Mode, Option<String>)> {
    let ranked = query.focus.ranked(text).ok()?;
    let lines = Some(opts.max_lines);
    let chars = match (opts.max_chars, opts.max_tokens) {
        (None, None) => None,
        (c, t) => Some(
            c.unwrap_or(usize::MAX)
                .min(t.map_or(usize::MAX, |t| t.saturating_mul(CHARS_PER_TOKEN))),
        ),
    };
    let no_match = || {
        Some((
            Mode::Line {
                line: query.focus.no_match_notice(),
                kept: None,
            },
            None,
        ))
    };
    let Some(mut chars) = chars.filter(|_| !limits.is_empty()) else {
        return match ranked.select(Limits { chars: None, lines }) {
            Ok(t) => Some(focused(&t, ranked.lines)),
            Err(Fallback::NoMatch) => no_match(),
            Err(_) => None,
        };
    };
    // Choose for a character budget, render, measure, correct the budget by the room the
    // rendering has left (a Newton step: exact for characters, close for tokens); keep the
    // largest selection that fits, between the largest budget that fit and the smallest that
    // did not.
    let (mut fit_at, mut over_at) = (0usize, usize::MAX);
    let (mut best, mut smallest): (Option<Trimmed>, Option<Trimmed>) = (None, None);
    for _ in 0..MAX_TRIES {
        // The room the rendering leaves, and the characters of the selection it measured.
        let (room, used) = match ranked.select(Limits {
            chars: Some(chars),
            lines,
        }) {
            Ok(t) => {
                let body = Node::Str(Cow::Owned(t.body().to_string()));
                let room = room(&before(t.notice(), &plain(&body, &[]), true), limits);
                let used = t.text.chars().count();
                if room >= 0.0 {
                    fit_at = chars;
                    best = Some(t);
                } else {
                    over_at = chars;
                    smallest = Some(t);
                }
                (room, used)
            }
            Err(Fallback::Fits) => {
                // The whole text is within this character budget (so the copy is small): it
                // needs no focus if its rendering fits too.
                let whole = Node::Str(Cow::Owned(text.to_string()));
                let room = room(&plain(&whole, &[]), limits);
                if room >= 0.0 {
                    return None;
                }
                over_at = chars;
                (room, ranked.chars)
            }
            Err(Fallback::NoMatch) => return no_match(),
            Err(_) => break,
        };
        // The next budget: what the selection used plus the room left (less when over). A
        // selection that fits with less than 2% of the budget left, or that a larger budget
        // would not change (it used less than the budget allowed), is the answer.
        let next = (used as f64 + room).floor().max(0.0) as usize;
        if room >= 0.0 && (room < (chars as f64 * 0.02).max(1.0) || next <= chars) {
            break;
        }
        if over_at.saturating_sub(fit_at) <= 1 {
            break;
        }
        let next = next.max(fit_at + 1).min(over_at - 1);
        if next == chars {
            break;
        }
        chars = next;
    }
    best.or(smallest).map(|t| focused(&t, ranked.lines))
}

/// How many characters a rendering may grow by (or, negative, must shrink by) to meet every
/// budget: each budget's room in its own unit, converted at the rendering's characters per
/// unit; the smallest.
fn room(text: &str, limits: &[Limit<'_>]) -> f64 {
    let chars = text.chars().count() as f64;
    limits
        .iter()
        .map(|l| {
            let size = (l.measure)(text) as f64;
            let per_unit = if size > 0.0 { chars / size } else { 1.0 };
            (l.budget as f64 - size) * per_unit
        })
        .fold(f64::INFINITY, f64::min)
}

/// The mode and body of a focused string.
fn focused(t: &Trimmed, lines_total: usize) -> (Mode, Option<String>) {
    let units = Kept {
        kept: t.kept,
        total: t.total,
    };
    let lines = Kept {
        kept: t.lines,
        total: lines_total,
    };
    (
        Mode::Line {
            line: t.notice().to_string(),
            kept: Some((units, lines)),
        },
        Some(t.body().to_string()),
    )
}

/// Focus the main table: its best rows up to the row cap, best first. Returns the mode and
/// the new table (`None`: keep the node).
fn focus_rows<'a>(
    query: &Query,
    t: &Table<'a>,
    opts: &Resolved,
) -> Option<(Mode, Option<Table<'a>>)> {
    let cap = opts.row_plan().cap(t.max_rows);
    let total = t.total_rows();
    if total <= cap {
        return None;
    }
    let cols = t.columns().len();
    let rows = (0..t.rows()).map(|r| {
        (0..cols).filter_map(move |c| {
            let (text, kind) = t.cell(r, c);
            kind.may_shorten().then_some(text)
        })
    });
    match query.focus.rank_rows(rows, cap, RowOrder::Ranked) {
        Ok(kept) => {
            let table = pick_rows(t, &kept.indices);
            Some((
                Mode::Rows {
                    indices: kept.indices,
                    total,
                    order: query.order,
                    query: query.focus.query().to_string(),
                },
                Some(table),
            ))
        }
        Err(Fallback::NoMatch) => Some((
            Mode::Line {
                line: query.focus.no_row_match_notice(),
                kept: None,
            },
            None,
        )),
        Err(_) => None,
    }
}

/// A copy of `t` with the rows `rows`, in that order (every row of the copy is built).
fn pick_rows<'a>(t: &Table<'a>, rows: &[usize]) -> Table<'a> {
    let cols = t.columns().len();
    let mut out = Table::new(t.columns().to_vec());
    out.title.clone_from(&t.title);
    out.max_rows = t.max_rows;
    out.set_limits((0..cols).map(|c| t.limit(c)).collect());
    out.set_marks((0..cols).map(|c| t.mark(c)).collect());
    for &r in rows.iter().filter(|&&r| r < t.rows()) {
        for c in 0..cols {
            let (text, kind) = t.cell(r, c);
            out.buf_mut().push_str(text);
            out.end_cell(kind);
        }
    }
    out
}

#[cfg(test)]
mod tests;
