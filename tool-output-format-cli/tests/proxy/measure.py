"""Measure `tof proxy` against the same FastMCP upstream direct: characters per tool result
on the bundled API responses (out of the box), and the added latency per call (p50, p99) of
a small result under sequential loopback calls.  Run: python measure.py PATH_TO_TOF [CALLS]"""

import asyncio
import statistics
import sys
import time

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import pathlib

HERE = pathlib.Path(__file__).parent
UPSTREAM = [sys.executable, str(HERE / "upstream_server.py")]
TOOLS = ["list_issues", "list_repos", "list_employees"]


async def measure(command, args, calls):
    params = StdioServerParameters(command=command, args=args)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            sizes = {}
            for tool in TOOLS:
                r = await s.call_tool(tool, {})
                meta = ((r.meta or {}).get("tool-output-format/cuts") or {}).get("reports")
                sizes[tool] = (len(r.content[0].text), meta[0]["tokens"] if meta else None)
            for _ in range(20):  # warm up
                await s.call_tool("fail", {})
            times = []
            for _ in range(calls):
                t = time.perf_counter()
                await s.call_tool("get_stats", {})
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            return sizes, times


def pct(times, p):
    return times[min(len(times) - 1, int(len(times) * p))]


async def main(tof, calls):
    direct, td = await measure(UPSTREAM[0], UPSTREAM[1:], calls)
    proxied, tp = await measure(tof, ["proxy", "--", *UPSTREAM], calls)
    print("| tool | direct chars | proxy chars | ratio | proxy tokens (o200k) |")
    print("|-|-|-|-|-|")
    for tool in TOOLS:
        d, p = direct[tool][0], proxied[tool]
        print(f"| {tool} | {d} | {p[0]} | {p[0] / d:.2f}x | {p[1]} |")
    print(f"\nlatency over {calls} sequential calls of get_stats (ms):")
    print(f"direct: p50 {pct(td, .5):.2f}, p99 {pct(td, .99):.2f}, mean {statistics.mean(td):.2f}")
    print(f"proxy:  p50 {pct(tp, .5):.2f}, p99 {pct(tp, .99):.2f}, mean {statistics.mean(tp):.2f}")


asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300))
