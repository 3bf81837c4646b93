//! Reading the input: one JSON document, or NDJSON records in bounded memory.
//!
//! # Which form
//!
//! - With `--ndjson`, every non-blank line is one record.
//! - Otherwise, when the first non-blank line is a complete JSON value and another non-blank
//!   line follows, the input is NDJSON and read line by line.
//! - Otherwise, when the input starts with an array and no shape is in effect, the array is
//!   read element by element (see [`array`]): an array of objects is a table whose rows are
//!   kept as records are (below), on one line or pretty-printed.
//! - Otherwise the input is read whole: one JSON value is the document; several values one
//!   after another (`jq .` output: pretty-printed objects) are records, as NDJSON.
//!
//! Blank lines are skipped. A record must be a JSON object (a line of NDJSON is a row of the
//! table); a list of scalars is a JSON array, one document.
//!
//! # Bounded memory
//!
//! Records go to a [`Collector`], the library's [`Rows`]: it keeps the first `keep` records
//! (the rows the cap can show, plus one so the renderer sees that rows were cut) and, for
//! every later record, only counts it and notes keys it has not seen yet (the table's columns
//! come from all rows), checking its syntax without building a value. Memory is the kept rows
//! plus the distinct keys (at most one more than a table's columns,
//! [`MAX_COLUMNS`](tool_output_format::MAX_COLUMNS)), whatever the number of lines. Line by line reading
//! needs one record per line; an array is read element by element; the whole-input form
//! keeps the input text in memory.

mod array;

use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, IsTerminal, Write};

use serde::de::IgnoredAny;
use serde_json::Value;
use tool_output_format::Rows;

use crate::error::{Error, position};

/// Progress is reported every this many lines (on a terminal only).
pub const PROGRESS_EVERY: usize = 100_000;

/// What was read.
#[derive(Debug)]
pub enum Input {
    /// One JSON value.
    Document(Value),
    /// Records (NDJSON or several values), rendered as one table: the kept ones, the count
    /// and the columns of those not kept.
    Records(Rows),
}

/// Where the input comes from, for messages (`data.json`, `<stdin>`).
#[derive(Debug, Clone)]
pub struct Source {
    /// The name printed before `:LINE:COLUMN:`.
    pub name: String,
    /// The file, when the input can be opened again (not standard input).
    pub path: Option<std::path::PathBuf>,
}

/// Read `r` as JSON or NDJSON (see the [module docs](self)), keeping at most `keep` records.
/// `stream_arrays`: an array may be read element by element (false when a shape is in
/// effect: it decides the table's columns over every row, so every row is kept).
pub fn read(
    mut r: impl BufRead,
    src: &Source,
    keep: usize,
    force_ndjson: bool,
    stream_arrays: bool,
    progress: &mut Progress,
) -> Result<Input, Error> {
    if stream_arrays && !force_ndjson && array::starts_an_array(&mut r, src)? {
        return array::read(r, src, keep, |again| {
            read(again, src, keep, false, false, progress)
        });
    }
    let mut lines = Lines::default();
    if !lines.next_record(&mut r, src)? {
        return Err(empty(src));
    }
    let mut c = Collector::new(keep);
    if force_ndjson {
        c.push_line(&lines.buf, lines.line, src)?;
        return stream(r, lines, c, src, progress);
    }
    if let Ok(first) = serde_json::from_slice::<Value>(&lines.buf) {
        let first_line = lines.line;
        let first_col = first_column(&lines.buf);
        if !lines.next_record(&mut r, src)? {
            return Ok(Input::Document(first));
        }
        c.push_value(first, src, || (first_line, first_col))?;
        c.push_line(&lines.buf, lines.line, src)?;
        stream(r, lines, c, src, progress)
    } else {
        // JSON is read left to right: a syntax error inside the first line is the whole
        // input's error, reported without reading the rest. Only an unfinished value (a
        // pretty-printed document) or several values on the line need the rest.
        for v in serde_json::Deserializer::from_slice(&lines.buf).into_iter::<IgnoredAny>() {
            match v {
                Err(e) if !e.is_eof() => {
                    return Err(Error::json(&src.name, &lines.buf, lines.line - 1, &e));
                }
                Err(_) => break,
                Ok(_) => {}
            }
        }
        whole(r, lines, c, src)
    }
}

/// The rest of an NDJSON stream, line by line.
fn stream(
    mut r: impl BufRead,
    mut lines: Lines,
    mut c: Collector,
    src: &Source,
    progress: &mut Progress,
) -> Result<Input, Error> {
    while lines.next_record(&mut r, src)? {
        c.push_line(&lines.buf, lines.line, src)?;
        progress.tick(lines.line);
    }
    progress.finish();
    Ok(Input::Records(c.finish()))
}

/// The whole input as one buffer: a document (pretty-printed JSON) or several values.
fn whole(
    mut r: impl BufRead,
    lines: Lines,
    mut c: Collector,
    src: &Source,
) -> Result<Input, Error> {
    // The buffer starts at the first non-blank line; positions are shifted back by the
    // blank lines skipped before it.
    let shift = lines.line - 1;
    let mut all = lines.buf;
    r.read_to_end(&mut all).map_err(|error| Error::Io {
        context: format!("reading {}", src.name),
        error,
    })?;
    let json = |e: &serde_json::Error| Error::json(&src.name, &all, shift, e);
    let mut values = serde_json::Deserializer::from_slice(&all).into_iter::<Value>();
    let first = match values.next() {
        Some(v) => v.map_err(|e| json(&e))?,
        None => return Err(empty(src)),
    };
    let mut start = leading_space(&all);
    let mut next_start = values.byte_offset();
    let Some(second) = values.next() else {
        return Ok(Input::Document(first));
    };
    let at = |off: usize| {
        let (l, c) = position(&all, off);
        (l + shift, c)
    };
    c.push_value(first, src, || at(start))?;
    let mut v = second.map_err(|e| json(&e))?;
    loop {
        start = next_start + leading_space(&all[next_start..]);
        c.push_value(v, src, || at(start))?;
        next_start = values.byte_offset();
        match values.next() {
            Some(n) => v = n.map_err(|e| json(&e))?,
            None => break,
        }
    }
    Ok(Input::Records(c.finish()))
}

/// The error for an input without a value.
fn empty(src: &Source) -> Error {
    Error::Invalid {
        source: src.name.clone(),
        message: "the input is empty: expected a JSON document or NDJSON records".into(),
    }
}

/// Keeps the first records, counts the rest and notes their new keys: the library's
/// [`Rows`] (its late-key rule), fed line by line or value by value with the reader's
/// positions for errors.
#[derive(Debug)]
pub struct Collector {
    keep: usize,
    rows: Rows,
}

impl Collector {
    /// A collector that keeps the first `keep` records.
    pub fn new(keep: usize) -> Collector {
        Collector {
            keep,
            rows: Rows::default(),
        }
    }

    /// Whether it keeps no more records: the next are only counted and probed.
    fn is_full(&self) -> bool {
        self.rows.kept().len() >= self.keep
    }

    /// Keep a record (an object) while not [full](Self::is_full).
    fn keep_object(&mut self, v: Value) {
        debug_assert!(v.is_object() && !self.is_full());
        self.rows.push(v, self.keep);
    }

    /// Count a record that is not kept and note its new keys, from `d` without building it
    /// ([`Rows::push_from`]). A value that is not an object is an error.
    fn probe<'de, D: serde::Deserializer<'de>>(&mut self, d: D) -> Result<(), D::Error> {
        self.rows.push_from(d, self.keep)
    }

    /// How many distinct keys the records have (the kept ones' and the late ones).
    fn keys(&self) -> usize {
        let kept: HashSet<&str> = self
            .rows
            .kept()
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|m| m.keys().map(String::as_str))
            .collect();
        kept.len() + self.rows.late_keys().len()
    }

    /// One NDJSON line (without blank lines), line number `line` (1-based).
    pub fn push_line(&mut self, bytes: &[u8], line: usize, src: &Source) -> Result<(), Error> {
        if !self.is_full() {
            let v = serde_json::from_slice::<Value>(bytes)
                .map_err(|e| Error::json(&src.name, bytes, line - 1, &e))?;
            return self.push_value(v, src, || (line, first_column(bytes)));
        }
        let mut de = serde_json::Deserializer::from_slice(bytes);
        match self.probe(&mut de).and_then(|()| de.end()) {
            Ok(()) => Ok(()),
            // Valid JSON that is not an object: the same message as for a kept record.
            Err(e) if e.classify() == serde_json::error::Category::Data => {
                match serde_json::from_slice::<Value>(bytes) {
                    Ok(v) => Err(not_object(&v, src, line, first_column(bytes))),
                    Err(e) => Err(Error::json(&src.name, bytes, line - 1, &e)),
                }
            }
            Err(e) => Err(Error::json(&src.name, bytes, line - 1, &e)),
        }
    }

    /// One parsed record; `at` gives its line and column for the error when it is not an
    /// object.
    pub fn push_value(
        &mut self,
        v: Value,
        src: &Source,
        at: impl FnOnce() -> (usize, usize),
    ) -> Result<(), Error> {
        if !v.is_object() {
            let (line, column) = at();
            return Err(not_object(&v, src, line, column));
        }
        self.rows.push(v, self.keep);
        Ok(())
    }

    /// The records read.
    pub fn finish(self) -> Rows {
        self.rows
    }
}

/// The error for a record that is not a JSON object.
fn not_object(v: &Value, src: &Source, line: usize, column: usize) -> Error {
    Error::Input {
        source: src.name.clone(),
        line,
        column,
        message: format!(
            "expected a JSON object (a record) but found {}; each NDJSON line is one row of \
             the table (wrap a list of values in a JSON array instead)",
            Kind(v)
        ),
    }
}

/// What a value is, for messages.
struct Kind<'a>(&'a Value);

impl fmt::Display for Kind<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        })
    }
}

/// The input's lines, one buffer reused.
#[derive(Debug, Default)]
struct Lines {
    buf: Vec<u8>,
    /// 1-based number of the line in `buf`.
    line: usize,
}

impl Lines {
    /// Read up to the next non-blank line into `buf`; false at the end of the input.
    fn next_record(&mut self, r: &mut impl BufRead, src: &Source) -> Result<bool, Error> {
        loop {
            self.buf.clear();
            let n = r
                .read_until(b'\n', &mut self.buf)
                .map_err(|error| Error::Io {
                    context: format!("reading {}", src.name),
                    error,
                })?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            if !self.buf.iter().all(u8::is_ascii_whitespace) {
                return Ok(true);
            }
        }
    }
}

/// Number of leading JSON white space bytes.
fn leading_space(b: &[u8]) -> usize {
    b.iter()
        .take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        .count()
}

/// The 1-based column of the first non-blank byte of a line.
fn first_column(line: &[u8]) -> usize {
    leading_space(line) + 1
}

/// A progress line on standard error every [`PROGRESS_EVERY`] lines, when standard error
/// is a terminal (nothing otherwise). The line is rewritten in place and cleared at the end.
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    shown: bool,
}

impl Progress {
    /// Progress on standard error if it is a terminal.
    pub fn on_terminal() -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// No progress.
    #[cfg(test)]
    pub fn off() -> Progress {
        Progress {
            enabled: false,
            shown: false,
        }
    }

    fn tick(&mut self, line: usize) {
        if self.enabled && line.is_multiple_of(PROGRESS_EVERY) {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\rtof: {line} lines read");
            let _ = e.flush();
            self.shown = true;
        }
    }

    fn finish(&mut self) {
        if self.shown {
            // Carriage return and "erase line": the progress line leaves no trace.
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn src() -> Source {
        Source {
            name: "<stdin>".into(),
            path: None,
        }
    }

    fn read_str(s: &str, keep: usize, ndjson: bool) -> Result<Input, Error> {
        read(
            s.as_bytes(),
            &src(),
            keep,
            ndjson,
            true,
            &mut Progress::off(),
        )
    }

    fn records(s: &str, keep: usize) -> Rows {
        match read_str(s, keep, false).unwrap() {
            Input::Records(r) => r,
            Input::Document(d) => panic!("a document: {d}"),
        }
    }

    #[test]
    fn a_document_pretty_or_on_one_line() {
        for s in [
            "[\n  {\"a\": 1}\n]\n",
            "{\"a\": 1}\n\n",
            "\n  42  \n",
            "\"x\"",
        ] {
            assert!(
                matches!(read_str(s, 10, false), Ok(Input::Document(_))),
                "{s:?}"
            );
        }
    }

    #[test]
    fn ndjson_keeps_the_first_rows_counts_all_and_notes_late_keys() {
        let r = records(
            "{\"a\":1}\n\n{\"a\":2,\"b\":3}\n{\"c\":4,\"a\":5}\n{\"d\":\"\\u0041\"}\n",
            2,
        );
        assert_eq!(r.kept(), [json!({"a": 1}), json!({"a": 2, "b": 3})]);
        assert_eq!(r.total(), 4);
        assert_eq!(r.late_keys(), ["c", "d"]);
    }

    #[test]
    fn several_pretty_values_are_records() {
        let r = records("{\n \"a\": 1\n}\n{\n \"b\": 2\n}\n", 10);
        assert_eq!(r.kept(), [json!({"a": 1}), json!({"b": 2})]);
        assert_eq!(r.total(), 2);
        let r = records("{\"a\":1} {\"a\":2}\n{\"a\":3}\n", 10);
        assert_eq!(r.total(), 3);
    }

    #[test]
    fn the_flag_makes_one_line_a_record() {
        assert!(matches!(read_str("{\"a\":1}", 10, true), Ok(Input::Records(r)) if r.total() == 1));
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            (
                "{\"a\":1}\n{\"a\":2}\n{\"a\" 3}\n",
                10,
                "<stdin>:3:6: expected `:`",
            ),
            (
                "{\"a\":1}\n{\"a\":2}\n{\"a\" 3}\n",
                1,
                "<stdin>:3:6: expected `:`",
            ),
            (
                "{\"a\":1}\n{\"a\":2}\n{\"a\":3}x\n",
                1,
                "<stdin>:3:8: trailing characters",
            ),
            (
                "{\"a\":1}\n  7\n",
                10,
                "<stdin>:2:3: expected a JSON object (a record) but found a number; each NDJSON \
                 line is one row of the table (wrap a list of values in a JSON array instead)",
            ),
            (
                "{\"a\":1}\n{\"a\":1}\n[1]\n",
                1,
                "<stdin>:3:1: expected a JSON object (a record) but found an array; each NDJSON \
                 line is one row of the table (wrap a list of values in a JSON array instead)",
            ),
            (
                "\n\n[\n  1,\n  2 3\n]",
                10,
                "<stdin>:5:5: expected `,` or `]`",
            ),
            ("\n{\"a\" 1}\n{\"a\":2}\n", 10, "<stdin>:2:6: expected `:`"),
            // A line break inside a string is the bad byte, at the end of its own line
            // (serde_json counts it as column 0 of the next line), whether the line is kept
            // or only counted.
            (
                "{\"a\":1}\n{\"a\": \"b\n{\"a\":3}\n",
                10,
                "<stdin>:2:9: control character (\\u0000-\\u001F) found while parsing a string",
            ),
            (
                "{\"a\":1}\n{\"a\": \"b\n{\"a\":3}\n",
                1,
                "<stdin>:2:9: control character (\\u0000-\\u001F) found while parsing a string",
            ),
            // An input that ends too soon: just after its last byte.
            (
                "{\"a\":1}\n{\"a\":2}\n{\"a\":",
                10,
                "<stdin>:3:6: EOF while parsing a value",
            ),
            (
                "\n\n[\n  1,\n",
                10,
                "<stdin>:4:5: EOF while parsing a value",
            ),
            (
                "{\"a\":1} {\"a\":2} x\n{\"a\":3}\n",
                10,
                "<stdin>:1:17: expected value",
            ),
            (
                "{\n}\n\n  \"s\"\n",
                10,
                "<stdin>:4:3: expected a JSON object (a record) but found a string; each NDJSON \
                 line is one row of the table (wrap a list of values in a JSON array instead)",
            ),
            (
                "\n \n",
                10,
                "<stdin>: the input is empty: expected a JSON document or NDJSON records",
            ),
        ];
        for (input, keep, want) in cases {
            let got = read_str(input, keep, false).unwrap_err().to_string();
            assert_eq!(got, want, "{input:?}");
        }
    }
}
