"""Python values as results: JSON-like values, dataclasses, pydantic models, and the errors
for values without a JSON form."""

import dataclasses
import datetime
import enum
import math

import pytest

from tool_output_format import Formatter

fmt = Formatter()


def test_json_like_values():
    value = {
        "name": "x",
        "tags": ("a", "b"),
        "nested": {"k": None, "e": ""},
        "big": 2**64,
        "neg": -(2**63),
        "u": 2**64 - 1,
        "f": 1.5,
        "nan": math.nan,
        "rows": [{"a": 1}, {"a": 2}],
    }
    assert fmt.format("t", value) == (
        "**t result**\n\n- name: x\n- tags: a, b\n- nested:\n  - k:\n  - e:\n"
        "- big: 18446744073709551616\n- neg: -9223372036854775808\n- u: 18446744073709551615\n"
        "- f: 1.5\n- nan:\n- rows:\n\n  | a |\n  |---|\n  | 1 |\n  | 2 |"
    )
    assert fmt.format_json("t", {"big": 2**64, "inf": math.inf})["result"] == {"big": "18446744073709551616", "inf": None}


def test_keys_as_json_writes_them():
    # (`1` and `True` are one key in a Python dict.)
    assert fmt.format("", {1: "int", 1.5: "float", None: "none"}) == "- 1: int\n- 1.5: float\n- null: none"
    assert fmt.format("", {True: "bool", False: "no"}) == "- true: bool\n- false: no"
    with pytest.raises(TypeError) as info:
        fmt.format("t", {"a": {(1, 2): "tuple key"}})
    assert str(info.value).startswith("cannot render a key of type tuple at $.a:")


def test_scalar_lists():
    assert fmt.format("t", ["a", 1, None, True, "", [1, 2]]) == "- a\n- 1\n- null\n- true\n-\n- 1, 2"


class Status(enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


@dataclasses.dataclass
class User:
    login: str


@dataclasses.dataclass
class Issue:
    number: int
    user: User
    status: Status
    created: datetime.datetime


ISSUE = Issue(1, User("ada"), Status.OPEN, datetime.datetime(2023, 12, 22, tzinfo=datetime.timezone.utc))
ISSUE_DICT = {"number": 1, "user": {"login": "ada"}, "status": "open", "created": "2023-12-22T00:00:00Z"}


def test_dataclasses_render_as_their_dict():
    assert fmt.format("get_issue", ISSUE) == fmt.format("get_issue", ISSUE_DICT)
    assert fmt.format("get_issue", ISSUE) == (
        "**get_issue result**\n\n- number: 1\n- user:\n  - login: ada\n- status: open\n"
        "- created: 2023-12-22T00:00:00Z"
    )
    assert fmt.format("list", [ISSUE, ISSUE]) == fmt.format("list", [ISSUE_DICT, ISSUE_DICT])
    # The class itself is not an instance.
    with pytest.raises(TypeError):
        fmt.format("t", Issue)


def test_pydantic_models_render_as_their_json_dump():
    import pydantic

    class PUser(pydantic.BaseModel):
        login: str

    class PIssue(pydantic.BaseModel):
        number: int
        user: PUser
        status: Status
        created: datetime.datetime

    issue = PIssue(number=1, user=PUser(login="ada"), status=Status.OPEN, created=ISSUE.created)
    assert fmt.format("get_issue", issue) == fmt.format(
        "get_issue", {"number": 1, "user": {"login": "ada"}, "status": "open", "created": "2023-12-22T00:00:00Z"}
    )


def test_values_without_a_json_form():
    with pytest.raises(TypeError) as info:
        fmt.format("t", {"a": [1, {"b c": object()}]})
    assert str(info.value) == (
        'cannot render a value of type object at $.a[1]["b c"]: pass JSON-like values '
        "(dict, list, str, int, float, bool, None), dataclasses or pydantic models"
    )
    with pytest.raises(TypeError):
        fmt.format("t", {1, 2})


def test_cycles_and_deep_values():
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError) as info:
        fmt.format("t", loop)
    assert str(info.value).startswith("the value nests deeper than 1000 levels at $[0][0]")
    # Deep but finite values render: the renderer cuts at 32 levels and counts the rest.
    deep = "leaf"
    for _ in range(100):
        deep = [deep]
    assert "[Truncated at depth 32: " in fmt.format("t", deep)


def test_decimal_uuid_path_and_utc_as_rust_writes_them():
    """One value, one form (SPEC 18): the text forms Rust's rust_decimal, uuid, PathBuf and
    RFC 3339 (UTC as `Z`) give."""
    import decimal
    import pathlib
    import uuid

    v = {
        "amount": decimal.Decimal("12.50"),
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        "path": pathlib.Path("/tmp/a b.txt"),
        "at": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
        "local": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
    }
    assert fmt.format_json("t", v)["result"] == {
        "amount": "12.50",
        "id": "12345678-1234-5678-1234-567812345678",
        "path": "/tmp/a b.txt",
        "at": "2024-01-02T03:04:05Z",
        "local": "2024-01-02T03:04:05+02:00",
    }
