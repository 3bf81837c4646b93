#!/usr/bin/env python3
"""The public API of the runtime crate, one item a line, sorted: `tool-output-format/public-api.txt`.

Reads rustdoc's JSON (`cargo rustdoc ... --output-format json`, which leaves out private and
`#[doc(hidden)]` items) and walks what a user can name from the crate root: modules, re-exports,
types with their public fields, variants, inherent methods and trait impls, traits, functions
and constants, with signatures. Auto-trait and blanket impls are left out (they follow from the
rest); a type's trait impls with the same generics share one line. Every feature of the crate is on (`FEATURES`: the token counter, tracing, the async
path, the Redis store, the rmcp / schemars / rig adapters, TOML shape files and the ecosystem
impls), so an item behind any feature is listed; a feature of `Cargo.toml` missing from
`FEATURES` fails the script.

    .ci/public_api.py            # rebuild the listing into tool-output-format/public-api.txt
    .ci/public_api.py --check    # fail when the committed listing differs (CI)

It builds with the stable toolchain (RUSTC_BOOTSTRAP=1 unlocks rustdoc's JSON output) in its
own target directory under cargo's, so it never invalidates the test builds.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISTING = ROOT / "tool-output-format" / "public-api.txt"
FEATURES = (
    "derive,tokens,tracing,async,redis,rmcp,schemars,rig,toml,"
    "rust_decimal,chrono,time,url,uuid"
)


def rustdoc_json():
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    meta = json.loads(meta.stdout)
    declared = next(p["features"] for p in meta["packages"] if p["name"] == "tool-output-format")
    missing = sorted(set(declared) - {"default"} - set(FEATURES.split(",")))
    if missing:
        sys.exit(f"FEATURES leaves out {', '.join(missing)}: add them so the listing covers them")
    target = Path(meta["target_directory"]) / "public-api"
    env = dict(os.environ, RUSTC_BOOTSTRAP="1", CARGO_TARGET_DIR=str(target))
    subprocess.run(
        ["cargo", "rustdoc", "-q", "-p", "tool-output-format", "--features", FEATURES, "--",
         "-Z", "unstable-options", "--output-format", "json"],
        cwd=ROOT, env=env, check=True,
    )
    return json.loads((target / "doc" / "tool_output_format.json").read_text())


class Lister:
    def __init__(self, doc):
        self.doc = doc
        self.index = doc["index"]
        self.lines = set()
        self.seen = set()

    def item(self, id_):
        return self.index.get(str(id_))

    # ---- types -------------------------------------------------------------------------

    def args(self, a):
        if not a:
            return ""
        if "angle_bracketed" in a:
            ab = a["angle_bracketed"]
            parts = []
            for g in ab.get("args", []):
                if "type" in g:
                    parts.append(self.ty(g["type"]))
                elif "lifetime" in g:
                    parts.append(g["lifetime"])
                elif "const" in g:
                    parts.append(str(g["const"].get("expr", "_")))
                else:
                    parts.append("_")
            for c in ab.get("constraints", []):
                b = c.get("binding", {})
                if "equality" in b:
                    eq = b["equality"]
                    val = self.ty(eq["type"]) if "type" in eq else str(eq)
                    parts.append(f"{c['name']} = {val}")
                else:
                    parts.append(f"{c['name']}: {self.bounds(b.get('constraint', []))}")
            return f"<{', '.join(parts)}>" if parts else ""
        if "parenthesized" in a:
            p = a["parenthesized"]
            out = f"({', '.join(self.ty(t) for t in p['inputs'])})"
            if p.get("output"):
                out += f" -> {self.ty(p['output'])}"
            return out
        return ""

    def path(self, p):
        name = p.get("path") or p.get("name") or "?"
        return name + self.args(p.get("args"))

    def bounds(self, bs):
        out = []
        for b in bs:
            if "trait_bound" in b:
                tb = b["trait_bound"]
                mod = "?" if tb.get("modifier") == "maybe" else ""
                out.append(mod + self.path(tb["trait"]))
            elif "outlives" in b:
                out.append(b["outlives"])
            else:
                out.append("use<..>")
        return " + ".join(out)

    def ty(self, t):
        if t is None:
            return "()"
        (k, v), = t.items()
        if k == "resolved_path":
            return self.path(v)
        if k in ("generic", "primitive"):
            return v
        if k == "borrowed_ref":
            lt = f"{v['lifetime']} " if v.get("lifetime") else ""
            return f"&{lt}{'mut ' if v['is_mutable'] else ''}{self.ty(v['type'])}"
        if k == "raw_pointer":
            return f"*{'mut' if v['is_mutable'] else 'const'} {self.ty(v['type'])}"
        if k == "slice":
            return f"[{self.ty(v)}]"
        if k == "array":
            return f"[{self.ty(v['type'])}; {v['len']}]"
        if k == "tuple":
            return f"({', '.join(self.ty(x) for x in v)})"
        if k == "impl_trait":
            return f"impl {self.bounds(v)}"
        if k == "dyn_trait":
            traits = [self.path(x["trait"]) for x in v["traits"]]
            if v.get("lifetime"):
                traits.append(v["lifetime"])
            return f"dyn {' + '.join(traits)}"
        if k == "qualified_path":
            tr = f" as {self.path(v['trait'])}" if v.get("trait") else ""
            return f"<{self.ty(v['self_type'])}{tr}>::{v['name']}"
        if k == "function_pointer":
            sig = v["sig"]
            ins = ", ".join(self.ty(x[1]) for x in sig["inputs"])
            out = f" -> {self.ty(sig['output'])}" if sig.get("output") else ""
            return f"fn({ins}){out}"
        if k == "infer":
            return "_"
        if k == "pat":
            return self.ty(v["type"])
        return k

    def generics(self, g):
        params = []
        for p in (g or {}).get("params", []):
            kind = p["kind"]
            if "lifetime" in kind:
                params.append(p["name"])
            elif "type" in kind:
                if kind["type"].get("is_synthetic"):
                    continue  # an `impl Trait` argument
                b = self.bounds(kind["type"].get("bounds", []))
                params.append(p["name"] + (f": {b}" if b else ""))
            elif "const" in kind:
                params.append(f"const {p['name']}: {self.ty(kind['const']['type'])}")
        return f"<{', '.join(params)}>" if params else ""

    def where_(self, g):
        preds = []
        for w in (g or {}).get("where_predicates", []):
            if "bound_predicate" in w:
                bp = w["bound_predicate"]
                preds.append(f"{self.ty(bp['type'])}: {self.bounds(bp['bounds'])}")
            elif "lifetime_predicate" in w:
                lp = w["lifetime_predicate"]
                preds.append(f"{lp['lifetime']}: {' + '.join(lp['outlives'])}")
        return f" where {', '.join(preds)}" if preds else ""

    def fn_sig(self, name, f):
        h = f["header"]
        pre = "".join(
            w for w, on in (("const ", h["is_const"]), ("async ", h["is_async"]),
                            ("unsafe ", h["is_unsafe"])) if on
        )
        ins = []
        for arg, t in f["sig"]["inputs"]:
            if arg == "self":
                s = self.ty(t)
                ins.append({"Self": "self", "&Self": "&self", "&mut Self": "&mut self"}.get(s, f"self: {s}"))
            else:
                ins.append(f"{arg}: {self.ty(t)}")
        out = f" -> {self.ty(f['sig']['output'])}" if f["sig"].get("output") else ""
        return f"{pre}fn {name}{self.generics(f['generics'])}({', '.join(ins)}){out}{self.where_(f['generics'])}"

    # ---- the walk ----------------------------------------------------------------------

    def add(self, line):
        self.lines.add(line)

    def visit(self, id_, prefix, name=None):
        it = self.item(id_)
        if it is None:
            return
        name = name or it.get("name")
        (kind, inner), = it["inner"].items()
        path = f"{prefix}::{name}" if prefix else name
        key = (str(id_), path)
        if key in self.seen:
            return
        self.seen.add(key)
        if kind == "module":
            self.add(f"pub mod {path}")
            for c in inner["items"]:
                self.visit(c, path)
        elif kind == "use":
            self.use(inner, prefix)
        elif kind == "struct":
            g = inner["generics"]
            self.add(f"pub struct {path}{self.generics(g)}{self.where_(g)}")
            sk = inner["kind"]
            if "plain" in sk:
                for f in sk["plain"]["fields"]:
                    fi = self.item(f)
                    if fi and fi["visibility"] == "public":
                        self.add(f"pub {path}::{fi['name']}: {self.ty(fi['inner']['struct_field'])}")
            elif "tuple" in sk:
                for n, f in enumerate(sk["tuple"]):
                    fi = self.item(f) if f is not None else None
                    if fi and fi["visibility"] == "public":
                        self.add(f"pub {path}::{n}: {self.ty(fi['inner']['struct_field'])}")
            self.impls(inner["impls"], path)
        elif kind == "enum":
            g = inner["generics"]
            self.add(f"pub enum {path}{self.generics(g)}{self.where_(g)}")
            for v in inner["variants"]:
                vi = self.item(v)
                vk = vi["inner"]["variant"]["kind"]
                if vk == "plain":
                    self.add(f"pub {path}::{vi['name']}")
                elif "tuple" in vk:
                    tys = [self.ty(self.item(f)["inner"]["struct_field"]) if f is not None else "_"
                           for f in vk["tuple"]]
                    self.add(f"pub {path}::{vi['name']}({', '.join(tys)})")
                elif "struct" in vk:
                    self.add(f"pub {path}::{vi['name']}")
                    for f in vk["struct"]["fields"]:
                        fi = self.item(f)
                        self.add(f"pub {path}::{vi['name']}::{fi['name']}: {self.ty(fi['inner']['struct_field'])}")
            self.impls(inner["impls"], path)
        elif kind == "union":
            self.add(f"pub union {path}")
            self.impls(inner["impls"], path)
        elif kind == "trait":
            g = inner["generics"]
            sup = f": {self.bounds(inner['bounds'])}" if inner.get("bounds") else ""
            self.add(f"pub{' unsafe' if inner['is_unsafe'] else ''} trait {path}{self.generics(g)}{sup}")
            for m in inner["items"]:
                self.assoc(m, path, trait_item=True)
        elif kind == "function":
            self.add(f"pub {self.fn_sig(path, inner)}")
        elif kind == "constant":
            self.add(f"pub const {path}: {self.ty(inner['type'])}")
        elif kind == "static":
            self.add(f"pub static {path}: {self.ty(inner['type'])}")
        elif kind == "type_alias":
            self.add(f"pub type {path}{self.generics(inner['generics'])} = {self.ty(inner['type'])}")
        elif kind in ("macro", "proc_macro"):
            self.add(f"pub macro {path}!")
        else:
            self.add(f"pub {kind} {path}")

    def use(self, u, prefix):
        target = u.get("id")
        if u["is_glob"]:
            it = self.item(target) if target is not None else None
            if it and "module" in it["inner"]:
                for c in it["inner"]["module"]["items"]:
                    self.visit(c, prefix)
            else:
                self.add(f"pub use {prefix}::{u['source']}::*")
            return
        if target is not None and self.item(target) is not None:
            self.visit(target, prefix, u["name"])
        else:
            # Another crate's item, re-exported as it is (its API is that crate's).
            self.add(f"pub use {prefix}::{u['name']} = {u['source']}")

    def assoc(self, id_, path, trait_item=False):
        it = self.item(id_)
        if it is None or (not trait_item and it["visibility"] != "public"):
            return
        (kind, inner), = it["inner"].items()
        if kind == "function":
            name = f"{path}::{it['name']}"
            self.add(f"pub {self.fn_sig(name, inner)}")
        elif kind == "assoc_const":
            self.add(f"pub const {path}::{it['name']}: {self.ty(inner['type'])}")
        elif kind == "assoc_type":
            b = f": {self.bounds(inner['bounds'])}" if inner.get("bounds") else ""
            self.add(f"pub type {path}::{it['name']}{b}")

    def impls(self, ids, path):
        # The trait impls of a type with the same generics, where clause and self type are one
        # line (`impl Clone, Debug, PartialEq for Node<'a>`), traits sorted.
        groups = {}
        for i in ids:
            it = self.item(i)
            if it is None:
                continue
            im = it["inner"]["impl"]
            if im.get("is_synthetic") or im.get("blanket_impl") is not None:
                continue
            if im.get("trait") is None:
                for m in im["items"]:
                    self.assoc(m, path)
            else:
                neg = "!" if im.get("is_negative") else ""
                g = im["generics"]
                for_ = im["for"]
                if "resolved_path" in for_:  # the type by the path it is listed under
                    for_ = path + self.args(for_["resolved_path"].get("args"))
                else:
                    for_ = self.ty(for_)
                key = (self.generics(g), for_, self.where_(g))
                groups.setdefault(key, set()).add(neg + self.path(im["trait"]))
        for (gen, for_, where), traits in groups.items():
            self.add(f"impl{gen} {', '.join(sorted(traits))} for {for_}{where}")

    def run(self):
        self.visit(self.doc["root"], "")
        return sorted(self.lines)


def main():
    doc = rustdoc_json()
    lines = Lister(doc).run()
    text = "".join(l + "\n" for l in lines)
    if "--check" in sys.argv:
        old = LISTING.read_text() if LISTING.exists() else ""
        if old != text:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True),
                "committed public-api.txt", "the crate's public API now"))
            sys.exit("the public API changed: run .ci/public_api.py and commit "
                     "tool-output-format/public-api.txt (review the diff above)")
        print(f"public API unchanged ({len(lines)} lines)")
    else:
        LISTING.write_text(text)
        print(f"{LISTING.relative_to(ROOT)}: {len(lines)} lines")


if __name__ == "__main__":
    main()
