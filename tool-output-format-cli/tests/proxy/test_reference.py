"""`tof proxy` in front of three reference MCP servers people run, pinned in
`.ci/proxy.sh`: `@modelcontextprotocol/server-filesystem` (npm), `mcp-server-git` and
`mcp-server-sqlite` (PyPI, each in its own virtual environment: `mcp-server-sqlite` needs
`mcp<2`), driven by the official MCP Python SDK client, with the proxy out of the box and
with `--max-chars 2000`, every `Next:` line followed to the end.

    python test_reference.py PATH_TO_TOF PATH_TO_SERVER_FILESYSTEM PATH_TO_MCP_SERVER_GIT \
        PATH_TO_MCP_SERVER_SQLITE

The fixtures are made at run time in a temporary folder: a directory tree, a text file of about
100 KB, a text file of the bytes a text page writes otherwise (docs/proxy.md, "Text round
trip"), a git repository with 30 commits (one of them large), a SQLite database of 5,000 orders
and 400 customers.

A check named in PENDING waits on work not done yet: it runs and is reported as `pending`
(counted as ignored, not failed); when it passes it says so, and the name can be taken out of
PENDING. None is pending now.

Prints libtest's lines and exits non-zero on a failure.
"""

import asyncio
import json
import os
import pathlib
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import traceback

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
import mcp.types as types

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "clients"))
from libtest import report  # noqa: E402 - found through the path above

# Checks that wait on work not done yet; see the module's docstring.
# - the fetch tool's `query` on a stored text keeps matching lines, not their blocks (a
#   commit's "Message:" line without its "Commit:" line): the library's `store::Fetch`
#   focuses a stored text line by line, where `Formatter::focus` keeps log entries whole.
PENDING: set[str] = set()
FETCH = "get_stored_result"
NEXT = re.compile(r'^Next: call (\w+)\(ref="([^"]+)"(?:, cursor="([^"]*)")?\)$')
BUDGET = 2000
# The proxy's default budget is 10,000 o200k tokens; no page of it is near this many characters.
DEFAULT_PAGE_CHARS = 60_000
DEFAULT_TOKENS = 10_000
ORDERS, CUSTOMERS, COMMITS = 5000, 400, 30
TOF = FS = GIT = SQLITE = None
ROOT = None  # the fixtures' folder


# ---- fixtures -------------------------------------------------------------------------------


def make_fixtures(root):
    rnd = random.Random(48)
    tree = root / "tree"
    for a in range(4):
        for b in range(5):
            d = tree / f"pkg_{a}" / f"mod_{b}"
            d.mkdir(parents=True)
            for c in range(3):
                (d / f"file_{a}_{b}_{c}.rs").write_text(f"// {a}.{b}.{c}\n")
    # ~100 KB of text that markdown would mangle: indentation, backticks, markup, blank lines.
    lines = []
    for i in range(2600):
        indent = " " * (4 * (i % 4))
        lines.append(f"{indent}let v{i} = `x` + *y* - [z]({i}) # {rnd.randint(0, 10**9)}")
        if i % 37 == 0:
            lines.append("")
    (root / "big.txt").write_text("\n".join(lines) + "\n")
    # Every case of docs/proxy.md's text round trip, over several pages at 2,000 characters,
    # and what is kept as it is beside them; no final line break.
    odd = []
    for i in range(60):
        odd += [
            f"{i}: trailing spaces   \n", f"{i}: a trailing tab\t\n", f"{i}: tab then space\t \n",
            f"{i}: CRLF\r\n", f"{i}: a lone CR\rthen more\n", "   \n",
            f"{i}: ESC \x1b[31m, BEL \x07, DEL \x7f, C1 \x85, RLO \u202e, LS \u2028 end\n",
            f"{i}: a control before a space \x07 \n",
            f"{i}: kept: \\u{{20}} | \\ < nbsp \u00a0 zwsp \u200b `x` ```y``` ~~~ \t mid\n",
            f"    {i}: indented, *markup*, [link](x), <b>\n",
            "\n",
        ]
    (root / "odd.txt").write_bytes(("".join(odd) + "the end, no line break  ").encode())
    repo = root / "repo"
    repo.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.com",
               GIT_COMMITTER_NAME="Ada", GIT_COMMITTER_EMAIL="ada@example.com")

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    git("init", "-q", "-b", "main")
    for i in range(COMMITS):
        src = repo / "src" / f"m{i % 6}.py"
        src.parent.mkdir(exist_ok=True)
        body = "".join(f"def f{i}_{k}(x):\n    return x + {k}  # `tick` {rnd.random()}\n"
                       for k in range(40))
        src.write_text((src.read_text() if src.exists() else "") + body)
        if i == COMMITS // 2:  # the large commit: ~300 KB of new lines
            (repo / "data.csv").write_text("".join(
                f"{n},{rnd.randint(0, 10**6)},name {n},  padded\n" for n in range(9000)))
        git("add", "-A")
        git("commit", "-q", "-m", f"change {i}: touch {src.name}")
    db = sqlite3.connect(root / "shop.db")
    db.execute("CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name TEXT, city TEXT)")
    db.execute("CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, "
               "amount REAL, status TEXT)")
    db.executemany("INSERT INTO customers VALUES (?, ?, ?)",
                   [(c, f"Customer {c}", rnd.choice(["Lisbon", "Oslo", "Lima"]))
                    for c in range(1, CUSTOMERS + 1)])
    db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)",
                   [(o, rnd.randint(1, CUSTOMERS), round(rnd.uniform(1, 500), 2),
                     rnd.choice(["paid", "open", "refunded"])) for o in range(1, ORDERS + 1)])
    db.commit()
    db.close()


# ---- sessions -------------------------------------------------------------------------------


def servers():
    return {
        "filesystem": (FS, [str(ROOT)]),
        "git": (GIT, ["--repository", str(ROOT / "repo")]),
        "sqlite": (SQLITE, ["--db-path", str(ROOT / "shop.db")]),
    }


async def session(server, proxy_args, check, roots_asked=None):
    """Run `check(s)` on a session with `server`, direct (`proxy_args` None) or through
    `tof proxy proxy_args`. The client offers the fixtures' folder as its root."""
    command, args = servers()[server]
    if proxy_args is not None:
        args = ["proxy", *proxy_args, "--", command, *args]
        command = TOF

    async def roots(_ctx):
        if roots_asked is not None:
            roots_asked.append(1)
        return types.ListRootsResult(roots=[types.Root(uri=ROOT.as_uri())])

    params = StdioServerParameters(command=command, args=args)
    # The servers' logs are noise; TOF_TEST_STDERR=1 shows them.
    errlog = sys.stderr if os.environ.get("TOF_TEST_STDERR") else open(os.devnull, "w")
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write, list_roots_callback=roots) as s:
            s.tof_init = await s.initialize()
            return await check(s)


def text(result):
    return "".join(c.text for c in result.content if c.type == "text")


def next_line(md):
    lines = [l for l in md.splitlines() if l.startswith("Next:")]
    assert len(lines) <= 1, f"more than one Next line:\n{lines}"
    return lines[0] if lines else None


async def walk(s, tool, args, limit=3000, firsts=None):
    """Call `tool`, then follow every Next line to the end: the texts of all the pages
    (`firsts`, when given, gets the first result)."""
    first = await s.call_tool(tool, args)
    assert not first.is_error, text(first)[:500]
    if firsts is not None:
        firsts.append(first)
    return await follow(s, first, limit)


async def follow(s, first, limit=3000):
    """The text of the result `first`, then of every page its Next lines lead to, in order."""
    pages = [text(first)]
    line = next_line(pages[0])
    while line is not None:
        m = NEXT.match(line)
        assert m, line
        name, ref, cursor = m.groups()
        assert name == FETCH, line
        page = await s.call_tool(FETCH, {"ref": ref} if cursor is None else
                                 {"ref": ref, "cursor": cursor})
        assert not page.is_error, text(page)[:500]
        pages.append(text(page))
        assert len(pages) <= limit, f"{len(pages)} pages: the cursor does not advance? {line}"
        line = next_line(pages[-1])
    return pages


async def listen_url(p, log):
    """The URL the process `p` (`tof proxy --listen 127.0.0.1:0`, its standard error written
    to the file `log`) serves, once it says so."""
    for _ in range(600):
        m = re.search(r"listening on (http://\S+/mcp)", pathlib.Path(log.name).read_text())
        if m:
            return m.group(1)
        assert p.poll() is None, pathlib.Path(log.name).read_text()
        await asyncio.sleep(0.05)
    raise AssertionError("tof proxy --listen did not start")


async def direct_text(server, tool, args):
    async def call(s):
        r = await s.call_tool(tool, args)
        assert not r.is_error, text(r)[:500]
        return text(r)
    return await session(server, None, call)


# What a text page writes otherwise (docs/proxy.md, "Text round trip"): hidden controls, the
# library's `text::is_hidden_control` but tab and the line breaks a line never holds.
HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def as_written(original):
    """`original` as its text pages joined give it back (docs/proxy.md, "Text round trip"):
    every line break (`\\r\\n`, a lone `\\r`) a `\\n`, one added at the end when there is none,
    each space and tab that ends a line as `\\u{20}` / `\\u{9}`, each hidden control as
    `\\u{HEX}`; nothing else changed."""
    lines = re.split(r"\r\n|\r|\n", original)
    if lines[-1] == "":
        lines.pop()
    out = []
    for line in lines:
        body = line.rstrip(" \t")
        body = HIDDEN.sub(lambda m: "\\u{%X}" % ord(m.group()), body)
        tail = "".join("\\u{20}" if c == " " else "\\u{9}" for c in line[len(line.rstrip(" \t")):])
        out.append(body + tail + "\n")
    return "".join(out)


def fenced_bodies(page):
    """The text inside each fence of a page (the fence is as long as it needs to be)."""
    bodies, lines, i = [], page.splitlines(keepends=True), 0
    while i < len(lines):
        m = re.match(r"^(`{3,})[^`]*$", lines[i].rstrip("\n"))
        if not m:
            i += 1
            continue
        fence, body, i = m.group(1), [], i + 1
        while i < len(lines) and lines[i].rstrip("\n") != fence:
            body.append(lines[i])
            i += 1
        bodies.append("".join(body))
        i += 1
    return "".join(bodies)


# Calls walked under both budgets: (server, tool, arguments).
def calls():
    repo = str(ROOT / "repo")
    return {
        "read_text_file": ("filesystem", "read_text_file", {"path": str(ROOT / "big.txt")}),
        "read_odd_text": ("filesystem", "read_text_file", {"path": str(ROOT / "odd.txt")}),
        "directory_tree": ("filesystem", "directory_tree", {"path": str(ROOT / "tree")}),
        "git_log": ("git", "git_log", {"repo_path": repo, "max_count": COMMITS}),
        "git_show_large": ("git", "git_show", {"repo_path": repo,
                                               "revision": f"HEAD~{COMMITS - 1 - COMMITS // 2}"}),
        "git_diff": ("git", "git_diff", {"repo_path": repo, "target": f"HEAD~{COMMITS - 1}"}),
        "read_query_all": ("sqlite", "read_query", {"query": "SELECT * FROM orders"}),
        "read_query_join": ("sqlite", "read_query", {
            "query": "SELECT o.order_id, c.name, c.city, o.amount FROM orders o "
                     "JOIN customers c USING (customer_id) WHERE o.status = 'paid'"}),
    }


WALKED = {}  # (call, budget) -> pages; filled once by walk_everything
FIRSTS = {}  # (call, budget) -> the first result (its _meta), likewise


async def walk_everything():
    for budget in (None, BUDGET):
        flags = [] if budget is None else ["--max-chars", str(budget)]
        by_server = {}
        for name, (server, tool, args) in calls().items():
            by_server.setdefault(server, []).append((name, tool, args))
        for server, items in by_server.items():
            async def run(s, items=items, budget=budget):
                for name, tool, args in items:
                    firsts = []
                    WALKED[(name, budget)] = await walk(s, tool, args, firsts=firsts)
                    FIRSTS[(name, budget)] = firsts[0]
            await session(server, flags, run)


# ---- checks ---------------------------------------------------------------------------------


def dump_tools(tools):
    return {t.name: t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools}


async def tools_list(server, proxy_args):
    async def check(s):
        return dump_tools((await s.list_tools()).tools)
    return await session(server, proxy_args, check)


async def tools_list_is_upstream_s_plus_the_fetch_tool():
    for server in servers():
        direct = await tools_list(server, None)
        kept = await tools_list(server, ["--structured-content", "keep"])
        fetch = kept.pop(FETCH)
        assert set(fetch["inputSchema"]["properties"]) >= {"ref", "cursor"}, fetch
        assert kept == direct, (server, [n for n in direct if kept.get(n) != direct[n]])
        # Out of the box (structured_content = "fit") a tool may answer without its
        # structuredContent, so it is listed without its outputSchema; nothing else changes.
        fit = await tools_list(server, [])
        fit.pop(FETCH)
        for t in direct.values():
            t.pop("outputSchema", None)
        assert fit == direct, (server, [n for n in direct if fit.get(n) != direct[n]])
    # server-filesystem's tools carry `execution` (rmcp's types dropped it).
    fs = await tools_list("filesystem", [])
    assert all("execution" in t for n, t in fs.items() if n != FETCH), fs


async def roots_list_is_answered():
    asked = []

    async def check(s):
        r = await s.call_tool("list_allowed_directories", {})
        return text(r)
    # The client's root replaces the folder on the command line once the server has asked.
    allowed = await session("filesystem", [], check, roots_asked=asked)
    assert asked, "the server's roots/list never reached the client"
    assert str(ROOT.resolve()) in allowed, allowed


async def roots_list_is_answered_over_listen():
    # server-filesystem asks for the roots as it starts, before any client is connected: under
    # --listen the request waits for a client's request and goes to that client.
    from mcp.client.streamable_http import streamable_http_client

    log = tempfile.NamedTemporaryFile("w+", suffix=".log")
    p = subprocess.Popen([TOF, "proxy", "--listen", "127.0.0.1:0", "--", FS, str(ROOT / "tree")],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    try:
        url = await listen_url(p, log)
        asked = []

        async def roots(_ctx):
            asked.append(1)
            return types.ListRootsResult(roots=[types.Root(uri=ROOT.as_uri())])

        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write, list_roots_callback=roots) as s:
                await s.initialize()
                for _ in range(50):
                    allowed = text(await s.call_tool("list_allowed_directories", {}))
                    if asked and "tree" not in allowed:
                        break
                    await asyncio.sleep(0.1)
        assert asked, "the server's roots/list never reached the client"
        # The client's root replaced the folder on the command line.
        assert str(ROOT.resolve()) in allowed and "tree" not in allowed, allowed
    finally:
        p.terminate()
        p.wait(timeout=10)
        log.close()


async def initialize_is_upstream_s():
    for server in servers():
        async def capabilities(s):
            return s.tof_init.model_dump(exclude_none=True, mode="json")
        direct = await session(server, None, capabilities)
        proxied = await session(server, [], capabilities)
        # Capabilities, server info, instructions, protocol version: upstream's (the fetch
        # tool needs `tools`, which all three declare already).
        assert proxied == direct, (server, direct, proxied)


def pages(name, budget):
    return WALKED[(name, budget)]


def joined_pages(name, budget):
    """Every page's text, then the text inside their fences joined (a text page may stop
    inside a line, so a row can start on one page and end on the next)."""
    texts = pages(name, budget)
    return "\n".join(texts) + "\n" + "".join(fenced_bodies(p) for p in texts)


def column_values(text, column):
    """The cells of `column` in every markdown table of `text` (found by its header)."""
    values, at = set(), None
    for line in text.splitlines():
        if not line.startswith("|"):
            at = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if at is None:
            at = cells.index(column) if column in cells else None
        elif at < len(cells) and cells[at].isdigit():
            values.add(cells[at])
    return values


async def every_sqlite_row_is_reached():
    for budget in (None, BUDGET):
        joined = joined_pages("read_query_all", budget)
        ids = set(int(i) for i in re.findall(r"'order_id': (\d+)", joined))
        ids |= set(int(i) for i in column_values(joined, "order_id"))
        missing = set(range(1, ORDERS + 1)) - ids
        assert not missing, (budget, len(missing), sorted(missing)[:5])


async def every_joined_row_is_reached():
    expected = await direct_text("sqlite", "read_query", calls()["read_query_join"][2])
    n = len(re.findall(r"'order_id': (\d+)", expected))
    assert n > 100, expected[:300]
    for budget in (None, BUDGET):
        joined = joined_pages("read_query_join", budget)
        got = set(re.findall(r"'order_id': (\d+)", joined))
        got |= column_values(joined, "order_id")
        assert len(got) >= n, (budget, len(got), n)


async def every_commit_is_reached():
    for budget in (None, BUDGET):
        joined = "\n".join(pages("git_log", budget))
        for i in range(COMMITS):
            assert f"change {i}: " in joined, (budget, i)


async def every_line_of_the_large_commit_is_reached():
    for budget in (None, BUDGET):
        joined = "\n".join(pages("git_show_large", budget))
        for n in (0, 4500, 8999):
            assert f"+{n}," in joined, (budget, n)


async def every_name_of_the_tree_is_reached():
    for budget in (None, BUDGET):
        joined = "\n".join(pages("directory_tree", budget))
        for a in range(4):
            for b in range(5):
                for c in range(3):
                    assert f"file_{a}_{b}_{c}.rs" in joined, (budget, a, b, c)


async def every_line_of_the_text_file_is_reached():
    original = (ROOT / "big.txt").read_text()
    for budget in (None, BUDGET):
        joined = "\n".join(pages("read_text_file", budget))
        for i in (0, 1300, 2599):
            assert f"let v{i} = " in joined, (budget, i)
    assert original


async def pages_are_within_the_budget():
    over = []
    for (name, budget), texts in WALKED.items():
        bound = DEFAULT_PAGE_CHARS if budget is None else budget
        over += [(name, budget, i, len(t)) for i, t in enumerate(texts) if len(t) > bound]
    assert not over, over[:10]
    # Out of the box the bound is 10,000 o200k tokens: the first text's report counts them
    # (no tokenizer here; the fetch pages are held to the characters above).
    cut = 0
    for (name, budget), first in FIRSTS.items():
        reports = ((first.meta or {}).get("tool-output-format/cuts") or {}).get("reports", [])
        cut += budget is None and bool(reports)
        bound = DEFAULT_TOKENS if budget is None else None
        over += [(name, budget, r["tokens"]) for r in reports
                 if bound is not None and r["tokens"] > bound]
        # A report's characters are the text's (one text block: the page itself).
        over += [(name, budget, r["chars"], len(text(first))) for r in reports
                 if r["chars"] != len(text(first))]
    assert not over, over[:10]
    assert cut >= 5, cut


def joins_back(name, original):
    """The fenced text of `name`'s pages joined, under both budgets, is exactly `original` as
    written (`as_written`)."""
    expected = as_written(original)
    for budget in (None, BUDGET):
        joined = "".join(fenced_bodies(p) for p in pages(name, budget))
        if joined != expected:
            at = next((i for i, (a, b) in enumerate(zip(joined, expected)) if a != b),
                      min(len(joined), len(expected)))
            raise AssertionError(
                f"{name} at {budget}: {len(joined)} chars joined, {len(expected)} expected; "
                f"first difference at {at}: {joined[at - 40:at + 40]!r} "
                f"instead of {expected[at - 40:at + 40]!r}")


async def a_text_file_joins_back_byte_for_byte():
    original = (ROOT / "big.txt").read_text()
    # Nothing in it is written otherwise: the join is the file, byte for byte.
    assert as_written(original) == original
    joins_back("read_text_file", original)


async def a_diff_joins_back_byte_for_byte():
    original = await direct_text("git", *calls()["git_diff"][1:])
    joins_back("git_diff", original)


async def a_large_commit_joins_back_byte_for_byte():
    original = await direct_text("git", *calls()["git_show_large"][1:])
    joins_back("git_show_large", original)


async def a_text_of_odd_bytes_joins_back_by_the_documented_mapping():
    original = (ROOT / "odd.txt").read_bytes().decode()
    direct = await direct_text("filesystem", *calls()["read_odd_text"][1:])
    assert direct == original, "server-filesystem did not send the file as it is"
    assert len(pages("read_odd_text", BUDGET)) > 3, "the odd text was not paged"
    joins_back("read_odd_text", original)


def commits_said(text):
    """(message, hash) of every commit message in `text`, with the hash of the `Commit:` line
    of its block (lines up to a blank one or a fence; None when the block has none). A block
    may be a list item's, its lines indented under the item."""
    said, block = [], None
    for line in text.splitlines():
        line = line.removeprefix("- ").strip()
        if not line.strip() or line.startswith(("```", "[")):
            block = None
        elif m := re.match(r"^Commit: ([0-9a-f]{40})$", line):
            block = m.group(1)
        elif m := re.match(r"^Message: (change \d+):", line):
            said.append((m.group(1), block))
    return said


async def kept_with_their_hashes(focused):
    """Each commit message in `focused` (a query for "change 7") comes with its own hash, as
    git logs it, and commit 7's is among them."""
    direct = dict(commits_said(await direct_text("git", *calls()["git_log"][1:])))
    assert len(direct) == COMMITS and None not in direct.values(), direct
    said = commits_said(focused)
    assert ("change 7", direct["change 7"]) in said, focused[:1500]
    wrong = [(m, h) for m, h in said if direct.get(m) != h]
    assert not wrong, f"messages without their commit's hash: {wrong}\n{focused[:1500]}"


async def focus_keeps_each_commit_with_its_hash():
    # The proxy's focus option on a call: `query_arg` names the argument whose text focuses
    # the result (mcp-server-git ignores an argument it does not know).
    config = ROOT / "focus.toml"
    config.write_text('[tools.git_log]\nquery_arg = "query"\n')
    args = {**calls()["git_log"][2], "query": "change 7"}
    for flags in ([], ["--max-chars", str(BUDGET)]):
        async def call(s):
            r = await s.call_tool("git_log", args)
            assert not r.is_error, text(r)[:500]
            return text(r)
        focused = await session("git", ["--config", str(config), *flags], call)
        if flags:
            assert "relevant to \"change 7\"" in focused, focused[:500]
        await kept_with_their_hashes(focused)


async def a_fetch_query_keeps_each_commit_with_its_hash():
    # The fetch tool's `query` on the stored git log (cut at 2,000 characters).
    # Every page of the query, following its Next lines (they carry the query).
    async def call(s):
        first = text(await s.call_tool("git_log", calls()["git_log"][2]))
        args = {"ref": NEXT.match(next_line(first)).group(2), "query": "change 7"}
        pages = []
        while args is not None and len(pages) < 100:
            page = await s.call_tool(FETCH, args)
            assert not page.is_error, text(page)[:500]
            pages.append(text(page))
            line = next((l for l in pages[-1].splitlines() if l.startswith("Next: call ")), None)
            args = None
            if line is not None and line.startswith(f"Next: call {FETCH}("):
                args = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', line))
        return "\n".join(pages)
    await kept_with_their_hashes(await session("git", ["--max-chars", str(BUDGET)], call))


async def which_bounds_apply():
    # docs/proxy.md, "Which bounds apply": a budget is the bound (no 100-line cap beside it);
    # an explicit max_lines still applies under it; with no budget at all (agent = false),
    # the library's 100 lines.
    args = calls()["read_text_file"][2]
    (ROOT / "cap.toml").write_text("[tools.read_text_file]\nmax_lines = 50\n")
    (ROOT / "no_budget.toml").write_text("[defaults]\nagent = false\n")
    kept = {}
    for name, flags in [("budget", ["--max-chars", "60000"]),
                        ("cap", ["--max-chars", "60000", "--config", str(ROOT / "cap.toml")]),
                        ("none", ["--config", str(ROOT / "no_budget.toml")])]:
        async def call(s):
            return text(await s.call_tool("read_text_file", args))
        md = await session("filesystem", flags, call)
        kept[name] = (len(md), len(re.findall(r"let v\d+ = ", md)), md.splitlines()[0])
    chars, lines, _ = kept["budget"]
    assert 50_000 < chars <= 60_000 and lines > 1000, kept
    assert kept["cap"][2].startswith("[Truncated to 50 lines of "), kept
    assert kept["none"][2].startswith("[Truncated to 100 lines of "), kept


async def sqlite_rows_are_a_table():
    first = pages("read_query_all", None)[0]
    assert any(l.startswith("|") for l in first.splitlines()), first[:300]
    assert "5000" in first, first[:300]


async def structured_content_follows_the_option():
    path = {"path": str(ROOT / "big.txt")}
    original = (ROOT / "big.txt").read_text()
    out = {}
    for option in ("fit", "keep", "drop"):
        async def call(s):
            return await s.call_tool("read_text_file", path)
        out[option] = await session("filesystem", ["--structured-content", option], call)
    # fit (the default): the text was cut, so the whole file does not come back beside it.
    fit = out["fit"]
    assert fit.structured_content is None, str(fit.structured_content)[:200]
    said = fit.meta["tool-output-format/cuts"]["structured_content"]
    assert said["option"] == "fit" and said["sent"] is False, said
    assert said["chars"] > len(original), said
    assert len(text(fit)) < len(original) // 2, len(text(fit))
    # keep: upstream's data whole (the SDK validated it against the listed outputSchema).
    assert out["keep"].structured_content == {"content": original}
    assert out["drop"].structured_content is None
    # A result within the budget keeps it under fit.
    async def small(s):
        return await s.call_tool("read_text_file", {"path": str(ROOT / "tree/pkg_0/mod_0/file_0_0_0.rs")})
    r = await session("filesystem", [], small)
    assert r.structured_content == {"content": "// 0.0.0\n"}, r


CHECKS = [
    tools_list_is_upstream_s_plus_the_fetch_tool,
    initialize_is_upstream_s,
    roots_list_is_answered,
    roots_list_is_answered_over_listen,
    structured_content_follows_the_option,
    every_sqlite_row_is_reached,
    every_joined_row_is_reached,
    every_commit_is_reached,
    every_line_of_the_large_commit_is_reached,
    every_name_of_the_tree_is_reached,
    every_line_of_the_text_file_is_reached,
    pages_are_within_the_budget,
    a_text_file_joins_back_byte_for_byte,
    a_diff_joins_back_byte_for_byte,
    a_large_commit_joins_back_byte_for_byte,
    a_text_of_odd_bytes_joins_back_by_the_documented_mapping,
    focus_keeps_each_commit_with_its_hash,
    a_fetch_query_keeps_each_commit_with_its_hash,
    which_bounds_apply,
    sqlite_rows_are_a_table,
]


async def run():
    results = []
    try:
        await asyncio.wait_for(walk_everything(), timeout=600)
    except Exception:  # noqa: BLE001 - every failure is reported, then counted
        results.append(("walk_every_next_line", traceback.format_exc()))
    for check in CHECKS:
        try:
            await asyncio.wait_for(check(), timeout=180)
            results.append((check.__name__, None))
        except Exception:  # noqa: BLE001
            results.append((check.__name__, traceback.format_exc()))
    return results


def main():
    global TOF, FS, GIT, SQLITE, ROOT
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    TOF, FS, GIT, SQLITE = sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="tof-reference-") as tmp:
        ROOT = pathlib.Path(tmp).resolve()
        make_fixtures(ROOT)
        results = asyncio.run(run())
    report("proxy_reference", results, pending=PENDING)


if __name__ == "__main__":
    main()
