//! The proxy's settings: the TOML config file (SPEC 21) and the command-line flags, read into
//! one [`Settings`] that holds the library's [`Formatter`] (defaults and per-tool
//! [`ToolOptions`]), the store choice, the fetch tool's name and the per-call timeout.
//!
//! ```toml
//! [defaults]            # every key optional; the names are the options' snake_case names
//! agent = true
//! max_tokens = 8000
//! store = "memory"
//!
//! [tools.search_issues] # one table per upstream tool
//! max_rows = 20
//! redact_keys = ["token"]
//! shape = { keep = ["number", "title", "state", "user.login"] }   # or shape = "shapes/issues.toml"
//! ```
//!
//! Option keys, in `[defaults]` and in a `[tools.NAME]` table: every key of the library's
//! options table ([`OPTION_KEYS`]: `max_lines`, `max_rows`, `max_cell_chars`, `max_chars`,
//! `max_tokens`, `layout`, `strategy`, `redact_keys`, `shape`, `summarize`, `sum`, `detail`,
//! `salience`), each value read by the library ([`ToolOptions::set`]); `shape` is an inline
//! table or a shape file's path, relative to the config file. The proxy's own: `query_arg`
//! (the name of the tool's argument whose text focuses the result, `Formatter::focus`; `""`
//! turns it off for a tool), `structured_content` (`"fit"`, default; `"keep"`; `"drop"`: what becomes of
//! upstream's `structuredContent`, [`StructuredContent`]). Only in `[defaults]`:
//! `agent` (default true), `store` (`"memory"`, default; `"none"`; or a `redis://` URL),
//! `fetch_tool` (default `get_stored_result`) and `timeout` (seconds per upstream call,
//! default 60). Flags win over `[defaults]`; a tool's table wins over both.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use tool_output_format::{Formatter, OPTION_KEYS, OptionKey, OptionKind, Shape, ToolOptions};

/// The fetch tool's name unless `--fetch-tool` or `fetch_tool` names another (SPEC 19, 21).
pub const DEFAULT_FETCH_TOOL: &str = "get_stored_result";
/// The token budget of every result when neither a character nor a token budget is set.
pub const DEFAULT_MAX_TOKENS: usize = 10_000;
/// Seconds an upstream call may take before the host gets an error.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// How long a stored full result stays fetchable.
pub const STORE_TTL: Duration = Duration::from_secs(3600);

/// The flags of `tof proxy` that set defaults.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// `--agent`.
    pub agent: bool,
    /// `--max-chars N`.
    pub max_chars: Option<usize>,
    /// `--max-tokens N`.
    pub max_tokens: Option<usize>,
    /// `--store memory|none|redis://HOST:PORT`.
    pub store: Option<String>,
    /// `--fetch-tool NAME`.
    pub fetch_tool: Option<String>,
    /// `--timeout SECS`.
    pub timeout: Option<u64>,
    /// `--structured-content keep|drop|fit`.
    pub structured_content: Option<String>,
}

/// What the proxy does with upstream's `structuredContent` (`structured_content` in the
/// config, `--structured-content`).
///
/// Several hosts give the model `structuredContent` in place of the text when a result has
/// one (Claude Code, VS Code's and the Copilot CLI's agents): a whole `structuredContent`
/// beside a cut text would bring the whole result back into the model's context. A host
/// that validates results (the MCP SDKs' clients) rejects a result without
/// `structuredContent` from a tool that declares an `outputSchema`; so wherever the proxy may
/// leave it out (`fit`, `drop`), it lists the tool without its `outputSchema`, and what it
/// sends is upstream's data unchanged, valid against that schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StructuredContent {
    /// Sent when the text was not cut and its JSON is within the tool's budget, left out
    /// otherwise (the model reads the budgeted text and its `Next:` line). The default.
    #[default]
    Fit,
    /// Always sent as upstream sent it (the tool's `outputSchema` listed as upstream lists
    /// it).
    Keep,
    /// Never sent.
    Drop,
}

impl StructuredContent {
    /// The names, as the config and the flag take them.
    pub const NAMES: &'static [&'static str] = &["fit", "keep", "drop"];

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            StructuredContent::Fit => "fit",
            StructuredContent::Keep => "keep",
            StructuredContent::Drop => "drop",
        }
    }

    fn parse(text: &str, file: &str, at: &str) -> Result<Self, String> {
        match text {
            "fit" => Ok(StructuredContent::Fit),
            "keep" => Ok(StructuredContent::Keep),
            "drop" => Ok(StructuredContent::Drop),
            other => Err(format!(
                "{file}: {at}: structured_content `{other}`: expected one of {}",
                Self::NAMES.join(", ")
            )),
        }
    }
}

/// A tool's budget, as the formatter has it (both bounds apply when both are set): `fit`
/// sends `structuredContent` only when its JSON is within it too.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    /// `max_chars`.
    pub chars: Option<usize>,
    /// `max_tokens` (o200k).
    pub tokens: Option<usize>,
}

impl Budget {
    /// Whether `text` is within the budget (no budget: anything is).
    pub fn holds(&self, text: &str) -> bool {
        use tool_output_format::{O200k, TokenCounter};
        self.chars.is_none_or(|n| text.chars().count() <= n)
            && self.tokens.is_none_or(|n| O200k.count(text) <= n)
    }
}

/// What becomes of each tool's `structuredContent`, and each tool's budget.
#[derive(Debug, Clone, Default)]
pub struct StructuredPolicy {
    default: StructuredContent,
    tools: BTreeMap<String, StructuredContent>,
    budget: Budget,
    budgets: BTreeMap<String, Budget>,
}

impl StructuredPolicy {
    /// The choice for `tool`; a tool that redacts keys never sends it (the proxy can not
    /// redact upstream's data in place and keep it valid).
    pub fn for_tool(&self, tool: &str, redacting: bool) -> StructuredContent {
        if redacting {
            return StructuredContent::Drop;
        }
        self.tools.get(tool).copied().unwrap_or(self.default)
    }

    /// `tool`'s budget: its table's `max_chars` and `max_tokens` over the defaults'.
    pub fn budget(&self, tool: &str) -> Budget {
        self.budgets.get(tool).copied().unwrap_or(self.budget)
    }
}

/// Where cut results are kept for the fetch tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreChoice {
    /// No store: no fetch tool, a cut result says what it left out and nothing more.
    None,
    /// The library's `MemoryStore` (this process only).
    Memory,
    /// The library's `RedisStore` at this URL (shared by several proxies).
    Redis(String),
}

/// Everything the proxy needs, resolved once at start.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The formatter: defaults and per-tool options, no store yet.
    pub formatter: Formatter,
    /// The tools named by `[tools.NAME]` tables, to check against the upstream's list.
    pub tools: Vec<String>,
    /// Tools whose results are redacted (`redact_keys` in their table or in `[defaults]`):
    /// their `structuredContent` and `outputSchema` are dropped, since the proxy can not
    /// redact upstream data in place and keep it valid against upstream's schema.
    pub redacting: Redacting,
    /// The store.
    pub store: StoreChoice,
    /// The fetch tool's name.
    pub fetch_tool: String,
    /// Bound on each upstream call.
    pub timeout: Duration,
    /// The argument of each tool whose text focuses its result.
    pub query_args: QueryArgs,
    /// What becomes of each tool's `structuredContent`.
    pub structured: StructuredPolicy,
}

/// The argument of each tool whose text focuses its result (`query_arg`): the call's value of
/// it is the query of [`Formatter::focus`].
#[derive(Debug, Clone, Default)]
pub struct QueryArgs {
    default: Option<String>,
    tools: BTreeMap<String, String>,
}

impl QueryArgs {
    /// The query a call of `tool` carries: its query argument's text, when the argument is
    /// configured and its value is a string that is not blank.
    pub fn query<'a>(
        &self,
        tool: &str,
        args: Option<&'a serde_json::Map<String, serde_json::Value>>,
    ) -> Option<&'a str> {
        let name = self.tools.get(tool).or(self.default.as_ref())?;
        args?
            .get(name)?
            .as_str()
            .map(str::trim)
            .filter(|q| !q.is_empty())
    }
}

/// Which tools redact keys.
#[derive(Debug, Clone, Default)]
pub struct Redacting {
    all: bool,
    tools: Vec<String>,
}

impl Redacting {
    /// Whether `tool`'s results have keys to redact.
    pub fn applies_to(&self, tool: &str) -> bool {
        self.all || self.tools.iter().any(|t| t == tool)
    }
}

/// One table of the file: `[defaults]` or `[tools.NAME]`: the proxy's own keys, and the
/// options of the library's table as written (the library reads them, in [`options`]).
#[derive(Debug, Default)]
struct Table {
    agent: Option<bool>,
    store: Option<String>,
    fetch_tool: Option<String>,
    timeout: Option<u64>,
    query_arg: Option<String>,
    structured_content: Option<String>,
    options: Vec<(&'static OptionKey, toml::Value)>,
}

/// The proxy's own keys of a table (the others are [`OPTION_KEYS`]).
const PROXY_KEYS: [&str; 6] = [
    "agent",
    "store",
    "fetch_tool",
    "timeout",
    "query_arg",
    "structured_content",
];

/// Every key a table takes, for the unknown-key message.
const TABLE_KEYS: [&str; PROXY_KEYS.len() + OPTION_KEYS.len()] = {
    let mut out = [""; PROXY_KEYS.len() + OPTION_KEYS.len()];
    let mut i = 0;
    while i < PROXY_KEYS.len() {
        out[i] = PROXY_KEYS[i];
        i += 1;
    }
    while i < out.len() {
        out[i] = OPTION_KEYS[i - PROXY_KEYS.len()].name;
        i += 1;
    }
    out
};

impl<'de> Deserialize<'de> for Table {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(TableVisitor)
    }
}

struct TableVisitor;

impl<'de> Visitor<'de> for TableVisitor {
    type Value = Table;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of options")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Table, A::Error> {
        let mut t = Table::default();
        while let Some(key) = map.next_key_seed(TableKey)? {
            match key {
                Key::Option(option) => t.options.push((option, map.next_value()?)),
                Key::Proxy("agent") => t.agent = Some(map.next_value()?),
                Key::Proxy("store") => t.store = Some(map.next_value()?),
                Key::Proxy("fetch_tool") => t.fetch_tool = Some(map.next_value()?),
                Key::Proxy("timeout") => t.timeout = Some(map.next_value()?),
                Key::Proxy("query_arg") => t.query_arg = Some(map.next_value()?),
                Key::Proxy(_) => t.structured_content = Some(map.next_value()?),
            }
        }
        Ok(t)
    }
}

/// A key of a table: the proxy's own or an option.
enum Key {
    Proxy(&'static str),
    Option(&'static OptionKey),
}

/// Reads a key of a table; an unknown one fails at its place, naming the known ones.
struct TableKey;

impl<'de> DeserializeSeed<'de> for TableKey {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        let name = String::deserialize(d)?;
        if let Some(k) = PROXY_KEYS.iter().find(|k| **k == name) {
            return Ok(Key::Proxy(k));
        }
        OptionKey::find(&name)
            .map(Key::Option)
            .ok_or_else(|| de::Error::unknown_field(&name, &TABLE_KEYS))
    }
}

/// The whole file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    defaults: Table,
    #[serde(default)]
    tools: BTreeMap<String, Table>,
}

/// Read the settings from the config file (if any) and the flags. `name` is the file as
/// given (used in messages), `dir` the folder shape paths are relative to.
///
/// # Errors
///
/// A message naming the file, the table and the key: TOML syntax, an unknown key, a bad
/// value (listing the valid ones), a shape file that can not be read.
pub fn settings(file: Option<(&str, &str, &Path)>, flags: &Flags) -> Result<Settings, String> {
    let (name, parsed) = match file {
        Some((name, text, _)) => (
            name,
            toml::from_str::<File>(text).map_err(|e| toml_error(name, text, &e))?,
        ),
        None => ("<no config>", File::default()),
    };
    let dir = file.map_or_else(PathBuf::new, |(_, _, dir)| dir.to_path_buf());
    let d = &parsed.defaults;
    let agent = flags.agent || d.agent.unwrap_or(true);
    let mut formatter = if agent {
        Formatter::for_agents()
    } else {
        Formatter::new()
    };
    let mut defaults = options(d, name, "[defaults]", &dir)?;
    if let Some(n) = flags.max_chars {
        defaults = defaults.max_chars(n);
    }
    if let Some(n) = flags.max_tokens {
        defaults = defaults.max_tokens(n);
    }
    let budget_set = defaults
        .get_max_chars()
        .or(defaults.get_max_tokens())
        .is_some();
    if agent && !budget_set {
        defaults = defaults.max_tokens(DEFAULT_MAX_TOKENS);
    }
    let budget = Budget {
        chars: defaults.get_max_chars(),
        tokens: defaults.get_max_tokens(),
    };
    let mut redacting = Redacting {
        all: defaults.redacts(),
        tools: Vec::new(),
    };
    formatter = formatter.defaults(defaults);
    let mut query_args = QueryArgs {
        default: d.query_arg.clone(),
        tools: BTreeMap::new(),
    };
    let mut structured = StructuredPolicy {
        budget,
        ..StructuredPolicy::default()
    };
    if let Some(sc) = &flags.structured_content {
        structured.default = StructuredContent::parse(sc, "--structured-content", "the flag")?;
    } else if let Some(sc) = &d.structured_content {
        structured.default = StructuredContent::parse(sc, name, "[defaults]")?;
    }
    for (tool, table) in &parsed.tools {
        let at = format!("[tools.{tool}]");
        for (key, set) in [
            ("agent", table.agent.is_some()),
            ("store", table.store.is_some()),
            ("fetch_tool", table.fetch_tool.is_some()),
            ("timeout", table.timeout.is_some()),
        ] {
            if set {
                return Err(format!(
                    "{name}: {at}: `{key}` is set for every tool: move it to [defaults]"
                ));
            }
        }
        let tool_options = options(table, name, &at, &dir)?;
        if tool_options.redacts() {
            redacting.tools.push(tool.clone());
        }
        if let Some(arg) = &table.query_arg {
            query_args.tools.insert(tool.clone(), arg.clone());
        }
        if let Some(sc) = &table.structured_content {
            let sc = StructuredContent::parse(sc, name, &at)?;
            structured.tools.insert(tool.clone(), sc);
        }
        let (chars, tokens) = (tool_options.get_max_chars(), tool_options.get_max_tokens());
        if chars.or(tokens).is_some() {
            let b = Budget {
                chars: chars.or(budget.chars),
                tokens: tokens.or(budget.tokens),
            };
            structured.budgets.insert(tool.clone(), b);
        }
        formatter = formatter.tool(tool.clone(), tool_options);
    }
    let store = match flags.store.as_deref().or(d.store.as_deref()) {
        None | Some("memory") => StoreChoice::Memory,
        Some("none") => StoreChoice::None,
        Some(url) if url.starts_with("redis://") || url.starts_with("rediss://") => {
            StoreChoice::Redis(url.to_owned())
        }
        Some(other) => {
            return Err(format!(
                "{name}: store `{other}`: expected `memory`, `none` or a redis:// URL \
                 (redis://HOST:PORT)"
            ));
        }
    };
    let fetch_tool = flags
        .fetch_tool
        .clone()
        .or_else(|| d.fetch_tool.clone())
        .unwrap_or_else(|| DEFAULT_FETCH_TOOL.to_owned());
    if fetch_tool.is_empty() {
        return Err(format!("{name}: the fetch tool's name is empty"));
    }
    let timeout = flags.timeout.or(d.timeout).unwrap_or(DEFAULT_TIMEOUT_SECS);
    if timeout == 0 {
        return Err(format!(
            "{name}: timeout 0: give the seconds an upstream call may take"
        ));
    }
    Ok(Settings {
        formatter,
        tools: parsed.tools.keys().cloned().collect(),
        redacting,
        store,
        fetch_tool,
        timeout: Duration::from_secs(timeout),
        query_args,
        structured,
    })
}

/// A TOML error as one line, `FILE:LINE:COLUMN: message` (the place of the bad key or value).
fn toml_error(name: &str, text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim_end().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("{name}:{line}:{column}: {message}")
        }
        None => format!("{name}: {message}"),
    }
}

/// One table's options as the library's [`ToolOptions`], each value read by the library
/// ([`ToolOptions::set`]); a `shape` may also be a shape file's path ([`shape_of`]).
fn options(t: &Table, file: &str, at: &str, dir: &Path) -> Result<ToolOptions, String> {
    let mut o = ToolOptions::new();
    for (key, value) in &t.options {
        if key.kind == OptionKind::Shape {
            o = o.shape(shape_of(value, file, at, dir)?);
            continue;
        }
        o = o
            .set(key.name, value.clone())
            .map_err(|e| match (key.kind, value) {
                (OptionKind::OneOf(names), toml::Value::String(text)) => format!(
                    "{file}: {at}: {} `{text}` is not one of: {}",
                    key.name,
                    names.join(", ")
                ),
                _ => format!("{file}: {at}: {}: {}", key.name, e.message()),
            })?;
    }
    Ok(o)
}

/// `shape = { keep = [...] }` (an inline table) or `shape = "FILE"` (a shape file, JSON or
/// TOML, relative to the config file).
fn shape_of(v: &toml::Value, file: &str, at: &str, dir: &Path) -> Result<Shape, String> {
    match v {
        toml::Value::String(path) => {
            let path = dir.join(path);
            crate::shape::load(&path).map_err(|e| format!("{file}: {at}: shape: {e}"))
        }
        toml::Value::Table(_) => {
            let json = serde_json::to_value(v).map_err(|e| format!("{file}: {at}: shape: {e}"))?;
            let shape = Shape::from_value(&json).map_err(|e| format!("{file}: {at}: {e}"))?;
            shape.check().map_err(|e| format!("{file}: {at}: {e}"))?;
            Ok(shape)
        }
        other => Err(format!(
            "{file}: {at}: shape is a {}: give an inline table (shape = {{ keep = [...] }}) \
             or a shape file's path",
            other.type_str()
        )),
    }
}

/// Check the `[tools.NAME]` tables against the upstream's tools: a name that matches none is
/// an error naming the nearest one (the library's [`Formatter::near_miss`] over the
/// upstream's names), else listing them. The fetch tool's name must not be an upstream tool.
///
/// # Errors
///
/// The message for the host's log and standard error.
pub fn check_tools(
    configured: &[String],
    upstream: &[String],
    fetch_tool: Option<&str>,
    file: &str,
) -> Result<(), String> {
    if let Some(fetch) = fetch_tool
        && upstream.iter().any(|t| t == fetch)
    {
        return Err(format!(
            "the upstream has a tool named `{fetch}`, the proxy's fetch tool: name the fetch \
             tool otherwise with --fetch-tool NAME (or fetch_tool in [defaults])"
        ));
    }
    let known = upstream.iter().fold(Formatter::new(), |f, t| {
        f.tool(t.clone(), ToolOptions::new())
    });
    for name in configured {
        if upstream.iter().any(|t| t == name) {
            continue;
        }
        return Err(match known.near_miss(name) {
            Some(near) => format!(
                "{file}: [tools.{name}] names no tool of the upstream: did you mean \
                 [tools.{near}]?"
            ),
            None => format!(
                "{file}: [tools.{name}] names no tool of the upstream; its tools are: {}",
                upstream.join(", ")
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Settings, String> {
        settings(Some(("p.toml", text, Path::new("."))), &Flags::default())
    }

    #[test]
    fn the_spec_example_maps_onto_the_library() {
        let s = parse(
            r#"
[defaults]
agent = true
max_tokens = 8000
store = "memory"

[tools.search_issues]
max_rows = 2
redact_keys = ["token"]
shape = { keep = ["number", "title", "state", "user.login"] }
"#,
        )
        .unwrap();
        assert_eq!(s.store, StoreChoice::Memory);
        assert_eq!(s.fetch_tool, "get_stored_result");
        assert_eq!(s.tools, ["search_issues"]);
        assert!(s.redacting.applies_to("search_issues"));
        assert!(!s.redacting.applies_to("other"));
        let rows = serde_json::json!([
            {"number": 1, "title": "a", "state": "open", "user": {"login": "ada"}, "token": "s3"},
            {"number": 2, "title": "b", "state": "open", "user": {"login": "bo"}, "token": "s3"},
            {"number": 3, "title": "c", "state": "closed", "user": {"login": "cy"}, "token": "s3"},
        ]);
        let md = s.formatter.format("search_issues", &rows);
        let expected = Formatter::for_agents()
            .max_tokens(8000)
            .tool(
                "search_issues",
                ToolOptions::new()
                    .max_rows(2)
                    .redact_keys(["token"])
                    .shape(Shape::new().keep(["number", "title", "state", "user.login"])),
            )
            .format("search_issues", &rows);
        assert_eq!(md, expected);
        assert!(md.starts_with("[Truncated to 2 rows of 3 total]"), "{md}");
        assert!(!md.contains("s3"));
    }

    #[test]
    fn out_of_the_box_is_the_agent_preset_with_a_token_budget() {
        let s = settings(None, &Flags::default()).unwrap();
        let v = serde_json::json!({"id": 1, "url": "https://api.github.com/x", "name": "n"});
        let expected = Formatter::for_agents().max_tokens(DEFAULT_MAX_TOKENS);
        assert_eq!(s.formatter.format("t", &v), expected.format("t", &v));
        assert_eq!(s.store, StoreChoice::Memory);
        assert_eq!(s.timeout, Duration::from_secs(DEFAULT_TIMEOUT_SECS));
        // A budget from the flags replaces the default one.
        let flags = Flags {
            max_chars: Some(300),
            store: Some("none".into()),
            fetch_tool: Some("more".into()),
            ..Flags::default()
        };
        let s = settings(None, &flags).unwrap();
        let rows: Vec<_> = (0..100).map(|i| serde_json::json!({"id": i})).collect();
        let md = s.formatter.format("t", &rows);
        assert!(md.chars().count() <= 300, "{md}");
        assert_eq!(
            (s.store, s.fetch_tool.as_str()),
            (StoreChoice::None, "more")
        );
    }

    #[test]
    fn query_arg_names_the_argument_that_focuses_a_tool_s_result() {
        let s = parse(
            r#"
            [defaults]
            query_arg = "query"
            [tools.search_code]
            query_arg = "q"
            [tools.get_file]
            query_arg = ""
            "#,
        )
        .unwrap();
        let args = |v: serde_json::Value| v.as_object().cloned().unwrap();
        let q = &s.query_args;
        let call = args(serde_json::json!({"query": " refund ", "q": "vpn", "n": 3}));
        assert_eq!(q.query("list_issues", Some(&call)), Some("refund"));
        assert_eq!(q.query("search_code", Some(&call)), Some("vpn"));
        assert_eq!(q.query("get_file", Some(&call)), None);
        assert_eq!(q.query("list_issues", None), None);
        let blank = args(serde_json::json!({"query": "  ", "n": 3}));
        assert_eq!(q.query("list_issues", Some(&blank)), None);
        let number = args(serde_json::json!({"query": 7}));
        assert_eq!(q.query("list_issues", Some(&number)), None);
        let none = settings(None, &Flags::default()).unwrap();
        assert_eq!(none.query_args.query("list_issues", Some(&call)), None);
    }

    #[test]
    fn a_shape_s_essential_and_minor_keys_parse_inline_and_from_a_file() {
        let file = |text: &str| -> toml::Value {
            toml::from_str::<toml::Table>(text).unwrap()["shape"].clone()
        };
        let want = Shape::new()
            .keep(["number", "title", "etag"])
            .essential(["title"])
            .minor(["etag"]);
        let inline = file(
            r#"shape = { keep = ["number", "title", "etag"], essential = ["title"], minor = ["etag"] }"#,
        );
        let shape = shape_of(&inline, "p.toml", "[tools.t]", Path::new("."));
        assert_eq!(shape.unwrap(), want);
        let dir = std::env::temp_dir();
        let name = format!("tof-config-marks-{}.toml", std::process::id());
        std::fs::write(
            dir.join(&name),
            "keep = [\"number\", \"title\", \"etag\"]\nessential = [\"title\"]\nminor = [\"etag\"]\n",
        )
        .unwrap();
        let from_file = file(&format!("shape = {name:?}"));
        let shape = shape_of(&from_file, "p.toml", "[tools.t]", &dir);
        std::fs::remove_file(dir.join(&name)).unwrap();
        assert_eq!(shape.unwrap(), want);
        // In a whole config, and with the shape file's own errors.
        assert!(parse("[tools.t]\nshape = { essential = [\"id\"], minor = [\"etag\"] }").is_ok());
        let err =
            parse("[tools.t]\nshape = { essential = [\"id\"], minor = [\"id\"] }").unwrap_err();
        assert_eq!(
            err,
            "p.toml: [tools.t]: shape minor[0]: `id` is marked both essential and minor; give it one mark"
        );
        let err = parse("[tools.t]\nshape = { esential = [\"id\"] }").unwrap_err();
        assert!(
            err.contains("shape \"esential\": unknown key; a shape file has the keys"),
            "{err}"
        );
    }

    #[test]
    fn structured_content_and_the_budget_it_is_held_to_per_tool() {
        let s = parse(
            "[defaults]\nmax_chars = 300\nstructured_content = \"keep\"\n\n\
             [tools.t]\nmax_tokens = 50\nstructured_content = \"drop\"\n",
        )
        .unwrap();
        let p = &s.structured;
        assert_eq!(p.for_tool("t", false), StructuredContent::Drop);
        assert_eq!(p.for_tool("u", false), StructuredContent::Keep);
        assert_eq!(p.for_tool("u", true), StructuredContent::Drop, "redacting");
        let both = Budget {
            chars: Some(300),
            tokens: Some(50),
        };
        assert_eq!(p.budget("t"), both);
        let chars = Budget {
            chars: Some(300),
            tokens: None,
        };
        assert_eq!(p.budget("u"), chars);
        // Out of the box: fit, held to the preset's 10,000 tokens; the flag wins over the file.
        let s = settings(None, &Flags::default()).unwrap();
        assert_eq!(s.structured.for_tool("u", false), StructuredContent::Fit);
        assert_eq!(s.structured.budget("u").tokens, Some(DEFAULT_MAX_TOKENS));
        let flags = Flags {
            structured_content: Some("drop".into()),
            ..Flags::default()
        };
        let text = "[defaults]\nstructured_content = \"keep\"\n";
        let s = settings(Some(("p.toml", text, Path::new("."))), &flags).unwrap();
        assert_eq!(s.structured.for_tool("u", false), StructuredContent::Drop);
        let err = parse("[defaults]\nstructured_content = \"all\"\n").unwrap_err();
        assert!(err.contains("expected one of fit, keep, drop"), "{err}");
    }

    #[test]
    fn bad_config_says_where_and_how_to_fix() {
        let cases = [
            (
                "[defaults]\nmax_row = 3",
                "p.toml:2:1: unknown field `max_row`",
            ),
            (
                "[tools.t]\nlayout = \"wide\"",
                "p.toml: [tools.t]: layout `wide` is not one of: aligned, compact, csv",
            ),
            (
                "[tools.t]\nstore = \"memory\"",
                "p.toml: [tools.t]: `store` is set for every tool: move it to [defaults]",
            ),
            (
                "[defaults]\nstore = \"disk\"",
                "p.toml: store `disk`: expected `memory`, `none` or a redis:// URL",
            ),
            (
                "[tools.t]\nshape = 3",
                "p.toml: [tools.t]: shape is a integer",
            ),
            ("[tools.t]\nshape = { keep = 3 }", "p.toml: [tools.t]: "),
            (
                "[tools.t]\nshape = \"missing.toml\"",
                "p.toml: [tools.t]: shape: ",
            ),
            ("[defaults\n", "p.toml:1:10: unclosed table, expected `]`"),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        assert!(parse("[tools.t]\nstrategy = \"head-tail\"\ndetail = \"full\"").is_ok());
    }

    /// Every option of the library's table is a key of `[defaults]` and of `[tools.NAME]`,
    /// and reaches the formatter: the table's options are what the library reads from the
    /// same value.
    #[test]
    fn every_option_of_the_table_is_a_key() {
        for key in OPTION_KEYS {
            let (toml_value, json) = match key.kind {
                OptionKind::Count => ("5".to_owned(), serde_json::json!(5)),
                OptionKind::Flag => ("true".to_owned(), serde_json::json!(true)),
                OptionKind::OneOf(names) => {
                    (format!("{:?}", names[1]), serde_json::json!(names[1]))
                }
                OptionKind::List => ("[\"a\"]".to_owned(), serde_json::json!(["a"])),
                OptionKind::Shape => (
                    "{ keep = [\"id\"] }".to_owned(),
                    serde_json::json!({"keep": ["id"]}),
                ),
                other => panic!("the proxy's test has no value for {other:?}"),
            };
            let want = ToolOptions::new().set(key.name, json).unwrap();
            assert_ne!(want, ToolOptions::new(), "{}", key.name);
            for at in ["[defaults]", "[tools.t]"] {
                let text = format!("{at}\n{} = {toml_value}\n", key.name);
                let file: File = toml::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: not a key of the proxy: {e}", key.name));
                let table = file.tools.get("t").unwrap_or(&file.defaults);
                let got = options(table, "p.toml", at, Path::new(".")).unwrap();
                assert_eq!(got, want, "{} in {at}", key.name);
                assert!(parse(&text).is_ok(), "{text}");
            }
        }
    }

    #[test]
    fn a_table_naming_no_upstream_tool_names_the_nearest() {
        let up = ["search_issues".to_owned(), "get_repo".to_owned()];
        let err = check_tools(&["search_isues".into()], &up, None, "p.toml").unwrap_err();
        assert_eq!(
            err,
            "p.toml: [tools.search_isues] names no tool of the upstream: did you mean \
             [tools.search_issues]?"
        );
        let err = check_tools(&["weather".into()], &up, None, "p.toml").unwrap_err();
        assert!(
            err.ends_with("its tools are: search_issues, get_repo"),
            "{err}"
        );
        assert!(check_tools(&["get_repo".into()], &up, Some("get_stored_result"), "p").is_ok());
        let err = check_tools(&[], &up, Some("get_repo"), "p").unwrap_err();
        assert!(err.contains("--fetch-tool"), "{err}");
    }
}
