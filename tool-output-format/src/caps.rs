//! Caps: act on the document once, for every source and every sink, and record each cut as
//! a [`Notice`] with exact counts. Budgets (fitting a character or token limit) build on
//! these cuts in [`fit`](crate::fit).

use crate::build::RowPlan;
use crate::doc::{Node, Record, Table};
use crate::options::{Resolved, Strategy};
use crate::text;

/// A cut, announced first in the output (before the title and the content). Its wording is
/// the sink's (see [`Display`](std::fmt::Display)).
///
/// ```
/// use tool_output_format::Notice;
/// assert_eq!(Notice::Rows { kept: 100, total: 10000 }.to_string(),
///            "[Truncated to 100 rows of 10000 total]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// Table rows dropped from the end.
    Rows {
        /// Rows kept.
        kept: usize,
        /// Rows in the data.
        total: usize,
    },
    /// String lines dropped (which ones depends on the strategy).
    Lines {
        /// Lines kept.
        kept: usize,
        /// Lines in the data.
        total: usize,
        /// Which lines were kept.
        strategy: Strategy,
    },
    /// Record fields dropped from the end to fit a budget.
    Fields {
        /// Fields kept.
        kept: usize,
        /// Fields in the data.
        total: usize,
    },
    /// List items dropped from the end to fit a budget.
    Items {
        /// Items kept.
        kept: usize,
        /// Items in the data.
        total: usize,
    },
    /// Values shortened to fit a budget (each also ends with `…[+N chars]`).
    Shortened {
        /// How many values were cut.
        values: usize,
        /// The length they were cut to, in characters.
        max_chars: usize,
    },
    /// Nothing of the result fits the budget.
    Omitted {
        /// The size the smallest rendering needed.
        needed: usize,
        /// The budget.
        budget: usize,
        /// `"chars"` or `"tokens"`.
        unit: &'static str,
    },
}

/// How `kept` lines split between head and tail.
pub(crate) fn head_tail(kept: usize) -> (usize, usize) {
    (kept.div_ceil(2), kept / 2)
}

/// Keep `keep` lines of `s` by `strategy`. Returns the kept text (every line ending in
/// `\n`) and the notice, or `None` when nothing needs cutting.
pub(crate) fn cut_lines(s: &str, keep: usize, strategy: Strategy) -> Option<(String, Notice)> {
    let lines: Vec<&str> = text::lines(s).collect();
    let total = lines.len();
    if total <= keep {
        return None;
    }
    let mut out = String::new();
    let mut push = |l: &str| {
        out.push_str(l);
        out.push('\n');
    };
    match strategy {
        Strategy::Head => lines[..keep].iter().for_each(|l| push(l)),
        Strategy::Tail => lines[total - keep..].iter().for_each(|l| push(l)),
        Strategy::HeadTail => {
            let (h, t) = head_tail(keep);
            lines[..h].iter().for_each(|l| push(l));
            push(&format!("… [{} lines omitted] …", total - keep));
            lines[total - t..].iter().for_each(|l| push(l));
        }
    }
    Some((
        out,
        Notice::Lines {
            kept: keep,
            total,
            strategy,
        },
    ))
}

/// The limit for one value: the smaller of its own (`max_chars`) and the global one.
fn min_limit(own: Option<usize>, global: Option<usize>) -> Option<usize> {
    match (own, global) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Cut `s` to `max` characters in place (line by line when it has several lines); returns
/// how many pieces were cut.
fn cut_text(s: &mut crate::doc::Text<'_>, max: usize) -> usize {
    if s.contains(['\n', '\r']) {
        // A multi-line string is cut line by line, each line to `max` characters.
        let mut n = 0;
        let mut out = String::new();
        for line in text::lines(s) {
            match text::cut_chars(line, max) {
                Some(c) => {
                    n += 1;
                    out.push_str(&c);
                }
                None => out.push_str(line),
            }
            out.push('\n');
        }
        if n > 0 {
            *s = out.into();
        }
        n
    } else {
        match text::cut_chars(s, max) {
            Some(cut) => {
                *s = cut.into();
                1
            }
            None => 0,
        }
    }
}

/// Cut every text value and cell longer than its limit (its own `max_chars`, or `max`),
/// grapheme-safe, with `…[+N chars]`. Numbers, booleans and nulls are never cut. Returns
/// how many values were cut.
fn cut_values(node: &mut Node<'_>, max: Option<usize>) -> usize {
    match node {
        Node::Str(s) => max.map_or(0, |m| cut_text(s, m)),
        Node::Table(t) => cut_cells(t, max),
        Node::Record(r) => r
            .fields
            .iter_mut()
            .map(|f| cut_values(&mut f.value, min_limit(f.max_chars, max)))
            .sum(),
        Node::List(items) => items.iter_mut().map(|v| cut_values(v, max)).sum(),
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::DepthCut(_) => 0,
        // An envelope's parts are never cut; its body is data.
        Node::Envelope(e) => e.body_mut().map_or(0, |b| cut_values(b, max)),
    }
}

fn cut_cells(t: &mut Table<'_>, max: Option<usize>) -> usize {
    let limits: Vec<Option<usize>> = (0..t.columns().len())
        .map(|c| min_limit(t.limit(c), max))
        .collect();
    if limits.iter().all(Option::is_none) {
        return 0;
    }
    let mut n = 0;
    t.map_cells(|col, cell, kind, out| {
        match limits[col].filter(|_| kind.may_shorten()) {
            Some(max) => match text::cut_chars(cell, max) {
                Some(cut) => {
                    n += 1;
                    out.push_str(&cut);
                }
                None => out.push_str(cell),
            },
            None => out.push_str(cell),
        }
        kind
    });
    n
}

/// Cap the tables nested in records and lists (a tool's `max_rows`, else the table type's,
/// else the formatter's). The table keeps its full row count, and the sink announces the cut
/// in place.
fn cap_nested_tables(node: &mut Node<'_>, plan: &RowPlan) {
    match node {
        Node::Record(r) => r
            .fields
            .iter_mut()
            .for_each(|f| cap_nested_tables(&mut f.value, plan)),
        Node::List(items) => items.iter_mut().for_each(|v| cap_nested_tables(v, plan)),
        Node::Table(t) => t.truncate_rows(plan.cap(t.max_rows)),
        Node::Envelope(e) => e
            .body_mut()
            .into_iter()
            .for_each(|b| cap_nested_tables(b, plan)),
        _ => {}
    }
}

/// What to keep of a top-level node: the caps set it from the options, budgets search it.
#[derive(Debug, Clone)]
pub(crate) struct Keep {
    /// Rows, lines, fields or items to keep (from the start; lines by the strategy).
    pub count: usize,
    /// Longest a value may be, in characters (cap or budget).
    pub value_chars: Option<usize>,
    /// The value cut comes from a budget, so it is announced with a notice.
    pub budget: bool,
    /// Row caps of tables nested in records and lists (announced in place).
    pub plan: RowPlan,
}

impl Keep {
    /// What the caps keep of `node`.
    pub fn caps(node: &Node<'_>, opts: &Resolved) -> Keep {
        let plan = opts.row_plan();
        let count = match node {
            Node::Table(t) => plan.cap(t.max_rows),
            Node::Str(_) => opts.max_lines,
            _ => usize::MAX,
        };
        // A top-level string is cut by lines; `max_cell_chars` is for cells and values.
        let value_chars = if matches!(node, Node::Str(_)) {
            None
        } else {
            opts.max_cell_chars
        };
        Keep {
            count,
            value_chars,
            budget: false,
            plan,
        }
    }
}

/// A cut node and what was cut.
#[derive(Debug)]
pub(crate) struct Cut<'a> {
    pub node: Node<'a>,
    pub notices: Vec<Notice>,
    pub values_shortened: usize,
}

/// How many rows, fields or items a node has (what `Keep::count` counts; lines of a string
/// are counted by [`cut_lines`]).
fn parts(node: &Node<'_>) -> usize {
    match node {
        Node::Table(t) => t.total_rows(),
        Node::Record(r) => r.fields.len(),
        Node::List(items) => items.len(),
        _ => 0,
    }
}

/// Cut a node the caller no longer needs, in place: nothing is copied, and nothing at all
/// is touched when nothing is cut.
pub(crate) fn cut_owned<'a>(node: Node<'a>, keep: &Keep, strategy: Strategy) -> Cut<'a> {
    let total = parts(&node);
    finish(node, total, keep, strategy)
}

/// Cut a copy of `node` (for the candidates a budget search tries): only the kept prefix
/// is copied.
pub(crate) fn cut<'a>(node: &Node<'a>, keep: &Keep, strategy: Strategy) -> Cut<'a> {
    let n = keep.count;
    let head = match node {
        Node::Table(t) => Node::Table(t.head(n)),
        Node::Record(r) => Node::Record(Record {
            title: r.title.clone(),
            fields: r.fields[..n.min(r.fields.len())].to_vec(),
        }),
        Node::List(items) => Node::List(items[..n.min(items.len())].to_vec()),
        other => other.clone(),
    };
    finish(head, parts(node), keep, strategy)
}

/// Apply `keep` to a node whose data had `total` rows, fields or items.
fn finish<'a>(mut node: Node<'a>, total: usize, keep: &Keep, strategy: Strategy) -> Cut<'a> {
    let mut notices = Vec::new();
    let kept = keep.count.min(total);
    match &mut node {
        Node::Table(t) => {
            t.truncate_rows(kept);
            let kept = t.rows();
            if kept < total {
                notices.push(Notice::Rows { kept, total });
            }
        }
        Node::Str(s) => {
            if let Some((lines, notice)) = cut_lines(s, keep.count, strategy) {
                *s = lines.into();
                notices.push(notice);
            }
        }
        Node::Record(r) => {
            r.fields.truncate(kept);
            if kept < total {
                notices.push(Notice::Fields { kept, total });
            }
        }
        Node::List(items) => {
            items.truncate(kept);
            if kept < total {
                notices.push(Notice::Items { kept, total });
            }
        }
        _ => {}
    }
    if let Node::Record(_) | Node::List(_) = node {
        cap_nested_tables(&mut node, &keep.plan);
    }
    let values_shortened = cut_values(&mut node, keep.value_chars);
    if keep.budget && values_shortened > 0 {
        notices.push(Notice::Shortened {
            values: values_shortened,
            max_chars: keep.value_chars.unwrap_or(0),
        });
    }
    Cut {
        node,
        notices,
        values_shortened,
    }
}
