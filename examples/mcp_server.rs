//! A stdio MCP server on `rmcp` whose tools answer with rendered markdown.
//!
//! ```text
//! cargo run --example mcp_server --features rmcp
//! ```
//!
//! Any MCP client can start it over stdio, for example in a host's server list:
//! `{"command": "cargo", "args": ["run", "-q", "--example", "mcp_server", "--features", "rmcp"]}`
//! (or the built binary, `target/debug/examples/mcp_server`).
//!
//! Tools, over 120 bundled orders (`examples/data/orders.json`):
//!
//! - `list_orders` (optional `cursor`): a `Page` of 25 orders with canonical columns, then
//!   `has_more`, the cursor and `Next: call list_orders(cursor="25")`; also as
//!   `structuredContent`.
//! - `get_order` (`order_id`): one order; an unknown id is a `not_found` `ToolError`, so the
//!   result has `isError: true` and the model reads the kind, the message and a hint.
//! - `cancel_orders` (`order_ids`): a `Batch`: how many were cancelled, the failures, and a
//!   retry call naming exactly the retryable ids.
//!
//! The tests in `tests/mcp_e2e.rs` run this server as a child process and page through
//! every order with rmcp's client.

use std::sync::{Arc, Mutex};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use tool_output_format::{Batch, ErrorKind, Formatter, McpResult, Page, ToolError, ToolOutput};

/// Orders per page.
pub const PAGE_SIZE: usize = 25;

/// Field names must be snake_case (checked at compile time by `canonical`).
pub const fn snake_case(name: &str) -> bool {
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_lowercase() || b[i].is_ascii_digit() || b[i] == b'_') {
            return false;
        }
        i += 1;
    }
    !b.is_empty()
}

/// An order as the upstream API sends it (camelCase, money as a float).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawOrder {
    order_id: String,
    customer_id: String,
    status: String,
    created_at: String,
    total_amount: f64,
}

/// An order in the tools' shared vocabulary: snake_case names, ids first, money as an exact
/// two-decimal string.
#[derive(Clone, Debug, ToolOutput)]
#[tool_output(canonical = "snake_case")]
pub struct Order {
    pub order_id: String,
    pub customer_id: String,
    pub status: String,
    pub created_at: String,
    pub total: String,
}

impl From<RawOrder> for Order {
    fn from(raw: RawOrder) -> Self {
        Order {
            order_id: raw.order_id,
            customer_id: raw.customer_id,
            status: raw.status,
            created_at: raw.created_at,
            total: format!("{:.2}", raw.total_amount),
        }
    }
}

/// The 120 bundled orders, shaped.
pub fn bundled_orders() -> Vec<Order> {
    let raw: Vec<RawOrder> = serde_json::from_str(include_str!("data/orders.json"))
        .expect("examples/data/orders.json is valid");
    raw.into_iter().map(Order::from).collect()
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ListOrdersArgs {
    /// The cursor from the previous page's `Next:` line; omit it for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct GetOrderArgs {
    /// The order id, e.g. `ORD-13007`.
    pub order_id: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct CancelOrdersArgs {
    /// The ids of the orders to cancel.
    pub order_ids: Vec<String>,
}

/// The server: the orders and one formatter for every tool.
#[derive(Clone)]
pub struct OrderServer {
    fmt: Arc<Formatter>,
    orders: Arc<Mutex<Vec<Order>>>,
}

impl Default for OrderServer {
    fn default() -> Self {
        OrderServer::new(bundled_orders())
    }
}

impl OrderServer {
    /// A server over these orders.
    pub fn new(orders: Vec<Order>) -> Self {
        OrderServer {
            fmt: Arc::new(Formatter::new()),
            orders: Arc::new(Mutex::new(orders)),
        }
    }

    fn orders(&self) -> std::sync::MutexGuard<'_, Vec<Order>> {
        // A panic while holding the lock leaves the orders as they were: keep serving.
        self.orders.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One page from `cursor` (the offset of the page's first order, as text).
    fn page(&self, cursor: Option<&str>) -> Result<Page<Order>, ToolError> {
        let orders = self.orders();
        let start = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= orders.len())
                .ok_or_else(|| {
                    ToolError::new(
                        ErrorKind::InvalidInput,
                        format!("cursor {c:?} is not a cursor of list_orders"),
                    )
                    .hint("omit cursor to start from the first page")
                })?,
        };
        let end = (start + PAGE_SIZE).min(orders.len());
        let mut page = Page::new(orders[start..end].to_vec())
            .has_more(end < orders.len())
            .total(orders.len() as u64)
            // Cursors per item: if a budget cuts the page, the cursor shown resumes at the
            // first order cut, so no order is skipped.
            .item_cursors((start..end).map(|i| i.to_string()))
            .next_call("list_orders", "cursor");
        if end < orders.len() {
            page = page.next_cursor(end.to_string());
        }
        Ok(page)
    }
}

#[tool_router]
impl OrderServer {
    /// List orders, 25 per page, oldest first. Follow the `Next:` line for the next page.
    #[tool(
        description = "List orders, 25 per page, oldest first. Pass the cursor from the `Next:` line to get the next page."
    )]
    async fn list_orders(&self, Parameters(args): Parameters<ListOrdersArgs>) -> McpResult {
        let page = self.page(args.cursor.as_deref());
        McpResult::structured(&self.fmt, "list_orders", &page)
    }

    /// One order by id.
    #[tool(description = "Get one order by its id (e.g. ORD-13007).")]
    async fn get_order(&self, Parameters(args): Parameters<GetOrderArgs>) -> McpResult {
        let found = self
            .orders()
            .iter()
            .find(|o| o.order_id == args.order_id)
            .cloned();
        let result = found.ok_or_else(|| {
            ToolError::new(
                ErrorKind::NotFound,
                format!("order {} does not exist", args.order_id),
            )
            .hint("list_orders lists every order id")
            .retryable(false)
        });
        McpResult::new(&self.fmt, "get_order", &result)
    }

    /// Cancel orders; reports each failure and which ids a retry should name.
    #[tool(
        description = "Cancel orders by id. Pending and processing orders are cancelled; the result lists the failures and the retry call."
    )]
    async fn cancel_orders(&self, Parameters(args): Parameters<CancelOrdersArgs>) -> McpResult {
        let mut orders = self.orders();
        let mut batch = Batch::new().retry_call("cancel_orders", "order_ids");
        for id in args.order_ids {
            let Some(order) = orders.iter_mut().find(|o| o.order_id == id) else {
                let e = ToolError::new(ErrorKind::NotFound, format!("order {id} does not exist"));
                batch = batch.failed(id, e.retryable(false));
                continue;
            };
            batch = match order.status.as_str() {
                "pending" | "processing" => {
                    order.status = "cancelled".to_string();
                    batch.ok(id)
                }
                "shipped" => batch.failed(
                    id,
                    ToolError::new(
                        ErrorKind::Unavailable,
                        "the carrier did not confirm the recall",
                    )
                    .retryable(true),
                ),
                status => batch.failed(
                    id,
                    ToolError::new(
                        ErrorKind::Conflict,
                        format!("the order is already {status}"),
                    )
                    .retryable(false),
                ),
            };
        }
        drop(orders);
        McpResult::new(&self.fmt, "cancel_orders", &batch)
    }
}

#[tool_handler(
    name = "tool-output-format-orders",
    version = "0.1.0",
    instructions = "Orders of a small shop. Results are markdown; follow the `Next:` lines."
)]
impl ServerHandler for OrderServer {}

/// Serve on standard input and output until the client closes them.
pub async fn serve_stdio() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let service = OrderServer::default()
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}

#[allow(dead_code)] // `tests/mcp_e2e.rs` includes this file as a module and runs `serve_stdio`.
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    serve_stdio().await
}
