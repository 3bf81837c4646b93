//! Sinks: write a cut document as text. Each layout is one [`Sink`]; the wording of every
//! notice lives here too ([`notice`]), so adding a sink touches no source and no cap.

pub(crate) mod csv;
pub(crate) mod json;
pub(crate) mod json_envelope;
pub(crate) mod markdown;
pub(crate) mod notice;

use crate::doc::Node;
use crate::doc::notice::Notice;
use csv::Csv;
use markdown::{Aligned, Compact, Markdown};

/// A document ready to write: the cut notices, the title line, the body.
#[derive(Debug)]
pub(crate) struct Document<'d, 'a> {
    pub notices: &'d [Notice],
    pub title: Option<&'d str>,
    pub body: &'d Node<'a>,
}

/// Writes a document as text. The result never ends with a newline and has no trailing
/// spaces.
pub(crate) trait Sink: Sync {
    fn render(&self, doc: &Document<'_, '_>) -> String;
}

/// How tables are laid out.
///
/// ```
/// use tool_output_format::{Formatter, Layout};
/// let rows = serde_json::json!([{"a": 1, "bb": 2}]);
/// let md = Formatter::new().layout(Layout::Compact).format("t", &rows);
/// assert_eq!(md, "|a|bb|\n|-|-|\n|1|2|");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Layout {
    /// Columns padded to their widest cell (display width), as a person would write it.
    #[default]
    Aligned,
    /// No padding, no spaces around `|`, one-hyphen separators (`|a|b|`, `|-|-|`): the
    /// fewest tokens among the GFM forms measured that keep the outer pipes.
    ///
    /// Dropping the outer pipes saves a little more but makes a row with an empty first cell
    /// ambiguous, so they stay (the measurements: BENCHMARKS.md, "Measurements behind the
    /// defaults", in the repository).
    ///
    /// Records are written lean, dropping no value: two or more fields that hold no data
    /// (null, an empty string, list or record, or a record whose every field holds none,
    /// named as itself) are named on one last `(empty)` line, and a nested record, table or
    /// list equal to an earlier sibling's value is written `(same as KEY)`. Two or more
    /// fields of a nested record equal to the top-level fields of the same names (text or
    /// blocks) are named on one `(same as the top level)` line. A nested record with the same keys in the same order as such an
    /// earlier sibling (three or more), at most half of them different, is written
    /// `(same as KEY, except:)` with only the differing fields below, a nested record among
    /// those as `(same as in KEY, except:)` the same way (npm's versions, a commit's
    /// `committer` beside its `author`). Never when a cut could hide a difference (a value
    /// holding a cut, or a result with a cut notice), and never naming a key that holds a
    /// comma. A key named `(empty)` or `(same as the top level)` and a string value of the
    /// form `(same as …)` are written with their `(` as `\u{28}`.
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout};
    /// let repo = serde_json::json!({"id": 7, "homepage": null, "owner": {"login": "octo"},
    ///                               "organization": {"login": "octo"}, "license": null});
    /// assert_eq!(
    ///     Formatter::new().layout(Layout::Compact).format("", &repo),
    ///     "- id: 7\n- owner:\n  - login: octo\n- organization: (same as owner)\n\
    ///      - (empty): homepage, license"
    /// );
    /// let commit = serde_json::json!({
    ///     "author": {"name": "Mona", "email": "m@example.com", "date": "2024-01-01"},
    ///     "committer": {"name": "Mona", "email": "m@example.com", "date": "2024-01-02"},
    /// });
    /// assert!(Formatter::new().layout(Layout::Compact).format("", &commit)
    ///     .ends_with("- committer: (same as author, except:)\n  - date: 2024-01-02"));
    /// ```
    Compact,
    /// Tables as RFC 4180 CSV (header, then rows, written by the `csv` crate); records,
    /// lists and strings as in markdown, notices as in markdown (a line, then a blank line).
    /// A table nested in a record is a fenced ```` ```csv ```` block inside the item.
    /// `csv::Reader` reads a top-level table back to exactly its header and kept cells;
    /// rules, nesting and the formula-injection decision: `docs/rendering.md` ("Layouts") and
    /// `src/sink/csv.rs` in the repository.
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout};
    /// let rows = serde_json::json!([{"id": 1, "note": "a, b"}, {"id": 2, "note": null}]);
    /// let csv = Formatter::new().layout(Layout::Csv).format("t", &rows);
    /// assert_eq!(csv, "id,note\n1,\"a, b\"\n2,");
    /// ```
    ///
    /// Fewer tokens than compact markdown on uniform tables; cells of nested JSON cost more
    /// (every quote doubled). A tab-separated variant was not kept: plain TSV has no quoting
    /// (the measurements: BENCHMARKS.md, "CSV and TSV" and "Measurements behind the
    /// defaults", in the repository).
    Csv,
}

impl Layout {
    /// The sink that writes this layout.
    pub(crate) fn sink(self) -> &'static dyn Sink {
        static ALIGNED: Markdown<Aligned> = Markdown(Aligned);
        static COMPACT: Markdown<Compact> = Markdown(Compact);
        static CSV: Markdown<Csv> = Markdown(Csv);
        match self {
            Layout::Aligned => &ALIGNED,
            Layout::Compact => &COMPACT,
            Layout::Csv => &CSV,
        }
    }
}
