"""The MCP Inspector's command line (`@modelcontextprotocol/inspector` from npm, `--cli`)
drives `examples/mcp_server.rs` over stdio, one process per request, as a person would.

The Inspector calls tools through the official TypeScript SDK, which validates every
`structuredContent` (errors included) against the tool's `outputSchema` and fails the call when
it does not conform; this script validates each result again with `jsonschema` and checks what
it holds.

    python tests/clients/inspector_client.py PATH/TO/mcp-inspector target/debug/examples/mcp_server

`.ci/run` installs the Inspector under target/ and runs this script with the Python SDK's
virtual environment (for `jsonschema`). It prints libtest's lines so that CI counts its checks.
"""

import sys

from jsonschema import Draft202012Validator

from clients import call_flags, inspector
from libtest import report, run_checks

META_KEY = "tool-output-format/cuts"


class Inspector:
    def __init__(self, inspector, server):
        self.inspector = inspector
        self.server = server
        self.validators = {}

    def run(self, *args):
        return inspector(self.inspector, self.server, *args)

    def call(self, tool, **args):
        result = self.run(*call_flags(tool, args))
        data = result.get("structuredContent")
        assert data is not None, f"{tool}: no structuredContent: {result}"
        errors = [e.message for e in self.validators[tool].iter_errors(data)]
        assert not errors, f"{tool}: {errors}\n{data}"
        return result, data

    def lists_every_tools_output_schema(self):
        tools = self.run("--method", "tools/list")["tools"]
        assert sorted(t["name"] for t in tools) == ["cancel_orders", "get_order", "list_orders"]
        for tool in tools:
            schema = tool.get("outputSchema")
            assert schema is not None and schema["type"] == "object", tool
            self.validators[tool["name"]] = Draft202012Validator(schema)

    def pages_through_every_order_to_the_end(self):
        seen, cursor = [], None
        for _ in range(10):
            result, data = self.call("list_orders", **({} if cursor is None else {"cursor": cursor}))
            assert result.get("isError") is False, result
            seen += [o["order_id"] for o in data["items"]]
            if not data["has_more"]:
                break
            cursor = data["next_cursor"]
        assert len(seen) == 120 and len(set(seen)) == 120, len(seen)

    def a_cut_page_validates(self):
        result, data = self.call("list_orders", limit=120)
        shown = len(data["items"])
        assert 0 < shown < 120, shown
        assert data["has_more"] is True and data["next_cursor"] == str(shown), data
        notice = result["_meta"][META_KEY]["notices"][0]
        assert notice["kind"] == "rows" and notice["kept"] == shown, notice
        assert notice["text"] in result["content"][0]["text"]

    def an_unknown_order_is_a_not_found_error(self):
        result, data = self.call("get_order", order_id="ORD-404")
        assert result.get("isError") is True, result
        assert data["error"]["kind"] == "not_found", data

    def an_empty_page_is_not_an_error(self):
        result, data = self.call("list_orders", cursor="120")
        assert result.get("isError") is False, result
        assert data == {"items": [], "has_more": False, "total": 120}, data


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: inspector_client.py PATH_TO_MCP_INSPECTOR PATH_TO_MCP_SERVER")
    checks = Inspector(sys.argv[1], sys.argv[2])
    names = [
        "lists_every_tools_output_schema",
        "pages_through_every_order_to_the_end",
        "a_cut_page_validates",
        "an_unknown_order_is_a_not_found_error",
        "an_empty_page_is_not_an_error",
    ]
    report("inspector_cli", run_checks(checks, names))


if __name__ == "__main__":
    main()
