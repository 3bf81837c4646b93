//! The command line: flags, help text and their checks (clap derive for `tof`'s own flags,
//! the builder for the options' flags, made from the library's table: [`OptionFlags`]).

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, ArgMatches, Command, Parser};
use serde_json::Value;
use tool_output_format::{OPTION_KEYS, OptionKey, OptionKind, ToolOptions};

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

    /// The agent preset (`Formatter::for_agents()`): machine-only fields (API URLs, node ids)
    /// and empty fields folded out of the view and named in one left-out line, nested objects
    /// flattened in tables, compact layout.
    #[arg(long)]
    pub agent: bool,

    /// The library's options, one flag each, made from its table (`OPTION_KEYS`): see
    /// [`OptionFlags`].
    #[command(flatten)]
    pub options: OptionFlags,

    /// Shape file: a JSON object, or TOML for a FILE ending in .toml, with the keys keep, drop,
    /// rename, convert, drop_empty, flatten, essential, minor.
    #[arg(long, value_name = "FILE")]
    pub shape: Option<PathBuf>,

    /// Treat the input as NDJSON (one JSON object per line), even a single line.
    #[arg(long)]
    pub ndjson: bool,

    /// Print the size report (characters, bytes, tokens, rows kept) on standard error.
    #[arg(long)]
    pub report: bool,

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

/// The flags made from the library's options table (`OPTION_KEYS`): one per option, named
/// `--max-rows` for `max_rows`, with the table's doc line as its help; each value is read by
/// the library (`ToolOptions::set`), the one place option values are read. A new option of the
/// table is a flag of `tof` with no edit here.
///
/// By kind: a count takes `N`; a one-of takes one of its names (`--strategy head-tail` reads as
/// `head_tail`, as the library reads it); a list takes names, comma-separated or the flag
/// repeated; a flag takes no value and turns the option on. The one option written by hand is
/// `shape`: on the command line it is a shape file's path (`--shape FILE`, read by
/// [`crate::shape::load`]), not the shape's object the table's kind takes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OptionFlags(pub ToolOptions);

/// The options of the table that are flags made from it (all but `shape`, see [`OptionFlags`]).
fn generated() -> impl Iterator<Item = &'static OptionKey> {
    OPTION_KEYS
        .iter()
        .filter(|k| !matches!(k.kind, OptionKind::Shape))
}

/// The flag of one option of the table.
fn flag(key: &'static OptionKey) -> Arg {
    let arg = Arg::new(key.name)
        .long(key.name.replace('_', "-"))
        .help(key.doc);
    match key.kind {
        OptionKind::Flag => arg.action(ArgAction::SetTrue),
        OptionKind::List => arg
            .help(format!("{}; comma-separated or the flag repeated", key.doc))
            .value_name("NAMES")
            .action(ArgAction::Append)
            .value_delimiter(',')
            .value_parser(OptionValue(key)),
        OptionKind::OneOf(_) => arg.value_name("NAME").value_parser(OptionValue(key)),
        _ => arg.value_name("N").value_parser(OptionValue(key)),
    }
}

impl clap::Args for OptionFlags {
    fn augment_args(cmd: Command) -> Command {
        cmd.args(generated().map(flag))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for OptionFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut o = OptionFlags::default();
        o.update_from_arg_matches(m)?;
        Ok(o)
    }

    /// Each flag given, in the table's order, set by the library.
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for key in generated() {
            let value = match key.kind {
                OptionKind::Flag => m.get_flag(key.name).then_some(Value::Bool(true)),
                OptionKind::List => m
                    .get_many::<Value>(key.name)
                    .map(|v| Value::Array(v.cloned().collect())),
                _ => m.get_one::<Value>(key.name).cloned(),
            };
            if let Some(value) = value {
                let options = std::mem::take(&mut self.0);
                self.0 = options.set(key.name, value).map_err(|e| {
                    clap::Error::raw(
                        ErrorKind::ValueValidation,
                        format!("--{}: {e}\n", key.name.replace('_', "-")),
                    )
                })?;
            }
        }
        Ok(())
    }
}

/// A flag's value as the library's option `key` takes it, checked by the library
/// (`ToolOptions::set`): a count as a number, a name or a list's item as a string.
#[derive(Clone, Copy)]
struct OptionValue(&'static OptionKey);

impl TypedValueParser for OptionValue {
    type Value = Value;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Value, clap::Error> {
        let text = value.to_string_lossy();
        let key = self.0;
        let v = match key.kind {
            // Not a number: the library's count message says what a count is.
            OptionKind::Count => text
                .parse::<i64>()
                .map_or_else(|_| Value::String(text.clone().into_owned()), Value::from),
            // A list's items are checked when the list is set, whole.
            OptionKind::List => return Ok(Value::String(text.into_owned())),
            _ => Value::String(text.clone().into_owned()),
        };
        let Err(e) = ToolOptions::new().set(key.name, v.clone()) else {
            return Ok(v);
        };
        let arg = arg.map_or_else(|| format!("--{}", key.name), ToString::to_string);
        if let OptionKind::OneOf(names) = key.kind {
            // clap's own message for a value not among the possible ones, which it lists.
            let mut err = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            err.insert(ContextKind::InvalidArg, ContextValue::String(arg));
            err.insert(
                ContextKind::InvalidValue,
                ContextValue::String(text.into_owned()),
            );
            let valid = names.iter().map(|n| (*n).to_owned()).collect();
            err.insert(ContextKind::ValidValue, ContextValue::Strings(valid));
            return Err(err);
        }
        let message = format!("invalid value '{text}' for '{arg}': {e}");
        Err(clap::Error::raw(ErrorKind::ValueValidation, message).format(&mut cmd.clone()))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        match self.0.kind {
            OptionKind::OneOf(names) => {
                Some(Box::new(names.iter().map(|n| PossibleValue::new(*n))))
            }
            _ => None,
        }
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

    /// Every flag made from the table sets its option as the library reads it: the same
    /// options as `ToolOptions::set` with the flag's value.
    #[test]
    fn every_generated_flag_reaches_the_options() {
        use serde_json::json;
        for key in generated() {
            let flag = format!("--{}", key.name.replace('_', "-"));
            let (args, value) = match key.kind {
                OptionKind::Count => (vec![flag, "3".into()], json!(3)),
                OptionKind::Flag => (vec![flag], json!(true)),
                OptionKind::OneOf(names) => (vec![flag, names[1].into()], json!(names[1])),
                OptionKind::List => (
                    vec![flag.clone(), "a,b".into(), flag, "c".into()],
                    json!(["a", "b", "c"]),
                ),
                _ => unreachable!("{} is not a generated flag", key.name),
            };
            let cli = Cli::try_parse_from(std::iter::once("tof".to_owned()).chain(args)).unwrap();
            let want = ToolOptions::new().set(key.name, value).unwrap();
            assert_eq!(cli.options.0, want, "{}", key.name);
        }
    }

    #[test]
    fn flags_parse() {
        use tool_output_format::{Layout, Strategy};
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
            "--redact-keys",
            "token,password",
            "--redact-keys",
            "key",
            "--summarize",
            "in.json",
        ])
        .unwrap();
        assert_eq!(cli.tool.as_deref(), Some("t"));
        let want = ToolOptions::new()
            .max_rows(5)
            .layout(Layout::Compact)
            .strategy(Strategy::HeadTail)
            .redact_keys(["token", "password", "key"])
            .summarize(true);
        assert_eq!(cli.options.0, want);
        assert_eq!(cli.file, Some(PathBuf::from("in.json")));
        // The library's own name is taken too; a flag not given leaves its option unset.
        let named = Cli::try_parse_from(["tof", "--strategy", "head_tail"]).unwrap();
        assert_eq!(
            named.options.0,
            ToolOptions::new().strategy(Strategy::HeadTail)
        );
        let err = Cli::try_parse_from(["tof", "--layout", "wide"]).unwrap_err();
        assert!(
            err.to_string()
                .contains("[possible values: aligned, compact, csv]"),
            "{err}"
        );
        // A count's value is read by the library, which says what a count is.
        for bad in ["-1", "many"] {
            let flag = format!("--max-rows={bad}");
            let err = Cli::try_parse_from(["tof", flag.as_str()]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::ValueValidation, "{err}");
            assert!(
                err.to_string().starts_with(&format!(
                    "error: invalid value '{bad}' for '--max-rows <N>': "
                )),
                "{err}"
            );
        }
    }
}
