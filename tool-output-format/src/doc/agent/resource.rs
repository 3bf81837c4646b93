//! [`ResourceRef`]: a reference to large data (a file, a blob) instead of the data.

use std::fmt;

use crate::text::escape_inline;

/// A typed reference to data another tool can resolve (`resource://files/abc`), with its
/// name, content type and size, so the conversation carries the reference, not the bytes.
///
/// It renders on one line ([`ResourceRef::line`]):
/// `Resource: NAME (CONTENT_TYPE, SIZE) URI`.
///
/// ```
/// use tool_output_format::ResourceRef;
///
/// let report = ResourceRef::new("resource://files/abc")
///     .name("report.pdf")
///     .content_type("application/pdf")
///     .size_bytes(48_213);
/// assert_eq!(report.line(), "Resource: report.pdf (application/pdf, 48.2 kB) resource://files/abc");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct ResourceRef {
    uri: String,
    name: Option<String>,
    content_type: Option<String>,
    size_bytes: Option<u64>,
}

impl ResourceRef {
    /// A reference to `uri`.
    ///
    /// ```
    /// use tool_output_format::ResourceRef;
    /// assert_eq!(ResourceRef::new("resource://files/abc").line(), "Resource: resource://files/abc");
    /// ```
    pub fn new(uri: impl Into<String>) -> Self {
        ResourceRef {
            uri: uri.into(),
            name: None,
            content_type: None,
            size_bytes: None,
        }
    }

    /// The name a person would recognise (a file name, a title).
    ///
    /// ```
    /// use tool_output_format::ResourceRef;
    /// assert_eq!(ResourceRef::new("u").name("a.csv").line(), "Resource: a.csv u");
    /// ```
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The MIME type (`application/pdf`).
    ///
    /// ```
    /// use tool_output_format::ResourceRef;
    /// assert_eq!(ResourceRef::new("u").content_type("text/csv").line(), "Resource: u (text/csv)");
    /// ```
    pub fn content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }

    /// The size in bytes (shown as a human size: decimal SI, `48.2 kB`).
    ///
    /// ```
    /// use tool_output_format::ResourceRef;
    /// assert_eq!(ResourceRef::new("u").size_bytes(48_213).line(), "Resource: u (48.2 kB)");
    /// ```
    pub fn size_bytes(mut self, size: u64) -> Self {
        self.size_bytes = Some(size);
        self
    }

    /// The URI, as given.
    ///
    /// ```
    /// use tool_output_format::ResourceRef;
    /// assert_eq!(ResourceRef::new("resource://files/abc").uri(), "resource://files/abc");
    /// ```
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The name, if set.
    #[must_use]
    pub(crate) fn get_name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The content type, if set.
    #[must_use]
    pub(crate) fn get_content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The size in bytes, if set.
    #[must_use]
    pub(crate) fn get_size_bytes(&self) -> Option<u64> {
        self.size_bytes
    }

    /// The one-line rendering: `Resource: `, the name, the content type and the human size
    /// in parentheses (those that are set, joined by `, `), then the URI. Without a name the
    /// URI comes first: `Resource: URI (CONTENT_TYPE, SIZE)`.
    ///
    /// Every part is escaped like inline text (`text::escape_inline`): a usual URI,
    /// name or type is verbatim, and none can break the line.
    ///
    /// ```
    /// use tool_output_format::ResourceRef;
    /// let r = ResourceRef::new("resource://exports/9").content_type("text/csv").size_bytes(1_500_000);
    /// assert_eq!(r.line(), "Resource: resource://exports/9 (text/csv, 1.5 MB)");
    /// ```
    #[must_use]
    pub fn line(&self) -> String {
        let mut details = String::new();
        if let Some(ct) = &self.content_type {
            escape_inline(ct, false, &mut details);
        }
        if let Some(size) = self.size_bytes {
            if !details.is_empty() {
                details.push_str(", ");
            }
            details.push_str(&human_size(size));
        }
        let mut out = String::from("Resource: ");
        let write_uri = |out: &mut String| {
            if self.uri.is_empty() {
                // An empty URI is shown as one, not as a line ending in a space.
                out.push_str("\"\"");
            } else {
                escape_inline(&self.uri, false, out);
            }
        };
        if let Some(name) = self.name.as_deref().filter(|n| !n.is_empty()) {
            escape_inline(name, false, &mut out);
            if !details.is_empty() {
                out.push_str(" (");
                out.push_str(&details);
                out.push(')');
            }
            out.push(' ');
            write_uri(&mut out);
        } else {
            write_uri(&mut out);
            if !details.is_empty() {
                out.push_str(" (");
                out.push_str(&details);
                out.push(')');
            }
        }
        out
    }
}

impl fmt::Display for ResourceRef {
    /// Writes [`ResourceRef::line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

/// A size in decimal (SI) units, as file managers and HTTP tooling show it: `N B` below
/// 1000 bytes, else one decimal place in `kB`, `MB`, `GB`, `TB`, `PB` or `EB` (powers of
/// 1000), rounded half up; a value that rounds to 1000.0 moves to the next unit.
#[must_use]
pub(crate) fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["kB", "MB", "GB", "TB", "PB", "EB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let bytes = u128::from(bytes);
    let mut unit = 1000u128;
    let mut i = 0;
    loop {
        // Tenths of this unit, rounded half up (u128: no overflow for any u64).
        let tenths = (bytes * 10 + unit / 2) / unit;
        if tenths < 10_000 || i + 1 == UNITS.len() {
            return format!("{}.{} {}", tenths / 10, tenths % 10, UNITS[i]);
        }
        unit *= 1000;
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let cases = [
            (0, "0 B"),
            (1, "1 B"),
            (999, "999 B"),
            (1000, "1.0 kB"),
            (1049, "1.0 kB"),
            (1050, "1.1 kB"),
            (48_213, "48.2 kB"),
            (999_949, "999.9 kB"),
            (999_950, "1.0 MB"),
            (1_500_000, "1.5 MB"),
            (2_000_000_000, "2.0 GB"),
            (3_250_000_000_000, "3.3 TB"),
            (1_000_000_000_000_000, "1.0 PB"),
            (u64::MAX, "18.4 EB"),
        ];
        for (bytes, want) in cases {
            assert_eq!(human_size(bytes), want, "{bytes}");
        }
    }

    #[test]
    fn lines() {
        let base = || ResourceRef::new("resource://files/abc");
        let cases = [
            (base(), "Resource: resource://files/abc"),
            (
                base().name("report.pdf"),
                "Resource: report.pdf resource://files/abc",
            ),
            (
                base()
                    .name("report.pdf")
                    .content_type("application/pdf")
                    .size_bytes(48_213),
                "Resource: report.pdf (application/pdf, 48.2 kB) resource://files/abc",
            ),
            (
                base().name("a").size_bytes(5),
                "Resource: a (5 B) resource://files/abc",
            ),
            (
                base().content_type("text/csv"),
                "Resource: resource://files/abc (text/csv)",
            ),
            (
                base().size_bytes(2048),
                "Resource: resource://files/abc (2.0 kB)",
            ),
        ];
        for (r, want) in cases {
            assert_eq!(r.line(), want);
            assert_eq!(r.to_string(), want);
        }
    }

    #[test]
    fn hostile_parts_cannot_break_the_line() {
        let r = ResourceRef::new("file:///tmp/a b\n# x")
            .name("evil\n- item|")
            .content_type("text/html<script>\u{202e}");
        assert_eq!(
            r.line(),
            "Resource: evil<br>- item\\| (text/html\\<script>\\u{202E}) file:///tmp/a b<br># x"
        );
    }

    #[test]
    fn empty_parts_leave_no_trailing_space() {
        assert_eq!(ResourceRef::new("").line(), "Resource: \"\"");
        assert_eq!(ResourceRef::new("").name("").line(), "Resource: \"\"");
        assert_eq!(ResourceRef::new("").name("a").line(), "Resource: a \"\"");
        assert_eq!(
            ResourceRef::new("u").name("").size_bytes(1).line(),
            "Resource: u (1 B)"
        );
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn get_content_type() {
        use crate::ResourceRef;
        assert_eq!(ResourceRef::new("u").get_content_type(), None);
    }

    #[test]
    fn get_size_bytes() {
        use crate::ResourceRef;
        assert_eq!(ResourceRef::new("u").get_size_bytes(), None);
    }

    #[test]
    fn human_size() {
        use super::human_size;
        assert_eq!(human_size(999), "999 B");
        assert_eq!(human_size(48_213), "48.2 kB");
        assert_eq!(human_size(999_950), "1.0 MB");
    }

    #[test]
    fn get_name() {
        use crate::ResourceRef;
        assert_eq!(ResourceRef::new("u").get_name(), None);
    }
}
