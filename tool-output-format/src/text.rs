//! Escaping, display width and grapheme-safe cutting: the one place text is made safe.
//!
//! # Inline text (table cells, record keys and values, list items)
//!
//! | input | written as |
//! |---|---|
//! | `\` | `\\` (`\u{5C}` when it is the last character, so it cannot escape the `\|` after it) |
//! | `\|` | `\|` (backslash, pipe) |
//! | `<` | `\<` (so data can never open an HTML tag, and `<br>` below stays unambiguous) |
//! | line break: `\r\n`, `\r` or `\n` | `<br>` |
//! | a space at the very start or end | `\u{20}` (GFM would trim it) |
//! | a line break at the very start of a list item's text | `\u{A}` (a line of only `<br>` would open an HTML block) |
//! | C0 controls (incl. tab, NUL, ESC), DEL, C1 controls, U+2028, U+2029, bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) | `\u{HEX}` (uppercase hex) |
//!
//! The mapping is invertible (after line breaks are normalised to `\n`): read `\u{HEX}` as
//! that character, `\X` as `X` for ASCII punctuation `X`, and `<br>` as a line break. Since every
//! data backslash is doubled, an escape sequence in the output can only come from this table.
//!
//! At the start of a list item (record keys, list entries) a character that could open a
//! block (`#`, `>`, `-`, `+`, `*`, `=`, `_`, `` ` ``, `~`, `[`, or a digit run followed by `.`
//! or `)`) is also preceded by a backslash, so data can never forge a heading, quote, list,
//! fence, link reference definition, footnote or task-list checkbox.
//!
//! # Code blocks (string results, multi-line values)
//!
//! Content is kept as is, except that `\r\n` and `\r` end lines like `\n`, and the characters
//! in the last row above except tab are written as `\u{HEX}` (never raw). The fence is longer
//! than any backtick run in the content.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// True for characters that are never written raw.
pub fn is_hidden_control(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{61c}'
        | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_code_point(c: char, out: &mut String) {
    use std::fmt::Write;
    let _ = write!(out, "\\u{{{:X}}}", c as u32);
}

/// Append `s` escaped for inline use (see the module docs for the mapping).
///
/// `line_start` is true when the text begins a list item's content.
pub fn escape_inline(s: &str, line_start: bool, out: &mut String) {
    let block = line_start && opens_block(s);
    if !block && is_plain_inline(s) {
        out.push_str(s);
        return;
    }
    if line_start {
        // A line holding only `<br>` opens an HTML block: a leading break is `\u{A}`.
        let brk = if s.starts_with("\r\n") {
            2
        } else {
            usize::from(s.starts_with(['\n', '\r']))
        };
        if brk > 0 {
            out.push_str("\\u{A}");
            escape_chars(&s[brk..], brk, s.len(), out);
            return;
        }
    }
    if block {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            out.push('\\');
        } else {
            // `12.` -> `12\.`: escape the delimiter after the digit run.
            out.push_str(&s[..digits]);
            out.push('\\');
            escape_chars(&s[digits..], digits, s.len(), out);
            return;
        }
    }
    escape_chars(s, 0, s.len(), out);
}

/// Escape `part`, which sits at byte `offset` of a text `total` bytes long.
fn escape_chars(part: &str, offset: usize, total: usize, out: &mut String) {
    let lead = part.len() - part.trim_start_matches(' ').len();
    let trail_from = part.trim_end_matches(' ').len();
    let mut chars = part.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ' ' if (offset == 0 && i < lead)
                || (offset + part.len() == total && i >= trail_from) =>
            {
                out.push_str("\\u{20}")
            }
            // A final backslash would escape the `|` that closes a compact table cell (GFM
            // reads `\|` as an escaped pipe whatever precedes it).
            '\\' if offset + i + 1 == total => out.push_str("\\u{5C}"),
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '<' => out.push_str("\\<"),
            '\n' => out.push_str("<br>"),
            '\r' => {
                if chars.peek().is_some_and(|&(_, n)| n == '\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            c if is_hidden_control(c) => push_code_point(c, out),
            c => out.push(c),
        }
    }
}

/// True when [`escape_inline`] writes `s` unchanged (away from the start of a list item):
/// no byte that needs escaping and no space at either end.
#[inline]
pub fn is_plain_inline(s: &str) -> bool {
    // Most cells need no escaping: one table lookup per byte decides it (the sinks call this
    // for every cell, so it is the hottest loop of a render).
    !(s.starts_with(' ') || s.ends_with(' ') || s.bytes().any(|b| CLASS[b as usize] & ESCAPE != 0))
}

/// The display [`width`] of `s` when [`escape_inline`] writes it unchanged (away from the
/// start of a list item), `None` when it must be escaped. One pass over the bytes.
#[inline]
pub fn plain_width(s: &str) -> Option<usize> {
    let class = s.bytes().fold(0, |acc, b| acc | CLASS[b as usize]);
    if class & ESCAPE != 0 || s.starts_with(' ') || s.ends_with(' ') {
        None
    } else if class & NON_ASCII == 0 {
        Some(s.len())
    } else {
        Some(UnicodeWidthStr::width(s))
    }
}

/// Byte classes for the fast paths: [`ESCAPE`] (see `needs_inline_escape`), [`NON_ASCII`].
const CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        if needs_inline_escape(b as u8) {
            t[b] |= ESCAPE;
        }
        if b >= 0x80 {
            t[b] |= NON_ASCII;
        }
        b += 1;
    }
    t
};
const ESCAPE: u8 = 1;
const NON_ASCII: u8 = 2;

const fn needs_inline_escape(b: u8) -> bool {
    // Any non-ASCII lead byte may start a hidden control (C1, U+2028, bidi): check those
    // strings char by char.
    matches!(
        b,
        b'\\' | b'|' | b'<' | 0..=0x1f | 0x7f | 0xc2 | 0xd8 | 0xe2
    )
}

/// True when `s` at the start of a list item could open a block.
fn opens_block(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        // `[` opens a link reference definition (`[a]: /url`, which hides the text), a
        // footnote definition or a task-list checkbox (`[x] done`).
        Some(b'#' | b'>' | b'-' | b'+' | b'*' | b'=' | b'_' | b'`' | b'~' | b'[') => true,
        Some(b'0'..=b'9') => {
            let d = b.iter().take_while(|c| c.is_ascii_digit()).count();
            matches!(b.get(d), Some(b'.' | b')'))
        }
        _ => false,
    }
}

/// Append one line of code-block content: hidden controls (except tab) as `\u{HEX}`, and
/// trailing spaces or tabs as `\u{20}` / `\u{9}` (no output line ends in white space).
pub fn escape_code_line(line: &str, out: &mut String) {
    let body = line.trim_end_matches([' ', '\t']);
    for c in body.chars() {
        if c != '\t' && is_hidden_control(c) {
            push_code_point(c, out);
        } else {
            out.push(c);
        }
    }
    for c in line[body.len()..].chars() {
        push_code_point(c, out);
    }
}

/// Split like [`str::lines`], but also end a line at a lone `\r` (SPEC: `\r` counts as a
/// newline).
pub fn lines(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find(['\n', '\r']) {
            None => Some(std::mem::take(&mut rest)),
            Some(i) => {
                let line = &rest[..i];
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + skip..];
                Some(line)
            }
        }
    })
}

/// The fence for a code block holding `content`: three backticks, or one more than the
/// longest backtick run inside.
pub fn fence_for(content: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for b in content.bytes() {
        if b == b'`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// Display width in terminal columns (CJK and most emoji 2, combining marks 0).
pub fn width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        UnicodeWidthStr::width(s)
    }
}

/// Cut `s` to at most `max` characters on a grapheme boundary, announcing the rest as
/// `…[+N chars]` (N counts characters). Returns `None` when `s` already fits.
pub fn cut_chars(s: &str, max: usize) -> Option<String> {
    let total = s.chars().count();
    if total <= max {
        return None;
    }
    let mut kept_chars = 0;
    let mut end = 0;
    for g in s.graphemes(true) {
        let n = g.chars().count();
        if kept_chars + n > max {
            break;
        }
        kept_chars += n;
        end += g.len();
    }
    Some(format!("{}…[+{} chars]", &s[..end], total - kept_chars))
}

#[cfg(test)]
mod examples {
    use super::*;

    #[test]
    fn is_hidden_control_example() {
        assert!(is_hidden_control('\u{1b}'));
        assert!(is_hidden_control('\u{202e}'));
        assert!(!is_hidden_control('é'));
    }

    #[test]
    fn escape_inline_example() {
        let mut s = String::new();
        escape_inline("a|b\\\nc", false, &mut s);
        assert_eq!(s, "a\\|b\\\\<br>c");
        let mut s = String::new();
        escape_inline("# not a heading", true, &mut s);
        assert_eq!(s, "\\# not a heading");
    }

    #[test]
    fn is_plain_inline_example() {
        assert!(is_plain_inline("São Paulo"));
        assert!(!is_plain_inline("a|b"));
        assert!(!is_plain_inline(" a"));
    }

    #[test]
    fn plain_width_example() {
        assert_eq!(plain_width("李雷"), Some(4));
        assert_eq!(plain_width("a|b"), None);
    }

    #[test]
    fn escape_code_line_example() {
        let mut s = String::new();
        escape_code_line("a\u{1b}[0m ", &mut s);
        assert_eq!(s, "a\\u{1B}[0m\\u{20}");
    }

    #[test]
    fn lines_example() {
        assert_eq!(lines("a\r\nb\rc\n").collect::<Vec<_>>(), ["a", "b", "c"]);
    }

    #[test]
    fn fence_for_example() {
        assert_eq!(fence_for("a ```` b"), "`````");
    }

    #[test]
    fn width_example() {
        assert_eq!(width("李雷"), 4);
    }

    #[test]
    fn cut_chars_example() {
        assert_eq!(cut_chars("abcdef", 2).as_deref(), Some("ab…[+4 chars]"));
        assert_eq!(cut_chars("abc", 3), None);
    }
}
