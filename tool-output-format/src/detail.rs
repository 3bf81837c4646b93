//! Detail levels: a summary by default, the full detail on request.
//!
//! A derived struct marks the fields that only the full detail shows with
//! `#[tool_output(detail = "full")]`. In [`Detail::Summary`] (the formatter's default) those
//! fields are left out of records and tables, and the output ends with one line naming them
//! and the call that shows them:
//!
//! ```text
//! [Left out in summary detail: body, comments_url. Call get_issue(detail="full") for them]
//! ```
//!
//! The call is the tool's own name with the argument `detail="full"`: a tool that has
//! fields marked this way should accept an optional `detail` argument and, given `"full"`,
//! render its result with a formatter whose detail is [`Detail::Full`]
//! ([`Detail::from_arg`] reads the argument). Without a tool name (rendering outside a
//! formatter call) the line ends after the names: `[Left out in summary detail: body]`.
//!
//! The JSON form of a result ([`ToolOutput::to_json`](crate::ToolOutput::to_json): what a
//! registered renderer receives and what a result store keeps) always has every field.
//! `serde_json::Value` results have no detail levels: everything is shown.

use std::sync::Mutex;

use crate::text::escape_inline;

/// How much of a derived record to show.
///
/// ```
/// use tool_output_format::{Detail, Formatter, ToolOptions};
/// let fmt = Formatter::new().tool("get_issue", ToolOptions::new().detail(Detail::Full));
/// assert_eq!(Detail::default(), Detail::Summary);
/// assert_eq!(Detail::from_arg("full"), Some(Detail::Full));
/// # let _ = fmt;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Detail {
    /// Leave out the fields marked `#[tool_output(detail = "full")]`, and name them in a
    /// line at the end (the default).
    #[default]
    Summary,
    /// Every field.
    Full,
}

impl Detail {
    /// The detail level a tool argument names: `"summary"` or `"full"` (ASCII case
    /// ignored); `None` for anything else.
    ///
    /// ```
    /// use tool_output_format::Detail;
    /// assert_eq!(Detail::from_arg("Summary"), Some(Detail::Summary));
    /// assert_eq!(Detail::from_arg("everything"), None);
    /// ```
    #[must_use]
    pub fn from_arg(arg: &str) -> Option<Detail> {
        if arg.eq_ignore_ascii_case("full") {
            Some(Detail::Full)
        } else if arg.eq_ignore_ascii_case("summary") {
            Some(Detail::Summary)
        } else {
            None
        }
    }

    /// The argument value that names this level (`"summary"`, `"full"`).
    ///
    /// ```
    /// assert_eq!(tool_output_format::Detail::Full.as_str(), "full");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Detail::Summary => "summary",
            Detail::Full => "full",
        }
    }

    /// True for [`Detail::Full`].
    ///
    /// ```
    /// assert!(tool_output_format::Detail::Full.is_full());
    /// ```
    #[must_use]
    pub const fn is_full(self) -> bool {
        matches!(self, Detail::Full)
    }
}

/// The names of the fields a build left out in summary detail, collected once per render
/// (each name once, in first-seen order). Shared through the build context; a `Mutex` keeps
/// the context `Send + Sync`, and it is locked only by records that leave fields out.
#[derive(Debug, Default)]
pub(crate) struct LeftOut(Mutex<Vec<String>>);

impl LeftOut {
    pub fn add(&self, names: &[&str]) {
        let Ok(mut seen) = self.0.lock() else { return };
        for name in names {
            if !seen.iter().any(|s| s == name) {
                seen.push((*name).to_owned());
            }
        }
    }

    pub fn names(&self) -> Vec<String> {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// The line naming the fields left out and the call that shows them (see the module docs).
pub(crate) fn left_out_line(names: &[String], tool: &str) -> String {
    let mut out = String::from("[Left out in summary detail: ");
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        escape_inline(name, false, &mut out);
    }
    if !tool.is_empty() {
        out.push_str(". Call ");
        escape_inline(tool, false, &mut out);
        out.push_str("(detail=\"full\") for them");
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_fields_and_the_call() {
        let names = vec!["body".to_owned(), "comments_url".to_owned()];
        assert_eq!(
            left_out_line(&names, "get_issue"),
            "[Left out in summary detail: body, comments_url. Call get_issue(detail=\"full\") for them]"
        );
        assert_eq!(
            left_out_line(&names[..1], ""),
            "[Left out in summary detail: body]"
        );
    }

    #[test]
    fn left_out_keeps_first_seen_order_once() {
        let l = LeftOut::default();
        l.add(&["b", "a"]);
        l.add(&["a", "c"]);
        assert_eq!(l.names(), ["b", "a", "c"]);
    }
}
