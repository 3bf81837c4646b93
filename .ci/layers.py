#!/usr/bin/env python3
"""The layer rules of the runtime crate (see `docs/layout.md`), checked on the
`use crate::...` / `super::...` paths of every file in tool-output-format/src (test modules
aside), including names imported through the crate root's re-exports (`crate::Formatter` is
an import of `formatter`):

- the stack: no import from a lower layer to a higher one;
- the modules beside the stack, each with its own rule in both directions (what it may import,
  who may import it; see BESIDE): a sink writes the model and imports no source, the derive's
  support and the value conversions are imported by nothing inside the crate, nothing imports
  an adapter, and so on;
- the model imports only the model and the ground; agent types know no formatter;
- no import cycle between files.

Prints each violation and exits 1 if there is any."""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "tool-output-format" / "src"

# The stack, top to bottom: a module may import its own layer and the layers below.
STACK = [
    ("face", ["lib", "formatter", "options", "names"]),
    ("call", ["pipeline", "focused", "resolved", "report"]),
    ("cut", ["caps", "fit", "focus", "summary", "trailer", "arrange", "passage"]),
    ("walk", ["source", "build"]),
    ("rules", ["shape", "redact", "detail", "salience"]),
    ("model", ["doc", "agent", "envelope", "notice"]),
    ("ground", ["text", "tokens", "distinct"]),
]
RANK = {name: len(STACK) - i for i, (name, _) in enumerate(STACK)}
EVERY_LAYER = set(RANK)
BELOW_CUT = {"walk", "rules", "model", "ground"}

# Modules beside the stack: (layers and modules it may import, layers and modules that may
# import it). A module always imports itself.
BESIDE = {
    # Writers of the model: markdown, CSV, structured JSON.
    "sink": ({"model", "ground"}, EVERY_LAYER | {"store", "adapt"}),
    # Full results kept for a fetch tool, served as pages through a formatter: the layers that
    # store and announce use it; nothing under the cut knows it.
    "store": (EVERY_LAYER - {"adapt"}, {"face", "call", "cut", "adapt"}),
    # rmcp, rig and the model APIs: the outermost face, imported by nothing.
    "adapt": (EVERY_LAYER | {"sink", "store", "time"}, set()),
    # The formatter's trace of a call: reads reports, read by the face and the call.
    "trace": ({"report", "ground"}, {"face", "call"}),
    # The derive's support and the value conversions: they build documents, and nothing
    # inside the crate calls them (the derive's expansion and users do).
    "private": (BELOW_CUT, set()),
    "private_field": (BELOW_CUT, set()),
    "private_convert": (BELOW_CUT, set()),
    "time": (BELOW_CUT, {"adapt"}),
    "ecosystem": (BELOW_CUT, set()),
}


def modname(path):
    rel = os.path.relpath(path, ROOT)[:-3]
    if rel.endswith("/mod"):
        rel = rel[:-4]
    return rel.replace("/", "::")


FILES = {}
for d, _, fs in os.walk(ROOT):
    for f in fs:
        if f.endswith(".rs"):
            p = os.path.join(d, f)
            FILES[modname(p)] = p
MODS = set(FILES)


def resolve_module(path):
    """The longest prefix of `path` (`a::b::Name`) that is a module file."""
    parts = path.split("::")
    for i in range(len(parts), 0, -1):
        m = "::".join(parts[:i])
        if m in MODS:
            return m
    return None


def reexports():
    """Names the crate root re-exports, each to the module it comes from."""
    names = {}
    text = open(FILES["lib"]).read()
    for m in re.finditer(r"^pub use ((?:[a-z_]+::)+)(\{[^}]*\}|\w+);", text, re.M):
        module = resolve_module(m.group(1)[:-2])
        if module is None:
            continue
        items = m.group(2).strip("{}").split(",")
        for item in items:
            item = item.strip().split(" as ")[-1].strip()
            if item:
                names[item] = module
    return names


REEXPORTS = reexports()


def resolve(path):
    """The module a `crate::` path imports: a module file, or a re-exported name."""
    head = path.split("::")[0]
    if head not in MODS and head in REEXPORTS:
        return REEXPORTS[head]
    return resolve_module(path)


def imports(m, p):
    src = open(p).read()
    # The test module is not part of the layering, nor are comments (rustdoc links).
    src = re.split(r"#\[cfg\(test\)\]\s*mod tests", src)[0]
    src = re.sub(r"//.*", "", src)
    deps = set()
    for mm in re.finditer(r"crate::((?:[a-z_]+::)*[a-z_A-Z0-9]+)", src):
        deps.add(resolve(mm.group(1)))
    for mm in re.finditer(r"\buse crate::\{([^}]*)\}", src):
        for it in mm.group(1).split(","):
            deps.add(resolve(it.strip().split("::")[0]))
    parent = "::".join(m.split("::")[:-1])
    for mm in re.finditer(r"\bsuper::((?:[a-z_]+::)*[a-z_A-Z0-9]+)", src):
        deps.add(resolve((parent + "::" if parent else "") + mm.group(1)))
    return {d for d in deps if d and d != m and not m.startswith(d + "::")}


# Test modules in their own files (`foo/tests.rs`) are not part of the layering either.
EDGES = {m: imports(m, p) for m, p in FILES.items() if m.split("::")[-1] != "tests"}


def group(m):
    """The layer of a module in the stack, or its own top module name when it is beside."""
    top = m.split("::")[0]
    for name, members in STACK:
        if top in members:
            return name
    if top in BESIDE or top in ("doctest_docs", "__private"):
        return top
    return "?"


def violations():
    bad = []
    for m, deps in sorted(EDGES.items()):
        gm = group(m)
        if gm == "?":
            bad.append(f"{m}: in no layer (add it to STACK or BESIDE in .ci/layers.py)")
        for d in sorted(deps):
            gd = group(d)
            if gm == gd:
                continue
            why = None
            top_m, top_d = m.split("::")[0], d.split("::")[0]
            if gm in BESIDE and not {gd, top_d} & BESIDE[gm][0]:
                why = f"{gm} may import only {sorted(BESIDE[gm][0])}"
            elif gd in BESIDE and not {gm, top_m} & BESIDE[gd][1]:
                importers = sorted(BESIDE[gd][1]) or "nothing inside the crate"
                why = f"{gd} may be imported by {importers} only"
            elif gm in RANK and gd in RANK and RANK[gd] > RANK[gm]:
                why = "upward"
            elif gm == "model" and gd not in ("model", "ground"):
                why = f"the model imports {gd}"
            if top_m == "agent" and top_d in ("formatter", "pipeline"):
                why = "agent knows a formatter"
            if why:
                bad.append(f"{m} ({gm}) -> {d} ({gd}) [{why}]")
    return bad


def cycles():
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = 0
    for start in EDGES:
        if start in index:
            continue
        work = [(start, iter(sorted(EDGES[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(EDGES.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def main():
    bad = violations()
    for line in bad:
        print(line)
    print(len(bad), "layer violations")
    cyc = cycles()
    for comp in cyc:
        print("CYCLE", comp)
    print(len(cyc), "cycles")
    return 1 if bad or cyc else 0


if __name__ == "__main__":
    sys.exit(main())
