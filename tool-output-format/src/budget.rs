//! Caps: act on the document once, for every source and every sink, and record each cut as
//! a [`Notice`] with exact counts.

use std::fmt;

use crate::doc::Node;
use crate::options::Resolved;
use crate::text;

/// A cut, announced first in the output.
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
    /// String lines dropped from the end.
    Lines {
        /// Lines kept.
        kept: usize,
        /// Lines in the data.
        total: usize,
    },
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Rows { kept, total } => {
                write!(f, "[Truncated to {kept} rows of {total} total]")
            }
            Notice::Lines { kept, total } => {
                write!(f, "[Truncated to {kept} lines of {total} total]")
            }
        }
    }
}

/// Apply the row and line caps to a top-level node, returning the notices.
pub(crate) fn apply_caps(node: &mut Node, opts: &Resolved) -> Vec<Notice> {
    let mut notices = Vec::new();
    match node {
        Node::Table(t) => {
            let cap = t.max_rows.unwrap_or(opts.max_rows);
            let total = t.rows();
            if total > cap {
                t.truncate_rows(cap);
                notices.push(Notice::Rows { kept: cap, total });
            }
        }
        Node::Str(s) => {
            let cap = opts.max_lines;
            let mut total = 0;
            let mut keep_end = None;
            for line in text::lines(s) {
                total += 1;
                if total == cap {
                    // Keep the line's terminator too: cut at the line's end, a kept empty
                    // last line would vanish (`lines("a\n")` is one line, not two).
                    let end = line.as_ptr() as usize - s.as_ptr() as usize + line.len();
                    let term = if s[end..].starts_with("\r\n") { 2 } else { 1 };
                    keep_end = Some((end + term).min(s.len()));
                }
            }
            if total > cap {
                s.truncate(keep_end.unwrap_or(0));
                notices.push(Notice::Lines { kept: cap, total });
            }
        }
        _ => {}
    }
    notices
}
