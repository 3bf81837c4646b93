//! Table summaries over all rows ("don't make the model count"): one pass, exact figures.
//!
//! A table cut to 100 rows of 10,000 leaves the model guessing at totals; this module computes,
//! over every row, the figures a model would otherwise estimate, and writes them as a short
//! markdown block:
//!
//! ```text
//! [Summary of all 1000 rows]
//! - id: 1 to 1000
//! - created_at: 2023-01-01T00:00:00Z to 2023-12-31T00:00:00Z
//! - status: shipped 400, pending 350, cancelled 250
//! - amount: 0.5 to 99.99, sum 51234.56
//! - note: 12 empty
//! ```
//!
//! # Which column gets which figure
//!
//! Empty cells ([`Kind::Null`](crate::doc::Kind::Null), also a column missing from a row) are left out of every
//! figure and counted apart. Of the other cells of a column:
//!
//! | the column's non-empty cells | figure |
//! |---|---|
//! | all numbers | `min to max`, compared exactly (integers as `i128`, an integer and a float compared exactly, floats as `f64`), printed as the cells' own text; plus `, sum S` when the column is named in [`SummaryOptions::sum`] |
//! | all RFC 3339 timestamps (`2024-01-01T00:00:00Z`, any offset, fractional seconds) | `earliest to latest`, compared as instants, printed as the cells' own text |
//! | all dates `YYYY-MM-DD` | `earliest to latest` |
//! | anything else, with at most [`SummaryOptions::max_distinct`] (default 10) distinct values, each at most 64 bytes, and at least two cells per distinct value on average (`2 * distinct <= cells`) | value counts `value count, ...`, by count descending, then value (byte order) |
//! | anything else | no figure |
//!
//! Then `, N empty` when the column has N empty cells. A column with neither a figure nor
//! empty cells is left out; a column that is all empty reads `- name: N empty`. Column names
//! and values are escaped like table cells (`text::escape_inline`); an empty string
//! value reads `""`.
//!
//! Sums are exact decimal sums of the cells' text (no `f64` rounding): `0.1 + 0.2` is `0.3`.
//! The sum is printed without trailing fraction zeros, with `.0` kept when any cell of the
//! column was a float (as `serde_json` writes floats); it is left out when it needs more than
//! 38 significant digits or a scale over 40 decimal places.
//!
//! # Cost
//!
//! One pass; per cell, a few comparisons. Memory per column is bounded: the current min/max
//! texts and at most `max_distinct + 1` distinct values of at most 64 bytes (a column stops
//! tracking values as soon as it exceeds either bound). Timestamps are parsed (by `jiff`) only
//! while every text cell of the column so far was one.

use std::cmp::Ordering;
use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::civil::Date;

use crate::doc::{Kind, Table};

/// Options of a summary.
#[derive(Debug, Clone)]
pub(crate) struct SummaryOptions {
    /// Columns whose numbers are summed (exactly).
    pub sum: Vec<String>,
    /// The most distinct values a column may have to get value counts.
    pub max_distinct: usize,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions {
            sum: Vec::new(),
            max_distinct: 10,
        }
    }
}

/// Values longer than this (bytes) are not counted: the column is not categorical.
const MAX_VALUE_BYTES: usize = 64;
/// Sums with more fraction digits than this are left out.
const MAX_SCALE: u32 = 40;

/// The summary of a table: its row count and one entry per column that has something to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    /// All rows of the table (kept and cut).
    pub rows: u64,
    /// Columns with a figure or empty cells, in table order.
    pub columns: Vec<ColumnSummary>,
}

/// One column's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ColumnSummary {
    /// The column name.
    pub name: String,
    /// Empty cells (null or missing).
    pub empty: u64,
    /// What the column's non-empty cells say, if anything.
    pub figure: Option<Figure>,
}

/// A column's figure (see the module docs for which column gets which).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Figure {
    /// All numbers: smallest and largest (their original text), and the exact sum if asked.
    Numbers {
        min: String,
        max: String,
        sum: Option<String>,
    },
    /// All timestamps, or all dates: earliest and latest (their original text).
    Times { earliest: String, latest: String },
    /// Few distinct values: each with its count, by count descending then value.
    Counts(Vec<(String, u64)>),
}

impl Summary {
    /// The markdown block: `[Summary of all N rows]`, then one `- name: figure` line per column.
    #[cfg(test)]
    pub(crate) fn to_markdown(&self) -> String {
        let mut out = String::new();
        self.write_markdown(&mut out);
        out
    }

    /// Appends [`to_markdown`](Self::to_markdown)'s text to `out`.
    #[cfg(test)]
    pub(crate) fn write_markdown(&self, out: &mut String) {
        self.write_lines(out, usize::MAX);
    }

    /// Column lines in the full block.
    pub(crate) fn lines(&self) -> usize {
        self.columns.len()
    }

    /// The block with at most `columns` column lines; when some are left out, a last line
    /// `- (N more columns left out to fit the budget)` says how many.
    pub(crate) fn write_lines(&self, out: &mut String, columns: usize) {
        crate::sink::notice::summary_head(out, self.rows);
        for c in self.columns.iter().take(columns) {
            out.push_str("\n- ");
            crate::text::escape_inline(&c.name, true, out);
            out.push(':');
            let mut first = true;
            let mut sep = |out: &mut String| {
                out.push_str(if first { " " } else { ", " });
                first = false;
            };
            match &c.figure {
                Some(Figure::Numbers { min, max, sum }) => {
                    sep(out);
                    let _ = write!(out, "{min} to {max}");
                    if let Some(sum) = sum {
                        let _ = write!(out, ", sum {sum}");
                    }
                }
                Some(Figure::Times { earliest, latest }) => {
                    sep(out);
                    escape_value(earliest, out);
                    out.push_str(" to ");
                    escape_value(latest, out);
                }
                Some(Figure::Counts(counts)) => {
                    for (value, n) in counts {
                        sep(out);
                        escape_value(value, out);
                        let _ = write!(out, " {n}");
                    }
                }
                None => {}
            }
            if c.empty > 0 {
                sep(out);
                let _ = write!(out, "{} empty", c.empty);
            }
        }
        if let Some(more) = self.columns.len().checked_sub(columns).filter(|&n| n > 0) {
            crate::sink::notice::summary_more_columns(out, more);
        }
    }
}

fn escape_value(s: &str, out: &mut String) {
    if s.is_empty() {
        out.push_str("\"\"");
    } else {
        crate::text::escape_inline(s, false, out);
    }
}

/// Summarises every built row of a document table (its cells and their kinds).
pub(crate) fn of_table(t: &Table<'_>, options: &SummaryOptions) -> Summary {
    let names: Vec<&str> = t.columns().iter().map(|c| &**c).collect();
    let mut s = Summarizer::new(&names, options);
    let cols = names.len();
    if cols > 0 {
        let mut cells = t.kinds().iter().copied().zip(t.cells());
        for _ in 0..t.rows() {
            s.row(cells.by_ref().take(cols));
        }
    }
    s.finish()
}

/// The one-pass computation of a summary, fed row by row.
pub(crate) struct Summarizer {
    rows: u64,
    columns: Vec<Column>,
}

impl Summarizer {
    /// A summariser for a table with these `columns`.
    pub(crate) fn new(columns: &[&str], options: &SummaryOptions) -> Self {
        Summarizer {
            rows: 0,
            columns: columns
                .iter()
                .map(|name| Column::new(name, options.sum.iter().any(|s| s == name), options))
                .collect(),
        }
    }

    /// Adds one row.
    pub(crate) fn row<'a>(&mut self, cells: impl IntoIterator<Item = (Kind, &'a str)>) {
        self.rows += 1;
        let mut cells = cells.into_iter();
        for col in &mut self.columns {
            match cells.next() {
                Some((kind, text)) => col.add(kind, text),
                None => col.empty += 1,
            }
        }
    }

    /// The summary of the rows added.
    pub(crate) fn finish(self) -> Summary {
        Summary {
            rows: self.rows,
            columns: self
                .columns
                .into_iter()
                .filter_map(Column::finish)
                .collect(),
        }
    }
}

struct Column {
    name: String,
    empty: u64,
    /// Non-empty cells.
    cells: u64,
    /// Cells that parsed as numbers.
    numbers: u64,
    min: Option<(Num, String)>,
    max: Option<(Num, String)>,
    sum: Option<DecimalSum>,
    /// Cells that parsed as the column's time kind.
    times: u64,
    time: Time,
    /// Distinct values and their counts; `None` once over a bound.
    distinct: Option<Vec<(Kind, String, u64)>>,
    max_distinct: usize,
}

enum Time {
    /// No text cell seen yet.
    Unseen,
    Timestamps {
        earliest: (Timestamp, String),
        latest: (Timestamp, String),
    },
    Dates {
        earliest: (Date, String),
        latest: (Date, String),
    },
    /// A text cell was neither, or the kinds were mixed.
    No,
}

impl Column {
    fn new(name: &str, sum: bool, options: &SummaryOptions) -> Self {
        Column {
            name: name.to_owned(),
            empty: 0,
            cells: 0,
            numbers: 0,
            min: None,
            max: None,
            sum: sum.then(DecimalSum::default),
            times: 0,
            time: Time::Unseen,
            distinct: Some(Vec::new()),
            max_distinct: options.max_distinct,
        }
    }

    fn add(&mut self, kind: Kind, text: &str) {
        if kind == Kind::Null {
            self.empty += 1;
            return;
        }
        self.cells += 1;
        match kind {
            Kind::Number => self.add_number(text),
            Kind::Text => self.add_text(text),
            _ => {}
        }
        self.count(kind, text);
    }

    fn add_number(&mut self, text: &str) {
        let Some(n) = Num::parse(text) else { return };
        self.numbers += 1;
        if self
            .min
            .as_ref()
            .is_none_or(|(m, _)| n.cmp(m) == Ordering::Less)
        {
            set(&mut self.min, n, text);
        }
        if self
            .max
            .as_ref()
            .is_none_or(|(m, _)| n.cmp(m) == Ordering::Greater)
        {
            set(&mut self.max, n, text);
        }
        if let Some(sum) = &mut self.sum {
            sum.add(text);
        }
    }

    fn add_text(&mut self, text: &str) {
        match &mut self.time {
            Time::No => {}
            Time::Unseen => {
                self.time = if text.len() == 10 {
                    parse_date(text).map_or(Time::No, |d| Time::Dates {
                        earliest: (d, text.to_owned()),
                        latest: (d, text.to_owned()),
                    })
                } else {
                    parse_timestamp(text).map_or(Time::No, |t| Time::Timestamps {
                        earliest: (t, text.to_owned()),
                        latest: (t, text.to_owned()),
                    })
                };
                if !matches!(self.time, Time::No) {
                    self.times += 1;
                }
            }
            Time::Dates { earliest, latest } => match parse_date(text) {
                Some(d) => {
                    self.times += 1;
                    extend(earliest, latest, d, text);
                }
                None => self.time = Time::No,
            },
            Time::Timestamps { earliest, latest } => match parse_timestamp(text) {
                Some(t) => {
                    self.times += 1;
                    extend(earliest, latest, t, text);
                }
                None => self.time = Time::No,
            },
        }
    }

    fn count(&mut self, kind: Kind, text: &str) {
        let Some(distinct) = &mut self.distinct else {
            return;
        };
        if let Some(entry) = distinct
            .iter_mut()
            .find(|(k, t, _)| *k == kind && t == text)
        {
            entry.2 += 1;
        } else if distinct.len() >= self.max_distinct || text.len() > MAX_VALUE_BYTES {
            self.distinct = None;
        } else {
            distinct.push((kind, text.to_owned(), 1));
        }
    }

    fn finish(self) -> Option<ColumnSummary> {
        let figure = if self.cells == 0 {
            None
        } else if self.numbers == self.cells {
            let (Some((_, min)), Some((_, max))) = (self.min, self.max) else {
                return None;
            };
            Some(Figure::Numbers {
                min,
                max,
                sum: self.sum.and_then(DecimalSum::finish),
            })
        } else if self.times == self.cells {
            match self.time {
                Time::Timestamps { earliest, latest } => Some(Figure::Times {
                    earliest: earliest.1,
                    latest: latest.1,
                }),
                Time::Dates { earliest, latest } => Some(Figure::Times {
                    earliest: earliest.1,
                    latest: latest.1,
                }),
                Time::Unseen | Time::No => None,
            }
        } else {
            match self.distinct {
                Some(d) if !d.is_empty() && 2 * d.len() as u64 <= self.cells => {
                    let mut counts: Vec<(String, u64)> =
                        d.into_iter().map(|(_, t, n)| (t, n)).collect();
                    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                    Some(Figure::Counts(counts))
                }
                _ => None,
            }
        };
        (figure.is_some() || self.empty > 0).then_some(ColumnSummary {
            name: self.name,
            empty: self.empty,
            figure,
        })
    }
}

/// Replaces a min/max slot, reusing its text buffer.
fn set(slot: &mut Option<(Num, String)>, n: Num, text: &str) {
    match slot {
        Some((m, t)) => {
            *m = n;
            t.clear();
            t.push_str(text);
        }
        None => *slot = Some((n, text.to_owned())),
    }
}

/// Widens an earliest/latest pair with `v` (ties keep the first seen).
fn extend<T: Ord + Copy>(earliest: &mut (T, String), latest: &mut (T, String), v: T, text: &str) {
    if v < earliest.0 {
        earliest.0 = v;
        earliest.1.clear();
        earliest.1.push_str(text);
    }
    if v > latest.0 {
        latest.0 = v;
        latest.1.clear();
        latest.1.push_str(text);
    }
}

fn parse_date(text: &str) -> Option<Date> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    text.parse().ok()
}

fn parse_timestamp(text: &str) -> Option<Timestamp> {
    let b = text.as_bytes();
    // Cheap shape check before jiff: `YYYY-MM-DD` then `T`, `t` or a space.
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    text.parse().ok()
}

/// A number as `serde_json` writes it: an integer (exact up to `i128`) or a float.
#[derive(Debug, Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn parse(text: &str) -> Option<Num> {
        if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
            text.parse()
                .ok()
                .filter(|f: &f64| f.is_finite())
                .map(Num::Float)
        } else if let Ok(i) = text.parse() {
            Some(Num::Int(i))
        } else {
            text.parse()
                .ok()
                .filter(|f: &f64| f.is_finite())
                .map(Num::Float)
        }
    }

    /// Exact order, also between an integer and a float.
    fn cmp(&self, other: &Num) -> Ordering {
        match (*self, *other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (Num::Float(a), Num::Float(b)) => a.total_cmp(&b),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).reverse(),
        }
    }
}

/// `a` compared with `f`, exactly (no rounding of `a` to `f64`).
#[allow(clippy::cast_possible_truncation)] // `f` is checked to be in range first (below)
fn cmp_int_float(a: i128, f: f64) -> Ordering {
    const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f >= TWO_127 {
        return Ordering::Less;
    }
    if f < -TWO_127 {
        return Ordering::Greater;
    }
    let floor = f.floor();
    // `floor` is an integer in [-2^127, 2^127): the cast is exact.
    match a.cmp(&(floor as i128)) {
        Ordering::Equal if f > floor => Ordering::Less,
        o => o,
    }
}

/// An exact decimal sum: `mantissa * 10^-scale`; `None` once it no longer fits.
#[derive(Debug, Default)]
struct DecimalSum {
    sum: Option<(i128, u32)>,
    broken: bool,
    any_float: bool,
}

impl DecimalSum {
    fn add(&mut self, text: &str) {
        if self.broken {
            return;
        }
        self.any_float |= text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
        let next = parse_decimal(text).and_then(|(m, s)| match self.sum {
            None => Some((m, s)),
            Some((acc, scale)) => {
                let to = scale.max(s);
                let acc = acc.checked_mul(10i128.checked_pow(to - scale)?)?;
                let m = m.checked_mul(10i128.checked_pow(to - s)?)?;
                Some((acc.checked_add(m)?, to))
            }
        });
        match next {
            Some(v) => self.sum = Some(v),
            None => self.broken = true,
        }
    }

    fn finish(self) -> Option<String> {
        if self.broken {
            return None;
        }
        let (mut m, mut scale) = self.sum?;
        while scale > 0 && m % 10 == 0 {
            m /= 10;
            scale -= 1;
        }
        let digits = m.unsigned_abs().to_string();
        let mut out = String::new();
        if m < 0 {
            out.push('-');
        }
        let scale = scale as usize;
        if scale == 0 {
            out.push_str(&digits);
            if self.any_float {
                out.push_str(".0");
            }
        } else if digits.len() > scale {
            let (int, frac) = digits.split_at(digits.len() - scale);
            let _ = write!(out, "{int}.{frac}");
        } else {
            let _ = write!(out, "0.{}{digits}", "0".repeat(scale - digits.len()));
        }
        Some(out)
    }
}

/// `-?digits(.digits)?([eE][+-]?digits)?` as `(mantissa, scale)`: value = mantissa * 10^-scale.
fn parse_decimal(text: &str) -> Option<(i128, u32)> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut m: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        m = m.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    let mut scale = i64::try_from(frac.len()).ok()?.checked_sub(exp)?;
    if scale < 0 {
        m = m.checked_mul(10i128.checked_pow(u32::try_from(-scale).ok()?)?)?;
        scale = 0;
    }
    let scale = u32::try_from(scale).ok().filter(|&s| s <= MAX_SCALE)?;
    Some((if neg { -m } else { m }, scale))
}

#[cfg(test)]
mod tests;
