"""Render time of the Python package next to what a Python agent would otherwise use, on the
same data in one run: `json.dumps`, `tabulate`'s GitHub markdown and the official TOON encoder
(`toon-format`), plus the cost of crossing from Python into Rust per row.

    pip install ./tool-output-format-py tabulate toon-format   # a release build
    python tool-output-format-py/bench/bench.py

Prints markdown tables of medians and ratios (ratios divide two medians of this run).
Every table row is rendered (no row cap), as in the Rust benchmarks (`cargo bench --bench render`).
"""

import json
import pathlib
import platform
import statistics
import time

from tabulate import tabulate
import toon_format

from tool_output_format import Formatter

DATA = pathlib.Path(__file__).resolve().parent.parent.parent / "examples" / "data"
SETS = ["employees_100", "rows_1000", "issues_30"]
ALL_ROWS = 10**9

compact = Formatter(layout="compact", max_rows=ALL_ROWS, max_lines=ALL_ROWS)
aligned = Formatter(max_rows=ALL_ROWS, max_lines=ALL_ROWS)
one_row = Formatter(layout="compact", max_rows=1)


def medians(fns, budget=0.2, repeats=21):
    """The median time of one call of each function. The functions take turns, `repeats`
    rounds of about `budget` seconds each, so a busy neighbour slows them all alike."""
    calls = {}
    for name, fn in fns.items():
        start = time.perf_counter()
        fn()
        once = max(time.perf_counter() - start, 1e-7)
        calls[name] = max(1, int(budget / once))
    times = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(calls[name]):
                fn()
            times[name].append((time.perf_counter() - start) / calls[name])
    return {name: statistics.median(t) for name, t in times.items()}


def fmt_time(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def main():
    contenders = {
        "json.dumps": lambda rows: json.dumps(rows),
        "tof compact": lambda rows: compact.format("", rows),
        "tof aligned": lambda rows: aligned.format("", rows),
        "tabulate github": lambda rows: tabulate(rows, headers="keys", tablefmt="github"),
        "toon-format": lambda rows: toon_format.encode(rows),
        # Converts every row into Rust, renders one: the cost of crossing.
        "crossing (max_rows=1)": lambda rows: one_row.format("", rows),
    }
    results = {}
    for name in SETS:
        rows = json.loads((DATA / f"{name}.json").read_text())
        results[name] = (len(rows), medians({c: (lambda f=f: f(rows)) for c, f in contenders.items()}))

    print(f"Python {platform.python_version()}, {platform.machine()}\n")
    print("| data | rows | " + " | ".join(contenders) + " |")
    print("|---|---:|" + "---:|" * len(contenders))
    for name, (n, t) in results.items():
        print(f"| {name} | {n} | " + " | ".join(fmt_time(t[c]) for c in contenders) + " |")

    print("\n| ratio | " + " | ".join(results) + " |")
    print("|---|" + "---:|" * len(results))
    ratios = [
        ("tof compact / json.dumps", "tof compact", "json.dumps"),
        ("tof aligned / json.dumps", "tof aligned", "json.dumps"),
        ("tabulate / tof aligned", "tabulate github", "tof aligned"),
        ("toon-format / tof compact", "toon-format", "tof compact"),
        ("crossing / json.dumps", "crossing (max_rows=1)", "json.dumps"),
        ("crossing / tof compact", "crossing (max_rows=1)", "tof compact"),
    ]
    for label, a, b in ratios:
        print(f"| {label} | " + " | ".join(f"{t[a] / t[b]:.2f}x" for _, t in results.values()) + " |")
    print("\nCrossing per row: " + ", ".join(
        f"{name} {fmt_time(t['crossing (max_rows=1)'] / n)}" for name, (n, t) in results.items()
    ))


if __name__ == "__main__":
    main()
