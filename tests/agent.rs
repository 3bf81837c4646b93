//! Agent result shapes (SPEC section 10) through the whole pipeline: exact strings for each
//! shape, `is_error`, the envelope lines under budgets from 200 to 20,000 characters, and a
//! re-parse with two GFM parsers.

use serde::Deserialize;
use serde_json::{Value, json};
use tof_support::gfm;
use tool_output_format::{
    Batch, ErrorKind, Formatter, NextAction, Page, Reply, ResourceRef, ToolError, ToolOutput,
};

use tof_support::data::ISSUES_30;

#[derive(Clone, Deserialize, ToolOutput)]
struct Issue {
    number: u64,
    title: String,
    state: String,
    comments: u64,
    created_at: String,
    html_url: String,
    body: Option<String>,
}

#[derive(Clone, ToolOutput)]
struct Contact {
    name: &'static str,
    email: &'static str,
}

fn contacts() -> Vec<Contact> {
    vec![
        Contact {
            name: "Ada",
            email: "ada@example.com",
        },
        Contact {
            name: "Bob",
            email: "bob@example.com",
        },
        Contact {
            name: "Cy",
            email: "cy@example.com",
        },
    ]
}

fn fmt() -> Formatter {
    Formatter::new()
}

/// Structure checks both parsers must agree on: nothing forged, no HTML.
fn reparse(md: &str) -> (gfm::Seen, gfm::Seen) {
    let (p, c) = (gfm::pulldown(md), gfm::comrak(md));
    for seen in [&p, &c] {
        assert_eq!(
            seen.headings_and_quotes, 0,
            "forged heading or quote:\n{md}"
        );
        assert_eq!(seen.html, 0, "raw HTML:\n{md}");
    }
    assert_eq!(p.tables, c.tables, "parsers disagree on tables:\n{md}");
    assert_eq!(p.shape, c.shape, "parsers disagree on nesting:\n{md}");
    tof_support::check::check_text(md).unwrap();
    (p, c)
}

// ---------------------------------------------------------------- pages

#[test]
fn page_shapes_exact() {
    let page = |items: Vec<Contact>| Page::new(items).next_call("list_contacts", "cursor");
    let cases: Vec<(&str, Page<Contact>, &str)> = vec![
        ("empty", page(vec![]), "*(empty)*\n\nhas_more: false"),
        (
            "last page: has_more stated even when false, no Next line",
            page(contacts()).total(53),
            "| name | email           |\n\
             |------|-----------------|\n\
             | Ada  | ada@example.com |\n\
             | Bob  | bob@example.com |\n\
             | Cy   | cy@example.com  |\n\
             \n\
             has_more: false\n\
             total: 53",
        ),
        (
            "middle page",
            page(contacts())
                .has_more(true)
                .next_cursor("eyJvZmZzZXQiOjUwfQ")
                .total(1234),
            "| name | email           |\n\
             |------|-----------------|\n\
             | Ada  | ada@example.com |\n\
             | Bob  | bob@example.com |\n\
             | Cy   | cy@example.com  |\n\
             \n\
             has_more: true\n\
             next_cursor: eyJvZmZzZXQiOjUwfQ\n\
             total: 1234\n\
             Next: call list_contacts(cursor=\"eyJvZmZzZXQiOjUwfQ\")",
        ),
    ];
    for (what, page, want) in cases {
        let out = fmt().format_with_report("list_contacts", &page);
        assert_eq!(out.text, want, "{what}");
        assert!(!out.is_error(), "{what}");
        // Typed and untyped pages render the same.
        let values: Vec<Value> = page
            .items()
            .iter()
            .map(|c| json!({"name": c.name, "email": c.email}))
            .collect();
        let mut untyped = Page::new(values).has_more(page.get_has_more());
        if let Some(c) = page.get_next_cursor() {
            untyped = untyped.next_cursor(c);
        }
        if let Some(t) = page.get_total() {
            untyped = untyped.total(t);
        }
        let untyped = untyped.next_call("list_contacts", "cursor");
        assert_eq!(
            fmt().format("list_contacts", &untyped),
            want,
            "{what} (Value)"
        );
        reparse(want);
    }
}

#[test]
fn cut_page_with_item_cursors_resumes_at_the_first_dropped_item() {
    let page = Page::new(contacts())
        .has_more(false)
        .next_cursor("page2")
        .item_cursors(["c0", "c1", "c2"])
        .next_call("list_contacts", "cursor");
    let md = fmt().max_rows(1).format("list_contacts", &page);
    assert_eq!(
        md,
        "[Truncated to 1 rows of 3 total]\n\
         \n\
         | name | email           |\n\
         |------|-----------------|\n\
         | Ada  | ada@example.com |\n\
         \n\
         has_more: true\n\
         next_cursor: c1\n\
         [Items 2-3 of this page were cut: next_cursor resumes at item 2]\n\
         Next: call list_contacts(cursor=\"c1\")"
    );
    reparse(&md);
}

#[test]
fn cut_page_without_item_cursors_names_the_dropped_items() {
    let page = Page::new(contacts())
        .has_more(true)
        .next_cursor("page2")
        .next_call("list_contacts", "cursor");
    let md = fmt().max_rows(2).format("list_contacts", &page);
    assert_eq!(
        md,
        "[Truncated to 2 rows of 3 total]\n\
         \n\
         | name | email           |\n\
         |------|-----------------|\n\
         | Ada  | ada@example.com |\n\
         | Bob  | bob@example.com |\n\
         \n\
         has_more: true\n\
         next_cursor: page2\n\
         [Item 3 of this page was cut and next_cursor skips it: to read it, repeat this call \
         with a page size of at most 2]\n\
         Next: call list_contacts(cursor=\"page2\")"
    );
    reparse(&md);
}

#[test]
fn page_of_scalars_and_nested_pages() {
    let page = Page::new(vec!["a", "b"]).has_more(true).next_cursor("c");
    assert_eq!(
        fmt().format("t", &page),
        "- a\n- b\n\nhas_more: true\nnext_cursor: c"
    );
    // A page inside a record: the table, then the footer, inside the item.
    let nested = vec![Page::new(contacts()[..1].to_vec()), Page::new(vec![])];
    let md = fmt().format("t", &nested);
    assert_eq!(
        md,
        "-\n  \
         | name | email           |\n  \
         |------|-----------------|\n  \
         | Ada  | ada@example.com |\n\
         \n  \
         has_more: false\n\
         - *(empty)*\n\
         \n  \
         has_more: false"
    );
    reparse(&md);
    // In a table cell: the JSON shape.
    let cell = fmt().format("t", &json!([{"page": 1}]));
    assert!(cell.contains("| 1"));
    assert_eq!(
        Page::new(vec![1, 2])
            .has_more(true)
            .next_cursor("c")
            .to_json(),
        json!({"items": [1, 2], "has_more": true, "next_cursor": "c"})
    );
}

// ---------------------------------------------------------------- errors

#[test]
fn error_of_every_kind_exact() {
    let kinds = [
        (ErrorKind::InvalidInput, "invalid_input", "false"),
        (ErrorKind::NotFound, "not_found", "false"),
        (ErrorKind::PermissionDenied, "permission_denied", "false"),
        (ErrorKind::Conflict, "conflict", "false"),
        (ErrorKind::RateLimited, "rate_limited", "true"),
        (ErrorKind::Timeout, "timeout", "true"),
        (ErrorKind::Unavailable, "unavailable", "true"),
        (ErrorKind::Cancelled, "cancelled", "false"),
        (ErrorKind::Internal, "internal", "false"),
    ];
    assert_eq!(kinds.len(), 9, "every kind of `ErrorKind`");
    for (kind, name, retryable) in kinds {
        let err = ToolError::new(kind, "order ORD-1 does not exist");
        let out = fmt().format_with_report("get_order", &err);
        assert_eq!(
            out.text,
            format!(
                "**get_order failed**\n\n- kind: {name}\n- message: order ORD-1 does not exist\n\
                 - retryable: {retryable}"
            )
        );
        assert!(out.is_error());
    }
    let full = ToolError::new(ErrorKind::RateLimited, "100 calls per minute")
        .hint("batch the ids: get_orders(ids=[...])")
        .retry_after_secs(30);
    assert_eq!(
        fmt().format("get_order", &full),
        "**get_order failed**\n\n\
         - kind: rate_limited\n\
         - message: 100 calls per minute\n\
         - retryable: true, after 30 s\n\
         - hint: batch the ids: get_orders(ids=[...])"
    );
    // No tool name: still marked as a failure.
    assert_eq!(
        fmt().format("", &ToolError::new(ErrorKind::Timeout, "slow")),
        "**failed**\n\n- kind: timeout\n- message: slow\n- retryable: true"
    );
    assert_eq!(
        full.to_json(),
        json!({"error": {"kind": "rate_limited", "message": "100 calls per minute",
                         "retryable": true, "retry_after_secs": 30,
                         "hint": "batch the ids: get_orders(ids=[...])"}})
    );
}

#[test]
fn hostile_text_in_messages_and_hints_cannot_forge_structure() {
    let err = ToolError::new(
        ErrorKind::InvalidInput,
        "# Not a heading | <script>alert(1)</script> \u{202e}",
    )
    .hint("> not a quote\n- not an item\n```\nnot a fence end");
    let out = fmt().format_with_report("get_order", &err);
    assert_eq!(
        out.text,
        "**get_order failed**\n\n\
         - kind: invalid_input\n\
         - message: # Not a heading \\| <script>alert(1)</script> \\u{202E}\n\
         - retryable: false\n\
         - hint:\n  \
         ````\n  \
         > not a quote\n  \
         - not an item\n  \
         ```\n  \
         not a fence end\n  \
         ````"
    );
    assert!(out.is_error());
    let (p, _) = reparse(&out.text);
    assert_eq!(p.items, 4);
    assert_eq!(
        p.code_blocks,
        ["> not a quote\n- not an item\n```\nnot a fence end\n"]
    );
    // The same text in a budget: the error's lines are never cut.
    let small = fmt().max_chars(40).format("get_order", &err);
    assert_eq!(small, out.text);
}

#[test]
fn result_renders_ok_as_t_and_err_as_the_error() {
    let ok: Result<Vec<Contact>, ToolError> = Ok(contacts()[..1].to_vec());
    let out = fmt().format_with_report("list", &ok);
    assert_eq!(
        out.text,
        "| name | email           |\n|------|-----------------|\n| Ada  | ada@example.com |"
    );
    assert!(!out.is_error());
    let err: Result<Vec<Contact>, std::io::Error> = Err(std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        "/etc/shadow",
    ));
    let out = fmt().format_with_report("read_file", &err);
    assert_eq!(
        out.text,
        "**read_file failed**\n\n- kind: permission_denied\n- message: /etc/shadow\n- retryable: false"
    );
    assert!(out.is_error());
    let parse: Result<u8, serde_json::Error> = serde_json::from_str("{");
    assert!(fmt().format_with_report("t", &parse).is_error());
    assert!(
        fmt()
            .format_with_report("t", &Box::new(Err::<u8, _>("boom")))
            .is_error()
    );
}

#[test]
fn is_error_exactly_for_errors() {
    let err = || ToolError::new(ErrorKind::Unavailable, "down");
    let f = fmt();
    let cases: Vec<(&str, bool, tool_output_format::Formatted)> = vec![
        ("ToolError", true, f.format_with_report("t", &err())),
        ("Err", true, f.format_with_report("t", &Err::<u8, _>(err()))),
        (
            "Ok",
            false,
            f.format_with_report("t", &Ok::<u8, ToolError>(1)),
        ),
        (
            "Reply around an error",
            true,
            f.format_with_report("t", &Reply::new(err()).link("status", "https://s.example")),
        ),
        (
            "empty page",
            false,
            f.format_with_report("t", &Page::new(Vec::<u8>::new())),
        ),
        (
            "empty list",
            false,
            f.format_with_report("t", &Vec::<u8>::new()),
        ),
        ("null", false, f.format_with_report("t", &Value::Null)),
        (
            "batch where every item failed",
            false,
            f.format_with_report("t", &Batch::new().failed("a", err()).failed("b", err())),
        ),
        (
            "a record holding an error value",
            false,
            f.format_with_report("t", &vec![Err::<u8, _>(err())]),
        ),
        ("a string", false, f.format_with_report("t", "failed")),
    ];
    for (what, want, out) in cases {
        assert_eq!(out.is_error(), want, "{what}:\n{}", out.text);
    }
    // A registered renderer: still told.
    let custom = Formatter::new().register("t", |_| "custom".into());
    let out = custom.format_with_report("t", &err());
    assert_eq!(out.text, "custom");
    assert!(out.is_error());
    assert!(!custom.format_with_report("t", &1).is_error());
}

// ---------------------------------------------------------------- batches

#[test]
fn batch_with_retryable_and_permanent_failures_exact() {
    let batch = Batch::new()
        .ok("a@example.com")
        .ok("b@example.com")
        .failed(
            "c@example.com",
            ToolError::new(ErrorKind::Unavailable, "mailbox full").retryable(true),
        )
        .failed(
            "d@example",
            ToolError::new(ErrorKind::InvalidInput, "not an e-mail address"),
        )
        .failed(42, ToolError::new(ErrorKind::Timeout, "smtp | timeout"))
        .retry_call("send_invites", "emails");
    let out = fmt().format_with_report("send_invites", &batch);
    assert_eq!(
        out.text,
        "5 total, 2 succeeded, 3 failed\n\
         \n\
         | id            | kind          | message               | retryable |\n\
         |---------------|---------------|-----------------------|-----------|\n\
         | c@example.com | unavailable   | mailbox full          | true      |\n\
         | d@example     | invalid_input | not an e-mail address | false     |\n\
         | 42            | timeout       | smtp \\| timeout       | true      |\n\
         \n\
         Next: call send_invites(emails=[\"c@example.com\",42])"
    );
    assert!(!out.is_error());
    let (p, c) = reparse(&out.text);
    assert_eq!(p.tables[0].len(), 4);
    assert_eq!(c.tables[0][3][2], "smtp \\| timeout");
    // Only permanent failures: no retry line.
    let permanent = Batch::new()
        .ok("a")
        .failed("b", ToolError::new(ErrorKind::NotFound, "no such user"))
        .retry_call("send_invites", "emails");
    assert_eq!(
        fmt().format("send_invites", &permanent),
        "2 total, 1 succeeded, 1 failed\n\
         \n\
         | id | kind      | message      | retryable |\n\
         |----|-----------|--------------|-----------|\n\
         | b  | not_found | no such user | false     |"
    );
    // Everything succeeded: the counts line alone.
    assert_eq!(
        fmt().format("send_invites", &Batch::new().ok("a").ok("b")),
        "2 total, 2 succeeded, 0 failed"
    );
    assert_eq!(
        batch.to_json(),
        json!({
            "total": 5, "succeeded": 2, "failed": 3,
            "failures": [
                {"id": "c@example.com", "kind": "unavailable", "message": "mailbox full", "retryable": true},
                {"id": "d@example", "kind": "invalid_input", "message": "not an e-mail address", "retryable": false},
                {"id": 42, "kind": "timeout", "message": "smtp | timeout", "retryable": true}
            ],
            "next": {"tool": "send_invites", "args": {"emails": ["c@example.com", 42]}}
        })
    );
}

#[test]
fn batch_with_values_exact() {
    let batch = Batch::with_values()
        .ok_with("ORD-1", json!({"status": "shipped", "eta_days": 2}))
        .failed(
            "ORD-2",
            ToolError::new(ErrorKind::Timeout, "warehouse slow").retry_after_secs(60),
        )
        .retry_call("ship_orders", "order_ids");
    let md = fmt().format("ship_orders", &batch);
    assert_eq!(
        md,
        "2 total, 1 succeeded, 1 failed\n\
         \n\
         - failures:\n\
         \n  \
         | id    | kind    | message        | retryable        |\n  \
         |-------|---------|----------------|------------------|\n  \
         | ORD-2 | timeout | warehouse slow | true, after 60 s |\n\
         - results:\n\
         \n  \
         | id    | status  | eta_days |\n  \
         |-------|---------|----------|\n  \
         | ORD-1 | shipped | 2        |\n\
         \n\
         Next: call ship_orders(order_ids=[\"ORD-2\"]) after 60 s"
    );
    let (p, _) = reparse(&md);
    assert_eq!(p.tables.len(), 2);
}

#[test]
fn batch_failures_are_the_main_table_under_caps() {
    let mut batch = Batch::new();
    for i in 0..150 {
        batch = batch.failed(i, ToolError::new(ErrorKind::Timeout, "slow"));
    }
    let batch = batch.retry_call("refresh", "ids");
    let out = fmt().format_with_report("refresh", &batch);
    assert!(out.text.starts_with(
        "[Truncated to 100 rows of 150 total]\n\n150 total, 0 succeeded, 150 failed\n\n| id"
    ));
    // The retry line still names every retryable failure.
    let ids: Vec<String> = (0..150).map(|i| i.to_string()).collect();
    assert!(
        out.text
            .ends_with(&format!("Next: call refresh(ids=[{}])", ids.join(",")))
    );
    assert_eq!(out.report.rows.map(|r| (r.kept, r.total)), Some((100, 150)));
}

// ---------------------------------------------------------------- replies

#[test]
fn reply_exact() {
    let reply = Reply::new(json!({"order_id": "ORD-7", "status": "placed"}))
        .next(NextAction::call("get_order").arg("order_id", "ORD-7"))
        .link("view", "https://shop.example.com/orders/7")
        .link("edit", "https://shop.example.com/orders/7/edit (beta)")
        .reference(
            ResourceRef::new("resource://files/abc")
                .name("report.pdf")
                .content_type("application/pdf")
                .size_bytes(48_213),
        );
    let out = fmt().format_with_report("place_order", &reply);
    assert_eq!(
        out.text,
        "**place_order result**\n\
         \n\
         - order_id: ORD-7\n\
         - status: placed\n\
         \n\
         Links: [view](https://shop.example.com/orders/7), \
         [edit](https://shop.example.com/orders/7/edit%20%28beta%29)\n\
         Resource: report.pdf (application/pdf, 48.2 kB) resource://files/abc\n\
         Next: call get_order(order_id=\"ORD-7\")"
    );
    assert!(!out.is_error());
    reparse(&out.text);
    assert_eq!(
        reply.to_json(),
        json!({
            "result": {"order_id": "ORD-7", "status": "placed"},
            "links": [
                {"label": "view", "url": "https://shop.example.com/orders/7"},
                {"label": "edit", "url": "https://shop.example.com/orders/7/edit (beta)"}
            ],
            "references": [{"uri": "resource://files/abc", "name": "report.pdf",
                            "content_type": "application/pdf", "size_bytes": 48213}],
            "next": [{"tool": "get_order", "args": {"order_id": "ORD-7"}}]
        })
    );
}

#[test]
fn reply_around_a_page_and_an_error() {
    let page = Page::new(contacts()[..1].to_vec())
        .has_more(true)
        .next_cursor("c1")
        .next_call("list_contacts", "cursor");
    let reply = Reply::new(page).link("all contacts", "https://crm.example.com/contacts");
    assert_eq!(
        fmt().format("list_contacts", &reply),
        "| name | email           |\n\
         |------|-----------------|\n\
         | Ada  | ada@example.com |\n\
         \n\
         has_more: true\n\
         next_cursor: c1\n\
         Next: call list_contacts(cursor=\"c1\")\n\
         \n\
         Links: [all contacts](https://crm.example.com/contacts)"
    );
    let failed = Reply::new(ToolError::new(ErrorKind::Unavailable, "CRM down"))
        .next(NextAction::call("list_contacts").after_secs(60));
    assert_eq!(
        fmt().format("list_contacts", &failed),
        "**list_contacts failed**\n\
         \n\
         - kind: unavailable\n\
         - message: CRM down\n\
         - retryable: true\n\
         \n\
         Next: call list_contacts() after 60 s"
    );
}

// ---------------------------------------------------------------- budgets

fn issues_values() -> Vec<Value> {
    match serde_json::from_str(ISSUES_30).unwrap() {
        Value::Array(items) => items,
        _ => unreachable!(),
    }
}

fn cursors() -> Vec<String> {
    (0..30).map(|i| format!("eyJpZCI6{i:04}fQ")).collect()
}

/// For every budget from 200 to 20,000 characters: the footer is the exact footer for the
/// rows kept (so `has_more`, the cursor that resumes at the first dropped row, and the Next
/// line are always there), the table re-parses with exactly those rows, and the text meets
/// the budget whenever the envelope's lines leave room for a row.
fn budget_sweep<T: ToolOutput>(items: Vec<T>, with_cursors: bool) -> (usize, usize) {
    let mut page = Page::new(items)
        .has_more(true)
        .next_cursor("eyJwYWdlIjoyfQ")
        .total(1234)
        .next_call("list_issues", "cursor");
    if with_cursors {
        page = page.item_cursors(cursors());
    }
    let mut over = 0;
    let mut first_fit = None;
    for budget in (200..=20_000).step_by(100) {
        let out = Formatter::new()
            .max_chars(budget)
            .format_with_report("list_issues", &page);
        let md = &out.text;
        let kept = out.report.rows.map_or(0, |r| r.kept);
        assert!(md.contains("\nhas_more: true\n"), "budget {budget}");
        // A whole page keeps its own cursor; a cut one resumes at the first dropped item.
        let cursor = if with_cursors && kept < 30 {
            cursors()[kept].clone()
        } else {
            "eyJwYWdlIjoyfQ".to_string()
        };
        // The footer for the rows kept: the cursor that resumes there, the total.
        let footer = format!("\nhas_more: true\nnext_cursor: {cursor}\ntotal: 1234\n");
        assert!(md.contains(&footer), "budget {budget}: footer\n{md}");
        assert!(
            md.ends_with(&format!("\nNext: call list_issues(cursor=\"{cursor}\")")),
            "budget {budget}: Next line\n{md}"
        );
        let (p, _) = reparse(md);
        match p.tables.first() {
            Some(t) => assert_eq!(t.len(), kept + 1, "budget {budget}"),
            None => assert_eq!(kept, 0),
        }
        if md.chars().count() > budget {
            over += 1;
            assert_eq!(kept, 0, "budget {budget}: over the budget with rows kept");
        } else {
            first_fit.get_or_insert(budget);
        }
    }
    let first_fit = first_fit.unwrap_or(usize::MAX);
    eprintln!(
        "{}: cursors {with_cursors}: {over} of 199 budgets exceeded, first fitting budget {first_fit}",
        std::any::type_name::<T>()
    );
    (over, first_fit)
}

#[test]
fn envelope_lines_survive_every_budget_typed() {
    let issues: Vec<Issue> = serde_json::from_str(ISSUES_30).unwrap();
    for cursors in [true, false] {
        let (over, first_fit) = budget_sweep(issues.clone(), cursors);
        assert!(first_fit <= 300, "first fitting budget {first_fit}");
        assert!(over <= 1, "{over} budgets exceeded");
    }
}

#[test]
fn envelope_lines_survive_every_budget_values() {
    for cursors in [true, false] {
        let (over, first_fit) = budget_sweep(issues_values(), cursors);
        assert!(first_fit <= 300, "first fitting budget {first_fit}");
        assert!(over <= 1, "{over} budgets exceeded");
    }
}

#[test]
fn a_large_page_grows_its_main_table_under_a_budget() {
    // More rows fit than the first build holds: the fit asks the page for more rows, and
    // the footer still resumes exactly after the last row kept.
    let rows: Vec<Value> = (0..1000)
        .map(|i| json!({"id": i, "name": format!("user{i}")}))
        .collect();
    let cursors: Vec<String> = (0..1000).map(|i| format!("c{i}")).collect();
    let page = Page::new(rows)
        .has_more(true)
        .next_cursor("next")
        .item_cursors(cursors)
        .next_call("list_users", "cursor");
    for budget in [3_000, 8_000, 15_000] {
        let out = Formatter::new()
            .max_rows(1000)
            .max_chars(budget)
            .format_with_report("list_users", &page);
        let kept = out.report.rows.unwrap().kept;
        assert!(kept > 64, "budget {budget}: {kept} rows");
        assert!(out.text.chars().count() <= budget);
        let tail: String = out
            .text
            .lines()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .join(" / ");
        assert!(
            out.text.ends_with(&format!(
                "[Items {}-1000 of this page were cut: next_cursor resumes at item {}]\n\
             Next: call list_users(cursor=\"c{kept}\")",
                kept + 1,
                kept + 1
            )),
            "budget {budget}, kept {kept}: {tail}"
        );
        let last_row = format!("| {} ", kept - 1);
        assert!(out.text.contains(&last_row), "budget {budget}");
    }
}

// ---------------------------------------------------------------- hostile fields

mod hostile {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    /// Text built from what could open or break markdown structure.
    fn text() -> impl Strategy<Value = String> {
        proptest::string::string_regex(
            "([#>|`*_<>()\\[\\]!:=\"\\\\ \\-a-z0-9]|\n|\r|\u{202e}|<br>|<script>|```|1\\. |- ){0,12}",
        )
        .unwrap()
    }

    fn config() -> Config {
        Config {
            cases: 256,
            rng_seed: RngSeed::Fixed(12),
            failure_persistence: None,
            ..Config::default()
        }
    }

    /// The lines that start with `prefix` at the top level (not indented).
    fn count(md: &str, prefix: &str) -> usize {
        md.lines().filter(|l| l.starts_with(prefix)).count()
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn no_field_forges_structure(
            a in text(), b in text(), c in text(), d in text(), budget in 200usize..3_000,
        ) {
            let page = Page::new(vec![json!({"name": a.clone(), "note": b.clone()})])
                .has_more(true)
                .next_cursor(c.clone())
                .item_cursors([d.clone()])
                .next_call_with(NextAction::call(a.clone()).arg(b.clone(), d.clone()), c.clone());
            let err = ToolError::new(ErrorKind::InvalidInput, a.clone()).hint(b.clone());
            let batch = Batch::new()
                .ok(c.clone())
                .failed(a.clone(), ToolError::new(ErrorKind::Timeout, b.clone()))
                .failed(d.clone(), ToolError::new(ErrorKind::NotFound, c.clone()))
                .retry_call(d.clone(), a.clone());
            let reply = Reply::new(json!({"text": d.clone()}))
                .link(a.clone(), b.clone())
                .reference(ResourceRef::new(c.clone()).name(d.clone()).content_type(a.clone()))
                .next(NextAction::call(b.clone()).arg("x", a.clone()).reason(c.clone()));
            for f in [Formatter::new(), Formatter::new().max_chars(budget)] {
                let md = f.format("t", &page);
                let (p, _) = reparse(&md);
                prop_assert!(p.tables.len() <= 1);
                prop_assert_eq!(count(&md, "has_more: true"), 1);
                prop_assert_eq!(count(&md, "Next: call "), 1, "{}", md);

                let out = f.format_with_report("t", &err);
                prop_assert!(out.is_error());
                let (p, _) = reparse(&out.text);
                prop_assert_eq!(p.tables.len(), 0);
                prop_assert!(out.text.starts_with("**t failed**\n\n- kind: invalid_input\n- message:"));

                let md = f.format("t", &batch);
                let (p, _) = reparse(&md);
                prop_assert_eq!(count(&md, "3 total, 1 succeeded, 2 failed"), 1, "{}", md);
                prop_assert_eq!(count(&md, "Next: call "), 1);
                if let Some(t) = p.tables.first() {
                    prop_assert_eq!(t[0].len(), 4, "the failures table keeps 4 columns");
                }

                let md = f.format("t", &reply);
                reparse(&md);
                prop_assert_eq!(count(&md, "Links: ["), 1);
                prop_assert_eq!(count(&md, "Resource: "), 1);
                prop_assert_eq!(count(&md, "Next: call "), 1);
            }
        }
    }
}
