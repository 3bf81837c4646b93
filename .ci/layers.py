#!/usr/bin/env python3
"""The layer rules of the runtime crate (see `docs/layout.md`), checked on the
`use crate::...` / `super::...` paths (and the `{..}` lists after them) of every file in
tool-output-format/src (test modules aside), including names imported through the crate
root's re-exports (`crate::Formatter` is an import of `formatter`):

- the stack, one layer per folder of `src/` (the face: the files at the root): no import from
  a lower layer to a higher one;
- the folders beside the stack, each with its own rule in both directions (what it may import,
  who may import it; see BESIDE): a sink writes the model and imports no input, a store reads
  nothing above the text, the derive's support is imported only by the crate root's
  `__private`, nothing imports an adapter, and so on;
- the model (`doc/`) imports only the model and the text; agent types know no formatter;
- no import cycle between files.

Paths through the crate root's re-exports and aliases (`use` lines in `lib.rs`, and in the
modules it declares inline) count as imports of the module they name; the imports through its
private aliases of old paths are listed (kept while a change to the files naming them merges).

Prints each violation and exits 1 if there is any."""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "tool-output-format" / "src"

# The stack, top to bottom: a module may import its own layer and the layers below. One layer
# per folder of `src/`, the face aside (the files at the root).
STACK = [
    ("face", ["lib", "formatter", "options"]),
    ("call", ["call"]),
    ("cut", ["cut"]),
    ("input", ["input"]),
    ("rules", ["rules"]),
    ("doc", ["doc"]),
    ("text", ["text"]),
]
RANK = {name: len(STACK) - i for i, (name, _) in enumerate(STACK)}
EVERY_LAYER = set(RANK)
BELOW_CUT = {"input", "rules", "doc", "text"}

# Folders beside the stack: (layers and folders it may import, layers and modules that may
# import it). A folder always imports itself.
BESIDE = {
    # Writers of the model: markdown, CSV, structured JSON.
    "sink": ({"doc", "text"}, EVERY_LAYER | {"fetch", "adapt"}),
    # Stores only: they keep full results and read nothing above the text; the layers that
    # store and announce use them, nothing under the cut knows them.
    "store": ({"text"}, {"face", "call", "cut", "fetch", "adapt"}),
    # The fetch tool: serves a stored result page by page through a formatter (it uses the
    # face); the crate root exports it as `store::Fetch`, an adapter serves it.
    "fetch": (EVERY_LAYER | {"sink", "store"}, {"lib", "adapt"}),
    # rmcp, rig and the model APIs: the outermost face, imported by nothing.
    "adapt": (EVERY_LAYER | {"sink", "store", "fetch"}, set()),
    # The derive's support: it builds documents, and nothing inside the crate calls it (the
    # derive's expansion does, through the crate root's `__private`).
    "private": (BELOW_CUT, {"lib"}),
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


def lib_uses():
    """Every `use` of the crate root (`lib.rs`) and of the modules it declares inline
    (`pub mod store { .. }`), as (alias path, target path): `pub use formatter::Formatter`
    gives ("Formatter", "formatter::Formatter"), `use cut::{arrange, caps}` gives
    ("arrange", "cut::arrange") and ("caps", "cut::caps"), `pub use crate::private::*` inside
    `pub mod __private` gives ("__private::*", "private")."""
    text = re.sub(r"//.*", "", open(FILES["lib"]).read())
    scopes = [("", text)]
    for m in re.finditer(r"^pub mod (\w+) \{$(.*?)^\}$", text, re.M | re.S):
        scopes.append((m.group(1), m.group(2)))
        text = text.replace(m.group(0), "")
    scopes[0] = ("", text)
    found = []
    for prefix, body in scopes:
        for m in re.finditer(r"^\s*(pub(?:\(crate\))? )?use ([^;]+);", body, re.M):
            private = prefix == "" and not m.group(1)
            path = re.sub(r"\s+", " ", m.group(2))
            if path.startswith("crate::"):
                base = ""
                path = path[len("crate::"):]
            else:
                base = prefix + "::" if prefix else ""
            head, _, tail = path.partition("{")
            items = tail.rstrip("}").split(",") if tail else [head.rsplit("::", 1)[-1]]
            head = head.rstrip(":") if tail else head.rpartition("::")[0]
            for item in items:
                item = item.strip()
                if not item:
                    continue
                name, _, alias = item.partition(" as ")
                name = name.strip()
                target = base + (head + "::" if head else "") + name
                alias = (prefix + "::" if prefix else "") + (alias.strip() or name)
                if name == "*":
                    found.append((alias, target[: -len("::*")], private))
                else:
                    found.append((alias, target, private))
    return found


ALIASES = {a: t for a, t, _ in lib_uses() if not a.endswith("*")}
GLOBS = {a[: -len("::*")]: t for a, t, _ in lib_uses() if a.endswith("::*")}
# The crate root's private aliases of old paths (`use cut::{arrange, ..}`), and who names
# them (reported, not a violation).
OLD_PATHS = {a for a, _, private in lib_uses() if private}
THROUGH_OLD = {}


def resolve(path, importer=None, depth=0):
    """The module file a `crate::` path imports: its longest prefix that is a module file,
    through the crate root's re-exports and aliases (`crate::Formatter` is `formatter`,
    `crate::store::Fetch` is `fetch::tool`)."""
    parts = path.split("::")
    for i in range(len(parts), 0, -1):
        key = "::".join(parts[:i])
        rest = parts[i:]
        if key in MODS:
            return key
        target = ALIASES.get(key) or GLOBS.get(key) if depth < 8 else None
        if key in GLOBS and key not in ALIASES and rest:
            target = GLOBS[key]
        if target and target != key:
            if key in OLD_PATHS and importer:
                THROUGH_OLD.setdefault(importer, set()).add(key)
            return resolve("::".join([target] + rest), importer, depth + 1)
    return None


def imports(m, p):
    src = open(p).read()
    # The test module is not part of the layering, nor are comments (rustdoc links).
    src = re.split(r"#\[cfg\(test\)\]\s*mod tests", src)[0]
    src = re.sub(r"//.*", "", src)
    deps = set()
    for mm in re.finditer(r"crate::((?:[a-z_]+::)*[a-z_A-Z0-9]+)", src):
        deps.add(resolve(mm.group(1), m))
    for mm in re.finditer(r"\bcrate::((?:[a-z_]+::)*)\{([^}]*)\}", src):
        for it in mm.group(2).split(","):
            deps.add(resolve(mm.group(1) + it.strip().split(" as ")[0], m))
    parent = "::".join(m.split("::")[:-1])
    for mm in re.finditer(r"\bsuper::((?:[a-z_]+::)*)\{([^}]*)\}", src):
        for it in mm.group(2).split(","):
            deps.add(resolve((parent + "::" if parent else "") + mm.group(1) + it.strip(), m))
    for mm in re.finditer(r"\bsuper::((?:[a-z_]+::)*[a-z_A-Z0-9]+)", src):
        deps.add(resolve((parent + "::" if parent else "") + mm.group(1), m))
    return {d for d in deps if d and d != m and not m.startswith(d + "::")}


# Test modules in their own files (`foo/tests.rs`) are not part of the layering either.
EDGES = {m: imports(m, p) for m, p in FILES.items() if m.split("::")[-1] != "tests"}


def group(m):
    """The layer of a module in the stack, or its own top module name when it is beside."""
    top = m.split("::")[0]
    for name, members in STACK:
        if top in members:
            return name
    if top in BESIDE:
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
            elif gm == "doc" and gd != "text":
                why = f"the model imports {gd}"
            if m.startswith("doc::agent") and gd in ("face", "call"):
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
    old = sorted(THROUGH_OLD.items())
    if old:
        print(
            "imports through the crate root's aliases of old paths (kept for a merge):",
            "; ".join(f"{m}: {', '.join(sorted(n))}" for m, n in old),
        )
    cyc = cycles()
    for comp in cyc:
        print("CYCLE", comp)
    print(len(cyc), "cycles")
    return 1 if bad or cyc else 0


if __name__ == "__main__":
    sys.exit(main())
