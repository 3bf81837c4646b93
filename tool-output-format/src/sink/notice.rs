//! The wording of the notices that announce cuts.
//!
//! ```text
//! [Truncated to 5 rows of 30 total]
//! [Truncated to 2 fields of 4 total]
//! [Truncated 1 nested tables, lists or texts to 5 rows, items or lines each]
//! [Shortened 12 values to 32 chars to fit the budget]
//! [Omitted: 1000 rows; 1 row needs 365 chars, over the budget of 120]
//! [Omitted: the result needs 20 chars, over the budget of 5]
//! ```

use std::fmt;

use crate::doc::Node;
use crate::doc::notice::Strategy;
use crate::doc::notice::{Notice, head_tail};

/// Whether a text says notice `n` elsewhere, so a line above the body would say it twice:
/// each nested table, list or text announces its own cut in place (with its counts), and the
/// fields a budget left out of a record are named and counted in the record's left-out line
/// (`[Left out to fit the budget: ...]`). The notice still goes to every report.
pub(crate) fn said_in_place(n: &Notice, body: &Node<'_>) -> bool {
    match n {
        Notice::Nested { .. } => true,
        Notice::Fields { .. } => matches!(body, Node::Record(r) if r.left_out.is_some()),
        _ => false,
    }
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
            Notice::Nested { parts, kept } => write!(
                f,
                "[Truncated {parts} nested tables, lists or texts to {kept} rows, items or lines each]"
            ),
            Notice::Omitted {
                total,
                what,
                needed,
                budget,
                unit,
            } => match what.strip_suffix('s') {
                Some(one) if !one.is_empty() => write!(
                    f,
                    "[Omitted: {total} {what}; 1 {one} needs {needed} {unit}, over the budget of {budget}]"
                ),
                _ => write!(
                    f,
                    "[Omitted: the result needs {needed} {unit}, over the budget of {budget}]"
                ),
            },
        }
    }
}

/// The line for values a cap shortened (not a budget, whose cut is a [`Notice`]): their
/// count, and the length they were shortened to when one cap applies to all of them.
pub(crate) fn cap_shortened_line(values: usize, max_chars: Option<usize>) -> String {
    match max_chars {
        Some(m) => format!("[Shortened {values} values to {m} chars]"),
        None => format!("[Shortened {values} values]"),
    }
}
