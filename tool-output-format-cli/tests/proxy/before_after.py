"""The before/after of docs/proxy.md: the recorded GitHub-style issues response (30 issues)
straight from the FastMCP upstream, then through `tof proxy` (out of the box, and with a
config). Run: python before_after.py PATH_TO_TOF"""

import asyncio
import pathlib
import sys
import tempfile

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

HERE = pathlib.Path(__file__).parent
UPSTREAM = [sys.executable, str(HERE / "upstream_server.py")]


async def call(command, args, tool):
    params = StdioServerParameters(command=command, args=args)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            r = await s.call_tool(tool, {})
            return r.content[0].text, r.meta


async def main(tof):
    raw, _ = await call(UPSTREAM[0], UPSTREAM[1:], "list_issues")
    print(f"== direct: {len(raw)} chars\n{raw[:700]}\n...")
    out, meta = await call(tof, ["proxy", "--", *UPSTREAM], "list_issues")
    rep = meta["tool-output-format/cuts"]["reports"][0]
    print(f"== tof proxy, out of the box: {len(out)} chars, {rep['tokens']} tokens, rows {rep['rows']}")
    print(out[:400] + "\n...\n" + "\n".join(out.splitlines()[-3:]))
    config = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    config.write('[tools.list_issues]\nmax_rows = 8\n'
                 'shape = { keep = ["number", "title", "state", "user.login", "comments", "html_url"] }\n')
    config.close()
    out, meta = await call(tof, ["proxy", "--config", config.name, "--", *UPSTREAM], "list_issues")
    print(f"== tof proxy --config ({config.name}): {len(out)} chars")
    print(out)


asyncio.run(main(sys.argv[1]))
