"""The time a host waits for one `tools/call`: the upstream called direct, through `tof proxy`
(out of the box, and at 4,000 characters), and through mcp-compressor (`--toonify`,
`--shrinkfit`), in the same run, on the same FastMCP upstream and recorded responses as
compare_compressor.py. Wall-clock, so it is noisy on a shared machine: read the
medians and the differences to direct, not the absolute times.

    python latency.py PATH_TO_TOF [PATH_TO_MCP_COMPRESSOR] [--calls N]   (default 100)

Pinned as compare_compressor.py (a fresh venv):
    pip install 'mcp==2.3.0' 'fastmcp==4.1.6' 'mcp-compressor==0.38.2' 'tiktoken==0.14.0'

Each configuration is one session (started and initialized before the clock runs); each of
the three tools is called N times (default 100) in turn after one warm-up call each, one call
at a time (a bounded loopback load); the time of a call is from `call_tool` to its result,
as the host sees it. Reported: p50 and p99 per tool, and the p50 added to the direct call.
"""

import asyncio
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True
import compare_compressor as cc  # noqa: E402


def timed(tools, invoke):
    async def run(s):
        for tool in tools:  # warm-up: first calls load the recorded responses
            await invoke(s, tool)
        times = {tool: [] for tool in tools}
        for _ in range(CALLS):
            for tool in tools:
                start = time.perf_counter()
                await invoke(s, tool)
                times[tool].append((time.perf_counter() - start) * 1000)
        return times
    return run


async def call_direct(s, tool):
    await s.call_tool(tool, {})


async def call_compressor(s, tool):
    await s.call_tool("server_invoke_tool", {"tool_name": tool, "tool_input": {}})


async def main(tof, compressor):
    up = [sys.executable, str((HERE / "compare_compressor.py").resolve()), "upstream"]
    configs = [
        ("direct", up[0], up[1:], call_direct),
        ("tof proxy", tof, ["proxy", "--", *up], call_direct),
        ("tof proxy --max-chars 4000", tof, ["proxy", "--max-chars", "4000", "--", *up],
         call_direct),
        ("mcp-compressor --toonify", compressor, ["--toonify", "--", *up], call_compressor),
        ("mcp-compressor --shrinkfit", compressor, ["--shrinkfit", "--", *up], call_compressor),
    ]
    results = {}
    for name, command, args, invoke in configs:
        results[name] = await cc.session(command, args, timed(cc.TOOLS, invoke))
    print(f"{CALLS} calls per tool, milliseconds: p50 (p99); + is the p50 added to direct\n")
    print("| configuration | " + " | ".join(cc.TOOLS) + " |")
    print("|---|" + "---:|" * len(cc.TOOLS))
    base = {t: statistics.median(results["direct"][t]) for t in cc.TOOLS}
    for name, times in results.items():
        cells = []
        for t in cc.TOOLS:
            med = statistics.median(times[t])
            p99 = statistics.quantiles(times[t], n=100)[-1]
            extra = "" if name == "direct" else f", +{med - base[t]:.1f}"
            cells.append(f"{med:.1f} ({p99:.1f}){extra}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    argv = sys.argv[1:]
    CALLS = 100
    if "--calls" in argv:
        i = argv.index("--calls")
        CALLS = int(argv[i + 1])
        del argv[i:i + 2]
    if not argv:
        sys.exit(__doc__)
    tof = argv[0]
    compressor = argv[1] if len(argv) > 1 else str(
        pathlib.Path(sys.executable).parent / "mcp-compressor")
    asyncio.run(main(tof, compressor))
