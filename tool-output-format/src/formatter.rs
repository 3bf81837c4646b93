//! The [`Formatter`]: a registry of per-tool renderers and options, and the dispatch.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::budget;
use crate::options::{Layout, ToolOptions};
use crate::sink::markdown::{self, Document};
use crate::source::ToolOutput;

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
        let entry = self.tools.get(tool);
        if let Some(render) = entry.and_then(|e| e.renderer.as_ref()) {
            return render(&result.to_json());
        }
        let opts = match entry {
            Some(e) => e.options.over(&self.options).resolve(),
            None => self.options.resolve(),
        };
        let mut body = result.to_node();
        let notices = budget::apply_caps(&mut body, &opts);
        markdown::render(&Document {
            notices: &notices,
            title: (!tool.is_empty()).then(|| format!("{tool} result")),
            body: &body,
            layout: opts.layout,
        })
    }
}

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
