"""Formatter options, entry points and reports.

Every expected string is the Rust library's output for the same input and options (taken
from the runtime crate's doctests, or printed by a Rust program with the same calls), so
these tests check that Python and Rust give the same bytes.
"""

import pytest

from tool_output_format import Formatter, Page, ToolError, Shape

ORDERS = [
    {"id": 1, "status": "shipped", "total": 12.5},
    {"id": 2, "status": "pending", "total": 7},
]
TEAM = [
    {"name": "Alice", "role": "engineer", "team": "infra"},
    {"name": "Bob", "role": "PM", "team": "product"},
]


def test_spec_17_examples():
    fmt = Formatter(max_chars=4000, layout="compact", redact_keys=["password"])
    assert fmt.format("list_orders", [{"id": 1}, {"id": 2}]) == "|id|\n|-|\n|1|\n|2|"
    page = Page(ORDERS, has_more=True, next_cursor="c2", next_call=("list_orders", "cursor"))
    assert fmt.format("list_orders", page) == (
        "|id|status|total|\n|-|-|-|\n|1|shipped|12.5|\n|2|pending|7|\n\n"
        'has_more: true\nnext_cursor: c2\nNext: call list_orders(cursor="c2")'
    )
    err = ToolError("not_found", "order 9 does not exist", hint="list_orders")
    assert fmt.format("get_order", err) == (
        "**get_order failed**\n\n- kind: not_found\n- message: order 9 does not exist\n"
        "- retryable: false\n- hint: list_orders"
    )
    shaped = Formatter(shape=Shape(keep=["id"], drop=["*_url"], rename={"id": "order_id"}, drop_empty=True))
    rows = [{"id": 1, "html_url": "u", "n": None}, {"id": 2}]
    assert shaped.format("list_orders", rows) == "| order_id |\n|----------|\n| 1        |\n| 2        |"
    per_tool = fmt.tool("list_orders", max_rows=1)
    assert isinstance(per_tool, Formatter)
    assert per_tool.format("list_orders", ORDERS) == (
        "[Truncated to 1 rows of 2 total]\n\n|id|status|total|\n|-|-|-|\n|1|shipped|12.5|"
    )
    # Other tools keep the global options, and the original formatter is unchanged.
    assert per_tool.format("other", ORDERS) == "|id|status|total|\n|-|-|-|\n|1|shipped|12.5|\n|2|pending|7|"
    assert fmt.format("list_orders", ORDERS) == per_tool.format("other", ORDERS)


@pytest.mark.parametrize(
    ("options", "tool", "result", "want"),
    [
        ({}, "list_team", TEAM,
         "| name  | role     | team    |\n|-------|----------|---------|\n"
         "| Alice | engineer | infra   |\n| Bob   | PM       | product |"),
        ({}, "get_message", {"id": "msg_001", "latency_ms": 142},
         "**get_message result**\n\n- id: msg_001\n- latency_ms: 142"),
        ({}, "", {"a": 1}, "- a: 1"),
        ({}, "t", 42, "42"),
        ({}, "t", "a\nb", "```\na\nb\n```"),
        ({}, "t", [], "*(empty)*"),
        ({"max_lines": 1}, "t", "a\nb", "[Truncated to 1 lines of 2 total]\n\n```\na\n```"),
        ({"layout": "compact"}, "t", [{"a": 1, "bb": 2}], "|a|bb|\n|-|-|\n|1|2|"),
        ({"layout": "csv"}, "t", [{"id": 1, "note": "a, b"}, {"id": 2, "note": None}],
         'id,note\n1,"a, b"\n2,'),
        ({"layout": "aligned"}, "t", [{"a": "x|y", "b": "line1\nline2"}],
         "| a    | b              |\n|------|----------------|\n| x\\|y | line1<br>line2 |"),
        ({"max_lines": 2, "strategy": "tail"}, "t", "1\n2\n3",
         "[Truncated to the last 2 lines of 3 total]\n\n```\n2\n3\n```"),
        ({"max_lines": 4, "strategy": "head_tail"}, "t", "1\n2\n3\n4\n5\n6\n7\n8",
         "[Truncated to 4 lines of 8 total: the first 2 and the last 2]\n\n"
         "```\n1\n2\n… [4 lines omitted] …\n7\n8\n```"),
        ({"max_cell_chars": 3}, "t", {"a": "abcdefghijklmnopqrstuvwxyz"},
         "**t result**\n\n- a: abc…[+23 chars]"),
        ({"max_cell_chars": 5}, "t", [{"a": "abcdefghijkl", "b": 1}],
         "| a            | b |\n|--------------|---|\n| abcdefghijkl | 1 |"),
        ({"redact_keys": ["password", "api_key"]}, "t", {"user": "ada", "API_KEY": "k-1", "meta": {"password": "pw"}},
         "**t result**\n\n- user: ada\n- API_KEY: [redacted]\n- meta:\n  - password: [redacted]"),
        ({"max_rows": 1, "summarize": True, "sum": ["amount"]}, "t",
         [{"n": 1, "amount": 0.1, "s": "a"}, {"n": 5, "amount": 0.2, "s": "a"}, {"n": 3, "amount": 0.3, "s": "b"}],
         "[Truncated to 1 rows of 3 total]\n\n| n | amount | s |\n|---|--------|---|\n| 1 | 0.1    | a |\n\n"
         "[Summary of all 3 rows]\n- n: 1 to 5\n- amount: 0.1 to 0.3, sum 0.6"),
    ],
)
def test_options(options, tool, result, want):
    assert Formatter(**options).format(tool, result) == want


def big_rows():
    return [{"id": i, "name": f"user{i}", "ok": i % 2 == 0} for i in range(1000)]


def test_budgets():
    assert Formatter(max_chars=200).format("t", big_rows()) == (
        "[Truncated to 5 rows of 1000 total]\n\n| id | name  | ok    |\n|----|-------|-------|\n"
        "| 0  | user0 | true  |\n| 1  | user1 | false |\n| 2  | user2 | true  |\n"
        "| 3  | user3 | false |\n| 4  | user4 | true  |"
    )
    out = Formatter(max_tokens=60).format_with_report("t", big_rows())
    assert out.text == (
        "[Truncated to 2 rows of 1000 total]\n\n| id | name  | ok    |\n|----|-------|-------|\n"
        "| 0  | user0 | true  |\n| 1  | user1 | false |"
    )
    assert out.report["tokens"] <= 60


def test_tool_options_layer_over_global_ones():
    fmt = Formatter(layout="compact").tool("read_log", max_lines=2).tool("login", redact_keys=["token"])
    assert fmt.format("read_log", "a\nb\nc") == "[Truncated to 2 lines of 3 total]\n\n```\na\nb\n```"
    assert fmt.format("cat", "a\nb\nc") == "```\na\nb\nc\n```"
    assert fmt.format("login", {"user": "ada", "Token": "s3cr3t"}) == "**login result**\n\n- user: ada\n- Token: [redacted]"
    assert fmt.format("other", {"Token": "s3cr3t"}) == "**other result**\n\n- Token: s3cr3t"
    # A tool's options inherit the global layout.
    assert fmt.format("read_log", [{"a": 1}]) == "|a|\n|-|\n|1|"
    # Calling .tool again for the same tool replaces its options.
    again = fmt.tool("read_log", max_lines=1)
    assert again.format("read_log", "a\nb\nc") == "[Truncated to 1 lines of 3 total]\n\n```\na\n```"
    # Per-tool options as in SPEC 17: shape and budget too.
    shaped = Formatter().tool("t", shape=Shape(keep=["b"]), max_chars=1000)
    assert shaped.format("t", {"a": 1, "b": 2}) == "**t result**\n\n- b: 2"
    assert shaped.format("u", {"a": 1, "b": 2}) == "**u result**\n\n- a: 1\n- b: 2"



def test_for_agents_preset():
    # The same text as Rust's Formatter::for_agents() (its doctest pins this string).
    repo = {"id": 1, "name": "hello", "url": "https://api.github.com/repos/ada/hello",
            "hooks_url": "https://api.github.com/repos/ada/hello/hooks", "node_id": "R_kgDOAbCdEf",
            "homepage": None,
            "owner": {"login": "ada", "avatar_url": "https://avatars.githubusercontent.com/u/1?v=4"}}
    assert Formatter.for_agents().format("get_repo", repo) == (
        "**get_repo result**\n\n- name: hello\n- id: 1\n- owner:\n  - login: ada\n\n"
        "[Left out in summary detail: machine-only: url, hooks_url, avatar_url, node_id; empty: homepage. "
        'Call get_repo(detail="full") for them]'
    )
    # detail="full" (how a tool serves its detail argument) shows every field.
    full = Formatter.for_agents(detail="full").format("get_repo", repo)
    assert "- node_id: R_kgDOAbCdEf" in full and "[Left out" not in full
    # Options apply on top of the preset; per tool too.
    assert Formatter.for_agents(max_rows=1).format("t", [{"a": 1}, {"a": 2}]).startswith(
        "[Truncated to 1 rows of 2 total]"
    )
    assert "[Left out" not in Formatter.for_agents().tool("get_repo", detail="full").format("get_repo", repo)
    with pytest.raises(ValueError, match='unknown detail "most"'):
        Formatter(detail="most")


def test_format_json():
    rows = [{"id": i, "ok": i % 2 == 0} for i in range(1000)]
    assert Formatter(max_rows=2).format_json("t", rows) == {
        "result": [{"id": 0, "ok": True}, {"id": 1, "ok": False}],
        "notices": [{"kind": "rows", "path": "", "kept": 2, "total": 1000, "text": "[Truncated to 2 rows of 1000 total]"}],
    }
    fmt = Formatter(redact_keys=["password"])
    assert fmt.format_json("t", [{"id": 1, "password": "x"}]) == {
        "result": [{"id": 1, "password": "[redacted]"}],
        "notices": [],
    }
    assert Formatter().format_json("get", ToolError("not_found", "gone")) == {
        "result": {"error": {"kind": "not_found", "message": "gone", "retryable": False}},
        "notices": [],
    }


def test_format_with_report():
    out = Formatter().format_with_report("t", "a\nb")
    assert out.text == "```\na\nb\n```"
    assert str(out) == out.text
    assert out.report["bytes"] == 11
    assert out.report["lines"] == {"kept": 2, "total": 2}
    assert out.report["truncated"] is False
    assert out.is_error is False

    out = Formatter().format_with_report("t", [{"id": i} for i in range(500)])
    assert out.report["rows"] == {"kept": 100, "total": 500}
    assert out.report["chars"] == len(out.text)
    assert out.report["notices"] == ["[Truncated to 100 rows of 500 total]"]
    assert out.report["truncated"] is True
    assert isinstance(out.report["tokens"], int)


def test_a_budget_is_the_bound():
    # Issue 49: the default cap of 100 applies only without a budget; an explicit cap still does.
    rows = [{"id": i} for i in range(500)]
    assert Formatter().format("t", rows).startswith("[Truncated to 100 rows of 500 total]")
    md = Formatter(max_chars=60000).format("t", rows)
    assert "[Truncated" not in md and md.endswith("| 499 |")
    assert "[Truncated" not in Formatter.for_agents().format("t", rows)
    md = Formatter(max_chars=60000, max_rows=10).format("t", rows)
    assert md.startswith("[Truncated to 10 rows of 500 total]")

    err = Formatter().format_with_report("search", ToolError("timeout", "no answer in 10 s"))
    assert err.is_error is True
    batch_like = Formatter().format_with_report("search", Page([]))
    assert batch_like.is_error is False


def test_report_counts_failed_conversions():
    from tool_output_format import Convert

    fmt = Formatter(shape=Shape(convert={"at": Convert.epoch_seconds()}))
    out = fmt.format_with_report("t", [{"at": 1703203200}, {"at": "soon"}])
    assert out.text == "| at                   |\n|----------------------|\n| 2023-12-22T00:00:00Z |\n| soon                 |"
    assert out.report["conversions_failed"] == 1


def test_focus():
    fmt = Formatter(max_chars=160)
    page = (
        "# Shipping\nParcels leave the warehouse within two days.\n\n"
        "# Refunds\nRefunds take 5 days.\n\n"
        "# Careers\nWe are hiring engineers, designers and support staff in three cities."
    )
    assert fmt.focus("how long do refunds take").format("fetch_page", page) == (
        '[Kept 1 of 3 sections relevant to "how long do refunds take"]\n\n```\n'
        "[… 1 section omitted …]\n\n# Refunds\nRefunds take 5 days.\n\n"
        "[… 1 section omitted …]\n```"
    )
    tickets = [{"t": "refund asked"}, {"t": "vpn"}, {"t": "refund refund policy"}]
    rows = Formatter(max_rows=2, layout="compact")
    assert rows.focus("refund policy").format("t", tickets) == (
        '[Kept 2 of 3 rows relevant to "refund policy"]\n\n|t|\n|-|\n|refund asked|\n|refund refund policy|'
    )
    assert rows.focus("refund policy", row_order="ranked").format("t", tickets) == (
        '[Kept 2 of 3 rows relevant to "refund policy"]\n\n|t|\n|-|\n|refund refund policy|\n|refund asked|'
    )
    with pytest.raises(ValueError, match='unknown row order "best"; expected one of "data", "ranked"'):
        rows.focus("refund policy", row_order="best")
    out = Formatter(max_lines=3).focus("disk").format_with_report("t", "ok\nok\ndisk full\nok\nok")
    assert out.report["truncated"] is True
    assert out.report["lines"] == {"kept": 1, "total": 5}
    assert out.report["focus"] == {"notice": '[Kept 1 of 5 lines relevant to "disk"]', "kept": {"kept": 1, "total": 5}}
    assert Formatter().focus(" refund\n policy ").query == "refund policy"
    # Within its caps: unchanged.
    assert Formatter().focus("anything").format("t", "a\nb") == Formatter().format("t", "a\nb")


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"layout": "fancy"}, ValueError, 'unknown layout "fancy"; expected one of "aligned", "compact", "csv"'),
        ({"strategy": "middle"}, ValueError, 'unknown strategy "middle"; expected one of "head", "tail", "head_tail"'),
        ({"max_rows": -1}, ValueError, "max_rows: expected a count (an integer >= 0), got -1"),
        ({"max_rows": "5"}, TypeError, "max_rows is an int"),
        ({"redact_keys": "password"}, TypeError, "redact_keys is a list of str, not one str"),
        ({"shape": 3}, TypeError, "shape is a Shape (or a shape file's dict)"),
        # Python's own words: the options are the constructor's keyword-only parameters.
        ({"bogus": 1}, TypeError, "Formatter.__new__() got an unexpected keyword argument 'bogus'"),
        ({"fetch_tool": "get"}, ValueError, "fetch_tool names the tool that reads the store: give store= too"),
        ({"store": {}}, TypeError, "store is a MemoryStore or a RedisStore"),
    ],
)
def test_bad_options_raise(options, error, message):
    with pytest.raises(error) as info:
        Formatter(**options)
    assert str(info.value) == message


def test_bad_tool_options_raise():
    # One store serves every tool: `store` and `fetch_tool` are the formatter's only.
    with pytest.raises(TypeError) as info:
        Formatter().tool("t", fetch_tool="x")
    assert str(info.value) == "Formatter.tool() got an unexpected keyword argument 'fetch_tool'"
    with pytest.raises(TypeError) as info:
        Formatter().tool("t", store=None)
    assert str(info.value) == "Formatter.tool() got an unexpected keyword argument 'store'"
    with pytest.raises(ValueError) as info:
        Formatter().tool("t", layout="grid")
    assert str(info.value) == 'unknown layout "grid"; expected one of "aligned", "compact", "csv"'


def test_none_means_unset():
    assert Formatter(max_rows=None, layout=None).format("t", [{"a": 1}]) == "| a |\n|---|\n| 1 |"
    # ... but an unknown keyword is an error whatever its value.
    with pytest.raises(TypeError):
        Formatter(max_row=None)


def test_one_formatter_serves_many_threads():
    from concurrent.futures import ThreadPoolExecutor

    fmt = Formatter(layout="compact", max_rows=3)
    inputs = [[{"id": i, "n": j} for j in range(i)] for i in range(1, 40)]
    want = [fmt.format(f"t{i}", rows) for i, rows in enumerate(inputs)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda a: fmt.format(f"t{a[0]}", a[1]), enumerate(inputs)))
    assert got == want
    assert want[4] == "[Truncated to 3 rows of 5 total]\n\n|id|n|\n|-|-|\n|5|0|\n|5|1|\n|5|2|"
