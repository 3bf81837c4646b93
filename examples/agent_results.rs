//! An order-desk agent's tools returning results an agent can act on: a page of orders with
//! a cursor, an error that says whether to retry and how to fix it, a batch with per-item
//! outcomes and a retry call for exactly the retryable failures, and a reply with a
//! follow-up call, links and a reference to a large file.
//!
//! Run with `cargo run --example agent_results`.

use tool_output_format::{
    Batch, ErrorKind, Formatter, NextAction, Page, Reply, ResourceRef, ToolError, ToolOutput,
};

#[derive(ToolOutput)]
struct Order {
    id: &'static str,
    customer: &'static str,
    status: &'static str,
    total: f64,
}

const ORDERS: [Order; 4] = [
    Order {
        id: "ORD-1",
        customer: "Ada",
        status: "shipped",
        total: 49.99,
    },
    Order {
        id: "ORD-2",
        customer: "Bob",
        status: "pending",
        total: 12.5,
    },
    Order {
        id: "ORD-3",
        customer: "Cy",
        status: "pending",
        total: 230.0,
    },
    Order {
        id: "ORD-4",
        customer: "Di",
        status: "cancelled",
        total: 8.0,
    },
];

/// `list_orders`: one page of a cursor-paginated list. Item cursors (`cursors[i]` resumes AT
/// item `i`) let a page cut by a cap or budget resume exactly at its first dropped item.
fn list_orders(status: &str) -> Page<&'static Order> {
    let items: Vec<&Order> = ORDERS.iter().filter(|o| o.status == status).collect();
    let cursors: Vec<String> = items.iter().map(|o| format!("at:{}", o.id)).collect();
    Page::new(items)
        .has_more(true)
        .next_cursor("at:ORD-5")
        .total(57)
        .item_cursors(cursors)
        .next_call_with(
            NextAction::call("list_orders").arg("status", status),
            "cursor",
        )
}

/// `get_order`: a failure written for the model (`Result<T, ToolError>` renders either).
fn get_order(id: &str) -> Result<&'static Order, ToolError> {
    ORDERS.iter().find(|o| o.id == id).ok_or_else(|| {
        ToolError::new(ErrorKind::NotFound, format!("order {id} does not exist"))
            .hint("list_orders(status=\"pending\") lists open orders")
    })
}

/// `send_receipts`: per-item outcomes, never one boolean.
fn send_receipts(ids: &[&str]) -> Batch {
    let mut batch = Batch::new().retry_call("send_receipts", "order_ids");
    for &id in ids {
        batch = match id {
            "ORD-2" => batch.failed(
                id,
                ToolError::new(ErrorKind::Unavailable, "mail server busy").retry_after_secs(30),
            ),
            "ORD-9" => batch.failed(id, ToolError::new(ErrorKind::NotFound, "no such order")),
            _ => batch.ok(id),
        };
    }
    batch
}

/// `export_orders`: the result, the follow-up call, links, and a reference to the file.
fn export_orders() -> Reply<&'static str> {
    Reply::new("export job_9 queued")
        .next(
            NextAction::call("check_job_status")
                .arg("job_id", "job_9")
                .after_secs(30),
        )
        .link("view", "https://shop.example.com/exports/job_9")
        .reference(
            ResourceRef::new("resource://exports/job_9.csv")
                .name("orders.csv")
                .content_type("text/csv")
                .size_bytes(1_482_113),
        )
}

fn main() {
    let fmt = Formatter::new().max_rows(20);

    let page = fmt.format_with_report("list_orders", &list_orders("pending"));
    println!("{}\n", page.text);
    assert!(page.text.contains("has_more: true"));

    // A tight row cap cuts the page: nothing is lost, the cursor resumes at the cut.
    let cut = Formatter::new()
        .max_rows(1)
        .format("list_orders", &list_orders("pending"));
    println!("{cut}\n");
    assert!(cut.ends_with(r#"Next: call list_orders(status="pending", cursor="at:ORD-3")"#));

    let missing = fmt.format_with_report("get_order", &get_order("ORD-404"));
    println!("{}\n", missing.text);
    assert!(missing.is_error());
    assert!(
        !fmt.format_with_report("get_order", &get_order("ORD-1"))
            .is_error()
    );

    let batch = fmt.format_with_report(
        "send_receipts",
        &send_receipts(&["ORD-1", "ORD-2", "ORD-9"]),
    );
    println!("{}\n", batch.text);
    assert!(
        !batch.is_error(),
        "a batch reports per-item outcomes; the call itself succeeded"
    );
    assert!(
        batch
            .text
            .ends_with(r#"Next: call send_receipts(order_ids=["ORD-2"]) after 30 s"#)
    );

    let reply = fmt.format("export_orders", &export_orders());
    println!("{reply}");
    assert!(reply.contains("Resource: orders.csv (text/csv, 1.5 MB) resource://exports/job_9.csv"));
}
