"""LangChain tools that return tool-output-format's markdown as the content the model reads
and the structured form as the artifact (`response_format="content_and_artifact"`), so the
model gets a compact table and the program keeps the data.

A `ToolError` becomes a `ToolException` whose text is the rendered error: LangChain returns it
as the tool message's content with `status="error"`. Tested in `tests/test_langchain.py`.
"""

from typing import Any, Optional

from langchain_core.tools import ToolException, tool

from tool_output_format import Formatter, ToolError

ORDERS = [
    {"order_id": f"ORD-{i:05}", "status": ["pending", "shipped", "delivered"][i % 3], "total": f"{(i * 37) % 500}.99"}
    for i in range(1, 61)
]

fmt = Formatter(layout="compact", max_chars=1500)


def content_and_artifact(tool_name: str, result: Any) -> tuple[str, Any]:
    """The markdown and the structured form; an error raises `ToolException` with the markdown."""
    out = fmt.format_with_report(tool_name, result)
    if out.is_error:
        raise ToolException(out.text)
    return out.text, fmt.format_json(tool_name, result)


@tool(response_format="content_and_artifact")
def list_orders(status: Optional[str] = None) -> tuple[str, Any]:
    """List orders, optionally only those with one status (pending, shipped, delivered)."""
    rows = [o for o in ORDERS if status is None or o["status"] == status]
    return content_and_artifact("list_orders", rows)


@tool(response_format="content_and_artifact")
def get_order(order_id: str) -> tuple[str, Any]:
    """One order by its id (ORD-00001)."""
    for order in ORDERS:
        if order["order_id"] == order_id:
            return content_and_artifact("get_order", order)
    return content_and_artifact("get_order", ToolError("not_found", f"order {order_id} does not exist", hint="list_orders()"))


# The rendered error becomes the tool message's content (status "error"), not an exception.
get_order.handle_tool_error = True


if __name__ == "__main__":
    call = {"name": "list_orders", "args": {"status": "shipped"}, "id": "call_1", "type": "tool_call"}
    print(list_orders.invoke(call).content)
