"""The type stub describes the module: the same public names, and the same methods."""

import ast
import pathlib

import tool_output_format

STUB = pathlib.Path(__file__).resolve().parent.parent / "tool_output_format.pyi"
TYPE_ALIASES = {"Layout", "Strategy", "ErrorKind"}


def stub_classes():
    tree = ast.parse(STUB.read_text())
    classes = {}
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return classes, names


def test_stub_names_match_the_module():
    classes, names = stub_classes()
    # (`tool_output_format.tool_output_format` is the native module the package re-exports.)
    public = {n for n in dir(tool_output_format) if not n.startswith("_")} - {"tool_output_format"}
    assert public == set(classes) | (names - TYPE_ALIASES) - {"__version__"}
    assert tool_output_format.__version__ == "0.1.0"


def test_stub_methods_exist():
    classes, _ = stub_classes()
    for name, methods in classes.items():
        cls = getattr(tool_output_format, name)
        for method in methods - {"__init__"}:
            assert hasattr(cls, method), f"{name}.{method}"
        # And every public method of the class is in the stub.
        if not issubclass(cls, BaseException):
            actual = {m for m in dir(cls) if not m.startswith("_")}
            assert actual == methods - {"__init__", "__len__"}, name


def test_classes_have_docstrings():
    assert tool_output_format.__doc__.startswith("Render LLM agent tool results as markdown")
    for name in ("Formatter", "Shape", "Convert", "Page", "ToolError", "Batch", "Reply", "NextAction", "ResourceRef", "MemoryStore"):
        assert getattr(tool_output_format, name).__doc__, name
