//! Re-parse what we emit with pulldown-cmark and comrak: the adversarial set from the core
//! issue keeps its rows, columns and text (under the documented escape mapping).

use serde_json::{Value, json};
use tof_support::gfm::{self, Seen};
use tool_output_format::{Formatter, Layout};

const NASTY: &[&str] = &[
    "plain",
    "a|b",
    "back\\slash",
    "trailing\\",
    "x\\|y",
    "\\",
    "||",
    "crlf\r\nline",
    "cr\ronly",
    "lf\nline",
    "```",
    "a ```` b",
    "~~~",
    "<b>html</b>",
    "<br>",
    "李雷 Kowalski",
    "👍🏽 and 👨‍👩‍👧",
    "\u{202e}rtl override",
    "zero\u{200b}width",
    "nul\u{0}byte",
    "esc\u{1b}[31mred\u{1b}[0m",
    "",
    " leading and trailing ",
    "# heading",
    "- item",
    "> quote",
    "1. ordered",
    "---",
    "tab\there",
    "line\u{2028}sep",
    "*emph* _u_ `code|x`",
];

fn unescape_cell(cell: &str) -> String {
    gfm::unescape(cell)
}

fn normalised(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

fn check_table(md: &str, seen: &Seen, parser: &str, header: &[String], rows: &[Vec<String>]) {
    assert_eq!(
        seen.tables.len(),
        1,
        "{parser}: one table expected in\n{md}"
    );
    let grid = &seen.tables[0];
    assert_eq!(grid.len(), rows.len() + 1, "{parser}: rows in\n{md}");
    let got_header: Vec<String> = grid[0].iter().map(|c| unescape_cell(c)).collect();
    assert_eq!(got_header, header, "{parser}: header in\n{md}");
    for (got, want) in grid[1..].iter().zip(rows) {
        assert_eq!(got.len(), want.len(), "{parser}: columns in\n{md}");
        let got: Vec<String> = got.iter().map(|c| unescape_cell(c)).collect();
        assert_eq!(&got, want, "{parser}: cells in\n{md}");
    }
}

#[test]
fn adversarial_cells_survive_both_parsers_in_both_layouts() {
    let rows: Vec<Value> = NASTY
        .iter()
        .map(|s| json!({"value": s, "n": 1, "key|with\npipe": s}))
        .collect();
    let header = vec![
        "value".to_string(),
        "n".to_string(),
        "key|with\npipe".to_string(),
    ];
    let want: Vec<Vec<String>> = NASTY
        .iter()
        .map(|s| vec![normalised(s), "1".to_string(), normalised(s)])
        .collect();
    for layout in [Layout::Aligned, Layout::Compact] {
        let md = Formatter::new()
            .layout(layout)
            .format("t", &Value::Array(rows.clone()));
        check_table(&md, &gfm::pulldown(&md), "pulldown-cmark", &header, &want);
        check_table(&md, &gfm::comrak(&md), "comrak", &header, &want);
        for seen in [gfm::pulldown(&md), gfm::comrak(&md)] {
            assert_eq!(seen.html, 0, "{md}");
            assert_eq!(seen.headings_and_quotes, 0, "{md}");
        }
    }
}

#[test]
fn adversarial_records_keep_one_item_per_field() {
    let mut obj = serde_json::Map::new();
    for (i, s) in NASTY.iter().enumerate() {
        obj.insert(format!("{s}{i}"), json!(s));
    }
    let n = obj.len();
    let md = Formatter::new().format("t", &Value::Object(obj));
    for seen in [gfm::pulldown(&md), gfm::comrak(&md)] {
        assert_eq!(seen.items, n, "{md}");
        assert_eq!(seen.headings_and_quotes, 0, "{md}");
        assert_eq!(seen.html, 0, "{md}");
        assert!(seen.tables.is_empty(), "{md}");
    }
}

#[test]
fn adversarial_strings_are_one_code_block_with_the_kept_lines() {
    for s in NASTY {
        let md = Formatter::new().format("t", s);
        for seen in [gfm::pulldown(&md), gfm::comrak(&md)] {
            assert_eq!(seen.code_blocks.len(), 1, "{md}");
            // Code blocks show hidden controls as `\u{HEX}` (documented): undo that to compare.
            let content = gfm::unescape_code(&seen.code_blocks[0]);
            let want: String = tof_support::lines(s)
                .iter()
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(content, want, "{md}");
        }
    }
}

#[test]
fn nested_tables_in_records_parse_as_tables() {
    let v = json!({"id": 7, "orders": [{"sku": "a|b", "qty": 1}, {"sku": "x\ny", "qty": 2}]});
    for layout in [Layout::Aligned, Layout::Compact] {
        let md = Formatter::new().layout(layout).format("t", &v);
        for seen in [gfm::pulldown(&md), gfm::comrak(&md)] {
            assert_eq!(seen.tables.len(), 1, "{md}");
            assert_eq!(seen.tables[0].len(), 3, "{md}");
            assert_eq!(gfm::unescape(&seen.tables[0][2][0]), "x\ny");
        }
    }
}
