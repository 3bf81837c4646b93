"""Python and Rust give the same bytes on the bundled data.

Each case renders a data file with some options through the Python package and compares the
text with what the `tof` program (the Rust library behind a command line) printed for the same
file and flags: the copy in `data/expected/` always (regenerate it with
`python tests/test_parity.py /path/to/tof` after a rendering change), and `tof` itself when it
is built (`TOF=/path/to/tof`, or `target/debug/tof` in the repository; CI builds it first).
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from tool_output_format import Formatter, Shape

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE / "data"
EXPECTED = DATA / "expected"

# name: (data file, tof flags). Flags map to Formatter keywords (`--max-rows` -> `max_rows`).
CASES = {
    "employees_default": ("employees_100.json", []),
    "employees_compact_rows": ("employees_100.json", ["--layout", "compact", "--max-rows", "10"]),
    "employees_csv": ("employees_100.json", ["--layout", "csv", "--max-rows", "5"]),
    "employees_chars": ("employees_100.json", ["--max-chars", "1500"]),
    "employees_tokens": ("employees_100.json", ["--max-tokens", "400", "--layout", "compact"]),
    "issues_cells": ("issues_30.json", ["--max-rows", "3", "--max-cell-chars", "60"]),
    "issues_budget": ("issues_30.json", ["--max-chars", "3000"]),
    "issues_toml_shape": ("issues_30.json", ["--shape", "issues.toml", "--layout", "compact"]),
    "orders_json_shape": ("orders_v3.json", ["--shape", "orders_v3.shape.json", "--max-rows", "8"]),
    "config_record": ("config_nested.json", ["--tool", "get_config"]),
    "logs_tail": ("logs.json", ["--tool", "read_log", "--max-lines", "12", "--strategy", "tail"]),
    "logs_head_tail": ("logs.json", ["--max-lines", "12", "--strategy", "head-tail"]),
}


def python_text(data_file, flags):
    options, tool = {}, ""
    it = iter(flags)
    for flag in it:
        value = next(it)
        if flag == "--tool":
            tool = value
        elif flag == "--shape":
            options["shape"] = Shape.from_file(DATA / value)
        elif flag in ("--layout", "--strategy"):
            options[flag[2:]] = value.replace("-", "_")
        else:
            options[flag[2:].replace("-", "_")] = int(value)
    result = json.loads((DATA / data_file).read_text())
    return Formatter(**options).format(tool, result)


def tof_text(tof, data_file, flags):
    out = subprocess.run([tof, *flags, data_file], cwd=DATA, capture_output=True, text=True, check=True)
    assert out.stdout.endswith("\n")
    return out.stdout[:-1]  # tof ends its output with one newline


def find_tof():
    if os.environ.get("TOF"):
        return os.environ["TOF"]
    built = HERE.parent.parent / "target" / "debug" / "tof"
    return str(built) if built.exists() else None


@pytest.mark.parametrize("name", sorted(CASES))
def test_python_matches_the_recorded_rust_text(name):
    data_file, flags = CASES[name]
    assert python_text(data_file, flags) == (EXPECTED / f"{name}.md").read_text()


TOF = find_tof()
if TOF:

    @pytest.mark.parametrize("name", sorted(CASES))
    def test_python_matches_tof(name):
        data_file, flags = CASES[name]
        assert python_text(data_file, flags) == tof_text(TOF, data_file, flags)


if __name__ == "__main__":
    EXPECTED.mkdir(exist_ok=True)
    for name, (data_file, flags) in sorted(CASES.items()):
        (EXPECTED / f"{name}.md").write_text(tof_text(sys.argv[1], data_file, flags))
