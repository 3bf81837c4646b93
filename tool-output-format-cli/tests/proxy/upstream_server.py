"""A FastMCP upstream for `tof proxy`'s tests: recorded API responses, a huge list, an error,
an image, typed data with an output schema, and faults (a crash mid-call, a call that never
answers). FastMCP (PyPI `fastmcp`, pinned in `.ci/proxy.sh`) is a server no one here wrote.

    python upstream_server.py             # an MCP server on standard input and output
    python upstream_server.py http PORT   # on streamable HTTP at http://127.0.0.1:PORT/mcp
"""

import asyncio
import base64
import json
import os
import pathlib
import sys

from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import ImageContent, SamplingMessage, TextContent

DATA = pathlib.Path(__file__).parent / "data"
# A 1x1 transparent PNG.
PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
    )
).decode()

mcp = FastMCP("proxy-test-upstream", instructions="Recorded API responses for tof proxy's tests.")


def recorded(name):
    return (DATA / f"{name}.json").read_text()


@mcp.tool
def list_issues() -> str:
    """The 30 issues of a repository (a recorded GitHub-style response), as JSON text."""
    return recorded("issues_30")


@mcp.tool
def list_repos() -> str:
    """100 repositories (a recorded response), as JSON text."""
    return recorded("repos_100")


@mcp.tool
def list_employees() -> str:
    """100 employees (a recorded response), as JSON text."""
    return recorded("employees_100")


@mcp.tool
def search_issues(query: str = "") -> str:
    """The 30 recorded issues, whatever the query (an upstream that does not filter)."""
    return recorded("issues_30")


@mcp.tool
def huge_list(count: int = 5000) -> str:
    """COUNT rows with ids row-0 .. row-(COUNT-1)."""
    rows = [{"id": f"row-{i}", "n": i, "note": f"item number {i}"} for i in range(count)]
    return json.dumps(rows)


@mcp.tool
def read_log(lines: int = 2000) -> str:
    """A plain-text log of LINES lines (not JSON)."""
    return "\n".join(f"2026-12-02T10:00:{i % 60:02d}Z INFO step {i} done" for i in range(lines))


@mcp.tool
def fail() -> str:
    """Always fails with a tool error."""
    raise ToolError("the repository acme/missing does not exist (404)")


@mcp.tool
def get_image() -> ImageContent:
    """A 1x1 PNG image."""
    return ImageContent(type="image", data=PNG, mimeType="image/png")


@mcp.tool
def get_stats() -> dict:
    """Typed data: FastMCP sends structuredContent and declares an outputSchema."""
    return {"open": 12, "closed": 30, "token": "s3cr3t-token"}


@mcp.tool
async def crash() -> str:
    """The upstream process exits in the middle of the call."""
    await asyncio.sleep(0.2)
    os._exit(3)


@mcp.tool
async def hang() -> str:
    """Never answers. When the call is cancelled, writes "cancelled" to the file named by
    $TOF_PROXY_CANCEL_MARK (if set), so a test sees the cancellation arrive."""
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        mark = os.environ.get("TOF_PROXY_CANCEL_MARK")
        if mark:
            pathlib.Path(mark).write_text("cancelled")
        raise
    return "late"


@mcp.tool
async def sample_anyway(ctx: Context) -> str:
    """Asks the client to sample without checking that it declared it can (an upstream that is
    not well-behaved): `sampled: TEXT`, or `refused: ERROR` with the error that came back."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text="hello"))
    try:
        reply = await ctx.session.create_message(messages=[message], max_tokens=10)
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return f"refused: {e}"
    return f"sampled: {reply.content.text}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
    else:
        mcp.run(show_banner=False)
