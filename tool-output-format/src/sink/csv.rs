//! The CSV table style ([`Layout::Csv`](crate::Layout::Csv)): tables as RFC 4180 CSV,
//! written by the `csv` crate; records, lists and strings stay markdown (the sink is
//! [`Markdown<Csv>`](super::markdown::Markdown)).
//!
//! # What is written
//!
//! - A header record (the column names), then one record per kept row, each cell's text
//!   exactly as the table holds it (after caps and redaction). Fields are quoted only when
//!   they must be (a comma, a quote, a line break), quotes doubled; records end with `\n`
//!   (RFC 4180 says CRLF; every CSV reader, the `csv` crate's included, accepts LF, and it
//!   keeps the output one line-ending convention with the markdown around it).
//! - A record is written with **every field quoted** when one of its fields starts or ends
//!   with white space, or holds a control or bidi character (those the markdown layouts
//!   write as `\u{HEX}`): the field boundaries then stay
//!   visible to a reader, and no line ends in a space. Such characters are written as they
//!   are, never as `\u{HEX}`: a CSV reader gets the cell back exactly, which the markdown
//!   layouts cannot promise for a tab or an escape character.
//! - **Top level** (the result is a table): the CSV itself, after the notice lines and a blank
//!   line, as in markdown. `csv::Reader` on the text after the first blank line (or on the
//!   whole text when there is no notice or title) gives exactly the header and the kept cells.
//! - **Nested** (a table inside a record or list): a fenced code block with the info string
//!   `csv` inside the list item, every line indented to the item's content column, the
//!   fence longer than any backtick run inside. A CSV field may span lines, and a fenced
//!   block is the one markdown container whose content a parser hands back verbatim (minus
//!   the indentation), so the block cannot end early, open a list or a table, or be read as
//!   a paragraph: `tests/csv.rs` re-parses it with pulldown-cmark and comrak and reads the
//!   block's text back with `csv::Reader`. The one loss: markdown knows one line ending, so
//!   a `\r` or `\r\n` inside a nested cell reads back as `\n` (at top level it is kept),
//!   and a NUL as U+FFFD (`CommonMark` replaces it).
//!   A nested table cut by the row cap says so in place, before the block, as in markdown.
//!
//! # Spreadsheet formula injection
//!
//! Cells starting with `=`, `+`, `-` or `@` are written as they are. The output is read by a
//! model, not opened in a spreadsheet, and the usual defence (a leading `'` or tab) would
//! change the data: `-5` would no longer be a number, and the CSV would not read back as
//! the data. A program that saves this CSV for a spreadsheet must neutralise such cells
//! itself.
//!
//! # TSV
//!
//! A tab-separated variant was measured (BENCHMARKS.md, "CSV and TSV") and not kept. The
//! win is small and TSV is not unambiguous on its own: the common TSV
//! convention (IANA `text/tab-separated-values`) has no quoting, so a cell holding a tab or
//! a line break needs an escape of our invention or CSV-style quotes that TSV readers do
//! not expect, and a tab is invisible where a comma is not.

use csv::{QuoteStyle, Terminator, WriterBuilder};

use super::markdown::TableStyle;
use crate::doc::Table;
use crate::text;

/// RFC 4180 tables ([`Layout::Csv`](crate::Layout::Csv)).
pub(crate) struct Csv;

impl TableStyle for Csv {
    fn table(&self, out: &mut String, t: &Table<'_>, indent: &str) {
        if indent.is_empty() {
            write_table(out, t);
            return;
        }
        let mut csv = String::new();
        write_table(&mut csv, t);
        let fence = text::fence_for(&csv);
        out.push_str(indent);
        out.push_str(&fence);
        out.push_str("csv\n");
        for line in text::lines(&csv) {
            // A blank line inside a quoted field stays blank: no indentation, so no line
            // ends in white space (a blank line does not end a fenced block).
            if !line.is_empty() {
                out.push_str(indent);
                out.push_str(line);
            }
            out.push('\n');
        }
        out.push_str(indent);
        out.push_str(&fence);
        out.push('\n');
    }
}

/// Append `t` as CSV: the header, then the rows, each record ending in `\n`.
fn write_table(out: &mut String, t: &Table<'_>) {
    let ncols = t.columns().len();
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.reserve(t.text_len() + (t.rows() + 1) * (ncols + 1));
    let header: Vec<&str> = t.columns().iter().map(|c| &**c).collect();
    let mut rows = std::iter::once(header).chain({
        let mut cells = t.cells();
        (0..t.rows()).map(move |_| cells.by_ref().take(ncols).collect::<Vec<&str>>())
    });
    // Runs of records that need the same quoting go through one writer each (nearly
    // always one run for the whole table).
    let mut pending = rows.next();
    while let Some(first) = pending.take() {
        let quote_all = needs_full_quoting(&first);
        let mut w = WriterBuilder::new()
            .terminator(Terminator::Any(b'\n'))
            .quote_style(if quote_all {
                QuoteStyle::Always
            } else {
                QuoteStyle::Necessary
            })
            .from_writer(&mut bytes);
        let mut record = Some(first);
        while let Some(r) = record {
            // Writing into a `Vec` cannot fail.
            let _ = w.write_record(&r);
            record = rows.next();
            if let Some(next) = &record
                && needs_full_quoting(next) != quote_all
            {
                pending = record.take();
            }
        }
        let _ = w.flush();
    }
    *out = match String::from_utf8(bytes) {
        Ok(s) => s,
        // Unreachable: the writer only adds ASCII around UTF-8 cells.
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
}

/// True when a record is written with every field quoted (see the module docs).
fn needs_full_quoting(record: &[&str]) -> bool {
    record.iter().any(|f| {
        f.starts_with(char::is_whitespace)
            || f.ends_with(char::is_whitespace)
            || f.chars().any(text::is_hidden_control)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Kind;

    fn table(cols: &[&str], rows: &[&[&str]]) -> Table<'static> {
        let mut t = Table::new(cols.iter().map(|c| c.to_string().into()).collect());
        for r in rows {
            for c in *r {
                t.buf_mut().push_str(c);
                t.end_cell(Kind::Text);
            }
        }
        t
    }

    fn csv(t: &Table<'_>) -> String {
        let mut s = String::new();
        write_table(&mut s, t);
        s
    }

    #[test]
    fn quotes_only_what_must_be_quoted() {
        let t = table(&["a", "b"], &[&["1", "x,y"], &["=SUM(A1)", "say \"hi\""]]);
        assert_eq!(csv(&t), "a,b\n1,\"x,y\"\n=SUM(A1),\"say \"\"hi\"\"\"\n");
    }

    #[test]
    fn edge_white_space_and_controls_quote_the_whole_record() {
        let t = table(
            &["a", "b"],
            &[&["1", "x "], &["2", "y"], &["\u{1b}[0m", "z"]],
        );
        assert_eq!(csv(&t), "a,b\n\"1\",\"x \"\n2,y\n\"\u{1b}[0m\",\"z\"\n");
    }

    #[test]
    fn a_nested_table_is_a_fenced_block_at_the_item_indent() {
        let t = table(&["a"], &[&["l1\n\nl2"], &["```"]]);
        let mut out = String::new();
        Csv.table(&mut out, &t, "  ");
        assert_eq!(out, "  ````csv\n  a\n  \"l1\n\n  l2\"\n  ```\n  ````\n");
    }
}
