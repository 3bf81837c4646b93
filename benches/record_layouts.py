"""Record layouts that `Formatter::new()` with the compact layout could use for single API
records, measured in o200k tokens against compact JSON (the target: <= 0.95x each).

Run from the repository root: `python3 benches/record_layouts.py` (it builds `tof` and the
`count_tokens` example). Columns:

- json: `serde_json`-style compact JSON;
- tof: what `tof --layout compact --tool get` writes (`- key: value` bullets, nested records
  as indented sub-bullets, lists of records as tables, and the lean-record rules: empty
  fields on one `(empty)` line, repeated sibling values as `(same as KEY)`, near repeats
  as `(same as KEY, except:)` above their differing fields);
- lines: `key: value` lines without the `- ` (YAML-like; a prototype here, not built);
- lines+: lines, null and empty fields grouped in one `(empty): a, b` line per record, and a
  record whose values are all records (npm's `versions`, `time`) as one table with a `key`
  column (a prototype here, not built).

The prototypes only estimate: they follow the renderer's rules for nesting, tables and
scalar lists, but not its escaping (none of the bundled records needs any).
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "examples" / "data" / "api"
RECORDS = ["github_repository", "npm_packument", "stripe_charge", "github_error_422"]


def count(docs):
    out = subprocess.run(
        ["cargo", "run", "--release", "-q", "--example", "count_tokens"],
        input="\x1e".join(docs), capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout
    return [int(x) for x in out.split()]


def scalar(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    return v


def is_scalar(v):
    return not isinstance(v, (dict, list))


def cell(v):
    if v is None:
        return ""
    if isinstance(v, list) and all(is_scalar(x) for x in v):
        return ", ".join(str(scalar(x)) for x in v)
    if is_scalar(v):
        return str(scalar(v))
    return json.dumps(v, separators=(",", ":"))


def table(rows, ind, key=None):
    cols = [key] if key else []
    for _, r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    out = [ind + "|" + "|".join(cols) + "|", ind + "|" + "|".join("-" for _ in cols) + "|"]
    for name, r in rows:
        out.append(ind + "|" + "|".join(name if key and c == key else cell(r.get(c)) for c in cols) + "|")
    return out


def record(o, ind, plus):
    out, empty = [], []
    for k, v in o.items():
        if plus and (v is None or v == "" or v == [] or v == {}):
            empty.append(k)
        elif isinstance(v, dict) and v:
            if plus and len(v) >= 2 and all(isinstance(x, dict) for x in v.values()):
                out += [f"{ind}{k}:", ""] + table(list(v.items()), ind + "  ", "key")
            else:
                out += [f"{ind}{k}:"] + record(v, ind + "  ", plus)
        elif isinstance(v, dict):
            out.append(f"{ind}{k}: {{}}")
        elif isinstance(v, list):
            if not v:
                out.append(f"{ind}{k}: []")
            elif all(isinstance(x, (int, float, bool)) or (isinstance(x, str) and x and "\n" not in x) for x in v):
                out.append(f"{ind}{k}: " + ", ".join(str(scalar(x)) for x in v))
            elif all(isinstance(x, dict) for x in v):
                out += [f"{ind}{k}:", ""] + table([(None, x) for x in v], ind + "  ")
            else:
                out.append(f"{ind}{k}:")
                out += [f"{ind}  - {cell(x)}" for x in v]
        else:
            s = str(scalar(v))
            out.append(f"{ind}{k}:" + (" " + s if s else ""))
    if empty:
        out.append(f"{ind}(empty): " + ", ".join(empty))
    return out


def main():
    subprocess.run(["cargo", "build", "-q", "-p", "tool-output-format-cli"], check=True, cwd=ROOT)
    tof = ROOT / "target" / "debug" / "tof"
    docs = []
    for name in RECORDS:
        path = DATA / f"{name}.json"
        v = json.loads(path.read_text())
        rendered = subprocess.run(
            [str(tof), "--layout", "compact", "--tool", "get", str(path)],
            capture_output=True, text=True, check=True,
        ).stdout.rstrip("\n")
        title = "**get result**\n\n"
        docs += [
            json.dumps(v, separators=(",", ":"), ensure_ascii=False),
            rendered,
            title + "\n".join(record(v, "", False)),
            title + "\n".join(record(v, "", True)),
        ]
    counts = count(docs)
    print("| record | json | tof | lines | lines+ | tof / json | lines / json | lines+ / json |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for i, name in enumerate(RECORDS):
        j, t, l, p = counts[4 * i: 4 * i + 4]
        print(f"| {name} | {j} | {t} | {l} | {p} | {t / j:.2f}x | {l / j:.2f}x | {p / j:.2f}x |")


if __name__ == "__main__":
    sys.exit(main())
