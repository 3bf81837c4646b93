//! What follows the body of a cut result: the summary over all rows, the fields left out in
//! summary detail, and the reference to the stored full result.
//!
//! The rendered text is the sink's text, then, each only when it applies:
//!
//! ```text
//! [Truncated to 2 rows of 5000 total]
//!
//! | id | status  |
//! |----|---------|
//! | 1  | shipped |
//! | 2  | pending |
//!
//! [Summary of all 5000 rows]
//! - id: 1 to 5000
//! - status: shipped 2000, pending 1750, cancelled 1250
//!
//! [Left out in summary detail: note. Call list_orders(detail="full") for them]
//! Next: call get_stored_result(ref="r_...", cursor="2")
//! ```
//!
//! - the summary block (after a blank line) when summaries are on and the result's main
//!   table lost rows (a row cap or a budget);
//! - then, after a blank line, one line per item: the left-out line (whenever fields were
//!   left out, cut or not) and the Next line (whenever the result was cut, or a folding shape
//!   left fields out, and a store is set: the stored full result has them). The Next line
//!   carries the cursor where the text stopped (`cursor="25"`: the first row, item or line
//!   not shown; `cursor="25;25>34"` when the table's rows shown had values shortened to 34
//!   characters: the fetch serves the rows from 25, then those values whole), left out when
//!   the text stopped before the first row or cut values of a record or list; it is the
//!   only Next line of the text: a page whose own
//!   item cursor resumes at the first item cut needs no store and gets none, and a page
//!   whose rest is stored drops its own Next line (the fetch tool's last page ends with it).
//!
//! Budgets measure all of it: the candidates the fit tries are rendered with these lines, so
//! rows are cut to make room. The Next line and the left-out line are never cut. What a
//! budget cuts, in order: table rows (down to one), then the summary's column lines from the
//! last (announced by a line `- (N more columns left out to fit the budget)`; the first line
//! with the row count stays), then cells are shortened as usual, and when nothing fits the
//! output is the `[Omitted: ...]` notice followed by the trailing lines (which a budget too
//! small for both then exceeds, announced rather than silent).

use crate::cut::summary::Summary;
use crate::doc::agent::NextAction;
use crate::doc::notice::{Notice, Strategy, head_tail};
use crate::doc::{Node, Table};
use crate::rules::detail::LeftOut;
use crate::text::resume::{Fields, RecordRest, Short};

/// The lines after the body, for one render.
pub(crate) struct Trailer<'r> {
    tool: &'r str,
    summary: Option<Summary>,
    /// How many of the summary's column lines are shown (a budget may lower it).
    summary_lines: usize,
    left_out: &'r LeftOut,
    /// The tool that fetches a stored result, when a store is set.
    fetch_tool: Option<&'r str>,
    /// The name of the fetch tool's reference argument (`ref` unless set).
    ref_arg: &'r str,
    /// The Next line's reference: a stand-in of the same shape while fitting, the stored
    /// result's reference once stored, `None` when storing failed.
    reference: Option<String>,
    stored: bool,
    /// Why the store failed, once it did.
    failure: Option<String>,
    /// Cut by a stage the notices do not show (query focus).
    cut_elsewhere: bool,
    /// Values shortened in place (a cell's or a field's cap), and the shortest length a cap
    /// shortened one to, when known.
    values_cut: Option<Option<usize>>,
    /// The result's page, when its body is one: its length and how many of its items carry
    /// their own cursor.
    page: Option<(usize, usize)>,
    /// The most characters of names the left-out line lists (a budget's share).
    names_chars: usize,
    /// The budget in characters (`usize::MAX` without one): a text that omits everything
    /// counts the left-out fields instead of naming them when the names would not fit.
    room: usize,
}

/// What storing the full result gave, for the report.
#[derive(Debug, Default)]
pub(crate) struct StoreOutcome {
    pub reference: Option<String>,
    pub error: Option<String>,
}

impl<'r> Trailer<'r> {
    /// The trailer of one call. `fetch`: the fetch tool and a stand-in reference of the real
    /// shape (so a budget reserves the right room before anything is stored), when a store
    /// is set.
    pub fn new(
        tool: &'r str,
        summary: Option<Summary>,
        left_out: &'r LeftOut,
        fetch: Option<(&'r str, &'r str, String)>,
    ) -> Self {
        let lines = summary.as_ref().map_or(0, Summary::lines);
        let (fetch_tool, ref_arg, stand_in) =
            fetch.map_or((None, "ref", None), |(t, a, r)| (Some(t), a, Some(r)));
        Trailer {
            tool,
            summary,
            summary_lines: lines,
            left_out,
            fetch_tool,
            ref_arg,
            reference: stand_in,
            stored: false,
            failure: None,
            cut_elsewhere: false,
            values_cut: None,
            page: None,
            names_chars: usize::MAX,
            room: usize::MAX,
        }
    }

    /// List at most about `max` characters of names in the left-out line, within a budget
    /// of `room` characters.
    #[must_use]
    pub fn with_names_chars(mut self, max: usize, room: usize) -> Self {
        self.names_chars = max;
        self.room = room;
        self
    }

    /// The body is the items of a page of `len` items, the first `cursors` of which carry
    /// their own cursor.
    pub fn set_page(&mut self, len: usize, cursors: usize) {
        self.page = Some((len, cursors));
    }

    /// Whether the page's own Next line resumes at the first item `node` leaves out (an item
    /// cursor): then it is the text's one Next line, and nothing needs storing.
    fn page_resumes(&self, node: &Node<'_>) -> bool {
        let Some((len, cursors)) = self.page else {
            return false;
        };
        let kept = match node {
            Node::Table(t) => t.rows(),
            Node::List(items) => items.len(),
            _ => 0,
        };
        kept < len && kept < cursors
    }

    /// Whether this candidate ends with the fetch tool's Next line (the page's own Next line
    /// then gives way to it).
    pub fn ends_with_fetch(&self, node: &Node<'_>, notices: &[Notice]) -> bool {
        self.fetch_tool.is_some()
            && self.failure.is_none()
            && self.reference.is_some()
            && self.wants(node, notices)
    }

    /// Whether the full result is wanted (cut or folded, and the page's own cursor does not
    /// resume where the text stopped).
    fn wants(&self, node: &Node<'_>, notices: &[Notice]) -> bool {
        (self.cut(node, notices) || self.left_out.folded()) && !self.page_resumes(node)
    }

    /// Where the text stopped, as the fetch tool's cursor: the first row, item or line not
    /// shown. `None` (start from the first) when it stopped before the first row, or cut
    /// anything but whole rows from the end (values shortened, fields, nested parts,
    /// a focus, the last lines).
    fn resume_at(&self, notices: &[Notice]) -> Option<usize> {
        if self.cut_elsewhere || self.values_cut.is_some() {
            return None;
        }
        let mut at = None;
        for n in notices {
            at = match *n {
                Notice::Rows { kept, .. } | Notice::Items { kept, .. } => Some(kept),
                Notice::Lines {
                    kept,
                    strategy: Strategy::Head,
                    ..
                } => Some(kept),
                Notice::Lines {
                    kept,
                    strategy: Strategy::HeadTail,
                    ..
                } => Some(head_tail(kept).0),
                _ => return None,
            };
        }
        at.filter(|&k| k > 0)
    }

    /// Where the fetch resumes a table cut with `notices`: the first row not shown (a table
    /// that kept its last row: the first row it left out), then the rest of the rows before
    /// it (see [`crate::store::Fetch`], [`Short`]): when values of the rows shown were
    /// shortened to `C` characters, `"K;K>C"` (those values whole); when the rows were shown
    /// without some fields (`partial`: columns a budget left out, fields folded), `"K;K-a,b"`
    /// (the fields but the columns shown) or `"K;K+a,b"` (the fields left out), whichever is
    /// shorter (see [`Fields::shorter`]); both, `"K;K>C-a,b"`. `None` (from the first row)
    /// when it stopped before the first row, or a cut it cannot resume after (fields of a
    /// record, a focus, values shortened to an unknown length).
    fn table_resumes_at(&self, t: &Table<'_>, notices: &[Notice], partial: bool) -> Option<String> {
        if self.cut_elsewhere {
            return None;
        }
        let mut kept = t.gap;
        let mut short = None;
        for n in notices {
            match *n {
                Notice::Rows { kept: k, .. } => kept = kept.or(Some(k)),
                Notice::Shortened { max_chars, .. } => short = Some(max_chars),
                _ => return None,
            }
        }
        if let Some(cap) = self.values_cut {
            // Shortened by a cap, to at least this length (unknown: from the first row).
            let cap = cap?;
            short = Some(short.map_or(cap, |s: usize| s.min(cap)));
        }
        let kept = kept.unwrap_or(t.rows());
        if kept == 0 {
            return None;
        }
        let fields = partial.then(|| {
            let mut left: Vec<String> = t.notes.iter().flat_map(|n| n.left_out.clone()).collect();
            left.extend(self.left_out.folded_names());
            Fields::shorter(t.columns(), &left)
        });
        let rest = Short {
            before: kept,
            over: short,
            fields,
        };
        Some(rest.row_cursor(kept))
    }

    /// Where the fetch resumes a record cut with `notices`: in its table that lost rows (else
    /// its table shown without some columns), the first row not shown, as
    /// [`Trailer::table_resumes_at`] writes it after the table's JSON pointer
    /// (`"/items/20;20>34"`); then, after a `~`, what the record's text left out beside that
    /// table (`"~>34*5+owner.login"`: values shortened to 34 characters, parts cut to their
    /// first 5 rows, items or lines, the fields left out, a column of another table after its
    /// path; `-`: every field); with no such table, or with several that a budget cut each
    /// to its first `N` rows, that alone (`"/~v0;>34*5"`). `None` (the record again, from its
    /// first field) when several tables lost rows otherwise, or for a cut it cannot name (a
    /// focus, values shortened by a cap to an unknown length).
    fn record_resumes_at(&self, node: &Node<'_>, notices: &[Notice]) -> Option<String> {
        let Node::Record(r) = node else { return None };
        if self.cut_elsewhere {
            return None;
        }
        let (mut over, mut nested, mut fields) = (None, None, false);
        for n in notices {
            match *n {
                Notice::Shortened { max_chars, .. } => over = Some(max_chars),
                Notice::Nested { kept, .. } => nested = Some(kept),
                Notice::Fields { .. } => fields = true,
                _ => return None,
            }
        }
        if let Some(cap) = self.values_cut {
            let cap = cap?;
            over = Some(over.map_or(cap, |s: usize| s.min(cap)));
        }
        let tables = nested_tables(node);
        let lost = |t: &Table<'_>| t.total_rows() > t.rows();
        // Several tables that lost rows: the rest names them only when a budget cut each to
        // its first `N` rows (`*N`); else the record again.
        let lost_count = tables.iter().filter(|(.., t)| lost(t)).count();
        let each_to = |n: usize| {
            (tables.iter().filter(|(.., t)| lost(t)))
                .all(|(.., t)| t.gap.is_none() && t.rows() == n)
        };
        if lost_count > 1 && !nested.is_some_and(each_to) {
            return None;
        }
        let resumed = match lost_count {
            0 => tables.iter().find(|(.., t)| t.narrowed()),
            1 => tables.iter().find(|(.., t)| lost(t)),
            _ => None,
        };
        // The names left out: the record's fields, the folded ones, and the columns of the
        // other tables shown without them (after the table's path).
        let mut names = r.left_out_paths.clone();
        names.extend(self.left_out.folded_names());
        for (at, path, t) in &tables {
            if resumed.is_some_and(|(a, ..)| a == at) {
                continue;
            }
            for n in t.notes.iter().filter(|n| n.narrowed) {
                names.extend(n.left_out.iter().map(|c| format!("{path}.{c}")));
            }
        }
        let rest = RecordRest {
            over,
            nested,
            fields: (fields || !names.is_empty()).then(|| Fields::only(names)),
        };
        let rest = (!rest.is_empty()).then(|| rest.write());
        let Some((at, _, t)) = resumed else {
            return rest.map(|rest| format!("/~v0;{rest}"));
        };
        let shortened: Vec<Notice> = notices
            .iter()
            .filter(|n| matches!(n, Notice::Shortened { .. }))
            .cloned()
            .collect();
        let partial = self.left_out.folded() || t.narrowed();
        let inner = self.table_resumes_at(t, &shortened, partial)?;
        Some(match rest {
            Some(rest) => format!("{at}/{inner}~{rest}"),
            None => format!("{at}/{inner}"),
        })
    }

    /// Append the lines that apply to a candidate `node` cut with `notices`.
    pub fn append(&self, text: &mut String, node: &Node<'_>, notices: &[Notice]) {
        self.append_naming(text, node, notices, None);
    }

    /// [`Trailer::append`]; `names_chars`: the most characters of names the left-out line
    /// lists when not the budget's share (under a share of 60 it counts them).
    fn append_naming(
        &self,
        text: &mut String,
        node: &Node<'_>,
        notices: &[Notice],
        names_chars: Option<usize>,
    ) {
        if let (Some(s), Node::Table(_)) = (&self.summary, node)
            && notices.iter().any(|n| matches!(n, Notice::Rows { .. }))
        {
            text.push_str("\n\n");
            s.write_lines(text, self.summary_lines);
        }
        // Whether the result was cut matters only to the stored-result lines (it walks the
        // whole document for nested cuts).
        let cut =
            (self.fetch_tool.is_some() || self.failure.is_some()) && self.wants(node, notices);
        // The cursor, only for a Next line. Rows shown without some of their fields (folded
        // into the left-out line, or columns a budget left out): the walk goes on from the
        // first row not shown, then serves those fields of the rows shown (a record: what it
        // left out beside its table, see `record_resumes_at`).
        let next = cut && self.failure.is_none() && self.reference.is_some();
        let partial =
            next && (self.left_out.folded() || matches!(node, Node::Table(t) if t.narrowed()));
        let at = match node {
            _ if !next => None,
            Node::Table(t) => self.table_resumes_at(t, notices, partial),
            Node::Record(_) => self.record_resumes_at(node, notices),
            _ if partial => None,
            _ => self.resume_at(notices).map(|at| at.to_string()),
        };
        // A budget's share bounds the left-out line only when the budget cut something (a
        // budget not reached changes nothing).
        let squeezed = !notices.is_empty()
            || matches!(node, Node::Table(t) if t.narrowed())
            || matches!(node, Node::Record(r) if r.left_out.is_some());
        let names_chars = names_chars.unwrap_or(if squeezed {
            self.names_chars
        } else {
            usize::MAX
        });
        self.append_lines(text, cut, at.map(|a| a.to_string()), names_chars);
    }

    /// Append the lines after a text result cut where `cursor` resumes it (see
    /// [`crate::cut::passage`]): the stored-result line, or the line saying the store failed.
    pub fn append_text_cut(&self, text: &mut String, cursor: &str) {
        self.append_lines(text, true, Some(cursor.to_owned()), self.names_chars);
    }

    /// The left-out line and the stored-result (or failed-store) line, each when it applies;
    /// `at`: the cursor where the text stopped.
    /// `names_chars`: the most characters of names the left-out line lists (under a share of
    /// 60 it counts them).
    fn append_lines(&self, text: &mut String, cut: bool, at: Option<String>, names_chars: usize) {
        let mut first = true;
        let mut line = |text: &mut String, l: &str| {
            text.push_str(if first { "\n\n" } else { "\n" });
            first = false;
            text.push_str(l);
        };
        let failed = self.failure.is_some();
        let stored = cut && !failed && self.fetch_tool.is_some() && self.reference.is_some();
        // Folded fields are in the stored full result when there is one (the Next line
        // follows); else the detail call shows them.
        if let Some(l) =
            self.left_out
                .line_within(self.tool, stored && self.left_out.folded(), names_chars)
        {
            line(text, &l);
        }
        if let Some(why) = &self.failure
            && cut
        {
            line(text, &crate::sink::notice::not_stored(why));
        } else if let (Some(t), Some(r)) = (self.fetch_tool, &self.reference)
            && cut
        {
            let mut next = NextAction::call(t).arg(self.ref_arg, r.as_str());
            if let Some(at) = at {
                next = next.arg(crate::store::CURSOR_ARG, at);
            }
            line(text, &next.line());
        }
    }

    /// Whether the full result should be stored for this cut (a store is set, the result
    /// was cut, and it is not stored yet).
    pub fn wants_store(&self, node: &Node<'_>, notices: &[Notice]) -> bool {
        self.fetch_tool.is_some() && !self.stored && self.wants(node, notices)
    }

    /// The result was cut by a stage whose notices are not the caps' (query focus).
    pub fn set_cut_elsewhere(&mut self) {
        self.cut_elsewhere = true;
    }

    fn cut(&self, node: &Node<'_>, notices: &[Notice]) -> bool {
        self.cut_elsewhere || self.values_cut.is_some() || is_cut(node, notices)
    }

    /// Values were shortened in place (a cell's or a field's cap); `shortest`: the shortest
    /// length a cap shortened a value to, if known.
    pub fn set_values_cut(&mut self, shortest: Option<usize>) {
        self.values_cut = Some(shortest);
    }

    /// Record what the store answered: the reference of the stored result, or why it
    /// failed (then no reference is promised and the line says so).
    pub fn stored(&mut self, put: Result<String, String>) {
        self.stored = true;
        match put {
            Ok(r) => self.reference = Some(r),
            Err(why) => {
                self.reference = None;
                self.failure = Some(why);
            }
        }
    }

    /// What storing did: the reference, or why it failed (nothing when nothing was stored).
    pub fn outcome(&self) -> StoreOutcome {
        if !self.stored {
            return StoreOutcome::default();
        }
        match &self.failure {
            Some(why) => StoreOutcome {
                reference: None,
                error: Some(failed_put(why)),
            },
            None => StoreOutcome {
                reference: self.reference.clone(),
                error: None,
            },
        }
    }

    pub fn summary_len(&self) -> usize {
        self.summary.as_ref().map_or(0, Summary::lines)
    }

    /// Show only the first `n` summary column lines.
    pub fn set_summary_lines(&mut self, n: usize) {
        self.summary_lines = n;
    }

    /// The text when nothing of the data fits: the notice, then the trailing lines.
    pub fn omitted(&self, notice: Notice) -> String {
        let mut text = notice.to_string();
        self.append(&mut text, &Node::Null, &[notice]);
        if text.chars().count() > self.room {
            // The left-out fields counted, not named, so the text stays within its budget
            // where it can.
            let mut counted = notice.to_string();
            self.append_naming(&mut counted, &Node::Null, &[notice], Some(0));
            if counted.len() < text.len() {
                text = counted;
            }
        }
        text
    }
}

/// The report's note for a failed `put`.
pub(crate) fn failed_put(e: &str) -> String {
    format!("the full result was not stored, so no reference is promised: {e}")
}

/// Whether anything of the result was cut: a notice, a nested table that lost rows (caps
/// announce those in place), or a table shown without columns a budget left out (its line
/// above the table announces them).
pub(crate) fn is_cut(node: &Node<'_>, notices: &[Notice]) -> bool {
    !notices.is_empty() || table_cut(node)
}

/// Whether a table of `node`, at any depth, lost rows or is shown without columns a budget
/// left out (one walk: [`nested_cut`] or [`columns_cut`]).
fn table_cut(node: &Node<'_>) -> bool {
    match node {
        Node::Table(t) => t.total_rows() > t.rows() || t.narrowed(),
        Node::Record(r) => r.fields.iter().any(|f| table_cut(&f.value)),
        Node::List(items) => items.iter().any(table_cut),
        Node::Envelope(e) => e.body().is_some_and(table_cut),
        _ => false,
    }
}

/// Whether a table of `node`, at any depth, is shown without columns a budget left out.
pub(crate) fn columns_cut(node: &Node<'_>) -> bool {
    match node {
        Node::Table(t) => t.narrowed(),
        Node::Record(r) => r.fields.iter().any(|f| columns_cut(&f.value)),
        Node::List(items) => items.iter().any(columns_cut),
        Node::Envelope(e) => e.body().is_some_and(columns_cut),
        _ => false,
    }
}

pub(crate) fn nested_cut(node: &Node<'_>) -> bool {
    match node {
        Node::Table(t) => t.total_rows() > t.rows(),
        Node::Record(r) => r.fields.iter().any(|f| nested_cut(&f.value)),
        Node::List(items) => items.iter().any(nested_cut),
        _ => false,
    }
}

/// The tables of a record `node` that lost rows, by JSON pointer, with the first row each
/// left out (none: `node` is no record).
pub(crate) fn tables_cut(node: &Node<'_>) -> Vec<(String, usize)> {
    nested_tables(node)
        .into_iter()
        .filter(|(.., t)| t.total_rows() > t.rows())
        .map(|(at, _, t)| (at, t.gap.unwrap_or(t.rows())))
        .collect()
}

/// The tables in the records of a record `node`, by JSON pointer and dotted path.
fn nested_tables<'n, 'a>(node: &'n Node<'a>) -> Vec<(String, String, &'n Table<'a>)> {
    type Found<'n, 'a> = Vec<(String, String, &'n Table<'a>)>;
    fn walk<'n, 'a>(node: &'n Node<'a>, at: &mut String, path: &str, out: &mut Found<'n, 'a>) {
        let Node::Record(r) = node else { return };
        // Only the fields that are or hold a table are named (most fields are scalars).
        for f in r
            .fields
            .iter()
            .filter(|f| matches!(f.value, Node::Table(_) | Node::Record(_)))
        {
            let len = at.len();
            crate::text::push_pointer_segment(at, &f.name);
            let path = if path.is_empty() {
                f.name.to_string()
            } else {
                format!("{path}.{}", f.name)
            };
            match &f.value {
                Node::Table(t) => out.push((at.clone(), path, t)),
                v => walk(v, at, &path, out),
            }
            at.truncate(len);
        }
    }
    let mut out = Vec::new();
    walk(node, &mut String::new(), "", &mut out);
    out
}

/// Whether a fitted result had to shorten cells or omit everything (then a shorter summary
/// may leave room for whole rows).
pub(crate) fn squeezed(notices: &[Notice]) -> bool {
    notices
        .iter()
        .any(|n| matches!(n, Notice::Shortened { .. } | Notice::Omitted { .. }))
}

/// Whether a shorter summary could help: the fit was squeezed while the summary showed (rows
/// were cut) or nothing fitted.
pub(crate) fn summary_squeezed(notices: &[Notice]) -> bool {
    squeezed(notices)
        && notices
            .iter()
            .any(|n| matches!(n, Notice::Rows { .. } | Notice::Omitted { .. }))
}
