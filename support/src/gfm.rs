//! Re-parse rendered markdown with two GFM parsers and report what each sees.

/// A table as a parser sees it: each cell's source text, trimmed (header row first).
pub type Grid = Vec<Vec<String>>;

/// What a parser found at the top level and below.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Seen {
    /// Every table, in document order.
    pub tables: Vec<Grid>,
    /// Every fenced code block's literal content.
    pub code_blocks: Vec<String>,
    /// Number of list items at any depth.
    pub items: usize,
    /// Number of headings and block quotes (data must never create one).
    pub headings_and_quotes: usize,
    /// Number of raw HTML blocks (inline HTML is inline markup, kept as the data wrote it:
    /// it cannot change the structure).
    pub html: usize,
    /// How list items, tables and code blocks nest.
    pub shape: Shape,
}

/// The nesting a parser sees: for every list item, table and fenced code block in document
/// order, how many list items enclose it (an item counts itself).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Depth of each list item (1 for a top-level item).
    pub items: Vec<usize>,
    /// Depth of each table (0 at the top level).
    pub tables: Vec<usize>,
    /// Depth of each fenced code block.
    pub code_blocks: Vec<usize>,
}

/// A cell's source text without surrounding white space and delimiter pipes (a pipe after
/// a backslash is content, not a delimiter). Only spaces and tabs are trimmed, as GFM does:
/// Unicode white space (U+00A0, U+3000) at a cell's edge is content.
fn cell_text(src: &str) -> String {
    let ws: &[char] = &[' ', '\t'];
    let mut s = src.trim_matches(ws);
    s = s.strip_prefix('|').unwrap_or(s).trim_start_matches(ws);
    if s.ends_with('|') && !s.ends_with("\\|") {
        s = s[..s.len() - 1].trim_end_matches(ws);
    }
    s.to_string()
}

/// What pulldown-cmark (tables enabled) sees.
pub fn pulldown(md: &str) -> Seen {
    use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
    let mut depth = 0;
    let mut seen = Seen::default();
    let mut grid: Option<Grid> = None;
    let mut code: Option<String> = None;
    for (ev, range) in Parser::new_ext(md, Options::ENABLE_TABLES).into_offset_iter() {
        match ev {
            Event::Start(Tag::Table(_)) => {
                seen.shape.tables.push(depth);
                grid = Some(Vec::new())
            }
            Event::End(TagEnd::Table) => seen.tables.extend(grid.take()),
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                if let Some(g) = grid.as_mut() {
                    g.push(Vec::new())
                }
            }
            Event::Start(Tag::TableCell) => {
                if let Some(row) = grid.as_mut().and_then(|g| g.last_mut()) {
                    row.push(cell_text(&md[range]));
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                seen.shape.code_blocks.push(depth);
                code = Some(String::new())
            }
            Event::Text(t) => {
                if let Some(c) = code.as_mut() {
                    c.push_str(&t)
                }
            }
            Event::End(TagEnd::CodeBlock) => seen.code_blocks.extend(code.take()),
            Event::Start(Tag::Item) => {
                seen.items += 1;
                depth += 1;
                seen.shape.items.push(depth);
            }
            Event::End(TagEnd::Item) => depth -= 1,
            Event::Start(Tag::Heading { .. } | Tag::BlockQuote(_)) => seen.headings_and_quotes += 1,
            Event::Html(_) => seen.html += 1,
            _ => {}
        }
    }
    seen
}

/// What comrak (GFM table extension) sees.
pub fn comrak(md: &str) -> Seen {
    use comrak::nodes::NodeValue;
    let arena = comrak::Arena::new();
    let mut opts = comrak::Options::default();
    opts.extension.table = true;
    let root = comrak::parse_document(&arena, md, &opts);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(md.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |line: usize, col: usize| line_starts[line - 1] + col - 1;
    let mut seen = Seen::default();
    for node in root.descendants() {
        let depth = node
            .ancestors()
            .filter(|a| matches!(a.data.borrow().value, NodeValue::Item(_)))
            .count();
        let data = node.data.borrow();
        match &data.value {
            NodeValue::Table(_) => {
                seen.shape.tables.push(depth);
                let mut grid = Vec::new();
                for row in node.children() {
                    let mut cells = Vec::new();
                    for cell in row.children() {
                        let p = cell.data.borrow().sourcepos;
                        let text = if p.end.column == 0 || p.start.column == 0 {
                            String::new()
                        } else {
                            let (a, b) = (
                                offset(p.start.line, p.start.column),
                                offset(p.end.line, p.end.column),
                            );
                            cell_text(md.get(a..=b).unwrap_or(""))
                        };
                        cells.push(text);
                    }
                    grid.push(cells);
                }
                seen.tables.push(grid);
            }
            NodeValue::CodeBlock(cb) if cb.fenced => {
                seen.shape.code_blocks.push(depth);
                seen.code_blocks.push(cb.literal.clone())
            }
            NodeValue::Item(_) => {
                seen.shape.items.push(depth);
                seen.items += 1
            }
            NodeValue::Heading(_) | NodeValue::BlockQuote => seen.headings_and_quotes += 1,
            NodeValue::HtmlBlock(_) => seen.html += 1,
            _ => {}
        }
    }
    seen
}

/// Invert the documented cell escape (SPEC section 9): `\|` -> `|`, `\<br>` -> `<br>`,
/// `<br>` -> `\n`, `\u{HEX}` -> that character; every other character is itself (a data
/// backslash is written verbatim).
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("\\|") {
            out.push('|');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("\\<br>") {
            out.push_str("<br>");
            rest = r;
        } else if let Some(r) = rest.strip_prefix("<br>") {
            out.push('\n');
            rest = r;
        } else if let Some((ch, r)) = rest.strip_prefix("\\u{").and_then(code_point) {
            out.push(ch);
            rest = r;
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// `HEX}` at the start of `s`: the character and the rest.
fn code_point(s: &str) -> Option<(char, &str)> {
    let end = s.find('}')?;
    let hex = &s[..end];
    if hex.is_empty() || hex.len() > 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let ch = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
    Some((ch, &s[end + 1..]))
}

/// Invert the code-block mapping: `\u{HEX}` -> that character (nothing else is escaped in
/// code blocks).
pub fn unescape_code(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\\u{") {
        out.push_str(&rest[..i]);
        let r = &rest[i + 3..];
        match r
            .find('}')
            .and_then(|e| u32::from_str_radix(&r[..e], 16).ok().zip(Some(e)))
        {
            Some((code, e)) if char::from_u32(code).is_some() => {
                out.extend(char::from_u32(code));
                rest = &r[e + 1..];
            }
            _ => {
                out.push_str("\\u{");
                rest = r;
            }
        }
    }
    out.push_str(rest);
    out
}
