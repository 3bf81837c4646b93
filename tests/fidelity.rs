//! SPEC section 9 (the raw text is what the model reads) and the aligned layout's rule:
//! exact outputs where the contract is exact, the corpus where it is a property.

use serde_json::{Value, json};
use tof_support::{data, gfm};
use tool_output_format::{Formatter, Layout};

const VERBATIM: [&str; 7] = ["_id", "+1", "1.0.0", "<details>", "C:\\path", "a*b", "_rev"];

#[test]
fn keys_and_values_that_act_nowhere_are_verbatim() {
    let fmt = Formatter::new();
    for s in VERBATIM {
        // A table: header and cell.
        let md = fmt
            .clone()
            .layout(Layout::Compact)
            .format("", &json!([{ s: s }]));
        assert_eq!(md, format!("|{s}|\n|-|\n|{s}|"));
        // A record value, and a list entry.
        assert_eq!(fmt.format("", &json!({ "k": s })), format!("- k: {s}"));
        // A record key: verbatim unless it would open a block at the start of the item
        // (`<details>` opens an HTML block there).
        let want = if s == "<details>" {
            "\\<details>".to_string()
        } else {
            s.to_string()
        };
        assert_eq!(fmt.format("", &json!({ s: 1 })), format!("- {want}: 1"));
        assert_eq!(fmt.format("", &json!([s, "x"])), format!("- {want}\n- x"));
    }
}

#[test]
fn exact_escapes_where_structure_would_change() {
    let fmt = Formatter::new().layout(Layout::Compact);
    let cases: Vec<(Value, &str)> = vec![
        // A pipe in a cell, with and without a backslash before it.
        (json!([{"a": "x|y"}]), "|a|\n|-|\n|x\\|y|"),
        (json!([{"a": "x\\|y"}]), "|a|\n|-|\n|x\\\\|y|"),
        // A cell ending in a backslash keeps it, with a space before the closing pipe.
        (json!([{"a": "C:\\"}]), "|a|\n|-|\n|C:\\ |"),
        // Line breaks, the escape forms themselves, controls, edge spaces.
        (
            json!([{"a": "1\n2", "b": "<br>", "c": "\\u{41}", "d": " t\t"}]),
            "|a|b|c|d|\n|-|-|-|-|\n|1<br>2|\\<br>|\\u{5C}u{41}|\\u{20}t\\u{9}|",
        ),
        // Block openers only at the start of a list item.
        (
            json!({"k": "# not a heading", "# k": 1}),
            "- k: # not a heading\n- \\# k: 1",
        ),
        (
            json!(["- x", "1. y", "> q", "<div>", "a <div> b"]),
            "- \\- x\n- 1\\. y\n- \\> q\n- \\<div>\n- a <div> b",
        ),
    ];
    for (v, want) in cases {
        assert_eq!(fmt.format("", &v), want, "{v}");
    }
}

#[test]
fn json_in_a_cell_is_the_values_json() {
    let nested =
        json!({"msg": "say \"hi\"\r\n", "path": "C:\\dir", "pipe": "a|b", "n": [1, 2.5, null]});
    let rows = json!([{ "id": 1, "payload": nested }]);
    for layout in [Layout::Aligned, Layout::Compact] {
        let md = Formatter::new().layout(layout).format("", &rows);
        let cell = &gfm::pulldown(&md).tables[0][1][1];
        let read: Value = serde_json::from_str(&cell.replace("\\|", "|")).unwrap();
        assert_eq!(read, nested, "{md}");
        assert!(!md.contains("\\\\\""), "no doubled backslashes: {md}");
        assert_eq!(gfm::unescape(cell), serde_json::to_string(&nested).unwrap());
    }
}

/// Byte offsets of the `|` that end cells on a table line (a `\|` is content).
fn pipes(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let mut cols = Vec::new();
    let mut width = 0;
    for (i, c) in line.char_indices() {
        if c == '|' && (i == 0 || b[i - 1] != b'\\') {
            cols.push(width);
        }
        width += unicode_width(c);
    }
    cols
}

fn unicode_width(c: char) -> usize {
    // The corpus is ASCII and Latin-1 apart from a few CJK names, which are 2 wide.
    if ('\u{1100}'..='\u{ffdc}').contains(&c) && !('\u{2000}'..='\u{2fff}').contains(&c) {
        2
    } else {
        1
    }
}

#[test]
fn every_padded_column_lines_up() {
    let mut padded_columns = 0;
    for (name, text) in data::ALL {
        let v = data::parse(text);
        let md = Formatter::new().max_rows(usize::MAX).format("t", &v);
        let Some(grid) = gfm::pulldown(&md).tables.into_iter().next() else {
            continue;
        };
        // The rule, restated: columns up to the first whose widest cell (header included) is
        // over 32 display columns are padded.
        let widest = |c: usize| {
            grid.iter()
                .map(|row| row[c].chars().map(unicode_width).sum::<usize>())
                .max()
                .unwrap_or(0)
        };
        let k = (0..grid[0].len()).take_while(|&c| widest(c) <= 32).count();
        padded_columns += k;
        let lines: Vec<&str> = md
            .lines()
            .map(str::trim_start)
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .collect();
        let first = pipes(lines[0]);
        for l in &lines {
            assert_eq!(
                pipes(l)[..=k],
                first[..=k],
                "{name}: a padded column does not line up:\n{l}"
            );
        }
    }
    assert!(padded_columns > 20, "{padded_columns}");
}

#[test]
fn a_wide_column_and_those_after_it_are_not_padded() {
    let long = "x".repeat(40);
    let md = Formatter::new().format(
        "",
        &json!([{"id": 1, "body": long, "n": 2}, {"id": 10, "body": "y", "n": 30}]),
    );
    assert_eq!(
        md,
        format!("| id | body | n |\n|----|---|---|\n| 1  | {long} | 2 |\n| 10 | y | 30 |")
    );
}
