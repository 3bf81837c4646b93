"""The type stub describes the module: the same public names, the same methods and properties,
and the same signatures (parameter names, kinds, order and defaults) as `inspect.signature`
reads from the compiled module, so the two cannot drift.

The stub writes the Formatter options once, as TypedDicts used through `**options:
Unpack[...]`; here they are expanded into the keyword-only parameters (default `None`) that
the runtime lists.
"""

import ast
import inspect
import pathlib

import pytest

import tool_output_format

STUB = pathlib.Path(__file__).resolve().parent.parent / "tool_output_format.pyi"
TYPE_ALIASES = {"Layout", "Strategy", "Detail", "ErrorKind"}
P = inspect.Parameter


def parse_stub():
    """Module-level names, the stub-only TypedDicts (`_Name`), and the public classes."""
    tree = ast.parse(STUB.read_text())
    names, typed_dicts, classes = set(), {}, {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            if "TypedDict" in bases or any(b in typed_dicts for b in bases):
                typed_dicts[node.name] = node
            else:
                classes[node.name] = node
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, typed_dicts, classes


NAMES, TYPED_DICTS, CLASSES = parse_stub()


def typed_dict_fields(name):
    """A TypedDict's fields, its bases' first: `[(name, docstring)]`."""
    node = TYPED_DICTS[name]
    fields = []
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in TYPED_DICTS:
            fields += typed_dict_fields(base.id)
    body = node.body
    for i, item in enumerate(body):
        if isinstance(item, ast.AnnAssign):
            doc = body[i + 1] if i + 1 < len(body) else None
            text = doc.value.value if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) else None
            fields.append((item.target.id, text))
    return fields


def default(node):
    return P.empty if node is None else ast.literal_eval(node)


def stub_signature(fn):
    """A stub function's parameters as `[(name, kind, default)]`, `**options: Unpack[X]`
    expanded, and whether each parameter and the return are annotated."""
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + a.defaults
    params = []
    for i, (arg, d) in enumerate(zip(positional, defaults)):
        kind = P.POSITIONAL_ONLY if i < len(a.posonlyargs) else P.POSITIONAL_OR_KEYWORD
        params.append((arg, kind, default(d)))
    if a.vararg:
        params.append((a.vararg, P.VAR_POSITIONAL, P.empty))
    params += [(arg, P.KEYWORD_ONLY, default(d)) for arg, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        ann = a.kwarg.annotation
        if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name) and ann.value.id == "Unpack":
            fields = typed_dict_fields(ann.slice.id)
            params += [(ast.arg(arg=name, annotation=ast.Name("TypedDict")), P.KEYWORD_ONLY, None) for name, _ in fields]
        else:
            params.append((a.kwarg, P.VAR_KEYWORD, P.empty))
    decorators = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
    if "staticmethod" not in decorators:
        assert params and params[0][0].arg == "self", fn.name
        params = params[1:]
    for arg, _, _ in params:
        assert arg.annotation is not None, f"{fn.name}: {arg.arg} has no annotation in the stub"
    assert fn.returns is not None, f"{fn.name}: no return annotation in the stub"
    return [(arg.arg, kind, d) for arg, kind, d in params]


def runtime_signature(obj, drop_self):
    params = list(inspect.signature(obj).parameters.values())
    if drop_self:
        assert params[0].name == "self"
        params = params[1:]
    return [(p.name, p.kind, p.default) for p in params]


def members(cls_node):
    """The stub class's functions by name, with their decorators."""
    out = {}
    for n in cls_node.body:
        if isinstance(n, ast.FunctionDef):
            out[n.name] = (n, {d.id for d in n.decorator_list if isinstance(d, ast.Name)})
    return out


def test_stub_names_match_the_module():
    # (`tool_output_format.tool_output_format` is the native module the package re-exports.)
    public = {n for n in dir(tool_output_format) if not n.startswith("_")} - {"tool_output_format"}
    assert public == set(CLASSES) | (NAMES - TYPE_ALIASES) - {"__version__"}
    assert tool_output_format.__version__ == "0.1.0"
    # The options' TypedDicts are the stub's only: private names, absent at run time.
    assert set(TYPED_DICTS) == {"_ToolOptions", "_FormatterOptions"}
    assert not any(hasattr(tool_output_format, n) for n in TYPED_DICTS)


def test_stub_members_match_the_classes():
    for name, node in CLASSES.items():
        cls = getattr(tool_output_format, name)
        stub = members(node)
        for method, (_, decorators) in stub.items():
            assert hasattr(cls, method), f"{name}.{method}"
            static = inspect.getattr_static(cls, method)
            if "property" in decorators:
                assert inspect.isdatadescriptor(static) and not callable(static), f"{name}.{method} is a property"
            elif method != "__init__":
                assert callable(getattr(cls, method)), f"{name}.{method} is a method"
                assert isinstance(static, staticmethod) == ("staticmethod" in decorators), f"{name}.{method} static"
        # And every public method and property of the class is in the stub.
        if not issubclass(cls, BaseException):
            actual = {m for m in dir(cls) if not m.startswith("_")}
            assert actual == {m for m in stub if not m.startswith("_")}, name


def signature_cases():
    for name, node in CLASSES.items():
        for method, (fn, decorators) in members(node).items():
            if "property" not in decorators and method != "__len__":
                yield pytest.param(name, method, fn, decorators, id=f"{name}.{method}")


@pytest.mark.parametrize(("name", "method", "fn", "decorators"), list(signature_cases()))
def test_stub_signatures_match_the_runtime(name, method, fn, decorators):
    cls = getattr(tool_output_format, name)
    if method == "__init__":
        runtime = runtime_signature(cls, drop_self=False)
    else:
        runtime = runtime_signature(getattr(cls, method), drop_self="staticmethod" not in decorators)
    assert stub_signature(fn) == runtime


def test_final_classes_cannot_be_subclassed():
    for name, node in CLASSES.items():
        cls = getattr(tool_output_format, name)
        final = any(isinstance(d, ast.Name) and d.id == "final" for d in node.decorator_list)
        try:
            type("Sub", (cls,), {})
            subclassable = True
        except TypeError:
            subclassable = False
        assert final != subclassable, name


def test_classes_without_a_stub_constructor_have_none():
    for name, node in CLASSES.items():
        cls = getattr(tool_output_format, name)
        if "__init__" in members(node) or issubclass(cls, BaseException):
            continue
        with pytest.raises(TypeError):
            cls()


def test_formatter_options_are_listed_and_documented():
    options = [n for n, _ in typed_dict_fields("_FormatterOptions")]
    tool_options = [n for n, _ in typed_dict_fields("_ToolOptions")]
    # The tool options are the Rust options table, in its order; the formatter's add the store.
    assert tool_options == list(tool_output_format._OPTION_KEYS)
    assert options == tool_options + ["store", "fetch_tool"]
    keyword_only = lambda f: [p.name for p in inspect.signature(f).parameters.values() if p.kind == P.KEYWORD_ONLY]
    Formatter = tool_output_format.Formatter
    assert keyword_only(Formatter) == options
    assert keyword_only(Formatter.for_agents) == options
    assert keyword_only(Formatter.tool) == tool_options
    assert all(p.default is None for p in inspect.signature(Formatter).parameters.values())
    # Each option has a docstring in the stub and is described in help(Formatter).
    for name, doc in typed_dict_fields("_FormatterOptions"):
        assert doc, name
        assert f"`{name}`" in Formatter.__doc__, name


def test_classes_and_members_have_docstrings():
    assert tool_output_format.__doc__.startswith("Render LLM agent tool results as markdown")
    missing = []
    for name in CLASSES:
        cls = getattr(tool_output_format, name)
        if not (cls.__doc__ or "").strip():
            missing.append(name)
        for member in vars(cls):
            if not member.startswith("_") and not (getattr(cls, member).__doc__ or "").strip():
                missing.append(f"{name}.{member}")
    assert missing == []
