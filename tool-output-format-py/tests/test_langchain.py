"""The LangChain example: markdown as the tool message content, the data as its artifact."""

import importlib.util
import pathlib

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "langchain_tool.py"
spec = importlib.util.spec_from_file_location("langchain_tool", EXAMPLE)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


def invoke(tool, args):
    return tool.invoke({"name": tool.name, "args": args, "id": "call_1", "type": "tool_call"})


def test_content_is_markdown_and_artifact_is_data():
    message = invoke(example.list_orders, {"status": "delivered"})
    assert message.tool_call_id == "call_1"
    assert message.status == "success"
    lines = message.content.split("\n")
    assert lines[:4] == ["|order_id|status|total|", "|-|-|-|", "|ORD-00002|delivered|74.99|", "|ORD-00005|delivered|185.99|"]
    assert len(lines) == 2 + 20
    assert message.artifact["notices"] == []
    assert len(message.artifact["result"]) == 20
    assert message.artifact["result"][0] == {"order_id": "ORD-00002", "status": "delivered", "total": "74.99"}


def test_budget_cuts_the_content_and_says_so():
    message = invoke(example.list_orders, {})
    assert len(message.content) <= 1500
    assert message.content.split("\n")[0].endswith(" rows of 60 total]")
    assert message.artifact["notices"][0]["kind"] == "rows"
    assert message.artifact["notices"][0]["total"] == 60


def test_errors_are_error_messages():
    message = invoke(example.get_order, {"order_id": "ORD-99999"})
    assert message.status == "error"
    assert message.content == (
        "**get_order failed**\n\n- kind: not_found\n- message: order ORD-99999 does not exist\n"
        "- retryable: false\n- hint: list_orders()"
    )
    found = invoke(example.get_order, {"order_id": "ORD-00001"})
    assert found.content == "**get_order result**\n\n- order_id: ORD-00001\n- status: shipped\n- total: 37.99"
