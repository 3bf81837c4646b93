//! Measurements behind BENCHMARKS.md "Budgets, escaping and alignment". Ignored:
//! run by hand with
//!
//! ```sh
//! cargo test --release --test budget_measure -- --ignored --nocapture
//! ```

use serde_json::Value;
use tof_support::{data, gfm};
use tool_output_format::{Formatter, Layout, O200k, TokenCounter};

/// Rows of the first table the output holds (0 when there is none).
fn table_rows(md: &str) -> usize {
    gfm::pulldown(md)
        .tables
        .first()
        .map_or(0, |t| t.len().saturating_sub(1))
}

/// Escape sequences in the output, outside code blocks and the table separator rows.
///
/// Counted as the reader decodes them: `<br>`, `\u{HEX}`, and a backslash before ASCII
/// punctuation (`\|`, `\<`, `\\`, `\#` ...). A backslash that belongs to the data and is
/// written verbatim (`C:\path`, the `\"` of JSON in a cell) is not an escape, so when
/// `verbatim_backslashes` is set (the mapping of SPEC section 9) only `\|`, `\<br>`,
/// `\u{HEX}` and a backslash right after a list marker count.
fn escapes(md: &str, verbatim_backslashes: bool) -> usize {
    let mut n = 0;
    let mut fence: Option<String> = None;
    for line in md.lines() {
        let t = line.trim_start();
        if let Some(f) = &fence {
            if t.starts_with(f.as_str()) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") {
            fence = Some(t.chars().take_while(|&c| c == '`').collect());
            continue;
        }
        let b = t.as_bytes();
        let item_start = t.strip_prefix("- ").map(|_| 2);
        let mut i = 0;
        while i < b.len() {
            if b[i..].starts_with(b"<br>") {
                n += 1;
                i += 4;
            } else if b[i..].starts_with(b"\\u{") {
                n += 1;
                i += 3;
            } else if b[i] == b'\\' && b.get(i + 1).is_some_and(u8::is_ascii_punctuation) {
                let counts = !verbatim_backslashes
                    || b[i + 1] == b'|'
                    || b[i + 1..].starts_with(b"<br>")
                    || item_start == Some(i);
                if counts {
                    n += 1;
                }
                i += 2;
            } else {
                i += 1;
            }
        }
    }
    n
}

fn corpus() -> Vec<(&'static str, Value)> {
    data::ALL
        .iter()
        .map(|(name, text)| (*name, data::parse(text)))
        .collect()
}

#[test]
#[ignore = "measurement, run by hand"]
fn measure() {
    let verbatim = std::env::var("OLD_ESCAPES").is_err();
    let issues = data::parse(data::ISSUES_30);
    let page = data::parse(data::SEARCH_PAGE);
    println!("## issues_30: rows kept (aligned / compact)");
    for budget in [4_000usize, 6_000, 8_000] {
        let kept: Vec<String> = [Layout::Aligned, Layout::Compact]
            .iter()
            .map(|&l| {
                let md = Formatter::new()
                    .layout(l)
                    .max_chars(budget)
                    .format("t", &issues);
                format!("{} ({} chars)", table_rows(&md), md.chars().count())
            })
            .collect();
        println!("{budget}: {}", kept.join(" / "));
    }
    println!("## search_page: cursor kept, rows kept (aligned / compact)");
    for budget in [1_500usize, 3_000, 6_000, 12_000] {
        let kept: Vec<String> = [Layout::Aligned, Layout::Compact]
            .iter()
            .map(|&l| {
                let md = Formatter::new()
                    .layout(l)
                    .max_chars(budget)
                    .format("search", &page);
                format!(
                    "cursor {}, total_count {}, {} rows",
                    md.contains("next_cursor"),
                    md.contains("total_count"),
                    table_rows(&md)
                )
            })
            .collect();
        println!("{budget}: {}", kept.join(" / "));
    }
    let rows = data::parse(data::ROWS_1000);
    println!(
        "## rows_1000 under max_chars(120)\n{}",
        Formatter::new().max_chars(120).format("t", &rows)
    );
    println!("## escapes per 1,000 output chars (aligned, all rows)");
    let (mut esc, mut chars) = (0, 0);
    for (name, v) in corpus() {
        let md = Formatter::new().max_rows(usize::MAX).format("t", &v);
        let e = escapes(&md, verbatim);
        let c = md.chars().count();
        println!(
            "{name}: {e} escapes in {c} chars ({:.2} per 1,000)",
            e as f64 * 1000.0 / c as f64
        );
        esc += e;
        chars += c;
    }
    println!(
        "all: {esc} in {chars} chars ({:.2} per 1,000)",
        esc as f64 * 1000.0 / chars as f64
    );
    println!("## aligned layout: chars / o200k tokens (compact for reference)");
    let (mut ac, mut at, mut cc, mut ct) = (0, 0, 0, 0);
    for (name, v) in corpus() {
        let a = Formatter::new().max_rows(usize::MAX).format("t", &v);
        let c = Formatter::new()
            .max_rows(usize::MAX)
            .layout(Layout::Compact)
            .format("t", &v);
        let (a_c, a_t) = (a.chars().count(), O200k.count(&a));
        let (c_c, c_t) = (c.chars().count(), O200k.count(&c));
        println!("{name}: aligned {a_c} / {a_t}, compact {c_c} / {c_t}");
        ac += a_c;
        at += a_t;
        cc += c_c;
        ct += c_t;
    }
    println!("all: aligned {ac} / {at}, compact {cc} / {ct}");
}
