//! The [`Formatter`]: a registry of per-tool renderers and options, and the dispatch.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::build::{Context, RowPlan};
use crate::caps::{Keep, Notice, cut_owned};
use crate::doc::Node;
use crate::fit::{Fitter, Limit};
use crate::options::{Layout, Resolved, Strategy, ToolOptions};
use crate::redact::Secrets;
use crate::report::{Formatted, Report};
use crate::sink::Document;
use crate::source::ToolOutput;
#[cfg(feature = "tokens")]
use crate::tokens::TokenCounter;

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
}

impl fmt::Debug for Formatter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tools: Vec<&String> = self.tools.keys().collect();
        tools.sort();
        f.debug_struct("Formatter")
            .field("options", &self.options)
            .field("tools", &tools)
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
    /// fits is unchanged. See [`fit`](crate::fit) for the rules and the too-small case.
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

    /// Register a renderer that replaces the default rendering for one tool. It receives the
    /// result's JSON form (for typed results, [`ToolOutput::to_json`], which is only computed
    /// for tools that have a renderer).
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
        self.render(tool, result, false).text
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
        self.render(tool, result, true)
    }

    fn options_for(&self, tool: &str) -> Resolved {
        let tool = self.tools.get(tool).map(|e| &e.options);
        ToolOptions::resolve(tool, &self.options)
    }

    /// The only code generated per result type: the source's `to_node` (with a context that
    /// says which rows to build) and `to_json`; everything else is shared, which keeps the
    /// compile time of crates that format many types down.
    fn render<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T, report: bool) -> Formatted {
        let opts = self.options_for(tool);
        if let Some(render) = self.tools.get(tool).and_then(|e| e.renderer.as_ref()) {
            let mut json = result.to_json();
            opts.secrets.value(&mut json);
            return self.render_custom(render, &json, &opts, report);
        }
        let build = |start: usize, want: usize| {
            let plan = RowPlan {
                start,
                want,
                ..opts.row_plan()
            };
            let mut node = result.to_node(&Context::root(&plan, &opts.secrets));
            opts.secrets.node(&mut node);
            node
        };
        self.render_built(tool, &opts, report, &build)
    }

    /// Build the document, cut it, fit it and write it. Not generic: `build` is the only
    /// per-type code. Without a budget every row the caps keep is built at once; with one,
    /// a first few, and the fit asks for more as it needs them.
    fn render_built<'a>(
        &self,
        tool: &str,
        opts: &Resolved,
        report: bool,
        build: &dyn Fn(usize, usize) -> Node<'a>,
    ) -> Formatted {
        let node = build(
            0,
            if opts.has_budget() {
                FIRST_BUILD
            } else {
                usize::MAX
            },
        );
        let title = (!tool.is_empty()).then(|| format!("{tool} result"));
        let sink = opts.layout.sink();
        let render = |node: &Node<'a>, notices: &[Notice]| {
            sink.render(&Document {
                notices,
                title: title.as_deref(),
                body: node,
            })
        };
        let caps = Keep::caps(&node, opts);
        let chars = |t: &str| t.chars().count();
        let mut limits = Vec::new();
        if let Some(budget) = opts.max_chars {
            limits.push(Limit {
                measure: &chars,
                budget,
                unit: "chars",
            });
        }
        #[cfg(feature = "tokens")]
        let tokens = |t: &str| self.count_tokens(t);
        #[cfg(feature = "tokens")]
        if let Some(budget) = opts.max_tokens {
            limits.push(Limit {
                measure: &tokens,
                budget,
                unit: "tokens",
            });
        }
        let (text, cut) = if limits.is_empty() {
            let c = cut_owned(node, &caps, opts.strategy);
            (render(&c.node, &c.notices), c)
        } else {
            let f = Fitter {
                render: &render,
                limits: &limits,
                strategy: opts.strategy,
                grow: build,
            }
            .fit(node, &caps);
            (f.text, f.cut)
        };
        if !report {
            return Formatted {
                text,
                report: Report::default(),
            };
        }
        let r = Report::new(&text, &cut.node, cut.notices, cut.values_shortened);
        self.with_tokens(Formatted { text, report: r }, true)
    }

    /// A registered renderer's text, under the tool's `max_lines` and budgets too (cut by
    /// lines, then characters, announced first; see [`fit_text`](crate::fit::fit_text)).
    fn render_custom(
        &self,
        render: &Renderer,
        json: &Value,
        opts: &Resolved,
        report: bool,
    ) -> Formatted {
        let raw = render(json);
        let chars = |t: &str| t.chars().count();
        let mut limits = Vec::new();
        if let Some(budget) = opts.max_chars {
            limits.push(Limit {
                measure: &chars,
                budget,
                unit: "chars",
            });
        }
        #[cfg(feature = "tokens")]
        let tokens = |t: &str| self.count_tokens(t);
        #[cfg(feature = "tokens")]
        if let Some(budget) = opts.max_tokens {
            limits.push(Limit {
                measure: &tokens,
                budget,
                unit: "tokens",
            });
        }
        let (text, notices, shortened) =
            crate::fit::fit_text(&raw, opts.max_lines, opts.strategy, &limits);
        let r = Report::new(&text, &Node::Null, notices, shortened);
        self.with_tokens(Formatted { text, report: r }, report)
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
