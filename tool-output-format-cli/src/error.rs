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
        /// 1-based line (0 when unknown).
        line: usize,
        /// Column as serde_json counts it (1-based; 0 at the start of a line after EOF).
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
        }
    }

    /// A serde_json error at a position in `source`, shifted by `line_offset` lines (for an
    /// NDJSON line parsed on its own). serde_json's own " at line L column C" suffix is
    /// replaced by the `FILE:LINE:COLUMN:` prefix.
    pub fn json(source: &str, line_offset: usize, e: &serde_json::Error) -> Error {
        let text = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = text.strip_suffix(&suffix).unwrap_or(&text).to_owned();
        Error::Input {
            source: source.to_owned(),
            line: e.line() + line_offset,
            column: e.column(),
            message,
        }
    }
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
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_read_file_line_column() {
        let e = serde_json::from_str::<serde_json::Value>("[\n  1,\n  2 3\n]").unwrap_err();
        let err = Error::json("<stdin>", 0, &e);
        assert_eq!(err.to_string(), "<stdin>:3:5: expected `,` or `]`");
        assert_eq!(err.exit_code(), EXIT_INPUT);
        let e = serde_json::from_str::<serde_json::Value>("{\"a\" 1}").unwrap_err();
        assert_eq!(
            Error::json("x.ndjson", 41, &e).to_string(),
            "x.ndjson:42:6: expected `:`"
        );
    }
}
