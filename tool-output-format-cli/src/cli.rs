//! The command line: flags, help text and their checks (clap derive).

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

const AFTER_HELP: &str = "\
Examples:
  tof results.json
  curl -s https://api.github.com/repos/rust-lang/rust/issues | tof --tool list_issues --layout compact
  tof --max-rows 20 --report events.ndjson
  tof --layout csv --max-rows 500 rows.ndjson
  tof --json --max-tokens 2000 result.json

Input: a JSON document, or NDJSON (one JSON object per line). The input is NDJSON when
--ndjson is given, or when its first non-blank line is a complete JSON value and another
non-blank line follows. NDJSON renders as one table; only the rows the cap can show are kept
in memory (the rest are counted), so streams of any length run in bounded memory.

Exit codes:
  0   the result was rendered (or standard output was closed early)
  1   an I/O error (a file that cannot be opened or read, a failed write)
  2   bad input: unparsable JSON, an NDJSON line that is not an object, a bad shape file
  64  usage: an unknown flag or a bad value

--json writes one line: {\"result\": <the capped value>, \"notices\": [<one object per cut>]};
each notice has kind, path (a JSON Pointer into result), its figures and text.";

/// Render a JSON tool result as markdown a model reads well.
///
/// Reads JSON or NDJSON from FILE (or standard input) and writes the markdown to standard
/// output: tables for lists of records, bullets for a record, a fenced block for a string.
/// Every cut is announced with exact counts. Errors go to standard error as
/// FILE:LINE:COLUMN: message, with nothing on standard output.
// The doc comments here are `tof --help`, read as plain text in a terminal: no backticks.
// Each bool is one `--flag` of the command line.
#[allow(clippy::doc_markdown, clippy::struct_excessive_bools)]
#[derive(Debug, Parser)]
#[command(name = "tof", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// The JSON or NDJSON input; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Tool name: a record is titled `**NAME result**`.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,

    /// Table layout: padded columns (aligned), no padding (compact), or RFC 4180 CSV (records
    /// and strings stay markdown). Default: aligned, or compact with --agent.
    #[arg(long, value_enum, value_name = "LAYOUT")]
    pub layout: Option<LayoutArg>,

    /// The agent preset (`Formatter::for_agents()`): machine-only fields (API URLs, node ids)
    /// and empty fields folded out of the view and named in one left-out line, nested objects
    /// flattened in tables, compact layout.
    #[arg(long)]
    pub agent: bool,

    /// Most table rows shown (default: --max-lines, which defaults to 100).
    #[arg(long, value_name = "N")]
    pub max_rows: Option<usize>,

    /// Most lines of a string result shown, and rows unless --max-rows is set (default 100).
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,

    /// Most characters of one table cell or record value; longer ones end with `…[+K chars]`.
    #[arg(long, value_name = "N")]
    pub max_cell_chars: Option<usize>,

    /// Budget for the whole output in characters: rows, lines and values are cut to fit.
    #[arg(long, value_name = "N")]
    pub max_chars: Option<usize>,

    /// Budget for the whole output in o200k tokens (GPT-4o-class tokenizer).
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,

    /// Which lines of a long string result are kept.
    #[arg(long, value_enum, default_value_t = StrategyArg::Head, value_name = "STRATEGY")]
    pub strategy: StrategyArg,

    /// Shape file: a JSON object, or TOML for a FILE ending in .toml, with the keys keep, drop,
    /// rename, convert, drop_empty, flatten.
    #[arg(long, value_name = "FILE")]
    pub shape: Option<PathBuf>,

    /// Treat the input as NDJSON (one JSON object per line), even a single line.
    #[arg(long)]
    pub ndjson: bool,

    /// Print the size report (characters, bytes, tokens, rows kept) on standard error.
    #[arg(long)]
    pub report: bool,

    /// With --agent: show every field (no folding). `summary` is the default.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = DetailArg::Summary)]
    pub detail: DetailArg,

    /// Write the structured JSON form instead of text: the same capped result with every cut
    /// recorded in `notices` (for MCP structuredContent).
    #[arg(long)]
    pub json: bool,
}

/// `--detail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DetailArg {
    /// Fold what the agent preset folds, and name it.
    Summary,
    /// Every field.
    Full,
}

/// `--layout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// Columns padded to their widest cell.
    Aligned,
    /// No padding: the fewest tokens of the markdown forms.
    Compact,
    /// RFC 4180 CSV tables.
    Csv,
}

/// `--strategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// The first lines.
    Head,
    /// The last lines (logs: newest last).
    Tail,
    /// The first half and the last half.
    HeadTail,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn flags_parse() {
        let cli = Cli::try_parse_from([
            "tof",
            "--tool",
            "t",
            "--layout",
            "compact",
            "--max-rows",
            "5",
            "--strategy",
            "head-tail",
            "in.json",
        ])
        .unwrap();
        assert_eq!(cli.tool.as_deref(), Some("t"));
        assert_eq!(cli.layout, Some(LayoutArg::Compact));
        assert_eq!(cli.max_rows, Some(5));
        assert_eq!(cli.strategy, StrategyArg::HeadTail);
        assert_eq!(cli.file, Some(PathBuf::from("in.json")));
    }
}
