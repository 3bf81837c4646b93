//! The wording of the notices that announce cuts.

use std::fmt;

use crate::caps::{Notice, head_tail};
use crate::options::Strategy;

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
