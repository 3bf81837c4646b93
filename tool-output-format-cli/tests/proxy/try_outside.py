"""`tof proxy` tried as a new user would, in front of public MCP servers that the project's
tests and CI do not use (`.ci/proxy.sh` installs none of them): a check by hand that what the
reference servers show (`test_reference.py`) holds on servers and calls no one here tuned the
proxy for. Driven by the official MCP Python SDK client, direct and through the proxy out of
the box and with `--max-chars 2000` (over standard input/output, and once more served over
streamable HTTP with `--listen`), every `Next:` line followed to the end.

Install the servers (pinned; offline once installed), then run it in the venv `.ci/proxy.sh`
makes (`mcp==2.3.0`):

    npm install --prefix target/outside/npm @modelcontextprotocol/server-memory@2026.8.31 \
        @modelcontextprotocol/server-sequential-thinking@2026.8.31
    python3 -m venv target/outside/time-venv
    target/outside/time-venv/bin/pip install mcp-server-time==2026.10.19 mcp==2.3.0
    target/proxy-venv/bin/python tool-output-format-cli/tests/proxy/try_outside.py target/debug/tof \
        target/outside/npm/node_modules/.bin/mcp-server-memory \
        target/outside/npm/node_modules/.bin/mcp-server-sequential-thinking \
        target/outside/time-venv/bin/mcp-server-time \
        [PATH_TO_SERVER_FILESYSTEM]

The last, optional, is server-filesystem as `.ci/proxy.sh` pins it, for its calls that
`test_reference.py` does not make (`read_multiple_files`, `list_directory_with_sizes`,
`search_files`, `get_file_info`, `read_text_file` with `head`, of CRLF lines and of one line
of 40,000 characters).

What is checked, for each server: `initialize` identical direct and through the proxy;
`tools/list` identical but the fetch tool (and, under the default `structured_content = "fit"`,
the tools' `outputSchema`s, docs/proxy.md); no call an error that is not one direct; every
page within its budget (2,000 characters; out of the box the first text's report says at
most 10,000 tokens); every value of the direct result (each entity's name, type and
observations, each relation, each file name) found in the pages; a text's fenced pages joined
back to the direct text under docs/proxy.md's text round trip; a one-line error passed as the
server sent it.

A check named in PENDING waits on work not done yet (see there): it runs and is reported as
`pending` with its failure, counted as ignored, not failed. `TOF_OUTSIDE_SUMMARY=1` prints,
on standard error, each call's characters direct and through the proxy (first text, fetch
pages); `TOF_OUTSIDE_DUMP=DIR` writes every page walked to DIR.

Prints libtest's lines and exits non-zero on a failure.
"""

import asyncio
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import traceback

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
import mcp.types as types

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.dont_write_bytecode = True
from test_reference import (  # noqa: E402
    FETCH, as_written, dump_tools, fenced_bodies, follow, listen_url, text)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "clients"))
from libtest import report  # noqa: E402

# Checks that wait on work not done yet: run, reported `pending` with their failure (counted
# as ignored), `ok (pending: passes now)` once they pass. None is pending now.
PENDING: set[str] = set()
NARROWED = "[Columns left out to fit the budget: "
BUDGET = 2000
DEFAULT_TOKENS = 10_000
# No page of the default budget (10,000 o200k tokens) is near this many characters.
DEFAULT_PAGE_CHARS = 60_000
TOF = MEMORY = THINKING = TIME = FS = None
ROOT = None
ENTITIES, RELATIONS = 600, 900
# Calls whose answer holds the time it was made (a clock, a file's access time): their values
# differ from one call to the next, so only their shape is compared.
VOLATILE = {"get_current_time", "get_file_info"}
# The flags of each configuration (None: direct); "--listen": the proxy serves streamable HTTP
# (`tof proxy --listen 127.0.0.1:0`) and the SDK's streamable HTTP client calls it.
CONFIGS = {"direct": None, "default": [], "2000": ["--max-chars", str(BUDGET)],
           "2000 --listen": ["--max-chars", str(BUDGET), "--listen", "127.0.0.1:0"]}
PROXIED = [c for c, flags in CONFIGS.items() if flags is not None]


def server(name):
    """(command, args, env) of `name`."""
    if name == "memory":
        return MEMORY, [], {"MEMORY_FILE_PATH": str(ROOT / "memory.jsonl")}
    if name == "thinking":
        # Its thoughts go to standard error, formatted, unless this is set.
        return THINKING, [], {"DISABLE_THOUGHT_LOGGING": "true"}
    if name == "time":
        return TIME, ["--local-timezone", "Europe/Lisbon"], {}
    if name == "filesystem":
        return FS, [str(ROOT / "files")], {}
    raise KeyError(name)


async def session(name, proxy_args, check):
    """`check(s)` on a session with server `name`, direct (`proxy_args` None) or through
    `tof proxy proxy_args`; the proxy passes its environment on to the server."""
    command, args, env = server(name)
    if proxy_args is not None:
        args = ["proxy", *proxy_args, "--", command, *args]
        command = TOF

    async def roots(_ctx):
        return types.ListRootsResult(roots=[types.Root(uri=(ROOT / "files").as_uri())])

    if proxy_args is not None and "--listen" in proxy_args:
        return await listening(command, args, {**os.environ, **env}, roots, check)

    params = StdioServerParameters(command=command, args=args, env={**os.environ, **env})
    errlog = sys.stderr if os.environ.get("TOF_TEST_STDERR") else open(os.devnull, "w")
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write, list_roots_callback=roots) as s:
            s.tof_init = await s.initialize()
            return await check(s)


async def listening(command, args, env, roots, check):
    """`check(s)` on a session of the SDK's streamable HTTP client with `command args` (a
    `tof proxy --listen 127.0.0.1:0`), stopped after."""
    log = tempfile.NamedTemporaryFile("w+", suffix=".log")
    p = subprocess.Popen([command, *args], env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=log)
    try:
        url = await listen_url(p, log)
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write, list_roots_callback=roots) as s:
                s.tof_init = await s.initialize()
                return await check(s)
    finally:
        p.terminate()
        p.wait(timeout=10)
        log.close()


# ---- what each configuration gives -------------------------------------------------------

# (config, server, label) -> list of (call result of the first page, pages' texts)
SEEN = {}


def graph_data(rnd):
    cities = ["Lisbon", "Oslo", "Lima", "Kyoto", "Accra"]
    entities = []
    for i in range(ENTITIES):
        entities.append({
            "name": f"person_{i:04d}",
            "entityType": rnd.choice(["person", "team", "service"]),
            "observations": [
                f"lives in {rnd.choice(cities)} since {1990 + i % 30}",
                f"works on project {rnd.randint(1, 99)} with `tool-{i % 7}` | pipe {i}",
                f"note {i}: " + " ".join(rnd.choice(["alpha", "beta", "gamma", "delta"])
                                          for _ in range(rnd.randint(3, 25))),
            ],
        })
    relations = []
    while len(relations) < RELATIONS:
        a, b = rnd.randrange(ENTITIES), rnd.randrange(ENTITIES)
        r = {"from": f"person_{a:04d}", "to": f"person_{b:04d}",
             "relationType": rnd.choice(["knows", "reports_to", "pairs_with"])}
        if a != b and r not in relations:
            relations.append(r)
    return entities, relations


async def call_and_walk(s, key, tool, args, limit=3000):
    """Call `tool` once, then follow every Next line to the end: the first result and the
    texts of all the pages, kept in SEEN under `key`."""
    first = await s.call_tool(tool, args)
    SEEN[key] = (first, await follow(s, first, limit))


async def memory_calls(config):
    """The same calls in each configuration, on a fresh memory file."""
    (ROOT / "memory.jsonl").unlink(missing_ok=True)
    entities, relations = graph_data(random.Random(7))
    flags = CONFIGS[config]

    async def run(s):
        for i in range(0, ENTITIES, 200):
            await call_and_walk(s, (config, "memory", f"create_entities[{i}]"),
                                "create_entities", {"entities": entities[i:i + 200]})
        await call_and_walk(s, (config, "memory", "create_relations"),
                            "create_relations", {"relations": relations})
        await call_and_walk(s, (config, "memory", "add_observations"), "add_observations", {
            "observations": [{"entityName": f"person_{i:04d}", "contents": [f"added {i}"]}
                             for i in range(0, ENTITIES, 3)]})
        await call_and_walk(s, (config, "memory", "read_graph"), "read_graph", {})
        await call_and_walk(s, (config, "memory", "search_nodes"), "search_nodes",
                            {"query": "Lisbon"})
        await call_and_walk(s, (config, "memory", "open_nodes"), "open_nodes",
                            {"names": [f"person_{i:04d}" for i in range(0, ENTITIES, 5)]})
        await call_and_walk(s, (config, "memory", "delete_entities"), "delete_entities",
                            {"entityNames": ["person_0001"]})
        await call_and_walk(s, (config, "memory", "search_nodes (none)"), "search_nodes",
                            {"query": "no such thing anywhere"})
    await session("memory", flags, run)


async def thinking_calls(config):
    flags = CONFIGS[config]

    async def run(s):
        for n in range(1, 6):
            thought = f"Step {n}: " + "consider the trade-off of budgets. " * (40 * n)
            await call_and_walk(s, (config, "thinking", f"thought {n}"), "sequentialthinking", {
                "thought": thought, "thoughtNumber": n, "totalThoughts": 5,
                "nextThoughtNeeded": n < 5})
        await call_and_walk(s, (config, "thinking", "a branch"), "sequentialthinking", {
            "thought": "Branch from 2", "thoughtNumber": 6, "totalThoughts": 6,
            "nextThoughtNeeded": False, "branchFromThought": 2, "branchId": "b1"})
    await session("thinking", flags, run)


ZONES = ["UTC", "Europe/Lisbon", "America/Lima", "Asia/Tokyo", "Africa/Accra",
         "Australia/Sydney", "America/New_York", "Europe/Oslo"]


async def time_calls(config):
    flags = CONFIGS[config]

    async def run(s):
        for z in ZONES:
            await call_and_walk(s, (config, "time", f"convert {z}"), "convert_time", {
                "source_timezone": "Europe/Lisbon", "time": "16:30", "target_timezone": z})
        await call_and_walk(s, (config, "time", "get_current_time"), "get_current_time",
                            {"timezone": "UTC"})
        await call_and_walk(s, (config, "time", "a bad zone"), "get_current_time",
                            {"timezone": "Mars/Olympus_Mons"})
        await call_and_walk(s, (config, "time", "a bad time"), "convert_time", {
            "source_timezone": "UTC", "time": "25:99", "target_timezone": "UTC"})
    await session("time", flags, run)


def make_files():
    files = ROOT / "files"
    rnd = random.Random(3)
    for d in range(12):
        sub = files / f"dir_{d:02d}"
        sub.mkdir(parents=True)
        for f in range(15):
            body = "".join(f"    line {k} of {d}/{f}: `{rnd.random()}` *x* | y  \n"
                           for k in range(rnd.randint(1, 60)))
            (sub / f"file_{d:02d}_{f:02d}.txt").write_text(body)
    # A text with CRLF and trailing tabs, read by several calls.
    (files / "notes.md").write_bytes(
        "".join(f"# note {i}\r\n\t- item {i}\t\r\n```\r\ncode {i}\r\n```\r\n"
                for i in range(400)).encode())
    # One line of 40,000 characters, with graphemes of several code points (a family emoji
    # joined by ZWJ, a letter and its combining accent), no line break.
    (files / "one_line.txt").write_text(
        "".join(f"{i} e\u0301 \U0001F468\u200D\U0001F469\u200D\U0001F467 wide; "
                for i in range(2200))[:40_000])


def fs_call_list():
    files = ROOT / "files"
    many = [str(files / f"dir_{d:02d}" / f"file_{d:02d}_{f:02d}.txt")
            for d in range(0, 12, 2) for f in range(0, 15, 3)]
    return [
        ("read_multiple_files", "read_multiple_files", {"paths": many}),
        ("list_directory_with_sizes", "list_directory_with_sizes",
         {"path": str(files / "dir_03")}),
        ("search_files", "search_files", {"path": str(files), "pattern": "**/*_0[0-4].txt"}),
        ("get_file_info", "get_file_info", {"path": str(files / "notes.md")}),
        ("read_text_file head", "read_text_file", {"path": str(files / "notes.md"),
                                                   "head": 600}),
        ("read_text_file crlf", "read_text_file", {"path": str(files / "notes.md")}),
        ("read_text_file one line", "read_text_file", {"path": str(files / "one_line.txt")}),
        ("a missing file", "read_text_file", {"path": str(files / "missing.txt")}),
    ]


async def fs_calls(config):
    flags = CONFIGS[config]

    async def run(s):
        for label, tool, args in fs_call_list():
            await call_and_walk(s, (config, "filesystem", label), tool, args)
    await session("filesystem", flags, run)


async def collect():
    for config in CONFIGS:
        await memory_calls(config)
        await thinking_calls(config)
        await time_calls(config)
        if FS:
            await fs_calls(config)


# ---- checks -------------------------------------------------------------------------------

def labels(server_name):
    return sorted({label for (c, s, label) in SEEN if c == "direct" and s == server_name})


def all_text(pages):
    """Every page's text, then the text in their fences joined (a row may go on from one page
    to the next inside a text)."""
    return "\n".join(pages) + "\n" + "".join(fenced_bodies(p) for p in pages)


def values(data):
    """Every string, number and boolean of `data`, as text."""
    if isinstance(data, dict):
        for v in data.values():
            yield from values(v)
    elif isinstance(data, list):
        for v in data:
            yield from values(v)
    elif isinstance(data, bool):
        yield "true" if data else "false"
    elif data is not None:
        yield str(data)


def each_server(check):
    """Run `check(server, label, direct, proxied, config)` on every call seen; the failures
    together in one assertion."""
    failures = []
    for (config, srv, label), (first, pages) in SEEN.items():
        if config == "direct":
            continue
        direct = SEEN[("direct", srv, label)]
        try:
            check(srv, label, direct, (first, pages), config)
        except AssertionError as e:
            failures.append(f"{config} {srv} {label}: {e}"[:1500])
    assert not failures, "\n".join(failures)


def no_call_fails_that_does_not_fail_direct():
    def check(_srv, _label, direct, proxied, _config):
        assert proxied[0].is_error == direct[0].is_error, (
            direct[0].is_error, proxied[0].is_error, proxied[1][0][:500])
    each_server(check)


def a_one_line_error_passes_as_the_server_sent_it():
    seen = 0

    def check(_srv, _label, direct, proxied, _config):
        nonlocal seen
        d = text(direct[0])
        if direct[0].is_error and "\n" not in d:
            seen += 1
            assert text(proxied[0]) == d, (d, text(proxied[0]))
    each_server(check)
    assert seen >= 4, seen


def every_page_is_within_its_budget():
    def check(_srv, _label, _direct, proxied, config):
        first, pages = proxied
        bound = DEFAULT_PAGE_CHARS if config == "default" else BUDGET
        over = [(i, len(p)) for i, p in enumerate(pages) if len(p) > bound]
        assert not over, over
        if config == "default":
            reports = ((first.meta or {}).get("tool-output-format/cuts") or {}).get("reports", [])
            tokens = [r["tokens"] for r in reports if r["tokens"] > DEFAULT_TOKENS]
            assert not tokens, tokens
    each_server(check)


def narrowed(pages):
    """Whether a result's first page left columns out of a table (its own, or one in a record)
    to fit the budget."""
    return NARROWED in pages[0]


def values_reached(only_narrowed):
    """Every value of the direct result's JSON text is in the pages; `only_narrowed`: the
    results whose first page is `narrowed`, else the others. How many were checked."""
    checked = 0

    def check(_srv, label, direct, proxied, _config):
        nonlocal checked
        if narrowed(proxied[1]) != only_narrowed:
            return
        d = text(direct[0])
        try:
            data = json.loads(d)
        except ValueError:
            return
        if label in VOLATILE:
            data = list(data) if isinstance(data, dict) else []  # the keys
        got = all_text(proxied[1])
        # Markdown tables escape `|`; the pages may write it `\\|`.
        got = got.replace("\\|", "|")
        checked += 1
        missing = sorted({v for v in values(data) if v not in got})
        assert not missing, f"{len(missing)} values missing, e.g. {missing[:5]}"
    each_server(check)
    return checked


def every_value_is_reached():
    """Every value of the direct result's JSON (a value shortened in a cell, a column left out,
    is in a later page), but for the narrowed results (checked on their own)."""
    assert values_reached(False) >= 20


def a_table_narrowed_to_fit_is_reached():
    """The results whose table kept every row but left columns out to fit the budget: the
    result is stored, and the columns left out are in later pages."""
    assert values_reached(True) >= 1, "no table was narrowed to fit"


def the_whole_graph_is_reached():
    for config in PROXIED:
        graph = json.loads(text(SEEN[("direct", "memory", "read_graph")][0]))
        assert len(graph["entities"]) == ENTITIES and len(graph["relations"]) > 100, \
            (len(graph["entities"]), len(graph["relations"]))
        got = all_text(SEEN[(config, "memory", "read_graph")][1]).replace("\\|", "|")
        lost = [e["name"] for e in graph["entities"]
                if e["name"] not in got or any(o not in got for o in e["observations"])]
        assert not lost, (config, len(lost), lost[:5])
        # Each relation is one row: its three cells on one line, in any column order.
        rows = [set(c.strip() for c in line.strip().strip("|").split("|"))
                for line in got.splitlines() if line.strip().startswith("|")]
        by_from = {}
        for cells in rows:
            for c in cells:
                by_from.setdefault(c, []).append(cells)
        missing = [r for r in graph["relations"]
                   if not any({r["to"], r["relationType"]} <= cells
                              for cells in by_from.get(r["from"], []))]
        assert not missing, (config, len(missing), missing[:3])


def a_text_joins_back():
    """Each text result (not JSON, not an error, more than one line) joined from its fenced
    pages is the direct text under the documented mapping."""
    seen = 0

    def check(_srv, label, direct, proxied, _config):
        nonlocal seen
        d = text(direct[0])
        if direct[0].is_error or "\n" not in d.strip():
            return
        try:
            json.loads(d)
            return
        except ValueError:
            pass
        if label in ("list_directory_with_sizes", "search_files", "get_file_info"):
            return  # lists the proxy may render as data
        seen += 1
        joined = "".join(fenced_bodies(p) for p in proxied[1])
        expected = as_written(d)
        if joined != expected:
            at = next((i for i, (a, b) in enumerate(zip(joined, expected)) if a != b),
                      min(len(joined), len(expected)))
            raise AssertionError(f"{len(joined)} chars joined, {len(expected)} expected; at "
                                 f"{at}: {joined[at - 40:at + 40]!r} for "
                                 f"{expected[at - 40:at + 40]!r}")
    each_server(check)
    if FS:
        assert seen >= 4, seen


def every_file_name_is_reached():
    if not FS:
        return
    for label in ("list_directory_with_sizes", "search_files"):
        names = set(re.findall(r"file_\d\d_\d\d\.txt", text(SEEN[("direct", "filesystem",
                                                                   label)][0])))
        assert len(names) >= 15, (label, names)
        for config in PROXIED:
            got = all_text(SEEN[(config, "filesystem", label)][1])
            missing = sorted(n for n in names if n not in got)
            assert not missing, (label, config, missing[:5])


async def tools_list_and_initialize_are_upstream_s():
    names = ["memory", "thinking", "time"] + (["filesystem"] if FS else [])
    for name in names:
        async def both(s):
            return (dump_tools((await s.list_tools()).tools),
                    s.tof_init.model_dump(exclude_none=True, mode="json"))
        direct, init = await session(name, None, both)
        kept, kept_init = await session(name, ["--structured-content", "keep"], both)
        fit, fit_init = await session(name, [], both)
        assert init == kept_init == fit_init, (name, init, fit_init)
        for listed in (kept, fit):
            fetch = listed.pop(FETCH)
            assert set(fetch["inputSchema"]["properties"]) >= {"ref", "cursor"}, fetch
        assert kept == direct, (name, [n for n in direct if kept.get(n) != direct[n]])
        for t in direct.values():
            t.pop("outputSchema", None)
        assert fit == direct, (name, [n for n in direct if fit.get(n) != direct[n]])


def structured_content_as_documented():
    """Under fit a result is sent with upstream's structuredContent when nothing was cut and
    its JSON is within the budget, without it otherwise; `_meta` says which."""
    def check(_srv, label, direct, proxied, _config):
        sc = direct[0].structured_content
        first = proxied[0]
        said = ((first.meta or {}).get("tool-output-format/cuts") or {}).get("structured_content")
        if sc is None:
            assert first.structured_content is None and said is None, said
            return
        assert said is not None and said["option"] == "fit", said
        if said["sent"] and label in VOLATILE:
            assert first.structured_content.keys() == sc.keys(), first.structured_content
        elif said["sent"]:
            assert first.structured_content == sc
        else:
            assert first.structured_content is None
        cut = bool(((first.meta or {}).get("tool-output-format/cuts") or {}).get("reports"))
        small = len(json.dumps(sc, separators=(",", ":"), ensure_ascii=False)) <= BUDGET
        if not cut and small:
            assert said["sent"], said
    each_server(check)


CHECKS = [
    no_call_fails_that_does_not_fail_direct,
    a_one_line_error_passes_as_the_server_sent_it,
    every_page_is_within_its_budget,
    every_value_is_reached,
    a_table_narrowed_to_fit_is_reached,
    the_whole_graph_is_reached,
    a_text_joins_back,
    every_file_name_is_reached,
    structured_content_as_documented,
]


async def run():
    results = []
    try:
        await asyncio.wait_for(collect(), timeout=900)
    except Exception:  # noqa: BLE001 - every failure is reported, then counted
        results.append(("collect_every_page", traceback.format_exc()))
    try:
        await asyncio.wait_for(tools_list_and_initialize_are_upstream_s(), timeout=180)
        results.append(("tools_list_and_initialize_are_upstream_s", None))
    except Exception:  # noqa: BLE001
        results.append(("tools_list_and_initialize_are_upstream_s", traceback.format_exc()))
    for check in CHECKS:
        try:
            check()
            results.append((check.__name__, None))
        except Exception:  # noqa: BLE001
            results.append((check.__name__, traceback.format_exc()))
    return results


def summary():
    """Per call: direct characters, then per configuration the first text and the fetch
    pages (how many, the largest)."""
    print("| server | call | direct chars | default: first (+pages, largest) | 2000: first "
          "(+pages, largest) |", file=sys.stderr)
    print("|---|---|---:|---:|---:|", file=sys.stderr)
    for (config, srv, label), (first, pages) in SEEN.items():
        if config != "direct":
            continue
        cols = []
        for c in ("default", "2000"):
            p = SEEN.get((c, srv, label), (None, []))[1]
            more = f" (+{len(p) - 1}, {max(len(x) for x in p[1:]):,})" if len(p) > 1 else ""
            cols.append(f"{len(p[0]) if p else 0:,}{more}")
        print(f"| {srv} | {label} | {len(pages[0]):,} | {cols[0]} | {cols[1]} |",
              file=sys.stderr)


def main():
    global TOF, MEMORY, THINKING, TIME, FS, ROOT
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    TOF, MEMORY, THINKING, TIME = sys.argv[1:5]
    FS = sys.argv[5] if len(sys.argv) == 6 else None
    with tempfile.TemporaryDirectory(prefix="tof-outside-") as tmp:
        ROOT = pathlib.Path(tmp).resolve()
        make_files()
        results = asyncio.run(run())
    if os.environ.get("TOF_OUTSIDE_DUMP"):
        dump = pathlib.Path(os.environ["TOF_OUTSIDE_DUMP"])
        dump.mkdir(parents=True, exist_ok=True)
        for (config, srv, label), (_first, pages) in SEEN.items():
            name = re.sub(r"[^\w.-]+", "_", f"{config}-{srv}-{label}")
            (dump / f"{name}.md").write_text("\n\n=== page ===\n\n".join(pages))
    if os.environ.get("TOF_OUTSIDE_SUMMARY"):
        summary()
    report("proxy_outside", results, pending=PENDING)


if __name__ == "__main__":
    main()
