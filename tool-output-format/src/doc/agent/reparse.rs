//! Re-parse the envelope lines with pulldown-cmark (GFM tables on): hostile data must not
//! end a line, open a block, raw HTML or a second link, or change a link's destination.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::*;

/// What the parser sees in `md`.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    /// Top-level blocks, by kind: `p` paragraph, `table`, other tags by debug name.
    blocks: Vec<String>,
    /// Hard and soft line breaks inside paragraphs (one per source line break).
    breaks: usize,
    /// Raw HTML other than `<br>`.
    html: usize,
    /// Every link: destination and plain text.
    links: Vec<(String, String)>,
}

fn seen(md: &str) -> Seen {
    let mut s = Seen::default();
    let mut depth = 0usize;
    let mut link: Option<(String, String)> = None;
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match ev {
            Event::Start(tag) => {
                if depth == 0 {
                    s.blocks.push(match &tag {
                        Tag::Paragraph => String::from("p"),
                        Tag::Table(_) => String::from("table"),
                        other => format!("{other:?}"),
                    });
                }
                if let Tag::Link { dest_url, .. } = &tag {
                    link = Some((dest_url.to_string(), String::new()));
                }
                depth += 1;
            }
            Event::End(end) => {
                depth -= 1;
                if end == TagEnd::Link {
                    s.links.extend(link.take());
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = link.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => s.breaks += 1,
            Event::Html(_) => s.html += 1,
            Event::InlineHtml(h) if h.as_ref() != "<br>" => s.html += 1,
            _ => {}
        }
    }
    s
}

const HOSTILE: &[&str] = &[
    "plain",
    "line\nbreak",
    "cr\r\nlf",
    "# heading",
    "- item",
    "> quote",
    "```fence",
    "<div>html</div>",
    "<!-- comment -->",
    "<https://auto.example>",
    "a|b|c",
    "|---|---|",
    "===",
    "[x](https://evil.example)",
    "![img](x.png)",
    "`code`",
    "\\",
    "trailing\\",
    "\u{2028}sep\u{2029}",
    "\u{202e}rtl\u{2066}",
    "\u{85}nel\u{7f}",
    "tab\there",
    "a)b(c",
    "",
    " ",
];

#[test]
fn next_lines_stay_one_line_without_html() {
    for &v in HOSTILE {
        let line = NextAction::call("f").arg("v", v).reason(v).line();
        let s = seen(&line);
        assert_eq!(
            (s.blocks.len(), s.breaks, s.html),
            (1, 0, 0),
            "{v:?}: {line}"
        );
        assert_eq!(s.blocks[0], "p", "{v:?}: {line}");
    }
}

#[test]
fn footers_after_a_table_stay_a_paragraph() {
    for &v in HOSTILE {
        let page = Page::new(vec![1, 2, 3])
            .has_more(true)
            .next_cursor(v)
            .item_cursors([v, v, v])
            .next_call("list", "cursor");
        for kept in [3, 1] {
            // The cut notice holds no data (the sink words it from counts; the model may not
            // import the sink): a line of its form stands for it.
            let lines = page.footer(kept).lines(|_| {
                "[Items 2-3 of this page were cut: next_cursor resumes at item 2]".into()
            });
            let md = format!("| a |\n|---|\n| 1 |\n\n{}", lines.join("\n"));
            let s = seen(&md);
            assert_eq!(s.blocks, ["table", "p"], "{v:?}: {md}");
            assert_eq!(s.html, 0, "{v:?}: {md}");
            // Inline spans are not escaped: a backtick in the data may
            // open a code span that runs over the next line break (raw text unchanged).
            if !v.contains('`') {
                assert_eq!(s.breaks, lines.len() - 1, "{v:?}: {md}");
            }
        }
    }
}

#[test]
fn resource_lines_stay_one_line_without_html() {
    for &v in HOSTILE {
        let line = ResourceRef::new(v)
            .name(v)
            .content_type(v)
            .size_bytes(1)
            .line();
        let s = seen(&line);
        assert_eq!(
            (s.blocks.len(), s.breaks, s.html),
            (1, 0, 0),
            "{v:?}: {line}"
        );
    }
}

#[test]
fn every_link_parses_as_one_link_to_its_url() {
    for &label in HOSTILE {
        for &path in HOSTILE {
            let url = format!("https://x.example/{path}");
            let links = [
                Link::new(label, url.as_str()),
                Link::new("edit", "https://x.example/e"),
            ];
            let line = links_line(&links).unwrap();
            let s = seen(&line);
            assert_eq!((s.blocks.len(), s.breaks, s.html), (1, 0, 0), "{line}");
            assert_eq!(s.links.len(), 2, "{line}");
            // The destination, percent-decoded, is the URL given.
            assert_eq!(percent_decode(&s.links[0].0), url, "{line}");
            assert_eq!(s.links[1], ("https://x.example/e".into(), "edit".into()));
            // A label with nothing the inline mapping changes reads back as given.
            let plain = label
                .chars()
                .all(|c| c.is_ascii_graphic() && !"\\|<".contains(c));
            if plain && !label.is_empty() {
                assert_eq!(s.links[0].1, label, "{line}");
            }
        }
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) if is_ours(h * 16 + l) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// Bytes `link` encodes (the test URLs contain no `%` of their own).
fn is_ours(byte: u32) -> bool {
    !(0x20..0x7f).contains(&byte) || b" ()<>\\`|".contains(&(byte as u8))
}
