//! [`Link`]: a labelled URL rendered as a markdown link that data cannot break.

use crate::text::{escape_inline, is_hidden_control};

/// A link to the resource's page in a user interface (view, edit).
///
/// It renders as `[label](url)` ([`link`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    label: String,
    url: String,
}

impl Link {
    /// A link to `url` labelled `label`.
    pub(crate) fn new(label: impl Into<String>, url: impl Into<String>) -> Self {
        Link {
            label: label.into(),
            url: url.into(),
        }
    }

    /// The label, as given.
    #[must_use]
    pub(crate) fn label(&self) -> &str {
        &self.label
    }

    /// The URL, as given (not encoded).
    #[must_use]
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The markdown link (see [`link`]).
    #[must_use]
    #[cfg(test)]
    pub(crate) fn markdown(&self) -> String {
        link(&self.label, &self.url)
    }
}

/// The markdown link `[label](url)`, safe for any label and URL.
///
/// - **URL:** written verbatim except the bytes that could end the link or the line, open
///   HTML or a code span, or split a table cell, which are percent-encoded (uppercase hex,
///   of their UTF-8 bytes): ASCII controls (line breaks, tab, NUL, DEL), space, `(`, `)`,
///   `<`, `>`, `\`, `` ` ``, `|`, and the characters `text::is_hidden_control`
///   rejects (C1 and bidi controls, U+2028, U+2029). Existing `%XX` sequences are kept.
/// - **Label:** escaped like inline text (`text::escape_inline`), and `[`, `]`
///   and `` ` `` are backslash-escaped so the label cannot close the link early or open a
///   code span across it. An empty label is written as `link`.
#[must_use]
#[cfg(test)]
pub(crate) fn link(label: &str, url: &str) -> String {
    let mut out = String::with_capacity(label.len() + url.len() + 4);
    write_link(label, url, &mut out);
    out
}

/// Append [`link`]`(label, url)` to `out`.
pub(crate) fn write_link(label: &str, url: &str, out: &mut String) {
    out.push('[');
    if label.is_empty() {
        out.push_str("link");
    } else {
        let mut escaped = String::with_capacity(label.len());
        escape_inline(label, false, &mut escaped);
        for c in escaped.chars() {
            if matches!(c, '[' | ']' | '`') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push_str("](");
    encode_url(url, out);
    out.push(')');
}

/// Append `url` with the characters that could break a link percent-encoded.
fn encode_url(url: &str, out: &mut String) {
    for c in url.chars() {
        let encode = match c {
            ' ' | '(' | ')' | '<' | '>' | '\\' | '`' | '|' => true,
            c => is_hidden_control(c),
        };
        if encode {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[usize::from(byte >> 4)] as char);
                out.push(HEX[usize::from(byte & 0xF)] as char);
            }
        } else {
            out.push(c);
        }
    }
}

/// The links line of a reply: `Links: [view](url), [edit](url)`; `None` for no links.
#[must_use]
pub(crate) fn links_line(links: &[Link]) -> Option<String> {
    if links.is_empty() {
        return None;
    }
    let mut out = String::from("Links: ");
    for (i, l) in links.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_link(&l.label, &l.url, &mut out);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_links_line_lists_each_link() {
        let links = [
            Link::new("view", "https://x.example/7"),
            Link::new("edit", "https://x.example/7/edit"),
        ];
        assert_eq!(
            links_line(&links).unwrap(),
            "Links: [view](https://x.example/7), [edit](https://x.example/7/edit)"
        );
    }

    #[test]
    fn urls() {
        let cases = [
            (
                "https://shop.example.com/orders/7",
                "https://shop.example.com/orders/7",
            ),
            ("https://x.example/a b", "https://x.example/a%20b"),
            (
                "https://en.wikipedia.org/wiki/Rust_(language)",
                "https://en.wikipedia.org/wiki/Rust_%28language%29",
            ),
            (
                "https://x.example/<script>",
                "https://x.example/%3Cscript%3E",
            ),
            (
                "https://x.example/a\r\nb\tc\u{0}",
                "https://x.example/a%0D%0Ab%09c%00",
            ),
            (
                "https://x.example/\u{7f}\u{85}\u{2028}\u{202e}",
                "https://x.example/%7F%C2%85%E2%80%A8%E2%80%AE",
            ),
            (
                "https://x.example/a\\b`c|d",
                "https://x.example/a%5Cb%60c%7Cd",
            ),
            // Already encoded, non-ASCII, brackets of an IPv6 host, query and fragment: verbatim.
            (
                "https://[::1]:8080/caf%C3%A9?q=é&x=[1]#frag",
                "https://[::1]:8080/caf%C3%A9?q=é&x=[1]#frag",
            ),
            ("", ""),
        ];
        for (url, want) in cases {
            assert_eq!(link("view", url), format!("[view]({want})"), "{url:?}");
        }
    }

    #[test]
    fn labels() {
        let cases = [
            ("view", "[view]"),
            ("", "[link]"),
            ("a]b[c", "[a\\]b\\[c]"),
            ("](https://evil.example)", "[\\](https://evil.example)]"),
            ("x`y", "[x\\`y]"),
            ("line\nbreak", "[line<br>break]"),
            ("a|b\\c<d", "[a\\|b\\\\c\\<d]"),
            ("\u{202e}rtl", "[\\u{202E}rtl]"),
            (" padded ", "[\\u{20}padded\\u{20}]"),
        ];
        for (label, want) in cases {
            assert_eq!(link(label, "u"), format!("{want}(u)"), "{label:?}");
        }
    }

    #[test]
    fn links_line_joins() {
        assert_eq!(links_line(&[]), None);
        assert_eq!(
            links_line(&[Link::new("view", "https://x.example/7")]).as_deref(),
            Some("Links: [view](https://x.example/7)")
        );
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn new() {
        use crate::doc::agent::Link;
        assert_eq!(
            Link::new("edit", "https://x.example/7/edit").label(),
            "edit"
        );
    }

    #[test]
    fn label() {
        use crate::doc::agent::Link;
        assert_eq!(Link::new("a]b", "u").label(), "a]b");
    }

    #[test]
    fn url() {
        use crate::doc::agent::Link;
        assert_eq!(
            Link::new("view", "https://x.example/a b").url(),
            "https://x.example/a b"
        );
    }

    #[test]
    fn markdown() {
        use crate::doc::agent::Link;
        assert_eq!(
            Link::new("view", "https://x.example/a b").markdown(),
            "[view](https://x.example/a%20b)"
        );
    }

    #[test]
    fn link() {
        use super::link;
        assert_eq!(
            link("view", "https://shop.example.com/orders/7"),
            "[view](https://shop.example.com/orders/7)"
        );
        assert_eq!(
            link("a]b", "https://x.example/q?(a b)<c>\n"),
            "[a\\]b](https://x.example/q?%28a%20b%29%3Cc%3E%0A)"
        );
    }
}
