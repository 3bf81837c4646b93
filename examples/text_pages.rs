//! Text results page by page: a source file of about 100 KB, a diff, and one line of 517,430
//! characters, each formatted under a 2,000-character budget with a store, then walked to
//! the end through the fetch tool by following only the Next lines. Prints, for each, the
//! calls, the largest page and whether the pages' fenced contents join back to the text (the
//! spaces a code block writes `\u{20}` at a line's end read back).
//!
//! Run with `cargo run --example text_pages`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tof_support::pages::{joined_part, next_call, spaces_at_line_ends};
use tool_output_format::store::Fetch;
use tool_output_format::{Formatter, store::MemoryStore};

fn walk(name: &str, text: &str, budget: usize) {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(600)));
    let fmt = Formatter::new()
        .max_chars(budget)
        .store(store.clone(), "get_stored_result");
    let fetch = Fetch::new(store, "get_stored_result").formatter(&fmt);
    let mut page = fmt.format("read", &json!(text));
    let (mut calls, mut largest, mut joined) = (0, 0, String::new());
    loop {
        largest = largest.max(page.chars().count());
        let next = next_call(&page);
        joined.push_str(&spaces_at_line_ends(joined_part(
            &page,
            next.as_ref(),
            text,
        )));
        let Some((reference, cursor)) = next else {
            break;
        };
        page = fetch.call(&reference, cursor.as_deref(), None);
        calls += 1;
    }
    println!(
        "{name}: {} chars, budget {budget}: first text + {calls} fetch calls, largest page {largest} chars, joined back: {}",
        text.chars().count(),
        joined == text
    );
}

fn main() {
    let source = include_str!("../tool-output-format/src/call/pipeline.rs");
    let file: String = source.chars().cycle().take(102_312).collect();
    let diff: String = source
        .lines()
        .cycle()
        .take(5_000)
        .enumerate()
        .map(|(i, l)| match i % 3 {
            0 => format!("-{l}\n"),
            1 => format!("+{l}\n"),
            _ => format!(" {l}\n"),
        })
        .collect();
    let one_line = "commit 3f2a9c1 Author: A. Dev <dev@example.com> ".repeat(10_800);
    let one_line: String = one_line.chars().take(517_430).collect();
    for budget in [2_000, 10_000] {
        walk("read_text_file (102 KB)", &file, budget);
        walk("git_diff", &diff, budget);
        walk("one line", &one_line, budget);
    }
}
