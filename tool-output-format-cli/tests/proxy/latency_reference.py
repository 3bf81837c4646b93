"""The time a host waits for one `tools/call` through `tof proxy`, against the same reference
server called direct: server-filesystem, mcp-server-git and mcp-server-sqlite
as pinned in `.ci/proxy.sh`, on test_reference.py's fixtures. Wall-clock on a shared machine:
read the medians and the differences, not the absolute times.

    python latency_reference.py PATH_TO_TOF PATH_TO_SERVER_FILESYSTEM PATH_TO_MCP_SERVER_GIT \
        PATH_TO_MCP_SERVER_SQLITE [--calls N]   (default 100)

Each configuration is one session, started and initialized before the clock runs; each call
is made once to warm up, then N times, one at a time. Reported: p50 and p99 in milliseconds,
and the p50 and p99 added by the proxy. Calls: small results (no cut, so the time is the
proxy's: two more hops and the rendering) and one large result (a 100 KB file, rendered and
stored).
"""

import asyncio
import pathlib
import statistics
import sys
import tempfile
import time

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
    ]


async def timed(server, proxy_args, tool, args, n):
    async def run(s):
        await s.call_tool(tool, args)
        times = []
        for _ in range(n):
            start = time.perf_counter()
            await s.call_tool(tool, args)
            times.append((time.perf_counter() - start) * 1000)
        return times
    return await ref.session(server, proxy_args, run)


def p99(times):
    return statistics.quantiles(times, n=100)[-1]


async def main(n):
    print(f"{n} calls each, milliseconds: p50 / p99\n")
    print("| call | direct | tof proxy | added p50 / p99 |")
    print("|---|---:|---:|---:|")
    for server, label, tool, args in calls():
        direct = await timed(server, None, tool, args, n)
        proxied = await timed(server, [], tool, args, n)
        d50, d99 = statistics.median(direct), p99(direct)
        p50_, p99_ = statistics.median(proxied), p99(proxied)
        print(f"| {server} {label} | {d50:.1f} / {d99:.1f} | {p50_:.1f} / {p99_:.1f} | "
              f"+{p50_ - d50:.1f} / +{p99_ - d99:.1f} |")


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
