//! Caps: act on the document once, for every source and every sink, and record each cut as
//! a [`Notice`] with exact counts. Budgets (fitting a character or token limit) build on
//! these cuts in [`fit`](crate::fit).

use std::fmt;

use crate::doc::{Node, Table};
use crate::options::{Resolved, Strategy};
use crate::text;

/// A cut, announced first in the output (before the title and the content).
///
/// ```
/// use tool_output_format::budget::Notice;
/// assert_eq!(Notice::Rows { kept: 100, total: 10000 }.to_string(),
///            "[Truncated to 100 rows of 10000 total]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Notice::Rows { kept, total } => {
                write!(f, "[Truncated to {kept} rows of {total} total]")
            }
            Notice::Lines {
                kept,
                total,
                strategy: Strategy::Head,
            } => {
                write!(f, "[Truncated to {kept} lines of {total} total]")
            }
            Notice::Lines {
                kept,
                total,
                strategy: Strategy::Tail,
            } => {
                write!(f, "[Truncated to the last {kept} lines of {total} total]")
            }
            Notice::Lines {
                kept,
                total,
                strategy: Strategy::HeadTail,
            } => {
                let (h, t) = head_tail(kept);
                write!(
                    f,
                    "[Truncated to {kept} lines of {total} total: the first {h} and the last {t}]"
                )
            }
            Notice::Fields { kept, total } => {
                write!(f, "[Truncated to {kept} fields of {total} total]")
            }
            Notice::Items { kept, total } => {
                write!(f, "[Truncated to {kept} items of {total} total]")
            }
            Notice::Shortened { values, max_chars } => {
                write!(
                    f,
                    "[Shortened {values} values to {max_chars} chars to fit the budget]"
                )
            }
            Notice::Omitted {
                needed,
                budget,
                unit,
            } => {
                write!(
                    f,
                    "[Omitted: the result needs {needed} {unit}, over the budget of {budget}]"
                )
            }
        }
    }
}

/// How `kept` lines split between head and tail.
fn head_tail(kept: usize) -> (usize, usize) {
    (kept.div_ceil(2), kept / 2)
}

/// Keep `keep` lines of `s` by `strategy`. Returns the kept text (every line ending in
/// `\n`) and the notice, or `None` when nothing needs cutting.
///
/// ```
/// use tool_output_format::{Strategy, budget::cut_lines};
/// let (kept, notice) = cut_lines("a\nb\nc\nd", 2, Strategy::HeadTail).unwrap();
/// assert_eq!(kept, "a\n… [2 lines omitted] …\nd\n");
/// assert_eq!(notice.to_string(), "[Truncated to 2 lines of 4 total: the first 1 and the last 1]");
/// ```
pub fn cut_lines(s: &str, keep: usize, strategy: Strategy) -> Option<(String, Notice)> {
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

/// Cut every cell and string value longer than `max` characters (grapheme-safe, with
/// `…[+N chars]`). Returns how many values were cut.
pub(crate) fn cut_values(node: &mut Node, max: usize) -> usize {
    match node {
        Node::Str(s) if s.contains(['\n', '\r']) => {
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
            *s = out;
            n
        }
        // Numbers and booleans are never cut: a shortened number is a wrong number.
        Node::Scalar(_) => 0,
        Node::Str(s) => match text::cut_chars(s, max) {
            Some(cut) => {
                *s = cut;
                1
            }
            None => 0,
        },
        Node::Table(t) => cut_cells(t, max),
        Node::Record(r) => r.fields.iter_mut().map(|(_, v)| cut_values(v, max)).sum(),
        Node::List(items) => items.iter_mut().map(|v| cut_values(v, max)).sum(),
        Node::Null | Node::DepthCut(_) => 0,
    }
}

fn cut_cells(t: &mut Table, max: usize) -> usize {
    let mut n = 0;
    t.map_cells(|_, cell, out| match text::cut_chars(cell, max) {
        Some(cut) => {
            n += 1;
            out.push_str(&cut);
        }
        None => out.push_str(cell),
    });
    n
}

/// Cap the tables nested in records and lists at `cap` rows (or their type's own cap). The
/// table keeps its full row count, and the sink announces the cut in place.
fn cap_nested_tables(node: &mut Node, cap: usize) {
    match node {
        Node::Record(r) => r
            .fields
            .iter_mut()
            .for_each(|(_, v)| cap_nested_tables(v, cap)),
        Node::List(items) => items.iter_mut().for_each(|v| cap_nested_tables(v, cap)),
        Node::Table(t) => {
            let cap = t.max_rows.unwrap_or(cap);
            if t.rows() > cap {
                t.set_total_rows(t.total_rows());
                t.truncate_rows(cap);
            }
        }
        Node::Null | Node::Scalar(_) | Node::Str(_) | Node::DepthCut(_) => {}
    }
}

/// What to keep of a top-level node: the caps set it from the options, budgets search it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keep {
    /// Rows, lines, fields or items to keep (from the start; lines by the strategy).
    pub count: usize,
    /// Longest a value may be, in characters (cap or budget).
    pub value_chars: Option<usize>,
    /// The value cut comes from a budget, so it is announced with a notice.
    pub budget: bool,
    /// Row cap of tables nested in records and lists (announced in place).
    pub nested_rows: usize,
}

impl Keep {
    /// What the caps keep of `node`.
    pub fn caps(node: &Node, opts: &Resolved) -> Keep {
        let count = match node {
            Node::Table(t) => t.max_rows.unwrap_or(opts.max_rows),
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
            nested_rows: opts.max_rows,
        }
    }
}

/// A cut node and what was cut.
#[derive(Debug)]
pub(crate) struct Cut {
    pub node: Node,
    pub notices: Vec<Notice>,
    pub values_shortened: usize,
}

/// [`cut`] for a node the caller no longer needs: a table (the common result) is cut in
/// place instead of copied.
pub(crate) fn cut_owned(node: Node, keep: Keep, strategy: Strategy) -> Cut {
    match node {
        Node::Table(mut t) => {
            let (kept, notices) = rows_kept(&t, keep);
            t.truncate_rows(kept);
            shorten(Node::Table(t), notices, keep)
        }
        other => cut(&other, keep, strategy),
    }
}

/// Cut `node` down to `keep`, announcing every cut.
/// How many of a table's rows `keep` keeps, with the notice when that is fewer than the
/// data has.
fn rows_kept(t: &Table, keep: Keep) -> (usize, Vec<Notice>) {
    let (kept, total) = (keep.count.min(t.rows()), t.total_rows());
    let notices = if kept < total {
        vec![Notice::Rows { kept, total }]
    } else {
        Vec::new()
    };
    (kept, notices)
}

pub(crate) fn cut(node: &Node, keep: Keep, strategy: Strategy) -> Cut {
    let mut notices = Vec::new();
    let out = match node {
        Node::Table(t) => {
            let (kept, n) = rows_kept(t, keep);
            notices = n;
            Node::Table(t.head(kept))
        }
        Node::Str(s) => match cut_lines(s, keep.count, strategy) {
            Some((kept, notice)) => {
                notices.push(notice);
                Node::Str(kept)
            }
            None => Node::Str(s.clone()),
        },
        Node::Record(r) if r.fields.len() > keep.count => {
            notices.push(Notice::Fields {
                kept: keep.count,
                total: r.fields.len(),
            });
            Node::Record(crate::doc::Record {
                title: r.title.clone(),
                fields: r.fields[..keep.count].to_vec(),
            })
        }
        Node::List(items) if items.len() > keep.count => {
            notices.push(Notice::Items {
                kept: keep.count,
                total: items.len(),
            });
            Node::List(items[..keep.count].to_vec())
        }
        other => other.clone(),
    };
    shorten(out, notices, keep)
}

/// Apply `keep.value_chars` to a node already cut to `keep.count`.
fn shorten(mut out: Node, mut notices: Vec<Notice>, keep: Keep) -> Cut {
    if let Node::Record(_) | Node::List(_) = out {
        cap_nested_tables(&mut out, keep.nested_rows);
    }
    let values_shortened = match keep.value_chars {
        Some(max) => cut_values(&mut out, max),
        None => 0,
    };
    if keep.budget && values_shortened > 0 {
        notices.push(Notice::Shortened {
            values: values_shortened,
            max_chars: keep.value_chars.unwrap_or(0),
        });
    }
    Cut {
        node: out,
        notices,
        values_shortened,
    }
}
