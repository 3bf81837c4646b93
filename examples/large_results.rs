//! Large results: an agent's `list_orders` returns 5,000 orders. The model gets the first
//! rows, a summary computed over all 5,000 (counts, ranges, a sum), the fields left out in
//! summary detail, and a reference to the full result, which a `get_stored_result` tool
//! resolves.
//!
//! Run with `cargo run --example large_results`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tool_output_format::{
    Detail, Formatter, ToolError, ToolOptions, ToolOutput,
    store::{MemoryStore, ResultStore},
};

#[derive(ToolOutput)]
struct Order {
    order_id: String,
    status: &'static str,
    total: f64,
    created_at: String,
    /// Long and rarely needed: only in full detail.
    #[tool_output(detail = "full")]
    shipping_address: String,
}

/// The agent's tool: every order of the shop.
fn list_orders() -> Vec<Order> {
    let statuses = ["pending", "shipped", "delivered", "cancelled"];
    (1..=5000u32)
        .map(|i| Order {
            order_id: format!("ORD-{:05}", i),
            status: statuses[(i * 7 % 4) as usize],
            total: f64::from(i * 7919 % 100_000) / 100.0,
            created_at: format!("2024-{:02}-{:02}T10:00:00Z", 1 + i % 12, 1 + i % 28),
            shipping_address: format!("{i} Harbour Street, Oslo"),
        })
        .collect()
}

/// The fetch tool the Next line names: the full result behind a reference, or an error the
/// model can act on (`not_found` for an expired or unknown reference).
fn get_stored_result(store: &dyn ResultStore, reference: &str) -> Result<Value, ToolError> {
    Ok(store.get(reference)?)
}

fn main() {
    // In memory, one hour; bounded to 64 MiB by default (oldest results go first).
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600)));
    let fmt = Formatter::new()
        .tool(
            "list_orders",
            ToolOptions::new()
                .max_rows(5)
                .summarize(true)
                .sum(["total"]),
        )
        .store(store.clone(), "get_stored_result");

    let out = fmt.format_with_report("list_orders", &list_orders());
    println!("{}\n", out.text);
    let reference = out
        .report
        .reference
        .clone()
        .expect("the cut result is stored");
    assert!(out.text.contains("[Summary of all 5000 rows]"));
    assert!(out.text.contains("- total: 0.17 to 999.72, sum 2499975.0"));
    assert!(out.text.contains(
        "[Left out in summary detail: shipping_address. Call list_orders(detail=\"full\") for them]"
    ));
    assert!(out.text.ends_with(&format!(
        "Next: call get_stored_result(ref=\"{reference}\")"
    )));

    // The model follows the Next line: the full result, every field included.
    let full = get_stored_result(store.as_ref(), &reference).expect("stored an hour");
    let orders = full.as_array().expect("a list");
    assert_eq!(orders.len(), 5000);
    assert_eq!(
        orders[4999]["shipping_address"],
        "5000 Harbour Street, Oslo"
    );
    println!("get_stored_result returned all {} orders\n", orders.len());

    // A made-up reference: a `not_found` error whose message says "unknown".
    let err = get_stored_result(store.as_ref(), "r_0000000000000000000000000x").unwrap_err();
    println!("{err}\n");
    assert!(err.message().contains("unknown"));

    // The model asks for the full detail: the same tool with detail="full".
    let detail = Detail::from_arg("full").expect("a detail level");
    let full_fmt =
        Formatter::new().tool("list_orders", ToolOptions::new().max_rows(2).detail(detail));
    let md = full_fmt.format("list_orders", &list_orders()[..2]);
    println!("{md}");
    assert!(md.contains("| shipping_address "));
}
