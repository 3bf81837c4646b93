//! Choosing sections under a character budget and writing the result with its notices.

use super::split::{self, Section, Split};
use super::{Fallback, Trimmed, Unit};
use crate::text::{self, cut_chars};

/// The limits a selection must meet: characters of the whole output (notice line included)
/// and lines of the body (the kept sections and gap lines, without the notice line).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Limits {
    pub(crate) chars: Option<usize>,
    pub(crate) lines: Option<usize>,
}

/// What the selection works on: the text, its sections, their scores and sizes.
pub(crate) struct Input<'a> {
    pub(crate) text: &'a str,
    pub(crate) split: &'a Split,
    pub(crate) scores: &'a [f64],
    /// The query as shown in notices (one line).
    pub(crate) query: &'a str,
}

/// Keep the best-scoring sections (score above zero) that fit the limits, in their original
/// order, with the notice line first and each run of omitted sections announced in place.
pub(crate) fn select(input: &Input<'_>, limits: Limits) -> Result<Trimmed, Fallback> {
    let sections = &input.split.sections;
    let mut ranked: Vec<usize> = (0..sections.len())
        .filter(|&i| input.scores[i] > 0.0)
        .collect();
    if ranked.is_empty() {
        return Err(Fallback::NoMatch);
    }
    ranked.sort_by(|&a, &b| input.scores[b].total_cmp(&input.scores[a]).then(a.cmp(&b)));

    let layout = Layout::new(input);
    let best = ranked[0];
    let mut kept = vec![best];
    if !layout.fits(&kept, limits) {
        return cut_best(input, &layout, best, limits);
    }
    for &i in &ranked[1..] {
        let at = kept.partition_point(|&k| k < i);
        kept.insert(at, i);
        if !layout.fits(&kept, limits) {
            kept.remove(at);
        }
    }
    Ok(layout.render(&kept, None))
}

/// Sizes of everything the output is made of, to measure a choice before writing it.
struct Layout<'a> {
    input: &'a Input<'a>,
    /// Characters of each section.
    chars: Vec<usize>,
    /// Lines of each section ([`text::lines`]).
    lines: Vec<usize>,
    /// `units_before[i]`: units of the sections before section `i` (one more entry at the end).
    units_before: Vec<usize>,
    separator: &'static str,
    /// Characters of the notice line minus the digits of the kept count.
    notice_chars_without_count: usize,
}

impl<'a> Layout<'a> {
    fn new(input: &'a Input<'a>) -> Self {
        let sections = &input.split.sections;
        let chars = sections
            .iter()
            .map(|s| input.text[s.range.clone()].chars().count())
            .collect();
        let lines = sections
            .iter()
            .map(|s| text::lines(&input.text[s.range.clone()]).count())
            .collect();
        let mut units_before = Vec::with_capacity(sections.len() + 1);
        let mut sum = 0;
        units_before.push(0);
        for s in sections {
            sum += s.units;
            units_before.push(sum);
        }
        let separator = match input.split.unit {
            Unit::Lines => "\n",
            _ => "\n\n",
        };
        let notice_chars_without_count = notice_line(0, sum, input.split.unit, input.query)
            .chars()
            .count()
            - 1;
        Layout {
            input,
            chars,
            lines,
            units_before,
            separator,
            notice_chars_without_count,
        }
    }

    fn total_units(&self) -> usize {
        self.units_before[self.units_before.len() - 1]
    }

    fn units(&self, from: usize, to: usize) -> usize {
        self.units_before[to] - self.units_before[from]
    }

    fn kept_units(&self, kept: &[usize]) -> usize {
        kept.iter().map(|&i| self.units(i, i + 1)).sum()
    }

    /// The omitted runs around `kept` (sorted): `(position, units)` where position is the
    /// index in `kept` the gap comes before (`kept.len()` for a gap at the end).
    fn gaps<'b>(&'b self, kept: &'b [usize]) -> impl Iterator<Item = (usize, usize)> + 'b {
        let n = self.input.split.sections.len();
        (0..=kept.len()).filter_map(move |p| {
            let from = if p == 0 { 0 } else { kept[p - 1] + 1 };
            let to = if p == kept.len() { n } else { kept[p] };
            (to > from).then(|| (p, self.units(from, to)))
        })
    }

    /// Characters of the output for `kept`, the kept sections written whole (counted without
    /// writing the notices: this runs once per candidate section).
    fn len(&self, kept: &[usize]) -> usize {
        let unit = self.input.split.unit;
        let mut pieces = kept.len();
        let mut chars = self.notice_chars_without_count + digits(self.kept_units(kept)) + 2;
        for (_, units) in self.gaps(kept) {
            pieces += 1;
            chars += gap_chars(units, unit);
        }
        chars += kept.iter().map(|&i| self.chars[i]).sum::<usize>();
        chars + pieces.saturating_sub(1) * self.separator.len()
    }

    /// Lines of the body for `kept` (sections, gap lines and the blank lines between pieces).
    fn body_lines(&self, kept: &[usize]) -> usize {
        let gaps = self.gaps(kept).count();
        let pieces = kept.len() + gaps;
        let blank = usize::from(self.separator == "\n\n");
        kept.iter().map(|&i| self.lines[i]).sum::<usize>() + gaps + pieces.saturating_sub(1) * blank
    }

    /// Whether the output for `kept` (written whole) meets both limits.
    fn fits(&self, kept: &[usize], limits: Limits) -> bool {
        limits.chars.is_none_or(|c| self.len(kept) <= c)
            && limits.lines.is_none_or(|l| self.body_lines(kept) <= l)
    }

    /// Write the output; `cut` replaces the text of the one kept section.
    fn render(&self, kept: &[usize], cut: Option<&str>) -> Trimmed {
        let unit = self.input.split.unit;
        let kept_units = self.kept_units(kept);
        let total = self.total_units();
        let mut out = notice_line(kept_units, total, unit, self.input.query);
        out.push_str("\n\n");
        let mut gaps = self.gaps(kept).peekable();
        let mut first = true;
        let mut piece = |out: &mut String, s: &str| {
            if !first {
                out.push_str(self.separator);
            }
            first = false;
            out.push_str(s);
        };
        for (p, &i) in kept.iter().enumerate() {
            if let Some((_, units)) = gaps.next_if(|&(at, _)| at == p) {
                piece(&mut out, &gap_line(units, unit));
            }
            match cut {
                Some(c) => piece(&mut out, c),
                None => piece(
                    &mut out,
                    &self.input.text[self.input.split.sections[i].range.clone()],
                ),
            }
        }
        if let Some((_, units)) = gaps.next() {
            piece(&mut out, &gap_line(units, unit));
        }
        let lines = match cut {
            Some(c) => text::lines(c).count(),
            None => kept.iter().map(|&i| self.lines[i]).sum(),
        };
        Trimmed {
            text: out,
            kept: kept_units,
            total,
            unit,
            lines,
        }
    }
}

/// The best section alone does not fit: cut it by characters on a grapheme boundary so the
/// whole output fits (and, with a line limit, after the last line that fits), but never
/// inside a fenced code block that starts after the section's first character (the cut moves
/// back to before the block).
fn cut_best(
    input: &Input<'_>,
    layout: &Layout<'_>,
    best: usize,
    limits: Limits,
) -> Result<Trimmed, Fallback> {
    let section: &Section = &input.split.sections[best];
    let text = &input.text[section.range.clone()];
    let total = layout.chars[best];
    // The cut marker `…[+N chars]` is 10 characters plus the digits of N (N < total).
    let marker = 10 + digits(total);
    let by_chars = match limits.chars {
        Some(budget) => {
            let around = layout.len(&[best]) - total;
            budget.checked_sub(around + marker)
        }
        None => Some(usize::MAX),
    };
    let by_lines = match limits.lines {
        Some(max) => {
            let around = layout.body_lines(&[best]) - layout.lines[best];
            max.checked_sub(around)
                .map(|room| chars_of_first_lines(text, room))
        }
        None => Some(usize::MAX),
    };
    let Some(room) = by_chars
        .zip(by_lines)
        .map(|(a, b)| a.min(b))
        .filter(|&r| r > 0)
    else {
        return Err(Fallback::TooSmall);
    };
    let Some(cut) = cut_chars(text, room) else {
        // Unreachable in practice (the section did not fit whole), but never panic.
        return Ok(layout.render(&[best], None));
    };
    let prefix_end = cut.rfind("…[+").unwrap_or(cut.len());
    if prefix_end == 0 {
        // Not even one grapheme fits.
        return Err(Fallback::TooSmall);
    }
    let cut = match split::fence_around(text, prefix_end) {
        Some(start) if !text[..start].trim().is_empty() => {
            let prefix = text[..start].trim_end();
            let mut cut = prefix.to_owned();
            crate::text::push_cut_marker(&mut cut, total - prefix.chars().count());
            cut
        }
        _ => cut,
    };
    Ok(layout.render(&[best], Some(&cut)))
}

/// Characters of the first `n` lines of `text` (line breaks between them included, the one
/// after the last not).
fn chars_of_first_lines(text: &str, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if c == '\n' || (c == '\r' && !text[i + 1..].starts_with('\n')) {
            seen += 1;
            if seen == n {
                return text[..i].trim_end_matches('\r').chars().count();
            }
        }
    }
    text.chars().count()
}

fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// `[Kept 4 of 40 sections relevant to "refund policy"]`.
pub(crate) fn notice_line(kept: usize, total: usize, unit: Unit, query: &str) -> String {
    crate::sink::notice::focus_kept(kept, total, unit.name(total), query)
}

/// Characters of [`gap_line`]: `[… ` (3), the digits, a space, the unit, ` omitted …]` (11).
fn gap_chars(units: usize, unit: Unit) -> usize {
    crate::sink::notice::focus_gap_chars(digits(units), unit.name(units))
}

/// `[… 12 paragraphs omitted …]`.
pub(crate) fn gap_line(units: usize, unit: Unit) -> String {
    crate::sink::notice::focus_gap(units, unit.name(units))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_count() {
        assert_eq!([0, 9, 10, 99, 100, 12345].map(digits), [1, 1, 2, 2, 3, 5]);
    }

    #[test]
    fn notices() {
        assert_eq!(
            notice_line(4, 40, Unit::Sections, "refund policy"),
            "[Kept 4 of 40 sections relevant to \"refund policy\"]"
        );
        assert_eq!(
            notice_line(1, 1, Unit::Lines, "x"),
            "[Kept 1 of 1 line relevant to \"x\"]"
        );
        assert_eq!(
            gap_line(12, Unit::Paragraphs),
            "[… 12 paragraphs omitted …]"
        );
        assert_eq!(gap_line(1, Unit::Rows), "[… 1 row omitted …]");
        for n in [0, 1, 9, 10, 12345] {
            for unit in [Unit::Sections, Unit::Paragraphs, Unit::Lines, Unit::Rows] {
                assert_eq!(gap_chars(n, unit), gap_line(n, unit).chars().count());
            }
        }
    }
}
