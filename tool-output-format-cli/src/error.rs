//! Errors and their exit codes.

use std::fmt;
use std::io;

/// Exit code: the result was rendered.
pub const EXIT_OK: u8 = 0;
/// Exit code: an I/O error (open, read or write).
pub const EXIT_IO: u8 = 1;
/// Exit code: bad input (unparsable JSON, a non-object NDJSON line, a bad shape file).
pub const EXIT_INPUT: u8 = 2;
/// Exit code: usage (bad flags). `EX_USAGE`.
pub const EXIT_USAGE: u8 = 64;

/// Why `tof` stopped. `Display` is the whole message printed on standard error.
#[derive(Debug)]
pub enum Error {
    /// Input that is not what `tof` reads, at a position: `FILE:LINE:COLUMN: message`.
    Input {
        /// The file as given, or `<stdin>`.
        source: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in bytes, of the byte that is wrong (for input that ends too soon:
        /// just after its last non-blank byte).
        column: usize,
        /// What is wrong and what was expected.
        message: String,
    },
    /// Bad input without a position (an empty input, an unknown shape key).
    Invalid {
        /// The file as given, or `<stdin>`.
        source: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// `tof proxy` could not start: a bad config or flag, an upstream that does not start or
    /// initialize, a config table naming no upstream tool. The whole message.
    #[cfg(feature = "proxy")]
    Proxy(String),
    /// A file that cannot be opened or read, or a failed write.
    Io {
        /// What was being done (`reading data.json`).
        context: String,
        /// The underlying error.
        error: io::Error,
    },
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input { .. } | Error::Invalid { .. } => EXIT_INPUT,
            Error::Io { .. } => EXIT_IO,
            #[cfg(feature = "proxy")]
            Error::Proxy(_) => EXIT_INPUT,
        }
    }

    /// A `serde_json` error in `text` (read from `source`), whose first line is line
    /// `line_offset + 1` of the source (an NDJSON line parsed on its own, or a document after
    /// skipped blank lines). `serde_json`'s own " at line L column C" suffix is replaced by the
    /// `FILE:LINE:COLUMN:` prefix, with the exact position of the bad byte (see [`at_byte`]).
    pub fn json(source: &str, text: &[u8], line_offset: usize, e: &serde_json::Error) -> Error {
        let text_msg = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = text_msg
            .strip_suffix(&suffix)
            .unwrap_or(&text_msg)
            .to_owned();
        let (line, column) = at_byte(text, e);
        Error::Input {
            source: source.to_owned(),
            line: line + line_offset,
            column,
            message,
        }
    }
}

/// The 1-based line and column of the byte `serde_json` stopped at in `text`.
///
/// `serde_json` reports the last byte it read, which is not always the bad one: a line break
/// it read is column 0 of the next line (here it is the last byte of its own line, at the
/// line's length plus one), and when it skips a string it stops before a control character
/// in it (here the control character itself is blamed). When the input ends too soon there
/// is no bad byte: the position is just after the last non-blank byte.
pub fn at_byte(text: &[u8], e: &serde_json::Error) -> (usize, usize) {
    if e.is_eof() {
        let end = text.len()
            - text
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        return position(text, end);
    }
    let line_start = match e.line() {
        0 | 1 => Some(0),
        l => text
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(l - 2)
            .map(|(i, _)| i + 1),
    };
    let Some(start) = line_start else {
        return (e.line(), e.column().max(1));
    };
    let mut off = (start + e.column()).saturating_sub(1);
    if e.to_string().starts_with("control character") {
        off += text[off.min(text.len())..]
            .iter()
            .position(|&b| b < 0x20)
            .unwrap_or(0);
    }
    position(text, off)
}

/// The 1-based line and column (counted in bytes) of byte `off` of `text`; `text.len()` is
/// the position just after the last byte.
#[allow(clippy::naive_bytecount)] // once per error; no `bytecount` dependency for it
pub fn position(text: &[u8], off: usize) -> (usize, usize) {
    let before = &text[..off.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.len()
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input {
                source,
                line,
                column,
                message,
            } => write!(f, "{source}:{line}:{column}: {message}"),
            Error::Invalid { source, message } => write!(f, "{source}: {message}"),
            Error::Io { context, error } => write!(f, "tof: error {context}: {error}"),
            #[cfg(feature = "proxy")]
            Error::Proxy(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_read_file_line_column() {
        let json = |source: &str, text: &str, offset: usize| {
            let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            Error::json(source, text.as_bytes(), offset, &e)
        };
        let err = json("<stdin>", "[\n  1,\n  2 3\n]", 0);
        assert_eq!(err.to_string(), "<stdin>:3:5: expected `,` or `]`");
        assert_eq!(err.exit_code(), EXIT_INPUT);
        assert_eq!(
            json("x.ndjson", "{\"a\" 1}", 41).to_string(),
            "x.ndjson:42:6: expected `:`"
        );
    }

    /// One case per way serde_json counts: the bad byte itself, a line break inside a string
    /// (serde_json: column 0 of the next line), and an input that ends too soon.
    #[test]
    fn positions_are_the_bad_byte_1_based() {
        let cases = [
            ("[1, 2 3]", (1, 7)),
            ("{\"a\":1,}", (1, 8)),
            ("{\"a\": \"b\n", (1, 9)),
            ("{\"a\": \"b\n\n", (1, 9)),
            ("[\n\"x\n\"]", (2, 3)),
            ("{\"a\": \"b", (1, 9)),
            ("{\"a\": 1\n", (1, 8)),
            ("[\n  1,\n", (2, 5)),
            ("\"\u{1}\"", (1, 2)),
        ];
        for (text, want) in cases {
            let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            assert_eq!(at_byte(text.as_bytes(), &e), want, "{text:?}: {e}");
        }
    }
}
