"""MemoryStore: the full result of a cut output, kept for the model to fetch."""

import pytest

import re

from tool_output_format import Fetch, Formatter, MemoryStore, StoreError, ToolError


def test_cut_results_are_stored():
    store = MemoryStore(600)
    fmt = Formatter(max_rows=1, store=store, fetch_tool="fetch_full")
    rows = [{"id": 1}, {"id": 2}]
    out = fmt.format_with_report("t", rows)
    reference = out.report["reference"]
    assert reference.startswith("r_") and len(reference) == 28
    assert out.text == (
        "[Truncated to 1 rows of 2 total]\n\n| id |\n|----|\n| 1  |\n\n"
        f'Next: call fetch_full(ref="{reference}", cursor="1")'
    )
    assert store.get(reference) == rows
    assert store.fetch(reference) == rows
    assert len(store) == 1 and store.stored_bytes > 0
    # A result that was not cut is not stored.
    assert fmt.format_with_report("t", rows[:1]).report["reference"] is None
    assert len(store) == 1


def test_default_fetch_tool():
    out = Formatter(max_rows=1, store=MemoryStore(60)).format("t", [{"id": 1}, {"id": 2}])
    assert '\nNext: call get_stored_result(ref="r_' in out


def test_unknown_references():
    store = MemoryStore(60)
    with pytest.raises(StoreError) as info:
        store.get("r_nope")
    assert str(info.value) == (
        'reference "r_nope" is unknown: references look like "r_" followed by 26 lowercase letters and digits; '
        "copy it exactly from the result that gave it, or call the original tool again"
    )
    assert isinstance(info.value, Exception) and not isinstance(info.value, ValueError)
    err = store.fetch("r_aaaaaaaaaaaaaaaaaaaaaaaaaa")
    assert isinstance(err, ToolError) and err.kind == "not_found"
    assert Formatter().format("get_stored_result", err) == (
        "**get_stored_result failed**\n\n- kind: not_found\n"
        '- message: reference "r_aaaaaaaaaaaaaaaaaaaaaaaaaa" is unknown: this store never issued it, '
        "or it expired long ago; check that it was copied exactly, or call the original tool again\n"
        "- retryable: false"
    )


def test_put_and_limits():
    store = MemoryStore(60, max_bytes=4)
    with pytest.raises(StoreError):
        store.put("hello")  # 7 bytes of JSON
    assert MemoryStore(1.5).ttl_secs == 1.5
    with pytest.raises(ValueError):
        MemoryStore(-1)
    big = MemoryStore(60)
    assert big.get(big.put({"a": [1, 2]})) == {"a": [1, 2]}


NEXT = re.compile(r'Next: call get_stored_result\(ref="(r_[a-z0-9]{26})"(?:, cursor="([^"]+)")?\)')


def test_fetch_walks_a_cut_result_to_the_last_row():
    """SPEC 19: `Fetch(store, tool, formatter=fmt).call(ref, cursor)` resumes where the text
    stopped; following the Next lines reaches every row once and stores nothing again."""
    store = MemoryStore(600)
    fmt = Formatter(max_rows=10, store=store, redact_keys=["token"])
    rows = [{"id": i, "token": f"secret-{i}"} for i in range(1, 31)]
    text = fmt.format("list_rows", rows)
    fetch = Fetch(store, "get_stored_result", formatter=fmt)
    assert fetch.tool == "get_stored_result"
    seen = [int(i) for i in re.findall(r"^\| (\d+) ", text, re.M)]
    reference = NEXT.search(text).group(1)
    calls = 0
    while (m := NEXT.search(text)) is not None:
        assert text.count("Next:") == 1
        assert "secret-" not in text
        text = fetch.call(m.group(1), cursor=m.group(2))
        seen += [int(i) for i in re.findall(r"^\| (\d+) ", text, re.M)]
        calls += 1
        assert calls < 10
    assert seen == list(range(1, 31))
    assert calls == 2
    assert len(store) == 1
    # An int cursor works too; an unknown reference is the tool's error text.
    assert "| 21 " in fetch.call(reference, cursor=20)
    assert fetch.call("r_aaaaaaaaaaaaaaaaaaaaaaaaaa").startswith("**get_stored_result failed**")


def test_fetch_after_shortened_values_serves_no_row_twice_and_every_value_whole():
    """A table whose first text also shortened values: its Next line resumes at the first
    row not shown, the fetch serves the rows from there, then the shortened values whole."""
    store = MemoryStore(600)
    fmt = Formatter(max_chars=900, store=store)
    bodies = {i: f"body {i}: " + "lorem ipsum " * (i % 5 * 4 + 2) for i in range(1, 31)}
    text = fmt.format("list_issues", [{"id": i, "body": b} for i, b in bodies.items()])
    assert "…[+" in text
    seen = [int(i) for i in re.findall(r"^\| (\d+) ", text, re.M)]
    next_line = re.search(r'cursor="([^"]+)"\)$', text)
    assert next_line.group(1).split(";")[0] == str(len(seen))
    fetch = Fetch(store, "get_stored_result", formatter=fmt)
    pages = [text]
    while (m := NEXT.search(text)) is not None:
        text = fetch.call(m.group(1), cursor=m.group(2))
        if not re.search(r"^\| row ", text, re.M):
            seen += [int(i) for i in re.findall(r"^\| (\d+) ", text, re.M)]
        pages.append(text)
        assert len(pages) < 60
    assert seen == list(range(1, 31))
    served = "\n".join(pages)
    for body in bodies.values():
        assert body.strip() in served


def test_fetch_serves_a_stored_text_as_text():
    store = MemoryStore(600)
    fmt = Formatter(max_chars=400, store=store)
    original = "".join(f"    line {i} = `code` + 1\n" for i in range(200))
    text = fmt.format("read_file", original)
    fetch = Fetch(store, "get_stored_result", formatter=fmt)
    joined = ""
    while True:
        assert len(text) <= 400
        body = re.search(r"^(`{3,})\n(.*?)^\1$", text, re.M | re.S).group(2)
        joined += body
        m = NEXT.search(text)
        if m is None:
            break
        text = fetch.call(m.group(1), cursor=m.group(2))
    assert joined == original
