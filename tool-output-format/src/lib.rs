//! Render LLM agent tool results as markdown a model reads reliably and cheaply.
//!
//! A model handed 40 records as raw JSON skims and guesses; the same records as a markdown
//! table, trimmed with an honest notice, it reasons over. This crate turns a tool's result
//! (a `serde_json::Value`, or your own types through [`ToolOutput`](trait@ToolOutput)) into
//! such text: records as bullets, lists of records as tables, strings as code blocks, with
//! caps and budgets that announce every cut and escaping that keeps data from forging
//! structure.
//!
//! ```
//! use tool_output_format::{Formatter, ToolOutput};
//! use serde_json::json;
//!
//! let team = json!([
//!     {"name": "Alice", "role": "engineer", "team": "infra"},
//!     {"name": "Bob", "role": "PM", "team": "product"},
//! ]);
//! assert_eq!(
//!     Formatter::new().format("list_team", &team),
//!     "| name  | role     | team    |\n\
//!      |-------|----------|---------|\n\
//!      | Alice | engineer | infra   |\n\
//!      | Bob   | PM       | product |"
//! );
//!
//! // Typed results render the same way, with no `serde_json::Value` in between.
//! #[derive(ToolOutput)]
//! struct Member { name: &'static str, role: &'static str }
//!
//! assert_eq!(
//!     Formatter::new().max_rows(1).format("list_team", &vec![
//!         Member { name: "Alice", role: "engineer" },
//!         Member { name: "Bob", role: "PM" },
//!     ]),
//!     "[Truncated to 1 rows of 2 total]\n\n| name  | role     |\n|-------|----------|\n| Alice | engineer |"
//! );
//! ```
//!
//! # Where to read on
//!
//! The rules live on the items that apply them: what each kind of result becomes and how
//! text is escaped on [`Formatter::format`], caps and budgets on [`Formatter::max_rows`],
//! [`Formatter::max_chars`] and `Formatter::max_tokens` (feature `tokens`), summaries on
//! [`Formatter::summarize`], the structured form on [`Formatter::format_json`], the
//! derive's attributes on [`ToolOutput`](trait@ToolOutput).
//! The guide in the repository's `docs/` directory (`docs/README.md`) collects them with
//! worked examples: rendering, escaping and security, budgets, agent results, the derive,
//! large results, query focus, the agent preset, shaping, the adapters. Every example there
//! is compiled as a doctest of this crate.
//!
//! # Map
//!
//! | item | what it is |
//! |---|---|
//! | [`Formatter`] | the entry point: options for every tool, [`format`](Formatter::format), [`format_with_report`](Formatter::format_with_report) ([`Formatted`], [`Report`]), [`format_json`](Formatter::format_json), [`format_rows`](Formatter::format_rows); [`Formatter::for_agents`] is the preset for real API responses |
//! | [`ToolOptions`] | per-tool options ([`Formatter::tool`]) and formatter-wide ones ([`Formatter::defaults`]) |
//! | [`ToolOutput`](trait@ToolOutput) | what can be rendered: `serde_json::Value`, std types, derived types, anything `Serialize` as a derived field; [`Context`], [`Node`], [`Record`], [`Table`] for hand-written impls |
//! | [`agent`]: [`Page`], [`ToolError`], [`Batch`], [`Reply`], [`NextAction`] | results with the lines an agent loops on (more pages, what failed and whether to retry, the next call) |
//! | [`shape`]: [`Shape`], [`Convert`] | keep, drop, rename, flatten and convert fields of untyped results, in code or from a shape file |
//! | [`focus`]: [`Focused`] | query-focused trimming of long text to the parts that match a question |
//! | [`store`]: [`ResultStore`], [`MemoryStore`], `RedisStore` | keep the full result of a cut output and serve it back ([`store::Fetch`]) |
//! | [`adapt`] | MCP (`rmcp`), rig, Anthropic and `OpenAI` tool results |
//! | [`Layout`], [`Strategy`], [`Detail`], [`Notice`] | table layout, which lines of long strings to keep, detail level, the cut notices |
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `derive` | yes | `#[derive(ToolOutput)]`, re-exported as `tool_output_format::ToolOutput` |
//! | `tokens` | | exact o200k token counting: `Formatter::max_tokens`, `O200k`, token counts in reports |
//! | `tracing` | | one `INFO` event per formatted result (tool, sizes, rows kept of total, cut or not) |
//! | `async` | | `AsyncResultStore`, `Formatter::store_async`, `Formatter::format_async` |
//! | `redis` | | `RedisStore` (turns on `async`) |
//! | `rmcp` | | `McpResult`: results as MCP `CallToolResult`s (turns on `async`) |
//! | `schemars` | | `McpJson`: typed MCP results with an `outputSchema` (turns on `rmcp`) |
//! | `rig` | | rig tool outputs (`adapt::rig`, turns on `async`) |
//! | `toml` | | shape files written in TOML (`Shape::from_toml_str`) |
//! | `rust_decimal`, `chrono`, `time`, `url`, `uuid` | | [`ToolOutput`](trait@ToolOutput) for that crate's types |
//!
//! Field types of those crates render without the features too, through their `Serialize`
//! form; the features give them their readable text where it differs.
//!
//! # Guarantees in brief
//!
//! Output never ends with a newline or has trailing white space; every cut is announced
//! with exact counts; no value can open a block (heading, list, quote, HTML) or break out of
//! a table cell or code block; records and lists nest at most [`MAX_DEPTH`] levels, so no
//! input overflows the stack; secrets named with [`Formatter::redact_keys`] or
//! `#[tool_output(redact)]` never reach the output. Prompt injection is out of scope: text
//! stays text.
pub mod adapt;
pub mod agent;
mod arrange;
mod build;
mod caps;
mod detail;
mod distinct;
mod doc;
#[cfg(doctest)]
mod doctest_docs;
mod ecosystem;
mod fit;
pub mod focus;
mod focused;
mod formatter;
mod names;
mod notice;
mod options;
mod passage;
mod pipeline;
mod redact;
mod report;
mod resolved;
mod salience;
pub mod shape;
mod sink;
mod source;
pub mod store;
mod summary;
mod text;
mod tokens;
mod trace;
mod trailer;

#[cfg(feature = "rmcp")]
pub use adapt::rmcp::McpResult;
pub use agent::{Batch, ErrorKind, NextAction, Page, Reply, ResourceRef, ToToolError, ToolError};
pub use build::Context;
pub use detail::Detail;
pub use doc::Envelope;
pub use doc::{Field, Kind, MAX_DEPTH, Mark, Node, Record, Table, Text, depth_notice};
pub use formatter::Focused;
pub use formatter::{AGENT_MAX_CHARS, Formatter, to_markdown};
pub use names::UnknownName;
pub use notice::{BudgetUnit, Notice, Strategy};
pub use options::{DEFAULT_MAX_LINES, OPTION_KEYS, OptionKey, OptionKind, ToolOptions};
pub use report::{FocusReport, Formatted, Kept, Report};
pub use shape::{Convert, Shape, ShapeError};
pub use sink::Layout;
pub use source::ToolOutput;
pub use source::stream::Rows;
pub use source::table::MAX_COLUMNS;
#[cfg(feature = "redis")]
pub use store::RedisStore;
pub use store::{MemoryStore, ResultStore, StoreError};
#[cfg(feature = "tokens")]
pub use tokens::O200k;
pub use tokens::TokenCounter;

/// Derive [`ToolOutput`](trait@ToolOutput) for a struct, a tuple struct or a unit-only enum
/// (see [Deriving](trait@ToolOutput#deriving) for the attributes).
#[cfg(feature = "derive")]
pub use tool_output_format_derive::ToolOutput;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
