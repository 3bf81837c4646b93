//! A stdio MCP server on `rmcp` whose tools answer with rendered markdown for the model and
//! typed, schema-valid data for the client.
//!
//! ```text
//! cargo run --example mcp_server --features rmcp
//! ```
//!
//! (The workspace's `rmcp` feature turns on `schemars` too: every tool lists an
//! `outputSchema`.)
//!
//! Any MCP client can start it over stdio, for example in a host's server list:
//! `{"command": "cargo", "args": ["run", "-q", "--example", "mcp_server", "--features", "rmcp"]}`
//! (or the built binary, `target/debug/examples/mcp_server`).
//!
//! Tools, over 120 bundled orders (`examples/data/orders.json`):
//!
//! - `list_orders` (optional `cursor`, optional `limit`, 25 by default): a `Page` of orders
//!   with canonical columns, then `has_more`, the cursor and
//!   `Next: call list_orders(cursor="25")`. Every tool's text is held to
//!   [`MAX_CHARS`] characters: a page of more orders than fit is cut, and its cursor resumes
//!   at the first order cut. Its `structuredContent` is `{"items": [...], "has_more",
//!   "next_cursor", "total", "next"}` with the same orders as the text.
//! - `get_order` (`order_id`): one order (`structuredContent` is the order); an unknown id is
//!   a `not_found` `ToolError`, so the result has `isError: true`, the model reads the kind,
//!   the message and a hint, and `structuredContent` is `{"error": {...}}`.
//! - `cancel_orders` (`order_ids`): a `Batch`: how many were cancelled, the failures, and a
//!   retry call naming exactly the retryable ids.
//!
//! Each tool declares its `outputSchema` with `McpJson::<S>::output_schema()`; cut notices
//! are in each result's `_meta` under `tool-output-format/cuts`, outside the validated data.
//!
//! The tests in `tests/mcp_e2e.rs` run this server as a child process and page through
//! every order with rmcp's client; `tests/mcp_schema.rs` validates every tool's results
//! against its schema; `tests/clients/python_client.py` drives it with the official Python
//! SDK and `tests/clients/inspector_client.py` with the MCP Inspector's command line.

use std::sync::{Arc, Mutex};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use tool_output_format::adapt::rmcp::McpJson;
use tool_output_format::{Batch, ErrorKind, Formatter, Page, ToolError, ToolOutput};

/// Orders per page, unless the call asks for another `limit`.
pub const PAGE_SIZE: usize = 25;

/// The budget of every tool's text, in characters.
pub const MAX_CHARS: usize = 4000;

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

// An order in the tools' shared vocabulary: snake_case names, ids first. `ToolOutput` gives
// the markdown; `Serialize` and `JsonSchema` the `structuredContent` and its schema, whose
// descriptions are the doc comments below (clients and models read them).
/// An order. Money is an exact two-decimal string.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema, ToolOutput)]
#[tool_output(canonical = "snake_case")]
pub struct Order {
    pub order_id: String,
    pub customer_id: String,
    /// `pending`, `processing`, `shipped`, `delivered` or `cancelled`.
    pub status: String,
    /// When the order was placed (RFC 3339, UTC).
    pub created_at: String,
    /// The order's total, e.g. `1325.05`.
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
    /// How many orders at most (1 to 120, 25 when omitted).
    // Declared as a plain integer, not "integer or null": clients that convert arguments by
    // the schema's `type` (the MCP Inspector's command line) then send a number.
    #[serde(default)]
    #[schemars(with = "usize")]
    pub limit: Option<usize>,
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
            fmt: Arc::new(Formatter::new().max_chars(MAX_CHARS)),
            orders: Arc::new(Mutex::new(orders)),
        }
    }

    fn orders(&self) -> std::sync::MutexGuard<'_, Vec<Order>> {
        // A panic while holding the lock leaves the orders as they were: keep serving.
        self.orders.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One page of `limit` orders from `cursor` (the offset of the page's first order, as
    /// text).
    fn page(&self, cursor: Option<&str>, limit: Option<usize>) -> Result<Page<Order>, ToolError> {
        let orders = self.orders();
        let size = match limit {
            None => PAGE_SIZE,
            Some(n) if (1..=orders.len()).contains(&n) => n,
            Some(n) => {
                return Err(ToolError::new(
                    ErrorKind::InvalidInput,
                    format!("limit {n} is out of range"),
                )
                .hint(format!("pass a limit from 1 to {}", orders.len())));
            }
        };
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
        let end = (start + size).min(orders.len());
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
        description = "List orders, 25 per page, oldest first. Pass the cursor from the `Next:` line to get the next page.",
        output_schema = McpJson::<Page<Order>>::output_schema()
    )]
    async fn list_orders(
        &self,
        Parameters(args): Parameters<ListOrdersArgs>,
    ) -> McpJson<Page<Order>> {
        let page = self.page(args.cursor.as_deref(), args.limit);
        McpJson::result(&self.fmt, "list_orders", &page)
    }

    /// One order by id.
    #[tool(
        description = "Get one order by its id (e.g. ORD-13007).",
        output_schema = McpJson::<Order>::output_schema()
    )]
    async fn get_order(&self, Parameters(args): Parameters<GetOrderArgs>) -> McpJson<Order> {
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
        McpJson::result(&self.fmt, "get_order", &result)
    }

    /// Cancel orders; reports each failure and which ids a retry should name.
    #[tool(
        description = "Cancel orders by id. Pending and processing orders are cancelled; the result lists the failures and the retry call.",
        output_schema = McpJson::<Batch>::output_schema()
    )]
    async fn cancel_orders(
        &self,
        Parameters(args): Parameters<CancelOrdersArgs>,
    ) -> McpJson<Batch> {
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
        McpJson::new(&self.fmt, "cancel_orders", &batch)
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
