//! The fetch tool's cursors: a row (`"25"`), a row of a nested table (`"items/3"`), a line
//! and column of a text (`"12:40"`), the values of rows shortened (`"K;K>C"`), a record's
//! leaf (`"@12"`) and a leaf of a row; parsed, written back, and told when unknown.

use super::tool::Fetch;
use crate::store::{StoreError, StoreErrorKind};
use crate::text::resume::{RecordRest, Short};

impl Fetch {
    /// Where a cursor points (none: the first row).
    pub(super) fn cursor(&self, cursor: Option<&str>) -> Result<Cursor, StoreError> {
        let Some(c) = cursor.map(str::trim).filter(|c| !c.is_empty()) else {
            return Ok(Cursor::Row(0));
        };
        // A row's leaf: `ROW@K`, where ROW is a cursor of a row (a JSON pointer's keys may
        // hold `@`, so K must be digits and ROW a cursor).
        // `ROW@K/I`: from the `I`-th item of that leaf (a list).
        if let Some((row, at)) = c.rsplit_once('@')
            && !row.is_empty()
            && let (k, item) = at.split_once('/').map_or((at, None), |(k, i)| (k, Some(i)))
            && let Ok(k) = k.parse::<usize>()
            && let Ok(item) = item.map(str::parse::<usize>).transpose()
            && let Ok(row) = self.cursor(Some(row))
            && !matches!(row, Cursor::Leaf(_))
        {
            return Ok(Cursor::RowLeaf(Box::new(row), k, item));
        }
        // A part of a stored record: the JSON pointer, then the cursor inside it (a row or a
        // character, or the rows and then the values shortened: `/items/20;20>34`).
        // After the `~`, what the record's text left out beside that part (`~>34+owner`);
        // `/items/~v3;>34`: that, from its fourth entry (see [`RecordRest`]).
        if let Some((at, inner)) = c.strip_prefix('/').and_then(|_| c.rsplit_once('/'))
            && !inner.is_empty()
        {
            if let Some(entry) = inner.strip_prefix("~v") {
                let rest = entry.split_once(';').and_then(|(i, rest)| {
                    let (i, piece) = match i.split_once(':') {
                        Some((i, c)) => (i, Some(c.parse().ok()?)),
                        None => (i, None),
                    };
                    Some(Cursor::Rest(
                        at.to_owned(),
                        i.parse().ok()?,
                        piece,
                        RecordRest::parse(rest)?,
                    ))
                });
                return rest.ok_or_else(|| self.bad_cursor(c));
            }
            let (inner, rest) = match inner.split_once('~') {
                Some((inner, rest)) => match RecordRest::parse(rest) {
                    Some(rest) => (inner, Some(rest)),
                    None => return Err(self.bad_cursor(c)),
                },
                None => (inner, None),
            };
            return match self.cursor(Some(inner)) {
                Ok(inner @ (Cursor::Row(_) | Cursor::Short(..) | Cursor::Values(..))) => {
                    Ok(Cursor::In(at.to_owned(), Box::new(inner), rest))
                }
                _ => Err(self.bad_cursor(c)),
            };
        }
        let parsed = if let Some((at, short)) = c.split_once(';') {
            let short = Short::parse(short);
            match at.strip_prefix('v') {
                Some(i) => i.parse().ok().zip(short).map(|(i, s)| Cursor::Values(i, s)),
                None => at.parse().ok().zip(short).map(|(r, s)| Cursor::Short(r, s)),
            }
        } else if let Some(k) = c.strip_prefix('@') {
            k.parse().ok().map(Cursor::Leaf)
        } else if let Some((line, col)) = c.split_once(':') {
            line.parse()
                .ok()
                .zip(col.parse().ok())
                .map(|(l, c)| Cursor::Char(l, c))
        } else {
            c.parse().ok().map(Cursor::Row)
        };
        parsed.ok_or_else(|| self.bad_cursor(c))
    }

    pub(super) fn bad_text_cursor(&self, line: usize, col: usize, lines: usize) -> StoreError {
        StoreError::new(
            StoreErrorKind::Unknown,
            format!(
                "cursor \"{line}:{col}\" is not a position in this text of {lines} lines: pass \
                 the cursor of the previous page's Next line (\"L\" for line L from 0, \"L:C\" \
                 for its character C), or leave \"{}\" out to start from the first line",
                self.cursor_arg
            ),
        )
    }

    pub(super) fn bad_cursor(&self, cursor: &str) -> StoreError {
        let mut shown = String::new();
        crate::text::escape_inline(
            &cursor.chars().take(40).collect::<String>(),
            false,
            &mut shown,
        );
        StoreError::new(
            StoreErrorKind::Unknown,
            format!(
                "cursor \"{shown}\" is unknown: pass the next_cursor of the previous page, or \
                 leave \"{}\" out to start from the first row",
                self.cursor_arg
            ),
        )
    }
}

/// Where a cursor points: a row of the stored rows, or a place inside the array or text at
/// a JSON pointer inside a stored record (`/results/20`, `/results/20;20>34`, `/body/300`).
#[derive(Clone)]
pub(super) enum Cursor {
    Row(usize),
    /// A row (or a character of a text), the rows and then the values shortened, or those
    /// values, of the part at the pointer; then, when given, what the record's text left out
    /// beside that part (`"/items/20;20>34~>34+owner"`).
    In(String, Box<Cursor>, Option<RecordRest>),
    /// What a record's text left out beside the part at the pointer (none: `""`), from the
    /// `i`-th entry (`"/items/~v3;>34+owner"`); with `Some(c)`, that entry (a long text)
    /// from its character `c` (`"/items/~v3:400;>34+owner"`).
    Rest(String, usize, Option<usize>, RecordRest),
    /// A character of a line of a stored text (`"12:300"`).
    Char(usize, usize),
    /// A row, then the values the first text shortened (`"25;25>34"`).
    Short(usize, Short),
    /// The `i`-th value the first text shortened (`"v3;25>34"`).
    Values(usize, Short),
    /// A stored record from its `k`-th leaf on (`"@12"`; see [`super::leaves`]).
    Leaf(usize),
    /// A row (at the cursor before the `@`) from its `k`-th leaf on (`"3@5"`, `"/items/3@5"`).
    /// With `Some(i)`: that leaf (a list) from its `i`-th item (`"/items/3@5/20"`).
    RowLeaf(Box<Cursor>, usize, Option<usize>),
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cursor::Row(r) => write!(f, "{r}"),
            Cursor::In(at, inner, None) => write!(f, "{at}/{inner}"),
            Cursor::In(at, inner, Some(rest)) => write!(f, "{at}/{inner}~{}", rest.write()),
            Cursor::Rest(at, i, None, rest) => write!(f, "{at}/~v{i};{}", rest.write()),
            Cursor::Rest(at, i, Some(c), rest) => write!(f, "{at}/~v{i}:{c};{}", rest.write()),
            Cursor::Char(l, c) => write!(f, "{l}:{c}"),
            Cursor::Short(r, s) => f.write_str(&s.row_cursor(*r)),
            Cursor::Values(i, s) => f.write_str(&s.value_cursor(*i)),
            Cursor::Leaf(k) => write!(f, "@{k}"),
            Cursor::RowLeaf(row, k, None) => write!(f, "{row}@{k}"),
            Cursor::RowLeaf(row, k, Some(i)) => write!(f, "{row}@{k}/{i}"),
        }
    }
}
