//! Splitting a text into sections, by content (the rule is documented on
//! [`Unit`](super::Unit) and in the module docs).

use std::ops::Range;

use super::Unit;

/// Markdown mode needs at least this many headings outside code blocks.
pub(crate) const MIN_HEADINGS: usize = 2;
/// Paragraph mode needs at least this many paragraphs ...
pub(crate) const MIN_PARAGRAPHS: usize = 3;
/// ... of at most this many non-blank lines on average (longer runs are logs or listings).
pub(crate) const MAX_AVG_PARAGRAPH_LINES: usize = 12;

/// One section: its bytes in the text (trimmed of surrounding blank lines) and how many units
/// it counts for in notices (1 for a heading section or paragraph; its non-blank lines in
/// line mode, where a fenced code block is one section counting all its lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Section {
    pub(crate) range: Range<usize>,
    pub(crate) units: usize,
}

/// The sections of a text, and the unit they were split by.
#[derive(Debug)]
pub(crate) struct Split {
    pub(crate) unit: Unit,
    pub(crate) sections: Vec<Section>,
}

/// One line of the text: its byte range (without the line break) and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Blank,
    Heading,
    Text,
    /// Inside a fenced code block, the fences included.
    Code,
}

struct Line {
    start: usize,
    end: usize,
    kind: Kind,
    /// The fenced block this line belongs to (its index), for code lines.
    block: usize,
}

/// The start of the fenced code block that a cut at byte `at` of `text` would split (the
/// block starts before `at` and ends after it), if any.
pub(crate) fn fence_around(text: &str, at: usize) -> Option<usize> {
    let lines = classify(text);
    let mut i = 0;
    while i < lines.len() {
        if lines[i].kind != Kind::Code {
            i += 1;
            continue;
        }
        let block = lines[i].block;
        let start = lines[i].start;
        let mut end = lines[i].end;
        while i < lines.len() && lines[i].kind == Kind::Code && lines[i].block == block {
            end = lines[i].end;
            i += 1;
        }
        if start < at && at < end {
            return Some(start);
        }
    }
    None
}

/// Split `text` by content: headings, else paragraphs, else lines.
pub(crate) fn split(text: &str) -> Split {
    let lines = classify(text);
    let headings = lines.iter().filter(|l| l.kind == Kind::Heading).count();
    if headings >= MIN_HEADINGS {
        return Split {
            unit: Unit::Sections,
            sections: by_headings(&lines),
        };
    }
    let paragraphs = by_paragraphs(&lines);
    let non_blank = lines.iter().filter(|l| l.kind != Kind::Blank).count();
    if paragraphs.len() >= MIN_PARAGRAPHS && non_blank <= paragraphs.len() * MAX_AVG_PARAGRAPH_LINES
    {
        return Split {
            unit: Unit::Paragraphs,
            sections: paragraphs,
        };
    }
    Split {
        unit: Unit::Lines,
        sections: by_lines(text, &lines),
    }
}

/// Classify every line; track fenced code blocks (`CommonMark`: a line of three or more
/// backticks or tildes, indented at most three spaces, closed by a fence of the same
/// character at least as long; an unclosed fence runs to the end of the text).
fn classify(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut open: Option<(u8, usize)> = None;
    let mut blocks = 0;
    let mut start = 0;
    for raw in text.split_inclusive('\n') {
        let end = start + raw.trim_end_matches(['\n', '\r']).len();
        let line = &text[start..end];
        let kind = if let Some((ch, len)) = open {
            if fence(line).is_some_and(|(c, n, rest)| c == ch && n >= len && rest.trim().is_empty())
            {
                open = None;
            }
            Kind::Code
        } else {
            // A backtick fence's info string cannot contain a backtick.
            let opening = fence(line).filter(|(c, _, info)| *c == b'~' || !info.contains('`'));
            if let Some((c, n, _)) = opening {
                open = Some((c, n));
                blocks += 1;
                Kind::Code
            } else if line.trim().is_empty() {
                Kind::Blank
            } else if is_heading(line) {
                Kind::Heading
            } else {
                Kind::Text
            }
        };
        lines.push(Line {
            start,
            end,
            kind,
            block: blocks,
        });
        start += raw.len();
    }
    lines
}

/// A fence line: its character, its length and the rest of the line (the info string).
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let body = &line[indent..];
    let ch = *body.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let n = body.bytes().take_while(|&b| b == ch).count();
    (n >= 3).then(|| (ch, n, &body[n..]))
}

/// An ATX heading: up to three spaces, one to six `#`, then a space, a tab or the line end.
fn is_heading(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return false;
    }
    let body = &line[indent..];
    let hashes = body.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes) && matches!(body.as_bytes().get(hashes), None | Some(b' ' | b'\t'))
}

/// The byte range from the first to the last non-blank line of `lines`, or `None`.
fn span(lines: &[Line]) -> Option<Range<usize>> {
    let first = lines.iter().find(|l| l.kind != Kind::Blank)?;
    let last = lines.iter().rev().find(|l| l.kind != Kind::Blank)?;
    Some(first.start..last.end)
}

/// A heading starts a section that runs to the next heading; text before the first heading
/// is a section of its own.
fn by_headings(lines: &[Line]) -> Vec<Section> {
    let mut sections = Vec::new();
    let mut from = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.kind == Kind::Heading && i > from {
            sections.extend(span(&lines[from..i]).map(|range| Section { range, units: 1 }));
            from = i;
        }
    }
    sections.extend(span(&lines[from..]).map(|range| Section { range, units: 1 }));
    sections
}

/// Runs of non-blank lines; a fenced code block (blank lines inside it included) belongs to
/// the paragraph it starts in.
fn by_paragraphs(lines: &[Line]) -> Vec<Section> {
    let mut sections = Vec::new();
    let mut from = None;
    for (i, line) in lines.iter().enumerate() {
        let blank = line.kind == Kind::Blank;
        match (from, blank) {
            (None, false) => from = Some(i),
            (Some(f), true) => {
                sections.extend(span(&lines[f..i]).map(|range| Section { range, units: 1 }));
                from = None;
            }
            _ => {}
        }
    }
    if let Some(f) = from {
        sections.extend(span(&lines[f..]).map(|range| Section { range, units: 1 }));
    }
    sections
}

/// Every non-blank line is a section, but a fenced code block is one section (counting all
/// its lines, blank ones inside it included), and so is a log entry with its continuation
/// lines (see [`entry_leader`] and [`continues`]), so a match keeps its header lines.
fn by_lines(text: &str, lines: &[Line]) -> Vec<Section> {
    let leader = entry_leader(text, lines);
    let mut sections: Vec<Section> = Vec::new();
    let mut prev_block = None;
    // Whether the last section is an entry that the next text line may continue.
    let mut open = false;
    for line in lines {
        let body = &text[line.start..line.end];
        match line.kind {
            Kind::Blank => {
                prev_block = None;
                open = false;
                continue;
            }
            Kind::Code if prev_block == Some(line.block) => {
                if let Some(last) = sections.last_mut() {
                    last.range.end = line.end;
                    last.units += 1;
                }
                continue;
            }
            Kind::Code => {
                prev_block = Some(line.block);
                open = false;
            }
            _ => {
                prev_block = None;
                if open && continues(body, leader) {
                    if let Some(last) = sections.last_mut() {
                        last.range.end = line.end;
                        last.units += 1;
                    }
                    continue;
                }
                open = true;
            }
        }
        sections.push(Section {
            range: line.start..line.end,
            units: 1,
        });
    }
    sections
}

/// The word that starts every entry of a log whose entries span several lines: the first
/// line's leading `Key:` when at least [`MIN_PARAGRAPHS`] lines start with it and some
/// lines do not (`Commit: ...` followed by `Author:`, `Date:`, `Message:` lines).
fn entry_leader<'t>(text: &'t str, lines: &[Line]) -> Option<&'t str> {
    let first = lines.iter().find(|l| l.kind == Kind::Text)?;
    let body = &text[first.start..first.end];
    let key = body.split_once(':')?.0;
    if key.is_empty()
        || key.len() > 32
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b' ')
        || key.starts_with(' ')
    {
        return None;
    }
    let leader = &body[..=key.len()];
    let text_lines = lines.iter().filter(|l| l.kind == Kind::Text);
    let starts = text_lines
        .clone()
        .filter(|l| text[l.start..l.end].starts_with(leader))
        .count();
    let others = text_lines.count() - starts;
    (starts >= MIN_PARAGRAPHS && others > 0).then_some(leader)
}

/// Whether a text line continues the entry above it: an indented line (a stack frame, a
/// wrapped message), or, in a log whose entries start with `leader`, any line that does not.
fn continues(line: &str, leader: Option<&str>) -> bool {
    match leader {
        Some(leader) => !line.starts_with(leader),
        None => line.starts_with([' ', '\t']),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> (Unit, Vec<&str>) {
        let s = split(text);
        (
            s.unit,
            s.sections.iter().map(|x| &text[x.range.clone()]).collect(),
        )
    }

    #[test]
    fn headings_start_sections_and_code_blocks_hide_headings() {
        let text = "intro\n\n# One\nbody\n\n```sh\n# not a heading\n\n```\n## Two\n\ntext\n\n\n";
        assert_eq!(
            parts(text),
            (
                Unit::Sections,
                vec![
                    "intro",
                    "# One\nbody\n\n```sh\n# not a heading\n\n```",
                    "## Two\n\ntext"
                ]
            )
        );
        // `#tag` and seven hashes are not headings.
        assert_eq!(parts("#tag\n\n####### x\n\nz").0, Unit::Paragraphs);
    }

    #[test]
    fn paragraphs_keep_code_blocks_whole() {
        let text = "a\nb\n\n~~~\nx\n\ny\n~~~\nafter\n\nc\r\n";
        assert_eq!(
            parts(text),
            (
                Unit::Paragraphs,
                vec!["a\nb", "~~~\nx\n\ny\n~~~\nafter", "c"]
            )
        );
    }

    #[test]
    fn long_runs_are_lines_and_a_code_block_is_one_section() {
        let text = "l1\nl2\n```\nc1\n\nc2\n```\nl3\n";
        let s = split(text);
        assert_eq!(s.unit, Unit::Lines);
        let got: Vec<(&str, usize)> = s
            .sections
            .iter()
            .map(|x| (&text[x.range.clone()], x.units))
            .collect();
        assert_eq!(
            got,
            [("l1", 1), ("l2", 1), ("```\nc1\n\nc2\n```", 5), ("l3", 1)]
        );
        // Two paragraphs of 20 lines: a log with one blank line, still lines.
        let log = format!("{}\n{}", "x\n".repeat(20), "y\n".repeat(20));
        assert_eq!(split(&log).unit, Unit::Lines);
    }

    #[test]
    fn a_log_entry_keeps_its_continuation_lines() {
        let log = "Commit: 'a1'\nAuthor: Ada\nMessage: fix the parser\n\
                   Commit: 'b2'\nAuthor: Bob\nMessage: add a test\n\
                   Commit: 'c3'\nAuthor: Cy\nMessage: bump\n";
        let s = split(log);
        assert_eq!(s.unit, Unit::Lines);
        let got: Vec<(&str, usize)> = s
            .sections
            .iter()
            .map(|x| (&log[x.range.clone()], x.units))
            .collect();
        assert_eq!(
            got,
            [
                ("Commit: 'a1'\nAuthor: Ada\nMessage: fix the parser", 3),
                ("Commit: 'b2'\nAuthor: Bob\nMessage: add a test", 3),
                ("Commit: 'c3'\nAuthor: Cy\nMessage: bump", 3)
            ]
        );
        // Indented lines continue the line above (a stack trace); others stand alone.
        let trace = "ERROR boom\n  at a.rs:1\n  at b.rs:2\nINFO ok\nINFO done\n";
        assert_eq!(
            parts(trace).1,
            vec![
                "ERROR boom\n  at a.rs:1\n  at b.rs:2",
                "INFO ok",
                "INFO done"
            ]
        );
        // Every line starting with the key: lines, as before.
        assert_eq!(parts("k: 1\nk: 2\nk: 3\n").1, vec!["k: 1", "k: 2", "k: 3"]);
    }

    #[test]
    fn unclosed_fence_runs_to_the_end_and_empty_text_has_no_sections() {
        assert_eq!(parts("# A\n```\n# B\n# C").1, vec!["# A", "```\n# B\n# C"]);
        assert!(split("").sections.is_empty());
        assert!(split("\n \n").sections.is_empty());
    }
}
