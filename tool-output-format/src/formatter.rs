//! The [`Formatter`]: a registry of per-tool renderers and options, and the dispatch.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::build::{Context, RowPlan, Shaping};
use crate::caps::{Cut, Keep, Notice, cut_owned};
use crate::detail::{Detail, LeftOut};
use crate::doc::Node;
use crate::envelope::{self, Envelope};
use crate::fit::{Fitter, Limit};
use crate::focused::{Focused, Lens, Query};
use crate::options::{Layout, Resolved, Strategy, ToolOptions};
use crate::redact::Secrets;
use crate::report::{Formatted, Report};
use crate::shape::{Shape, ShapeStats};
use crate::sink::json::{Json, Shortened};
use crate::sink::{Document, Sink};
use crate::source::ToolOutput;
use crate::source::stream::Rows;
use crate::store::ResultStore;
use crate::summary::{self, SummaryOptions};
#[cfg(feature = "tokens")]
use crate::tokens::TokenCounter;
use crate::trailer::{StoreOutcome, StoreTarget, Trailer, squeezed, summary_squeezed};

type Renderer = Arc<dyn Fn(&Value) -> String + Send + Sync + 'static>;

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
}

impl fmt::Debug for Formatter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tools: Vec<&String> = self.tools.keys().collect();
        tools.sort();
        f.debug_struct("Formatter")
            .field("options", &self.options)
            .field("tools", &tools)
            .field("store", &self.store.as_ref().map(|s| &s.fetch_tool))
            .finish()
    }
}

impl Formatter {
    /// A formatter with the default options (100 lines / rows, aligned tables).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new();
    /// assert_eq!(fmt.format("t", &42), "42");
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Cap on lines of string results and on table rows, for every tool (default 100).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_lines(1);
    /// assert_eq!(fmt.format("t", "a\nb"), "[Truncated to 1 lines of 2 total]\n\n```\na\n```");
    /// ```
    pub fn max_lines(mut self, n: usize) -> Self {
        self.options.max_lines = Some(n);
        self
    }

    /// Cap on table rows for every tool (defaults to [`max_lines`](Self::max_lines)).
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new().max_rows(1);
    /// let md = fmt.format("t", &serde_json::json!([{"a": 1}, {"a": 2}]));
    /// assert!(md.starts_with("[Truncated to 1 rows of 2 total]\n\n"));
    /// ```
    pub fn max_rows(mut self, n: usize) -> Self {
        self.options.max_rows = Some(n);
        self
    }

    /// Table layout for every tool (default [`Layout::Aligned`]).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Layout};
    /// let md = Formatter::new().layout(Layout::Compact).format("t", &serde_json::json!([{"a": 1}]));
    /// assert_eq!(md, "|a|\n|-|\n|1|");
    /// ```
    pub fn layout(mut self, layout: Layout) -> Self {
        self.options.layout = Some(layout);
        self
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
    pub fn max_cell_chars(mut self, n: usize) -> Self {
        self.options.max_cell_chars = Some(n);
        self
    }

    /// Budget for the whole output, in characters (default: none). Tables lose trailing
    /// rows, strings lines, records long values then trailing fields, lists trailing items,
    /// until the text fits; every cut is announced first with exact counts. An output that
    /// fits is unchanged. See `fit` for the rules and the too-small case.
    ///
    /// ```
    /// let rows: Vec<_> = (0..1000).map(|i| serde_json::json!({"id": i, "name": "x"})).collect();
    /// let md = tool_output_format::Formatter::new().max_chars(200).format("t", &rows);
    /// assert!(md.chars().count() <= 200);
    /// assert!(md.starts_with("[Truncated to "));
    /// assert!(md.lines().next().unwrap().ends_with(" rows of 1000 total]"));
    /// ```
    pub fn max_chars(mut self, n: usize) -> Self {
        self.options.max_chars = Some(n);
        self
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
    pub fn max_tokens(mut self, n: usize) -> Self {
        self.options.max_tokens = Some(n);
        self
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
    pub fn token_counter(mut self, counter: Arc<dyn TokenCounter>) -> Self {
        self.counter = Some(counter);
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
    pub fn redact_keys<I: IntoIterator<Item = S>, S: Into<String>>(mut self, keys: I) -> Self {
        self.options.secrets = self.options.secrets.union(&Secrets::new(keys));
        self
    }

    /// Which lines of long strings to keep, for every tool (default [`Strategy::Head`]).
    ///
    /// ```
    /// use tool_output_format::{Formatter, Strategy};
    /// let md = Formatter::new().max_lines(2).strategy(Strategy::HeadTail).format("t", "1\n2\n3\n4");
    /// assert_eq!(md, "[Truncated to 2 lines of 4 total: the first 1 and the last 1]\n\n```\n1\n… [2 lines omitted] …\n4\n```");
    /// ```
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.options.strategy = Some(strategy);
        self
    }

    /// Shape the results of every tool (see [`Shape`] and [`ToolOptions::shape`]). A tool's
    /// own shape replaces this one for that tool (shapes are not merged); give a tool an
    /// empty `Shape::new()` to render its results unshaped. Calling it again replaces the
    /// global shape.
    ///
    /// A shape with mistakes is accepted (the builders never fail, so a shape reads as one
    /// chain): its valid rules apply and every mistake is listed in
    /// [`Report::shape_errors`]. Call [`Shape::check`] where the shape is built to fail early.
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
    pub fn shape(mut self, shape: Shape) -> Self {
        self.options.shape = Some(Arc::new(shape));
        self
    }

    /// Add a summary over **all** rows when the result's table is cut (by a row cap or a
    /// budget), for every tool (per tool: [`ToolOptions::summarize`]). The block follows the
    /// table: the row count, then per column the min and max of numbers, the earliest and
    /// latest of timestamps and dates, value counts of columns with few distinct values, and
    /// sums of the columns named with [`sum`](Self::sum). Exact figures, computed in one pass
    /// over every row (the whole table is built once; the caps cut what is rendered). See
    /// the crate docs, "Large results", for the rules and what a budget cuts first.
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
    pub fn summarize(mut self, on: bool) -> Self {
        self.options.summarize = Some(on);
        self
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
    pub fn sum<I: IntoIterator<Item = S>, S: Into<String>>(mut self, columns: I) -> Self {
        self.options.sum = Some(columns.into_iter().map(Into::into).collect());
        self
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
    pub fn detail(mut self, detail: Detail) -> Self {
        self.options.detail = Some(detail);
        self
    }

    /// Keep the full result of every cut output in `store` and end the output with the
    /// line `Next: call FETCH_TOOL(ref="r_...")` (the [`NextAction`](crate::NextAction)
    /// line), so the model can ask for the rest. The stored value is the result's JSON
    /// form ([`ToolOutput::to_json`], every field, secrets redacted). "Cut" means any
    /// notice (rows, lines, fields, items, shortened values, omitted) or a nested table
    /// that lost rows. A budget never cuts the line: its room is reserved. When the store
    /// fails, the output has no Next line and [`Report::store_error`] says why.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use tool_output_format::{Formatter, MemoryStore, ResultStore};
    ///
    /// let store = Arc::new(MemoryStore::new(Duration::from_secs(600)));
    /// let fmt = Formatter::new().max_rows(1).store(store.clone(), "get_stored_result");
    /// let rows = serde_json::json!([{"id": 1}, {"id": 2}]);
    /// let out = fmt.format_with_report("list", &rows);
    /// let reference = out.report.reference.clone().unwrap();
    /// assert!(out.text.ends_with(&format!("Next: call get_stored_result(ref=\"{reference}\")")));
    /// assert_eq!(store.get(&reference).unwrap(), rows);
    /// ```
    pub fn store(mut self, store: Arc<dyn ResultStore>, fetch_tool: &str) -> Self {
        self.store = Some(StoreTarget {
            store,
            fetch_tool: fetch_tool.to_owned(),
        });
        self
    }

    /// Register a renderer that replaces the default rendering for one tool. It receives the
    /// result's JSON form (for typed results, [`ToolOutput::to_json`], which is only computed
    /// for tools that have a renderer), redacted, then shaped by the tool's shape if any.
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new()
    ///     .register("ping", |_| "pong".to_string());
    /// assert_eq!(fmt.format("ping", &()), "pong");
    /// ```
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
    pub fn tool(mut self, tool: impl Into<String>, options: ToolOptions) -> Self {
        self.tools.entry(tool.into()).or_default().options = options;
        self
    }

    /// Render a tool result. An empty `tool` name omits the record title line.
    ///
    /// Never panics (unless a registered renderer does); every cut is announced in the
    /// output with exact counts.
    ///
    /// ```
    /// let fmt = tool_output_format::Formatter::new();
    /// assert_eq!(fmt.format("", &serde_json::json!({"a": 1})), "- a: 1");
    /// ```
    pub fn format<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> String {
        self.render(tool, result, false, None).text
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
        self.render(tool, result, true, None)
    }

    /// The structured JSON form of a tool result: the same shaped, capped (and fitted)
    /// result as [`format`](Self::format) writes, as a [`serde_json::Value`] with every cut
    /// recorded, for hosts that read structured content (MCP `structuredContent`).
    ///
    /// `{"result": <the value after caps>, "notices": [<one object per cut>]}`: a table
    /// stays an array of objects whose cells keep their kind (numbers, booleans, `null`,
    /// nested JSON); each notice has a `kind`, a `path` (a JSON Pointer into `result`), its
    /// figures and the `text` markdown prints. The full shape and the planned envelope keys
    /// are in the crate docs ("Structured JSON"). `max_chars` / `max_tokens` measure the
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
        let opts = self.options_for(tool);
        // A shape applies to the JSON form of the result (a copy: the structured form is
        // built once, without the text forms' walk in place).
        let shaped = opts
            .shape
            .as_deref()
            .filter(|s| !s.is_empty())
            .map(|shape| {
                let mut json = result.to_json();
                opts.secrets.value(&mut json);
                shape.apply(&json)
            });
        let build = |start: usize, want: usize| match &shaped {
            Some(v) => build_node(v, &opts, start, want, true),
            None => build_node(result, &opts, start, want, true),
        };
        let sink = Json {
            max_chars: opts.max_cell_chars,
        };
        let (shells, cut) = self.json_pipeline(&opts, &sink, &build);
        let body = if shells.is_empty() {
            cut.node
        } else {
            envelope::join(&shells, Some(cut.node))
        };
        crate::sink::json::to_value(
            &Document {
                notices: &cut.notices,
                title: None,
                body: &body,
            },
            Shortened {
                values: cut.values_shortened,
                max_chars: opts.max_cell_chars,
            },
        )
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
    /// them (what [`format_rows`](Self::format_rows) renders; pass it to
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
        let keep = self.options_for(tool).row_plan().cap(None);
        let mut out = Rows::default();
        for r in rows {
            out.push(r, keep);
        }
        out
    }

    fn options_for(&self, tool: &str) -> Resolved {
        let tool = self.tools.get(tool).map(|e| &e.options);
        ToolOptions::resolve(tool, &self.options)
    }

    /// The only code generated per result type: the source's `to_node` (with a context that
    /// says which rows to build) and `to_json`; everything else is shared, which keeps the
    /// compile time of crates that format many types down.
    pub(crate) fn render<T: ToolOutput + ?Sized>(
        &self,
        tool: &str,
        result: &T,
        report: bool,
        query: Option<&Query>,
    ) -> Formatted {
        let opts = self.options_for(tool);
        if let Some(render) = self.tools.get(tool).and_then(|e| e.renderer.as_ref()) {
            let mut json = result.to_json();
            opts.secrets.value(&mut json);
            let mut out = self.render_custom(tool, render, &json, &opts, report);
            if report {
                // Whether it is an error: the node's envelopes, built without table rows.
                let plan = RowPlan {
                    want: 0,
                    ..opts.row_plan()
                };
                let node = result.to_node(&Context::root(&plan, &opts.secrets));
                out.report.error = envelope::split(node).0.iter().any(Envelope::is_error);
            }
            return out;
        }
        let json = || {
            let mut json = result.to_json();
            opts.secrets.value(&mut json);
            json
        };
        let left_out = LeftOut::default();
        if let Some(shape) = opts.shape.as_deref().filter(|s| !s.is_empty()) {
            // A `Value` is walked where it is; anything else through its JSON form.
            let owned;
            let value = match result.as_json_value() {
                Some(v) => v,
                None => {
                    owned = result.to_json();
                    &owned
                }
            };
            let stats = RefCell::new(ShapeStats::default());
            let columns = RefCell::new(None);
            let build = |start: usize, want: usize| {
                let plan = self.plan(&opts, start, want, query);
                let shaping = Shaping {
                    shape,
                    stats: &stats,
                    columns: &columns,
                };
                let cx = Context::root(&plan, &opts.secrets)
                    .with_detail(opts.detail, Some(&left_out))
                    .with_shaping(Some(shaping));
                let mut node = value.to_node(&cx);
                opts.secrets.node(&mut node);
                node
            };
            let mut f = self.render_built(tool, &opts, report, &build, query, &json, &left_out);
            if report {
                let stats = stats.into_inner();
                f.report.conversions_failed = stats.conversions_failed;
                f.report.shape = Some(stats);
                f.report.shape_errors = shape.errors();
            }
            return f;
        }
        let build = |start: usize, want: usize| {
            let plan = self.plan(&opts, start, want, query);
            let cx = Context::root(&plan, &opts.secrets).with_detail(opts.detail, Some(&left_out));
            let mut node = result.to_node(&cx);
            opts.secrets.node(&mut node);
            node
        };
        let mut f = self.render_built(tool, &opts, report, &build, query, &json, &left_out);
        if report && let Some(shape) = &opts.shape {
            f.report.shape_errors = shape.errors();
        }
        f
    }

    /// Which rows of the main table a build makes: from `start`, at most `want`, within the
    /// caps, or every row when a summary or a query must see them all.
    fn plan(&self, opts: &Resolved, start: usize, want: usize, query: Option<&Query>) -> RowPlan {
        RowPlan {
            start,
            want,
            all_rows: opts.summarize || query.is_some_and(Query::ranks_rows),
            ..opts.row_plan()
        }
    }

    /// Build the document, cut it, fit it and write it. Not generic: `build` and `json` are
    /// the only per-type code. Without a budget every row the caps keep is built at once;
    /// with one, a first few, and the fit asks for more as it needs them. With summaries on,
    /// or a query that ranks rows, every row of the main table is built once.
    ///
    /// Envelopes (pages, errors, batches, replies) are taken apart: caps and budgets act on
    /// the innermost body, and every candidate is rendered inside the envelopes, whose parts
    /// are never cut (see `envelope`). The trailer (summary, left-out fields, the stored
    /// result's Next line) follows the text and counts against the budget.
    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    fn render_built<'a>(
        &self,
        tool: &str,
        opts: &Resolved,
        report: bool,
        build: &dyn Fn(usize, usize) -> Node<'a>,
        query: Option<&Query>,
        json: &dyn Fn() -> Value,
        left_out: &LeftOut,
    ) -> Formatted {
        let first = if opts.has_budget() && query.is_none() && !opts.summarize {
            FIRST_BUILD
        } else {
            usize::MAX
        };
        let (shells, body) = envelope::split(build(0, first));
        let error = shells.iter().any(Envelope::is_error);
        let title = (!tool.is_empty())
            .then(|| format!("{tool} {}", if error { "failed" } else { "result" }));
        let sink = opts.layout.sink();
        let write = |node: &Node<'a>, notices: &[Notice]| {
            sink.render(&Document {
                notices,
                title: title.as_deref(),
                body: node,
            })
        };
        let Some(mut node) = body else {
            let text = write(&envelope::join(&shells, None), &[]);
            let cut = Cut {
                node: Node::Null,
                notices: Vec::new(),
                values_shortened: 0,
            };
            return self.finish(
                tool,
                text,
                cut,
                error,
                report,
                None,
                StoreOutcome::default(),
            );
        };
        let grow = |start: usize, want: usize| {
            envelope::innermost(build(start, want)).unwrap_or(Node::Null)
        };
        let build: &dyn Fn(usize, usize) -> Node<'a> =
            if shells.is_empty() { build } else { &grow };
        let summary = match &node {
            Node::Table(t)
                if opts.summarize
                    && (opts.has_budget() || t.total_rows() > Keep::caps(&node, opts).count) =>
            {
                let options = SummaryOptions {
                    sum: opts.sum.clone(),
                    ..SummaryOptions::default()
                };
                Some(summary::of_table(t, &options))
            }
            _ => None,
        };
        let trailer = Trailer::new(tool, summary, left_out, self.store.as_ref());
        let plain = |node: &Node<'a>, notices: &[Notice]| {
            let mut text = if shells.is_empty() {
                write(node, notices)
            } else {
                write(&envelope::join(&shells, Some(node.clone())), notices)
            };
            trailer.append(&mut text, node, notices);
            text
        };
        let limits = self.limits(opts);
        // Query-focused trimming (`focused.rs`): may replace the node by its relevant part
        // and adds its notice line to every rendering.
        let lens = query.and_then(|q| Lens::new(q, &mut node, opts, &limits, &plain));
        let render = |node: &Node<'a>, notices: &[Notice]| match &lens {
            Some(lens) => lens.render(node, notices, &plain),
            None => plain(node, notices),
        };
        let caps = Keep::caps(&node, opts);
        let mut stored = StoreOutcome::default();
        let (text, cut) = if limits.is_empty() {
            let c = cut_owned(node, &caps, opts.strategy);
            if trailer.wants_store(&c.node, &c.notices) {
                stored = trailer.store(&json());
            }
            (render(&c.node, &c.notices), c)
        } else {
            let fitter = Fitter {
                render: &render,
                limits: &limits,
                strategy: opts.strategy,
                grow: build,
            };
            let text_of = |c: &Cut<'a>| match c.notices.as_slice() {
                // Nothing of the body fits: the envelope's parts and the trailer are still
                // written.
                [n @ Notice::Omitted { .. }] if !shells.is_empty() => {
                    let mut text = write(&envelope::join(&shells, None), &c.notices);
                    trailer.append(&mut text, &Node::Null, &c.notices);
                    let _ = n;
                    text
                }
                [n @ Notice::Omitted { .. }] => trailer.omitted(*n),
                notices => render(&c.node, notices),
            };
            let rebuild = || envelope::innermost(build(0, first)).unwrap_or(Node::Null);
            let mut f = fitter.fit(node, &caps);
            // What a budget cuts after rows and before cells: the summary's column lines
            // (the most that still leave a whole row, found by bisection).
            if trailer.summary_len() > 0 && summary_squeezed(&f.cut.notices) {
                let (mut lo, mut hi) = (0, trailer.summary_len());
                let mut best = None;
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    trailer.set_summary_lines(mid);
                    let g = fitter.fit(rebuild(), &caps);
                    if summary_squeezed(&g.cut.notices) {
                        hi = mid;
                    } else {
                        best = Some((mid, g));
                        lo = mid + 1;
                    }
                }
                match best {
                    Some((n, g)) => {
                        trailer.set_summary_lines(n);
                        f = g;
                    }
                    None => {
                        trailer.set_summary_lines(0);
                        f = fitter.fit(rebuild(), &caps);
                    }
                }
            }
            if trailer.wants_store(&f.cut.node, &f.cut.notices) {
                stored = trailer.store(&json());
                // The fit reserved room for a stand-in reference of the same shape; the real
                // one may count differently in tokens: fit again in the rare case it breaks
                // the budget.
                f.text = text_of(&f.cut);
                let over = limits.iter().any(|l| (l.measure)(&f.text) > l.budget);
                if over && !squeezed(&f.cut.notices) {
                    f = fitter.fit(rebuild(), &caps);
                    f.text = text_of(&f.cut);
                }
            } else if matches!(f.cut.notices.as_slice(), [Notice::Omitted { .. }]) {
                f.text = text_of(&f.cut);
            }
            (f.text, f.cut)
        };
        self.finish(tool, text, cut, error, report, lens.as_ref(), stored)
    }

    /// Build, cut and fit the structured JSON form: the envelopes of the result (never cut)
    /// and its cut body. A budget measures the compact JSON of the whole, envelopes included.
    fn json_pipeline<'a>(
        &self,
        opts: &Resolved,
        sink: &dyn Sink,
        build: &dyn Fn(usize, usize) -> Node<'a>,
    ) -> (Vec<Envelope<'a>>, Cut<'a>) {
        let first = if opts.has_budget() {
            FIRST_BUILD
        } else {
            usize::MAX
        };
        let (shells, body) = envelope::split(build(0, first));
        let node = body.unwrap_or(Node::Null);
        let render = |node: &Node<'a>, notices: &[Notice]| {
            let whole;
            let body = if shells.is_empty() {
                node
            } else {
                whole = envelope::join(&shells, Some(node.clone()));
                &whole
            };
            sink.render(&Document {
                notices,
                title: None,
                body,
            })
        };
        let grow = |start: usize, want: usize| {
            envelope::innermost(build(start, want)).unwrap_or(Node::Null)
        };
        let caps = Keep::caps(&node, opts);
        let limits = self.limits(opts);
        let cut = if limits.is_empty() {
            cut_owned(node, &caps, opts.strategy)
        } else {
            Fitter {
                render: &render,
                limits: &limits,
                strategy: opts.strategy,
                grow: &grow,
            }
            .fit(node, &caps)
            .cut
        };
        (shells, cut)
    }

    /// The text and, when asked for (or traced), its report.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        tool: &str,
        text: String,
        cut: Cut<'_>,
        error: bool,
        report: bool,
        lens: Option<&Lens>,
        stored: StoreOutcome,
    ) -> Formatted {
        let trace = crate::trace::enabled();
        if !report && !trace {
            let report = Report {
                error,
                ..Report::default()
            };
            return Formatted { text, report };
        }
        let mut r = Report::new(&text, &cut.node, cut.notices, cut.values_shortened);
        r.error = error;
        r.reference = stored.reference;
        r.store_error = stored.error;
        if let Some(lens) = lens {
            lens.report(&mut r, &cut.node);
        }
        let mut f = self.with_tokens(Formatted { text, report: r }, true);
        crate::trace::event(tool, &f.report);
        if !report {
            f.report = Report {
                error,
                ..Report::default()
            };
        }
        f
    }

    /// A registered renderer's text, under the tool's `max_lines` and budgets too (cut by
    /// lines, then characters, announced first; see `fit_text`).
    fn render_custom(
        &self,
        tool: &str,
        render: &Renderer,
        json: &Value,
        opts: &Resolved,
        report: bool,
    ) -> Formatted {
        let mut stats = None;
        let raw = match opts.shape.as_deref().filter(|s| !s.is_empty()) {
            Some(shape) => {
                let mut counts = ShapeStats::default();
                let shaped = shape.apply_with_stats(json, &mut counts);
                stats = Some(counts);
                render(&shaped)
            }
            None => render(json),
        };
        let limits = self.limits(opts);
        let (text, notices, shortened) =
            crate::fit::fit_text(&raw, opts.max_lines, opts.strategy, &limits);
        let mut r = Report::new(&text, &Node::Null, notices, shortened);
        if let Some(shape) = &opts.shape {
            r.conversions_failed = stats.as_ref().map_or(0, |s| s.conversions_failed);
            r.shape = stats;
            r.shape_errors = shape.errors();
        }
        let trace = crate::trace::enabled();
        let f = self.with_tokens(Formatted { text, report: r }, report || trace);
        crate::trace::event(tool, &f.report);
        f
    }

    /// The budgets of `opts`: characters, and tokens (feature `tokens`), each with its
    /// measure.
    fn limits(&self, opts: &Resolved) -> Vec<Limit<'_>> {
        let mut limits = Vec::new();
        if let Some(budget) = opts.max_chars {
            limits.push(Limit {
                measure: Box::new(|t: &str| t.chars().count()),
                budget,
                unit: "chars",
            });
        }
        #[cfg(feature = "tokens")]
        if let Some(budget) = opts.max_tokens {
            limits.push(Limit {
                measure: Box::new(|t: &str| self.count_tokens(t)),
                budget,
                unit: "tokens",
            });
        }
        limits
    }

    #[cfg(feature = "tokens")]
    fn count_tokens(&self, text: &str) -> usize {
        match &self.counter {
            Some(c) => c.count(text),
            None => crate::tokens::O200k.count(text),
        }
    }

    #[allow(unused_mut)]
    fn with_tokens(&self, mut f: Formatted, count: bool) -> Formatted {
        #[cfg(feature = "tokens")]
        if count {
            f.report.tokens = Some(self.count_tokens(&f.text));
        }
        let _ = count;
        f
    }
}

/// The node of `result` with rows `start..start + want` of its main table built (secrets
/// redacted); `structured` for the JSON form.
fn build_node<'a, T: ToolOutput + ?Sized>(
    result: &'a T,
    opts: &Resolved,
    start: usize,
    want: usize,
    structured: bool,
) -> Node<'a> {
    let plan = RowPlan {
        start,
        want,
        ..opts.row_plan()
    };
    let mut cx = Context::root(&plan, &opts.secrets);
    if structured {
        cx = cx.structured();
    }
    let mut node = result.to_node(&cx);
    opts.secrets.node(&mut node);
    node
}

/// Rows of the main table built first when a budget applies (the fit asks for more).
const FIRST_BUILD: usize = 64;

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
