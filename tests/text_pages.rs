//! A text result stays text: the first text and every fetch page show it verbatim in a fence,
//! each within its budget, and following the Next lines from the first text gives the
//! original back byte for byte (a page that stops inside a line adds the line break before
//! its closing fence, and its cursor `"L:C"` says so; every line break is written `\n`).

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tof_support::pages::{joined_part, next_call};
use tool_output_format::store::Fetch;
use tool_output_format::{
    Formatter, ToolOptions,
    store::{MemoryStore, ResultStore},
};

/// Every page of `text` (the first text, then each fetch page by its Next line) under
/// `fmt`, checked against `within`, and the contents joined.
fn walk(
    fmt: &Formatter,
    fetch: &Fetch,
    text: &str,
    within: &dyn Fn(&str) -> bool,
) -> (String, usize) {
    let first = fmt.format("read_file", &json!(text));
    let mut joined = String::new();
    let mut page = first;
    let mut pages = 0;
    loop {
        pages += 1;
        assert!(pages <= 5_000, "the walk does not end");
        assert!(
            within(&page),
            "over the budget ({} chars):\n{page}",
            page.chars().count()
        );
        assert!(page.matches("Next:").count() <= 1, "{page}");
        assert!(!page.contains("shown whole"), "{page}");
        let next = next_call(&page);
        joined.push_str(joined_part(&page, next.as_ref(), text));
        let Some((reference, cursor)) = next else {
            return (joined, pages);
        };
        page = fetch.call(&reference, cursor.as_deref(), None);
    }
}

fn texts() -> Vec<(&'static str, String)> {
    let code: String = (1..=400)
        .map(|i| format!("    let x{i} = \"rand_chacha\"; // + {i}\n"))
        .collect();
    let diff: String = (1..=300)
        .map(|i| match i % 3 {
            0 => format!("-    old line {i}\n"),
            1 => format!("+    \"new\" line {i} with ``` inside\n"),
            _ => format!("@@ -{i},7 +{i},8 @@ fn f() {{\n"),
        })
        .collect();
    let wide: String = (1..=200)
        .map(|i| format!("第{i}行：日本語とemoji 👩‍👩‍👧 e\u{301}tait là\n"))
        .collect();
    let huge = "abcdefghij ".repeat(2_000) + "end";
    let crlf: String = (1..=900).map(|i| format!("line {i}\r\n")).collect();
    let backticks: String = (1..=150)
        .map(|i| format!("````` run {i} `` and ```\n"))
        .collect();
    let mixed = "short\n".to_owned() + &"y".repeat(3_000) + "\nafter\n" + &"z".repeat(700);
    vec![
        ("code", code),
        ("diff", diff),
        ("multi-byte", wide),
        ("one huge line", huge),
        ("crlf", crlf),
        ("backtick runs", backticks),
        ("long lines among short", mixed),
    ]
}

#[test]
fn every_text_page_is_within_its_budget_and_the_pages_join_to_the_text() {
    for budget in [200, 333, 700, 1_200, 2_000, 5_000] {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let fmt = Formatter::new()
            .max_chars(budget)
            .store(store.clone(), "get_stored_result");
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        for (name, text) in texts() {
            let within = |p: &str| p.chars().count() <= budget;
            let (joined, pages) = walk(&fmt, &fetch, &text, &within);
            assert!(
                joined == text.replace("\r\n", "\n"),
                "{name} at {budget}: the pages do not join to the text"
            );
            assert_eq!(
                pages > 1,
                text.chars().count() > budget,
                "{name} at {budget}: {pages} pages"
            );
        }
    }
}

#[test]
fn a_token_budget_bounds_every_text_page_too() {
    use tool_output_format::{O200k, TokenCounter};
    for budget in [100, 600] {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let fmt = Formatter::new()
            .max_tokens(budget)
            .store(store.clone(), "get_stored_result");
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        for (name, text) in texts() {
            let within = |p: &str| O200k.count(p) <= budget;
            let (joined, _) = walk(&fmt, &fetch, &text, &within);
            assert!(
                joined == text.replace("\r\n", "\n"),
                "{name} at {budget} tokens"
            );
        }
    }
}

#[test]
fn pages_fill_the_budget_not_a_fixed_number_of_lines() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_chars(2_000)
        .store(store.clone(), "get_stored_result");
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    // 100,000 characters of 20-character lines: about 90 lines a page, not 50.
    let text: String = (0..5_000).map(|i| format!("line {i:>14}\n")).collect();
    let (joined, pages) = walk(&fmt, &fetch, &text, &|p| p.chars().count() <= 2_000);
    assert_eq!(joined, text);
    assert!(pages <= 60, "{pages} pages");
}

#[test]
fn a_text_shown_whole_is_one_fenced_block() {
    let fmt = Formatter::new();
    assert_eq!(
        fmt.format("t", "file not found"),
        "```\nfile not found\n```"
    );
    assert_eq!(fmt.format("t", "a\nb"), "```\na\nb\n```");
    assert_eq!(fmt.format("t", "a ``` b\r\nc\n"), "````\na ``` b\nc\n````");
    assert_eq!(
        Formatter::new().max_lines(2).format("t", "a\nb\nc"),
        "[Truncated to 2 lines of 3 total]\n\n```\na\nb\n```"
    );
}

#[test]
fn a_line_too_long_for_the_budget_is_cut_inside_and_resumed_there() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .store(store.clone(), "get_stored_result")
        .tool("read_file", ToolOptions::new().max_chars(200));
    let text = "0123456789".repeat(30);
    let first = fmt.format("read_file", &json!(text));
    let (reference, cursor) = next_call(&first).expect(&first);
    let cursor = cursor.expect("a cursor");
    let (line, col) = cursor.split_once(':').expect("a line and a character");
    assert_eq!(line, "0");
    let shown: usize = col.parse().unwrap();
    assert_eq!(
        first,
        format!(
            "[Truncated to the first {shown} of 300 characters of line 1 of 1]\n\n```\n{}\n```\n\n\
             Next: call get_stored_result(ref=\"{reference}\", cursor=\"0:{shown}\")",
            &text[..shown]
        )
    );
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    let page = fetch.call(&reference, Some(&cursor), None);
    assert!(
        page.starts_with(&format!("[Line 1 of 1 (characters {}-", shown + 1)),
        "{page}"
    );
}

#[test]
fn fetch_pages_of_a_text_are_exact() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_lines(1)
        .store(store.clone(), "get_stored_result");
    let first = fmt.format("t", "a\n  b\nc");
    let (r, cursor) = next_call(&first).expect(&first);
    assert_eq!(
        first,
        format!(
            "[Truncated to 1 lines of 3 total]\n\n```\na\n```\n\n\
             Next: call get_stored_result(ref=\"{r}\", cursor=\"1\")"
        )
    );
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    assert_eq!(
        fetch.call(&r, cursor.as_deref(), None),
        format!(
            "[Line 2 of 3]\n\n```\n  b\n```\n\n\
             Next: call get_stored_result(ref=\"{r}\", cursor=\"2\")"
        )
    );
    assert_eq!(
        fetch.call(&r, Some("2"), None),
        "[Line 3 of 3]\n\n```\nc\n```"
    );
    assert_eq!(
        fetch.call(&r, Some("1:1"), None),
        format!(
            "[Line 2 of 3 (from character 2)]\n\n```\n b\n```\n\n\
             Next: call get_stored_result(ref=\"{r}\", cursor=\"2\")"
        )
    );
}

#[test]
fn a_bad_text_cursor_says_how_to_go_on() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_lines(1)
        .store(store.clone(), "get_stored_result");
    let first = fmt.format("t", "a\nb\nc");
    let (r, _) = next_call(&first).expect(&first);
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    for bad in [
        "9", "3", "2:1", "1:5", "x:y", "/a/1", "-1", "v0;1>2", "1;1>2",
    ] {
        let page = fetch.call(&r, Some(bad), None);
        assert!(
            page.starts_with("**get_stored_result failed**"),
            "{bad}: {page}"
        );
        assert!(page.contains("leave \"cursor\" out"), "{bad}: {page}");
        assert_eq!(page.matches("Next:").count(), 0, "{bad}: {page}");
    }
    // An empty stored text is one empty block.
    let empty = store.put(&json!("")).unwrap();
    assert_eq!(fetch.call(&empty, None, None), "```\n```");
}
