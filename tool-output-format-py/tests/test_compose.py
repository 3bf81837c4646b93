"""Options compose with the agent shapes (the Rust composition matrix's promises, from Python):
secrets are redacted inside pages, replies and batches; a shape changes the data, never the
envelope; the focused structured form keeps the focused rows."""

from tool_output_format import Batch, Formatter, NextAction, Page, Reply, Shape, ToolError

ROWS = [{"id": i, "password": f"pw-{i}", "meta": {"api_key": f"k-{i}"}} for i in range(3)]


def test_secrets_are_redacted_inside_every_envelope():
    fmt = Formatter(redact_keys=["password", "api_key"])
    page = Page(ROWS, has_more=True, next_cursor="c3", next_call=("list", "cursor"))
    reply = Reply(ROWS, next=[NextAction("close", args={"id": 1})])
    for result in (page, reply):
        text = fmt.format("list", result)
        data = str(fmt.format_json("list", result))
        for i in range(3):
            assert f"pw-{i}" not in text and f"k-{i}" not in text, text
            assert f"pw-{i}" not in data and f"k-{i}" not in data, data
        assert "[redacted]" in text


def test_a_shape_keeps_the_envelope():
    fmt = Formatter(shape=Shape(drop=["meta"], rename={"id": "ticket"}))
    page = Page(ROWS, has_more=True, next_cursor="c3", next_call=("list", "cursor"))
    text = fmt.format("list", page)
    assert text == (
        "| ticket | password |\n|--------|----------|\n| 0      | pw-0     |\n"
        "| 1      | pw-1     |\n| 2      | pw-2     |\n\n"
        'has_more: true\nnext_cursor: c3\nNext: call list(cursor="c3")'
    )
    err = fmt.format_with_report("get", ToolError("not_found", "no ticket 9"))
    assert err.is_error
    assert err.text.startswith("**get failed**")


def test_the_focused_structured_form_keeps_the_focused_rows():
    rows = [{"t": "printer"}, {"t": "refund late"}, {"t": "vpn"}]
    v = Formatter(max_rows=1).focus("refund").format_json("t", rows)
    assert v["result"] == [{"t": "refund late"}]
    assert v["notices"][0] == {
        "kind": "focus",
        "path": "",
        "text": '[Kept 1 of 3 rows relevant to "refund"]',
    }
