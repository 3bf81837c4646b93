//! The command line: flags, help text and their checks (clap derive).

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::str::FromStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Command, Parser};
use tool_output_format::{Detail, Layout, OptionKey, OptionKind, Strategy, UnknownName};

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
    #[arg(long, value_name = "LAYOUT", value_parser = Named::<Layout>::new(names("layout")))]
    pub layout: Option<Layout>,

    /// The agent preset (`Formatter::for_agents()`): machine-only fields (API URLs, node ids)
    /// and empty fields folded out of the view and named in one left-out line, nested objects
    /// flattened in tables, compact layout.
    #[arg(long)]
    pub agent: bool,

    /// Most table rows shown (default: --max-lines; without it, 100 when no budget is set,
    /// none under --max-chars, --max-tokens or --agent: the budget is the bound).
    #[arg(long, value_name = "N")]
    pub max_rows: Option<usize>,

    /// Most lines of a string result shown, and rows unless --max-rows is set (default 100
    /// when no budget is set; under --max-chars, --max-tokens or --agent the budget is the
    /// bound).
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
    #[arg(long, value_name = "STRATEGY", default_value = "head",
          value_parser = Named::<Strategy>::new(names("strategy")))]
    pub strategy: Strategy,

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
    #[arg(long, value_name = "LEVEL", default_value = "summary",
          value_parser = Named::<Detail>::new(names("detail")))]
    pub detail: Detail,

    /// Keys whose values render as [redacted], wherever they occur (case-insensitive, nested
    /// too); comma-separated or the flag repeated.
    #[arg(long, value_name = "KEYS", value_delimiter = ',')]
    pub redact_keys: Vec<String>,

    /// Add a summary over all rows when the table is cut (every row is read for it).
    #[arg(long)]
    pub summarize: bool,

    /// Columns whose numbers the summary also sums; comma-separated or the flag repeated.
    #[arg(long, value_name = "COLUMNS", value_delimiter = ',')]
    pub sum: Vec<String>,

    /// Keep what an agent needs under a budget: fields and columns ranked by their name and
    /// value, the least needed left out first (on with --agent).
    #[arg(long)]
    pub salience: bool,

    /// Write the structured JSON form instead of text: the same capped result with every cut
    /// recorded in `notices` (for MCP structuredContent).
    #[arg(long)]
    pub json: bool,

    /// A subcommand instead of rendering a file.
    #[cfg(feature = "proxy")]
    #[command(subcommand)]
    pub command: Option<Sub>,
}

/// The subcommands of `tof`.
#[cfg(feature = "proxy")]
#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Run an MCP server behind the formatter: tof proxy OPTIONS -- COMMAND ARGS...
    Proxy(ProxyArgs),
}

#[cfg(feature = "proxy")]
const PROXY_AFTER_HELP: &str = "\
Examples:
  tof proxy -- npx -y @modelcontextprotocol/server-github
  tof proxy --config tof-proxy.toml --max-tokens 8000 -- python server.py
  tof proxy --store redis://127.0.0.1:6379 -- ./my-server

A host starts it in place of the server, e.g. in its MCP configuration:
  {\"command\": \"tof\", \"args\": [\"proxy\", \"--\", \"npx\", \"-y\", \"@modelcontextprotocol/server-github\"]}

Config file (TOML):
  [defaults]            # agent, max_tokens, max_chars, max_rows, layout, store, fetch_tool, timeout...
  max_tokens = 8000
  [tools.search_issues] # one table per upstream tool: max_rows, redact_keys, shape, layout, detail...
  max_rows = 20
  shape = { keep = [\"number\", \"title\", \"state\", \"user.login\"] }

Out of the box: the agent preset with a budget of 10000 tokens per result and a memory
store (a cut result ends with Next: call get_stored_result(ref=..., cursor=...)).";

/// `tof proxy`: an MCP server to its host (standard input and output) and an MCP client to
/// the upstream server it starts; each tool result is rendered by the formatter with that
/// tool's options, everything else passes through.
// Read as plain text in a terminal: no backticks.
#[allow(clippy::doc_markdown)]
#[cfg(feature = "proxy")]
#[derive(Debug, clap::Args)]
#[command(after_help = PROXY_AFTER_HELP)]
pub struct ProxyArgs {
    /// The TOML config: a defaults table and one tools.NAME table per upstream tool.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// The agent preset (the default unless the config says agent = false).
    #[arg(long)]
    pub agent: bool,

    /// Budget of every result in characters (replaces the default token budget).
    #[arg(long, value_name = "N")]
    pub max_chars: Option<usize>,

    /// Budget of every result in o200k tokens (default 10000).
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,

    /// Where cut results are kept for the fetch tool: memory (default), none, or
    /// redis://HOST:PORT (shared by several proxies).
    #[arg(long, value_name = "STORE")]
    pub store: Option<String>,

    /// The fetch tool's name (default get_stored_result).
    #[arg(long, value_name = "NAME")]
    pub fetch_tool: Option<String>,

    /// Seconds an upstream request may take before the host gets an error (default 60).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,

    /// What becomes of upstream's structuredContent: fit (default: sent when the text was
    /// not cut and its JSON is within the budget, left out otherwise), keep (always sent
    /// whole) or drop (never sent). Under
    /// fit and drop the tools are listed without their outputSchema. Several hosts (Claude
    /// Code, VS Code) show the model structuredContent in place of the text when both come.
    #[arg(long, value_name = "fit|keep|drop")]
    pub structured_content: Option<String>,

    /// Serve the host side as streamable HTTP at http://HOST:PORT/mcp instead of on standard
    /// input/output: any number of MCP clients, a session each, share the one upstream (its
    /// requests to a client, sampling, elicitation and roots, go to the client whose call is
    /// in flight).
    #[arg(long, value_name = "HOST:PORT")]
    pub listen: Option<String>,

    /// Reach the upstream over streamable HTTP at URL (http://HOST:PORT/mcp) instead of
    /// starting a command.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub upstream_url: Option<String>,

    /// The upstream server's command and arguments, after --.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// The value names of the library's option `key` (a one-of option of its table).
fn names(key: &str) -> &'static [&'static str] {
    match OptionKey::find(key).map(|k| k.kind) {
        Some(OptionKind::OneOf(names)) => names,
        _ => unreachable!("{key} is a one-of option of the library's table"),
    }
}

/// A flag value named as the library names it: its `FromStr`, the one place names are read
/// (a `-` reads as `_` there: `--strategy head-tail`, as the command line has always taken
/// it).
#[derive(Clone)]
pub struct Named<T> {
    names: &'static [&'static str],
    _type: PhantomData<fn() -> T>,
}

impl<T> Named<T> {
    fn new(names: &'static [&'static str]) -> Self {
        Named {
            names,
            _type: PhantomData,
        }
    }
}

impl<T> TypedValueParser for Named<T>
where
    T: FromStr<Err = UnknownName> + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<T>().map_err(|_| {
            let mut e = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            if let Some(arg) = arg {
                e.insert(
                    ContextKind::InvalidArg,
                    ContextValue::String(arg.to_string()),
                );
            }
            e.insert(
                ContextKind::InvalidValue,
                ContextValue::String(text.into_owned()),
            );
            let valid = self.names.iter().map(|n| (*n).to_owned()).collect();
            e.insert(ContextKind::ValidValue, ContextValue::Strings(valid));
            e
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(*n))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every option of the library's table is a flag of `tof`, named `--max-rows` for
    /// `max_rows`, taking the value its kind says (a name of the library's list, or none for
    /// a flag that turns it on).
    #[test]
    fn every_option_of_the_table_is_a_flag() {
        use tool_output_format::{OPTION_KEYS, OptionKind};
        let mut cmd = Cli::command();
        cmd.build();
        for key in OPTION_KEYS {
            let flag = key.name.replace('_', "-");
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_long() == Some(flag.as_str()))
                .unwrap_or_else(|| panic!("tof has no flag --{flag} for the option {}", key.name));
            assert!(arg.get_help().is_some(), "--{flag} has no help");
            let takes_value = arg.get_action().takes_values();
            match key.kind {
                OptionKind::Flag => assert!(!takes_value, "--{flag} takes no value"),
                OptionKind::OneOf(names) => {
                    let values: Vec<String> = arg
                        .get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_owned())
                        .collect();
                    assert_eq!(values, names, "--{flag}'s values");
                }
                _ => assert!(takes_value, "--{flag} takes a value"),
            }
        }
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
        assert_eq!(cli.layout, Some(Layout::Compact));
        assert_eq!(cli.max_rows, Some(5));
        assert_eq!(cli.strategy, Strategy::HeadTail);
        assert_eq!(cli.file, Some(PathBuf::from("in.json")));
        // The library's own name is taken too, and the defaults are the library's.
        let named = Cli::try_parse_from(["tof", "--strategy", "head_tail"]).unwrap();
        assert_eq!(named.strategy, Strategy::HeadTail);
        assert_eq!((named.detail, named.layout), (Detail::Summary, None));
        let err = Cli::try_parse_from(["tof", "--layout", "wide"]).unwrap_err();
        assert!(
            err.to_string()
                .contains("[possible values: aligned, compact, csv]"),
            "{err}"
        );
    }
}
