//! [`NextAction`]: the follow-up call a result suggests, and its `Next:` line.

use std::fmt;

use serde_json::Value;

use crate::text::{escape_inline, is_hidden_control};

/// A suggested follow-up call: a tool, its arguments, optionally a delay and a reason.
///
/// It renders as one line (see [`NextAction::line`]):
/// `Next: call TOOL(ARG=VALUE, ...)`, each value as compact JSON, then ` after N s` when a
/// delay is set, then ` -- REASON` when a reason is set.
///
/// ```
/// use tool_output_format::NextAction;
///
/// let next = NextAction::call("check_job_status").arg("jobId", "job_9").after_secs(30);
/// assert_eq!(next.line(), r#"Next: call check_job_status(jobId="job_9") after 30 s"#);
/// ```
///
/// Its builders own the plain names (`after_secs(...)` sets a value), so the getters that read a value
/// back are `get_`-prefixed (`get_after_secs()`), as `std::process::Command::get_program` is.
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub struct NextAction {
    tool: String,
    args: Vec<(String, Value)>,
    after_secs: Option<u64>,
    reason: Option<String>,
}

impl NextAction {
    /// A call of `tool` with no arguments yet.
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// assert_eq!(NextAction::call("list_orders").line(), "Next: call list_orders()");
    /// ```
    pub fn call(tool: impl Into<String>) -> Self {
        NextAction {
            tool: tool.into(),
            args: Vec::new(),
            after_secs: None,
            reason: None,
        }
    }

    /// Add the argument `name` with `value` (anything that converts into a
    /// [`serde_json::Value`]: strings, numbers, booleans, `Vec`s, `json!(...)`).
    ///
    /// Setting an argument twice keeps its first position and the last value.
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// let next = NextAction::call("search").arg("q", "rust").arg("limit", 10).arg("q", "go");
    /// assert_eq!(next.line(), r#"Next: call search(q="go", limit=10)"#);
    /// ```
    pub fn arg(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        set_arg(&mut self.args, name.into(), value.into());
        self
    }

    /// Suggest waiting `secs` seconds before the call (polling a job, a rate limit).
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// let next = NextAction::call("check_job_status").after_secs(1);
    /// assert_eq!(next.line(), "Next: call check_job_status() after 1 s");
    /// ```
    pub fn after_secs(mut self, secs: u64) -> Self {
        self.after_secs = Some(secs);
        self
    }

    /// Say why the call is suggested; written after ` -- ` at the end of the line (an empty
    /// reason is left out).
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// let next = NextAction::call("get_order").arg("order_id", "ORD-7").reason("to see its items");
    /// assert_eq!(next.line(), r#"Next: call get_order(order_id="ORD-7") -- to see its items"#);
    /// ```
    pub fn reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// The tool to call.
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// assert_eq!(NextAction::call("get_order").tool(), "get_order");
    /// ```
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The arguments, in the order they were first set.
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// let next = NextAction::call("get_order").arg("order_id", "ORD-7");
    /// assert_eq!(next.args()[0].0, "order_id");
    /// assert_eq!(next.args()[0].1, "ORD-7");
    /// ```
    #[must_use]
    pub fn args(&self) -> &[(String, Value)] {
        &self.args
    }

    /// The suggested delay in seconds, if any.
    #[must_use]
    pub(crate) fn get_after_secs(&self) -> Option<u64> {
        self.after_secs
    }

    /// The reason, if any.
    #[must_use]
    pub(crate) fn get_reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The rendered line, `Next: call TOOL(ARG=VALUE, ...)` (pinned form), then
    /// ` after N s` and ` -- REASON` when set.
    ///
    /// Values are compact JSON (`serde_json::to_string`), made line-safe without leaving
    /// JSON: a character `text::is_hidden_control` rejects (line and paragraph
    /// separators, C1 and bidi controls; `serde_json` already escapes C0) is written as
    /// `\uXXXX`, and a `<` that could open an HTML tag, comment or autolink (before a
    /// letter, `/`, `!` or `?`) as `\u003c`. Each value still parses with `serde_json` to the
    /// value given. The tool name, argument names and reason are escaped like inline text
    /// (`text::escape_inline`); plain identifiers are written verbatim.
    ///
    /// ```
    /// use tool_output_format::NextAction;
    /// let next = NextAction::call("list_contacts").arg("cursor", "eyJvZmZzZXQiOjUwfQ");
    /// assert_eq!(next.line(), r#"Next: call list_contacts(cursor="eyJvZmZzZXQiOjUwfQ")"#);
    /// ```
    #[must_use]
    pub fn line(&self) -> String {
        let mut out = String::with_capacity(32 + self.tool.len());
        self.write_line(&mut out);
        out
    }

    /// Append [`NextAction::line`] to `out`.
    pub(crate) fn write_line(&self, out: &mut String) {
        out.push_str("Next: call ");
        escape_inline(&self.tool, false, out);
        out.push('(');
        for (i, (name, value)) in self.args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            escape_inline(name, false, out);
            out.push('=');
            write_json(value, out);
        }
        out.push(')');
        if let Some(secs) = self.after_secs {
            out.push_str(" after ");
            out.push_str(itoa::Buffer::new().format(secs));
            out.push_str(" s");
        }
        if let Some(reason) = self.reason.as_deref().filter(|r| !r.is_empty()) {
            out.push_str(" -- ");
            escape_inline(reason, false, out);
        }
    }
}

impl fmt::Display for NextAction {
    /// Writes [`NextAction::line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

/// Set `name` to `value`, replacing an earlier value in place.
pub(crate) fn set_arg(args: &mut Vec<(String, Value)>, name: String, value: Value) {
    match args.iter_mut().find(|(n, _)| *n == name) {
        Some(slot) => slot.1 = value,
        None => args.push((name, value)),
    }
}

/// Append `value` as compact JSON that cannot break the line or open HTML (see
/// [`NextAction::line`]).
pub(crate) fn write_json(value: &Value, out: &mut String) {
    // Writing a `Value` into a `String` cannot fail (keys are strings, no I/O).
    let json = serde_json::to_string(value).unwrap_or_else(|_| String::from("null"));
    let mut chars = json.chars().peekable();
    while let Some(c) = chars.next() {
        // Outside strings, compact JSON has only ASCII structure, digits and literals, so
        // every character below sits inside a string, where `\uXXXX` is a valid escape.
        match c {
            '<' if chars
                .peek()
                .is_some_and(|&n| n.is_ascii_alphabetic() || "/!?".contains(n)) =>
            {
                out.push_str("\\u003c");
            }
            c if is_hidden_control(c) => {
                use std::fmt::Write;
                // Every hidden control is in the Basic Multilingual Plane: one `\uXXXX`.
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pinned_line() {
        let next = NextAction::call("list_contacts").arg("cursor", "eyJvZmZzZXQiOjUwfQ");
        assert_eq!(
            next.line(),
            "Next: call list_contacts(cursor=\"eyJvZmZzZXQiOjUwfQ\")"
        );
        assert_eq!(next.to_string(), next.line());
    }

    #[test]
    fn values_are_compact_json() {
        let next = NextAction::call("send_invites")
            .arg("emails", vec!["c@example.com", "d@example.com"])
            .arg("limit", 25)
            .arg("dry_run", false)
            .arg("ratio", 0.5)
            .arg("filter", json!({"status": "open", "tags": ["a", "b"]}))
            .arg("none", Value::Null);
        assert_eq!(
            next.line(),
            "Next: call send_invites(emails=[\"c@example.com\",\"d@example.com\"], limit=25, \
             dry_run=false, ratio=0.5, filter={\"status\":\"open\",\"tags\":[\"a\",\"b\"]}, none=null)"
        );
    }

    #[test]
    fn delay_and_reason() {
        let next = NextAction::call("check_job_status")
            .arg("jobId", "job_9")
            .after_secs(30)
            .reason("the job is queued");
        assert_eq!(
            next.line(),
            "Next: call check_job_status(jobId=\"job_9\") after 30 s -- the job is queued"
        );
        assert_eq!(next.get_after_secs(), Some(30));
        assert_eq!(next.get_reason(), Some("the job is queued"));
        assert_eq!(
            NextAction::call("f").after_secs(u64::MAX).line(),
            "Next: call f() after 18446744073709551615 s"
        );
    }

    #[test]
    fn repeated_argument_keeps_position() {
        let next = NextAction::call("f").arg("a", 1).arg("b", 2).arg("a", 3);
        assert_eq!(next.line(), "Next: call f(a=3, b=2)");
        assert_eq!(next.args().len(), 2);
    }

    #[test]
    fn hostile_values_stay_on_one_line_and_stay_json() {
        let hostile = "x\ny\r\u{2028}\u{2029}\u{202e}\u{85}\u{7f}\t\"\\<b>a < b <!-- <? </i> <";
        let next = NextAction::call("f").arg("v", hostile);
        let line = next.line();
        assert_eq!(
            line,
            "Next: call f(v=\"x\\ny\\r\\u2028\\u2029\\u202e\\u0085\\u007f\\t\\\"\\\\\\u003cb>a < b \
             \\u003c!-- \\u003c? \\u003c/i> <\")"
        );
        assert!(!line.contains(['\n', '\r', '\u{2028}', '\u{202e}']));
        // The value still parses back to the input.
        let json = &line["Next: call f(v=".len()..line.len() - 1];
        assert_eq!(serde_json::from_str::<Value>(json).unwrap(), hostile);
    }

    #[test]
    fn hostile_names_and_reason_are_escaped() {
        let next = NextAction::call("a\nb|c")
            .arg("x<y", 1)
            .reason("line\nbreak");
        assert_eq!(
            next.line(),
            "Next: call a<br>b\\|c(x\\<y=1) -- line<br>break"
        );
    }

    #[test]
    fn keys_in_json_objects_are_escaped_too() {
        let next = NextAction::call("f").arg("o", json!({"<a>\u{2028}": 1}));
        assert_eq!(next.line(), "Next: call f(o={\"\\u003ca>\\u2028\":1})");
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn get_after_secs() {
        use crate::NextAction;
        assert_eq!(
            NextAction::call("poll").after_secs(5).get_after_secs(),
            Some(5)
        );
    }

    #[test]
    fn get_reason() {
        use crate::NextAction;
        assert_eq!(NextAction::call("poll").get_reason(), None);
    }
}
