"""An MCP upstream (the MCP Python SDK's low-level server, on standard input/output) that asks its
client for things and notes what its client tells it, for `tof proxy`'s pass-through tests of
what flows from the upstream to a client and back:

- `roots`: asks the client for its roots (`roots/list`) and answers their URIs;
- `sample`: asks the client to sample (`sampling/createMessage`) and answers the text it got;
- `elicit`: asks the client to fill a form (`elicitation/create`) and answers its action and
  the name it gave;
- `hang`: waits 60 s, unless its call is cancelled (noted);
- `heard`: the client's notifications the upstream heard (`roots/list_changed`, a cancelled
  call).

Each answer is one line of plain text (the proxy passes a line as it came).

    python roots_upstream.py
"""

import warnings

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

warnings.simplefilter("ignore")  # roots and client progress are deprecated as of 2026-07-28

HEARD = []
TOOLS = ["roots", "sample", "elicit", "hang", "heard"]


def text(line):
    return types.CallToolResult(content=[types.TextContent(type="text", text=line)])


async def list_tools(ctx, params):
    schema = {"type": "object", "properties": {}}
    return types.ListToolsResult(
        tools=[types.Tool(name=n, description=f"{n}.", input_schema=schema) for n in TOOLS]
    )


async def call_tool(ctx, params):
    name = params.name
    if name == "roots":
        roots = await ctx.session.list_roots()
        return text(" ".join(str(r.uri) for r in roots.roots))
    if name == "sample":
        message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text="hi"))
        answer = await ctx.session.create_message([message], max_tokens=10)
        return text(answer.content.text)
    if name == "elicit":
        schema = {"type": "object", "properties": {"name": {"type": "string"}}}
        answer = await ctx.session.elicit_form("Your name?", schema)
        return text(f"{answer.action} {(answer.content or {}).get('name')}")
    if name == "hang":
        try:
            await anyio.sleep(60)
        except anyio.get_cancelled_exc_class():
            HEARD.append("cancelled")
            raise
        return text("woke")
    if name == "heard":
        return text(" ".join(HEARD) or "nothing")
    raise ValueError(f"no tool {name}")


async def roots_list_changed(ctx, params):
    HEARD.append("roots/list_changed")


server = Server(
    "roots-upstream",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_roots_list_changed=roots_list_changed,
)


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
