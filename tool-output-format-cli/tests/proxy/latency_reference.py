"""The time a host waits for one `tools/call` through `tof proxy`, against the same reference
server called direct: server-filesystem, mcp-server-git and mcp-server-sqlite
as pinned in `.ci/proxy.sh`, on test_reference.py's fixtures. Wall-clock on a shared machine:
read the medians and the differences, not the absolute times.

    python latency_reference.py PATH_TO_TOF PATH_TO_SERVER_FILESYSTEM PATH_TO_MCP_SERVER_GIT \
        PATH_TO_MCP_SERVER_SQLITE [--calls N]   (default 100)

Each configuration is one session, started and initialized before the clock runs; each call
is made once to warm up, then N times, one at a time: the server direct over standard
input/output, the proxy over standard input/output, and the proxy serving streamable HTTP
(`tof proxy --listen 127.0.0.1:0`, the SDK's streamable HTTP client; the upstream on its
standard input/output as always). Reported: p50 and p99 in milliseconds, and the p50 and p99
each proxy adds to the direct call. Calls: small results (no cut, so the time is the
proxy's: two more hops and the rendering) and large ones (a 100 KB file, 5,000 rows of
SQLite, a git log of 30 commits: rendered to the budget and stored).
"""

import asyncio
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.dont_write_bytecode = True
import test_reference as ref  # noqa: E402


def calls():
    root = ref.ROOT
    return [
        ("filesystem", "read_text_file (1 line)",
         "read_text_file", {"path": str(root / "tree/pkg_0/mod_0/file_0_0_0.rs")}),
        ("filesystem", "read_text_file (100 KB)",
         "read_text_file", {"path": str(root / "big.txt")}),
        ("git", "git_status", "git_status", {"repo_path": str(root / "repo")}),
        ("sqlite", "list_tables", "list_tables", {}),
        ("sqlite", "read_query (20 rows)", "read_query",
         {"query": "SELECT * FROM orders LIMIT 20"}),
        ("sqlite", "read_query (5,000 rows)", "read_query", {"query": "SELECT * FROM orders"}),
        ("git", "git_log (30 commits)", "git_log",
         {"repo_path": str(root / "repo"), "max_count": ref.COMMITS}),
    ]


async def calls_timed(s, tool, args, n):
    await s.call_tool(tool, args)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        await s.call_tool(tool, args)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def timed(server, proxy_args, tool, args, n):
    async def run(s):
        return await calls_timed(s, tool, args, n)
    return await ref.session(server, proxy_args, run)


async def timed_listening(server, tool, args, n):
    """The same calls through `tof proxy --listen 127.0.0.1:0` (one session)."""
    command, server_args = ref.servers()[server]
    log = tempfile.NamedTemporaryFile("w+", suffix=".log")
    p = subprocess.Popen([ref.TOF, "proxy", "--listen", "127.0.0.1:0", "--", command,
                          *server_args],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    try:
        url = await ref.listen_url(p, log)
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await calls_timed(s, tool, args, n)
    finally:
        p.terminate()
        p.wait(timeout=10)
        log.close()


def p99(times):
    return statistics.quantiles(times, n=100)[-1]


async def main(n):
    print(f"{n} calls each, milliseconds: p50 / p99\n")
    print("| call | direct | tof proxy | added p50 / p99 | tof proxy --listen | added p50 / p99 |")
    print("|---|---:|---:|---:|---:|---:|")
    for server, label, tool, args in calls():
        direct = await timed(server, None, tool, args, n)
        proxied = await timed(server, [], tool, args, n)
        listening = await timed_listening(server, tool, args, n)
        d50, d99 = statistics.median(direct), p99(direct)
        row = f"| {server} {label} | {d50:.1f} / {d99:.1f} |"
        for times in (proxied, listening):
            t50, t99 = statistics.median(times), p99(times)
            row += f" {t50:.1f} / {t99:.1f} | {t50 - d50:+.1f} / {t99 - d99:+.1f} |"
        print(row)


if __name__ == "__main__":
    argv = sys.argv[1:]
    calls_n = 100
    if "--calls" in argv:
        i = argv.index("--calls")
        calls_n = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 4:
        sys.exit(__doc__)
    ref.TOF, ref.FS, ref.GIT, ref.SQLITE = argv
    with tempfile.TemporaryDirectory(prefix="tof-latency-") as tmp:
        ref.ROOT = pathlib.Path(tmp).resolve()
        ref.make_fixtures(ref.ROOT)
        asyncio.run(main(calls_n))
