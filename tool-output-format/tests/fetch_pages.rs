//! The rest of a cut result is reachable: a 10,000-row result, cut and stored by the
//! formatter, walked to its last row through the fetch handler by reading only the text the
//! model reads (the rows, then the cursor of the Next line).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tool_output_format::store::Fetch;
use tool_output_format::{
    Formatter,
    store::{MemoryStore, ResultStore},
};

fn rows(n: u64) -> Value {
    Value::Array(
        (1..=n)
            .map(|id| json!({"id": id, "status": if id % 3 == 0 { "shipped" } else { "pending" }}))
            .collect(),
    )
}

/// The ids of the table rows of a page's text (first column), or of a row served as a
/// record (`- id: 7`: a row wider than the budget, in runs of its fields).
fn ids(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("| ").or_else(|| l.strip_prefix("- id: ")))
        .filter_map(|l| l.split('|').next()?.trim().parse().ok())
        .collect()
}

/// The reference and cursor of the Next line, if any.
fn next_call(text: &str, tool: &str) -> Option<(String, Option<String>)> {
    let line = text.lines().find(|l| l.starts_with("Next: call "))?;
    let args = line
        .strip_prefix(&format!("Next: call {tool}("))?
        .strip_suffix(')')?;
    let mut reference = None;
    let mut cursor = None;
    for part in args.split(", ") {
        let (k, v) = part.split_once('=')?;
        let v = v.trim_matches('"').to_owned();
        match k {
            "ref" | "id" => reference = Some(v),
            "cursor" | "from" => cursor = Some(v),
            _ => {}
        }
    }
    Some((reference?, cursor))
}

/// Walks a cut result to its last row by following only the Next lines, from the first
/// text: the rows it shows, then the stored rest from where it stopped (SPEC 19). Returns the
/// ids seen in order (each row once when the walk neither skips nor repeats) and the number
/// of fetch calls.
fn walk(fmt: &Formatter, fetch: &Fetch, store: &MemoryStore, n: u64) -> (Vec<u64>, usize) {
    let first = fmt.format("list_orders", &rows(n));
    let mut seen = ids(&first);
    let (reference, cursor) = next_call(&first, "get_stored_result").expect(&first);
    // The cursor where the first text stopped: the first row it did not show.
    assert_eq!(cursor, Some(seen.len().to_string()), "{first}");
    assert_eq!(first.matches("Next:").count(), 1, "{first}");
    let stored = store.len();
    let mut cursor = cursor;
    let mut calls = 0;
    loop {
        calls += 1;
        assert!(calls <= 2 * n as usize, "the walk does not end");
        let page = fetch.call(&reference, cursor.as_deref(), None);
        assert_eq!(store.len(), stored, "a page was stored again:\n{page}");
        assert!(page.matches("Next:").count() <= 1, "{page}");
        seen.extend(ids(&page));
        match next_call(&page, "get_stored_result") {
            Some((r, Some(c))) => {
                assert_eq!(r, reference, "{page}");
                assert!(page.contains("has_more: true"), "{page}");
                cursor = Some(c);
            }
            _ => {
                assert!(page.contains("has_more: false"), "{page}");
                break;
            }
        }
    }
    (seen, calls)
}

#[test]
fn a_10000_row_result_is_walked_to_the_end_every_row_once() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_rows(20)
        .store(store.clone(), "get_stored_result");
    // Pages of 50 rows, cut to 20 by the formatter's cap: the cursor resumes at row 21.
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    let (seen, calls) = walk(&fmt, &fetch, &store, 10_000);
    assert_eq!(seen, (1..=10_000).collect::<Vec<_>>());
    // The first text showed 20 rows; the rest in pages of 20.
    assert_eq!(calls, 499);
}

#[test]
fn a_character_budget_cuts_pages_and_the_walk_still_gets_every_row() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_chars(700)
        .store(store.clone(), "get_stored_result");
    let fetch = Fetch::new(store.clone(), "get_stored_result")
        .formatter(&fmt)
        .page_size(100);
    let (seen, _) = walk(&fmt, &fetch, &store, 2_000);
    assert_eq!(seen, (1..=2_000).collect::<Vec<_>>());
}

#[test]
fn argument_names_are_configurable_and_a_query_focuses_the_pages() {
    let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let reference = store.put(&rows(300)).unwrap();
    let fetch = Fetch::new(store, "more_rows")
        .arg_names("id", "from")
        .page_size(40);
    let mut args = serde_json::Map::new();
    args.insert("id".into(), json!(reference));
    args.insert("query".into(), json!("SHIPPED"));
    let mut seen = Vec::new();
    loop {
        let page = fetch.call_args(&args);
        assert!(page.contains("total: 100"), "{page}");
        seen.extend(ids(&page));
        let Some((r, Some(c))) = next_call(&page, "more_rows") else {
            break;
        };
        assert!(
            page.contains(&format!("query=\"SHIPPED\", from=\"{c}\"")),
            "{page}"
        );
        assert_eq!(r, reference);
        args.insert("from".into(), json!(c));
    }
    assert_eq!(seen, (1..=100).map(|i| i * 3).collect::<Vec<_>>());
}

#[test]
fn unknown_references_and_cursors_are_told() {
    let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fetch = Fetch::new(store.clone(), "get_stored_result");
    let text = fetch.call("r_zzzzzzzzzzzzzzzzzzzzzzzzzz", None, None);
    assert!(text.starts_with("**get_stored_result failed**"), "{text}");
    assert!(text.contains("unknown"), "{text}");
    let reference = store.put(&json!([1])).unwrap();
    let text = fetch.call(&reference, Some("abc"), None);
    assert!(text.contains("cursor \"abc\" is unknown"), "{text}");
}

#[test]
fn the_formatter_and_the_fetch_tool_share_the_reference_argument_name() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_rows(10)
        .store(store.clone(), "get_stored_result")
        .store_ref_arg("id");
    let first = fmt.format("list_orders", &rows(35));
    assert!(
        first.contains("Next: call get_stored_result(id=\"r_"),
        "{first}"
    );
    let fetch = Fetch::new(store.clone(), "get_stored_result")
        .formatter(&fmt)
        .page_size(10);
    assert_eq!(fetch.get_arg_names().0, "id");
    let (seen, calls) = walk(&fmt, &fetch, &store, 35);
    assert_eq!(seen, (1..=35).collect::<Vec<_>>());
    // Rows 11-35 in pages of 10.
    assert_eq!(calls, 3);
}

/// SPEC 19: each page is within the originating tool's budget unless the fetch tool has
/// options of its own: the store keeps the tool a result came from, and the fetch serves
/// with its options (8,055 characters under a 3,000 budget before).
#[test]
fn pages_keep_the_originating_tools_budget() {
    use tool_output_format::ToolOptions;
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .store(store.clone(), "get_stored_result")
        .tool("list_orders", ToolOptions::new().max_chars(3_000));
    let first = fmt.format("list_orders", &rows(500));
    assert!(first.chars().count() <= 3_000, "{first}");
    let (reference, cursor) = next_call(&first, "get_stored_result").expect(&first);
    assert_eq!(store.origin(&reference).as_deref(), Some("list_orders"));
    let fetch = Fetch::new(store.clone(), "get_stored_result")
        .formatter(&fmt)
        .page_size(200);
    let mut seen = ids(&first);
    let mut cursor = cursor;
    let mut calls = 0;
    while let Some(c) = cursor {
        calls += 1;
        assert!(calls < 100, "the walk does not end");
        let page = fetch.call(&reference, Some(&c), None);
        assert!(
            page.chars().count() <= 3_000,
            "{} chars:\n{page}",
            page.chars().count()
        );
        seen.extend(ids(&page));
        cursor = next_call(&page, "get_stored_result").and_then(|(_, c)| c);
    }
    assert_eq!(seen, (1..=500).collect::<Vec<_>>());
    // The fetch tool's own options win.
    let own = fmt
        .clone()
        .tool("get_stored_result", ToolOptions::new().max_chars(600));
    let fetch = Fetch::new(store, "get_stored_result").formatter(&own);
    let page = fetch.call(&reference, None, None);
    assert!(page.chars().count() <= 600, "{page}");
}

/// Rows whose long values the first text shortens to fit the budget: its Next line resumes
/// at the first row it did not show, the fetch serves the rows from there to the last, then
/// the values the first text shortened, whole, each named by its row and column; the pages
/// show fewer rows rather than shorten a value again, so every value is read whole on some
/// page and no row is served twice; each page holds the budget unless one value alone is
/// over it (and says so: a row too wide is served field by field).
#[test]
fn fetch_pages_show_every_value_whole() {
    let body = |id: u64| {
        format!(
            "body {id}: {}",
            "lorem ipsum dolor sit amet ".repeat(id as usize % 7 * 6 + 2)
        )
    };
    let data = Value::Array(
        (1..=30)
            .map(|id| json!({"id": id, "body": body(id)}))
            .collect(),
    );
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_chars(900)
        .store(store.clone(), "get_stored_result");
    let first = fmt.format("list_issues", &data);
    assert!(
        first.contains("…[+"),
        "the first text shortens values:\n{first}"
    );
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    let walked = walk_values(&fetch, &first);
    assert_eq!(walked.rows, (1..=30).collect::<Vec<_>>(), "every row once");
    for id in 1..=30 {
        assert!(
            walked.text.contains(body(id).trim_end()),
            "body {id} never whole"
        );
    }
    for page in &walked.pages {
        assert!(
            !page.contains("…[+"),
            "a value shortened on a page:\n{page}"
        );
        if !page.starts_with("[Over the budget: this row alone needs ")
            && !page.starts_with("[Over the budget: this field alone needs ")
        {
            assert!(page.chars().count() <= 900, "{page}");
        }
    }
    // Only rows too long for the budget by themselves come over it.
    let too_long = (1..=30)
        .filter(|&id| body(id).chars().count() > 700)
        .count();
    assert!(
        walked.over <= too_long,
        "{} pages over the budget, {too_long} rows too long",
        walked.over
    );
}

/// What following the Next lines from a first text served.
struct Walked {
    /// The ids of the rows shown, the first text's and the row pages', in order.
    rows: Vec<u64>,
    /// Every page's text, the first text's included.
    text: String,
    /// The fetch pages.
    pages: Vec<String>,
    /// Pages over the budget (a row alone too long, said so).
    over: usize,
}

/// Follows the Next lines from `first` to the end: the pages of rows (their ids) and then the
/// pages of the values the first text shortened (a table of `row`, `column`, `value`).
fn walk_values(fetch: &Fetch, first: &str) -> Walked {
    let mut walked = Walked {
        rows: ids(first),
        text: first.to_owned(),
        pages: Vec::new(),
        over: 0,
    };
    let Some((reference, mut cursor)) = next_call(first, "get_stored_result") else {
        return walked;
    };
    if let Some(c) = &cursor {
        let row = c.split(';').next().unwrap();
        assert_eq!(row, walked.rows.len().to_string(), "{first}");
    }
    loop {
        assert!(walked.pages.len() <= 400, "the walk does not end");
        let page = fetch.call(&reference, cursor.as_deref(), None);
        assert!(page.matches("Next:").count() <= 1, "{page}");
        if page.starts_with("[Over the budget: ") {
            walked.over += 1;
        }
        let values = page
            .lines()
            .any(|l| l.starts_with("| row ") && l.contains(" value "));
        if !values {
            walked.rows.extend(ids(&page));
        }
        walked.text.push_str(&page);
        cursor = next_call(&page, "get_stored_result").and_then(|(_, c)| c);
        walked.pages.push(page);
        if cursor.is_none() {
            return walked;
        }
    }
}

/// A first text cut by the default 100-row cap, by a cell cap and by a budget: following its
/// Next lines serves every row once and every value whole.
#[test]
fn the_walk_from_a_cut_table_serves_no_row_twice_and_every_value_whole() {
    let body = |id: u64| format!("body {id}: {}", "word ".repeat(id as usize % 9 * 3 + 1));
    let data = Value::Array(
        (1..=250)
            .map(|id| json!({"id": id, "body": body(id).trim_end()}))
            .collect(),
    );
    type Options = fn(Formatter) -> Formatter;
    let cases: [(&str, Options); 3] = [
        ("the default cap", |f| f),
        ("a cell cap", |f| f.max_cell_chars(40)),
        ("a budget", |f| f.max_chars(3_000)),
    ];
    for (name, options) in cases {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let fmt = options(Formatter::new().store(store.clone(), "get_stored_result"));
        let first = fmt.format("list_notes", &data);
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let walked = walk_values(&fetch, &first);
        assert_eq!(
            walked.rows,
            (1..=250).collect::<Vec<_>>(),
            "{name}: every row once\n{first}"
        );
        for id in 1..=250 {
            let whole = format!(" {} ", body(id).trim_end());
            assert!(
                walked.text.contains(&whole)
                    || walked.text.contains(&format!("|{}|", whole.trim())),
                "{name}: body {id} never whole"
            );
        }
    }
}

/// A stored record whose table the budget shortens (a Slack-style page: `ok`, `items`, a
/// cursor after the array): the first text's Next line resumes at the table's first row not
/// shown (`/items/K;K>C`), then serves the values it shortened of the rows it showed, so
/// every value is reached whole and no row twice. With a budget that cuts no row but
/// shortens values, those values alone (`/~v0;>C`).
#[test]
fn a_record_whose_values_were_shortened_is_served_to_its_last_value() {
    let body = |id: u64| {
        format!(
            "body {id}: {}",
            "lorem ipsum dolor ".repeat(id as usize % 5 * 4 + 3)
        )
    };
    let data = json!({
        "ok": true,
        "items": (1..=40).map(|id| json!({"id": id, "body": body(id)})).collect::<Vec<_>>(),
        "response_metadata": {"next_cursor": "dXNlcjpVMDYxTkZUVDI="},
    });
    for budget in [1_200, 9_000] {
        let (store, fmt) = storing(budget);
        let first = fmt.format("list_issues_page", &data);
        let (_, cursor) = next_call(&first, "get_stored_result").expect(&first);
        let cursor = cursor.expect(&first);
        let shown = table_ids(&first);
        if shown.len() < 40 {
            let k = shown.len();
            assert!(cursor.starts_with(&format!("/items/{k};{k}>")), "{cursor}");
        } else {
            assert!(cursor.starts_with("/~v0;>"), "{cursor}");
        }
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let pages = pages_from(&fetch, &first);
        let text = format!("{first}\n{}", pages.join("\n"));
        for id in 1..=40 {
            assert!(
                text.contains(body(id).trim_end()),
                "budget {budget}: body {id} never whole:\n{text}"
            );
        }
        assert!(text.contains("dXNlcjpVMDYxTkZUVDI="), "{text}");
        // Each row once over the first text and the pages of rows.
        let mut rows = shown;
        rows.extend(pages.iter().flat_map(|p| table_ids(p)));
        assert_eq!(
            rows,
            (1..=40).collect::<Vec<_>>(),
            "budget {budget}: every row once, in order:\n{text}"
        );
    }
}

/// A memory store and a formatter with a character budget that stores into it.
fn storing(budget: usize) -> (Arc<MemoryStore>, Formatter) {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .max_chars(budget)
        .store(store.clone(), "get_stored_result");
    (store, fmt)
}

/// Every page a walk serves, from the first text's Next line to the last page.
fn pages_from(fetch: &Fetch, first: &str) -> Vec<String> {
    let Some((reference, mut cursor)) = next_call(first, "get_stored_result") else {
        return Vec::new();
    };
    let mut pages = Vec::new();
    loop {
        assert!(pages.len() <= 60, "the walk does not end");
        let page = fetch.call(&reference, cursor.as_deref(), None);
        assert!(page.matches("Next:").count() <= 1, "{page}");
        cursor = next_call(&page, "get_stored_result").and_then(|(_, c)| c);
        pages.push(page);
        if cursor.is_none() {
            return pages;
        }
    }
}

#[test]
fn a_records_shortened_text_is_served_to_its_last_word() {
    // Numbered words: each must reach the model whole on some page, in order.
    let words =
        |tag: &str, n: usize| -> Vec<String> { (1..=n).map(|i| format!("{tag}{i:04}")).collect() };
    let body = words("b", 1_500).join(" ");
    let notes = words("n", 400).join("\n");
    let data = json!({
        "id": 7,
        "title": "A long issue",
        "body": body,
        "labels": [{"name": "bug"}, {"name": "p1"}],
        "notes": notes,
    });
    for budget in [800, 3_000] {
        let (store, fmt) = storing(budget);
        let first = fmt.format("get_issue", &data);
        assert!(
            first.contains("…[+"),
            "budget {budget}: nothing shortened:\n{first}"
        );
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let pages = pages_from(&fetch, &first);
        let text = pages.join("\n");
        for (tag, n) in [("b", 1_500), ("n", 400)] {
            let mut last = 0;
            for w in words(tag, n) {
                let at = text[last..].find(&w).unwrap_or_else(|| {
                    panic!("budget {budget}: {w} never reached (or out of order)")
                });
                last += at + w.len();
            }
        }
        for page in &pages {
            assert!(
                page.chars().count() <= budget,
                "budget {budget}: a page of {} chars:\n{page}",
                page.chars().count()
            );
        }
    }
}

#[test]
fn a_table_nested_in_a_fetched_row_is_reached_to_its_last_row() {
    // A list of records and notes (not one table): each record's nested table is capped to
    // three rows in place, on the first text and on a page of rows alike.
    let items: Vec<Value> = (0..6)
        .map(|i| match i % 2 {
            0 => json!({"id": i, "subs": (0..30).map(|j| json!({"n": j, "v": format!("x{i}-{j}")})).collect::<Vec<_>>()}),
            _ => json!(format!("note {i}")),
        })
        .collect();
    for budget in [None, Some(4_000)] {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let mut fmt = Formatter::new()
            .max_rows(3)
            .store(store.clone(), "get_stored_result");
        if let Some(b) = budget {
            fmt = fmt.max_chars(b);
        }
        let first = fmt.format("list_things", &json!(items));
        assert!(
            first.contains("[Truncated to 3 rows of 30 total]"),
            "{first}"
        );
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let text = pages_from(&fetch, &first).join("\n");
        for i in (0..6).step_by(2) {
            for j in 0..30 {
                let v = format!("x{i}-{j}\"");
                assert!(text.contains(&v), "{budget:?}: {v} never reached:\n{text}");
            }
        }
    }
}

/// A page of a source (`has_more`, its own next call) whose first text shortened values:
/// the walk serves its rows from the first not shown, then the shortened values, and only
/// the last page ends with the page's own next call.
#[test]
fn the_shortened_values_come_before_the_pages_own_next_call() {
    let rows: Vec<Value> = (1..=40)
        .map(|id| json!({"id": id, "body": format!("body {id}: {}", "text ".repeat(id % 6 * 8 + 2))}))
        .collect();
    let page = tool_output_format::Page::new(rows)
        .has_more(true)
        .next_cursor("c2")
        .next_call("list_notes", "cursor");
    let (store, fmt) = storing(1_500);
    let first = fmt.format("list_notes", &page);
    assert!(first.contains("…[+"), "{first}");
    let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    let walked = walk_values(&fetch, &first);
    assert_eq!(walked.rows, (1..=40).collect::<Vec<_>>());
    let last = walked.pages.last().expect("pages");
    assert!(
        last.ends_with("Next: call list_notes(cursor=\"c2\")"),
        "{last}"
    );
    assert!(
        last.lines().any(|l| l.starts_with("| row ")),
        "the values come last:\n{last}"
    );
    for (i, page) in walked.pages.iter().enumerate() {
        let own = page.contains("list_notes(cursor=");
        assert_eq!(own, i + 1 == walked.pages.len(), "{page}");
    }
}

/// A budget the user set bounds a fetch page, not the default page size: unset, a page
/// holds as many rows as the budget does (more than `DEFAULT_PAGE_SIZE` small rows here),
/// from the cursor and in order, within the budget; without a budget, or with a page size
/// set, the page holds that many rows.
#[test]
fn a_budget_bounds_a_fetch_page_not_the_default_page_size() {
    use tool_output_format::store::DEFAULT_PAGE_SIZE;
    let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let r = store.put(&rows(500)).unwrap();
    let budgeted = Formatter::new()
        .max_chars(4_000)
        .store(store.clone(), "more");
    let fetch = Fetch::new(store.clone(), "more").formatter(&budgeted);
    let page = fetch.call(&r, Some("10"), None);
    let shown = ids(&page);
    assert!(page.chars().count() <= 4_000, "{page}");
    assert!(
        shown.len() > DEFAULT_PAGE_SIZE,
        "{} rows: {page}",
        shown.len()
    );
    assert_eq!(shown, (11..11 + shown.len() as u64).collect::<Vec<_>>());
    // The Next line resumes at the first row the budget left out.
    let (_, cursor) = next_call(&page, "more").unwrap();
    assert_eq!(
        cursor.as_deref(),
        Some((10 + shown.len()).to_string().as_str())
    );
    // Without a budget: the default page size.
    let plain = Fetch::new(store.clone(), "more");
    assert_eq!(ids(&plain.call(&r, None, None)).len(), DEFAULT_PAGE_SIZE);
    // A page size set is kept under a budget too.
    let sized = Fetch::new(store, "more").formatter(&budgeted).page_size(7);
    assert_eq!(
        ids(&sized.call(&r, None, None)),
        (1..=7).collect::<Vec<u64>>()
    );
}

/// The cells of a page's first table (spaced or compact): its header and rows, each cell
/// trimmed, without the line that counts rows left out between the first and the last.
fn table_of(page: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let cells = |l: &str| -> Vec<String> {
        l.trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect()
    };
    let mut lines = page.lines().skip_while(|l| !l.starts_with('|'));
    let Some(header) = lines.next() else {
        return (Vec::new(), Vec::new());
    };
    let rows = lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.contains(" rows left out …|") && !l.contains(" row left out …|"))
        .map(cells)
        .collect();
    (cells(header), rows)
}

/// A first text that shows its rows without some fields (columns a budget left out, fields
/// the preset folded) resumes at the first row it did not show: the walk serves every row
/// once, then the fields the first text left out of the rows it showed, each once, so every
/// value is reached and no row is served twice.
#[test]
fn rows_shown_without_some_fields_are_not_served_again_whole() {
    let data = Value::Array(
        (1..=40u64)
            .map(|id| {
                json!({
                    "id": id,
                    "title": format!("issue number {id}"),
                    "state": if id % 2 == 0 { "open" } else { "closed" },
                    "owner": format!("user{}", id % 7),
                    "labels": format!("area-{}", id % 5),
                    "created_at": format!("2024-01-{:02}T10:00:00Z", id % 28 + 1),
                    "node_id": format!("MDU6SXNzdWU{id:08}"),
                    "comments": id % 4,
                })
            })
            .collect(),
    );
    type Options = fn(Formatter) -> Formatter;
    let cases: [(&str, Options); 2] = [
        ("a budget narrows the columns", |f| {
            f.salience(true).max_chars(700)
        }),
        ("the preset folds fields", |_| {
            Formatter::for_agents().max_chars(1_500)
        }),
    ];
    for (name, options) in cases {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let fmt = options(Formatter::new()).store(store.clone(), "get_stored_result");
        let first = fmt.format("list_issues", &data);
        let (header, rows) = table_of(&first);
        assert!(header.len() < 8, "{name}: every column shown:\n{first}");
        let (reference, cursor) = next_call(&first, "get_stored_result").expect(&first);
        let cursor = cursor.unwrap_or_else(|| panic!("{name}: no cursor:\n{first}"));
        // The rows before the first row not shown (a last row kept after the count of rows
        // left out is served again with the rows from the cursor).
        let k: u64 = cursor.split(';').next().unwrap().parse().unwrap();
        assert!(
            cursor.starts_with(&format!("{k};{k}-")) && k >= 2,
            "{name}: {cursor}\n{first}"
        );
        let id_at = header
            .iter()
            .position(|c| c == "id")
            .expect("the first text shows ids");
        let rows: Vec<&Vec<String>> = rows
            .iter()
            .filter(|r| r[id_at].parse::<u64>().unwrap() <= k)
            .collect();
        assert_eq!(rows.len() as u64, k, "{name}:\n{first}");
        // Every (row, field) the walk shows, counting how often.
        let mut seen: std::collections::HashMap<(u64, String), usize> = Default::default();
        for row in &rows {
            let id: u64 = row[id_at].parse().unwrap();
            for (c, _) in header.iter().zip(row.iter()) {
                *seen.entry((id, c.clone())).or_default() += 1;
            }
        }
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let mut cursor = Some(cursor);
        let mut row_ids: Vec<u64> = rows.iter().map(|r| r[id_at].parse().unwrap()).collect();
        let mut calls = 0;
        while let Some(c) = cursor {
            calls += 1;
            assert!(calls < 200, "{name}: the walk does not end");
            let page = fetch.call(&reference, Some(&c), None);
            let (header, rows) = table_of(&page);
            assert!(!rows.is_empty(), "{name}: an empty page at {c}:\n{page}");
            // The rest of the rows shown (`vI;...`): `row` names the row, from 1.
            let rest = c.starts_with('v');
            for row in &rows {
                let key = if rest { "row" } else { "id" };
                let at = header.iter().position(|h| h == key).unwrap();
                let id: u64 = row[at].parse().unwrap();
                if !rest {
                    row_ids.push(id);
                }
                for (h, v) in header.iter().zip(row) {
                    if h != "row" && !v.is_empty() {
                        *seen.entry((id, h.clone())).or_default() += 1;
                    }
                }
            }
            cursor = next_call(&page, "get_stored_result").and_then(|(_, c)| c);
        }
        assert_eq!(
            row_ids,
            (1..=40).collect::<Vec<_>>(),
            "{name}: every row once"
        );
        for id in 1..=40u64 {
            for field in [
                "id",
                "title",
                "state",
                "owner",
                "labels",
                "created_at",
                "node_id",
                "comments",
            ] {
                let n = seen.get(&(id, field.to_owned())).copied().unwrap_or(0);
                assert_eq!(n, 1, "{name}: row {id}'s {field} shown {n} times");
            }
        }
    }
}

/// A query over a stored text keeps whole entries: a log whose entries span several lines
/// (`Commit:`, `Author:`, `Message:`) answers a word of a message with its commit's hash.
#[test]
fn a_query_over_a_stored_log_keeps_each_entry_whole() {
    let log: String = (1..=30)
        .map(|i| {
            format!(
                "Commit: 'c{i:03}'\nAuthor: dev{}\nDate: 2026-01-{:02}\nMessage: {}\n",
                i % 4,
                i % 28 + 1,
                if i % 10 == 0 {
                    "fix the parser"
                } else {
                    "tidy up"
                }
            )
        })
        .collect();
    let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let r = store.put(&json!(log)).unwrap();
    let fetch = Fetch::new(store, "get_stored_result");
    let page = fetch.call(&r, None, Some("parser"));
    for i in [10, 20, 30] {
        let entry = format!("Commit: 'c{i:03}'");
        assert!(page.contains(&entry), "{entry} missing:\n{page}");
    }
    assert_eq!(page.matches("Message: fix the parser").count(), 3, "{page}");
    assert!(!page.contains("tidy up"), "{page}");
}

/// The first cell of a table line.
fn first_cell(l: &str) -> Option<&str> {
    l.trim_start_matches('|').split('|').next().map(str::trim)
}

/// The first cells of the rows of the tables whose first column is `id`, in a page's text
/// (indented or not, aligned or compact).
fn table_ids(text: &str) -> Vec<u64> {
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    let mut out = Vec::new();
    let mut in_ids = false;
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with('|') {
            in_ids = false;
            continue;
        }
        let header = lines
            .get(i + 1)
            .is_some_and(|n| n.starts_with("|-") || n.starts_with("| -") || n.starts_with("|:"));
        if header {
            in_ids = first_cell(l) == Some("id");
        } else if in_ids && let Some(id) = first_cell(l).and_then(|c| c.parse().ok()) {
            out.push(id);
        }
    }
    out
}

/// A record whose text a budget cut in several ways at once (its long values shortened, its
/// nested table's rows cut, fields left out): the Next line resumes at the table's first row
/// not shown, then serves what the text left out beside it, so following the Next lines
/// serves no row twice and reaches every value whole. Through `Formatter::new()` and the
/// agent preset, at several budgets.
#[test]
fn a_record_cut_in_several_ways_resumes_where_its_text_stopped() {
    let body = |id: u64| {
        format!(
            "body {id}: {}",
            "lorem ipsum dolor ".repeat(id as usize % 4 * 3 + 2)
        )
    };
    let title = format!("Quarterly report: {}", "numbers and words ".repeat(8));
    let bio = format!("bio: {}", "writes code and prose ".repeat(6));
    let data = json!({
        "number": 4242,
        "title": title,
        "owner": {"login": "ada", "site": "https://example.com/ada", "bio": bio},
        "state": "open",
        "labels": ["bug", "p1"],
        "comments": (1..=60).map(|id| json!({"id": id, "body": body(id)})).collect::<Vec<_>>(),
    });
    type Options = fn(Formatter) -> Formatter;
    let faces: [(&str, Options); 2] = [("new", |f| f), ("agent", |_| Formatter::for_agents())];
    for (face, options) in faces {
        for budget in [1_500, 2_500, 4_000] {
            let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
            let fmt = options(Formatter::new())
                .max_chars(budget)
                .store(store.clone(), "get_stored_result");
            let first = fmt.format("get_report", &data);
            let case = format!("{face} at {budget}");
            let (_, cursor) = next_call(&first, "get_stored_result")
                .unwrap_or_else(|| panic!("{case}: no Next line:\n{first}"));
            let shown = table_ids(&first);
            if shown.len() < 60 {
                let cursor = cursor.unwrap_or_else(|| panic!("{case}: no cursor:\n{first}"));
                assert!(
                    cursor.starts_with(&format!("/comments/{}", shown.len())),
                    "{case}: {cursor}\n{first}"
                );
            }
            let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
            let pages = pages_from(&fetch, &first);
            let mut rows = shown.clone();
            for page in &pages {
                assert!(!page.contains("get_stored_result failed"), "{case}: {page}");
                rows.extend(table_ids(page));
            }
            assert_eq!(
                rows,
                (1..=60).collect::<Vec<_>>(),
                "{case}: every row once, in order:\n{first}\n---\n{}",
                pages.join("\n---\n")
            );
            let text = format!("{first}\n{}", pages.join("\n"));
            for id in 1..=60 {
                assert!(text.contains(body(id).trim_end()), "{case}: body {id}");
            }
            for whole in [
                title.trim_end(),
                bio.trim_end(),
                "https://example.com/ada",
                "p1",
            ] {
                assert!(text.contains(whole), "{case}: {whole} never whole:\n{text}");
            }
        }
    }
}

/// A registered renderer's text cut by a budget: the renderer's whole text is stored, and the
/// Next line resumes it at the line (or the character of a line) where the text stopped, so
/// the first text's lines and the pages' lines, joined, are the renderer's text, each line
/// once.
#[test]
fn a_renderers_text_resumes_at_the_line_where_it_stopped() {
    let render = |v: &Value| {
        let rows = v.as_array().map(Vec::as_slice).unwrap_or_default();
        rows.iter()
            .map(|r| {
                format!(
                    "- ticket {} is {}",
                    r["id"],
                    r["status"].as_str().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let data = rows(300);
    let whole = render(&data);
    let long_line = format!("one line: {}", "word ".repeat(400).trim_end());
    for (budget, value) in [
        (600, data.clone()),
        (1_500, data.clone()),
        (400, json!(long_line)),
    ] {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let fmt = Formatter::new()
            .max_chars(budget)
            .register("list_tickets", move |v: &Value| match v {
                Value::String(s) => s.clone(),
                v => render(v),
            })
            .store(store.clone(), "get_stored_result");
        let first = fmt.format("list_tickets", &value);
        assert!(first.chars().count() <= budget, "{first}");
        let (_, cursor) = next_call(&first, "get_stored_result").expect(&first);
        let cursor = cursor.expect(&first);
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let pages = pages_from(&fetch, &first);
        let expected = match &value {
            Value::String(s) => s.clone(),
            _ => whole.clone(),
        };
        // The first text's lines (after its notices), then the fenced lines of the pages.
        let shown: Vec<&str> = first
            .lines()
            .filter(|l| l.starts_with("- ticket ") || l.starts_with("one line: "))
            .collect();
        if let Some((line, col)) = cursor.split_once(':') {
            assert_eq!((line, shown.len()), ("0", 1), "{first}");
            let kept: usize = col.parse().unwrap();
            assert!(shown[0].starts_with(&expected.chars().take(kept).collect::<String>()));
        } else {
            assert_eq!(cursor, shown.len().to_string(), "{first}");
            for (i, l) in shown.iter().enumerate() {
                assert_eq!(Some(*l), expected.lines().nth(i));
            }
        }
        let mut joined = String::new();
        for page in &pages {
            assert!(page.chars().count() <= budget, "{page}");
            let body: Vec<&str> = page
                .lines()
                .skip_while(|l| !l.starts_with("```"))
                .skip(1)
                .take_while(|l| !l.starts_with("```"))
                .collect();
            joined.push_str(&body.join("\n"));
            joined.push('\n');
        }
        let rest = match cursor.split_once(':') {
            Some((_, col)) => expected
                .chars()
                .skip(col.parse().unwrap())
                .collect::<String>(),
            None => expected
                .lines()
                .skip(shown.len())
                .collect::<Vec<_>>()
                .join("\n"),
        };
        // Pages split a line too long for one at a grapheme boundary (and end a line there).
        assert_eq!(
            joined.replace('\n', ""),
            rest.replace('\n', ""),
            "budget {budget}: the pages are the rest of the text:\n{}",
            pages.join("\n---\n")
        );
    }
}

/// A table that keeps every row but leaves columns out to fit the budget is a cut like any
/// other: the result is stored, the Next line names the columns shown (or, when those names
/// are long, none: `"K;K-"`), and the walk serves the columns left out of every row (with
/// long names, the rows whole once more, after the first text).
#[test]
fn a_table_narrowed_to_fit_is_stored_and_its_columns_reached() {
    let table = |columns: usize, prefix: &str| {
        Value::Array(
            (1..=4)
                .map(|id| {
                    let mut row = serde_json::Map::new();
                    row.insert("id".into(), json!(id));
                    for c in 0..columns {
                        let value = json!(format!("value {id}.{c:02}"));
                        row.insert(format!("{prefix}{c:02}"), value);
                    }
                    Value::Object(row)
                })
                .collect(),
        )
    };
    for (columns, prefix, named) in [(30, "f", true), (24, "a_long_field_name_", false)] {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
        let fmt = Formatter::for_agents()
            .max_chars(700)
            .store(store.clone(), "get_stored_result");
        let first = fmt.format("list_things", &table(columns, prefix));
        assert!(
            first.contains("[Columns left out to fit the budget: "),
            "{first}"
        );
        assert_eq!(table_ids(&first), [1, 2, 3, 4], "{first}");
        let (_, cursor) = next_call(&first, "get_stored_result").expect(&first);
        let cursor = cursor.expect(&first);
        assert!(cursor.starts_with("4;4"), "{first}");
        assert_eq!(cursor == "4;4-", !named, "{cursor}");
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let pages = pages_from(&fetch, &first);
        let text = format!("{first}\n{}", pages.join("\n"));
        for id in 1..=4 {
            for c in 0..columns {
                assert!(
                    text.contains(&format!("value {id}.{c:02}")),
                    "{id}.{c}:\n{text}"
                );
            }
        }
        if named {
            assert!(
                pages.iter().all(|p| table_ids(p).is_empty()),
                "a row again:\n{text}"
            );
        }
    }
}

/// A record whose two tables a budget cut each to its first rows: the Next line names that
/// count (`*N`), and the walk serves each table's rows not shown and the values cut, so every
/// value is reached and no row the text showed comes again.
#[test]
fn a_record_with_two_tables_cut_resumes_after_the_rows_shown() {
    let body = |t: &str, id: u64| format!("{t} body {id}: {}", "lorem ipsum ".repeat(3));
    let table = |t: &str| {
        (1..=30)
            .map(|id| json!({"id": id, "body": body(t, id)}))
            .collect::<Vec<_>>()
    };
    let data = json!({"name": "two tables", "open": table("open"), "closed": table("closed")});
    for budget in [1_200, 2_500] {
        let (store, fmt) = storing(budget);
        let first = fmt.format("get_board", &data);
        let (_, cursor) = next_call(&first, "get_stored_result").expect(&first);
        let cursor = cursor.expect(&first);
        assert!(
            cursor.starts_with("/~v0;") && cursor.contains('*'),
            "{cursor}\n{first}"
        );
        let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
        let pages = pages_from(&fetch, &first);
        let text = format!("{first}\n{}", pages.join("\n"));
        for t in ["open", "closed"] {
            for id in 1..=30 {
                let whole = body(t, id);
                assert!(
                    text.contains(whole.trim_end()),
                    "budget {budget}: {t} {id}:\n{text}"
                );
            }
        }
        assert!(pages.iter().all(|p| table_ids(p).is_empty()), "{text}");
    }
}
