"""Page, ToolError (and exceptions), Batch, Reply, NextAction, ResourceRef.

Expected strings are the Rust library's output for the same values (its doctests, or a Rust
program making the same calls).
"""

import pytest

from tool_output_format import Batch, Formatter, NextAction, Page, Reply, ResourceRef, ToolError

fmt = Formatter()


def test_page():
    page = Page(["Ada", "Bob"], has_more=True, next_cursor="eyJvZmZzZXQiOjUwfQ", next_call=("list_contacts", "cursor"))
    assert fmt.format("list_contacts", page) == (
        "- Ada\n- Bob\n\nhas_more: true\nnext_cursor: eyJvZmZzZXQiOjUwfQ\n"
        'Next: call list_contacts(cursor="eyJvZmZzZXQiOjUwfQ")'
    )
    assert (len(page), page.has_more, page.next_cursor, page.total) == (2, True, "eyJvZmZzZXQiOjUwfQ", None)
    assert page.items == ["Ada", "Bob"]


def test_page_cut_by_a_cap_says_where_to_resume():
    page = Page(
        [{"id": i} for i in range(1, 5)],
        has_more=True,
        total=40,
        item_cursors=["a", "b", "c", "d"],
        next_call=("list", "cursor"),
    )
    assert Formatter(max_rows=2).format("list", page) == (
        "[Truncated to 2 rows of 4 total]\n\n| id |\n|----|\n| 1  |\n| 2  |\n\n"
        "has_more: true\nnext_cursor: c\ntotal: 40\n"
        "[Items 3-4 of this page were cut: next_cursor resumes at item 3]\n"
        'Next: call list(cursor="c")'
    )
    json_page = Page([{"id": 1}, {"id": 2}], has_more=True, next_cursor="c2")
    assert Formatter(max_rows=1).format_json("list", json_page) == {
        "result": {
            "items": [{"id": 1}],
            "has_more": True,
            "next_cursor": "c2",
            "notice": "[Item 2 of this page was cut and next_cursor skips it: to read it, repeat this call with a page size of at most 1]",
        },
        "notices": [{"kind": "rows", "path": "/items", "kept": 1, "total": 2, "text": "[Truncated to 1 rows of 2 total]"}],
    }


def test_page_next_call_with_a_next_action():
    page = Page(["a"], has_more=True, next_cursor="c2", next_call=(NextAction("list", {"limit": 50}), "cursor"))
    assert fmt.format("list", page) == '- a\n\nhas_more: true\nnext_cursor: c2\nNext: call list(limit=50, cursor="c2")'


def test_page_items_must_be_a_list():
    with pytest.raises(TypeError) as info:
        Page({"a": 1})
    assert str(info.value) == "Page items are a list (or tuple) of results"


def test_tool_error():
    err = ToolError("not_found", "order ORD-1 does not exist", hint="list_orders(customer_id=...) lists this customer's orders")
    out = fmt.format_with_report("get_order", err)
    assert out.is_error
    assert out.text == (
        "**get_order failed**\n\n- kind: not_found\n- message: order ORD-1 does not exist\n"
        "- retryable: false\n- hint: list_orders(customer_id=...) lists this customer's orders"
    )
    assert (err.kind, err.message, err.retryable, err.retry_after_secs) == ("not_found", "order ORD-1 does not exist", False, None)
    assert fmt.format("search", ToolError("rate_limited", "slow down", retry_after_secs=30)) == (
        "**search failed**\n\n- kind: rate_limited\n- message: slow down\n- retryable: true, after 30 s"
    )
    assert fmt.format("search", ToolError("unavailable", "down", retryable=False)) == (
        "**search failed**\n\n- kind: unavailable\n- message: down\n- retryable: false"
    )
    assert str(ToolError("timeout", "no answer")) == "timed out: no answer (retryable)"


def test_unknown_error_kind():
    with pytest.raises(ValueError) as info:
        ToolError("NotFound", "x")
    assert str(info.value) == (
        'unknown error kind "NotFound"; expected one of "invalid_input", "not_found", "permission_denied", '
        '"conflict", "rate_limited", "timeout", "unavailable", "cancelled", "internal"'
    )


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (FileNotFoundError(2, "No such file"), "not_found"),
        (KeyError("order 9"), "not_found"),
        (IndexError("out of range"), "not_found"),
        (PermissionError("no"), "permission_denied"),
        (TimeoutError("slow"), "timeout"),
        (ConnectionRefusedError("refused"), "unavailable"),
        (FileExistsError("there"), "conflict"),
        (ValueError("bad"), "invalid_input"),
        (TypeError("bad"), "invalid_input"),
        (RuntimeError("boom"), "internal"),
    ],
)
def test_exceptions_map_to_kinds(exc, kind):
    assert ToolError.from_exception(exc).kind == kind


def test_exceptions_render_as_errors():
    assert fmt.format("read", FileNotFoundError(2, "No such file", "x")) == (
        "**read failed**\n\n- kind: not_found\n- message: [Errno 2] No such file: 'x'\n- retryable: false"
    )
    assert fmt.format("read", KeyError("order 9")) == (
        "**read failed**\n\n- kind: not_found\n- message: 'order 9'\n- retryable: false"
    )
    out = fmt.format_with_report("read", RuntimeError("boom"))
    assert out.is_error
    assert out.text == "**read failed**\n\n- kind: internal\n- message: boom\n- retryable: false"
    # An exception without a message is named by its class.
    assert ToolError.from_exception(RuntimeError()).message == "RuntimeError"
    with pytest.raises(TypeError):
        ToolError.from_exception("not an exception")


def test_batch():
    batch = (
        Batch()
        .ok("a@example.com")
        .failed("c@example.com", ToolError("unavailable", "mailbox full"))
        .retry_call("send_invites", "emails")
    )
    assert fmt.format("send_invites", batch) == (
        "2 total, 1 succeeded, 1 failed\n\n"
        "| id            | kind        | message      | retryable |\n"
        "|---------------|-------------|--------------|-----------|\n"
        "| c@example.com | unavailable | mailbox full | true      |\n\n"
        'Next: call send_invites(emails=["c@example.com"])'
    )
    assert (batch.total, batch.succeeded, batch.failed_count, len(batch)) == (2, 1, 1, 2)
    # A batch is not an error, even when every item failed.
    assert not fmt.format_with_report("send", Batch().failed("a", ToolError("timeout", "x"))).is_error


def test_batch_methods_return_new_batches():
    empty = Batch()
    one = empty.ok("a")
    assert (empty.total, one.total) == (0, 1)


def test_batch_with_values_and_mixed_errors():
    batch = (
        Batch()
        .ok(1)
        .ok_with(2, {"sent": True})
        .failed(3, ToolError("timeout", "no answer"))
        .failed(4, ValueError("bad address"))
        .retry_call(NextAction("send", {"dry_run": False}), "ids")
    )
    assert fmt.format("send", batch) == (
        "4 total, 2 succeeded, 2 failed\n\n- failures:\n\n"
        "  | id | kind          | message     | retryable |\n"
        "  |----|---------------|-------------|-----------|\n"
        "  | 3  | timeout       | no answer   | true      |\n"
        "  | 4  | invalid_input | bad address | false     |\n"
        "- results:\n\n  | id | sent |\n  |----|------|\n  | 2  | true |\n\n"
        "Next: call send(dry_run=false, ids=[3])"
    )
    # A message alone is an `internal` error, as `ToolError::from(String)` in Rust.
    assert fmt.format("send", Batch().ok("a").failed("b", "it broke")) == (
        "2 total, 1 succeeded, 1 failed\n\n"
        "| id | kind     | message  | retryable |\n"
        "|----|----------|----------|-----------|\n"
        "| b  | internal | it broke | false     |"
    )
    with pytest.raises(TypeError):
        Batch().failed("a", 42)


def test_reply():
    reply = Reply(
        "job_9 queued",
        next=NextAction("check_job_status", {"job_id": "job_9"}, after_secs=30),
        links={"view": "https://jobs.example.com/9"},
    )
    assert fmt.format("start_job", reply) == (
        "```\njob_9 queued\n```\n\nLinks: [view](https://jobs.example.com/9)\n"
        'Next: call check_job_status(job_id="job_9") after 30 s'
    )
    full = Reply(
        {"id": 7},
        next=[NextAction("a", reason="to see more"), NextAction("b", {"n": 2, "tags": ["x", "y"]})],
        links=[("docs", "https://e.com/d")],
        references=ResourceRef("file:///tmp/report.csv", name="report", content_type="text/csv", size_bytes=123456),
    )
    assert fmt.format("get", full) == (
        "**get result**\n\n- id: 7\n\nLinks: [docs](https://e.com/d)\n"
        "Resource: report (text/csv, 123.5 kB) file:///tmp/report.csv\n"
        "Next: call a() -- to see more\n"
        'Next: call b(n=2, tags=["x","y"])'
    )


def test_reply_wraps_agent_shapes():
    reply = Reply(Page([{"id": 1}]), links={"all": "https://e.com"})
    assert fmt.format("list", reply) == "| id |\n|----|\n| 1  |\n\nhas_more: false\n\nLinks: [all](https://e.com)"
    failed = fmt.format_with_report("get", Reply(ToolError("not_found", "gone")))
    assert failed.is_error
    with pytest.raises(TypeError):
        Reply("x", next="not an action")


def test_next_action_and_resource_ref():
    action = NextAction("list", {"cursor": "c2", "limit": 50})
    assert action.line() == str(action) == 'Next: call list(cursor="c2", limit=50)'
    assert (action.tool, action.args) == ("list", {"cursor": "c2", "limit": 50})
    ref = ResourceRef("s3://b/k", name="k", size_bytes=2048)
    assert ref.line() == str(ref) == "Resource: k (2.0 kB) s3://b/k"
    assert ref.uri == "s3://b/k"


def test_agent_shapes_inside_data_are_their_json_form():
    out = Formatter().format_json("t", {"error": ToolError("not_found", "gone")})
    assert out["result"] == {"error": {"error": {"kind": "not_found", "message": "gone", "retryable": False}}}
