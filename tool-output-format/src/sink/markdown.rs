//! The markdown sinks: records as bullet lists, strings as fenced code blocks, and tables
//! in one of two [`TableStyle`]s (aligned or compact). Escaping and alignment live here and
//! only here.

mod envelope;
mod lean;

use std::borrow::Cow;

use super::{Document, Sink};
use crate::doc::notice::Notice;
use crate::doc::{Field, Node, Record, Table};
use crate::sink::notice::depth as depth_notice;
use crate::text::{self, Place, escape_text};

/// Cells wider than this many display columns do not widen their column: they overflow it
/// instead, so one long cell cannot add its width in spaces to every other row.
///
/// Chosen by measurement on the bundled datasets (BENCHMARKS.md, "Measurements behind the
/// defaults"): runs of spaces are cheap in tokens but not in characters; 32 keeps typical
/// short columns (ids, names, e-mails, ISO timestamps) aligned while prose columns overflow.
pub const PAD_CAP: usize = 32;

/// How a markdown table is written (the one thing the two markdown layouts differ in).
pub(crate) trait TableStyle: Sync {
    /// Append `t` (at least one column), each line prefixed by `indent`.
    fn table(&self, out: &mut String, t: &Table<'_>, indent: &str);

    /// True when records are written lean: empty fields grouped on one line and repeated
    /// nested values named (the rules in `lean.rs`).
    fn lean_records(&self) -> bool {
        false
    }
}

/// The markdown sink with tables in style `S`.
pub(crate) struct Markdown<S>(pub S);

/// Columns padded to their widest cell ([`Layout::Aligned`](crate::Layout::Aligned)).
pub(crate) struct Aligned;

/// No padding, `|-|` separators ([`Layout::Compact`](crate::Layout::Compact)).
pub(crate) struct Compact;

impl<S: TableStyle> Sink for Markdown<S> {
    fn render(&self, doc: &Document<'_, '_>) -> String {
        let cut = !doc.notices.is_empty();
        let top = match doc.body {
            Node::Record(r) if self.0.lean_records() && !cut => Some(lean::Top::of(&r.fields)),
            _ => None,
        };
        let mut w = Writer {
            // Most results are a few hundred bytes to a few kilobytes: one allocation, not
            // a growth by doubling from a few bytes (each a copy of what was written).
            out: String::with_capacity(INITIAL_CAPACITY),
            style: &self.0,
            cut,
            uncut: false,
            top,
        };
        let mut above = false;
        for n in doc.notices {
            if !super::notice::said_in_place(n, doc.body) {
                w.line("", &n.to_string());
                above = true;
            }
        }
        if above {
            w.blank();
        }
        w.root(doc.body, doc.title);
        while w.out.ends_with('\n') {
            w.out.pop();
        }
        w.out
    }
}

struct Writer<'s, 'd, S> {
    out: String,
    style: &'s S,
    /// The result carries a cut notice (lean records name no repeated value then).
    cut: bool,
    /// What is being written is inside a value known to hold no cut (lean records below it
    /// do not look for one again: each subtree is searched once, not once per level).
    uncut: bool,
    /// Lean records: the top-level record's fields, that nested records' fields equal to
    /// them are named after (none when the result carries a cut notice).
    top: Option<lean::Top<'d>>,
}

impl<S: TableStyle> Writer<'_, '_, S> {
    /// The result at the top level: a record under its title, a table, a list, a code
    /// block, a scalar, or an envelope around one of them.
    fn root(&mut self, body: &Node<'_>, title: Option<&str>) {
        match body {
            Node::Record(r) => {
                if let Some(t) = r.title.as_deref().or(title) {
                    self.title(t);
                    self.blank();
                }
                if r.fields.is_empty() {
                    self.line("", "*(empty)*");
                }
                self.fields(r, "");
                if let Some(line) = &r.left_out {
                    self.blank();
                    self.line("", line);
                }
            }
            Node::Table(t) => {
                if let Some(title) = &t.title {
                    self.title(title);
                    self.blank();
                }
                self.table(t, "");
            }
            Node::List(items) if items.is_empty() => self.line("", "*(empty)*"),
            Node::List(items) => self.items(items, ""),
            Node::Str(s) => self.code_block(s, "", ""),
            Node::Null => self.line("", "null"),
            Node::Bool(b) => self.line("", if *b { "true" } else { "false" }),
            Node::Number(s) => self.line("", s),
            Node::DepthCut(n) => self.line("", &depth_notice(*n)),
            Node::Envelope(e) => self.envelope_root(e, title),
        }
    }

    fn line(&mut self, indent: &str, s: &str) {
        self.out.push_str(indent);
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// `**title**`: the title is text (a tool name may hold anything), escaped like a cell.
    fn title(&mut self, title: &str) {
        self.out.push_str("**");
        escape_text(title, Place::Inline, &mut self.out);
        self.out.push_str("**\n");
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }

    /// `- key: value` lines for each field, nested values below.
    fn fields(&mut self, r: &Record<'_>, indent: &str) {
        if self.style.lean_records() {
            let fields: Vec<&Field<'_>> = r.fields.iter().collect();
            return self.lean_fields(&fields, indent, None);
        }
        for f in &r.fields {
            self.key(&f.name, indent);
            self.value(&f.value, indent, true);
        }
    }

    /// `- key:` (the value follows).
    fn key(&mut self, name: &str, indent: &str) {
        self.out.push_str(indent);
        self.out.push_str("- ");
        escape_text(name, Place::ItemStart(Some(':')), &mut self.out);
        self.out.push(':');
    }

    /// [`Writer::fields`] under the lean rules: empty fields named on one `(empty)` line,
    /// a nested value that repeats an earlier sibling's written `(same as NAME)`, one that
    /// differs from it in a few fields `(same as NAME, except:)` above those fields.
    /// `within` is set for those fields: the named sibling's key and, for each field, the
    /// field of that sibling it differs from.
    fn lean_fields<'r>(
        &mut self,
        r: &[&'r Field<'r>],
        indent: &str,
        within: Option<(&'r str, &[&'r Field<'r>])>,
    ) {
        // The top-level record's own fields (written unindented) are not compared with it.
        let top = self.top.as_ref().filter(|_| !indent.is_empty());
        let plan = lean::Plan::of(r, self.cut, within, self.uncut, top);
        let outer = self.uncut;
        for (f, instead) in r.iter().zip(&plan.fields) {
            match instead {
                lean::Instead::Grouped | lean::Instead::AsTop => {}
                lean::Instead::SameAs(j) => {
                    self.key(&f.name, indent);
                    self.out.push_str(" (same as ");
                    escape_text(&r[*j].name, Place::Inline, &mut self.out);
                    self.out.push_str(")\n");
                }
                lean::Instead::Except(e) => {
                    self.key(&f.name, indent);
                    self.out.push_str(if e.nested {
                        " (same as in "
                    } else {
                        " (same as "
                    });
                    escape_text(e.name, Place::Inline, &mut self.out);
                    self.out.push_str(", except:)\n");
                    let inner = deeper(indent);
                    // The record was checked: it holds no cut.
                    self.uncut = true;
                    self.lean_fields(&e.differing, &inner, Some((e.name, &e.reference)));
                }
                lean::Instead::Itself(uncut) => {
                    self.uncut = *uncut;
                    if &*f.name == lean::EMPTY_KEY || &*f.name == lean::TOP_KEY {
                        // Written as the line it would read as, with its `(` escaped.
                        self.out.push_str(indent);
                        self.out.push_str("- \\u{28}");
                        escape_text(&f.name[1..], Place::Inline, &mut self.out);
                        self.out.push(':');
                    } else {
                        self.key(&f.name, indent);
                    }
                    match &f.value {
                        Node::Str(s) if lean::looks_like_reference(s) => {
                            self.out.push_str(" \\u{28}");
                            escape_text(&s[1..], Place::Inline, &mut self.out);
                            self.out.push('\n');
                        }
                        v => self.value(v, indent, true),
                    }
                }
            }
        }
        self.uncut = outer;
        self.named_line(lean::TOP_KEY, indent, plan.as_top().map(|i| &*r[i].name));
        self.named_line(lean::EMPTY_KEY, indent, plan.grouped().map(|i| &*r[i].name));
    }

    /// `- KEY: a, b, c` (nothing when there are no names).
    fn named_line<'n>(&mut self, key: &str, indent: &str, names: impl Iterator<Item = &'n str>) {
        let mut names = names.peekable();
        if names.peek().is_none() {
            return;
        }
        self.out.push_str(indent);
        self.out.push_str("- ");
        self.out.push_str(key);
        self.out.push(':');
        for (n, name) in names.enumerate() {
            self.out.push_str(if n == 0 { " " } else { ", " });
            escape_text(name, Place::Inline, &mut self.out);
        }
        self.out.push('\n');
    }

    /// List items, one per node.
    fn items(&mut self, items: &[Node<'_>], indent: &str) {
        for v in items {
            self.out.push_str(indent);
            self.out.push('-');
            match v {
                Node::Null => self.out.push_str(" null\n"),
                // `- ` alone would end in a space.
                Node::Str(s) if s.is_empty() => self.out.push('\n'),
                Node::Str(s) if !text::has_line_break(s) => {
                    self.out.push(' ');
                    escape_text(s, Place::ItemStart(None), &mut self.out);
                    self.out.push('\n');
                }
                Node::Str(s) => {
                    self.out.push(' ');
                    self.code_block(s, &deeper(indent), "");
                }
                // The first joined item starts the item's text, where `#`, `-`, `>`, a fence
                // or `1.` would open a block.
                Node::List(l) if is_joinable(l) => self.joined(l, true),
                _ => self.value(v, indent, false),
            }
        }
    }

    /// The rest of a list item whose marker (and key) is written: ` value` inline, or a
    /// newline and a nested block. `keyed` when the item's line holds text (`- key:`), so a
    /// block that could continue or underline that text must follow a blank line; after a
    /// bare `-` there must be none (an item may begin with at most one blank line).
    fn value(&mut self, v: &Node<'_>, indent: &str, keyed: bool) {
        // Built only for the values that open a nested block (most values are inline).
        let inner = || deeper(indent);
        match v {
            Node::Null => self.out.push('\n'),
            Node::Str(s) if s.is_empty() => self.out.push('\n'),
            Node::Bool(b) => self.inline(if *b { "true" } else { "false" }),
            Node::Number(s) => self.inline(s),
            Node::Str(s) if !text::has_line_break(s) => self.inline(s),
            Node::Str(s) => {
                self.out.push('\n');
                let inner = inner();
                self.code_block(s, &inner, &inner);
            }
            Node::List(items) if items.is_empty() => self.out.push_str(" []\n"),
            Node::List(items) if is_joinable(items) => self.joined(items, false),
            Node::List(items) => {
                // A bare `-` right under `- key:` would read as a setext underline (an empty
                // item cannot interrupt a paragraph): a blank line ends the paragraph first.
                let bare = keyed && items.first().is_some_and(is_bare_item);
                self.out.push_str(if bare { "\n\n" } else { "\n" });
                self.items(items, &inner());
            }
            Node::Record(r) if r.fields.is_empty() => self.out.push_str(" {}\n"),
            Node::Record(r) => {
                self.out.push('\n');
                self.fields(r, &inner());
            }
            Node::Table(t) => {
                let inner = inner();
                // After `- key:` the header row would continue the paragraph.
                self.out.push_str(if keyed { "\n\n" } else { "\n" });
                // A nested table cut by the row cap says so in place, before its header.
                if t.total_rows() > t.rows() {
                    let notice = Notice::Rows {
                        kept: t.rows(),
                        total: t.total_rows(),
                    };
                    self.line(&inner, &notice.to_string());
                    self.blank();
                }
                self.table(t, &inner);
            }
            Node::DepthCut(n) => self.inline(&depth_notice(*n)),
            Node::Envelope(e) => self.envelope_value(e, indent, keyed),
        }
    }

    fn table(&mut self, t: &Table<'_>, indent: &str) {
        // The columns said once and the columns a budget left out, above the table (a
        // blank line after them, so no parser reads them as the table's header).
        for note in &t.notes {
            self.line(indent, &note_line(note));
        }
        if !t.notes.is_empty() && !t.columns().is_empty() {
            self.line("", "");
        }
        if !t.columns().is_empty() {
            self.style.table(&mut self.out, t, indent);
        }
    }

    /// ` a, b, c`: a list of scalars on one line. `line_start` when it begins a list item.
    fn joined(&mut self, items: &[Node<'_>], line_start: bool) {
        self.out.push(' ');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let text = match item {
                Node::Number(s) | Node::Str(s) => s,
                Node::Bool(true) => "true",
                Node::Bool(false) => "false",
                _ => continue,
            };
            let place = if line_start && i == 0 {
                Place::ItemStart((items.len() > 1).then_some(','))
            } else {
                Place::Inline
            };
            escape_text(text, place, &mut self.out);
        }
        self.out.push('\n');
    }

    fn inline(&mut self, s: &str) {
        self.out.push(' ');
        escape_text(s, Place::Inline, &mut self.out);
        self.out.push('\n');
    }

    /// A fenced block. `first` prefixes the opening fence (the caller may already have
    /// written a list marker), `indent` every later line.
    fn code_block(&mut self, s: &str, indent: &str, first: &str) {
        let fence = text::fence_for(s);
        self.line(first, &fence);
        let mut buf = String::new();
        for l in text::lines(s) {
            buf.clear();
            text::escape_code_line(l, &mut buf);
            if buf.is_empty() {
                self.blank();
            } else {
                self.line(indent, &buf);
            }
        }
        self.line(indent, &fence);
    }
}

impl TableStyle for Compact {
    fn lean_records(&self) -> bool {
        true
    }

    fn table(&self, out: &mut String, t: &Table<'_>, indent: &str) {
        let ncols = t.columns().len();
        // One pass: each cell is escaped straight into the output.
        out.reserve(t.text_len() + (t.rows() + 2) * (ncols + 1 + indent.len()));
        compact_row(out, t.columns().iter().map(|c| &**c), indent);
        out.push_str(indent);
        out.push('|');
        for _ in 0..ncols {
            out.push_str("-|");
        }
        out.push('\n');
        let mut cells = t.cells();
        for row in 0..t.rows() {
            if t.gap == Some(row) {
                gap_row(out, t, indent);
            }
            compact_row(out, cells.by_ref().take(ncols), indent);
        }
    }
}

/// A note's line: its parts while they fit its bound (at least one), then `and N more`.
fn note_line(note: &crate::doc::Note) -> String {
    let mut line = note.head.clone();
    let total = note.parts.len();
    let shown = text::join_within(&mut line, &note.parts, total, note.sep, note.max, (20, 20));
    if shown < note.parts.len() {
        super::notice::and_more(&mut line, note.parts.len() - shown, note.what);
    }
    line.push(']');
    line
}

/// The row that stands for the rows left out between a table's first rows and its last:
/// `|… 25 rows left out …|` (one cell; a parser pads the row).
fn gap_row(out: &mut String, t: &Table<'_>, indent: &str) {
    let left_out = t.total_rows().saturating_sub(t.rows());
    out.push_str(indent);
    super::notice::rows_gap(out, left_out);
}

/// `|a|b|`: cells escaped, no padding. A cell ending in a backslash gets a space before its
/// closing `|`, which the backslash would otherwise escape.
fn compact_row<'a>(out: &mut String, cells: impl Iterator<Item = &'a str>, indent: &str) {
    out.push_str(indent);
    out.push('|');
    for cell in cells {
        escape_text(cell, Place::Cell, out);
        if cell.ends_with('\\') {
            out.push(' ');
        }
        out.push('|');
    }
    out.push('\n');
}

impl TableStyle for Aligned {
    fn table(&self, out: &mut String, t: &Table<'_>, indent: &str) {
        let ncols = t.columns().len();
        let header = || t.columns().iter().map(|c| &**c);
        // Measure every escaped cell first. Most cells need no escaping, so only those that
        // do are escaped (into `scratch`) to be measured, and are marked to be escaped again
        // when written; the rest are measured and copied as they are.
        let mut scratch = String::new();
        let mut widest = vec![0usize; ncols];
        let mut cell_w = Vec::with_capacity((t.rows() + 1) * ncols);
        let mut bytes = 0;
        let mut col = 0;
        for cell in header().chain(t.cells()) {
            let w = if let Some(w) = text::plain_cell_width(cell) {
                bytes += cell.len();
                w
            } else {
                scratch.clear();
                escape_text(cell, Place::Cell, &mut scratch);
                bytes += scratch.len();
                text::width(&scratch) | ESCAPED
            };
            widest[col] = widest[col].max(w & !ESCAPED);
            cell_w.push(w);
            col = if col + 1 == ncols { 0 } else { col + 1 };
        }
        // Columns are padded up to the first one whose widest cell is over the cap; from
        // there on nothing is padded (its cells could not line up, nor could any column
        // after it), so every padded column lines up.
        let padded = widest.iter().take_while(|&&w| w <= PAD_CAP).count();
        let widths: Vec<usize> = widest[..padded].to_vec();
        let padding: usize = cell_w
            .chunks(ncols)
            .flat_map(|row| row.iter().zip(&widths))
            .map(|(w, width)| width.saturating_sub(w & !ESCAPED))
            .sum();
        let row_bytes = indent.len() + 2 + 3 * ncols;
        out.reserve(bytes + padding + row_bytes * (t.rows() + 2) + widths.iter().sum::<usize>());
        let mut cell_w = cell_w.chunks(ncols);
        let header_w = cell_w.next().unwrap_or_default();
        aligned_row(out, header(), header_w, &widths, indent);
        out.push_str(indent);
        out.push('|');
        for c in 0..ncols {
            let dashes = widths.get(c).map_or(3, |w| w + 2);
            out.extend(std::iter::repeat_n('-', dashes));
            out.push('|');
        }
        out.push('\n');
        let mut cells = t.cells();
        for (row, row_w) in cell_w.enumerate() {
            if t.gap == Some(row) {
                gap_row(out, t, indent);
            }
            aligned_row(out, cells.by_ref().take(ncols), row_w, &widths, indent);
        }
    }
}

/// `| a  | b |`: cells escaped (when marked [`ESCAPED`]) and padded to the column widths
/// (the first `widths.len()` columns; the others are not padded).
fn aligned_row<'a>(
    out: &mut String,
    cells: impl Iterator<Item = &'a str>,
    cell_w: &[usize],
    widths: &[usize],
    indent: &str,
) {
    out.push_str(indent);
    out.push('|');
    for (c, (cell, &w)) in cells.zip(cell_w).enumerate() {
        out.push(' ');
        if w & ESCAPED == 0 {
            out.push_str(cell);
        } else {
            escape_text(cell, Place::Cell, out);
        }
        let mut pad = widths
            .get(c)
            .map_or(0, |width| width.saturating_sub(w & !ESCAPED));
        while pad > 0 {
            let n = pad.min(SPACES.len());
            out.push_str(&SPACES[..n]);
            pad -= n;
        }
        out.push_str(" |");
    }
    out.push('\n');
}

/// A list printed joined on one line: numbers, booleans and non-empty strings (an empty
/// string would vanish between the commas, or leave a trailing space).
fn is_joinable(items: &[Node<'_>]) -> bool {
    !items.is_empty()
        && items.iter().all(|i| match i {
            Node::Bool(_) | Node::Number(_) => true,
            Node::Str(s) => !s.is_empty(),
            _ => false,
        })
}

/// True when [`Writer::items`] writes this node as a bare `-` with nothing after it.
fn is_bare_item(n: &Node<'_>) -> bool {
    match n {
        Node::Str(s) => s.is_empty(),
        Node::List(l) => !l.is_empty() && !is_joinable(l),
        Node::Record(r) => !r.fields.is_empty(),
        Node::Table(_) => true,
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::DepthCut(_) => false,
        Node::Envelope(e) => {
            !e.is_error() && e.head_lines().is_empty() && e.body().is_some_and(is_bare_item)
        }
    }
}

/// Marks a measured cell width whose cell must be escaped when written.
const ESCAPED: usize = 1 << (usize::BITS - 1);

/// The bytes the writer's output starts with room for.
const INITIAL_CAPACITY: usize = 1024;

/// Padding, copied in slices rather than pushed a space at a time.
const SPACES: &str = "                                                                ";

/// The indentation one level below `indent` (two more spaces): a slice of [`SPACES`] while
/// it fits (every level up to the depth limit), no allocation per nested value.
fn deeper(indent: &str) -> Cow<'static, str> {
    let n = indent.len() + 2;
    if n <= SPACES.len() && indent.bytes().all(|b| b == b' ') {
        Cow::Borrowed(&SPACES[..n])
    } else {
        Cow::Owned(format!("{indent}  "))
    }
}
