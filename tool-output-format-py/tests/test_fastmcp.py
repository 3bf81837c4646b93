"""The FastMCP example server, driven by FastMCP's in-memory client."""

import asyncio
import importlib.util
import pathlib
import re

from fastmcp import Client

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "fastmcp_server.py"
spec = importlib.util.spec_from_file_location("fastmcp_server", EXAMPLE)
server = importlib.util.module_from_spec(spec)
spec.loader.exec_module(server)


def call(name, arguments=None):
    async def go():
        async with Client(server.mcp) as client:
            return await client.call_tool(name, arguments or {}, raise_on_error=False)

    return asyncio.run(go())


def text(result):
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    return result.content[0].text


def test_tools_are_listed():
    async def go():
        async with Client(server.mcp) as client:
            return sorted(t.name for t in await client.list_tools())

    assert asyncio.run(go()) == ["export_orders", "get_order", "get_stored_result", "list_orders"]


def test_get_order_returns_the_markdown_record():
    result = call("get_order", {"order_id": "ORD-00003"})
    assert not result.is_error
    assert text(result) == (
        "**get_order result**\n\n- order_id: ORD-00003\n- customer: cust_3\n- status: cancelled\n"
        "- total: 111.99\n- card_number: [redacted]"
    )
    assert result.structured_content == {
        "result": {
            "order_id": "ORD-00003",
            "customer": "cust_3",
            "status": "cancelled",
            "total": "111.99",
            "card_number": "[redacted]",
        },
        "notices": [],
    }


def test_unknown_order_is_an_mcp_error():
    result = call("get_order", {"order_id": "ORD-99999"})
    assert result.is_error
    assert text(result) == (
        "**get_order failed**\n\n- kind: not_found\n- message: order ORD-99999 does not exist\n"
        "- retryable: false\n- hint: list_orders() lists the orders and their ids"
    )


def test_pages_link_to_the_next_page():
    first = text(call("list_orders"))
    lines = first.split("\n")
    assert lines[:3] == ["|order_id|customer|status|total|", "|-|-|-|-|", "|ORD-00001|cust_1|shipped|37.99|"]
    assert len(lines) == 2 + 20 + 1 + 4
    assert first.endswith('\n\nhas_more: true\nnext_cursor: 20\ntotal: 120\nNext: call list_orders(cursor="20")')
    cursor = re.search(r'Next: call list_orders\(cursor="(\d+)"\)', first).group(1)
    second = text(call("list_orders", {"cursor": cursor}))
    assert second.split("\n")[2] == "|ORD-00021|cust_0|shipped|277.99|"
    last = text(call("list_orders", {"cursor": "100"}))
    assert last.endswith("\n\nhas_more: false\ntotal: 120")


def test_cut_results_are_stored_and_fetched():
    cut = text(call("export_orders"))
    assert len(cut) <= 4000
    assert cut.startswith("[Truncated to ")
    assert cut.split("\n")[0].endswith(" rows of 120 total]")
    # One Next line, from where the text stopped.
    assert cut.count("Next:") == 1
    m = re.search(r'Next: call get_stored_result\(ref="(r_[a-z0-9]{26})", cursor="(\d+)"\)$', cut)
    ref, cursor = m.group(1), m.group(2)
    # The store holds the whole list, secrets redacted.
    stored = server.store.get(ref)
    assert len(stored) == 120
    assert stored[119]["order_id"] == "ORD-00120"
    assert {order["card_number"] for order in stored} == {"[redacted]"}
    # Following the Next lines reaches every order once, each page within the same budget.
    seen = re.findall(r"\|(ORD-\d{5})\|", cut)
    pages = 0
    while cursor is not None:
        page = call("get_stored_result", {"ref": ref, "cursor": cursor})
        assert not page.is_error
        body = text(page)
        assert len(body) <= 4000 and body.count("Next:") <= 1
        assert "4111-" not in body
        seen += re.findall(r"\|(ORD-\d{5})\|", body)
        m = re.search(r'Next: call get_stored_result\(ref="r_[a-z0-9]{26}", cursor="(\d+)"\)$', body)
        cursor = m.group(1) if m else None
        pages += 1
        assert pages < 50
    assert seen == [f"ORD-{i:05}" for i in range(1, 121)]
    missing = call("get_stored_result", {"ref": "r_aaaaaaaaaaaaaaaaaaaaaaaaaa"})
    assert missing.is_error
    assert text(missing).startswith("**get_stored_result failed**\n\n- kind: not_found\n")