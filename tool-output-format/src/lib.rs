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
//! | [`ToolOutput`](trait@ToolOutput) | what can be rendered: `serde_json::Value`, std types, derived types, anything `Serialize` as a derived field; [`Context`] and the document model in [`doc`] ([`doc::Node`], [`doc::Record`], [`doc::Table`]) for hand-written impls |
//! | [`Page`], [`ToolError`], [`Batch`], [`Reply`], [`NextAction`], [`ResourceRef`] ([`doc::agent`] for how they render) | results with the lines an agent loops on (more pages, what failed and whether to retry, the next call) |
//! | [`Shape`], [`Convert`] ([`shape`] for the rest) | keep, drop, rename, flatten and convert fields of untyped results, in code or from a shape file |
//! | [`Formatter::focus`]: [`Focused`], [`RowOrder`] | query-focused trimming of long text to the parts that match a question |
//! | [`store`]: [`store::ResultStore`], [`store::MemoryStore`], `store::RedisStore` | keep the full result of a cut output and serve it back ([`store::Fetch`]) |
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
//! | `redis` | | `store::RedisStore` (turns on `async`) |
//! | `rmcp` | | `adapt::rmcp::McpResult`: results as MCP `CallToolResult`s (turns on `async`) |
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
//! a table cell or code block; records and lists nest at most [`doc::MAX_DEPTH`] levels, so no
//! input overflows the stack; secrets named with [`Formatter::redact_keys`] or
//! `#[tool_output(redact)]` never reach the output. Prompt injection is out of scope: text
//! stays text.
pub mod adapt;
mod call;
mod cut;
pub mod doc;
mod fetch;
mod formatter;
mod input;
mod options;
mod private;
mod rules;
mod sink;
mod text;

pub(crate) use cut::focus;
pub use rules::shape;

// The public `store` module: the stores (`store/`) and the fetch tool that serves a stored
// result back (`fetch/`, which uses the face), declared here so the store imports no fetch.
pub mod store {
    //! Trim and reference: keep a full tool result aside and hand the model a reference to it.
    //!
    //! A result cut to 100 rows loses the other 9,900; a store keeps the whole result for a while,
    //! so the output can say `Next: call get_stored_result(ref="r_...")` and a fetch tool can
    //! return it on request.
    //!
    //! | task | how |
    //! |---|---|
    //! | keep results in this process, no setup | [`MemoryStore::new`]`(ttl)` |
    //! | bound the memory it uses | [`MemoryStore::max_bytes`] (default 64 MiB) |
    //! | share results between agents on several machines | `RedisStore` (feature `redis`) |
    //! | store a result | [`ResultStore::put`] returns its reference |
    //! | fetch it | [`ResultStore::get`]; an error tells [expired](StoreErrorKind::Expired) from [unknown](StoreErrorKind::Unknown) |
    //! | store cut results and point the model at them | [`Formatter::store`](crate::Formatter::store) |
    //! | serve a stored result page by page to the model (the fetch tool) | [`Fetch`] |
    //! | store from an async host without blocking it (feature `async`) | `Formatter::store_async`, `format_async`; an `AsyncResultStore` |
    //! | return a fetch failure from a tool | `ToolError::from(store_error)` (`not_found` for expired and unknown, `unavailable` (retryable) when the backend is down) |
    //!
    //! References are `r_` followed by 26 characters of lowercase base32 (128 random bits from
    //! the operating system), so a model cannot guess or enumerate another result's reference.
    //!
    //! ```
    //! use std::time::Duration;
    //! use tool_output_format::store::{MemoryStore, ResultStore};
    //! use serde_json::json;
    //!
    //! let store = MemoryStore::new(Duration::from_secs(3600));
    //! let reference = store.put(&json!([{"id": 1}, {"id": 2}])).unwrap();
    //! assert!(reference.starts_with("r_"));
    //! assert_eq!(store.get(&reference).unwrap(), json!([{"id": 1}, {"id": 2}]));
    //!
    //! let err = store.get("r_0000000000000000000000000").unwrap_err();
    //! assert!(err.to_string().contains("unknown"));
    //! ```

    mod memory;
    #[cfg(feature = "async")]
    mod nonblocking;
    #[cfg(feature = "redis")]
    mod redis;
    mod result_store;

    pub use crate::fetch::{DEFAULT_PAGE_SIZE, Fetch};
    #[cfg(test)]
    pub(crate) use memory::ManualClock;
    pub use memory::MemoryStore;
    #[cfg(feature = "async")]
    pub use nonblocking::{AsyncResultStore, OriginFuture, StoreFuture};
    #[cfg(feature = "redis")]
    pub use redis::RedisStore;
    pub(crate) use result_store::{CURSOR_ARG, ago, is_reference, new_reference, span};
    pub use result_store::{ResultStore, StoreError, StoreErrorKind};
}

pub use call::report::{FocusReport, Formatted, Kept, Report};
pub use cut::focus::RowOrder;
pub use doc::agent::batch::Batch;
pub use doc::agent::convert::ToToolError;
pub use doc::agent::error::{ErrorKind, ToolError};
pub use doc::agent::next::NextAction;
pub use doc::agent::page::Page;
pub use doc::agent::reply::Reply;
pub use doc::agent::resource::ResourceRef;
pub use doc::notice::{BudgetUnit, Notice, Strategy};
pub use formatter::Focused;
pub use formatter::{AGENT_MAX_CHARS, Formatter, to_markdown};
pub use input::ToolOutput;
pub use input::context::Context;
pub use input::stream::Rows;
pub use input::table::MAX_COLUMNS;
pub use options::names::UnknownName;
pub use options::{DEFAULT_MAX_LINES, OPTION_KEYS, OptionKey, OptionKind, ToolOptions};
pub use rules::detail::Detail;
pub use rules::shape::convert::Convert;
pub use rules::shape::spec::Shape;
pub use sink::Layout;
#[cfg(feature = "tokens")]
pub use text::tokens::O200k;
pub use text::tokens::TokenCounter;

/// Derive [`ToolOutput`](trait@ToolOutput) for a struct, a tuple struct or a unit-only enum
/// (see [Deriving](trait@ToolOutput#deriving) for the attributes).
#[cfg(feature = "derive")]
pub use tool_output_format_derive::ToolOutput;

/// What code generated by `#[derive(ToolOutput)]` calls (see `private/`).
#[doc(hidden)]
pub mod __private {
    pub use crate::private::*;
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The guide in `docs/` at the repository root, compiled and run as doctests: every Rust
/// block of every file is a test of this crate (`cargo test -p tool-output-format --doc`).
/// Only under `cfg(doctest)`, so a build (and a packaged crate, which does not ship
/// `docs/`) never reads these files.
#[cfg(doctest)]
mod doctest_docs {
    /// `docs/rendering.md`.
    #[doc = include_str!("../../docs/rendering.md")]
    pub struct Rendering;

    /// `docs/escaping.md`.
    #[doc = include_str!("../../docs/escaping.md")]
    pub struct Escaping;

    /// `docs/budgets.md`.
    #[doc = include_str!("../../docs/budgets.md")]
    pub struct Budgets;

    /// `docs/agent-results.md`.
    #[doc = include_str!("../../docs/agent-results.md")]
    pub struct AgentResults;

    /// `docs/derive.md`.
    #[doc = include_str!("../../docs/derive.md")]
    pub struct Derive;

    /// `docs/large-results.md`.
    #[doc = include_str!("../../docs/large-results.md")]
    pub struct LargeResults;

    /// `docs/tour.md`.
    #[doc = include_str!("../../docs/tour.md")]
    pub struct Tour;

    /// `docs/focus.md`.
    #[doc = include_str!("../../docs/focus.md")]
    pub struct Focus;

    /// `docs/agent-preset.md`.
    #[doc = include_str!("../../docs/agent-preset.md")]
    pub struct AgentPreset;

    /// `docs/shaping.md`.
    #[doc = include_str!("../../docs/shaping.md")]
    pub struct Shaping;

    /// `docs/adapters.md`.
    #[doc = include_str!("../../docs/adapters.md")]
    pub struct Adapters;

    /// `docs/command-line.md`.
    #[doc = include_str!("../../docs/command-line.md")]
    pub struct CommandLine;

    /// `docs/python.md`.
    #[doc = include_str!("../../docs/python.md")]
    pub struct Python;

    /// `docs/layout.md`.
    #[doc = include_str!("../../docs/layout.md")]
    pub struct Layout;
}
