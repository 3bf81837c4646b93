//! The hardening oracle: render a JSON value with a set of options and check every property
//! the contract promises, independently of how the crate computes it.
//!
//! Shared by `tests/adversarial.rs`, `tests/properties.rs` and the fuzz target in `fuzz/`, so
//! the three check the same thing. Each check returns `Err(reason)` instead of panicking, so a
//! proptest can shrink on it and the fuzz target can print the input.
//!
//! What is checked, for any value and option set:
//! - the output never ends with a newline, no line ends in a space or tab, and no control
//!   character (Cc, U+2028, U+2029, bidi controls) appears raw, except `\n` and tabs that sit
//!   inside code blocks;
//! - scalars, `null` and `*(empty)*` are exact;
//! - pulldown-cmark and comrak see the same tables, list items and code blocks, nested exactly
//!   as the data's shape asks ([`gfm::Shape`]: one list item per field or list entry at each level,
//!   one table per list of records, one code block per multi-line string, each inside the
//!   item it belongs to);
//! - every table has header width == data columns, rows == kept rows, and every cell unescapes
//!   ([`gfm::unescape`]) to the original value under the cell rules, so kept rows are a prefix
//!   of the data;
//! - a string result is exactly one code block whose content is the kept lines (under the
//!   documented code-block mapping);
//! - every cut is announced first with exact counts (`[Truncated to K rows of N total]`), and
//!   nothing that is not cut is announced; every depth cut is announced in place;
//! - no heading, block quote, HTML block, link reference definition, footnote or task-list
//!   item (inline HTML such as `<details>` in a cell is the data's text, kept verbatim).

use serde_json::Value;
use tool_output_format::{Formatter, Layout};

use crate::gfm::{self, Shape};

/// The crate's nesting limit, restated so a change to it shows up here.
pub const MAX_DEPTH: usize = 32;

/// One option set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opts {
    /// `Formatter::max_lines` (None: the default, 100).
    pub max_lines: Option<usize>,
    /// `Formatter::max_rows` (None: same as max_lines).
    pub max_rows: Option<usize>,
    /// Table layout.
    pub layout: Layout,
    /// The tool name passed to `format` (empty: no record title).
    pub tool: String,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            max_lines: None,
            max_rows: None,
            layout: Layout::Aligned,
            tool: String::new(),
        }
    }
}

impl Opts {
    /// The formatter these options describe.
    pub fn formatter(&self) -> Formatter {
        let mut f = Formatter::new().layout(self.layout);
        if let Some(n) = self.max_lines {
            f = f.max_lines(n);
        }
        if let Some(n) = self.max_rows {
            f = f.max_rows(n);
        }
        f
    }

    fn lines_cap(&self) -> usize {
        self.max_lines.unwrap_or(100)
    }

    fn rows_cap(&self) -> usize {
        self.max_rows.unwrap_or(self.lines_cap())
    }

    /// Options decoded from a few bytes (used by the fuzz target): returns the options and
    /// how many bytes were used.
    pub fn from_bytes(b: &[u8]) -> (Opts, usize) {
        let (Some(&a), Some(&c)) = (b.first(), b.get(1)) else {
            return (Opts::default(), b.len().min(2));
        };
        let cap = |x: u8| match x & 0x0f {
            0 => None,
            15 => Some(0),
            n => Some(usize::from(n) - 1),
        };
        let opts = Opts {
            max_lines: cap(a),
            max_rows: cap(a >> 4),
            layout: if c & 1 == 0 {
                Layout::Aligned
            } else {
                Layout::Compact
            },
            tool: match (c >> 1) & 3 {
                0 => String::new(),
                1 => "get_message".into(),
                2 => "t".into(),
                _ => "list_team".into(),
            },
        };
        (opts, 2)
    }
}

/// Render `v` with `o` and check it; returns the markdown.
pub fn render_and_check(v: &Value, o: &Opts) -> Result<String, String> {
    let md = o.formatter().format(&o.tool, v);
    check(v, o, &md).map_err(|e| format!("{e}\n--- value: {}\n--- output:\n{md}", brief(v)))?;
    Ok(md)
}

fn brief(v: &Value) -> String {
    if nesting(v) > 64 {
        return "<deep value>".into();
    }
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.len() > 2000 {
        let mut end = 2000;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &s[..end], s.len())
    } else {
        s
    }
}

macro_rules! ensure {
    ($cond:expr, $($msg:tt)*) => {
        if !$cond {
            return Err(format!($($msg)*));
        }
    };
}

/// Check the output `md` of rendering `v` with `o`.
pub fn check(v: &Value, o: &Opts, md: &str) -> Result<(), String> {
    check_text(md)?;
    // Exact forms first.
    match v {
        Value::Null => return exact(md, "null"),
        Value::Bool(_) | Value::Number(_) => {
            return exact(md, &serde_json::to_string(v).unwrap());
        }
        Value::Array(a) if a.is_empty() => return exact(md, "*(empty)*"),
        Value::Object(m) if m.is_empty() => {
            return if o.tool.is_empty() {
                exact(md, "*(empty)*")
            } else {
                exact(md, &format!("**{} result**\n\n*(empty)*", o.tool))
            };
        }
        _ => {}
    }

    let mut want = Expected {
        nested_rows: o.rows_cap(),
        lean: o.layout == Layout::Compact,
        ..Expected::default()
    };
    match v {
        Value::String(s) => {
            let all: Vec<&str> = lines(s).collect();
            let kept = all.len().min(o.lines_cap());
            let notice = (all.len() > kept)
                .then(|| format!("[Truncated to {kept} lines of {} total]", all.len()));
            want.code_blocks.push(code_content(&all[..kept]));
            want.shape.code_blocks.push(0);
            let body = strip_notice(md, notice.as_deref())?;
            ensure!(
                body.starts_with("```"),
                "string result must start with a fence"
            );
        }
        Value::Array(items) if is_table(items) => {
            let total = items.len();
            let kept = total.min(o.rows_cap());
            let notice =
                (total > kept).then(|| format!("[Truncated to {kept} rows of {total} total]"));
            want.table(items, kept, 0);
            let body = strip_notice(md, notice.as_deref())?;
            ensure!(
                body.starts_with('|'),
                "table result must start with its header"
            );
        }
        Value::Array(items) => {
            want.list(items, 0, 0);
            strip_notice(md, None)?;
        }
        Value::Object(map) => {
            let body = strip_notice(md, None)?;
            let body = if o.tool.is_empty() {
                body
            } else {
                let title = format!("**{} result**\n\n", o.tool);
                ensure!(body.starts_with(&title), "record must start with {title:?}");
                &body[title.len()..]
            };
            ensure!(body.starts_with("- "), "record fields must start the body");
            if want.lean && want.uncut(v, 0) {
                want.top = Some(map.clone());
            }
            want.record(map, 0, 0);
        }
        _ => unreachable!("scalars are checked above"),
    }

    for (name, shape) in [
        ("pulldown-cmark", gfm::pulldown(md).shape),
        ("comrak", gfm::comrak(md).shape),
    ] {
        ensure!(
            shape == want.shape,
            "{name}: nesting (item depths, table depths, code block depths)\n  got  {shape:?}\n  want {:?}",
            want.shape
        );
    }
    for (name, seen) in [
        ("pulldown-cmark", gfm::pulldown(md)),
        ("comrak", gfm::comrak(md)),
    ] {
        ensure!(
            seen.headings_and_quotes == 0,
            "{name}: {} heading(s)/quote(s) forged",
            seen.headings_and_quotes
        );
        ensure!(seen.html == 0, "{name}: {} HTML node(s) forged", seen.html);
        ensure!(
            seen.code_blocks == want.code_blocks,
            "{name}: code blocks {:?}, expected {:?}",
            seen.code_blocks,
            want.code_blocks
        );
        ensure!(
            seen.tables.len() == want.tables.len(),
            "{name}: {} tables, expected {}",
            seen.tables.len(),
            want.tables.len()
        );
        for (t, (got, exp)) in seen.tables.iter().zip(&want.tables).enumerate() {
            ensure!(
                got.len() == exp.len(),
                "{name}: table {t} has {} rows (with header), expected {}",
                got.len(),
                exp.len()
            );
            for (r, (grow, erow)) in got.iter().zip(exp).enumerate() {
                ensure!(
                    grow.len() == erow.len(),
                    "{name}: table {t} row {r} has {} cells, expected {}",
                    grow.len(),
                    erow.len()
                );
                for (c, (g, e)) in grow.iter().zip(erow).enumerate() {
                    if let Some(e) = e {
                        let u = gfm::unescape(g);
                        ensure!(
                            &u == e,
                            "{name}: table {t} row {r} col {c}: {g:?} unescapes to {u:?}, expected {e:?}"
                        );
                    }
                }
            }
        }
        // Tabs may appear raw only inside code blocks.
        let tabs_in_code: usize = seen
            .code_blocks
            .iter()
            .map(|c| c.matches('\t').count())
            .sum();
        ensure!(
            md.matches('\t').count() == tabs_in_code,
            "{name}: a raw tab outside a code block"
        );
    }
    for n in &want.depth_cuts {
        ensure!(md.contains(n.as_str()), "depth cut not announced: {n:?}");
    }
    // Nested tables cut by the row cap: each announced on a line of its own, in place.
    for n in &want.nested_notices {
        let want_count = want.nested_notices.iter().filter(|m| *m == n).count();
        let lines = md.lines().filter(|l| l.trim_start() == n).count();
        ensure!(
            lines >= want_count,
            "nested row cut not announced in place: {n:?} ({lines} of {want_count})"
        );
    }
    let extra = extensions_forged(md);
    ensure!(
        extra == 0,
        "{extra} link definition(s)/footnote(s)/task item(s) forged"
    );
    Ok(())
}

fn exact(md: &str, want: &str) -> Result<(), String> {
    ensure!(md == want, "expected exactly {want:?}, got {md:?}");
    Ok(())
}

/// The part after the notice (which must be present iff something was cut).
fn strip_notice<'a>(md: &'a str, notice: Option<&str>) -> Result<&'a str, String> {
    match notice {
        Some(n) => {
            let head = format!("{n}\n\n");
            ensure!(md.starts_with(&head), "expected the notice {n:?} first");
            Ok(&md[head.len()..])
        }
        None => {
            ensure!(
                !md.starts_with('['),
                "a notice for a cut that did not happen"
            );
            Ok(md)
        }
    }
}

/// Whole-text rules: no final newline, no trailing white space, no raw control characters.
pub fn check_text(md: &str) -> Result<(), String> {
    ensure!(!md.ends_with('\n'), "output ends with a newline");
    for (i, line) in md.split('\n').enumerate() {
        ensure!(
            !line.ends_with([' ', '\t']),
            "line {i} ends in white space: {line:?}"
        );
    }
    if let Some(c) = md
        .chars()
        .find(|&c| c != '\n' && c != '\t' && is_control(c))
    {
        return Err(format!("raw control character U+{:04X}", c as u32));
    }
    Ok(())
}

/// Characters that must never be written raw (an independent restatement of the contract).
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{61c}' | '\u{200e}' | '\u{200f}'
        )
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// GFM extensions the helpers do not turn on: link reference definitions, footnote
/// definitions, task-list markers. Data must not create any of them.
pub fn extensions_forged(md: &str) -> usize {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let opts = Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS | Options::ENABLE_FOOTNOTES;
    let mut p = Parser::new_ext(md, opts);
    let mut n = 0;
    for ev in p.by_ref() {
        if matches!(
            ev,
            Event::TaskListMarker(_) | Event::Start(Tag::FootnoteDefinition(_))
        ) {
            n += 1;
        }
    }
    n + p.reference_definitions().iter().count()
}

/// Lines like the crate counts them: `str::lines`, plus a lone `\r` ends a line.
pub fn lines(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let i = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..i];
        let skip = if rest[i..].starts_with("\r\n") {
            2
        } else {
            usize::from(i < rest.len())
        };
        rest = &rest[i + skip..];
        Some(line)
    })
}

/// What a parser must see as the content of a code block holding these lines: controls
/// other than tab as `\u{HEX}`, trailing spaces and tabs as `\u{20}` / `\u{9}`.
pub fn code_content(lines: &[&str]) -> String {
    let mut out = String::new();
    for l in lines {
        let body = l.trim_end_matches([' ', '\t']);
        for c in body.chars() {
            if c != '\t' && is_control(c) {
                out.push_str(&format!("\\u{{{:X}}}", c as u32));
            } else {
                out.push(c);
            }
        }
        for c in l[body.len()..].chars() {
            out.push_str(&format!("\\u{{{:X}}}", c as u32));
        }
        out.push('\n');
    }
    out
}

/// Line breaks normalised to `\n`.
pub fn normalise_breaks(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// The most columns a table may have before records are listed instead (GFM parsers stop
/// reading a row as a table row at 65,535 cells).
pub const MAX_COLUMNS: usize = 65_535;

/// True when a list renders as a table: all objects, at least one key between them, and no
/// more than [`MAX_COLUMNS`] keys in all.
pub fn is_table(items: &[Value]) -> bool {
    if items.is_empty() || !items.iter().all(Value::is_object) {
        return false;
    }
    let mut keys = std::collections::HashSet::new();
    for m in items.iter().filter_map(Value::as_object) {
        keys.extend(m.keys());
        if keys.len() > MAX_COLUMNS {
            return false;
        }
    }
    !keys.is_empty()
}

/// Nesting depth of a value, without recursion.
pub fn nesting(v: &Value) -> usize {
    let mut stack = vec![(v, 1usize)];
    let mut max = 0;
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|x| (x, d + 1))),
            Value::Object(m) => stack.extend(m.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    max
}

fn count_values(v: &Value) -> usize {
    let mut stack = vec![v];
    let mut n = 0;
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    n
}

/// The cell text of a value under the cell rules (None: too deep to restate here).
pub fn cell_text(v: &Value) -> Option<String> {
    let plain = |v: &Value| match v {
        Value::String(s) => Some(normalise_breaks(s)),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    };
    match v {
        Value::Null => Some(String::new()),
        Value::Array(a) if a.is_empty() => Some("[]".into()),
        Value::Array(a) if a.iter().all(|x| plain(x).is_some()) => {
            Some(a.iter().filter_map(plain).collect::<Vec<_>>().join(", "))
        }
        Value::Array(_) | Value::Object(_) => {
            (nesting(v) <= MAX_DEPTH).then(|| serde_json::to_string(v).unwrap())
        }
        _ => plain(v),
    }
}

/// What the parsers must see.
#[derive(Debug, Default)]
struct Expected {
    /// Row cap of tables nested in records and lists.
    nested_rows: usize,
    /// In-place notices of nested tables cut by that cap, in document order.
    nested_notices: Vec<String>,
    tables: Vec<Vec<Vec<Option<String>>>>,
    code_blocks: Vec<String>,
    shape: Shape,
    depth_cuts: Vec<String>,
    /// Records are written lean (the compact layout).
    lean: bool,
    /// Lean records: the top-level record, when it holds no cut (its fields are what nested
    /// records' equal fields are named after).
    top: Option<serde_json::Map<String, Value>>,
}

impl Expected {
    /// A table of `rows`, of which the first `kept` are shown: columns come from all rows
    /// (SPEC: "keys in first-seen order across ALL rows"), cells from the kept ones.
    fn table(&mut self, rows: &[Value], kept: usize, level: usize) {
        self.shape.tables.push(level);
        let mut cols: Vec<&str> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for m in rows.iter().filter_map(Value::as_object) {
            for k in m.keys() {
                if seen.insert(k.as_str()) {
                    cols.push(k);
                }
            }
        }
        let mut grid = vec![cols.iter().map(|k| Some(normalise_breaks(k))).collect()];
        for m in rows[..kept].iter().filter_map(Value::as_object) {
            grid.push(
                cols.iter()
                    .map(|k| m.get(*k).map_or(Some(String::new()), cell_text))
                    .collect(),
            );
        }
        self.tables.push(grid);
    }

    /// A record at nesting `depth` whose fields become items at item depth `level + 1`. In
    /// the compact layout (lean records), two or more null or empty-string fields whose keys
    /// hold no comma are one `(empty)` item after the others, and a nested block equal to
    /// one of the first 32 distinct earlier nested blocks (of keys without a comma) is one
    /// item with nothing below it (`(same as KEY)`; never for a block that holds a cut: a
    /// nested table past the row cap, the depth limit, a string with a cut marker's text).
    /// A nested record with the same keys in the same order as one of those blocks, three
    /// or more, at most half of them different, has only its differing fields below it
    /// (`(same as KEY, except:)`), the closest such block counting.
    fn record(&mut self, m: &serde_json::Map<String, Value>, depth: usize, level: usize) {
        let fields: Vec<(&str, &Value)> = m.iter().map(|(k, v)| (k.as_str(), v)).collect();
        self.fields(&fields, depth, level, None);
    }

    /// [`Expected::record`] for a list of fields; `reference` is set for the fields of an
    /// except-list (their counterparts in the named record): a nested record there is
    /// compared with its counterpart alone, and no sibling is named.
    fn fields(
        &mut self,
        fields: &[(&str, &Value)],
        depth: usize,
        level: usize,
        reference: Option<&[&Value]>,
    ) {
        let groupable = |k: &str, v: &Value| {
            no_data(v, depth + 1) && !k.is_empty() && !k.contains(',') && k != "(empty)"
        };
        let grouped = self.lean && fields.iter().filter(|(k, v)| groupable(k, v)).count() >= 2;
        // A nested record's fields (text or blocks) equal to the top-level record's of the
        // same name, two or more, are one `(same as the top level)` item.
        let as_top = |k: &str, v: &Value| {
            let worth = match v {
                Value::String(s) => !s.is_empty(),
                _ => self.is_block(v, depth + 1),
            };
            depth > 0
                && reference.is_none()
                && worth
                && !k.is_empty()
                && !k.contains(',')
                && !k.starts_with('(')
                && self.top.as_ref().is_some_and(|t| t.get(k) == Some(v))
        };
        let on_top: Vec<bool> = fields
            .iter()
            .map(|&(k, v)| self.lean && !(grouped && groupable(k, v)) && as_top(k, v))
            .collect();
        let topped = on_top.iter().filter(|&&t| t).count() >= 2;
        let mut candidates: Vec<&Value> = Vec::new();
        for (i, &(k, f)) in fields.iter().enumerate() {
            if grouped && groupable(k, f) {
                continue;
            }
            if topped && on_top[i] {
                continue;
            }
            self.shape.items.push(level + 1);
            if self.lean && self.is_block(f, depth + 1) {
                if let Some(reference) = reference {
                    if let Some((fields, reference)) = differing(reference[i], f) {
                        self.fields(&fields, depth + 1, level + 1, Some(&reference));
                        continue;
                    }
                } else {
                    if candidates.contains(&f) {
                        continue;
                    }
                    let mut nearest: Option<Difference<'_>> = None;
                    for &c in &candidates {
                        if let Some(d) = differing(c, f)
                            && nearest.as_ref().is_none_or(|(b, _)| d.0.len() < b.len())
                        {
                            nearest = Some(d);
                        }
                    }
                    if candidates.len() < 32 && !k.contains(',') {
                        candidates.push(f);
                    }
                    if let Some((fields, reference)) = nearest {
                        self.fields(&fields, depth + 1, level + 1, Some(&reference));
                        continue;
                    }
                }
            }
            self.value(f, depth + 1, level + 1);
        }
        if topped {
            self.shape.items.push(level + 1);
        }
        if grouped {
            self.shape.items.push(level + 1);
        }
    }

    /// A value written as a nested block (a non-empty record, a table, a list that is not
    /// joined on one line) that holds no cut.
    fn is_block(&self, v: &Value, depth: usize) -> bool {
        let block = match v {
            Value::Object(m) => !m.is_empty(),
            // Records are never joinable, so a table is a block too.
            Value::Array(a) => !a.is_empty() && !a.iter().all(joinable),
            _ => false,
        };
        block && self.uncut(v, depth)
    }

    /// True when nothing inside `v` is cut by the row cap or the depth limit.
    fn uncut(&self, v: &Value, depth: usize) -> bool {
        match v {
            Value::String(s) => !s.contains("…[+") && !s.contains("[Truncated"),
            Value::Object(m) => {
                m.is_empty() || (depth < MAX_DEPTH && m.values().all(|f| self.uncut(f, depth + 1)))
            }
            Value::Array(a) => {
                a.is_empty()
                    || (depth < MAX_DEPTH
                        && (!is_table(a) || a.len() <= self.nested_rows)
                        && a.iter().all(|x| self.uncut(x, depth + 1)))
            }
            _ => true,
        }
    }

    /// A list at nesting `depth` whose entries become items at item depth `level + 1`.
    fn list(&mut self, items: &[Value], depth: usize, level: usize) {
        for v in items {
            self.shape.items.push(level + 1);
            self.value(v, depth + 1, level + 1);
        }
    }

    /// What a value at nesting `depth`, sitting in a list item at item depth `level` (after
    /// its marker or key), adds below it.
    fn value(&mut self, v: &Value, depth: usize, level: usize) {
        match v {
            Value::String(s) if s.contains(['\n', '\r']) => {
                let all: Vec<&str> = lines(s).collect();
                self.code_blocks.push(code_content(&all));
                self.shape.code_blocks.push(level);
            }
            Value::Array(_) | Value::Object(_) if depth >= MAX_DEPTH => {
                self.depth_cuts.push(format!(
                    "[Truncated at depth {MAX_DEPTH}: {} nested values omitted]",
                    count_values(v)
                ));
            }
            Value::Object(m) => self.record(m, depth, level),
            Value::Array(a) if is_table(a) => {
                let kept = a.len().min(self.nested_rows);
                if kept < a.len() {
                    self.nested_notices
                        .push(format!("[Truncated to {kept} rows of {} total]", a.len()));
                }
                self.table(a, kept, level)
            }
            Value::Array(a) if a.iter().all(joinable) => {}
            Value::Array(a) => self.list(a, depth, level),
            _ => {}
        }
    }
}

/// The differing fields of a record (key and value) and their counterparts' values.
type Difference<'v> = (Vec<(&'v str, &'v Value)>, Vec<&'v Value>);

/// The fields of record `b` that differ from record `a`'s, and their counterparts in `a`,
/// when `b` is written as that difference: the same keys in the same order, three or more,
/// one to half of them differing.
fn differing<'v>(a: &'v Value, b: &'v Value) -> Option<Difference<'v>> {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return None;
    };
    if b.len() < 3 || a.len() != b.len() || a.keys().zip(b.keys()).any(|(x, y)| x != y) {
        return None;
    }
    let (fields, reference): Difference<'v> = b
        .iter()
        .zip(a.values())
        .filter(|((_, y), x)| x != y)
        .map(|((k, y), x)| ((k.as_str(), y), x))
        .unzip();
    (!fields.is_empty() && fields.len() * 2 <= b.len()).then_some((fields, reference))
}

/// A value at nesting `depth` that holds no data: null, `""`, or, above the depth limit,
/// `[]`, `{}` or an object whose every field holds none.
fn no_data(v: &Value, depth: usize) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty() && depth < MAX_DEPTH,
        Value::Object(m) => depth < MAX_DEPTH && m.values().all(|x| no_data(x, depth + 1)),
        _ => false,
    }
}

/// Items a list inside a record or list may hold to print joined on one line.
fn joinable(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.is_empty(),
        Value::Number(_) | Value::Bool(_) => true,
        _ => false,
    }
}
