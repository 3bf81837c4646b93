"""Every option of the Rust options table (`OPTION_KEYS`) is a keyword argument of
`Formatter(...)`, `Formatter.for_agents(...)` and `Formatter.tool(...)`, under the same name,
and reaches the Rust options: a face that lacks one fails here."""

import inspect

import pytest

import tool_output_format
from tool_output_format import Formatter, Shape

OPTION_KEYS = tool_output_format._OPTION_KEYS

# A value of each option that changes its default (the table's kinds, as Python gives them).
SAMPLES = {
    "max_lines": 1,
    "max_rows": 1,
    "max_cell_chars": 1,
    "max_chars": 1,
    "max_tokens": 1,
    "layout": "csv",
    "strategy": "tail",
    "redact_keys": ["a"],
    "shape": Shape(keep=["b"]),
    "summarize": True,
    "sum": ["a"],
    "detail": "full",
    "salience": True,
}


def keywords(fn):
    return {
        name
        for name, p in inspect.signature(fn).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }


@pytest.mark.parametrize(
    "fn", [Formatter, Formatter.for_agents, Formatter().tool], ids=["Formatter", "for_agents", "tool"]
)
def test_every_option_of_the_table_is_a_keyword(fn):
    assert OPTION_KEYS, "the table is exposed"
    missing = [k for k in OPTION_KEYS if k not in keywords(fn)]
    assert not missing, f"keywords missing: {missing}"


def test_every_option_reaches_the_formatter():
    assert set(SAMPLES) == set(OPTION_KEYS), "a sample value for every option"
    rows = [{"a": "x" * 30, "b": i} for i in range(3)]
    for name in OPTION_KEYS:
        # Each option is read (a value of no option's type is refused, naming it) ...
        with pytest.raises(TypeError, match=name):
            Formatter(**{name: object()})
        # ... and accepted globally and per tool, the two alike.
        glob = Formatter(**{name: SAMPLES[name]})
        tool = Formatter().tool("t", **{name: SAMPLES[name]})
        assert glob.format("t", rows) == tool.format("t", rows), name
    # The same name as the Rust table, the same value words: `head-tail` reads as `head_tail`.
    text = "1\n2\n3\n4"
    assert Formatter(max_lines=2, strategy="head-tail").format("t", text) == Formatter(
        max_lines=2, strategy="head_tail"
    ).format("t", text)


def test_a_bad_count_is_refused_in_the_library_s_words():
    # The same words as `tof --max-rows=-1` and the proxy's TOML: the library checks counts.
    counts = [name for name, sample in SAMPLES.items() if type(sample) is int]
    assert counts
    for name in counts:
        with pytest.raises(ValueError) as info:
            Formatter(**{name: -1})
        assert str(info.value) == f"{name}: expected a count (an integer >= 0), got -1"
