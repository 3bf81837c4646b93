//! The table of the document model: columns and rows of cells in one flat buffer, each cell
//! with its [`Kind`]; the lines above a table ([`Note`]) and a column of leaf paths
//! ([`LeafColumn`]); and the pool of spare buffers a dropped table gives back.

use std::borrow::Cow;

use super::{Kind, Mark, Text};

/// A column that replaces a table's column of lists of records: one of their leaf paths
/// ([`Table::replace_columns`]).
#[derive(Debug)]
pub(crate) struct LeafColumn<'a> {
    /// The column's name: the list's, then the leaf's path (`spec.containers.image`).
    pub name: Text<'a>,
    /// How deep in the records the leaf is (1: a field of theirs).
    pub depth: u8,
    /// One cell per row: its text and kind.
    pub cells: Vec<(String, Kind)>,
}

/// A line above a table: a head, then parts listed while the line stays within `max`
/// characters (the rest counted: `and N more`), e.g. the columns said once.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Note {
    /// What the parts are: `[Same on all 3 rows: `.
    pub head: String,
    /// The parts, escaped, most needed first.
    pub parts: Vec<String>,
    /// Between two parts.
    pub sep: &'static str,
    /// What `and N more` counts (`columns`).
    pub what: &'static str,
    /// The longest the line may be (a budget's share, set by the cut; no bound else).
    pub max: usize,
    /// The note says a budget left columns out.
    pub narrowed: bool,
    /// The names of the columns a budget left out, as they are (a narrowed note; empty
    /// else): the fetch serves their values of the rows shown.
    pub left_out: Vec<String>,
    /// The note shows values (columns said once with their value), not only names: a
    /// budget gives it twice the share of a list of names.
    pub values: bool,
}

/// Columns and rows of cells, stored in one flat buffer; each cell knows its [`Kind`].
///
/// Cell text is the value under the cell rules (null -> empty, numbers as `serde_json` prints
/// them, lists of scalars as `a, b`, other nested values as compact JSON; see
/// [`Formatter::format`](crate::Formatter::format)), not yet escaped.
///
/// ```
/// use tool_output_format::{Context, ToolOutput, doc::{Kind, Node}};
/// let rows = serde_json::json!([{"name": "Alice", "age": 41}]);
/// let Node::Table(t) = rows.to_node(&Context::new()) else { unreachable!() };
/// assert_eq!(t.rows(), 1);
/// assert_eq!(t.cell(0, 1), ("41", Kind::Number));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table<'a> {
    /// A title line printed above the table (from `#[tool_output(title = "...")]`, set by
    /// derived code through `__private`).
    pub(crate) title: Option<Text<'a>>,
    /// The type's own row cap (`#[tool_output(max_rows = N)]`): below a tool's option, above
    /// the formatter's.
    pub(crate) max_rows: Option<usize>,
    /// Lines written above the table (after its title): the columns said once (one value on
    /// every row, or equal to another column) and the columns a budget left out.
    pub(crate) notes: Vec<Note>,
    /// The rows are the first `gap` rows and the last one: the rows between were left out
    /// (the sink writes one row saying how many there).
    pub(crate) gap: Option<usize>,
    /// The columns and cells, boxed so that a [`Node`] (and a record's [`Field`]) stays small:
    /// records hold many fields, few tables.
    core: Box<Core<'a>>,
}

/// A [`Table`]'s columns and cells.
#[derive(Debug, Clone, PartialEq, Default)]
struct Core<'a> {
    columns: Vec<Text<'a>>,
    /// Per column `max_chars` (empty when no column has one).
    limits: Vec<Option<usize>>,
    /// Per column [`Mark`] (empty when no column has one).
    marks: Vec<Mark>,
    /// Per column: how deep a leaf of a list of records it is (`arrange`'s leaf columns: 1
    /// for a field of the records, 2 for a field of a record within; 0 for other columns;
    /// empty when no column is one).
    lists: Vec<u8>,
    /// Rows in the data when only some were built (see [`Table::total_rows`]).
    total: Option<usize>,
    buf: String,
    ends: Vec<usize>,
    kinds: Vec<Kind>,
}

impl<'a> Table<'a> {
    /// An empty table with these columns.
    #[must_use]
    pub(crate) fn new(columns: Vec<Text<'a>>) -> Self {
        let (buf, ends, kinds) = spare::take();
        Table {
            title: None,
            max_rows: None,
            notes: Vec::new(),
            gap: None,
            core: Box::new(Core {
                columns,
                limits: Vec::new(),
                marks: Vec::new(),
                lists: Vec::new(),
                total: None,
                buf,
                ends,
                kinds,
            }),
        }
    }

    /// Set a per column `max_chars` (one entry per column), applied by the caps stage.
    pub(crate) fn set_limits(&mut self, limits: Vec<Option<usize>>) {
        self.core.limits = if limits.iter().all(Option::is_none) {
            Vec::new()
        } else {
            limits
        };
    }

    /// Set a per column [`Mark`] (one entry per column; see [`Mark`]).
    pub(crate) fn set_marks(&mut self, marks: Vec<Mark>) {
        self.core.marks = if marks.iter().all(|m| *m == Mark::None) {
            Vec::new()
        } else {
            marks
        };
    }

    /// The [`Mark`] of column `col` ([`Mark::None`] when it has none).
    ///
    /// ```
    /// use tool_output_format::{Context, ToolOutput, doc::{Mark, Node}};
    /// let rows = serde_json::json!([{"id": 1}]);
    /// let Node::Table(t) = rows.to_node(&Context::new()) else { unreachable!() };
    /// assert_eq!(t.mark(0), Mark::None);
    /// ```
    #[must_use]
    pub fn mark(&self, col: usize) -> Mark {
        self.core.marks.get(col).copied().unwrap_or_default()
    }

    /// The `max_chars` of column `col`, if any.
    #[must_use]
    pub(crate) fn limit(&self, col: usize) -> Option<usize> {
        self.core.limits.get(col).copied().flatten()
    }

    /// Column names in order.
    #[must_use]
    pub fn columns(&self) -> &[Text<'a>] {
        &self.core.columns
    }

    /// Whether a budget left columns out of this table (a note above it names them).
    pub(crate) fn narrowed(&self) -> bool {
        self.notes.iter().any(|n| n.narrowed)
    }

    /// Rows in the data: more than [`rows`](Self::rows) when the source built only the
    /// rows a cap or budget can keep.
    #[must_use]
    pub(crate) fn total_rows(&self) -> usize {
        self.core.total.unwrap_or(0).max(self.rows())
    }

    /// Record how many rows the data has (when only a prefix is built).
    pub(crate) fn set_total_rows(&mut self, total: usize) {
        self.core.total = Some(total);
    }

    /// Number of complete rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.core
            .ends
            .len()
            .checked_div(self.core.columns.len())
            .unwrap_or(0)
    }

    /// Append a cell: its text (not yet escaped) and its kind. Rows fill left to right; a row
    /// is complete after one cell per column ([`end_row`](Self::end_row) pads a short one).
    pub(crate) fn push_cell(&mut self, text: &str, kind: Kind) {
        self.core.buf.push_str(text);
        self.end_cell(kind);
    }

    /// The buffer the current cell's text is appended to (the sources write in place).
    #[inline]
    pub(crate) fn buf_mut(&mut self) -> &mut String {
        &mut self.core.buf
    }

    /// Close the current cell (its text is what was appended since the previous close).
    #[inline]
    pub(crate) fn end_cell(&mut self, kind: Kind) {
        self.core.ends.push(self.core.buf.len());
        self.core.kinds.push(kind);
    }

    /// Pad the current row with empty cells up to the column count.
    pub(crate) fn end_row(&mut self) {
        let cols = self.core.columns.len().max(1);
        while !self.core.ends.len().is_multiple_of(cols) {
            self.end_cell(Kind::Null);
        }
    }

    /// Bytes of cell text in all rows (column names not included).
    pub(crate) fn text_len(&self) -> usize {
        self.core.buf.len()
    }

    /// Make room for `rows` more rows of about `row_bytes` bytes of text each.
    pub(crate) fn reserve_rows(&mut self, rows: usize, row_bytes: usize) {
        let cells = rows.saturating_mul(self.core.columns.len());
        self.core.ends.reserve(cells);
        self.core.kinds.reserve(cells);
        self.core.buf.reserve(rows.saturating_mul(row_bytes));
    }

    /// The text of every cell, row by row (faster than [`cell`](Self::cell) for each).
    pub(crate) fn cells(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.core.ends.iter().map(move |&end| {
            let cell = &self.core.buf[start..end];
            start = end;
            cell
        })
    }

    /// The kind of every cell, row by row.
    #[must_use]
    pub(crate) fn kinds(&self) -> &[Kind] {
        &self.core.kinds
    }

    /// The text and kind of one cell.
    ///
    /// # Panics
    /// When the row or column is out of range.
    #[must_use]
    pub fn cell(&self, row: usize, col: usize) -> (&str, Kind) {
        let i = row * self.core.columns.len() + col;
        let start = if i == 0 { 0 } else { self.core.ends[i - 1] };
        (&self.core.buf[start..self.core.ends[i]], self.core.kinds[i])
    }

    /// Keep only the first `rows` rows.
    pub(crate) fn truncate_rows(&mut self, rows: usize) {
        let cells = rows.saturating_mul(self.core.columns.len());
        if cells < self.core.ends.len() {
            self.core.total = Some(self.total_rows());
            self.core.ends.truncate(cells);
            self.core.kinds.truncate(cells);
            self.core
                .buf
                .truncate(self.core.ends.last().copied().unwrap_or(0));
        }
    }

    /// Append the rows of `more` (a table with the same columns, built from later rows).
    pub(crate) fn append_rows(&mut self, more: &Table<'_>) {
        let offset = self.core.buf.len();
        self.core.buf.push_str(&more.core.buf);
        self.core
            .ends
            .extend(more.core.ends.iter().map(|e| e + offset));
        self.core.kinds.extend_from_slice(&more.core.kinds);
    }

    /// A copy of the first `rows` rows (cost proportional to what is copied).
    #[must_use]
    pub(crate) fn head(&self, rows: usize) -> Table<'a> {
        let cells = rows.min(self.rows()) * self.core.columns.len();
        let end = if cells == 0 {
            0
        } else {
            self.core.ends[cells - 1]
        };
        Table {
            title: self.title.clone(),
            max_rows: self.max_rows,
            notes: self.notes.clone(),
            gap: None,
            core: Box::new(Core {
                columns: self.core.columns.clone(),
                limits: self.core.limits.clone(),
                marks: self.core.marks.clone(),
                lists: self.core.lists.clone(),
                // A head of every row is an exact copy.
                total: if cells < self.core.ends.len() {
                    Some(self.total_rows())
                } else {
                    self.core.total
                },
                buf: self.core.buf[..end].to_owned(),
                ends: self.core.ends[..cells].to_vec(),
                kinds: self.core.kinds[..cells].to_vec(),
            }),
        }
    }

    /// How deep a leaf of a list of records column `col` is ([`Table::replace_columns`]; 0:
    /// not one).
    pub(crate) fn list_depth(&self, col: usize) -> u8 {
        self.core.lists.get(col).copied().unwrap_or(0)
    }

    /// Replace columns by the leaf columns of their lists of records, `with` (for each
    /// column, in increasing order, its leaf columns: each a name, its depth in the records
    /// and one cell per row), in place and in one pass over the cells: they take its limit
    /// and no mark. Every row must be built.
    pub(crate) fn replace_columns(&mut self, with: Vec<(usize, Vec<LeafColumn<'a>>)>) {
        if with.is_empty() {
            return;
        }
        let (rows, cols) = (self.rows(), self.core.columns.len());
        debug_assert!(with.windows(2).all(|w| w[0].0 < w[1].0));
        debug_assert!(
            with.iter()
                .flat_map(|(_, ls)| ls)
                .all(|l| l.cells.len() == rows)
        );
        let width = cols + with.iter().map(|(_, ls)| ls.len()).sum::<usize>() - with.len();
        let mut buf = String::with_capacity(self.core.buf.len());
        let mut ends = Vec::with_capacity(rows * width);
        let mut kinds = Vec::with_capacity(rows * width);
        for row in 0..rows {
            let mut next = with.iter().peekable();
            for c in 0..cols {
                if let Some((_, leaves)) = next.next_if(|(at, _)| *at == c) {
                    for l in leaves {
                        buf.push_str(&l.cells[row].0);
                        ends.push(buf.len());
                        kinds.push(l.cells[row].1);
                    }
                    continue;
                }
                let (text, kind) = self.cell(row, c);
                buf.push_str(text);
                ends.push(buf.len());
                kinds.push(kind);
            }
        }
        if self.core.lists.is_empty() {
            self.core.lists = vec![0; cols];
        }
        // From the last column replaced to the first, so the indices before it hold.
        for (col, leaves) in with.into_iter().rev() {
            let n = leaves.len();
            if !self.core.limits.is_empty() {
                let limit = self.core.limits[col];
                self.core
                    .limits
                    .splice(col..=col, std::iter::repeat_n(limit, n));
            }
            if !self.core.marks.is_empty() {
                self.core
                    .marks
                    .splice(col..=col, std::iter::repeat_n(Mark::None, n));
            }
            self.core
                .lists
                .splice(col..=col, leaves.iter().map(|l| l.depth));
            self.core
                .columns
                .splice(col..=col, leaves.into_iter().map(|l| l.name));
        }
        self.core.buf = buf;
        self.core.ends = ends;
        self.core.kinds = kinds;
    }

    /// Keep only the columns `cols`, in that order (each an index of a current column).
    pub(crate) fn select_columns(&mut self, cols: &[usize]) {
        let n = self.core.columns.len().max(1);
        if cols.len() == n && cols.iter().enumerate().all(|(i, &c)| i == c) {
            return;
        }
        let rows = self.rows();
        let mut buf = String::with_capacity(self.core.buf.len());
        let mut ends = Vec::with_capacity(rows * cols.len());
        let mut kinds = Vec::with_capacity(rows * cols.len());
        for row in 0..rows {
            for &c in cols {
                let (text, kind) = self.cell(row, c);
                buf.push_str(text);
                ends.push(buf.len());
                kinds.push(kind);
            }
        }
        let pick = |v: &[Option<usize>]| -> Vec<Option<usize>> {
            cols.iter().map(|&c| v.get(c).copied().flatten()).collect()
        };
        let limits = if self.core.limits.is_empty() {
            Vec::new()
        } else {
            pick(&self.core.limits)
        };
        let marks = if self.core.marks.is_empty() {
            Vec::new()
        } else {
            cols.iter().map(|&c| self.mark(c)).collect()
        };
        if !self.core.lists.is_empty() {
            self.core.lists = cols.iter().map(|&c| self.list_depth(c)).collect();
        }
        self.core.columns = cols.iter().map(|&c| self.core.columns[c].clone()).collect();
        self.core.limits = limits;
        self.core.marks = marks;
        self.core.buf = buf;
        self.core.ends = ends;
        self.core.kinds = kinds;
    }

    /// The first `rows - 1` rows and the last row (`2 <= rows < total`, every row built):
    /// the head of a table cut by a budget or a cap that keeps its end too.
    pub(crate) fn head_last(&self, rows: usize) -> Table<'a> {
        let total = self.total_rows();
        debug_assert!(rows >= 2 && rows < total && self.rows() == total);
        let mut t = self.head(rows - 1);
        t.push_row_of(self, total - 1);
        t.core.total = Some(total);
        t.gap = Some(rows - 1);
        t
    }

    /// Append row `row` of `other` (a table of the same columns).
    pub(crate) fn push_row_of(&mut self, other: &Table<'_>, row: usize) {
        for c in 0..other.columns().len() {
            let (text, kind) = other.cell(row, c);
            self.push_cell(text, kind);
        }
        self.end_row();
    }

    /// Rebuild every cell through `f(column, text, kind, out)`, which writes the new text and
    /// returns the new kind (used by caps that shorten cells and by redaction).
    pub(crate) fn map_cells(&mut self, mut f: impl FnMut(usize, &str, Kind, &mut String) -> Kind) {
        let cols = self.core.columns.len().max(1);
        let mut buf = String::with_capacity(self.core.buf.len());
        let mut ends = Vec::with_capacity(self.core.ends.len());
        let mut start = 0;
        for (i, &end) in self.core.ends.iter().enumerate() {
            self.core.kinds[i] = f(
                i % cols,
                &self.core.buf[start..end],
                self.core.kinds[i],
                &mut buf,
            );
            ends.push(buf.len());
            start = end;
        }
        self.core.buf = buf;
        self.core.ends = ends;
    }

    pub(super) fn into_owned(mut self) -> Table<'static> {
        let mut t = Table {
            title: self.title.take().map(|t| Cow::Owned(t.into_owned())),
            max_rows: self.max_rows,
            notes: std::mem::take(&mut self.notes),
            gap: self.gap,
            core: Box::new(Core {
                columns: std::mem::take(&mut self.core.columns)
                    .into_iter()
                    .map(|c| Cow::Owned(c.into_owned()))
                    .collect(),
                limits: std::mem::take(&mut self.core.limits),
                marks: std::mem::take(&mut self.core.marks),
                lists: std::mem::take(&mut self.core.lists),
                total: self.core.total,
                buf: String::new(),
                ends: Vec::new(),
                kinds: Vec::new(),
            }),
        };
        std::mem::swap(&mut t.core.buf, &mut self.core.buf);
        std::mem::swap(&mut t.core.ends, &mut self.core.ends);
        std::mem::swap(&mut t.core.kinds, &mut self.core.kinds);
        t
    }
}

impl Drop for Table<'_> {
    fn drop(&mut self) {
        spare::put(
            std::mem::take(&mut self.core.buf),
            std::mem::take(&mut self.core.ends),
            std::mem::take(&mut self.core.kinds),
        );
    }
}

/// One spare table buffer per thread: a large table's text and offsets are reused by the
/// next table instead of being returned to the allocator and faulted in again (rendering
/// 10,000 rows spent more time in page faults than in code). A cache of capacity only: it
/// never changes what is rendered.
mod spare {
    use std::cell::RefCell;

    use super::Kind;

    /// Buffers larger than this are released rather than kept.
    const KEEP_AT_MOST: usize = 16 << 20;

    type Buffers = (String, Vec<usize>, Vec<Kind>);

    thread_local! {
        static SPARE: RefCell<Buffers> = const { RefCell::new((String::new(), Vec::new(), Vec::new())) };
    }

    pub fn take() -> Buffers {
        SPARE
            .try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)).ok())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    pub fn put(mut buf: String, mut ends: Vec<usize>, mut kinds: Vec<Kind>) {
        if buf.capacity() > KEEP_AT_MOST || ends.capacity() * 8 > KEEP_AT_MOST {
            return;
        }
        buf.clear();
        ends.clear();
        kinds.clear();
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.0.capacity() < buf.capacity()
            {
                *s = (buf, ends, kinds);
            }
        });
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod tests {
    #[test]
    fn set_marks() {
        use crate::doc::{Mark, Table};
        let mut t = Table::new(vec!["id".into(), "etag".into()]);
        t.set_marks(vec![Mark::Key, Mark::Minor]);
        assert_eq!(t.mark(1), Mark::Minor);
    }

    #[test]
    fn set_total_rows() {
        use crate::doc::{Kind, Table};
        let mut t = Table::new(vec!["a".into()]);
        t.push_cell("", Kind::Null);
        t.set_total_rows(1_000_000);
        assert_eq!((t.rows(), t.total_rows()), (1, 1_000_000));
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn total_rows() {
        use crate::doc::{Kind, Table};
        let mut t = Table::new(vec!["a".into()]);
        t.push_cell("", Kind::Null);
        assert_eq!((t.rows(), t.total_rows()), (1, 1));
    }
}
