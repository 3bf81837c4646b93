//! Query-focused trimming: keep the parts of a long text, or the rows of a long list, that
//! matter to the question, instead of the head of the text.
//!
//! | task | call |
//! |---|---|
//! | trim a text to a budget around a question | [`Focus::text`] |
//! | pick the rows of a table relevant to a question | [`Focus::rank_rows`] |
//! | the notice when nothing matched | [`Focus::no_match_notice`], [`Focus::no_row_match_notice`] |
//!
//! # Splitting (by content)
//!
//! 1. **Markdown sections** ([`Unit::Sections`]) when the text has at least two ATX headings
//!    (`#` to `######` then a space) outside fenced code blocks: a heading starts a section
//!    that runs to the next heading; text before the first heading is a section too.
//! 2. Else **paragraphs** ([`Unit::Paragraphs`]) when blank lines split it into at least three
//!    paragraphs of at most 12 non-blank lines on average.
//! 3. Else **lines** ([`Unit::Lines`], logs and listings): each non-blank line, but a log
//!    entry with its continuation lines is one section (counting its lines): an indented
//!    line continues the line above (a stack frame), and in a log whose first line starts
//!    with a `Key:` that starts at least three lines and not every line (`Commit: ...`, then
//!    `Author:`, `Message:` lines), a line not starting with that key continues the entry.
//!
//! A fenced code block (three or more backticks or tildes, `CommonMark` rules) is never split:
//! headings and blank lines inside it do not count, and in line mode it is one section that
//! counts for all its lines. Blank lines between sections are not sections.
//!
//! # Ranking
//!
//! Each section is a document for BM25 (`k1 = 1.2`, `b = 0.75`, `idf = ln(1 + (N - n + 0.5)
//! / (n + 0.5))`) over all the sections of the text. Terms: words on Unicode word boundaries
//! (UAX #29), also split at `.`, `_` and `:`, lowercased, without a possessive `'s`, minus a
//! 75-word stop list (`the`, `how`, `what`, `do`, `I` ...), stemmed with Porter's stemmer
//! (hand-written: the Snowball crate would add `serde_derive` to this crate's build). No
//! network, no model. A heading counts as part of its section's text.
//!
//! # Selection and notices
//!
//! Sections with a score above zero are taken best first (ties: earlier first) and kept when
//! the whole output still fits the budget; a section that does not fit is skipped and smaller
//! ones further down are tried. The output lists the kept sections **in their original
//! order**, and counts every character: the notice line, a blank line, then the kept
//! sections and one gap line per run of omitted sections, joined by a blank line (a line
//! break in line mode):
//!
//! - first line: `[Kept 4 of 40 sections relevant to "refund policy"]` (units: `sections`,
//!   `paragraphs` or `lines`; the query shown on one line, at most 80 characters);
//! - each gap: `[… 12 paragraphs omitted …]` (`1 paragraph`). The kept count plus the gap
//!   counts always equal the total.
//!
//! When the best section alone does not fit, it is cut on a grapheme boundary with
//! `text::cut_chars` (`…[+N chars]`), and the cut moves back to
//! before a fenced code block it would split. The one exception: a section that *starts*
//! with a code block (a paragraph or line-mode section) is cut inside it.
//!
//! # When focus does not apply ([`Fallback`])
//!
//! No query words ([`Fallback::NoQuery`]), the text fits the budget ([`Fallback::Fits`]), no
//! section scores above zero ([`Fallback::NoMatch`], also for a query of stop words only) or
//! a budget too small for the notice ([`Fallback::TooSmall`]): the caller keeps today's
//! behaviour (the head or head and tail of the text). On `NoMatch`, it writes
//! [`Focus::no_match_notice`] first: `[No section matched "refund policy"]`.
//!
//! # Rows
//!
//! [`Focus::rank_rows`] scores each row by the text of its cells (joined by spaces) with the
//! same BM25, rows as documents, and returns the indices of the best `top` rows with a score
//! above zero. Default order: the data's ([`RowOrder::Data`]), because tools return rows in
//! an order that means something (time, id, priority) and a model reads a table's order as
//! the data's; [`RowOrder::Ranked`] puts the best row first.
//!
//! # In the formatter
//!
//! [`Formatter::focus`](crate::Formatter::focus) takes a per-call query
//! (`fmt.focus("refund policy").format(tool, &v)`) and uses this selection for long strings
//! (under `max_chars`, `max_tokens` and `max_lines`) and [`Focus::rank_rows`] for the main
//! table over its row cap; see [`Focused`](crate::Focused) for the rules there.

mod rank;
mod select;
mod split;

use crate::text::cut_chars;

pub(crate) use select::{Limits, notice_line};

/// The most characters of the query shown in a notice.
pub(crate) const MAX_QUERY_CHARS: usize = 80;

/// A question to trim results around. Build one per tool call; it is cheap (the query's
/// terms are computed once).
#[derive(Debug, Clone)]
pub(crate) struct Focus {
    /// The query on one line, as shown in notices.
    shown: String,
    /// Distinct stemmed terms.
    terms: Vec<String>,
    /// Whether the query has any word at all (stop words included).
    has_words: bool,
}

/// The sections of `text` a focus ranks, in order (headings' sections, else paragraphs,
/// else lines, a log entry with its continuation lines and a fenced block each one), so a
/// search over a stored text matches whole entries.
pub(crate) fn sections(text: &str) -> impl Iterator<Item = &str> {
    split::split(text)
        .sections
        .into_iter()
        .map(move |s| &text[s.range])
}

/// The unit a text was split into (also the word used in notices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Unit {
    /// Markdown sections, each starting at a heading.
    Sections,
    /// Blank-line separated paragraphs.
    Paragraphs,
    /// Lines (logs, listings).
    Lines,
    /// Table or list rows ([`Focus::rank_rows`]).
    Rows,
}

impl Unit {
    /// The word for `n` of this unit in notices: `section` / `sections`, and so on.
    #[must_use]
    pub fn name(self, n: usize) -> &'static str {
        let (one, many) = match self {
            Unit::Sections => ("section", "sections"),
            Unit::Paragraphs => ("paragraph", "paragraphs"),
            Unit::Lines => ("line", "lines"),
            Unit::Rows => ("row", "rows"),
        };
        if n == 1 { one } else { many }
    }
}

/// A text trimmed to the sections relevant to a query ([`Focus::text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) struct Trimmed {
    /// The notice line, a blank line, then the kept sections with the gaps announced; at most
    /// the budget in characters.
    pub text: String,
    /// Units kept (sections, paragraphs or lines; a cut section counts as kept).
    pub kept: usize,
    /// Units in the text.
    pub total: usize,
    /// What the text was split into.
    pub unit: Unit,
    /// Lines of the original text in the kept sections (of a cut section, the lines of its
    /// kept part).
    pub lines: usize,
}

impl Trimmed {
    /// The first line: `[Kept 4 of 40 sections relevant to "refund policy"]`.
    #[must_use]
    pub fn notice(&self) -> &str {
        self.text.split_once("\n\n").map_or(&self.text, |(n, _)| n)
    }

    /// The kept sections and gap lines, without the notice line.
    #[must_use]
    pub fn body(&self) -> &str {
        self.text.split_once("\n\n").map_or("", |(_, b)| b)
    }
}

/// Why focus did not apply: the caller keeps today's behaviour (the head, or head and tail).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Fallback {
    /// The query has no words (empty or punctuation only): no notice.
    NoQuery,
    /// The text fits the budget (or the rows fit `top`): keep it all, no notice.
    Fits,
    /// No section or row scored above zero: write the no-match notice first.
    NoMatch,
    /// The budget cannot hold the notice and one character of the best section (or `top`
    /// is zero): no notice.
    TooSmall,
}

/// The order of the rows a focused table keeps ([`Focused::row_order`](crate::Focused::row_order)).
///
/// ```
/// use tool_output_format::{Formatter, RowOrder};
/// use serde_json::json;
///
/// let rows = json!([{"q": "shipping times"}, {"q": "refund policy"}, {"q": "refund window"}]);
/// let fmt = Formatter::new().max_rows(1);
/// let md = fmt.focus("refund").row_order(RowOrder::Data).format("faq", &rows);
/// assert!(md.contains("refund"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RowOrder {
    /// The data's order (default: the order a tool returns usually means something).
    #[default]
    Data,
    /// Best first (ties: earlier first).
    Ranked,
}

/// The rows chosen by [`Focus::rank_rows`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) struct RankedRows {
    /// Indices of the kept rows, in the requested order.
    pub indices: Vec<usize>,
    /// Rows in the data.
    pub total: usize,
    /// `[Kept 10 of 500 rows relevant to "refund policy"]`.
    pub notice: String,
}

impl Focus {
    /// A focus on `query`. White space runs become one space and control characters are
    /// dropped for display; the query is shown cut to [`MAX_QUERY_CHARS`] characters.
    #[must_use]
    pub fn new(query: &str) -> Focus {
        let clean: String = query
            .chars()
            .filter(|c| !c.is_control() || c.is_whitespace())
            .collect();
        let one_line = clean.split_whitespace().collect::<Vec<_>>().join(" ");
        let shown = cut_chars(&one_line, MAX_QUERY_CHARS).unwrap_or(one_line);
        let has_words = unicode_segmentation::UnicodeSegmentation::unicode_words(query)
            .next()
            .is_some();
        Focus {
            terms: rank::query_terms(query),
            shown,
            has_words,
        }
    }

    /// The query as shown in notices.
    #[must_use]
    pub fn query(&self) -> &str {
        &self.shown
    }

    /// `[No section matched "refund policy"]`: the first line when [`Focus::text`] returned
    /// [`Fallback::NoMatch`], before the caller's usual cut.
    #[must_use]
    pub fn no_match_notice(&self) -> String {
        crate::sink::notice::focus_no_match(&self.shown, false)
    }

    /// `[No row matched "refund policy"]`, for [`Focus::rank_rows`].
    #[must_use]
    pub fn no_row_match_notice(&self) -> String {
        crate::sink::notice::focus_no_match(&self.shown, true)
    }

    /// Trim `text` to the sections most relevant to the query, in their original order,
    /// within `budget_chars` characters (notices included). See the [module docs](self) for
    /// the rules and [`Fallback`] for when it does not apply.
    ///
    /// # Errors
    ///
    /// A [`Fallback`] when focus does not apply and the caller cuts as usual: the query has no
    /// words, the text fits, no section matched, or the budget is too small (see its variants).
    #[cfg(test)]
    pub fn text(&self, text: &str, budget_chars: usize) -> Result<Trimmed, Fallback> {
        self.trim(
            text,
            Limits {
                chars: Some(budget_chars),
                lines: None,
            },
        )
    }

    /// [`Focus::text`] under a character budget for the whole output and a line budget for
    /// the body (the kept sections, gap lines and blank lines between them); either may be
    /// absent. The formatter uses it with `max_chars` and `max_lines`.
    #[cfg(test)]
    pub(crate) fn trim(&self, text: &str, limits: Limits) -> Result<Trimmed, Fallback> {
        self.ranked(text)?.select(limits)
    }

    /// `text` ready to select from under several limits: split and scored once, on the first
    /// selection that needs it.
    pub(crate) fn ranked<'t>(&'t self, text: &'t str) -> Result<Ranked<'t>, Fallback> {
        if !self.has_words {
            return Err(Fallback::NoQuery);
        }
        Ok(Ranked {
            focus: self,
            text,
            chars: text.chars().count(),
            lines: crate::text::lines(text).count(),
            scored: std::cell::OnceCell::new(),
        })
    }

    /// Whether the query has any word (stop words included): without one, focus never applies.
    pub(crate) fn has_words(&self) -> bool {
        self.has_words
    }

    /// The `top` rows most relevant to the query: each row is given as its cells' texts
    /// (pass the text cells; numbers may be passed as text too). Rows scoring zero are never
    /// kept.
    ///
    /// # Errors
    ///
    /// A [`Fallback`] when focus does not apply: the query has no words, the rows fit `top`,
    /// no row matched, or `top` is zero (see its variants).
    pub fn rank_rows<R, C, S>(
        &self,
        rows: R,
        top: usize,
        order: RowOrder,
    ) -> Result<RankedRows, Fallback>
    where
        R: IntoIterator<Item = C>,
        C: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        if !self.has_words {
            return Err(Fallback::NoQuery);
        }
        let docs: Vec<String> = rows
            .into_iter()
            .map(|cells| {
                let mut doc = String::new();
                for cell in cells {
                    doc.push_str(cell.as_ref());
                    doc.push(' ');
                }
                doc
            })
            .collect();
        let total = docs.len();
        if total <= top {
            return Err(Fallback::Fits);
        }
        if top == 0 {
            return Err(Fallback::TooSmall);
        }
        let scores = rank::bm25(&self.terms, docs.iter().map(String::as_str));
        let mut ranked: Vec<usize> = (0..total).filter(|&i| scores[i] > 0.0).collect();
        if ranked.is_empty() {
            return Err(Fallback::NoMatch);
        }
        ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        ranked.truncate(top);
        if order == RowOrder::Data {
            ranked.sort_unstable();
        }
        let notice = select::notice_line(ranked.len(), total, Unit::Rows, &self.shown);
        Ok(RankedRows {
            indices: ranked,
            total,
            notice,
        })
    }
}

/// A text and a query, split and scored once for several selections ([`Focus::ranked`]).
pub(crate) struct Ranked<'t> {
    focus: &'t Focus,
    text: &'t str,
    /// Characters and lines of the text.
    pub(crate) chars: usize,
    pub(crate) lines: usize,
    scored: std::cell::OnceCell<(split::Split, Vec<f64>)>,
}

impl Ranked<'_> {
    /// The best sections under `limits` (see [`Focus::text`]).
    pub(crate) fn select(&self, limits: Limits) -> Result<Trimmed, Fallback> {
        let fits_chars = limits.chars.is_none_or(|c| self.chars <= c);
        let fits_lines = limits.lines.is_none_or(|l| self.lines <= l);
        if fits_chars && fits_lines {
            return Err(Fallback::Fits);
        }
        if self.focus.terms.is_empty() {
            return Err(Fallback::NoMatch);
        }
        let (split, scores) = self.scored.get_or_init(|| {
            let split = split::split(self.text);
            let scores = rank::bm25(
                &self.focus.terms,
                split.sections.iter().map(|s| &self.text[s.range.clone()]),
            );
            (split, scores)
        });
        let input = select::Input {
            text: self.text,
            split,
            scores,
            query: &self.focus.shown,
        };
        select::select(&input, limits)
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// The examples of the engine, kept as tests (it is not public API).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn example_1() {
        use crate::focus::{Focus, Unit};

        let faq = concat!(
            "# Shipping\nParcels leave the warehouse within two days.\n\n",
            "# Returns\nUnworn items can be returned within 30 days.\n\n",
            "# Refunds\nA refund reaches your card 5 to 10 days after we receive the item.\n\n",
            "# Gift cards\nGift cards never expire.",
        );
        let focused = Focus::new("when will I get my refund?")
            .text(faq, 200)
            .unwrap();
        assert_eq!(
            focused.text,
            concat!(
                "[Kept 1 of 4 sections relevant to \"when will I get my refund?\"]\n\n",
                "[… 2 sections omitted …]\n\n",
                "# Refunds\nA refund reaches your card 5 to 10 days after we receive the item.\n\n",
                "[… 1 section omitted …]",
            )
        );
        assert_eq!(
            (focused.kept, focused.total, focused.unit),
            (1, 4, Unit::Sections)
        );
    }

    #[test]
    fn example_2() {
        use crate::focus::Focus;
        let focus = Focus::new("  refund\n policy ");
        assert_eq!(focus.query(), "refund policy");
    }

    #[test]
    fn example_3() {
        use crate::focus::Unit;
        assert_eq!(Unit::Paragraphs.name(1), "paragraph");
        assert_eq!(Unit::Paragraphs.name(12), "paragraphs");
    }

    #[test]
    fn example_4() {
        assert_eq!(crate::focus::Unit::Lines.name(2), "lines");
    }

    #[test]
    fn example_5() {
        use crate::focus::Focus;
        let log = (0..50)
            .map(|i| format!("12:00:{i:02} INFO tick {i}"))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n12:01:00 ERROR disk full on /var";
        let f = Focus::new("disk full").text(&log, 120).unwrap();
        assert_eq!(f.notice(), "[Kept 1 of 51 lines relevant to \"disk full\"]");
        assert_eq!(
            f.body(),
            "[… 50 lines omitted …]\n12:01:00 ERROR disk full on /var"
        );
    }

    #[test]
    fn example_6() {
        use crate::focus::{Fallback, Focus};
        let focus = Focus::new("refund policy");
        assert_eq!(focus.text("short", 100), Err(Fallback::Fits));
        let long = "Shipping is free.\n".repeat(20);
        assert_eq!(focus.text(&long, 100), Err(Fallback::NoMatch));
        assert_eq!(
            focus.no_match_notice(),
            "[No section matched \"refund policy\"]"
        );
        assert_eq!(Focus::new(" ? ").text(&long, 100), Err(Fallback::NoQuery));
    }

    #[test]
    fn example_7() {
        use crate::focus::Focus;
        assert_eq!(
            Focus::new("refund\u{1b}[31m policy").query(),
            "refund[31m policy"
        );
    }

    #[test]
    fn example_8() {
        use crate::focus::Focus;
        let text = "Welcome to the Acme store, where every kettle is tested by hand.\n\n\
                    Our refund policy: 30 days.\n\nContact us.\n\nAbout · Careers · Press · Legal · Privacy · Cookies";
        let f = Focus::new("refund policy").text(text, 140).unwrap();
        assert_eq!(
            f.text,
            "[Kept 1 of 4 paragraphs relevant to \"refund policy\"]\n\n\
                            [… 1 paragraph omitted …]\n\nOur refund policy: 30 days.\n\n\
                            [… 2 paragraphs omitted …]"
        );
    }

    #[test]
    fn example_9() {
        use crate::focus::{Focus, RowOrder};
        let rows = [
            ["T-1", "Printer jammed on floor 3"],
            ["T-2", "Refund not received for order 991"],
            ["T-3", "VPN drops every hour"],
            ["T-4", "Customer asks about refund policy"],
        ];
        let focus = Focus::new("refund policy");
        let kept = focus.rank_rows(rows, 2, RowOrder::Data).unwrap();
        assert_eq!(kept.indices, [1, 3]);
        assert_eq!(
            kept.notice,
            "[Kept 2 of 4 rows relevant to \"refund policy\"]"
        );
        assert_eq!(
            focus.rank_rows(rows, 2, RowOrder::Ranked).unwrap().indices,
            [3, 1]
        );
    }
}
