//! Size reports: what a rendering produced and what it cut, for logging and alerts.

use crate::caps::Notice;
use crate::doc::Node;

/// How many of something were kept out of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kept {
    /// Kept.
    pub kept: usize,
    /// In the data.
    pub total: usize,
}

/// What a rendering produced and cut.
///
/// ```
/// use tool_output_format::Formatter;
/// let rows: Vec<_> = (0..500).map(|i| serde_json::json!({"id": i})).collect();
/// let out = Formatter::new().format_with_report("t", &rows);
/// assert_eq!(out.report.rows.map(|r| (r.kept, r.total)), Some((100, 500)));
/// assert_eq!(out.report.chars, out.text.chars().count());
/// assert!(out.report.truncated());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Report {
    /// Characters (Unicode scalar values) in the text.
    pub chars: usize,
    /// Bytes of UTF-8 in the text.
    pub bytes: usize,
    /// o200k tokens in the text (with the `tokens` feature, or a custom counter).
    pub tokens: Option<usize>,
    /// Table rows kept, for table results.
    pub rows: Option<Kept>,
    /// String lines kept, for string results.
    pub lines: Option<Kept>,
    /// Values cut short (by `max_cell_chars`, `max_chars` on a field, or a budget).
    pub values_shortened: usize,
    /// Every notice printed at the top of the text.
    pub notices: Vec<Notice>,
    /// The reference of the full result when it was cut and stored
    /// ([`Formatter::store`](crate::Formatter::store)); the output's `Next:` line names it.
    pub reference: Option<String>,
    /// Why the full result of a cut output could not be stored (the output then has no
    /// `Next:` line).
    pub store_error: Option<String>,
}

impl Report {
    /// True when anything was cut.
    #[must_use]
    pub fn truncated(&self) -> bool {
        !self.notices.is_empty() || self.values_shortened > 0
    }

    pub(crate) fn new(
        text: &str,
        node: &Node<'_>,
        notices: Vec<Notice>,
        values_shortened: usize,
    ) -> Report {
        let cut_rows = notices.iter().find_map(|n| match *n {
            Notice::Rows { kept, total } => Some(Kept { kept, total }),
            _ => None,
        });
        let cut_lines = notices.iter().find_map(|n| match *n {
            Notice::Lines { kept, total, .. } => Some(Kept { kept, total }),
            _ => None,
        });
        let (rows, lines) = match node {
            Node::Table(t) => (
                cut_rows.or(Some(Kept {
                    kept: t.rows(),
                    total: t.total_rows(),
                })),
                None,
            ),
            Node::Str(s) => {
                let n = crate::text::lines(s).count();
                (None, cut_lines.or(Some(Kept { kept: n, total: n })))
            }
            _ => (None, None),
        };
        Report {
            chars: text.chars().count(),
            bytes: text.len(),
            tokens: None,
            rows,
            lines,
            values_shortened,
            notices,
            reference: None,
            store_error: None,
        }
    }
}

/// A rendered text with its [`Report`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Formatted {
    /// The markdown.
    pub text: String,
    /// What was produced and cut.
    pub report: Report,
}
