//! The escaping's fast paths: a class for every byte ([`CLASS`]: needs escaping inline,
//! not ASCII, text) and scans of eight bytes at a time, each checked against its byte-by-byte
//! definition in the tests.

/// Byte classes for the fast paths: [`ESCAPE`] (see `needs_inline_escape`), [`NON_ASCII`].
#[allow(clippy::cast_possible_truncation)] // `b < 256`; `u8::try_from` is not const
pub(super) const CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        if needs_inline_escape(b as u8) {
            t[b] |= ESCAPE;
        }
        if b >= 0x80 {
            t[b] |= NON_ASCII;
        }
        if may_need_escape(b as u8) {
            t[b] |= TEXT;
        }
        b += 1;
    }
    t
};

/// The classes of `s`'s bytes ([`CLASS`] of each, or-ed). Eight bytes at a time: a word of
/// plain ASCII (no control, `|`, `\\` or `<`, the common case) is skipped without looking
/// its bytes up; the last bytes (fewer than eight) are looked up one by one.
#[inline]
pub(super) fn class_of(s: &str) -> u8 {
    let by_bytes = |b: &[u8]| b.iter().fold(0, |acc, &c| acc | CLASS[c as usize]);
    let mut chunks = s.as_bytes().chunks_exact(8);
    let mut class = 0;
    for c in &mut chunks {
        let x = word(c);
        let special = (x & HIGH)
            | has_less(x, 0x20)
            | has_byte(x, 0x7f)
            | has_byte(x, b'|')
            | has_byte(x, b'\\')
            | has_byte(x, b'<');
        if special != 0 {
            class |= by_bytes(c);
        }
    }
    class | by_bytes(chunks.remainder())
}

/// Whether the eight bytes `w` hold nothing a JSON string escapes (no `"`, `\\` or control
/// below 0x20): bytes a JSON writer copies as they are.
#[inline]
pub(crate) fn json_plain_word(w: &[u8]) -> bool {
    let x = word(w);
    (has_less(x, 0x20) | has_byte(x, b'"') | has_byte(x, b'\\')) == 0
}

/// Eight bytes as a little-endian word.
#[inline]
pub(super) fn word(c: &[u8]) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(c);
    u64::from_le_bytes(w)
}

const ONES: u64 = 0x0101_0101_0101_0101;

pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// Non-zero when a byte of `x` is below `n` (`n` at most 128; exact as a test).
#[inline]
pub(super) fn has_less(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH
}

/// Non-zero when a byte of `x` equals `b` (exact as a test).
#[inline]
pub(super) fn has_byte(x: u64, b: u8) -> u64 {
    has_less(x ^ (ONES * u64::from(b)), 1)
}

pub(super) const ESCAPE: u8 = 1;

pub(super) const NON_ASCII: u8 = 2;

/// Bytes that may need escaping in any inline place (see `may_need_escape`).
pub(super) const TEXT: u8 = 4;

const fn needs_inline_escape(b: u8) -> bool {
    // Any non-ASCII lead byte may start a hidden control (C1, U+2028, bidi): check those
    // strings char by char.
    matches!(
        b,
        b'\\' | b'|' | b'<' | 0..=0x1f | 0x7f | 0xc2 | 0xd8 | 0xe2
    )
}

const fn may_need_escape(b: u8) -> bool {
    // `\` (before `u{` or a line break) and `<` (of `<br>`) are checked in the slow path;
    // any non-ASCII lead byte may start a hidden control (C1, U+2028, bidi).
    matches!(
        b,
        b'|' | b'\\' | b'<' | 0..=0x1f | 0x7f | 0xc2 | 0xd8 | 0xe2
    )
}

/// The word-at-a-time scans against their byte-by-byte definitions.
#[cfg(test)]
mod words {
    use proptest::prelude::*;

    use super::*;
    use crate::text::{
        escape_body, escape_chars, escape_code_line, grapheme_prefix, graphemes_up_to,
        has_line_break, has_whitespace, is_hidden_control, push_code_point, push_pointer_segment,
    };

    fn class_by_bytes(s: &str) -> u8 {
        s.bytes().fold(0, |acc, b| acc | CLASS[b as usize])
    }

    /// [`escape_code_line`] char by char: its definition, for the property test.
    fn escape_code_line_by_chars(line: &str, out: &mut String) {
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

    /// [`escape_body`] char by char: its definition, for the property test.
    fn escape_body_by_chars(s: &str, item_start: bool, out: &mut String) {
        let lead = s.len() - s.trim_start_matches(' ').len();
        let trail_from = s.trim_end_matches(' ').len();
        let mut chars = s.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let rest = &s[i + c.len_utf8()..];
            match c {
                ' ' if i < lead || i >= trail_from => out.push_str("\\u{20}"),
                '\n' | '\r' => {
                    if c == '\r' && rest.starts_with('\n') {
                        chars.next();
                    }
                    // A line holding only `<br>` would open an HTML block at an item's start.
                    out.push_str(if i == 0 && item_start {
                        "\\u{A}"
                    } else {
                        "<br>"
                    });
                }
                '|' => out.push_str("\\|"),
                '<' if rest.starts_with("br>") => out.push_str("\\<"),
                // `\u{` would read as an escape, `\<br>` as a literal `<br>`.
                '\\' if rest.starts_with("u{") || rest.starts_with(['\n', '\r']) => {
                    out.push_str("\\u{5C}");
                }
                c if is_hidden_control(c) => push_code_point(c, out),
                c => out.push(c),
            }
        }
    }

    /// [`escape_chars`] char by char: its definition, for the property test.
    fn escape_chars_by_chars(part: &str, offset: usize, total: usize, out: &mut String) {
        let lead = part.len() - part.trim_start_matches(' ').len();
        let trail_from = part.trim_end_matches(' ').len();
        let mut chars = part.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                ' ' if (offset == 0 && i < lead)
                    || (offset + part.len() == total && i >= trail_from) =>
                {
                    out.push_str("\\u{20}");
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

    proptest! {
        #[test]
        fn escaping_by_runs_is_escaping_char_by_char(
            parts in prop::collection::vec(
                prop::sample::select(vec![
                    "a", " ", "  ", "|", "\\", "<", "<br>", "br>", "\\u{", "u{", "\n", "\r", "\r\n",
                    "\t", "\u{7f}", "é", "\u{85}", "\u{2028}", "\u{200f}", "\u{61c}", "–", "abcdefghij",
                ]),
                0..16,
            ),
            item_start: bool,
            cut in 0usize..4,
        ) {
            let s = parts.concat();
            let (mut fast, mut slow) = (String::new(), String::new());
            escape_code_line(&s, &mut fast);
            escape_code_line_by_chars(&s, &mut slow);
            prop_assert_eq!(&fast, &slow);
            let (mut fast, mut slow) = (String::new(), String::new());
            escape_body(&s, item_start, &mut fast);
            escape_body_by_chars(&s, item_start, &mut slow);
            prop_assert_eq!(&fast, &slow);
            // A part of `s` at each offset (on a char boundary), the last or not.
            let at = s.char_indices().map(|(i, _)| i).nth(cut).unwrap_or(s.len());
            for (part, offset) in [(&s[at..], at), (&s[..at], 0)] {
                let (mut fast, mut slow) = (String::new(), String::new());
                escape_chars(part, offset, s.len(), &mut fast);
                escape_chars_by_chars(part, offset, s.len(), &mut slow);
                prop_assert_eq!(&fast, &slow);
            }
        }

        #[test]
        fn class_of_is_the_class_of_every_byte(s in "(?s).{0,40}") {
            prop_assert_eq!(class_of(&s), class_by_bytes(&s));
            prop_assert_eq!(has_line_break(&s), s.contains(['\n', '\r']));
            prop_assert_eq!(has_whitespace(&s), s.contains(char::is_whitespace));
        }

        #[test]
        fn class_of_sees_each_special_byte_at_each_offset(
            len in 0usize..24,
            at in 0usize..24,
            c in prop::sample::select(vec!['\n', '\r', '\t', '\u{7f}', '|', '\\', '<', 'é', '\u{2028}', '\u{85}', '\u{200f}', 'a', ' ', '\u{b}', '\u{a0}']),
        ) {
            let mut s = "x".repeat(len);
            s.insert(at.min(len), c);
            prop_assert_eq!(class_of(&s), class_by_bytes(&s));
            prop_assert_eq!(has_line_break(&s), s.contains(['\n', '\r']));
            prop_assert_eq!(has_whitespace(&s), s.contains(char::is_whitespace));
        }

        #[test]
        fn a_pointer_segment_by_runs_is_the_segment_escaped_char_by_char(
            parts in prop::collection::vec(
                prop::sample::select(vec!["a", "~", "/", "~1", "é", "", "abcdefghij"]),
                0..8,
            ),
        ) {
            let segment = parts.concat();
            let mut fast = "/x".to_owned();
            push_pointer_segment(&mut fast, &segment);
            let mut slow = "/x/".to_owned();
            for c in segment.chars() {
                match c {
                    '~' => slow.push_str("~0"),
                    '/' => slow.push_str("~1"),
                    c => slow.push(c),
                }
            }
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn grapheme_prefix_is_the_grapheme_walk(
            parts in prop::collection::vec(
                prop::sample::select(vec!["a", "\r", "\n", "\r\n", "\u{301}", "é", "\u{200d}", "👍", "\u{1f1eb}", " "]),
                1..24,
            ),
            max in 0usize..24,
        ) {
            let s = parts.concat();
            prop_assume!(s.chars().count() > max);
            prop_assert_eq!(grapheme_prefix(&s, max), graphemes_up_to(&s, max));
        }
    }
}
