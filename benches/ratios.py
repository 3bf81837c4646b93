#!/usr/bin/env python3
"""Print the medians criterion saved (target/criterion) as markdown tables with ratios.

Run after `cargo bench --bench render`:  python3 benches/ratios.py
Ratios divide medians measured in the same run (the same criterion group).
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"

# (contender, baseline): the ratio is contender / baseline (below 1.0: contender faster).
RATIOS = [
    ("typed/md_compact", "typed/serde_json"),
    ("typed/md_aligned", "typed/serde_json"),
    ("value/md_compact", "value/serde_json"),
    ("value/md_aligned", "value/serde_json"),
    ("typed/tabled", "typed/md_aligned"),
    ("value/toon", "value/md_compact"),
    ("fit_4000_chars", "kept_rows_no_budget"),
]


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def load():
    groups = {}
    for bench in sorted(ROOT.glob("*/**/new/benchmark.json")):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        group = groups.setdefault(meta["group_id"], {})
        group[meta["function_id"]] = est["median"]["point_estimate"]
    return groups


def main():
    groups = load()
    if not groups:
        sys.exit(f"no criterion results under {ROOT}; run `cargo bench --bench render` first")
    for name, medians in groups.items():
        print(f"### {name}\n")
        print("| benchmark | median |")
        print("|---|---:|")
        for fn, ns in medians.items():
            print(f"| {fn} | {fmt_time(ns)} |")
        rows = [(a, b) for a, b in RATIOS if a in medians and b in medians]
        if rows:
            print("\n| ratio | value |")
            print("|---|---:|")
            for a, b in rows:
                print(f"| {a} / {b} | {medians[a] / medians[b]:.2f}x |")
        print()


if __name__ == "__main__":
    main()
