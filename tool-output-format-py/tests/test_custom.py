"""`Formatter.register` (a Python function as one tool's renderer) and `Formatter.format_rows`
(records from an iterable as one table with the true count).

Expected strings are the Rust library's for the same calls (`Formatter::register` and
`Formatter::format_rows`, printed by a Rust program), and `format_rows` is checked against
`format` of the whole list, which the Rust crate promises it equals.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from tool_output_format import Fetch, Formatter, MemoryStore, Shape


def lines(result):
    """A renderer: one line per item (a record's `id`)."""
    return "\n".join(str(x["id"]) if isinstance(x, dict) else x for x in result)


def test_register_replaces_one_tools_rendering():
    # Rust: Formatter::new().register("ping", |_| "pong".to_string()).format("ping", &()).
    fmt = Formatter().register("ping", lambda result: "pong")
    assert fmt.format("ping", None) == "pong"
    assert fmt.format("ping", [{"id": 1}]) == "pong"
    # Other tools, and the formatter it was called on, are unchanged.
    assert fmt.format("other", {"a": 1}) == "**other result**\n\n- a: 1"
    assert isinstance(fmt, Formatter)
    base = Formatter()
    base.register("ping", lambda result: "pong")
    assert base.format("ping", None) == "null"


def test_the_renderer_receives_the_redacted_shaped_json():
    seen = []

    def render(result):
        seen.append(result)
        return "ok"

    fmt = Formatter(redact_keys=["password"]).tool("t", shape=Shape(drop=["secret_*"])).register("t", render)
    assert fmt.format("t", [{"id": 1, "password": "pw", "secret_a": 2}, {"id": 2, "n": 1.5}]) == "ok"
    assert seen == [[{"id": 1, "password": "[redacted]"}, {"id": 2, "n": 1.5}]]
    assert type(seen[0][1]["id"]) is int and type(seen[0][1]["n"]) is float


def test_the_renderers_text_keeps_the_tools_caps():
    # Rust: max_lines(2), a renderer writing one line per item, ["a", "b", "c"].
    fmt = Formatter(max_lines=2).register("log", lines)
    assert fmt.format("log", ["a", "b", "c"]) == "[Truncated to 2 lines of 3 total]\n\na\nb"
    out = fmt.format_with_report("log", ["a", "b", "c"])
    assert out.report["notices"] == ["[Truncated to 2 lines of 3 total]"]
    assert out.report["truncated"] is True
    # Registering keeps the tool's options, and .tool() keeps the renderer.
    per_tool = Formatter().tool("log", max_lines=1).register("log", lines)
    assert per_tool.format("log", ["a", "b"]) == "[Truncated to 1 lines of 2 total]\n\na"
    assert per_tool.tool("log", max_lines=3).format("log", ["a", "b"]) == "a\nb"
    # format_json is the data: no renderer there.
    assert fmt.format_json("log", ["a", "b", "c"]) == {
        "result": ["a", "b", "c"],
        "notices": [],
    }


def test_a_cut_renderer_text_stores_its_whole_text_and_resumes_it():
    store = MemoryStore(60)
    fmt = Formatter(max_lines=1, store=store).register("t", lines)
    rows = [{"id": 1}, {"id": 2}]
    out = fmt.format_with_report("t", rows)
    ref = out.report["reference"]
    assert out.text == (
        f'[Truncated to 1 lines of 2 total]\n\n1\n\nNext: call get_stored_result(ref="{ref}", cursor="1")'
    )
    assert store.get(ref) == "1\n2"
    page = Fetch(store, formatter=fmt).call(ref, "1")
    assert page.split("```")[1].strip() == "2", page


def test_renderer_errors_are_raised_by_the_call():
    with pytest.raises(ZeroDivisionError):
        Formatter().register("t", lambda result: 1 / 0).format("t", 1)
    with pytest.raises(TypeError) as info:
        Formatter().register("t", lambda result: 3).format_with_report("t", 1)
    assert str(info.value) == "a renderer returns the markdown as a str, got int"
    with pytest.raises(TypeError) as info:
        Formatter().register("t", "not a function")
    assert str(info.value) == "render is a callable: render(result) -> str"
    # A failed call leaves nothing behind: the next one renders.
    flaky = iter([ValueError("once"), None])

    def render(result):
        e = next(flaky)
        if e:
            raise e
        return "fine"

    fmt = Formatter().register("t", render)
    with pytest.raises(ValueError, match="once"):
        fmt.format("t", 1)
    assert fmt.format("t", 1) == "fine"
    assert Formatter().format("t", 1) == "1"


def test_renderers_may_format_and_run_on_many_threads():
    inner = Formatter(layout="compact")
    fmt = Formatter().register("t", lambda result: "rows:\n" + inner.format("", result))
    assert fmt.format("t", [{"a": 1}]) == "rows:\n|a|\n|-|\n|1|"
    # An inner renderer's error reaches the outer renderer, which may handle it.
    failing = Formatter().register("x", lambda result: 1 / 0)

    def outer(result):
        try:
            return failing.format("x", result)
        except ZeroDivisionError:
            return "handled"

    assert Formatter().register("t", outer).format("t", 1) == "handled"
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda i: fmt.format("t", [{"a": i}]), range(50)))
    assert got == [f"rows:\n|a|\n|-|\n|{i}|" for i in range(50)]


def test_focus_uses_the_renderer():
    fmt = Formatter().register("t", lambda result: "R")
    assert fmt.focus("anything").format("t", "a") == "R"
    assert fmt.focus("anything").format_with_report("t", "a").text == "R"


def test_format_rows_counts_a_long_stream():
    # Rust's doctest of Formatter::format_rows (a tenth of its rows), with a generator: only
    # the shown row is kept.
    fmt = Formatter(max_rows=1)
    rows = ({"id": i} for i in range(100_000))
    assert fmt.format_rows("t", rows) == "[Truncated to 1 rows of 100000 total]\n\n| id |\n|----|\n| 0  |"


ROWS = [{"id": i, "n": i * 2, **({"late": "x"} if i == 7 else {})} for i in range(10)]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"max_rows": 3},
        {"max_rows": 3, "layout": "csv"},
        {"max_rows": 2, "layout": "compact", "redact_keys": ["late"]},
        {"max_chars": 120},
        {"max_tokens": 30, "layout": "compact"},
        {"max_rows": 2, "shape": Shape(drop_empty=True, rename={"n": "double"})},
        {"max_rows": 3, "summarize": True, "sum": ["n"]},
    ],
)
def test_format_rows_is_format_of_the_whole_list(options):
    fmt = Formatter(**options)
    assert fmt.format_rows("t", iter(ROWS)) == fmt.format("t", ROWS)


def test_format_rows_cases():
    fmt = Formatter(max_rows=3)
    # A column first seen in a row that is not kept is still a column (and the count true).
    assert fmt.format_rows("t", iter(ROWS)) == (
        "[Truncated to 3 rows of 10 total]\n\n| id | n | late |\n|----|---|------|\n"
        "| 0  | 0 |      |\n| 1  | 2 |      |\n| 2  | 4 |      |"
    )
    # Items that are not records are a list, as format of the whole list gives.
    assert fmt.format_rows("t", iter(["a", "b", "c", "d", "e"])) == "- a\n- b\n- c\n- d\n- e"
    assert fmt.format_rows("t", iter([])) == "*(empty)*"
    # Any iterable: a tuple, a dict's values, a map.
    assert fmt.format_rows("t", ({"id": 1},)) == "| id |\n|----|\n| 1  |"
    assert fmt.format_rows("t", map(lambda i: {"id": i}, range(2))) == "| id |\n|----|\n| 0  |\n| 1  |"


def test_format_rows_with_a_store_keeps_every_row():
    store = MemoryStore(60)
    fmt = Formatter(max_rows=1, store=store)
    out = fmt.format_rows("t", ({"id": i} for i in range(3)))
    assert out.startswith("[Truncated to 1 rows of 3 total]\n\n| id |\n|----|\n| 0  |\n\nNext: call get_stored_result(")
    ref = out.split('ref="')[1].split('"')[0]
    assert store.get(ref) == [{"id": 0}, {"id": 1}, {"id": 2}]


def test_format_rows_errors():
    with pytest.raises(TypeError) as info:
        Formatter().format_rows("t", [{"id": 1}, {"at": object()}])
    assert str(info.value) == (
        "cannot render a value of type object at $[1].at: pass JSON-like values (dict, list, str, "
        "int, float, bool, None), dataclasses or pydantic models"
    )
    with pytest.raises(TypeError) as info:
        Formatter().format_rows("t", 5)
    assert str(info.value) == "'int' object is not iterable"

    def broken():
        yield {"id": 1}
        raise ConnectionError("the source closed")

    with pytest.raises(ConnectionError, match="the source closed"):
        Formatter().format_rows("t", broken())
