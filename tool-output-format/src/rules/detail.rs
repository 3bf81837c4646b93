//! Detail levels: a summary by default, the full detail on request.
//!
//! A derived struct marks the fields that only the full detail shows with
//! `#[tool_output(detail = "full")]`. In [`Detail::Summary`] (the formatter's default) those
//! fields are left out of records and tables, and the output ends with one line naming them
//! and the call that shows them:
//!
//! ```text
//! [Left out in summary detail: body, comments_url. Call get_issue(detail="full") for them]
//! ```
//!
//! The call is the tool's own name with the argument `detail="full"`: a tool that has
//! fields marked this way should accept an optional `detail` argument and, given `"full"`,
//! render its result with a formatter whose detail is [`Detail::Full`]
//! ([`Detail::from_arg`] reads the argument). Without a tool name (rendering outside a
//! formatter call) the line ends after the names: `[Left out in summary detail: body]`.
//!
//! The JSON form of a result ([`ToolOutput::to_json`](crate::ToolOutput::to_json): what a
//! registered renderer receives and what a result store keeps) always has every field.
//! `serde_json::Value` results have no detail levels: everything is shown.

use std::fmt::Write as _;
use std::sync::Mutex;

use crate::rules::salience;
use crate::sink::notice;
use crate::text::escape_inline;
use crate::text::name_index::NameIndex;

/// How much of a derived record to show.
///
/// ```
/// use tool_output_format::{Detail, Formatter, ToolOptions};
/// let fmt = Formatter::new().tool("get_issue", ToolOptions::new().detail(Detail::Full));
/// assert_eq!(Detail::default(), Detail::Summary);
/// assert_eq!(Detail::from_arg("full"), Some(Detail::Full));
/// # let _ = fmt;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Detail {
    /// Leave out the fields marked `#[tool_output(detail = "full")]`, and name them in a
    /// line at the end (the default).
    #[default]
    Summary,
    /// Every field.
    Full,
}

impl Detail {
    /// The detail level a tool argument names: `"summary"` or `"full"` (ASCII case
    /// ignored); `None` for anything else.
    ///
    /// ```
    /// use tool_output_format::Detail;
    /// assert_eq!(Detail::from_arg("Summary"), Some(Detail::Summary));
    /// assert_eq!(Detail::from_arg("everything"), None);
    /// ```
    #[must_use]
    pub fn from_arg(arg: &str) -> Option<Detail> {
        if arg.eq_ignore_ascii_case("full") {
            Some(Detail::Full)
        } else if arg.eq_ignore_ascii_case("summary") {
            Some(Detail::Summary)
        } else {
            None
        }
    }

    /// The argument value that names this level (`"summary"`, `"full"`).
    ///
    /// ```
    /// assert_eq!(tool_output_format::Detail::Full.as_str(), "full");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Detail::Summary => "summary",
            Detail::Full => "full",
        }
    }

    /// True for [`Detail::Full`].
    #[must_use]
    pub(crate) const fn is_full(self) -> bool {
        matches!(self, Detail::Full)
    }
}

/// The names of the fields a build left out in summary detail, collected once per render
/// (each name once, in first-seen order). Shared through the build context; a `Mutex` keeps
/// the context `Send + Sync`, and it is locked only by records that leave fields out.
///
/// Three kinds: fields marked `#[tool_output(detail = "full")]` (by name), and what a folding
/// shape (the agent preset's, see [`Formatter::for_agents`](crate::Formatter::for_agents))
/// takes out of the view: machine-only fields (by key, whatever their depth) and empty ones
/// (by dotted path of input keys, arrays transparent).
#[derive(Debug, Default)]
pub(crate) struct LeftOut(Mutex<Names>);

#[derive(Debug, Default, Clone)]
struct Names {
    detail: Once,
    machine: Once,
    empty: Once,
    /// A lower bound on the characters the machine-only values of a table's rows would
    /// take as cells (see [`LeftOut::add_machine_cell`]).
    machine_cells: usize,
}

/// Names in first-seen order, each once (repeats found by a [`NameIndex`]), written one
/// after another into one buffer (no allocation per name).
#[derive(Debug, Default, Clone)]
struct Once {
    text: String,
    /// Where each name is in `text`.
    spans: Vec<(usize, usize)>,
    index: NameIndex,
}

impl Once {
    /// Names past which the index keeps a map of their hashes (below, a search costs less
    /// than hashing: a record's few dozen names are searched, a packument's hundreds
    /// hashed).
    const FEW: usize = 64;

    fn add(&mut self, name: &str) {
        let text = self.text.as_bytes();
        if !self.index.contains(
            &self.spans,
            |&(a, b)| &text[a..b],
            Self::FEW,
            name.as_bytes(),
        ) {
            let start = self.text.len();
            self.text.push_str(name);
            self.spans.push((start, self.text.len()));
        }
    }

    /// The names, in first-seen order.
    fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.spans.iter().map(|&(a, b)| &self.text[a..b])
    }

    /// The names most needed first ([`salience::name_rank`]), in first-seen order within a
    /// rank.
    fn ranked(&self) -> impl Iterator<Item = &str> {
        let mut names: Vec<(crate::rules::salience::Key, &str)> = self
            .names()
            .map(|name| (salience::name_rank(name).key(), name))
            .collect();
        names.sort_by_key(|&(key, _)| key);
        names.into_iter().map(|(_, name)| name)
    }

    fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

impl LeftOut {
    pub fn add(&self, names: &[&str]) {
        let Ok(mut seen) = self.0.lock() else { return };
        for name in names {
            seen.detail.add(name);
        }
    }

    /// A machine-only field a folding shape dropped (its key).
    pub fn add_machine(&self, key: &str) {
        if let Ok(mut seen) = self.0.lock() {
            seen.machine.add(key);
        }
    }

    /// The value of a machine-only field a folding shape dropped from a table row: counted
    /// toward [`LeftOut::machine_cells`], the least its cell would take in the table with
    /// nothing folded (a string's characters up to [`CELL_FLOOR`]: a cell is shortened to
    /// no fewer than its cap, and a secret one reads `[redacted]`).
    pub fn add_machine_cell(&self, value: &serde_json::Value) {
        if let (Ok(mut seen), serde_json::Value::String(s)) = (self.0.lock(), value) {
            seen.machine_cells += s.chars().take(CELL_FLOOR).count();
        }
    }

    /// The least the table rows' machine-only values would add as cells, unfolded.
    pub fn machine_cells(&self) -> usize {
        self.0.lock().map_or(0, |s| s.machine_cells)
    }

    /// An empty field a folding shape dropped (its dotted input path).
    pub fn add_empty(&self, path: &str) {
        if let Ok(mut seen) = self.0.lock() {
            seen.empty.add(path);
        }
    }

    /// The fields left out in summary detail by a derived type's `detail = "full"`.
    #[cfg(test)]
    pub fn names(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|s| s.detail.names().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// The names a folding shape left out (machine-only, then empty), each once.
    pub fn folded_names(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|s| {
                s.machine
                    .names()
                    .chain(s.empty.names())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether a folding shape left anything out (then the full result holds it).
    pub fn folded(&self) -> bool {
        self.0
            .lock()
            .is_ok_and(|s| !(s.machine.is_empty() && s.empty.is_empty()))
    }

    /// The left-out line, or `None` when nothing was left out. `stored`: the full result is
    /// in a store and the Next line that fetches it follows.
    pub fn line(&self, tool: &str, stored: bool) -> Option<String> {
        self.line_within(tool, stored, usize::MAX)
    }

    /// [`LeftOut::line`] with at most about `max_chars` characters of names (a budget's
    /// share): each kind lists the names that fit, then `and N more`.
    pub fn line_within(&self, tool: &str, stored: bool, max_chars: usize) -> Option<String> {
        let names = self.0.lock().ok()?;
        if names.machine.is_empty() && names.empty.is_empty() {
            return (!names.detail.is_empty()).then(|| left_out_line(&names.detail, tool));
        }
        Some(folded_line(&names, tool, stored, max_chars))
    }
}

/// The most characters [`LeftOut::add_machine_cell`] counts for one value: the length of
/// `[redacted]`, and no more than a cell cap this short (the folding check needs a cap of at
/// least this many).
pub(crate) const CELL_FLOOR: usize = crate::rules::redact::REDACTED.len();

/// A share of names under this many characters names about one name of each kind: the
/// folded fields are counted instead (`14 machine-only; 3 empty`), which says as much in
/// fewer characters.
const COUNT_BELOW: usize = 60;

/// The most names one kind lists; the rest are counted (`and 7 more`).
pub(crate) const MAX_NAMES: usize = 24;

/// The most names the empty kind lists. An empty field tells one thing, that it is empty,
/// and its name costs more tokens than that is worth past a few: the first eight in rank
/// order are named (`description` and `customer` before `application_fee`), the rest
/// counted, and the full detail shows them all.
pub(crate) const MAX_EMPTY_NAMES: usize = 8;

/// The line naming the fields left out and the call that shows them (see the module docs).
fn left_out_line(names: &Once, tool: &str) -> String {
    let mut out = String::from(notice::DETAIL_LEFT_OUT_HEAD);
    list(names, usize::MAX, &mut out);
    if !tool.is_empty() {
        let mut name = String::new();
        escape_inline(tool, false, &mut name);
        notice::detail_call(&mut out, &name);
    }
    out.push(']');
    out
}

/// The line when a folding shape left fields out:
/// `[Left out in summary detail: body; machine-only: url, node_id; empty: homepage. Call
/// get_repo(detail="full") for them]`. Each kind lists at most [`MAX_NAMES`] names, then
/// `and N more`. With a stored full result the line ends `They are in the stored full
/// result` (the Next line follows); without a tool name, `Full detail shows them`. With
/// `max_chars` under [`COUNT_BELOW`] each kind is counted, not named (`14 machine-only; 2
/// empty`).
fn folded_line(names: &Names, tool: &str, stored: bool, max_chars: usize) -> String {
    let mut out = String::from(notice::DETAIL_LEFT_OUT_HEAD);
    let end = out.len().saturating_add(max_chars);
    let mut first = true;
    for (label, list_of, max) in [
        ("", &names.detail, MAX_NAMES),
        ("machine-only: ", &names.machine, MAX_NAMES),
        ("empty: ", &names.empty, MAX_EMPTY_NAMES),
    ] {
        if list_of.is_empty() {
            continue;
        }
        if !first {
            out.push_str("; ");
        }
        first = false;
        if max_chars < COUNT_BELOW {
            // Counted, not named: `3 fields`, `14 machine-only`, `2 empty`.
            let len = list_of.spans.len();
            let kind = label.trim_end_matches(": ");
            let _ = write!(
                out,
                "{len} {}",
                if kind.is_empty() { "fields" } else { kind }
            );
            continue;
        }
        out.push_str(label);
        list_within(list_of, max, end, &mut out);
    }
    let mut name = String::new();
    escape_inline(tool, false, &mut name);
    notice::detail_left_out_end(&mut out, &name, stored);
    out
}

/// [`list`], stopping before a name would take the line past `end` bytes (at least one
/// name is listed).
fn list_within(names: &Once, max: usize, end: usize, out: &mut String) {
    let len = names.spans.len();
    let escaped = names.ranked().take(max).map(|name| {
        let mut n = String::new();
        escape_inline(name, false, &mut n);
        n
    });
    let shown = crate::text::join_within(out, escaped, len.min(max), ", ", end, (16, 16));
    if len > shown {
        let _ = write!(out, " and {} more", len - shown);
    }
}

/// `a, b, c`, or the first `max` names and `and N more`.
fn list(names: &Once, max: usize, out: &mut String) {
    for (i, name) in names.names().take(max).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        escape_inline(name, false, out);
    }
    let len = names.spans.len();
    if len > max {
        let _ = write!(out, " and {} more", len - max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_fields_and_the_call() {
        let mut names = Once::default();
        names.add("body");
        let one = names.clone();
        names.add("comments_url");
        names.add("body");
        assert_eq!(
            left_out_line(&names, "get_issue"),
            "[Left out in summary detail: body, comments_url. Call get_issue(detail=\"full\") for them]"
        );
        assert_eq!(
            left_out_line(&one, ""),
            "[Left out in summary detail: body]"
        );
    }

    #[test]
    fn many_names_are_each_kept_once_in_first_seen_order() {
        // Past `Once::FEW` names the repeats are found by their hashes: the same names, the
        // same order, each once.
        let l = LeftOut::default();
        let names: Vec<String> = (0..Once::FEW * 3).map(|i| format!("f{i}.x")).collect();
        for _ in 0..2 {
            for n in &names {
                l.add_empty(n);
                l.add_machine(n);
            }
        }
        let seen = l.0.lock().unwrap();
        assert!(seen.empty.names().eq(names.iter().map(String::as_str)));
        assert!(seen.machine.names().eq(names.iter().map(String::as_str)));
    }

    #[test]
    fn left_out_keeps_first_seen_order_once() {
        let l = LeftOut::default();
        l.add(&["b", "a"]);
        l.add(&["a", "c"]);
        assert_eq!(l.names(), ["b", "a", "c"]);
    }

    #[test]
    fn left_out_names_are_listed_most_needed_first() {
        let l = LeftOut::default();
        for name in [
            "application_fee",
            "node_id",
            "customer",
            "description",
            "id",
        ] {
            l.add_empty(name);
        }
        assert_eq!(
            l.line("get", false).unwrap(),
            "[Left out in summary detail: empty: id, description, customer, application_fee, \
             node_id. Call get(detail=\"full\") for them]"
        );
    }

    #[test]
    fn the_folded_line_names_each_kind_and_counts_the_rest() {
        let l = LeftOut::default();
        assert_eq!(l.line("t", false), None);
        l.add_machine("url");
        l.add_machine("node_id");
        l.add_machine("url");
        for i in 0..MAX_NAMES + 3 {
            l.add_empty(&format!("e{i}"));
        }
        let line = l.line("get_repo", false).unwrap();
        assert!(line.starts_with(
            "[Left out in summary detail: machine-only: url, node_id; empty: e0, e1, "
        ));
        // The empty kind names fewer: its names tell only that the fields are empty.
        let more = MAX_NAMES + 3 - MAX_EMPTY_NAMES;
        assert!(line.ends_with(&format!(
            ", e7 and {more} more. Call get_repo(detail=\"full\") for them]"
        )));

        assert!(
            l.line("", false)
                .unwrap()
                .ends_with(". Full detail shows them]")
        );
        assert!(
            l.line("t", true)
                .unwrap()
                .ends_with(". They are in the stored full result]")
        );
        l.add(&["body"]);
        assert!(
            l.line("t", false)
                .unwrap()
                .starts_with("[Left out in summary detail: body; machine-only: url")
        );
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn is_full() {
        assert!(crate::Detail::Full.is_full());
    }
}
