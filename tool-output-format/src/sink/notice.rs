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
use crate::doc::agent::{PageCut, PageRest};
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

/// The text that stands for a subtree cut at the depth limit (`values`: how many values the
/// cut removed, when known).
#[must_use]
pub(crate) fn depth(values: Option<usize>) -> String {
    use crate::doc::MAX_DEPTH;
    match values {
        Some(n) => format!("[Truncated at depth {MAX_DEPTH}: {n} nested values omitted]"),
        None => format!("[Truncated at depth {MAX_DEPTH}: nested values omitted]"),
    }
}

/// The line that replaces the middle of a string cut to its first and last lines.
pub(crate) fn lines_omitted_in_place(lines: usize) -> String {
    format!("… [{lines} lines omitted] …")
}

/// The end of a note or left-out line that names only the first parts: ` and N more`, then
/// what they are (` columns`), when said.
pub(crate) fn and_more(out: &mut String, more: usize, what: &str) {
    use std::fmt::Write as _;
    if what.is_empty() {
        let _ = write!(out, " and {more} more");
    } else {
        let _ = write!(out, " and {more} more {what}");
    }
}

/// The head of a table's note naming the columns whose value is the same on every row
/// (`[Same on all 30 rows: state: open; locked: false]`).
pub(crate) fn same_on_all_head(rows: usize) -> String {
    format!("[Same on all {rows} rows: ")
}

/// The head of a table's note naming the columns that repeat another one
/// (`[Same as another column on every row: committer.* = author.*]`).
pub(crate) const SAME_AS_ANOTHER_HEAD: &str = "[Same as another column on every row: ";

/// The head of a table's note naming the columns a budget left out
/// (`[Columns left out to fit the budget: body, url and 3 more columns]`).
pub(crate) const COLUMNS_LEFT_OUT_HEAD: &str = "[Columns left out to fit the budget: ";

/// The head of a record's line naming the fields a budget left out
/// (`[Left out to fit the budget: full_name, owner.login and 12 more]`).
pub(crate) const FIELDS_LEFT_OUT_HEAD: &str = "[Left out to fit the budget: ";

/// The head of the line naming the fields a folding shape left out
/// (`[Left out in summary detail: body; machine-only: url. Call get_repo(detail="full") for
/// them]`).
pub(crate) const DETAIL_LEFT_OUT_HEAD: &str = "[Left out in summary detail: ";

/// The end of the summary-detail line: where the fields left out are (`stored`: in the
/// stored full result, read by the Next line; else the tool's detail call, or full detail
/// when the tool has no name). `tool` is already escaped.
pub(crate) fn detail_left_out_end(out: &mut String, tool: &str, stored: bool) {
    if stored {
        out.push_str(". They are in the stored full result");
    } else if tool.is_empty() {
        out.push_str(". Full detail shows them");
    } else {
        detail_call(out, tool);
    }
    out.push(']');
}

/// `. Call TOOL(detail="full") for them` (`tool` already escaped).
pub(crate) fn detail_call(out: &mut String, tool: &str) {
    out.push_str(". Call ");
    out.push_str(tool);
    out.push_str("(detail=\"full\") for them");
}

/// The value that stands for a subtree a shape did not reach (nested deeper than `depth`
/// levels): `[not shaped: nested deeper than 128 levels]`.
pub(crate) fn not_shaped(depth: usize) -> String {
    format!("[not shaped: nested deeper than {depth} levels]")
}

/// The line that says why a cut result's full version is not stored (no `Next:` line).
pub(crate) fn not_stored(why: &str) -> String {
    format!("[Full result not stored: {why}]")
}

/// The first line of a summary of a table's columns: `[Summary of all 1000 rows]`.
pub(crate) fn summary_head(out: &mut String, rows: u64) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        "[Summary of all {rows} row{}]",
        if rows == 1 { "" } else { "s" }
    );
}

/// The last line of a summary that lists only its first columns:
/// `- (3 more columns left out to fit the budget)`, after a line break.
pub(crate) fn summary_more_columns(out: &mut String, more: usize) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        "\n- ({more} more column{} left out to fit the budget)",
        if more == 1 { "" } else { "s" }
    );
}

/// The row that stands for the rows left out between a table's first rows and its last
/// (`|… 25 rows left out …|`, one cell; a parser pads the row), with its line break.
pub(crate) fn rows_gap(out: &mut String, left_out: usize) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "|… {left_out} rows left out …|");
}

/// The first line of a text served past a bound, and the text:
/// `[Over OVER: ALONE N characters; shown[ WHOLE] so the rest stays reachable]`, a blank
/// line, then `text` (`N`: its length).
pub(crate) fn shown_over(over: &str, alone: &str, whole: &str, text: &str) -> String {
    let needed = text.chars().count();
    format!(
        "[Over {over}: {alone} {needed} characters; shown{whole} so the rest stays \
         reachable]\n\n{text}"
    )
}

/// The notice of a fetch page of a text: lines `first` to `last` of `total`, from character
/// `from` of the first, to character `to.0` of `to.1` of the last: `[Lines 9-20 of 60]`,
/// `[Line 1 of 1 (characters 1851-3700 of 517430)]`, `[Lines 9-20 of 60 (line 9 from
/// character 1201, line 20 to character 400 of 5000)]`.
pub(crate) fn text_page(
    first: usize,
    last: usize,
    total: usize,
    from: Option<usize>,
    to: Option<(usize, usize)>,
) -> String {
    let mut s = if first == last {
        format!("[Line {first} of {total}")
    } else {
        format!("[Lines {first}-{last} of {total}")
    };
    match (from, to) {
        (None, None) => {}
        (Some(a), Some((b, of))) if first == last => {
            s.push_str(&format!(" (characters {a}-{b} of {of})"));
        }
        (Some(a), None) if first == last => {
            s.push_str(&format!(" (from character {a})"));
        }
        (None, Some((b, of))) if first == last => {
            s.push_str(&format!(" (characters 1-{b} of {of})"));
        }
        _ => {
            let mut parts = Vec::new();
            if let Some(a) = from {
                parts.push(format!("line {first} from character {a}"));
            }
            if let Some((b, of)) = to {
                parts.push(format!("line {last} to character {b} of {of}"));
            }
            s.push_str(&format!(" ({})", parts.join(", ")));
        }
    }
    s.push(']');
    s
}

/// The notice of a first text cut after line `last` of `total` (inside it, at character
/// `to.0` of `to.1`, when `to` is set): `[Truncated to 8 lines of 60 total]` (the line
/// cap's wording), `[Truncated to 8 lines of 60 total and the first 120 of 5000 characters
/// of line 9]`, `[Truncated to the first 1850 of 517430 characters of line 1 of 1]`.
pub(crate) fn text_first(last: usize, total: usize, to: Option<(usize, usize)>) -> String {
    match to {
        None => format!("[Truncated to {last} lines of {total} total]"),
        Some((b, of)) if last > 1 => format!(
            "[Truncated to {} lines of {total} total and the first {b} of {of} characters of line {last}]",
            last - 1,
        ),
        Some((b, of)) => {
            format!("[Truncated to the first {b} of {of} characters of line 1 of {total}]")
        }
    }
}

/// `[Kept 4 of 40 sections relevant to "refund policy"]` (`units`: the unit's word for
/// `total`).
pub(crate) fn focus_kept(kept: usize, total: usize, units: &str, query: &str) -> String {
    format!("[Kept {kept} of {total} {units} relevant to \"{query}\"]")
}

/// `[… 12 paragraphs omitted …]` (`name`: the unit's word for `units`).
pub(crate) fn focus_gap(units: usize, name: &str) -> String {
    format!("[… {units} {name} omitted …]")
}

/// Characters of [`focus_gap`]: `[… ` (3), the digits, a space, the unit, ` omitted …]`
/// (11).
pub(crate) fn focus_gap_chars(digits: usize, name: &str) -> usize {
    3 + digits + 1 + name.len() + 11
}

/// `[No section matched "refund policy"]` (`rows`: `[No row matched "..."]`).
pub(crate) fn focus_no_match(query: &str, rows: bool) -> String {
    if rows {
        format!("[No row matched \"{query}\"]")
    } else {
        format!("[No section matched \"{query}\"]")
    }
}

/// Why the full result of a stream of records is not stored: the records after the kept
/// ones were counted, not kept (the text's line: `[Full result not stored: WHY]`).
pub(crate) const NOT_KEPT: &str =
    "the records after the first ones were counted, not kept, so the rest cannot be fetched";

/// The notice of a page cut to its first items: which items were cut and how to read them
/// (`[Items 26-30 of this page were cut: next_cursor resumes at item 26]`, `[Item 30 of this
/// page was cut and no cursor reaches it: to read it, repeat this call with a page size of at
/// most 29]`, or, stored, `[Items 26-30 of this page were cut: the Next line reads them from
/// the stored full result, whose last page continues with next_cursor]`).
pub(crate) fn page_cut(cut: PageCut) -> String {
    use std::fmt::Write as _;
    let PageCut { kept, len, rest } = cut;
    let first = kept.saturating_add(1);
    let one = first >= len;
    let mut out = if one {
        format!("[Item {first} of this page was cut")
    } else {
        format!("[Items {first}-{len} of this page were cut")
    };
    let them = if one { "it" } else { "them" };
    match rest {
        PageRest::Stored => {
            let _ = write!(
                out,
                ": the Next line reads {them} from the stored full result, whose last page \
                 continues with next_cursor]"
            );
            return out;
        }
        PageRest::Resumes => {
            let _ = write!(out, ": next_cursor resumes at item {first}]");
            return out;
        }
        PageRest::Skipped => out.push_str(" and next_cursor skips "),
        PageRest::Unreached => out.push_str(" and no cursor reaches "),
    }
    out.push_str(them);
    out.push_str(": to read ");
    out.push_str(them);
    if kept == 0 {
        out.push_str(", repeat this call with a smaller page size]");
    } else {
        let _ = write!(
            out,
            ", repeat this call with a page size of at most {kept}]"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The openings of the notices this module words.
    const OPENINGS: &[&str] = &[
        "\"[Truncated",
        "\"[Omitted",
        "\"[Left out",
        "\"[Columns left out",
        "\"[Same ",
        "\"[Shortened",
        "\"[Over ",
        "\"[Full result not stored",
        "\"[Kept ",
        "\"[No section",
        "\"[No row",
        "\"[Summary of",
        "\"[Line ",
        "\"[Lines ",
        "\"[Item ",
        "\"[Items ",
        "\"[…",
        "\"[not shaped",
        "more column",
        "rows left out",
        "lines omitted",
    ];

    /// Files that hold an opening without writing a notice: a test file (included by a
    /// `#[cfg(test)] mod` line elsewhere), and the lean writer, which looks for the opening in
    /// data to escape it.
    const READERS: &[&str] = &["doc/agent/reparse.rs", "sink/markdown/lean.rs"];

    fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                sources(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// No code outside this module writes a notice: a string literal that opens one is
    /// found only here (tests, comments and doc examples aside).
    #[test]
    fn notices_are_worded_only_here() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let mut found = Vec::new();
        for f in files {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "sink/notice.rs" || rel.ends_with("tests.rs") || READERS.contains(&&*rel) {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or("");
            for (i, line) in code.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for o in OPENINGS {
                    if line.contains(o) {
                        found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "notices worded outside sink/notice.rs:\n{}",
            found.join("\n")
        );
    }

    /// The budget unit is an enum everywhere ([`BudgetUnit`](crate::BudgetUnit)): no code of
    /// the library, the CLI or the Python package compares its word.
    #[test]
    fn the_budget_unit_is_never_compared_as_a_string() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for dir in [
            "tool-output-format/src",
            "tool-output-format-cli/src",
            "tool-output-format-py/src",
        ] {
            let d = root.join(dir);
            if d.is_dir() {
                sources(&d, &mut files);
            }
        }
        let mut found = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let compared = ["\"chars\"", "\"tokens\""].iter().any(|w| {
                    [
                        format!("== {w}"),
                        format!("!= {w}"),
                        format!("{w} =>"),
                        format!("{w} |"),
                    ]
                    .iter()
                    .any(|p| line.contains(p.as_str()))
                });
                if compared {
                    found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
        assert!(
            found.is_empty(),
            "the budget unit compared as a string:\n{}",
            found.join("\n")
        );
    }
}
