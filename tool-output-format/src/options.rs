//! Rendering options, set globally on a [`Formatter`](crate::Formatter) or per tool.

pub(crate) mod names;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::call::resolved::Resolved;
pub use crate::doc::notice::Strategy;
use crate::rules::detail::Detail;
use crate::rules::redact::Secrets;
use crate::shape::Shape;
pub use crate::sink::Layout;
use names::UnknownName;

/// Options for one tool, layered over the formatter's global options: a field left unset
/// inherits the global value.
///
/// ```
/// use tool_output_format::{Formatter, ToolOptions};
/// let fmt = Formatter::new().tool("read_log", ToolOptions::new().max_lines(2));
/// let md = fmt.format("read_log", "a\nb\nc");
/// assert!(md.starts_with("[Truncated to 2 lines of 3 total]"));
/// assert!(!fmt.format("other", "a\nb\nc").starts_with('['));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOptions {
    pub(crate) max_lines: Option<usize>,
    pub(crate) max_rows: Option<usize>,
    pub(crate) max_cell_chars: Option<usize>,
    pub(crate) max_chars: Option<usize>,
    pub(crate) max_tokens: Option<usize>,
    pub(crate) layout: Option<Layout>,
    pub(crate) strategy: Option<Strategy>,
    pub(crate) secrets: Secrets,
    pub(crate) shape: Option<Arc<Shape>>,
    pub(crate) summarize: Option<bool>,
    pub(crate) sum: Option<Vec<String>>,
    pub(crate) detail: Option<Detail>,
    pub(crate) salience: Option<bool>,
}

impl ToolOptions {
    /// Options that inherit everything.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Cap on string lines (and on table rows unless [`max_rows`](Self::max_rows) is set).
    #[must_use]
    pub fn max_lines(mut self, n: usize) -> Self {
        self.max_lines = Some(n);
        self
    }

    /// Cap on table rows (defaults to `max_lines`).
    #[must_use]
    pub fn max_rows(mut self, n: usize) -> Self {
        self.max_rows = Some(n);
        self
    }

    /// Cap on the characters of one table cell or record value; longer values are cut on a
    /// grapheme boundary and end with `…[+N chars]`.
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("t", ToolOptions::new().max_cell_chars(3));
    /// let v = serde_json::json!({"a": "abcdefghijklmnopqrstuvwxyz"});
    /// assert_eq!(fmt.format("t", &v), "**t result**\n\n- a: abc…[+23 chars]");
    /// ```
    #[must_use]
    pub fn max_cell_chars(mut self, n: usize) -> Self {
        self.max_cell_chars = Some(n);
        self
    }

    /// Budget for the whole output in characters (see [`Formatter::max_chars`](crate::Formatter::max_chars)).
    #[must_use]
    pub fn max_chars(mut self, n: usize) -> Self {
        self.max_chars = Some(n);
        self
    }

    /// Budget for the whole output in tokens (see `Formatter::max_tokens`).
    #[cfg(feature = "tokens")]
    #[must_use]
    pub fn max_tokens(mut self, n: usize) -> Self {
        self.max_tokens = Some(n);
        self
    }

    /// Table layout.
    #[must_use]
    pub fn layout(mut self, layout: Layout) -> Self {
        self.layout = Some(layout);
        self
    }

    /// Keys whose values render as `[redacted]` wherever they occur (case-insensitive,
    /// nested included). A tool's keys add to the formatter's global keys.
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("login", ToolOptions::new().redact_keys(["token"]));
    /// let v = serde_json::json!({"user": "ada", "Token": "s3cr3t"});
    /// assert_eq!(fmt.format("login", &v), "**login result**\n\n- user: ada\n- Token: [redacted]");
    /// ```
    #[must_use]
    pub fn redact_keys<I: IntoIterator<Item = S>, S: Into<String>>(mut self, keys: I) -> Self {
        self.secrets = self.secrets.union(&Secrets::new(keys));
        self
    }

    /// Shape this tool's results: keep, drop, rename, convert and flatten their fields before
    /// the model reads them (see [`Shape`]). It replaces the formatter's
    /// global shape ([`Formatter::shape`](crate::Formatter::shape)) for this tool: shapes are
    /// not merged, since a per-tool keep list and a global one cannot both hold. An empty
    /// `Shape::new()` here turns the global shape off for this tool.
    ///
    /// A `serde_json::Value` result is shaped while it is walked; a typed result is shaped
    /// through its JSON form ([`ToolOutput::to_json`](crate::ToolOutput::to_json)), so the
    /// type's own rendering attributes (`title`, `max_chars`, row caps) give way to the
    /// shape. A shape with mistakes ([`Shape::check`]) is accepted: its valid rules apply
    /// and the mistakes are listed in [`Report::shape_errors`](crate::Report::shape_errors);
    /// call `check` where you build the shape to fail early.
    ///
    /// ```
    /// use tool_output_format::{Convert, Formatter, Shape, ToolOptions};
    /// use serde_json::json;
    ///
    /// let shape = Shape::new()
    ///     .keep(["number", "title", "user.login", "created_at"])
    ///     .rename("user.login", "author")
    ///     .convert("created_at", Convert::Timestamp);
    /// shape.check().unwrap();
    /// let fmt = Formatter::new().tool("search_issues", ToolOptions::new().shape(shape));
    /// let issues = json!([
    ///     {"url": "https://api.example.com/1", "number": 1, "title": "Crash", "user": {"login": "ada", "id": 7},
    ///      "created_at": "2023-12-22T01:00:00+01:00"},
    /// ]);
    /// assert_eq!(
    ///     fmt.format("search_issues", &issues),
    ///     "| number | title | author | created_at           |\n\
    ///      |--------|-------|--------|----------------------|\n\
    ///      | 1      | Crash | ada    | 2023-12-22T00:00:00Z |"
    /// );
    /// ```
    #[must_use]
    pub fn shape(mut self, shape: Shape) -> Self {
        self.shape = Some(Arc::new(shape));
        self
    }

    /// Which lines of long strings to keep.
    #[must_use]
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = Some(strategy);
        self
    }

    /// Add a summary over all rows when the result's table is cut (see
    /// [`Formatter::summarize`](crate::Formatter::summarize)).
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("t", ToolOptions::new().max_rows(1).summarize(true));
    /// let md = fmt.format("t", &serde_json::json!([{"n": 1}, {"n": 5}]));
    /// assert!(md.ends_with("[Summary of all 2 rows]\n- n: 1 to 5"));
    /// ```
    #[must_use]
    pub fn summarize(mut self, on: bool) -> Self {
        self.summarize = Some(on);
        self
    }

    /// Columns whose numbers the summary also sums, exactly (a tool's list replaces the
    /// formatter's).
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let opts = ToolOptions::new().max_rows(1).summarize(true).sum(["amount"]);
    /// let fmt = Formatter::new().tool("t", opts);
    /// let md = fmt.format("t", &serde_json::json!([{"amount": 0.1}, {"amount": 0.2}]));
    /// assert!(md.ends_with("- amount: 0.1 to 0.2, sum 0.3"));
    /// ```
    #[must_use]
    pub fn sum<I: IntoIterator<Item = S>, S: Into<String>>(mut self, columns: I) -> Self {
        self.sum = Some(columns.into_iter().map(Into::into).collect());
        self
    }

    /// The detail level of derived records (default [`Detail::Summary`]; see
    /// [`Detail`]).
    ///
    /// ```
    /// use tool_output_format::{Detail, Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("get_issue", ToolOptions::new().detail(Detail::Full));
    /// # let _ = fmt;
    /// ```
    #[must_use]
    pub fn detail(mut self, detail: Detail) -> Self {
        self.detail = Some(detail);
        self
    }

    /// Keep what an agent needs under a budget (see
    /// [`Formatter::salience`](crate::Formatter::salience); on in the agent preset).
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("get_repo", ToolOptions::new().salience(true));
    /// let md = fmt.format("get_repo", &serde_json::json!({"fork": false, "name": "hello"}));
    /// assert_eq!(md, "**get_repo result**\n\n- name: hello\n- fork: false");
    /// ```
    #[must_use]
    pub fn salience(mut self, on: bool) -> Self {
        self.salience = Some(on);
        self
    }

    /// The line cap set here ([`max_lines`](Self::max_lines)), `None` when unset.
    ///
    /// ```
    /// use tool_output_format::ToolOptions;
    /// assert_eq!(ToolOptions::new().max_lines(5).get_max_lines(), Some(5));
    /// assert_eq!(ToolOptions::new().get_max_lines(), None);
    /// ```
    #[must_use]
    pub fn get_max_lines(&self) -> Option<usize> {
        self.max_lines
    }

    /// The row cap set here ([`max_rows`](Self::max_rows)), `None` when unset (a
    /// `max_lines` set here is not a row cap for this getter, though it caps rows too).
    ///
    /// ```
    /// use tool_output_format::ToolOptions;
    /// assert_eq!(ToolOptions::new().max_rows(20).get_max_rows(), Some(20));
    /// assert_eq!(ToolOptions::new().max_lines(5).get_max_rows(), None);
    /// ```
    #[must_use]
    pub fn get_max_rows(&self) -> Option<usize> {
        self.max_rows
    }

    /// The character budget set here ([`max_chars`](Self::max_chars)), `None` when unset.
    ///
    /// ```
    /// use tool_output_format::ToolOptions;
    /// let o: ToolOptions = serde_json::from_str(r#"{"max_chars": 8000}"#).unwrap();
    /// assert_eq!(o.get_max_chars(), Some(8000));
    /// assert_eq!(ToolOptions::new().get_max_chars(), None);
    /// ```
    #[must_use]
    pub fn get_max_chars(&self) -> Option<usize> {
        self.max_chars
    }

    /// The token budget set here (`max_tokens`, feature `tokens`), `None` when unset.
    ///
    /// ```
    /// use tool_output_format::ToolOptions;
    /// let o: ToolOptions = serde_json::from_str(r#"{"max_tokens": 2000}"#).unwrap();
    /// assert_eq!(o.get_max_tokens(), Some(2000));
    /// assert_eq!(ToolOptions::new().get_max_tokens(), None);
    /// ```
    #[must_use]
    pub fn get_max_tokens(&self) -> Option<usize> {
        self.max_tokens
    }

    /// Whether a summary is asked for here ([`summarize`](Self::summarize)), `None` when
    /// unset.
    ///
    /// ```
    /// use tool_output_format::ToolOptions;
    /// assert_eq!(ToolOptions::new().summarize(true).get_summarize(), Some(true));
    /// assert_eq!(ToolOptions::new().get_summarize(), None);
    /// ```
    #[must_use]
    pub fn get_summarize(&self) -> Option<bool> {
        self.summarize
    }

    /// Whether these options name keys to redact ([`redact_keys`](Self::redact_keys), at
    /// least one key).
    ///
    /// ```
    /// use tool_output_format::ToolOptions;
    /// assert!(ToolOptions::new().redact_keys(["token"]).redacts());
    /// assert!(!ToolOptions::new().redact_keys(Vec::<String>::new()).redacts());
    /// ```
    #[must_use]
    pub fn redacts(&self) -> bool {
        !self.secrets.is_empty()
    }

    /// These options laid over `base`: every field set here wins, unset ones keep `base`'s;
    /// secret keys add up.
    pub(crate) fn over(self, base: &ToolOptions) -> ToolOptions {
        ToolOptions {
            max_lines: self.max_lines.or(base.max_lines),
            max_rows: self.max_rows.or(base.max_rows),
            max_cell_chars: self.max_cell_chars.or(base.max_cell_chars),
            max_chars: self.max_chars.or(base.max_chars),
            max_tokens: self.max_tokens.or(base.max_tokens),
            layout: self.layout.or(base.layout),
            strategy: self.strategy.or(base.strategy),
            secrets: self.secrets.union(&base.secrets),
            shape: self.shape.or_else(|| base.shape.clone()),
            summarize: self.summarize.or(base.summarize),
            sum: self.sum.or_else(|| base.sum.clone()),
            detail: self.detail.or(base.detail),
            salience: self.salience.or(base.salience),
        }
    }

    /// The options for a tool with these tool options over the `global` ones: unset fields
    /// inherit. The tool's row cap is kept apart: it beats a type's own `max_rows`, which
    /// beats the global one.
    pub(crate) fn resolve(tool: Option<&ToolOptions>, global: &ToolOptions) -> Resolved {
        let empty = ToolOptions::default();
        let tool = tool.unwrap_or(&empty);
        // A budget the user sets is the bound: the default cap applies only without one
        // (an explicit `max_lines` / `max_rows` still does).
        let budget = [
            tool.max_chars,
            tool.max_tokens,
            global.max_chars,
            global.max_tokens,
        ]
        .iter()
        .any(Option::is_some);
        let max_lines = tool.max_lines.or(global.max_lines).unwrap_or(if budget {
            usize::MAX
        } else {
            DEFAULT_MAX_LINES
        });
        Resolved {
            max_lines,
            // A tool's own `max_lines` caps its tables too: per-tool options beat a type's
            // `max_rows`, which beats the formatter's.
            tool_rows: tool.max_rows.or(tool.max_lines),
            global_rows: global.max_rows.unwrap_or(max_lines),
            max_cell_chars: tool.max_cell_chars.or(global.max_cell_chars),
            max_chars: tool.max_chars.or(global.max_chars),
            max_tokens: tool.max_tokens.or(global.max_tokens),
            layout: tool.layout.or(global.layout).unwrap_or_default(),
            strategy: tool.strategy.or(global.strategy).unwrap_or_default(),
            secrets: tool.secrets.union(&global.secrets),
            shape: tool.shape.as_ref().or(global.shape.as_ref()).cloned(),
            summarize: tool.summarize.or(global.summarize).unwrap_or(false),
            sum: tool
                .sum
                .clone()
                .or_else(|| global.sum.clone())
                .unwrap_or_default(),
            detail: tool.detail.or(global.detail).unwrap_or_default(),
            salience: tool.salience.or(global.salience).unwrap_or(false),
            paged: false,
        }
    }
}

/// What kind of value an option takes (see [`OptionKey`]).
///
/// ```
/// use tool_output_format::{OptionKey, OptionKind};
/// assert_eq!(OptionKey::find("summarize").unwrap().kind, OptionKind::Flag);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionKind {
    /// A count: a non-negative integer (`max_rows = 20`).
    Count,
    /// On or off (`summarize = true`).
    Flag,
    /// One of these names (`layout = "compact"`); `-` reads as `_` (`head-tail`).
    OneOf(&'static [&'static str]),
    /// A list of strings (`redact_keys = ["token"]`).
    List,
    /// A shape: a shape file's object (see [`Shape::from_value`]).
    Shape,
}

/// One option of [`ToolOptions`]: its `snake_case` name (the same in every face: the
/// `Formatter` setter, the CLI flag `--max-rows`, the proxy's TOML key, Python's keyword
/// argument), the kind of value it takes and one line of doc. [`OPTION_KEYS`] lists them all.
///
/// ```
/// use tool_output_format::{OptionKey, OptionKind};
/// let key = OptionKey::find("strategy").unwrap();
/// assert_eq!(key.kind, OptionKind::OneOf(&["head", "tail", "head_tail"]));
/// assert!(OptionKey::find("max_row").is_none());
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct OptionKey {
    /// The option's name, as every face spells it (`max_rows`; the CLI's flag `--max-rows`).
    pub name: &'static str,
    /// What value it takes.
    pub kind: OptionKind,
    /// What it does, in one line.
    pub doc: &'static str,
    /// Sets the option from its value (parsed as `kind` says).
    apply: fn(ToolOptions, Value) -> Result<ToolOptions, String>,
}

impl fmt::Debug for OptionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OptionKey")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("doc", &self.doc)
            .finish()
    }
}

impl PartialEq for OptionKey {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for OptionKey {}

impl OptionKey {
    /// The option named `name` (exactly, `snake_case`).
    ///
    /// ```
    /// use tool_output_format::OptionKey;
    /// assert_eq!(OptionKey::find("max_chars").unwrap().name, "max_chars");
    /// ```
    #[must_use]
    pub fn find(name: &str) -> Option<&'static OptionKey> {
        OPTION_KEYS.iter().find(|k| k.name == name)
    }
}

/// Every option of [`ToolOptions`], in one table: the faces (the CLI's flags, the proxy's
/// TOML, Python's keyword arguments) come from it and a test checks each against it;
/// [`ToolOptions`] deserializes from a map of these keys (and refuses any other).
///
/// ```
/// use tool_output_format::OPTION_KEYS;
/// let names: Vec<&str> = OPTION_KEYS.iter().map(|k| k.name).collect();
/// assert!(names.contains(&"max_rows") && names.contains(&"redact_keys"));
/// ```
pub const OPTION_KEYS: &[OptionKey] = &[
    OptionKey {
        name: "max_lines",
        kind: OptionKind::Count,
        doc: "Cap on string lines, and on table rows unless max_rows is set (default 100 when no budget is set; under a budget the budget is the bound)",
        apply: |o, v| Ok(o.max_lines(count(v)?)),
    },
    OptionKey {
        name: "max_rows",
        kind: OptionKind::Count,
        doc: "Cap on table rows (default max_lines; set, it applies under a budget too)",
        apply: |o, v| Ok(o.max_rows(count(v)?)),
    },
    OptionKey {
        name: "max_cell_chars",
        kind: OptionKind::Count,
        doc: "Cap on the characters of one table cell or record value; longer ones end with …[+N chars]",
        apply: |o, v| Ok(o.max_cell_chars(count(v)?)),
    },
    OptionKey {
        name: "max_chars",
        kind: OptionKind::Count,
        doc: "Budget for the whole output in characters: rows, lines and values are cut to fit",
        apply: |o, v| Ok(o.max_chars(count(v)?)),
    },
    OptionKey {
        name: "max_tokens",
        kind: OptionKind::Count,
        doc: "Budget for the whole output in o200k tokens (GPT-4o-class tokenizer; in Rust, feature tokens)",
        apply: |mut o, v| {
            o.max_tokens = Some(count(v)?);
            Ok(o)
        },
    },
    OptionKey {
        name: "layout",
        kind: OptionKind::OneOf(Layout::NAMES),
        doc: "Table layout: padded columns (aligned, the default), none (compact, the agent preset's) or RFC 4180 CSV",
        apply: |o, v| Ok(o.layout(named(v)?)),
    },
    OptionKey {
        name: "strategy",
        kind: OptionKind::OneOf(Strategy::NAMES),
        doc: "Which lines of a long string to keep (default head)",
        apply: |o, v| Ok(o.strategy(named(v)?)),
    },
    OptionKey {
        name: "redact_keys",
        kind: OptionKind::List,
        doc: "Keys whose values render as [redacted] (a tool's add to the global ones)",
        apply: |o, v| Ok(o.redact_keys(list(v)?)),
    },
    OptionKey {
        name: "shape",
        kind: OptionKind::Shape,
        doc: "Keep, drop, rename, convert and flatten fields before the model reads them",
        apply: |o, v| {
            let shape = Shape::from_value(&v).map_err(|e| e.to_string())?;
            Ok(o.shape(shape))
        },
    },
    OptionKey {
        name: "summarize",
        kind: OptionKind::Flag,
        doc: "Add a summary over all rows when a table is cut (every row is read for it)",
        apply: |o, v| Ok(o.summarize(flag(v)?)),
    },
    OptionKey {
        name: "sum",
        kind: OptionKind::List,
        doc: "Columns whose numbers the summary also sums",
        apply: |o, v| Ok(o.sum(list(v)?)),
    },
    OptionKey {
        name: "detail",
        kind: OptionKind::OneOf(Detail::NAMES),
        doc: "The detail level of derived records and of the agent preset's folding (default summary; full shows every field)",
        apply: |o, v| Ok(o.detail(named(v)?)),
    },
    OptionKey {
        name: "salience",
        kind: OptionKind::Flag,
        doc: "Keep what an agent needs under a budget (fields ranked by salience)",
        apply: |o, v| Ok(o.salience(flag(v)?)),
    },
];

/// The option names, for serde's unknown-key message.
const OPTION_NAMES: [&str; OPTION_KEYS.len()] = {
    let mut out = [""; OPTION_KEYS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = OPTION_KEYS[i].name;
        i += 1;
    }
    out
};

/// A count: a non-negative integer. The message is the one every face shows (`tof
/// --max-rows=-1`, the proxy's TOML, Python's `max_rows=-1`).
fn count(v: Value) -> Result<usize, String> {
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("expected a count (an integer >= 0), got {v}"))
}

fn flag(v: Value) -> Result<bool, String> {
    bool::deserialize(v).map_err(|e| e.to_string())
}

fn list(v: Value) -> Result<Vec<String>, String> {
    Vec::<String>::deserialize(v).map_err(|e| e.to_string())
}

fn named<T: FromStr<Err = UnknownName>>(v: Value) -> Result<T, String> {
    let name = String::deserialize(v).map_err(|e| e.to_string())?;
    name.parse().map_err(|e: UnknownName| e.to_string())
}

impl ToolOptions {
    /// Set the option named `key` (one of [`OPTION_KEYS`]) from its value in any serde
    /// format: the one place option values are read, for every face. Names read as their
    /// `FromStr` reads them (`"head-tail"` and `"head_tail"` alike).
    ///
    /// # Errors
    ///
    /// An unknown key (naming the known ones) or a value of the wrong kind.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::{Strategy, ToolOptions};
    /// let o = ToolOptions::new().set("strategy", json!("head-tail")).unwrap();
    /// assert_eq!(o, ToolOptions::new().strategy(Strategy::HeadTail));
    /// let err = ToolOptions::new().set("layout", json!("wide")).unwrap_err();
    /// assert_eq!(err.to_string(), r#"unknown layout "wide"; expected one of "aligned", "compact", "csv""#);
    /// assert!(ToolOptions::new().set("max_row", json!(3)).is_err());
    /// let err = ToolOptions::new().set("max_rows", json!(-1)).unwrap_err();
    /// assert_eq!(err.to_string(), "expected a count (an integer >= 0), got -1");
    /// ```
    pub fn set<'de, D: Deserializer<'de>>(self, key: &str, value: D) -> Result<Self, D::Error> {
        let Some(option) = OptionKey::find(key) else {
            return Err(de::Error::unknown_field(key, &OPTION_NAMES));
        };
        let value = Value::deserialize(value)?;
        (option.apply)(self, value).map_err(de::Error::custom)
    }
}

/// A map of [`OPTION_KEYS`] to their values (a TOML table, a JSON object); any other key is
/// an error that names the known ones.
///
/// ```
/// use tool_output_format::{Layout, ToolOptions};
/// let o: ToolOptions = serde_json::from_str(r#"{"max_rows": 2, "layout": "compact"}"#).unwrap();
/// assert_eq!(o, ToolOptions::new().max_rows(2).layout(Layout::Compact));
/// let err = serde_json::from_str::<ToolOptions>(r#"{"max_row": 2}"#).unwrap_err();
/// assert!(err.to_string().starts_with("unknown field `max_row`, expected one of `max_lines`, `max_rows`"));
/// ```
impl<'de> Deserialize<'de> for ToolOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(OptionsVisitor)
    }
}

struct OptionsVisitor;

impl<'de> Visitor<'de> for OptionsVisitor {
    type Value = ToolOptions;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of options")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolOptions, A::Error> {
        let mut o = ToolOptions::new();
        while let Some(key) = map.next_key_seed(KnownKey)? {
            let value: Value = map.next_value()?;
            o = (key.apply)(o, value)
                .map_err(|e| de::Error::custom(format_args!("{}: {e}", key.name)))?;
        }
        Ok(o)
    }
}

/// A key of [`OPTION_KEYS`] (an unknown one fails where it is, naming the known ones).
struct KnownKey;

impl<'de> de::DeserializeSeed<'de> for KnownKey {
    type Value = &'static OptionKey;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let name = String::deserialize(d)?;
        OptionKey::find(&name).ok_or_else(|| de::Error::unknown_field(&name, &OPTION_NAMES))
    }
}

/// The default line and row cap, when no budget (`max_chars`, `max_tokens`) is set: with a
/// budget, the budget is the bound (an explicit `max_lines` / `max_rows` still applies).
pub const DEFAULT_MAX_LINES: usize = 100;
