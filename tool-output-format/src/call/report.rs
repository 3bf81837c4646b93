//! Size reports: what a rendering produced and what it cut, for logging and alerts.

use crate::doc::Node;
use crate::doc::notice::Notice;
use crate::shape::{ShapeError, ShapeStats};

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
    /// The result is a failure (see [`Formatted::is_error`]).
    pub(crate) error: bool,
    /// What query-focused trimming did ([`Formatter::focus`](crate::Formatter::focus)), when
    /// it printed a line.
    pub focus: Option<FocusReport>,
    /// Everything applying the tool's shape counted (failed conversions with the first one
    /// described, renames that kept their input name because the new one was taken, subtrees
    /// too deep to shape); `None` when no shape applied.
    ///
    /// A value the shape had a converter for but could not read (a timestamp that is not one,
    /// cents that are not an integer) is kept unchanged, so nothing is lost, and counted in
    /// [`ShapeStats::conversions_failed`] over every row of the result, shown or not:
    ///
    /// ```
    /// use tool_output_format::{Convert, Formatter, Shape, ToolOptions};
    /// let fmt = Formatter::new().shape(Shape::new().convert("at", Convert::EpochSeconds));
    /// let out = fmt.format_with_report("t", &serde_json::json!([{"at": 1703203200}, {"at": "soon"}]));
    /// assert_eq!(out.text, "| at                   |\n|----------------------|\n| 2023-12-22T00:00:00Z |\n| soon                 |");
    /// assert_eq!(out.report.shape.map(|s| s.conversions_failed), Some(1));
    /// ```
    pub shape: Option<ShapeStats>,
    /// The mistakes in the tool's shape ([`Shape::errors`](crate::Shape::errors)): the rules
    /// they are in were skipped, the valid ones applied. Empty without a shape.
    ///
    /// ```
    /// use tool_output_format::{Formatter, Shape};
    /// let fmt = Formatter::new().shape(Shape::new().keep(["id", "user..login"]));
    /// let out = fmt.format_with_report("", &serde_json::json!({"id": 1, "name": "x"}));
    /// assert_eq!(out.text, "- id: 1");
    /// assert_eq!(out.report.shape_errors[0].at(), "keep[1]");
    /// ```
    pub shape_errors: Vec<ShapeError>,
    /// The reference of the full result when it was cut and stored
    /// ([`Formatter::store`](crate::Formatter::store)); the output's `Next:` line names it.
    pub reference: Option<String>,
    /// Why the full result of a cut output could not be stored (the output then has no
    /// `Next:` line).
    pub store_error: Option<String>,
    /// The tables nested in a record result that lost rows, in the order they are written:
    /// each one's JSON pointer (from the record's field names) and the rows it shows. The
    /// fetch tool pages their rest.
    pub(crate) cut_tables: Vec<(String, usize)>,
    /// Whether a table nested in the result (not the result's own table) lost rows.
    pub(crate) nested_cut: bool,
    /// Whether a table of the result, at any depth, is shown without columns a budget left
    /// out.
    pub(crate) columns_cut: bool,
}

impl Report {
    /// The report as plain data, for logs and metrics (the Python package's `report` is this):
    /// `chars`, `bytes`, `tokens`, `rows` and `lines` (`{"kept", "total"}` or null),
    /// `values_shortened`, `notices` (their text), `truncated`, `conversions_failed` (from
    /// [`Report::shape`], 0 without a shape),
    /// `shape_errors` (their text), `reference`, `store_error` and `focus`
    /// (`{"notice", "kept"}` or null).
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// let rows: Vec<_> = (0..5).map(|i| serde_json::json!({"id": i})).collect();
    /// let r = Formatter::new().max_rows(2).format_with_report("t", &rows).report.to_json();
    /// assert_eq!(r["rows"], serde_json::json!({"kept": 2, "total": 5}));
    /// assert_eq!(r["notices"][0], "[Truncated to 2 rows of 5 total]");
    /// assert_eq!(r["truncated"], true);
    /// ```
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let kept = |k: Option<Kept>| {
            k.map_or(
                serde_json::Value::Null,
                |k| serde_json::json!({"kept": k.kept, "total": k.total}),
            )
        };
        serde_json::json!({
            "chars": self.chars,
            "bytes": self.bytes,
            "tokens": self.tokens,
            "rows": kept(self.rows),
            "lines": kept(self.lines),
            "values_shortened": self.values_shortened,
            "notices": self.notices.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "truncated": self.truncated(),
            "conversions_failed": self.shape.as_ref().map_or(0, |s| s.conversions_failed),
            "shape_errors": self.shape_errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "reference": self.reference,
            "store_error": self.store_error,
            "focus": self.focus.as_ref().map(|f| serde_json::json!({"notice": f.notice, "kept": kept(f.kept)})),
        })
    }

    /// True when anything was cut.
    #[must_use]
    pub fn truncated(&self) -> bool {
        !self.notices.is_empty()
            || self.values_shortened > 0
            || self.columns_cut
            || self.focus.as_ref().is_some_and(|f| f.kept.is_some())
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
            cut_tables: crate::cut::trailer::tables_cut(node),
            nested_cut: nested_cut(node),
            columns_cut: crate::cut::trailer::columns_cut(node),
            chars: text.chars().count(),
            bytes: text.len(),
            tokens: None,
            rows,
            lines,
            values_shortened,
            notices,
            error: false,
            focus: None,
            shape: None,
            shape_errors: Vec::new(),
            reference: None,
            store_error: None,
        }
    }
}

/// Whether a table nested in `node` (or in its envelope's body) lost rows.
fn nested_cut(node: &Node<'_>) -> bool {
    match node {
        Node::Envelope(e) => e.body().is_some_and(nested_cut),
        Node::Table(_) => false,
        n => crate::cut::trailer::nested_cut(n),
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

impl Formatted {
    /// True when the result is an error: a [`ToolError`](crate::ToolError) or an `Err`
    /// (also wrapped, in a [`Reply`](crate::Reply) or a `Box`), rendered under
    /// `**{tool} failed**`. False for everything else: an empty result, an empty page and a
    /// batch whose items all failed included (a batch reports per-item outcomes; the call
    /// itself succeeded).
    ///
    /// ```
    /// use tool_output_format::{Batch, ErrorKind, Formatter, Page, ToolError};
    /// let fmt = Formatter::new();
    /// let err = ToolError::new(ErrorKind::Timeout, "no answer in 10 s");
    /// assert!(fmt.format_with_report("search", &err).is_error());
    /// assert!(!fmt.format_with_report("search", &Page::new(Vec::<u8>::new())).is_error());
    /// assert!(!fmt.format_with_report("send", &Batch::new().failed("a", err)).is_error());
    /// ```
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.report.error
    }
}

/// What query-focused trimming did to a result ([`Report::focus`]).
///
/// ```
/// let fmt = tool_output_format::Formatter::new().max_lines(1);
/// let out = fmt.focus("refund").format_with_report("t", "a\nb\nc");
/// let focus = out.report.focus.unwrap();
/// assert_eq!(focus.notice, "[No section matched \"refund\"]");
/// assert_eq!(focus.kept, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FocusReport {
    /// The line printed first: `[Kept 4 of 40 sections relevant to "q"]` or
    /// `[No section matched "q"]`.
    pub notice: String,
    /// Sections, paragraphs, lines or rows kept of the total (the unit is the notice's);
    /// `None` when nothing matched and the result was cut as without a query.
    pub kept: Option<Kept>,
}
