"""`tof proxy` side by side with mcp-compressor on the same FastMCP upstream and the
same recorded API responses: characters and o200k tokens of the text the model reads (the
result's text content blocks, joined by a newline) per response and in total, the ratio to
the upstream called direct, and what a cut result says, how the rest is reached, whether a
cursor survives.

    python compare_compressor.py PATH_TO_TOF [PATH_TO_MCP_COMPRESSOR] [--dump DIR]

Pinned (a fresh venv: python3 -m venv /tmp/cmp-venv):
    pip install 'mcp==2.3.0' 'fastmcp==4.1.6' 'mcp-compressor==0.38.2' 'tiktoken==0.14.0'
PATH_TO_MCP_COMPRESSOR defaults to `mcp-compressor` beside this Python.

Tokens: tiktoken's o200k_base. tiktoken downloads its vocabulary on first use; without a
network, set O200K_FILE to a local o200k_base.tiktoken (the script also looks for the copy in
the cargo registry's tiktoken-rs, the one `tof` itself counts with); its SHA-256 is checked.

The upstream is upstream_server.py plus one tool, `list_issues_page` (started as
`python compare_compressor.py upstream`): the recorded issues in a Slack-style page,
{"ok", "items", "response_metadata": {"next_cursor"}}, the cursor after the long array, to
see whether a pagination cursor survives each cut. It is not in the totals.

The six configurations: (a) the upstream direct; (b) `tof proxy` out of the box (the agent
preset, 10,000 o200k tokens a result); (c) `tof proxy --max-chars 4000`; mcp-compressor
(d) `--toonify`, (e) `--shrinkfit` (its default, 20,000 characters), (f) `--shrinkfit=4000`.
mcp-compressor lists two tools (`server_get_tool_schema`, `server_invoke_tool`); a backend
tool is called through `server_invoke_tool(tool_name=..., tool_input={})`, as a host would.
"""

import asyncio
import glob
import hashlib
import json
import os
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).parent
TOOLS = ["list_issues", "list_repos", "list_employees"]
PAGE_TOOL = "list_issues_page"
CURSOR = "dXNlcjpVMDYxTkZUVDI6MTcwMDAwMDAwMA=="
# The field that names a row in each response (checked in whatever the model can reach; an
# issue by `id`, which every configuration keeps: --shrinkfit=4000 drops `number`).
ROW_KEY = {"list_issues": "id", "list_repos": "full_name", "list_employees": "id"}
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
NEXT = re.compile(r'Next: call (\w+)\(ref="(r_[0-9a-z]+)"(?:, cursor="([^"]+)")?\)')


def serve_upstream():
    sys.path.insert(0, str(HERE))
    sys.dont_write_bytecode = True  # no __pycache__ beside the tests
    import upstream_server

    @upstream_server.mcp.tool
    def list_issues_page() -> str:
        """One page of issues, Slack-style, with the next page's cursor after the items."""
        items = json.loads(upstream_server.recorded("issues_30"))
        page = {"ok": True, "items": items, "response_metadata": {"next_cursor": CURSOR}}
        return json.dumps(page, indent=2, ensure_ascii=False)

    upstream_server.mcp.run(show_banner=False)


def encoder():
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext import openai_public

    path = os.environ.get("O200K_FILE") or next(
        iter(sorted(glob.glob(os.path.expanduser(
            "~/.cargo/registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken")))), None)
    if not path:
        return tiktoken.get_encoding("o200k_base"), "tiktoken o200k_base (downloaded)"
    assert hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest() == O200K_SHA256, path
    # o200k_base() loads its vocabulary from the URL: read the local copy in its place.
    openai_public.load_tiktoken_bpe = lambda _url, expected_hash: load_tiktoken_bpe(
        path, expected_hash=expected_hash)
    spec = openai_public.o200k_base()
    return tiktoken.Encoding(**spec), f"tiktoken o200k_base (vocabulary from {path})"


def texts(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


def structured_chars(result):
    s = result.structured_content
    return len(json.dumps(s, ensure_ascii=False)) if s is not None else 0


def recorded_rows(tool):
    name = {"list_issues": "issues_30", "list_repos": "repos_100",
            "list_employees": "employees_100"}[tool]
    return json.loads((HERE / "data" / f"{name}.json").read_text())


def rows_seen(tool, text):
    """How many of the response's rows the text names (by the row's key value)."""
    key = ROW_KEY[tool]
    seen = 0
    for row in recorded_rows(tool):
        value = str(row[key])
        # A key value delimited as a cell, a JSON/TOON value or a bullet value.
        if re.search(r'(?<![\w/.-])' + re.escape(value) + r'(?![\w/.-])', text):
            seen += 1
    return seen


def notices(text):
    """The lines of a tof result that announce a cut or a fold."""
    return [line for line in text.splitlines()
            if line.startswith("[") and line.endswith("]") or line.startswith("Next:")]


def omissions(value):
    """mcp-compressor's in-band markers: (items omitted, keys omitted, strings truncated)."""
    items = keys = strings = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            for x in v:
                m = isinstance(x, str) and re.fullmatch(r"…\[(\d+) items? omitted\]", x)
                if m:
                    items += int(m.group(1))
                else:
                    stack.append(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                m = k == "…" and isinstance(x, str) and re.fullmatch(r"(\d+) keys? omitted", x)
                if m:
                    keys += int(m.group(1))
                else:
                    stack.append(x)
        elif isinstance(v, str) and re.search(r"…\[\+[^\]]*chars\]", v):
            strings += 1
    return items, keys, strings


def unmarked_drops(original, kept):
    """Keys of the original missing from the condensed JSON where no "…" marker counts them,
    over every pair of objects the condensed JSON kept (rows matched by MATCH_KEY)."""
    if isinstance(original, dict) and isinstance(kept, dict):
        marker = re.fullmatch(r"(\d+) keys? omitted", str(kept.get("…", "")))
        missing = [k for k in original if k not in kept]
        n = max(0, len(missing) - (int(marker.group(1)) if marker else 0))
        return n + sum(unmarked_drops(original[k], kept[k]) for k in original if k in kept)
    if isinstance(original, list) and isinstance(kept, list):
        rows = [x for x in kept if isinstance(x, dict)]
        key = next((k for k in ("id", "full_name") if rows and all(k in x for x in rows)), None)
        if key and all(isinstance(x, dict) for x in original):
            by_key = {x.get(key): x for x in original}
            return sum(unmarked_drops(by_key.get(x[key]), x) for x in rows)
    return 0


def kept_items(value):
    return sum(1 for x in value if not isinstance(x, str)) if isinstance(value, list) else None


async def session(command, args, fn):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=command, args=args)
    with open(os.devnull, "w") as devnull:  # mcp-compressor prints a banner on stderr
        async with stdio_client(params, errlog=devnull) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await fn(s)


def direct_calls():
    async def run(s):
        out = {}
        for tool in TOOLS + [PAGE_TOOL]:
            r = await s.call_tool(tool, {})
            out[tool] = {"text": texts(r), "structured": structured_chars(r)}
        return out
    return run


def tof_calls():
    async def run(s):
        out = {}
        for tool in TOOLS + [PAGE_TOOL]:
            r = await s.call_tool(tool, {})
            text = texts(r)
            entry = {"text": text, "structured": structured_chars(r), "notices": notices(text)}
            # Walk the fetch tool to the end, as a model that wants everything would.
            pages, fetched, m = 0, [], NEXT.search(text)
            while m and pages < 200:
                fetch, ref, cursor = m.groups()
                args = {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
                page = texts(await s.call_tool(fetch, args))
                fetched.append(page)
                pages += 1
                m = NEXT.search(page)
            entry["pages"] = pages
            entry["fetched_chars"] = sum(len(p) for p in fetched)
            entry["reached"] = "\n".join([text, *fetched])
            out[tool] = entry
        return out
    return run


def compressor_calls():
    async def run(s):
        tools = [t.name for t in (await s.list_tools()).tools]
        invoke = next(t for t in tools if t.endswith("_invoke_tool"))
        out = {"_tools": tools}
        for tool in TOOLS + [PAGE_TOOL]:
            r = await s.call_tool(invoke, {"tool_name": tool, "tool_input": {}})
            entry = {"text": texts(r), "structured": structured_chars(r),
                     "report": ((r.meta or {}).get("truncation") or {}).get("report")}
            shrunk = first_block(entry["text"])
            if not entry["report"] and isinstance(shrunk, dict):  # an object carries it inline
                entry["report"] = (shrunk.get("truncation") or {}).get("report")
            if entry["report"]:
                full = await s.call_tool(invoke, {"tool_name": tool, "tool_input": {},
                                                  "full": True})
                entry["full_text"] = texts(full)
            out[tool] = entry
        return out
    return run


def first_block(text):
    """The condensed JSON of a shrinkfit result (its first text block)."""
    dec = json.JSONDecoder()
    try:
        return dec.raw_decode(text)[0]
    except ValueError:
        return None


async def main(tof, compressor, dump):
    enc, how = encoder()
    tokens = lambda s: len(enc.encode(s, disallowed_special=()))
    up = [sys.executable, str(pathlib.Path(__file__).resolve()), "upstream"]
    configs = [
        ("direct", up[0], up[1:], direct_calls()),
        ("tof proxy", tof, ["proxy", "--", *up], tof_calls()),
        ("tof proxy --max-chars 4000", tof, ["proxy", "--max-chars", "4000", "--", *up],
         tof_calls()),
        ("mcp-compressor --toonify", compressor, ["--toonify", "--", *up], compressor_calls()),
        ("mcp-compressor --shrinkfit", compressor, ["--shrinkfit", "--", *up],
         compressor_calls()),
        ("mcp-compressor --shrinkfit=4000", compressor, ["--shrinkfit=4000", "--", *up],
         compressor_calls()),
    ]
    results = {}
    for name, command, args, fn in configs:
        results[name] = await session(command, args, fn)
    direct = results["direct"]

    print(f"Tokens: {how}.")
    print(f"mcp-compressor's tools: {results['mcp-compressor --toonify']['_tools']}\n")
    if dump:
        d = pathlib.Path(dump)
        d.mkdir(parents=True, exist_ok=True)
        for name, res in results.items():
            for tool in TOOLS + [PAGE_TOOL]:
                slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
                (d / f"{tool}.{slug}.txt").write_text(res[tool]["text"])
                if res[tool].get("reached"):
                    (d / f"{tool}.{slug}.walked.txt").write_text(res[tool]["reached"])

    print("| response | " + " | ".join(n for n, *_ in configs) + " | (compact JSON) |")
    print("|---|" + "---:|" * (len(configs) + 1))
    compact_total = [0, 0]
    total = {n: [0, 0] for n, *_ in configs}
    for tool in TOOLS:
        dc, dt = len(direct[tool]["text"]), tokens(direct[tool]["text"])
        cells = []
        for name, *_ in configs:
            t = results[name][tool]["text"]
            c, k = len(t), tokens(t)
            total[name][0] += c
            total[name][1] += k
            cells.append(f"{c:,} ch / {k:,} tok" if name == "direct"
                         else f"{c:,} / {k:,} ({c / dc:.2f}x / {k / dt:.2f}x)")
        # A reference, not served: the same response as compact JSON (the recorded ones are
        # indented), which a ratio to direct would otherwise hide.
        compact = json.dumps(json.loads(direct[tool]["text"]), ensure_ascii=False,
                             separators=(",", ":"))
        c, k = len(compact), tokens(compact)
        compact_total[0] += c
        compact_total[1] += k
        cells.append(f"{c:,} / {k:,} ({c / dc:.2f}x / {k / dt:.2f}x)")
        print(f"| {tool} | " + " | ".join(cells) + " |")
    dc, dt = total["direct"]
    cells = [f"{c:,} ch / {k:,} tok" if n == "direct"
             else f"{c:,} / {k:,} ({c / dc:.2f}x / {k / dt:.2f}x)"
             for n, (c, k) in [*total.items(), ("compact", compact_total)]]
    print("| **total** | " + " | ".join(cells) + " |")
    print("\n(characters / o200k tokens of the text content, ratio to direct)\n")

    print("structuredContent alongside the text (characters of its JSON), per configuration:")
    for name, *_ in configs:
        print(f"  {name}: " + ", ".join(
            f"{tool} {results[name][tool]['structured']:,}" for tool in TOOLS))

    print("\nWhat a cut says, what is reachable:")
    for name, *_ in configs[1:]:
        print(f"\n## {name}")
        for tool in TOOLS + [PAGE_TOOL]:
            e = results[name][tool]
            total_rows = len(recorded_rows(tool.removesuffix("_page")))
            base = tool.removesuffix("_page")
            line = f"- {tool}: rows named in the text {rows_seen(base, e['text'])}/{total_rows}"
            line += f", cursor in text: {CURSOR in e['text']}" if tool == PAGE_TOOL else ""
            if "notices" in e:
                line += (f"; fetch pages walked {e['pages']} ({e['fetched_chars']:,} chars),"
                         f" rows named after the walk {rows_seen(base, e['reached'])}/{total_rows}")
                if tool == PAGE_TOOL:
                    line += f", cursor reached: {CURSOR in e['reached']}"
                print(line)
                for n in e["notices"]:
                    print(f"    {n[:400]}")
            else:
                if e["report"]:
                    shrunk = first_block(e["text"])
                    original = json.loads(direct[tool]["text"])
                    if tool == PAGE_TOOL and isinstance(shrunk, dict):
                        arr = shrunk.get("items")
                    else:
                        arr = shrunk
                    line += (f"; report {e['report']}; markers in the JSON (items, keys,"
                             f" strings) {omissions(shrunk)}; array items kept"
                             f" {kept_items(arr)}; keys dropped with no marker"
                             f" {unmarked_drops(original, shrunk)}")
                    same = json.loads(e["full_text"]) == json.loads(direct[tool]["text"])
                    line += (f"; full=true: {len(e['full_text']):,} chars, equal to direct:"
                             f" {same}")
                else:
                    line += "; no cut (no truncation report)"
                print(line)


if __name__ == "__main__":
    if sys.argv[1:2] == ["upstream"]:
        serve_upstream()
    else:
        argv = sys.argv[1:]
        dump = None
        if "--dump" in argv:
            i = argv.index("--dump")
            dump = argv[i + 1]
            del argv[i:i + 2]
        compressor = argv[1] if len(argv) > 1 else str(
            pathlib.Path(sys.executable).parent / "mcp-compressor")
        asyncio.run(main(argv[0], compressor, dump))
