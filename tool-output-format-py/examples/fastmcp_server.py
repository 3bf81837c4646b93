"""A FastMCP server whose tools return tool-output-format's markdown as their text content,
and the same shaped, capped result as structured content.

Run it on stdio with `python examples/fastmcp_server.py`; the tests drive it with FastMCP's
in-memory client (`tests/test_fastmcp.py`).

- `list_orders(cursor=None)`: a `Page` of orders, with the call that fetches the next page.
- `get_order(order_id)`: one order, or a `ToolError` (`not_found`) that MCP marks `isError`.
- `get_stored_result(ref, cursor=None)`: the rest of an output that was cut, page by page from
  where its text stopped (the formatter's store, served by `Fetch`).
"""

from typing import Any, Optional

from fastmcp import FastMCP
from fastmcp.tools import ToolResult

from tool_output_format import Fetch, Formatter, MemoryStore, Page, ToolError

STATUSES = ["pending", "shipped", "delivered", "cancelled"]
ORDERS = [
    {
        "order_id": f"ORD-{i:05}",
        "customer": f"cust_{i % 7}",
        "status": STATUSES[i % 4],
        "total": f"{(i * 37) % 500}.99",
        "card_number": f"4111-0000-0000-{i:04}",
    }
    for i in range(1, 121)
]
PAGE_SIZE = 20

store = MemoryStore(600)
# Built once: card numbers never reach the model; a result over 4,000 characters is cut, kept
# in the store, and ends with the one Next line that fetches the rest from where it stopped.
fmt = Formatter(layout="compact", max_chars=4000, redact_keys=["card_number"], store=store)
# The fetch tool: the stored rest page by page, within the same options, never stored again.
fetch = Fetch(store, "get_stored_result", formatter=fmt)

mcp = FastMCP("orders")


def reply(tool: str, result: Any) -> ToolResult:
    """The markdown as the text content, the structured form beside it, `isError` for a
    `ToolError`."""
    out = fmt.format_with_report(tool, result)
    return ToolResult(
        content=out.text,
        structured_content=fmt.format_json(tool, result),
        is_error=out.is_error,
    )


@mcp.tool(output_schema=None)
def list_orders(cursor: Optional[str] = None) -> ToolResult:
    """List orders, 20 a page; pass the cursor the previous page gave for the next one."""
    start = int(cursor) if cursor and cursor.isdigit() else 0
    end = start + PAGE_SIZE
    # The listing shows the public fields; `get_order` shows an order whole (card redacted).
    rows = [{k: v for k, v in order.items() if k != "card_number"} for order in ORDERS[start:end]]
    page = Page(
        rows,
        has_more=end < len(ORDERS),
        next_cursor=str(end) if end < len(ORDERS) else None,
        total=len(ORDERS),
        next_call=("list_orders", "cursor"),
    )
    return reply("list_orders", page)


@mcp.tool(output_schema=None)
def get_order(order_id: str) -> ToolResult:
    """One order by its id (ORD-00001)."""
    for order in ORDERS:
        if order["order_id"] == order_id:
            return reply("get_order", order)
    error = ToolError("not_found", f"order {order_id} does not exist", hint="list_orders() lists the orders and their ids")
    return reply("get_order", error)


@mcp.tool(output_schema=None)
def export_orders() -> ToolResult:
    """Every order at once (cut to fit; the full list is stored)."""
    return reply("export_orders", ORDERS)


@mcp.tool(output_schema=None)
def get_stored_result(ref: str, cursor: Optional[str] = None) -> ToolResult:
    """The rest of an output that was cut: call it as its Next line says (ref and cursor)."""
    text = fetch.call(ref, cursor=cursor)
    return ToolResult(content=text, is_error=text.startswith("**get_stored_result failed**"))


if __name__ == "__main__":
    mcp.run()
