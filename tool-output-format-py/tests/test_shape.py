"""Shape and Convert, from keyword arguments and from JSON and TOML shape files."""

import pytest

from tool_output_format import Convert, Formatter, Shape, ShapeError

ISSUES = [
    {
        "url": "https://api.example.com/1",
        "number": 1,
        "title": "Crash",
        "user": {"login": "ada", "id": 7},
        "created_at": "2023-12-22T01:00:00+01:00",
    }
]

ORDERS_JSON = """{
    "keep": ["id", "order_status", "creation_date", "amount"],
    "rename": {"id": "order_id", "order_status": "status", "creation_date": "created_at"},
    "convert": {
        "id": {"prefix": "ORD-"},
        "order_status": {"map": {"in_transit": "shipped", "fulfilled": "delivered"}},
        "creation_date": "timestamp",
        "amount": {"fixed": 2}
    }
}"""

ORDERS_TOML = """
keep = ["id", "order_status", "creation_date", "amount"]

[rename]
id = "order_id"
order_status = "status"
creation_date = "created_at"

[convert]
id = { prefix = "ORD-" }
order_status = { map = { in_transit = "shipped", fulfilled = "delivered" } }
creation_date = "timestamp"
amount = { fixed = 2 }
"""

V3 = {"id": "12345", "order_status": "in_transit", "creation_date": "2023-12-22 00:00:00+00:00", "amount": "49.99"}
V3_SHAPED = {"order_id": "ORD-12345", "status": "shipped", "created_at": "2023-12-22T00:00:00Z", "amount": "49.99"}


def test_shape_from_keywords():
    shape = Shape(
        keep=["number", "title", "user.login", "created_at"],
        rename={"user.login": "author"},
        convert={"created_at": Convert.timestamp()},
    )
    fmt = Formatter().tool("search_issues", shape=shape)
    assert fmt.format("search_issues", ISSUES) == (
        "| number | title | author | created_at           |\n"
        "|--------|-------|--------|----------------------|\n"
        "| 1      | Crash | ada    | 2023-12-22T00:00:00Z |"
    )


def test_nested_paths_arrays_and_converter_names():
    shape = Shape(keep=["id", "user.login", "labels.name", "at"], rename={"user.login": "author"}, convert={"at": "epoch_millis"})
    rows = [{"id": 1, "user": {"login": "ada"}, "labels": [{"name": "bug"}, {"name": "docs"}], "at": 1703203200000}]
    assert Formatter(shape=shape).format("t", rows) == (
        "| id | author | labels.name | at                   |\n"
        "|----|--------|-------------|----------------------|\n"
        "| 1  | ada    | bug, docs   | 2023-12-22T00:00:00Z |"
    )


def test_flatten_and_converters():
    rows = [{"id": 1, "user": {"login": "ada", "id": 9}}, {"id": 2, "user": {"login": "bo", "id": 8}}]
    assert Formatter(shape=Shape(flatten=True), layout="compact").format("t", rows) == (
        "|id|user.login|user.id|\n|-|-|-|\n|1|ada|9|\n|2|bo|8|"
    )
    shape = Shape(
        convert={
            "price": Convert.cents(),
            "st": Convert.map({1: "open", 2: "closed"}),
            "n": Convert.fixed(1),
            "id": Convert.prefix("T-"),
        }
    )
    assert Formatter(shape=shape, layout="compact").format("t", [{"id": 5, "price": 4999, "st": 2, "n": "3.14159"}]) == (
        "|id|price|st|n|\n|-|-|-|-|\n|T-5|49.99|closed|3.1|"
    )


@pytest.mark.parametrize(
    ("convert", "value", "want"),
    [
        (Convert.epoch_seconds(), 1703203200, "2023-12-22T00:00:00Z"),
        (Convert.epoch_millis(), 1703203200000, "2023-12-22T00:00:00Z"),
        (Convert.timestamp(), "2023-12-22T01:00:00+01:00", "2023-12-22T00:00:00Z"),
        (Convert.cents(), 4999, "49.99"),
        (Convert.fixed(2), 50.1, "50.10"),
        (Convert.map({3: "shipped"}), 3, "shipped"),
        (Convert.map({"3": "shipped"}), 3, "shipped"),
        (Convert.prefix("ORD-"), 12345, "ORD-12345"),
        (Convert.prefix("ORD-"), "ORD-12345", "ORD-12345"),
    ],
)
def test_convert_apply(convert, value, want):
    assert convert.apply(value) == want


def test_convert_apply_unreadable():
    with pytest.raises(ValueError) as info:
        Convert.cents().apply("n/a")
    assert str(info.value) == 'cents cannot read "n/a"'
    with pytest.raises(ValueError):
        Convert.prefix("")


def test_shape_mistakes_raise_shape_error():
    with pytest.raises(ShapeError) as info:
        Shape(keep=["title", "user..login"])
    assert str(info.value) == (
        "shape keep[1]: malformed path `user..login`: it has an empty key between two dots; "
        "write keys separated by single dots, like `user.login`"
    )
    assert isinstance(info.value, ValueError)
    with pytest.raises(ShapeError) as info:
        Shape(convert={"at": "epoch"})
    assert str(info.value).startswith('shape convert["at"]: unknown converter "epoch"; expected "epoch_seconds"')
    with pytest.raises(TypeError):
        Shape(convert={"at": 3})


def test_essential_and_minor_from_keywords_and_files():
    shape = Shape(keep=["id", "title", "etag"], essential=["title"], minor=["etag"])
    assert repr(shape) == repr(Shape.from_dict({"keep": ["id", "title", "etag"], "essential": ["title"], "minor": ["etag"]}))
    # Marks change no value: only what a budget keeps first.
    assert shape.apply({"id": 1, "title": "t", "etag": "e"}) == {"id": 1, "title": "t", "etag": "e"}
    with pytest.raises(ShapeError) as info:
        Shape(essential=["id"], minor=["id"])
    assert str(info.value) == "shape minor[0]: `id` is marked both essential and minor; give it one mark"


def test_shape_files_json_toml_and_dict_agree(tmp_path):
    from_json = Shape.from_json(ORDERS_JSON)
    from_toml = Shape.from_toml(ORDERS_TOML)
    json_file = tmp_path / "orders.json"
    json_file.write_text(ORDERS_JSON)
    toml_file = tmp_path / "orders.TOML"
    toml_file.write_text(ORDERS_TOML)
    import json

    shapes = [from_json, from_toml, Shape.from_file(json_file), Shape.from_file(str(toml_file)), Shape.from_dict(json.loads(ORDERS_JSON))]
    for shape in shapes:
        assert shape.apply(V3) == V3_SHAPED
        assert Formatter(shape=shape, layout="compact").format("t", [V3]) == (
            "|order_id|status|created_at|amount|\n|-|-|-|-|\n|ORD-12345|shipped|2023-12-22T00:00:00Z|49.99|"
        )
    # A dict passed as shape= is read as a shape file.
    assert Formatter(shape=json.loads(ORDERS_JSON)).format("t", [V3]) == Formatter(shape=from_toml).format("t", [V3])


def test_shape_file_mistakes(tmp_path):
    with pytest.raises(ShapeError) as info:
        Shape.from_json('{"keep": ["a"], "dorp": ["b"]}')
    assert str(info.value) == (
        'shape "dorp": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`'
    )
    with pytest.raises(ShapeError) as info:
        Shape.from_dict({"convert": {"amount": {"fixed": "2"}}})
    assert str(info.value) == 'shape convert["amount"].fixed: `fixed` takes the number of decimals, 0 to 255, found the string "2"'
    with pytest.raises(ShapeError) as info:
        Shape.from_toml('keep = ["id"]\ndrop_empty = yes')
    assert str(info.value) == "shape line 2 column 14: not valid TOML: string values must be quoted, expected literal string"
    bad = tmp_path / "bad.toml"
    bad.write_text("[rename]\nuser.login = \"author\"\n")
    with pytest.raises(ShapeError) as info:
        Shape.from_file(bad)
    assert str(info.value) == f'{bad}: shape rename["user"]: the new name is a string, found an object'
    with pytest.raises(OSError):
        Shape.from_file(tmp_path / "missing.json")
