//! Escaping, display width and grapheme-safe cutting: the one place text is made safe.
//!
//! # Raw text is what the model reads
//!
//! A model reads the raw markdown, not a rendered page, so text is escaped only where it
//! would otherwise change the structure; every other byte of the data appears verbatim
//! (`_id`, `+1`, `1.0.0`, `<user>`, `C:\path`, `a*b`, `{"a":"\"x\""}`). [`escape_text`]
//! writes inline text by [`Place`]:
//!
//! | data | written as | where |
//! |---|---|---|
//! | `\|` | `\|` (a backslash is added) | everywhere (in a list item, a line with a `\|` followed by a line like `- : \|` would read as a table) |
//! | line break: `\r\n`, `\r` or `\n` | `<br>` (`\u{A}` as the very first character of a list item) | everywhere |
//! | a literal `<br>` | `\<br>` | everywhere |
//! | a literal `\u{` | `\u{5C}u{` | everywhere |
//! | a backslash right before a line break | `\u{5C}` | everywhere |
//! | a space at the very start or end | `\u{20}` (GFM would trim it; no line ends in a space) | everywhere |
//! | C0 controls (incl. tab, NUL, ESC), DEL, C1 controls, U+2028, U+2029, bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) | `\u{HEX}` (uppercase hex) | everywhere |
//! | a block opener at the start of a list item | a backslash before it (`\#`, `\>`, `\-`, `\[`, `\<div>`, `12\.`) | record keys, list entries |
//!
//! Everything else, backslashes and `<` included, is written as it is. A block opener is what
//! would begin a block at the start of a line: `#` to `######` then a space or the end, `>`, a
//! `-`, `+` or `*` then a space or the end, a thematic break (`---`, `***`, `___`), a fence
//! (```` ``` ````, `~~~`), `<` then a letter, `/`, `!` or `?` (an HTML block), `[` (a link
//! reference definition, a footnote or a task-list box), or up to 9 digits then `.` or `)`
//! then a space or the end (the backslash goes before the `.` or `)`). A data backslash in the
//! place where that escape would go is written `\u{5C}`.
//!
//! In a table cell, a backslash is harmless except before a `|`, where GFM reads `\|` as an
//! escaped pipe whatever precedes it, so data `\|` is written `\\|` (the pipe gets its
//! backslash, the data's stays). A cell that ends in a backslash is followed by a space before
//! the closing `|` in the compact layout (the aligned layout always has one), so the backslash
//! cannot escape the delimiter.
//!
//! **Reading it back.** Scan left to right: `\|` is `|`, `\<br>` is `<br>`,
//! `<br>` is a line break, `\u{HEX}` is that character, anything else is itself; at the start
//! of a list item, a backslash (at the start, or after a leading digit run) whose removal
//! would leave a block opener right there is removed. The mapping is invertible (after line
//! breaks are normalised to `\n`). JSON written into a cell (nested values) is therefore the
//! value's compact JSON once `\|` is read as `|`, and parses with `serde_json`; only a JSON
//! string that holds a literal `<br>` or `\u{` reads differently until decoded.
//!
//! **Where a markdown viewer disagrees.** A viewer applies `CommonMark`'s backslash escapes to
//! the raw text: data `a\*b` or `\_id` shows as `a*b` / `_id`, `C:\path` shows as is, a cell
//! `\\|` shows as `\|`, `<details>` inside a cell or value may render as HTML, and `**x**`
//! renders bold. The raw text is the contract: it is the data, byte for byte, under the
//! table above.
//!
//! [`escape_inline`] is the older, stricter form (every `\`, `|` and `<` escaped) that the
//! agent envelope lines use.
//!
//! # Code blocks (string results, multi-line values)
//!
//! Content is kept as is, except that `\r\n` and `\r` end lines like `\n`, and the characters
//! in the last row above except tab are written as `\u{HEX}` (never raw). The fence is longer
//! than any backtick run in the content.

pub(crate) mod name_index;
pub(crate) mod name_list;
pub(crate) mod resume;
mod scan;
pub(crate) mod tokens;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

pub(crate) use scan::json_plain_word;
use scan::{CLASS, ESCAPE, HIGH, NON_ASCII, TEXT, class_of, has_byte, has_less, word};

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

/// Where inline text is written, which decides what in it could act as structure
/// (see the [module docs](self) for the mapping).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// A table cell or header.
    Cell,
    /// The start of a list item's text (a record key, a list entry), followed on the line by
    /// `next` (`None`: the end of the line): a block opener would act there.
    ItemStart(Option<char>),
    /// Anywhere else on a line: a record value after `key: `, a title.
    Inline,
}

/// Append `s` escaped for `place`: only what would change the structure there is escaped
/// (see the [module docs](self) for the mapping and how to read it back).
pub fn escape_text(s: &str, place: Place, out: &mut String) {
    let Place::ItemStart(next) = place else {
        if is_plain_text(s) {
            out.push_str(s);
        } else {
            escape_body(s, false, out);
        }
        return;
    };
    let plain = is_plain_text(s);
    // Text that starts with a letter opens no block and has no backslash before an opener:
    // the common case of a record's keys.
    if plain && s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
        out.push_str(s);
        return;
    }
    let start = out.len();
    if plain {
        out.push_str(s);
    } else {
        escape_body(s, true, out);
    }
    let written = &out[start..];
    if let Some(p) = opens_block(written, next) {
        out.insert(start + p, '\\');
    } else if let Some(p) = data_backslash_before_opener(written, next) {
        out.replace_range((start + p)..=(start + p), "\\u{5C}");
    }
}

/// True when `s` holds a line break (`\n` or `\r`): compared byte by byte, no `char`
/// decoding (a multi-byte character never contains either byte).
#[inline]
pub fn has_line_break(s: &str) -> bool {
    let mut chunks = s.as_bytes().chunks_exact(8);
    chunks.any(|c| {
        let x = word(c);
        has_byte(x, b'\n') | has_byte(x, b'\r') != 0
    }) || chunks.remainder().iter().any(|&b| b == b'\n' || b == b'\r')
}

/// True when `s` holds a whitespace character (`char::is_whitespace`): ASCII text eight
/// bytes at a time with no `char` decoding, text with other characters char by char.
pub(crate) fn has_whitespace(s: &str) -> bool {
    let space = |b: &u8| matches!(b, b'\t'..=b'\r' | b' ');
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let x = word(c);
        if x & HIGH != 0 {
            return s.contains(char::is_whitespace);
        }
        if has_less(x, 0x21) != 0 && c.iter().any(space) {
            return true;
        }
    }
    let rest = chunks.remainder();
    if rest.is_ascii() {
        rest.iter().any(space)
    } else {
        s.contains(char::is_whitespace)
    }
}

/// True when [`escape_text`] surely writes `s` unchanged away from the start of a list
/// item: no byte that may need escaping and no space at either end.
#[inline]
pub fn is_plain_text(s: &str) -> bool {
    !(s.starts_with(' ') || s.ends_with(' ') || class_of(s) & TEXT != 0)
}

/// The display [`width`] of `s` when [`escape_text`] surely writes it unchanged in a cell,
/// `None` when it may need escaping (a `|`, `\`, `<`, control, or an edge space: then escape
/// it and measure the result). One pass over the bytes.
#[inline]
pub fn plain_cell_width(s: &str) -> Option<usize> {
    let class = class_of(s);
    if class & TEXT != 0 || s.starts_with(' ') || s.ends_with(' ') {
        None
    } else if class & NON_ASCII == 0 {
        Some(s.len())
    } else {
        Some(UnicodeWidthStr::width(s))
    }
}

/// Escape `s` (the slow path of [`escape_text`]): runs of bytes that need nothing are
/// copied whole (eight bytes at a time while they are plain ASCII); only the bytes of class
/// [`TEXT`] are looked at one by one. Checked against the char-by-char definition
/// (`escape_body_by_chars`) by a property test.
fn escape_body(s: &str, item_start: bool, out: &mut String) {
    let b = s.as_bytes();
    let lead = s.len() - s.trim_start_matches(' ').len();
    let trail_from = s.trim_end_matches(' ').len().max(lead);
    for _ in 0..lead {
        out.push_str("\\u{20}");
    }
    let mut i = lead;
    let mut run = lead;
    while i < trail_from {
        if i + 8 <= trail_from && !special_word(word(&b[i..i + 8])) {
            i += 8;
            continue;
        }
        let c = b[i];
        if CLASS[c as usize] & TEXT == 0 {
            i += 1;
            continue;
        }
        out.push_str(&s[run..i]);
        // After an ASCII byte (the arms that read it); empty after a lead byte.
        let rest = s.get(i + 1..).unwrap_or_default();
        i += match c {
            b'\n' | b'\r' => {
                // A line holding only `<br>` would open an HTML block at an item's start.
                out.push_str(if i == 0 && item_start {
                    "\\u{A}"
                } else {
                    "<br>"
                });
                if c == b'\r' && rest.starts_with('\n') {
                    2
                } else {
                    1
                }
            }
            b'|' => {
                out.push_str("\\|");
                1
            }
            b'<' => {
                out.push_str(if rest.starts_with("br>") { "\\<" } else { "<" });
                1
            }
            // `\u{` would read as an escape, `\<br>` as a literal `<br>`.
            b'\\' => {
                let hide = rest.starts_with("u{") || rest.starts_with(['\n', '\r']);
                out.push_str(if hide { "\\u{5C}" } else { "\\" });
                1
            }
            // Every other ASCII byte of the class is a control, hidden.
            0..=0x7f => {
                push_code_point(char::from(c), out);
                1
            }
            // A lead byte that may start a hidden control.
            _ => push_char(&s[i..], out),
        };
        run = i;
    }
    out.push_str(&s[run..trail_from]);
    for _ in trail_from..s.len() {
        out.push_str("\\u{20}");
    }
}

/// Append the first character of `s` (a non-ASCII one), as a code point when it is a hidden
/// control; returns its length in bytes.
fn push_char(s: &str, out: &mut String) -> usize {
    let ch = s.chars().next().unwrap_or_default();
    if is_hidden_control(ch) {
        push_code_point(ch, out);
    } else {
        out.push(ch);
    }
    ch.len_utf8()
}

/// Whether a word of eight bytes holds a byte that is not plain ASCII text: non-ASCII, a
/// control, `|`, `\\` or `<` (the bytes of [`TEXT`] and [`ESCAPE`] are all among them).
#[inline]
fn special_word(x: u64) -> bool {
    ((x & HIGH)
        | has_less(x, 0x20)
        | has_byte(x, 0x7f)
        | has_byte(x, b'|')
        | has_byte(x, b'\\')
        | has_byte(x, b'<'))
        != 0
}

/// Where a backslash goes when `o` (escaped text at the start of a list item, followed on
/// the line by `next`) would open a block: before its first character, or after a leading
/// digit run for an ordered-list marker.
#[allow(clippy::naive_bytecount)] // a list item's first line; no `bytecount` dependency for it
fn opens_block(o: &str, next: Option<char>) -> Option<usize> {
    let b = o.as_bytes();
    // A space, a tab or the end of the line at byte `i`.
    let gap = |i: usize| match b.get(i) {
        Some(b' ' | b'\t') => true,
        Some(_) => false,
        None => next.is_none(),
    };
    match *b.first()? {
        b'>' | b'[' => Some(0),
        b'#' => {
            let h = b.iter().take_while(|&&c| c == b'#').count();
            (h <= 6 && gap(h)).then_some(0)
        }
        b'-' | b'+' | b'*' if gap(1) => Some(0),
        c @ (b'-' | b'*' | b'_') if next.is_none() => {
            let marks = b.iter().filter(|&&x| x == c).count();
            let only = b.iter().all(|&x| x == c || x == b' ' || x == b'\t');
            (only && marks >= 3).then_some(0)
        }
        b'`' | b'~' if o.starts_with("```") || o.starts_with("~~~") => Some(0),
        b'<' if b
            .get(1)
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')) =>
        {
            Some(0)
        }
        b'0'..=b'9' => {
            let d = b.iter().take_while(|c| c.is_ascii_digit()).count();
            (d <= 9 && matches!(b.get(d), Some(b'.' | b')')) && gap(d + 1)).then_some(d)
        }
        _ => None,
    }
}

/// A data backslash in `o` sitting where [`opens_block`] would put its escape (so a reader
/// would take it for one): its byte offset.
fn data_backslash_before_opener(o: &str, next: Option<char>) -> Option<usize> {
    let d = o.bytes().take_while(u8::is_ascii_digit).count();
    [0, d].into_iter().find(|&p| {
        let rest = &o[p..];
        rest.starts_with('\\')
            && !rest[1..].starts_with("u{")
            && !rest[1..].starts_with("<br>")
            && opens_block(&format!("{}{}", &o[..p], &rest[1..]), next) == Some(p)
    })
}

/// Append `parts` (already escaped; `total` of them), joined by `sep`, while the text stays
/// within `end` bytes, keeping `reserve.0` bytes free while parts follow (for `and N more`)
/// and `reserve.1` after the last; the first part is always appended. Returns how many were.
/// The one bounded list of the left-out lines and the notes above tables.
pub(crate) fn join_within<S: AsRef<str>>(
    out: &mut String,
    parts: impl IntoIterator<Item = S>,
    total: usize,
    sep: &str,
    end: usize,
    reserve: (usize, usize),
) -> usize {
    let mut shown = 0;
    for part in parts {
        let part = part.as_ref();
        let tail = if shown + 1 < total {
            reserve.0
        } else {
            reserve.1
        };
        if shown > 0 && out.len() + part.len() + sep.len() + tail > end {
            break;
        }
        if shown > 0 {
            out.push_str(sep);
        }
        out.push_str(part);
        shown += 1;
    }
    shown
}

/// Append `s` escaped for inline use by the strict mapping (every `\`, `|` and `<`
/// escaped): the agent envelope lines use it.
///
/// `line_start` is true when the text begins a list item's content.
pub fn escape_inline(s: &str, line_start: bool, out: &mut String) {
    let block = line_start && opens_block_strict(s);
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

/// Escape `part`, which sits at byte `offset` of a text `total` bytes long: runs of bytes
/// that need nothing are copied whole, as in [`escape_body`]. Checked against the
/// char-by-char definition (`escape_chars_by_chars`) by a property test.
fn escape_chars(part: &str, offset: usize, total: usize, out: &mut String) {
    let b = part.as_bytes();
    let lead = if offset == 0 {
        part.len() - part.trim_start_matches(' ').len()
    } else {
        0
    };
    let end = if offset + part.len() == total {
        part.trim_end_matches(' ').len().max(lead)
    } else {
        part.len()
    };
    for _ in 0..lead {
        out.push_str("\\u{20}");
    }
    let mut i = lead;
    let mut run = lead;
    while i < end {
        if i + 8 <= end && !special_word(word(&b[i..i + 8])) {
            i += 8;
            continue;
        }
        let c = b[i];
        if CLASS[c as usize] & ESCAPE == 0 {
            i += 1;
            continue;
        }
        out.push_str(&part[run..i]);
        i += match c {
            // A final backslash would escape the `|` that closes a compact table cell (GFM
            // reads `\|` as an escaped pipe whatever precedes it).
            b'\\' if offset + i + 1 == total => {
                out.push_str("\\u{5C}");
                1
            }
            b'\\' => {
                out.push_str("\\\\");
                1
            }
            b'|' => {
                out.push_str("\\|");
                1
            }
            b'<' => {
                out.push_str("\\<");
                1
            }
            b'\n' => {
                out.push_str("<br>");
                1
            }
            b'\r' => {
                out.push_str("<br>");
                if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 }
            }
            0..=0x7f => {
                push_code_point(char::from(c), out);
                1
            }
            _ => push_char(&part[i..], out),
        };
        run = i;
    }
    out.push_str(&part[run..end]);
    for _ in end..part.len() {
        out.push_str("\\u{20}");
    }
}

/// True when [`escape_inline`] writes `s` unchanged (away from the start of a list item):
/// no byte that needs escaping and no space at either end.
#[inline]
pub fn is_plain_inline(s: &str) -> bool {
    // Most cells need no escaping: a word-at-a-time scan decides it (the sinks call this for
    // every cell, so it is the hottest loop of a render).
    !(s.starts_with(' ') || s.ends_with(' ') || class_of(s) & ESCAPE != 0)
}

/// True when `s` at the start of a list item could open a block.
fn opens_block_strict(s: &str) -> bool {
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
    // Runs of bytes that hold no hidden control are copied whole: only the bytes of class
    // [`TEXT`] but `|`, `\\`, `<` and tab are looked at (controls, `0x7f`, the lead bytes
    // that may start a hidden control).
    let b = body.as_bytes();
    let mut i = 0;
    let mut run = 0;
    while i < b.len() {
        if i + 8 <= b.len() && !special_word(word(&b[i..i + 8])) {
            i += 8;
            continue;
        }
        let c = b[i];
        if CLASS[c as usize] & TEXT == 0 || matches!(c, b'|' | b'\\' | b'<' | b'\t') {
            i += 1;
            continue;
        }
        out.push_str(&body[run..i]);
        i += if c.is_ascii() {
            push_code_point(char::from(c), out);
            1
        } else {
            push_char(&body[i..], out)
        };
        run = i;
    }
    out.push_str(&body[run..]);
    for c in line[body.len()..].chars() {
        push_code_point(c, out);
    }
}

/// Split like [`str::lines`], but also end a line at a lone `\r` (a lone `\r` counts as a
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

/// Like [`cut_chars`], but only when the cut form, marker included, is shorter than `s` (in
/// characters): a cut marker never makes a value longer. `None` when `s` stays as it is.
pub fn shorten(s: &str, max: usize) -> Option<String> {
    shorten_kept(s, max).map(|(cut, _)| cut)
}

/// [`shorten`], with how many characters of `s` the cut form keeps.
pub(crate) fn shorten_kept(s: &str, max: usize) -> Option<(String, usize)> {
    // A string of at most `max` bytes has at most `max` characters: nothing to count.
    if s.len() <= max {
        return None;
    }
    let total = s.chars().count();
    let (cut, kept) = cut_at(s, max, total)?;
    // The cut form is `kept` characters, the marker `…[+N chars]`.
    let marker = 1 + 2 + digits(total - kept) + 7;
    (kept + marker < total).then_some((cut, kept))
}

/// Decimal digits of `n`.
fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// Cut `s` to at most `max` characters on a grapheme boundary, announcing the rest as
/// `…[+N chars]` (N counts characters). Returns `None` when `s` already fits.
pub fn cut_chars(s: &str, max: usize) -> Option<String> {
    if s.len() <= max {
        return None;
    }
    cut_at(s, max, s.chars().count()).map(|(cut, _)| cut)
}

/// [`cut_chars`] of a string of `total` characters: the cut form and the characters kept.
fn cut_at(s: &str, max: usize, total: usize) -> Option<(String, usize)> {
    if total <= max {
        return None;
    }
    let (kept_chars, end) = grapheme_prefix(s, max);
    let mut out = String::with_capacity(end + 16);
    out.push_str(&s[..end]);
    push_cut_marker(&mut out, total - kept_chars);
    Some((out, kept_chars))
}

/// The marker that ends a shortened value: `…[+N chars]` (`more`: the characters cut).
pub(crate) fn push_cut_marker(out: &mut String, more: usize) {
    out.push_str("…[+");
    out.push_str(itoa::Buffer::new().format(more));
    out.push_str(" chars]");
}

/// The longest prefix of `s` of at most `max` characters that ends on a grapheme boundary:
/// its characters and its bytes. `s` has more than `max` characters.
fn grapheme_prefix(s: &str, max: usize) -> (usize, usize) {
    let b = s.as_bytes();
    // ASCII up to and including the byte after the cut: every character is a grapheme of
    // its own except CR LF, and the next (ASCII) character extends nothing, so the prefix
    // is `max` bytes unless the cut would split a CR LF.
    if b.len() > max && b[..=max].is_ascii() && !(max > 0 && &b[max - 1..=max] == b"\r\n") {
        return (max, max);
    }
    graphemes_up_to(s, max)
}

/// [`grapheme_prefix`] by walking the graphemes.
fn graphemes_up_to(s: &str, max: usize) -> (usize, usize) {
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
    (kept_chars, end)
}

/// `path` one JSON Pointer segment deeper: `/` and `segment`, with `~` and `/` escaped as
/// `~0` and `~1` (RFC 6901).
pub(crate) fn push_pointer_segment(path: &mut String, segment: &str) {
    path.reserve(segment.len() + 1);
    path.push('/');
    // Most segments are short keys with nothing to escape: looked at byte by byte, copied
    // whole; else the runs between the bytes to escape copied whole.
    if !segment.bytes().any(|b| b == b'~' || b == b'/') {
        path.push_str(segment);
        return;
    }
    let mut rest = segment;
    while let Some(i) = memchr::memchr2(b'~', b'/', rest.as_bytes()) {
        path.push_str(&rest[..i]);
        path.push_str(if rest.as_bytes()[i] == b'~' {
            "~0"
        } else {
            "~1"
        });
        rest = &rest[i + 1..];
    }
    path.push_str(rest);
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
    fn plain_cell_width_example() {
        assert_eq!(plain_cell_width("李雷"), Some(4));
        assert_eq!(plain_cell_width("a|b"), None);
    }

    fn esc(s: &str, place: Place) -> String {
        let mut out = String::new();
        escape_text(s, place, &mut out);
        out
    }

    #[test]
    fn escape_text_example() {
        assert_eq!(esc("a|b", Place::Cell), "a\\|b");
        assert_eq!(esc("a|b", Place::Inline), "a\\|b");
        assert_eq!(esc("C:\\path <b> _id", Place::Inline), "C:\\path <b> _id");
        assert_eq!(
            esc("# not a heading", Place::ItemStart(None)),
            "\\# not a heading"
        );
    }

    #[test]
    fn verbatim_where_nothing_would_act() {
        for s in [
            "_id", "+1", "1.0.0", "C:\\path", "a*b", "_rev", "#tag", "-x", "`code`", "=", "1.5",
        ] {
            for place in [
                Place::Cell,
                Place::Inline,
                Place::ItemStart(None),
                Place::ItemStart(Some(':')),
            ] {
                assert_eq!(esc(s, place), s, "{s:?} at {place:?}");
            }
        }
        for place in [Place::Cell, Place::Inline] {
            assert_eq!(esc("<details>", place), "<details>", "{place:?}");
        }
        assert_eq!(
            esc("{\"a\":\"\\\"x\\r\\n\"}", Place::Cell),
            "{\"a\":\"\\\"x\\r\\n\"}"
        );
    }

    #[test]
    fn escaped_where_structure_would_change() {
        let start = Place::ItemStart(None);
        let key = Place::ItemStart(Some(':'));
        for (s, want) in [
            ("# h", "\\# h"),
            ("#", "\\#"),
            ("> q", "\\> q"),
            ("- x", "\\- x"),
            ("+", "\\+"),
            ("---", "\\---"),
            ("* * *", "\\* * *"),
            ("```", "\\```"),
            ("~~~x", "\\~~~x"),
            ("<div>", "\\<div>"),
            ("[a]: /u", "\\[a]: /u"),
            ("12. x", "12\\. x"),
            ("3)", "3\\)"),
            ("\\# h", "\\u{5C}# h"),
            ("1\\. x", "1\\u{5C}. x"),
            ("\nx", "\\u{A}x"),
        ] {
            assert_eq!(esc(s, start), want, "{s:?}");
        }
        // A key is followed by `:`, so `-`, `#` and `1.` open nothing there.
        assert_eq!(esc("-", key), "-");
        assert_eq!(esc("#", key), "#");
        assert_eq!(esc("1.", key), "1.");
        assert_eq!(esc("<details>", key), "\\<details>");
        for (s, want) in [
            ("a\nb", "a<br>b"),
            ("a\r\nb", "a<br>b"),
            ("<br>", "\\<br>"),
            ("\\u{41}", "\\u{5C}u{41}"),
            ("a\\\nb", "a\\u{5C}<br>b"),
            (" a ", "\\u{20}a\\u{20}"),
            ("a\tb", "a\\u{9}b"),
            ("\u{1b}[0m", "\\u{1B}[0m"),
            ("\u{202e}", "\\u{202E}"),
        ] {
            assert_eq!(esc(s, Place::Inline), want, "{s:?}");
            assert_eq!(esc(s, Place::Cell), want, "{s:?}");
        }
        assert_eq!(esc("a\\|b", Place::Cell), "a\\\\|b");
        assert_eq!(esc("a\\|b", Place::Inline), "a\\\\|b");
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
    fn shorten_example() {
        let v = "x".repeat(52);
        assert_eq!(shorten(&v, 50), None);
        assert_eq!(shorten(&"x".repeat(80), 50).unwrap().chars().count(), 62);
    }

    #[test]
    fn cut_chars_example() {
        assert_eq!(cut_chars("abcdef", 2).as_deref(), Some("ab…[+4 chars]"));
        assert_eq!(cut_chars("abc", 3), None);
    }
}
