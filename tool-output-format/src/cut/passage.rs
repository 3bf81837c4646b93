//! A text result kept as text: where a page of it stops, how it is written, and the cursor
//! that resumes it. The first text of a string result and every fetch page of a stored one
//! are written here, so both read the same.
//!
//! - **Lines** are counted like [`text::lines`]: a line ends at `\n`, `\r\n` or a lone `\r`,
//!   and a final line break does not start another line.
//! - **A page** is the text from a position to where it stops: as many whole lines as fit
//!   the budget (and the line cap), or, when not even the first whole line fits, that line's
//!   first characters that fit, cut on a grapheme boundary. A page never shows part of a
//!   line it could show whole.
//! - **Written verbatim** in a fence longer than any backtick run inside the page
//!   ([`text::fence_for`]). The only changes are those of every code block
//!   ([`text::escape_code_line`]): spaces and tabs at the end of a line and invisible control
//!   characters as `\u{HEX}` (so no output line ends in white space), and every line break
//!   written `\n` (`\r\n` and a lone `\r` too: no control character is written raw). A page
//!   that stops inside a line, or a text that does not end with a line break, gets one
//!   before the closing fence: the cursor (or the notice) says so.
//! - **The cursor** of a position is `"L"` at the start of line `L` (counted from 0) and
//!   `"L:C"` after the first `C` characters of line `L`: the fetch resumes exactly there, so
//!   the pages' fenced contents joined (less the line break a page adds when it stops inside
//!   a line) are the text, its line breaks written `\n`.

use unicode_segmentation::GraphemeCursor;

use crate::text;

/// A text and where its lines start.
pub(crate) struct Passage<'t> {
    text: &'t str,
    /// The byte where each line starts (one per line; empty for an empty text).
    starts: Vec<usize>,
}

impl<'t> Passage<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut starts = Vec::new();
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            starts.push(at);
            match text[at..].find(['\n', '\r']) {
                None => break,
                Some(i) => {
                    let i = at + i;
                    at = i + if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                }
            }
        }
        Passage { text, starts }
    }

    /// How many lines the text has.
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The byte after line `i` and its line break.
    fn line_end(&self, i: usize) -> usize {
        self.starts.get(i + 1).copied().unwrap_or(self.text.len())
    }

    /// The byte after line `i`'s own characters (before its line break).
    fn content_end(&self, i: usize) -> usize {
        let end = self.line_end(i);
        end - line_break_len(&self.text[self.starts[i]..end])
    }

    /// The line holding byte `b` (the last line for the end of the text).
    pub fn line_of(&self, b: usize) -> usize {
        self.starts.partition_point(|&s| s <= b).saturating_sub(1)
    }

    /// The characters of line `line` before byte `b`.
    fn column(&self, line: usize, b: usize) -> usize {
        self.text[self.starts[line]..b].chars().count()
    }

    /// Whether byte `b` is the start of a line (or the end of the text).
    pub fn at_line_start(&self, b: usize) -> bool {
        b >= self.text.len() || self.starts.binary_search(&b).is_ok()
    }

    /// The cursor of byte `b` (see the module docs): `"L"` or `"L:C"`.
    pub fn cursor(&self, b: usize) -> String {
        if b >= self.text.len() {
            return self.lines().to_string();
        }
        let line = self.line_of(b);
        match self.column(line, b) {
            0 => line.to_string(),
            c => format!("{line}:{c}"),
        }
    }

    /// The byte a cursor (`"L"` or `"L:C"`) points at, `None` when it is not a position
    /// inside the text (a line past the last, a character past the line's end, the end of
    /// the text, or a cursor that does not parse).
    pub fn position(&self, cursor: &str) -> Option<usize> {
        let (line, col) = match cursor.split_once(':') {
            Some((l, c)) => (l.trim().parse().ok()?, c.trim().parse().ok()?),
            None => (cursor.trim().parse().ok()?, 0),
        };
        let start = *self.starts.get(line)?;
        let content = &self.text[start..self.content_end(line)];
        if col == 0 {
            return Some(start);
        }
        let (i, _) = content
            .char_indices()
            .nth(col)
            .unwrap_or((content.len(), ' '));
        (content[..i].chars().count() == col && start + i < self.text.len()).then_some(start + i)
    }

    /// Where a page from byte `start` stops: the end of as many whole lines as fit (at most
    /// `max_lines`, counting a line the page starts inside, and at most `max_chars`
    /// characters), or, when not even the first does, the most characters of that line that
    /// fit, cut on a grapheme boundary. `fits` tells whether the page up to a byte fits;
    /// `None` when not one grapheme does.
    pub fn stop(
        &self,
        start: usize,
        max_lines: usize,
        max_chars: Option<usize>,
        fits: &dyn Fn(usize) -> bool,
    ) -> Option<usize> {
        if start >= self.text.len() {
            return None;
        }
        let first = self.line_of(start);
        let end_of = |k: usize| self.line_end(first + k - 1);
        // A page holds at most `max_chars` characters of the text (its own text is longer):
        // the lines that end past them are not tried.
        let limit = max_chars.map_or(self.text.len(), |n| {
            self.text[start..]
                .char_indices()
                .nth(n)
                .map_or(self.text.len(), |(i, _)| start + i)
        });
        let (mut most, mut past) = (0, max_lines.max(1).min(self.lines() - first) + 1);
        while past - most > 1 {
            let k = most + (past - most) / 2;
            if end_of(k) <= limit {
                most = k;
            } else {
                past = k;
            }
        }
        if most > 0 && fits(end_of(most)) {
            return Some(end_of(most));
        }
        // The most whole lines that fit, by bisection (what fits shrinks as lines grow).
        let (mut ok, mut bad) = (0, most);
        while bad - ok > 1 {
            let k = ok + (bad - ok) / 2;
            if fits(end_of(k)) {
                ok = k;
            } else {
                bad = k;
            }
        }
        if ok > 0 {
            return Some(end_of(ok));
        }
        // Part of the first line: its characters up to a grapheme boundary, the most that fit
        // (galloping, then bisection, over characters).
        let line_end = self.content_end(first).max(start);
        let line = &self.text[start..line_end];
        let boundary = |chars: usize| -> usize {
            let b = line
                .char_indices()
                .nth(chars)
                .map_or(line.len(), |(i, _)| i);
            grapheme_floor(line, b)
        };
        let len = line.chars().count();
        let (mut ok, mut bad) = (0usize, None::<usize>);
        let mut step = 64usize;
        while bad.is_none() {
            let n = (ok + step).min(len);
            if n == ok {
                break;
            }
            if fits(start + boundary(n)) {
                ok = n;
                if n == len {
                    break;
                }
                step = step.saturating_mul(2);
            } else {
                bad = Some(n);
            }
        }
        if let Some(mut bad) = bad {
            while bad - ok > 1 {
                let n = ok + (bad - ok) / 2;
                if fits(start + boundary(n)) {
                    ok = n;
                } else {
                    bad = n;
                }
            }
        }
        let mut end = start + boundary(ok);
        // A piece does not end in spaces or tabs when it can leave them to the next page
        // (a code block writes them as `\u{20}` at a line's end).
        let kept = self.text[start..end].trim_end_matches([' ', '\t']).len();
        if kept > 0 {
            end = start + kept;
        }
        if end > start {
            return Some(end);
        }
        // The first grapheme, when it alone fits (a grapheme longer than the galloping steps).
        let one = grapheme_ceil(line, 1);
        (one > 0 && fits(start + one)).then_some(start + one)
    }

    /// The lines from byte `start` as a structured page ([`crate::store::Fetch::page`]): at
    /// most `size` lines (the first from `start`, without their line breaks), the cursor
    /// after them, and the count of lines.
    pub fn lines_page(
        &self,
        start: usize,
        size: usize,
    ) -> crate::doc::agent::Page<serde_json::Value> {
        let first = self.line_of(start);
        let last = (first + size.max(1)).min(self.lines());
        let items = (first..last).map(|i| {
            let from = if i == first { start } else { self.starts[i] };
            serde_json::Value::String(self.text[from..self.content_end(i).max(from)].to_owned())
        });
        let end = self.line_end(last.saturating_sub(1).max(first));
        let mut page = crate::doc::agent::Page::new(items.collect())
            .has_more(end < self.text.len())
            .total(self.lines() as u64);
        if end < self.text.len() {
            page = page.next_cursor(self.cursor(end));
        }
        page
    }

    /// The byte after the first grapheme from `start`.
    pub fn one_grapheme(&self, start: usize) -> usize {
        start + grapheme_ceil(&self.text[start.min(self.text.len())..], 1)
    }

    /// What a page from `start` to `end` holds, for its notice: the first and last lines it
    /// touches (from 1), and, when it starts or stops inside a line, where.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let first = self.line_of(start);
        let last = self.line_of(end.saturating_sub(1).max(start));
        let from = (!self.at_line_start(start)).then(|| self.column(first, start) + 1);
        let to = (!self.at_line_start(end)).then(|| {
            let chars = self.column(last, end);
            let of = self.column(last, self.content_end(last));
            (chars, of)
        });
        Span {
            first: first + 1,
            last: last + 1,
            total: self.lines(),
            from,
            to,
        }
    }
}

/// The length of the line break that ends `line` (`\r\n`, `\n`, `\r`, or none).
fn line_break_len(line: &str) -> usize {
    if line.ends_with("\r\n") {
        2
    } else if line.ends_with(['\n', '\r']) {
        1
    } else {
        0
    }
}

/// The last grapheme boundary of `s` at or before byte `b` (a char boundary).
fn grapheme_floor(s: &str, b: usize) -> usize {
    let mut c = GraphemeCursor::new(b, s.len(), true);
    match c.is_boundary(s, 0) {
        Ok(true) => b,
        _ => c.prev_boundary(s, 0).ok().flatten().unwrap_or(0),
    }
}

/// The byte after the first `n` graphemes of `s`.
fn grapheme_ceil(s: &str, n: usize) -> usize {
    let mut c = GraphemeCursor::new(0, s.len(), true);
    let mut at = 0;
    for _ in 0..n {
        match c.next_boundary(s, 0) {
            Ok(Some(b)) => at = b,
            _ => break,
        }
    }
    at
}

/// The lines a page holds, for its notice (see [`Span::page_notice`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    /// The first line it touches, from 1.
    pub first: usize,
    /// The last line it touches, from 1.
    pub last: usize,
    /// Lines in the text.
    pub total: usize,
    /// It starts at this character (from 1) of its first line, not at the line's start.
    pub from: Option<usize>,
    /// It stops after this many characters of its last line, of that many.
    pub to: Option<(usize, usize)>,
}

impl Span {
    /// The notice of a fetch page: `[Lines 9-20 of 60]`, `[Line 1 of 1 (characters
    /// 1851-3700 of 517430)]`, `[Lines 9-20 of 60 (line 9 from character 1201, line 20 to
    /// character 400 of 5000)]`.
    pub fn page_notice(&self) -> String {
        crate::sink::notice::text_page(self.first, self.last, self.total, self.from, self.to)
    }

    /// The notice of a first text cut to this span (from the text's start): `[Truncated to 8
    /// lines of 60 total]` (the line cap's wording) when it stops at a line's end; else
    /// `[Truncated to 8 lines of 60 total and the first 120 of 5000 characters of line 9]`,
    /// or `[Truncated to the first 1850 of 517430 characters of line 1 of 1]`.
    pub fn first_notice(&self) -> String {
        crate::sink::notice::text_first(self.last, self.total, self.to)
    }

    /// The whole lines it holds from the text's start (a line it stops inside not counted).
    pub fn whole_lines(&self) -> usize {
        self.last - usize::from(self.to.is_some())
    }
}

/// Append `slice` as a fenced block: the fence ([`text::fence_for`]), each line escaped as in
/// any code block and ended by `\n` (whatever its own line break: no control character is
/// written raw), and the closing fence (no line break after it).
pub(crate) fn write_fenced(slice: &str, out: &mut String) {
    let fence = text::fence_for(slice);
    out.reserve(slice.len() + 2 * fence.len() + 2);
    out.push_str(&fence);
    out.push('\n');
    let pieces = Passage::new(slice);
    for i in 0..pieces.lines() {
        let (start, content) = (pieces.starts[i], pieces.content_end(i));
        text::escape_code_line(&slice[start..content], out);
        out.push('\n');
    }
    out.push_str(&fence);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(text: &str, room: usize) -> Vec<(String, String)> {
        let p = Passage::new(text);
        let mut at = 0;
        let mut out = Vec::new();
        while let Some(end) = p.stop(at, usize::MAX, Some(room), &|e| {
            text[at..e].chars().count() <= room
        }) {
            out.push((text[at..end].to_owned(), p.cursor(end)));
            at = end;
        }
        out
    }

    #[test]
    fn lines_end_at_every_kind_of_line_break() {
        let p = Passage::new("a\r\nb\rc\nd");
        assert_eq!(p.lines(), 4);
        assert_eq!(p.lines(), text::lines("a\r\nb\rc\nd").count());
        assert_eq!(Passage::new("a\n").lines(), 1);
        assert_eq!(Passage::new("").lines(), 0);
        assert_eq!(p.content_end(0), 1);
        assert_eq!(p.line_end(0), 3);
    }

    #[test]
    fn cursors_address_a_line_and_a_character() {
        let p = Passage::new("héllo\nwörld\n");
        assert_eq!(p.cursor(0), "0");
        assert_eq!(p.cursor(7), "1");
        assert_eq!(p.cursor(3), "0:2");
        assert_eq!(p.position("0:2"), Some(3));
        assert_eq!(p.position("1"), Some(7));
        assert_eq!(p.position("1:5"), Some(13));
        assert_eq!(p.position("1:6"), None);
        assert_eq!(p.position("2"), None);
        assert_eq!(p.position("x"), None);
    }

    #[test]
    fn pages_keep_whole_lines_and_cut_only_a_line_too_long() {
        let text = "one\ntwo\nthree\n".to_owned() + &"x".repeat(25) + "\nend";
        let got = pages(&text, 10);
        let joined: String = got.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(joined, text);
        assert_eq!(got[0], ("one\ntwo\n".into(), "2".into()));
        assert_eq!(got[2], ("x".repeat(10), "3:10".into()));
        // A piece inside a line leaves the spaces it would end with to the next.
        let got = pages("abcd  efgh ij", 6);
        assert_eq!(got[0], ("abcd".into(), "0:4".into()));
        assert_eq!(got[1], ("  efgh".into(), "0:10".into()));
    }

    #[test]
    fn a_cut_never_splits_a_grapheme() {
        let text = "e\u{301}".repeat(20);
        for (piece, _) in pages(&text, 5) {
            assert!(!piece.starts_with('\u{301}'), "{piece:?}");
        }
    }

    #[test]
    fn fenced_blocks_keep_line_breaks_and_outgrow_backtick_runs() {
        let mut out = String::new();
        write_fenced("a ``` b\r\nc\rd", &mut out);
        assert_eq!(out, "````\na ``` b\nc\nd\n````");
    }

    #[test]
    fn notices_say_which_lines_and_characters() {
        let p = Passage::new("aaaa\nbbbb\ncccc\n");
        assert_eq!(
            p.span(0, 10).first_notice(),
            "[Truncated to 2 lines of 3 total]"
        );
        assert_eq!(
            p.span(0, 12).first_notice(),
            "[Truncated to 2 lines of 3 total and the first 2 of 4 characters of line 3]"
        );
        assert_eq!(p.span(5, 15).page_notice(), "[Lines 2-3 of 3]");
        assert_eq!(
            p.span(7, 12).page_notice(),
            "[Lines 2-3 of 3 (line 2 from character 3, line 3 to character 2 of 4)]"
        );
        assert_eq!(
            p.span(6, 8).page_notice(),
            "[Line 2 of 3 (characters 2-3 of 4)]"
        );
    }
}
