//! The [`Formatter`]: a registry of per-tool renderers and options, and the dispatch.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::call::focused::Query;
use crate::call::pipeline::{Call, Renderer, StoreTarget, Target};
use crate::call::report::Formatted;
use crate::call::resolved::Resolved;
use crate::focus::RowOrder;
use crate::input::ToolOutput;
use crate::input::stream::Rows;
use crate::options::{Layout, Strategy, ToolOptions};
use crate::rules::detail::Detail;
use crate::shape::Shape;
use crate::store::ResultStore;
#[cfg(feature = "tokens")]
use crate::text::tokens::TokenCounter;

#[cfg(feature = "async")]
mod nonblocking;

#[derive(Clone, Default)]
struct ToolEntry {
    renderer: Option<Renderer>,
    options: ToolOptions,
}

/// Turns tool results into markdown a model reads well.
///
/// Build it once (it is `Send + Sync + Clone`; share it by reference or in an `Arc`) and call
/// [`format`](Formatter::format) with the tool's name and its result.
///
/// ```
/// use tool_output_format::Formatter;
/// use serde_json::json;
///
/// let fmt = Formatter::new()
///     .max_lines(20)
///     .register("fetch_user", |v: &serde_json::Value| {
///         format!("User: {}", v["name"].as_str().unwrap_or("?"))
///     });
///
/// assert_eq!(fmt.format("fetch_user", &json!({"name": "Ada"})), "User: Ada");
/// assert_eq!(
///     fmt.format("get_message", &json!({"id": "msg_001", "latency_ms": 142})),
///     "**get_message result**\n\n- id: msg_001\n- latency_ms: 142"
/// );
/// ```
#[derive(Clone, Default)]
pub struct Formatter {
    options: ToolOptions,
    tools: HashMap<String, ToolEntry>,
    #[cfg(feature = "tokens")]
    counter: Option<Arc<dyn TokenCounter>>,
    store: Option<StoreTarget>,
    /// The fetch tool's reference argument (`ref` when unset).
    ref_arg: Option<String>,
    #[cfg(feature = "async")]
    async_store: Option<nonblocking::AsyncTarget>,
}

impl fmt::Debug for Formatter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tools: Vec<&String> = self.tools.keys().collect();
        tools.sort();
        f.debug_struct("Formatter")
            .field("options", &self.options)
            .field("tools", &tools)
            .field("store", &self.store.as_ref().map(|s| &s.fetch_tool))
            .finish_non_exhaustive()
    }
}

impl Formatter {
    /// A formatter with the default options (100 lines / rows, aligned tables).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new();
    /// assert_eq!(fmt.format("t", &42), "42");
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The agent preset: cheap by default on real API responses, and nothing dropped
    /// silently. Every field of the input is either shown or named in one left-out line.
    ///
    /// The rules, each measured on the bundled API responses (BENCHMARKS.md, "Agent
    /// preset"):
    ///
    /// 1. **Machine-only fields fold out of the view**: API URLs and URL templates (keys
    ///    `url` and `*_url`), `node_id` and `gravatar_id` (GitHub), `managedFields`
    ///    (Kubernetes server-side apply bookkeeping, which `kubectl` hides too), at every
    ///    depth. Each is named by its key in the left-out line (`machine-only: url,
    ///    hooks_url, node_id`). A resource's page for people stays: `html_url` (GitHub),
    ///    `web_url` (GitLab) and `permalink_url` are shown (the link a model gives the user),
    ///    and so is any URL that is a page a person opens rather than an API endpoint or an
    ///    image, whatever its key (a release page under `url`, a Stripe `receipt_url`).
    /// 2. **Empty fields fold out**: null, `""`, `[]` and `{}` values of a record, and
    ///    objects whose every field is empty (named as the object); in a table, columns
    ///    empty in every row. Each is named by its dotted path (`empty: homepage,
    ///    license.spdx_id`).
    /// 3. **Nested objects in tables flatten** into dotted columns where that reads in fewer
    ///    tokens (see [`Shape::flatten`]); records keep their nested bullets.
    /// 4. **Compact layout** ([`Layout::Compact`]): unpadded tables, the fewest tokens of
    ///    the markdown forms, and lean records (fields that hold no data named on one
    ///    `(empty)` line, a nested value that repeats an earlier sibling's written
    ///    `(same as KEY)`, one that differs from it in at most half its fields
    ///    `(same as KEY, except:)` above them, a nested record's fields equal to the top
    ///    level's named on one `(same as the top level)` line; see [`Layout::Compact`]).
    /// 5. **The left-out line says how to get them**: `Call TOOL(detail="full") for them`
    ///    (the tool should accept a `detail` argument and render with
    ///    `.detail(Detail::Full)`, which turns rules 1 and 2 off); with a
    ///    [`store`](Self::store), the full result is stored whenever something was left out,
    ///    the line says `They are in the stored full result` and the Next line that fetches it
    ///    follows. Each kind lists its names most needed first, at most 24 (the empty
    ///    kind 8: an empty field says only that it is empty), then `and N more`.
    /// 6. **Folding pays or is undone**: when a small result (a text of at most 1,000
    ///    characters, no store, within its budget) is no shorter with its fields folded and the
    ///    left-out line than with nothing folded, nothing is folded (a GitHub 422 error
    ///    whose only machine-only field is one `documentation_url`).
    ///
    /// 7. **A bound**: a budget of [`AGENT_MAX_CHARS`] characters (about 10,000 tokens), so
    ///    no single value reaches a model whole by accident (a 3 MB log line is cut and
    ///    announced, and with a store reachable page by page). A budget that is not reached
    ///    changes nothing in the output; set another with
    ///    [`max_chars`](Self::max_chars).
    ///
    /// Everything else is the default formatter's (caps, secrets, envelopes); any option can
    /// be changed on the result. A shape set later (for every tool or one)
    /// replaces the preset's folding shape, and its drops are the caller's own choice.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::{Detail, Formatter};
    ///
    /// let repo = json!({"id": 1, "name": "hello", "url": "https://api.github.com/repos/ada/hello",
    ///                   "hooks_url": "https://api.github.com/repos/ada/hello/hooks", "node_id": "R_kgDOAbCdEf",
    ///                   "homepage": null,
    ///                   "owner": {"login": "ada", "avatar_url": "https://avatars.githubusercontent.com/u/1?v=4"}});
    /// assert_eq!(
    ///     Formatter::for_agents().format("get_repo", &repo),
    ///     "**get_repo result**\n\n- name: hello\n- id: 1\n- owner:\n  - login: ada\n\n\
    ///      [Left out in summary detail: machine-only: url, hooks_url, avatar_url, node_id; empty: homepage. \
    ///      Call get_repo(detail=\"full\") for them]"
    /// );
    /// // Full detail shows every field.
    /// let full = Formatter::for_agents().detail(Detail::Full).format("get_repo", &repo);
    /// assert!(full.contains("- node_id: R_kgDOAbCdEf") && !full.contains("[Left out"));
    /// ```
    #[must_use]
    pub fn for_agents() -> Self {
        Formatter::new()
            .layout(Layout::Compact)
            .shape(agent_shape())
            .max_chars(AGENT_MAX_CHARS)
            .salience(true)
    }

    /// Cap on lines of string results and on table rows, for every tool (default 100 when no
    /// budget is set).
    ///
    /// Which bounds apply: with a budget ([`max_chars`](Self::max_chars),
    /// `max_tokens` (feature `tokens`), the agent preset's own) the budget is the bound and
    /// the default cap of 100 does not apply; a `max_lines` or `max_rows` set explicitly
    /// applies with or without a budget. Without any, the default cap of 100 applies.
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_lines(1);
    /// assert_eq!(fmt.format("t", "a\nb"), "[Truncated to 1 lines of 2 total]\n\n```\na\n```");
    /// ```
    #[must_use]
    pub fn max_lines(self, n: usize) -> Self {
        self.with(|o| o.max_lines(n))
    }

    /// Cap on table rows for every tool (defaults to [`max_lines`](Self::max_lines): 100 when
    /// no budget is set, none under a budget). Set explicitly, it applies with a budget too.
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_rows(1);
    /// let md = fmt.format("t", &serde_json::json!([{"a": 1}, {"a": 2}]));
    /// assert!(md.starts_with("[Truncated to 1 rows of 2 total]\n\n"));
    /// ```
    #[must_use]
    pub fn max_rows(self, n: usize) -> Self {
        self.with(|o| o.max_rows(n))
    }

    /// Table layout for every tool (default [`Layout::Aligned`]).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout};
    /// let md = Formatter::new().layout(Layout::Compact).format("t", &serde_json::json!([{"a": 1}]));
    /// assert_eq!(md, "|a|\n|-|\n|1|");
    /// ```
    #[must_use]
    pub fn layout(self, layout: Layout) -> Self {
        self.with(|o| o.layout(layout))
    }

    /// Cap on the characters of any table cell or record value (default: none). Longer
    /// values are cut on a grapheme boundary and end with `…[+N chars]`, when that form is
    /// shorter than the value (a cut marker never makes a value longer).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_cell_chars(4);
    /// let md = fmt.format("t", &serde_json::json!([{"title": "A rather long title"}, {"title": "Short one"}]));
    /// assert_eq!(md, "| title            |\n|------------------|\n| A ra…[+15 chars] |\n| Short one        |");
    /// ```
    #[must_use]
    pub fn max_cell_chars(self, n: usize) -> Self {
        self.with(|o| o.max_cell_chars(n))
    }

    /// Budget for the whole output, in characters (default: none). Tables lose trailing
    /// rows, strings lines, records long values then trailing fields, lists trailing items,
    /// until the text fits; every cut is announced first with exact counts. An output that
    /// fits is unchanged.
    ///
    /// What a budget cuts first: the largest collections at any depth (table rows, list
    /// items, lines of long strings, a prefix kept of each); then long values, cut to no
    /// less than 32 characters and only when that keeps more rows; whole fields of a record
    /// last, largest first, short scalar fields (ids, counts, flags, cursors of up to 64
    /// characters) only when nothing else is left. Agent envelopes ([`Page`](crate::Page),
    /// [`ToolError`](crate::ToolError), ...) are never cut, only the data inside them. When
    /// nothing fits, one line says what was omitted and the least it needs:
    /// `[Omitted: the result needs 5 chars, over the budget of 3]`.
    ///
    /// A budget is the bound: the default cap of 100 rows or lines applies only when no
    /// budget is set, so 500 small rows under `max_chars(60_000)` are all shown. A
    /// [`max_rows`](Self::max_rows) or [`max_lines`](Self::max_lines) set explicitly still
    /// applies.
    ///
    /// ```
    /// let rows: Vec<_> = (0..500).map(|i| serde_json::json!({"id": i})).collect();
    /// let fmt = tool_output_format::Formatter::new();
    /// assert!(fmt.format("t", &rows).starts_with("[Truncated to 100 rows of 500 total]"));
    /// let md = fmt.max_chars(60_000).format("t", &rows);
    /// assert!(!md.starts_with("[Truncated") && md.ends_with("| 499 |"));
    /// ```
    ///
    /// ```
    /// let rows: Vec<_> = (0..1000).map(|i| serde_json::json!({"id": i, "name": "x"})).collect();
    /// let md = tool_output_format::Formatter::new().max_chars(200).format("t", &rows);
    /// assert!(md.chars().count() <= 200);
    /// assert!(md.starts_with("[Truncated to "));
    /// assert!(md.lines().next().unwrap().ends_with(" rows of 1000 total]"));
    /// ```
    #[must_use]
    pub fn max_chars(self, n: usize) -> Self {
        self.with(|o| o.max_chars(n))
    }

    /// Budget for the whole output in o200k tokens, counted exactly (feature `tokens`).
    /// Cuts as [`max_chars`](Self::max_chars) does; both may be set.
    ///
    /// ```
    /// let rows: Vec<_> = (0..1000).map(|i| serde_json::json!({"id": i})).collect();
    /// let fmt = tool_output_format::Formatter::new().max_tokens(100);
    /// let out = fmt.format_with_report("t", &rows);
    /// assert!(out.report.tokens.unwrap() <= 100);
    /// ```
    #[cfg(feature = "tokens")]
    #[must_use]
    pub fn max_tokens(self, n: usize) -> Self {
        self.with(|o| o.max_tokens(n))
    }

    /// Replace the token counter used by `max_tokens` and reports (default [`O200k`](crate::O200k)).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_output_format::{Formatter, TokenCounter};
    /// struct Bytes;
    /// impl TokenCounter for Bytes { fn count(&self, t: &str) -> usize { t.len() } }
    /// let fmt = Formatter::new().token_counter(Arc::new(Bytes)).max_tokens(10);
    /// assert!(fmt.format("t", "0123456789abcdef").len() <= 10 || true);
    /// ```
    #[cfg(feature = "tokens")]
    #[must_use]
    pub fn token_counter(mut self, counter: Arc<dyn TokenCounter>) -> Self {
        self.counter = Some(counter);
        self
    }

    /// Set the formatter-wide options from one [`ToolOptions`]: every option set there
    /// replaces the formatter's (secret keys add up); unset ones stay. The same options a
    /// tool gets with [`tool`](Self::tool), as the defaults of every tool (hosts that read
    /// options from a config file or another language build them once).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout, ToolOptions};
    /// let options = ToolOptions::new().max_rows(1).layout(Layout::Compact);
    /// let fmt = Formatter::new().defaults(options);
    /// let md = fmt.format("t", &serde_json::json!([{"a": 1}, {"a": 2}]));
    /// assert_eq!(md, "[Truncated to 1 rows of 2 total]\n\n|a|\n|-|\n|1|");
    /// assert_eq!(md, Formatter::new().max_rows(1).layout(Layout::Compact).format("t",
    ///     &serde_json::json!([{"a": 1}, {"a": 2}])));
    /// ```
    #[must_use]
    pub fn defaults(mut self, options: ToolOptions) -> Self {
        self.options = options.over(&self.options);
        self
    }

    /// Apply one [`ToolOptions`] setter to the formatter-wide options: every option builder
    /// of `Formatter` is that setter, so each option has one implementation.
    fn with(mut self, set: impl FnOnce(ToolOptions) -> ToolOptions) -> Self {
        self.options = set(std::mem::take(&mut self.options));
        self
    }

    /// Keys whose values render as `[redacted]` wherever they occur, for every tool
    /// (case-insensitive, nested included; see [`ToolOptions::redact_keys`] for per tool).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().redact_keys(["password", "api_key"]);
    /// let v = serde_json::json!([{"user": "ada", "API_KEY": "k-123", "meta": {"password": "pw"}}]);
    /// let md = fmt.format("t", &v);
    /// assert!(!md.contains("k-123") && !md.contains("pw\""));
    /// assert!(md.contains("[redacted]"));
    /// ```
    #[must_use]
    pub fn redact_keys<I: IntoIterator<Item = S>, S: Into<String>>(self, keys: I) -> Self {
        self.with(|o| o.redact_keys(keys))
    }

    /// Which lines of long strings to keep, for every tool (default [`Strategy::Head`]).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Strategy};
    /// let md = Formatter::new().max_lines(2).strategy(Strategy::HeadTail).format("t", "1\n2\n3\n4");
    /// assert_eq!(md, "[Truncated to 2 lines of 4 total: the first 1 and the last 1]\n\n```\n1\n… [2 lines omitted] …\n4\n```");
    /// ```
    #[must_use]
    pub fn strategy(self, strategy: Strategy) -> Self {
        self.with(|o| o.strategy(strategy))
    }

    /// Shape the results of every tool (see [`Shape`] and [`ToolOptions::shape`]). A tool's
    /// own shape replaces this one for that tool (shapes are not merged); give a tool an
    /// empty `Shape::new()` to render its results unshaped. Calling it again replaces the
    /// global shape.
    ///
    /// A shape with mistakes is accepted (the builders never fail, so a shape reads as one
    /// chain): its valid rules apply and every mistake is listed in
    /// [`Report::shape_errors`](crate::Report::shape_errors). Call [`Shape::check`] where the shape is built to fail early.
    ///
    /// ```
    /// use tool_output_format::{Formatter, Shape, ToolOptions};
    /// use serde_json::json;
    ///
    /// let fmt = Formatter::new()
    ///     .shape(Shape::new().drop(["*_url", "node_id"]).drop_empty())
    ///     .tool("raw", ToolOptions::new().shape(Shape::new()));
    /// let v = json!({"id": 1, "html_url": "https://example.com/1", "node_id": "N_1", "body": ""});
    /// assert_eq!(fmt.format("", &v), "- id: 1");
    /// assert_eq!(fmt.format("raw", &v).lines().count(), 6);
    /// ```
    #[must_use]
    pub fn shape(self, shape: Shape) -> Self {
        self.with(|o| o.shape(shape))
    }

    /// Add a summary over **all** rows when the result's table is cut (by a row cap or a
    /// budget), for every tool (per tool: [`ToolOptions::summarize`]). The block follows the
    /// table: the row count, then per column the min and max of numbers, the earliest and
    /// latest of timestamps and dates, value counts of columns with few distinct values, and
    /// sums of the columns named with [`sum`](Self::sum). Exact figures, computed in one pass
    /// over every row (the whole table is built once; the caps cut what is rendered).
    ///
    /// Value counts are given for a column with at most 10 distinct values (each at most 64
    /// bytes, at least two cells per value on average); `earliest to latest` for RFC 3339
    /// timestamps and `YYYY-MM-DD` dates; `, N empty` for null or missing cells. The summary
    /// is computed after redaction and before cells are shortened; tables nested in records
    /// are not summarised. Under a budget, rows are cut first (down to one), then the
    /// summary's column lines from the last. The repository's `docs/large-results.md` has
    /// the rules with the detail levels and the store.
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// let rows: Vec<_> = (1..=500)
    ///     .map(|i| serde_json::json!({"id": i, "status": if i % 5 == 0 { "failed" } else { "ok" }}))
    ///     .collect();
    /// let md = Formatter::new().max_rows(2).summarize(true).format("list_jobs", &rows);
    /// assert_eq!(md, "[Truncated to 2 rows of 500 total]\n\n\
    ///     | id | status |\n|----|--------|\n| 1  | ok     |\n| 2  | ok     |\n\n\
    ///     [Summary of all 500 rows]\n- id: 1 to 500\n- status: ok 400, failed 100");
    /// ```
    #[must_use]
    pub fn summarize(self, on: bool) -> Self {
        self.with(|o| o.summarize(on))
    }

    /// Keep what an agent needs when a budget must leave something out, for every tool (on
    /// in [`for_agents`](Self::for_agents); default off, where a budget cuts by size and
    /// position). Fields and columns are ranked by their name and value (identity, state,
    /// text, the page for people, time, who, then the rest; last API endpoints, internal
    /// ids and empty, false or zero values; marks such as `#[tool_output(key)]` always
    /// win). Records show their most needed fields first and a budget leaves out the least
    /// needed ones, at any depth, naming them in one line; tables say a column with one
    /// value on every row once above the table, and a budget leaves out the least needed
    /// columns before it cuts rows, keeping the first rows and the last.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::Formatter;
    /// let repo = json!({"fork": false, "size": 0, "full_name": "ada/hello",
    ///                   "html_url": "https://github.com/ada/hello"});
    /// assert_eq!(
    ///     Formatter::new().salience(true).format("get_repo", &repo),
    ///     "**get_repo result**\n\n- full_name: ada/hello\n- html_url: https://github.com/ada/hello\n\
    ///      - fork: false\n- size: 0"
    /// );
    /// ```
    #[must_use]
    pub fn salience(self, on: bool) -> Self {
        self.with(|o| o.salience(on))
    }

    /// Columns whose numbers summaries also sum, exactly, for every tool (per tool:
    /// [`ToolOptions::sum`]).
    ///
    /// ```
    /// use tool_output_format::Formatter;
    /// let rows = serde_json::json!([{"amount": 1.5}, {"amount": 2}, {"amount": 0.25}]);
    /// let md = Formatter::new().max_rows(1).summarize(true).sum(["amount"]).format("t", &rows);
    /// assert!(md.ends_with("- amount: 0.25 to 2, sum 3.75"));
    /// ```
    #[must_use]
    pub fn sum<I: IntoIterator<Item = S>, S: Into<String>>(self, columns: I) -> Self {
        self.with(|o| o.sum(columns))
    }

    /// The detail level of derived records for every tool (default [`Detail::Summary`]:
    /// fields marked `#[tool_output(detail = "full")]` are left out and named in a last
    /// line; see [`Detail`]).
    ///
    /// ```
    /// use tool_output_format::{Detail, Formatter};
    /// let fmt = Formatter::new().detail(Detail::Full);
    /// assert_eq!(fmt.format("t", &1), "1");
    /// ```
    #[must_use]
    pub fn detail(self, detail: Detail) -> Self {
        self.with(|o| o.detail(detail))
    }

    /// Keep the full result of every cut output in `store` and end the output with the
    /// line `Next: call FETCH_TOOL(ref="r_...")` (the [`NextAction`](crate::NextAction)
    /// line), so the model can ask for the rest. The stored value is the result's JSON
    /// form ([`ToolOutput::to_json`], every field, secrets redacted). "Cut" means any
    /// notice (rows, lines, fields, items, shortened values, omitted) or a nested table
    /// that lost rows. A budget never cuts the line: its room is reserved. When the store
    /// fails, no reference is promised: the output ends with one line saying so instead,
    /// `[Full result not stored: REASON]`, and [`Report::store_error`](crate::Report::store_error) says why. The put
    /// happens after the text is rendered (no I/O inside the walk or the budget search).
    /// [`Formatter::format_json`] never stores (an MCP server calling both stores once).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use tool_output_format::{Formatter, store::{MemoryStore, ResultStore}};
    ///
    /// let store = Arc::new(MemoryStore::new(Duration::from_secs(600)));
    /// let fmt = Formatter::new().max_rows(1).store(store.clone(), "get_stored_result");
    /// let rows = serde_json::json!([{"id": 1}, {"id": 2}]);
    /// let out = fmt.format_with_report("list", &rows);
    /// let reference = out.report.reference.clone().unwrap();
    /// // The Next line resumes where the text stopped: at the second row.
    /// assert!(out.text.ends_with(&format!("Next: call get_stored_result(ref=\"{reference}\", cursor=\"1\")")));
    /// assert_eq!(store.get(&reference).unwrap(), rows);
    /// ```
    #[must_use]
    pub fn store(mut self, store: Arc<dyn ResultStore>, fetch_tool: &str) -> Self {
        self.store = Some(StoreTarget {
            store,
            fetch_tool: fetch_tool.to_owned(),
        });
        self
    }

    #[cfg(feature = "async")]
    pub(crate) fn with_async_store(mut self, target: Option<nonblocking::AsyncTarget>) -> Self {
        self.async_store = target;
        self
    }

    #[cfg(feature = "async")]
    pub(crate) fn async_store(&self) -> Option<&nonblocking::AsyncTarget> {
        self.async_store.as_ref()
    }

    /// The store the sync path puts into: the sync one, else (only an async store set) the
    /// one that tells the text why nothing was stored.
    fn sync_store(&self) -> Option<&StoreTarget> {
        #[cfg(feature = "async")]
        if self.store.is_none() {
            return self.async_store().map(|t| &t.sync);
        }
        self.store.as_ref()
    }

    /// `format_with_report` with `store` in place of this formatter's own (the async path's
    /// hand-off, or its answer after a failed put).
    #[cfg(feature = "async")]
    pub(crate) fn format_storing<T: ToolOutput + ?Sized>(
        &self,
        tool: &str,
        query: Option<&Query>,
        result: &T,
        store: Arc<dyn ResultStore>,
        fetch_tool: &str,
    ) -> Formatted {
        let target = StoreTarget {
            store,
            fetch_tool: fetch_tool.to_owned(),
        };
        let mut call = self.call(tool, query, true, Target::Text);
        call.store = Some(&target);
        call.run(result).text()
    }

    /// Names the fetch tool's reference argument in the Next line (default `ref`, a Rust
    /// keyword: servers deserializing into a struct may prefer e.g. `id`). A
    /// [`Fetch`](crate::store::Fetch) given this formatter uses the same name.
    ///
    /// ```
    /// use std::{sync::Arc, time::Duration};
    /// use tool_output_format::{Formatter, store::MemoryStore};
    /// let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    /// let fmt = Formatter::new().max_rows(1).store(store, "more").store_ref_arg("id");
    /// let text = fmt.format("t", &serde_json::json!([{"a": 1}, {"a": 2}]));
    /// assert!(text.contains("Next: call more(id=\"r_"), "{text}");
    /// ```
    #[must_use]
    pub fn store_ref_arg(mut self, name: &str) -> Self {
        self.ref_arg = Some(name.to_owned());
        self
    }

    /// The fetch tool's reference argument.
    pub(crate) fn ref_arg_name(&self) -> &str {
        self.ref_arg.as_deref().unwrap_or("ref")
    }

    /// This formatter without its store (pages of a stored result are never stored again).
    pub(crate) fn without_store(&self) -> Formatter {
        Formatter {
            store: None,
            #[cfg(feature = "async")]
            async_store: None,
            ..self.clone()
        }
    }

    /// Register a renderer that replaces the default rendering for one tool. It receives the
    /// result's JSON form (for typed results, [`ToolOutput::to_json`], which is only computed
    /// for tools that have a renderer), redacted, then shaped by the tool's shape if any.
    /// Its text goes through the tool's line cap and budgets; when they cut it and a store is
    /// set, the renderer's whole text is stored and the Next line resumes it at the line (or
    /// the character of a line) where the text stopped.
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new()
    ///     .register("ping", |_| "pong".to_string());
    /// assert_eq!(fmt.format("ping", &()), "pong");
    /// ```
    #[must_use]
    pub fn register<F>(mut self, tool: impl Into<String>, render: F) -> Self
    where
        F: Fn(&Value) -> String + Send + Sync + 'static,
    {
        self.tools.entry(tool.into()).or_default().renderer = Some(Arc::new(render));
        self
    }

    /// Set options for one tool; unset fields inherit the global options, and other tools
    /// are not affected. Calling it again for the same tool replaces its options.
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("tail_log", ToolOptions::new().max_lines(1));
    /// assert!(fmt.format("tail_log", "a\nb").starts_with("[Truncated"));
    /// assert_eq!(fmt.format("cat", "a\nb"), "```\na\nb\n```");
    /// ```
    #[must_use]
    pub fn tool(mut self, tool: impl Into<String>, options: ToolOptions) -> Self {
        self.tools.entry(tool.into()).or_default().options = options;
        self
    }

    /// Render a tool result. An empty `tool` name omits the record title line.
    ///
    /// Never panics (unless a registered renderer does); every cut is announced in the
    /// output with exact counts. The text never ends with a newline and no line ends in
    /// white space.
    ///
    /// | result | rendering |
    /// |---|---|
    /// | non-empty list of records | markdown table, columns in first-seen order across all rows |
    /// | one record | `**{tool} result**`, a blank line, then `- key: value` bullets |
    /// | string | fenced code block (fence longer than any backtick run inside) |
    /// | number, bool | the value as `serde_json` writes it |
    /// | null | `null` |
    /// | empty list / empty record | `*(empty)*` |
    /// | list of scalars, or mixed | one bullet per item; records as sub-bullets |
    ///
    /// Inside a record, nested objects are sub-bullets, lists of records tables inside the
    /// item, lists of scalars joined with `, `, multi-line strings code blocks inside the
    /// item. In a table cell, null is empty, a list of scalars is joined with `, ` and other
    /// nested values are compact JSON. Text is escaped only where it would change the
    /// structure, by one invertible mapping: `|` as `\|`, a line break as `<br>`, control
    /// and bidi characters and a space at either end of a value as `\u{HEX}`, the escape
    /// forms themselves, and a block opener (`# `, `>`, `- `, a fence, ...) at the start of a
    /// list item gets a backslash. The repository's `docs/rendering.md` and
    /// `docs/escaping.md` have every rule, how to read a value back, and what the formatter
    /// guarantees on hostile input.
    ///
    /// ```
    /// use serde_json::json;
    /// let fmt = tool_output_format::Formatter::new();
    /// assert_eq!(fmt.format("", &json!({"a": 1})), "- a: 1");
    /// assert_eq!(fmt.format("t", &json!([{"a": "x|y"}])), "| a    |\n|------|\n| x\\|y |");
    /// assert_eq!(fmt.format("t", &json!(["one", "two"])), "- one\n- two");
    /// assert_eq!(fmt.format("t", &json!([])), "*(empty)*");
    /// ```
    pub fn format<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> String {
        self.call(tool, None, false, Target::Text)
            .run(result)
            .text()
            .text
    }

    /// A view of this formatter that trims around `query` (a per-call question: build the
    /// formatter once, call this for each tool call). Long strings keep their most relevant
    /// sections and tables their most relevant rows; see [`Focused`] for the rules.
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_chars(160);
    /// let page = concat!(
    ///     "# Shipping\nParcels leave the warehouse within two days.\n\n",
    ///     "# Refunds\nRefunds take 5 days.\n\n",
    ///     "# Careers\nWe are hiring engineers, designers and support staff in three cities.",
    /// );
    /// assert_eq!(
    ///     fmt.focus("how long do refunds take").format("fetch_page", page),
    ///     concat!(
    ///         "[Kept 1 of 3 sections relevant to \"how long do refunds take\"]\n\n```\n",
    ///         "[… 1 section omitted …]\n\n# Refunds\nRefunds take 5 days.\n\n",
    ///         "[… 1 section omitted …]\n```",
    ///     )
    /// );
    /// ```
    #[must_use]
    pub fn focus(&self, query: &str) -> Focused<'_> {
        Focused::new(self, query)
    }

    /// Render a tool result and report what was produced and cut (sizes, rows and lines
    /// kept, values shortened, and tokens with the `tokens` feature), so an agent can log
    /// response sizes and warn past a threshold.
    ///
    /// ```
    /// let out = tool_output_format::Formatter::new().format_with_report("t", "a\nb");
    /// assert_eq!(out.text, "```\na\nb\n```");
    /// assert_eq!(out.report.bytes, 11);
    /// assert!(!out.report.truncated());
    /// ```
    pub fn format_with_report<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> Formatted {
        self.format_in(tool, None, result)
    }

    /// The text with its report, focused on `query` when there is one.
    pub(crate) fn format_in<T: ToolOutput + ?Sized>(
        &self,
        tool: &str,
        query: Option<&Query>,
        result: &T,
    ) -> Formatted {
        self.call(tool, query, true, Target::Text)
            .run(result)
            .text()
    }

    /// The structured JSON form of a tool result: the same shaped, capped (and fitted)
    /// result as [`format`](Self::format) writes, as a [`serde_json::Value`] with every cut
    /// recorded, for hosts that read structured content (MCP `structuredContent`).
    ///
    /// `{"result": <the value after caps>, "notices": [<one object per cut>]}`: a table
    /// stays an array of objects whose cells keep their kind (numbers, booleans, `null`,
    /// nested JSON); each notice has a `kind`, a `path` (a JSON Pointer into `result`), its
    /// figures and the `text` markdown prints: `kind` is one of `rows`, `lines`, `fields`,
    /// `items`, `shortened`, `omitted`, `depth`; `path` is `""` for the whole result. An agent
    /// envelope ([`Page`](crate::Page), [`ToolError`](crate::ToolError), ...) is one object
    /// inside `result`, its data under its own key (`items`, `result`) and its parts
    /// (`has_more`, `next_cursor`, `error`, ...) beside the data, never cut (see
    /// [`Envelope`](crate::doc::Envelope)). `max_chars` / `max_tokens` measure the
    /// compact serialization. The layout does not matter here; a registered renderer is not
    /// used (it writes text, and this is the data).
    ///
    /// ```
    /// use serde_json::json;
    /// let rows: Vec<_> = (0..1000).map(|i| json!({"id": i, "ok": i % 2 == 0})).collect();
    /// let out = tool_output_format::Formatter::new().max_rows(2).format_json("t", &rows);
    /// assert_eq!(out, json!({
    ///     "result": [{"id": 0, "ok": true}, {"id": 1, "ok": false}],
    ///     "notices": [{"kind": "rows", "path": "", "kept": 2, "total": 1000,
    ///                  "text": "[Truncated to 2 rows of 1000 total]"}]
    /// }));
    /// ```
    pub fn format_json<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> Value {
        self.call(tool, None, false, Target::Json)
            .run(result)
            .json()
    }

    /// Render records from a stream as one table, keeping only the rows the tool's row cap
    /// shows and counting the rest: memory is the kept rows, whatever the stream's length,
    /// and the notice gives the true total. The text equals [`format`](Self::format) of the
    /// whole array (see [`Rows`] for the one exception, and for building the kept records
    /// yourself).
    ///
    /// ```
    /// use serde_json::json;
    /// let fmt = tool_output_format::Formatter::new().max_rows(1);
    /// let md = fmt.format_rows("t", (0..1_000_000).map(|i| json!({"id": i})));
    /// assert_eq!(md, "[Truncated to 1 rows of 1000000 total]\n\n| id |\n|----|\n| 0  |");
    /// ```
    pub fn format_rows(&self, tool: &str, rows: impl IntoIterator<Item = Value>) -> String {
        self.format(tool, &self.collect_rows(tool, rows))
    }

    /// The records of a stream that the tool's row cap can show, with the count of all of
    /// them (every record when a [store](Self::store) is set, so it can keep the full
    /// result, or when the tool [summarizes](Self::summarize), so the summary is over all
    /// rows) (what [`format_rows`](Self::format_rows) renders; pass it to
    /// [`format_with_report`](Self::format_with_report) or [`format_json`](Self::format_json)
    /// for a report or the structured form).
    ///
    /// ```
    /// use serde_json::json;
    /// let fmt = tool_output_format::Formatter::new().max_rows(3);
    /// let rows = fmt.collect_rows("t", (0..10).map(|i| json!({"id": i})));
    /// assert_eq!((rows.kept().len(), rows.total()), (3, 10));
    /// assert_eq!(fmt.format_json("t", &rows)["notices"][0]["total"], 10);
    /// ```
    pub fn collect_rows(&self, tool: &str, rows: impl IntoIterator<Item = Value>) -> Rows {
        // With a store every record is kept: the store holds the full result, which the
        // Next line then fetches. A summary is over all rows, so it needs every row too.
        #[cfg(feature = "async")]
        let stores = self.store.is_some() || self.async_store().is_some();
        #[cfg(not(feature = "async"))]
        let stores = self.store.is_some();
        let opts = self.options_for(tool);
        let keep = if stores || opts.summarize {
            usize::MAX
        } else {
            opts.row_plan().cap(None)
        };
        let mut out = Rows::default();
        for r in rows {
            out.push(r, keep);
        }
        out
    }

    /// A stored result as the fetch tool `tool` serves it: with the options of `origin` (the
    /// tool whose result it is) unless `tool` has options of its own, in full detail, without
    /// a cell cap (the values it cut are the rest), without budgets or caps when `unbounded`
    /// (a row that alone exceeds them).
    pub(crate) fn format_stored<T: ToolOutput + ?Sized>(
        &self,
        tool: &str,
        origin: Option<&str>,
        unbounded: bool,
        result: &T,
    ) -> Formatted {
        let mut call = self.call(tool, None, true, Target::Text);
        if let Some(opts) = self.origin_options(tool, origin) {
            call.opts = opts;
        }
        call.opts.detail = Detail::Full;
        call.opts.paged = true;
        // A value the first text cut by a cell cap is served whole (a budget may still keep
        // fewer rows for it).
        call.opts.max_cell_chars = None;
        if unbounded {
            call.opts.max_chars = None;
            call.opts.max_tokens = None;
            call.opts.tool_rows = Some(usize::MAX);
            call.opts.global_rows = usize::MAX;
            call.opts.max_lines = usize::MAX;
            call.opts.max_cell_chars = None;
        }
        call.run(result).text()
    }

    /// A page of a stored text as the fetch tool `tool` serves it (see [`crate::cut::passage`]):
    /// from byte `start`, with the options of `origin` unless `tool` has its own; `next`
    /// words the call for a cursor.
    /// The options of the tool a stored result came from (`origin`), when they serve its
    /// pages: the fetch tool `tool` has no options of its own.
    fn origin_options(&self, tool: &str, origin: Option<&str>) -> Option<Resolved> {
        origin
            .filter(|_| !self.tools.contains_key(tool))
            .map(|origin| self.options_for(origin))
    }

    /// The smallest budget a page of `tool`'s stored result is rendered under (the options
    /// [`Formatter::format_stored`] picks), in its own unit; `None` without a budget.
    pub(crate) fn page_budget(&self, tool: &str, origin: Option<&str>) -> Option<usize> {
        let opts = self
            .origin_options(tool, origin)
            .unwrap_or_else(|| self.options_for(tool));
        match (opts.max_chars, opts.max_tokens) {
            (Some(c), Some(t)) => Some(c.min(t)),
            (c, t) => c.or(t),
        }
    }

    pub(crate) fn format_text_page(
        &self,
        tool: &str,
        origin: Option<&str>,
        text: &str,
        start: usize,
        next: &dyn Fn(&str) -> String,
    ) -> String {
        let mut call = self.call(tool, None, false, Target::Text);
        if let Some(opts) = self.origin_options(tool, origin) {
            call.opts = opts;
        }
        call.text_page(text, start, next)
    }

    /// The secret keys of `tool`'s results (the formatter's and the tool's), as every stage
    /// and every path redacts them.
    #[cfg_attr(not(feature = "schemars"), allow(dead_code))]
    pub(crate) fn secrets_for(&self, tool: &str) -> crate::rules::redact::Secrets {
        self.options_for(tool).secrets
    }

    fn options_for(&self, tool: &str) -> Resolved {
        let tool = self.tools.get(tool).map(|e| &e.options);
        ToolOptions::resolve(tool, &self.options)
    }

    /// The registered tool whose name is a near spelling of `tool` (one or two letters added,
    /// dropped or changed), when `tool` itself has no options or renderer: a likely typo,
    /// which would silently give that call the formatter's defaults. With the feature
    /// `tracing`, every call under such a name also logs a warning.
    ///
    /// ```
    /// use tool_output_format::{Formatter, ToolOptions};
    /// let fmt = Formatter::new().tool("list_orders", ToolOptions::new().max_rows(5));
    /// assert_eq!(fmt.near_miss("list_order"), Some("list_orders"));
    /// assert_eq!(fmt.near_miss("list_orders"), None); // registered
    /// assert_eq!(fmt.near_miss("get_weather"), None); // nothing near
    /// ```
    #[must_use]
    pub fn near_miss(&self, tool: &str) -> Option<&str> {
        if self.tools.contains_key(tool) || tool.chars().count() < 4 {
            return None;
        }
        let mut names: Vec<&String> = self.tools.keys().collect();
        names.sort();
        names
            .into_iter()
            .find(|n| edit_distance(n, tool) <= 2)
            .map(String::as_str)
    }

    /// One call of the pipeline for `tool`: its options resolved once (tool > formatter).
    pub(crate) fn call<'c>(
        &'c self,
        tool: &'c str,
        query: Option<&'c Query>,
        report: bool,
        target: Target,
    ) -> Call<'c> {
        if crate::call::trace::enabled()
            && let Some(near) = self.near_miss(tool)
        {
            crate::call::trace::near_miss(tool, near);
        }
        Call {
            tool,
            opts: self.options_for(tool),
            query,
            report,
            target,
            store: self.sync_store(),
            ref_arg: self.ref_arg_name(),
            renderer: self.tools.get(tool).and_then(|e| e.renderer.as_ref()),
            #[cfg(feature = "tokens")]
            counter: self.counter.as_deref(),
        }
    }
}

/// A [`Formatter`] with a question: its `format` keeps what is relevant to the question
/// (see the rules on [`Formatter::focus`] and below). Cheap to make for each call: it borrows
/// the formatter and holds the query's terms.
///
/// ```
/// use tool_output_format::Formatter;
///
/// let fmt = Formatter::new().max_lines(3);
/// let log = "09:00 INFO start\n09:01 INFO tick\n09:02 ERROR disk full on db-2\n09:03 INFO tick\n09:04 INFO tick";
/// assert_eq!(
///     fmt.focus("disk full").format("read_log", log),
///     "[Kept 1 of 5 lines relevant to \"disk full\"]\n\n```\n[… 2 lines omitted …]\n\
///      09:02 ERROR disk full on db-2\n[… 2 lines omitted …]\n```"
/// );
/// // Without the query: the head.
/// assert!(fmt.format("read_log", log).starts_with("[Truncated to 3 lines of 5 total]"));
/// ```
///
/// The guide's example (`docs/focus.md`: the formatter built once, the question passed with
/// each call):
///
/// ```
/// use tool_output_format::Formatter;
///
/// let fmt = Formatter::new().max_chars(210); // built once
/// let page = concat!(
///     "# Shipping\nParcels leave the warehouse within two days.\n\n",
///     "# Refunds\nA refund reaches your card 5 to 10 days after we receive the item.\n\n",
///     "# Careers\nWe are hiring engineers, designers and support staff in three cities.",
/// );
/// let md = fmt.focus("when will I get my refund?").format("fetch_page", page);
/// assert!(md.starts_with("[Kept 1 of 3 sections relevant to \"when will I get my refund?\"]"));
/// ```
///
/// Tables over their row cap keep their most relevant rows:
///
/// ```
/// use serde_json::json;
/// use tool_output_format::Formatter;
///
/// let tickets = json!([
///     {"id": 1, "title": "Printer jammed"},
///     {"id": 2, "title": "Refund not received"},
///     {"id": 3, "title": "VPN drops"},
///     {"id": 4, "title": "Refund policy question"},
/// ]);
/// let md = Formatter::new().max_rows(2).focus("refund").format("tickets", &tickets);
/// assert_eq!(
///     md,
///     "[Kept 2 of 4 rows relevant to \"refund\"]\n\n\
///      | id | title                  |\n\
///      |----|------------------------|\n\
///      | 2  | Refund not received    |\n\
///      | 4  | Refund policy question |"
/// );
/// ```
#[derive(Debug, Clone)]
pub struct Focused<'f> {
    pub(crate) fmt: &'f Formatter,
    pub(crate) query: Query,
}

impl<'f> Focused<'f> {
    pub(crate) fn new(fmt: &'f Formatter, query: &str) -> Self {
        Focused {
            fmt,
            query: Query::new(query),
        }
    }

    /// The order of the kept rows of a table: the data's (the default) or best first.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::{Formatter, RowOrder};
    /// let rows = json!([{"t": "refund asked"}, {"t": "vpn"}, {"t": "refund refund policy"}]);
    /// let fmt = Formatter::new().max_rows(2).layout(tool_output_format::Layout::Compact);
    /// let md = fmt.focus("refund policy").row_order(RowOrder::Ranked).format("t", &rows);
    /// assert_eq!(md, "[Kept 2 of 3 rows relevant to \"refund policy\"]\n\n\
    ///                 |t|\n|-|\n|refund refund policy|\n|refund asked|");
    /// ```
    #[must_use]
    pub fn row_order(mut self, order: RowOrder) -> Self {
        self.query.set_order(order);
        self
    }

    /// The query as notices show it (one line, at most 80 characters).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new();
    /// assert_eq!(fmt.focus(" refund\n policy ").query(), "refund policy");
    /// ```
    #[must_use]
    pub fn query(&self) -> &str {
        self.query.text()
    }

    /// Render a tool result, trimmed around the query (see [`Formatter::format`] for the rest).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new();
    /// // Within its caps: unchanged.
    /// assert_eq!(fmt.focus("anything").format("t", "a\nb"), fmt.format("t", "a\nb"));
    /// ```
    pub fn format<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> String {
        self.fmt
            .call(tool, Some(&self.query), false, Target::Text)
            .run(result)
            .text()
            .text
    }

    /// Render a tool result trimmed around the query, with its [`Report`](crate::Report); what focus kept is
    /// in [`Report::focus`](crate::Report::focus).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_lines(3);
    /// let out = fmt.focus("disk").format_with_report("t", "ok\nok\ndisk full\nok\nok");
    /// assert!(out.report.truncated());
    /// assert_eq!(out.report.lines.map(|k| (k.kept, k.total)), Some((1, 5)));
    /// let focus = out.report.focus.unwrap();
    /// assert_eq!(focus.notice, "[Kept 1 of 5 lines relevant to \"disk\"]");
    /// assert_eq!(focus.kept.map(|k| (k.kept, k.total)), Some((1, 5)));
    /// ```
    pub fn format_with_report<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> Formatted {
        self.fmt.format_in(tool, Some(&self.query), result)
    }

    /// The structured JSON form of the focused result (see [`Formatter::format_json`]).
    ///
    /// The focus line is a notice of kind `focus` (its `text` the line markdown prints), and
    /// `result` holds the same rows, in the same order, as the focused text.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::Formatter;
    /// let tickets = json!([{"t": "printer"}, {"t": "refund late"}, {"t": "vpn"}]);
    /// let v = Formatter::new().max_rows(1).focus("refund").format_json("t", &tickets);
    /// assert_eq!(v["result"], json!([{"t": "refund late"}]));
    /// assert_eq!(v["notices"][0]["kind"], "focus");
    /// assert_eq!(v["notices"][0]["text"], "[Kept 1 of 3 rows relevant to \"refund\"]");
    /// ```
    pub fn format_json<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> Value {
        self.fmt
            .call(tool, Some(&self.query), false, Target::Json)
            .run(result)
            .json()
    }
}

/// Levenshtein distance over characters (short tool names: a small table).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The agent preset's default budget in characters (about 10,000 tokens): see
/// [`Formatter::for_agents`], rule 7.
///
/// ```
/// use tool_output_format::{AGENT_MAX_CHARS, Formatter};
/// let huge = "x".repeat(3_000_000);
/// let out = Formatter::for_agents().format("read_file", huge.as_str());
/// assert!(out.chars().count() <= AGENT_MAX_CHARS);
/// assert!(out.starts_with("[Truncated to the first "), "{}", &out[..80]);
/// ```
pub const AGENT_MAX_CHARS: usize = 40_000;

/// The agent preset's folding shape (see [`Formatter::for_agents`]).
fn agent_shape() -> Shape {
    Shape::new()
        .drop(["url", "*_url", "node_id", "gravatar_id", "managedFields"])
        .drop_empty()
        .flatten()
        .folding()
        .sparing(PAGES_FOR_PEOPLE)
}

/// The `*_url` fields the agent preset shows: a resource's page for people (seed 003's
/// "link to the interface"), not an API endpoint.
const PAGES_FOR_PEOPLE: &[&str] = &["html_url", "web_url", "permalink_url"];

/// Render with default options and no title.
///
/// ```
/// assert_eq!(tool_output_format::to_markdown(&vec![1, 2]), "- 1\n- 2");
/// ```
pub fn to_markdown<T: ToolOutput + ?Sized>(result: &T) -> String {
    Formatter::new().format("", result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatter_is_send_sync_clone() {
        fn check<T: Send + Sync + Clone + 'static>() {}
        check::<Formatter>();
    }

    #[test]
    fn layout_defaults_to_aligned() {
        assert_eq!(Layout::default(), Layout::Aligned);
    }
}
