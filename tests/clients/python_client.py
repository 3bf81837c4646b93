"""The official MCP Python SDK (`mcp` from PyPI) drives `examples/mcp_server.rs` over stdio.

The SDK validates every successful result's `structuredContent` against the tool's
`outputSchema` itself (`ClientSession.call_tool` raises when it does not conform); this script
also validates error results, which the SDK leaves alone, with the same `jsonschema` library.

    python tests/clients/python_client.py target/debug/examples/mcp_server

`.ci/run` builds the server, creates the virtual environment and runs this script. It prints
libtest's lines (`test NAME ... ok`, `test result: ...`) so that CI counts its checks, and
exits non-zero on a failure.
"""

import asyncio
import re
import sys
import traceback

from jsonschema import Draft202012Validator
import mcp.types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from libtest import report

META_KEY = "tool-output-format/cuts"
MAX_CHARS = 4000


def text(result):
    return result.content[0].text


def table_ids(md):
    """The order ids in the rows of the markdown table of a result."""
    ids = []
    for line in md.splitlines():
        if line.startswith("|"):
            cell = line[1:].split("|")[0].strip()
            if cell.startswith("ORD-"):
                ids.append(cell)
    return ids


def item_ids(data):
    return [item["order_id"] for item in data["items"]]


class Checks:
    def __init__(self, session):
        self.session = session
        self.validators = {}

    async def call(self, tool, args):
        # Raises RuntimeError when a successful result does not validate.
        return await self.session.call_tool(tool, args)

    def validate(self, tool, result):
        data = result.structured_content
        assert data is not None, f"{tool}: no structuredContent"
        errors = list(self.validators[tool].iter_errors(data))
        assert not errors, f"{tool}: {[e.message for e in errors]}\n{data}"
        return data

    async def every_tool_declares_an_output_schema(self):
        tools = (await self.session.list_tools()).tools
        names = sorted(t.name for t in tools)
        assert names == ["cancel_orders", "get_order", "list_orders"], names
        for tool in tools:
            schema = tool.output_schema
            assert schema is not None, f"{tool.name} has no outputSchema"
            assert schema["type"] == "object", schema
            Draft202012Validator.check_schema(schema)
            self.validators[tool.name] = Draft202012Validator(schema)

    async def pages_through_every_order_to_the_end(self):
        seen, cursor, pages = [], None, 0
        while True:
            pages += 1
            assert pages <= 10, "the cursors do not advance"
            args = {} if cursor is None else {"cursor": cursor}
            result = await self.call("list_orders", args)
            assert not result.is_error, text(result)
            data = self.validate("list_orders", result)
            assert item_ids(data) == table_ids(text(result)), data
            seen += item_ids(data)
            if not data["has_more"]:
                assert "next_cursor" not in data, data
                assert "has_more: false" in text(result)
                break
            cursor = data["next_cursor"]
            assert f'Next: call list_orders(cursor="{cursor}")' in text(result)
        assert pages == 5, pages
        assert len(seen) == 120 and len(set(seen)) == 120, len(seen)

    async def a_cut_page_validates_and_keeps_text_and_data_in_step(self):
        result = await self.call("list_orders", {"limit": 120})
        md = text(result)
        assert len(md) <= MAX_CHARS, len(md)
        data = self.validate("list_orders", result)
        shown = table_ids(md)
        assert 0 < len(shown) < 120, len(shown)
        assert item_ids(data) == shown
        assert data["has_more"] is True
        assert data["next_cursor"] == str(len(shown)), data["next_cursor"]
        notices = result.meta[META_KEY]["notices"]
        assert notices[0]["kind"] == "rows" and notices[0]["kept"] == len(shown), notices
        assert notices[0]["text"] in md, notices
        assert "notices" not in data

    async def an_empty_page_is_not_an_error(self):
        result = await self.call("list_orders", {"cursor": "120"})
        assert not result.is_error
        data = self.validate("list_orders", result)
        assert data == {"items": [], "has_more": False, "total": 120}, data
        assert text(result).startswith("*(empty)*")

    async def an_unknown_order_is_a_not_found_error(self):
        result = await self.call("get_order", {"order_id": "ORD-404"})
        assert result.is_error, text(result)
        data = self.validate("get_order", result)
        assert data["error"]["kind"] == "not_found", data
        assert data["error"]["message"] == "order ORD-404 does not exist", data
        assert re.match(r"\*\*get_order failed\*\*", text(result)), text(result)

    async def a_known_order_is_the_order(self):
        result = await self.call("get_order", {"order_id": "ORD-13007"})
        assert not result.is_error
        data = self.validate("get_order", result)
        assert data["order_id"] == "ORD-13007", data

    async def the_sdk_rejects_data_that_breaks_the_schema(self):
        # The SDK's own check, on data the schema does not allow: it is on, and it reads our
        # schemas (2020-12, `$defs`).
        for tool, data in [
            ("list_orders", {"items": [{"order_id": 1}], "has_more": True}),
            ("list_orders", {"items": []}),
            ("get_order", {"error": {"kind": "oops", "message": "m", "retryable": False}}),
        ]:
            fake = mcp.types.CallToolResult(content=[], structured_content=data)
            try:
                await self.session.validate_tool_result(tool, fake)
            except RuntimeError:
                continue
            raise AssertionError(f"{tool}: the SDK accepted {data}")

    async def a_batch_validates(self):
        result = await self.call("cancel_orders", {"order_ids": ["ORD-404"]})
        assert not result.is_error
        data = self.validate("cancel_orders", result)
        assert (data["total"], data["succeeded"], data["failed"]) == (1, 0, 1), data


async def run(server):
    params = StdioServerParameters(command=server, args=[])
    results = []
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            checks = Checks(session)
            for name in [
                "every_tool_declares_an_output_schema",
                "pages_through_every_order_to_the_end",
                "a_cut_page_validates_and_keeps_text_and_data_in_step",
                "an_empty_page_is_not_an_error",
                "an_unknown_order_is_a_not_found_error",
                "a_known_order_is_the_order",
                "a_batch_validates",
                "the_sdk_rejects_data_that_breaks_the_schema",
            ]:
                try:
                    await asyncio.wait_for(getattr(checks, name)(), timeout=60)
                    results.append((name, None))
                except Exception:  # noqa: BLE001 - every failure is reported, then counted
                    results.append((name, traceback.format_exc()))
    return results


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python_client.py PATH_TO_MCP_SERVER")
    results = asyncio.run(run(sys.argv[1]))
    report("python_sdk", results)


if __name__ == "__main__":
    main()
