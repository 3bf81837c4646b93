"""`tof proxy` in front of `@modelcontextprotocol/server-everything` (npm, pinned in
`.ci/proxy.sh`), driven by the official MCP Python SDK: the protocol surface passes through
(initialize, prompts, resources, completions, logging, progress, sampling, elicitation, roots).

    python test_everything.py PATH_TO_TOF PATH_TO_MCP_SERVER_EVERYTHING

Prints libtest's lines and exits non-zero on a failure.
"""

import asyncio
import pathlib
import sys
import traceback

import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "clients"))
from libtest import report  # noqa: E402 - found through the path above

TOF = EVERYTHING = None


def text(result):
    return result.content[0].text


async def with_session(check, direct=False, **callbacks):
    params = StdioServerParameters(command=TOF, args=["proxy", "--", EVERYTHING, "stdio"])
    if direct:
        params = StdioServerParameters(command=EVERYTHING, args=["stdio"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, **callbacks) as s:
            init = await s.initialize()
            return await check(s, init)


async def initialize_passes_upstream_through():
    async def check(s, init):
        assert init.server_info.name == "mcp-servers/everything", init.server_info
        caps = init.capabilities
        assert caps.prompts and caps.resources and caps.logging is not None, caps
        assert caps.completions is not None and caps.resources.subscribe, caps

    await with_session(check)


async def prompts_pass_through():
    async def check(s, _):
        names = [p.name for p in (await s.list_prompts()).prompts]
        assert "simple-prompt" in names and "args-prompt" in names, names
        got = await s.get_prompt("args-prompt", {"city": "Lisbon"})
        assert any("Lisbon" in m.content.text for m in got.messages), got

    await with_session(check)


async def resources_and_templates_pass_through():
    async def check(s, _):
        uris = [r.uri for r in (await s.list_resources()).resources]
        assert any(u.endswith("architecture.md") for u in uris), uris
        doc = await s.read_resource(next(u for u in uris if u.endswith("architecture.md")))
        assert len(doc.contents[0].text) > 100, doc
        templates = [t.uri_template for t in (await s.list_resource_templates()).resource_templates]
        assert "demo://resource/dynamic/text/{resourceId}" in templates, templates
        dyn = await s.read_resource("demo://resource/dynamic/text/7")
        assert dyn.contents and dyn.contents[0].uri == "demo://resource/dynamic/text/7", dyn

    await with_session(check)


async def completions_pass_through():
    async def check(s, _):
        out = await s.complete(
            types.PromptReference(type="ref/prompt", name="completable-prompt"),
            {"name": "department", "value": "Eng"},
        )
        assert out.completion.values == ["Engineering"], out

    await with_session(check)


async def logging_notifications_pass_through():
    got = []

    async def on_log(params):
        got.append(params)

    async def check(s, _):
        await s.set_logging_level("debug")
        await s.call_tool("toggle-simulated-logging", {})
        for _ in range(100):
            if got:
                break
            await asyncio.sleep(0.1)
        assert got, "no logging notification reached the client"

    await with_session(check, logging_callback=on_log)


async def progress_notifications_reach_the_caller():
    progress = []

    async def on_progress(value, total, message):
        progress.append((value, total))

    async def check(s, _):
        result = await s.call_tool(
            "trigger-long-running-operation", {"duration": 1, "steps": 3}, progress_callback=on_progress
        )
        assert not result.is_error, text(result)
        assert progress, "no progress notification reached the caller"
        assert progress[-1][1] == 3, progress

    await with_session(check)


async def sampling_is_forwarded_to_the_host():
    async def sample(context, params):
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="a reply from the host's model"),
            model="test-model",
            stop_reason="endTurn",
        )

    async def check(s, _):
        result = await s.call_tool("trigger-sampling-request", {"prompt": "hello", "maxTokens": 50})
        assert not result.is_error, text(result)
        body = "\n".join(c.text for c in result.content if c.type == "text")
        assert "a reply from the host's model" in body, body

    await with_session(check, sampling_callback=sample)


async def upstream_is_told_the_host_s_capabilities():
    # A host without sampling: the proxy tells upstream the host's own capabilities, so
    # server-everything offers it what it offers that host direct (its sampling tool is
    # registered only for a client that can sample), nothing that would fail.
    async def names(s, _):
        return sorted(t.name for t in (await s.list_tools()).tools)

    proxied = await with_session(names)
    direct = await with_session(names, direct=True)
    assert [n for n in proxied if n != "get_stored_result"] == direct, (proxied, direct)
    assert "trigger-sampling-request" not in direct, direct

    async def sampler(context, params):
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="ok"), model="m")

    proxied = await with_session(names, sampling_callback=sampler)
    assert "trigger-sampling-request" in proxied, proxied


async def elicitation_is_forwarded_to_the_host():
    asked = []

    async def elicit(context, params):
        asked.append(params)
        return types.ElicitResult(action="decline")

    async def check(s, _):
        result = await s.call_tool("trigger-elicitation-request", {})
        body = "\n".join(c.text for c in result.content if c.type == "text")
        assert asked, "the host was not asked"
        assert "declined" in body, body

    await with_session(check, elicitation_callback=elicit)


async def roots_are_asked_of_the_host():
    async def roots(context):
        return types.ListRootsResult(roots=[types.Root(uri="file:///work/project-x", name="project-x")])

    async def check(s, _):
        await s.send_roots_list_changed()
        await asyncio.sleep(0.5)
        result = await s.call_tool("get-roots-list", {})
        body = "\n".join(c.text for c in result.content if c.type == "text")
        assert "project-x" in body, body

    await with_session(check, list_roots_callback=roots)


async def images_and_structured_content_pass_through():
    async def check(s, _):
        image = await s.call_tool("get-tiny-image", {})
        kinds = [c.type for c in image.content]
        assert "image" in kinds, kinds
        # The SDK validates structuredContent against the listed outputSchema.
        data = await s.call_tool("get-structured-content", {"location": "New York"})
        assert data.structured_content is not None, data

    await with_session(check)


CHECKS = [
    initialize_passes_upstream_through,
    prompts_pass_through,
    resources_and_templates_pass_through,
    completions_pass_through,
    logging_notifications_pass_through,
    progress_notifications_reach_the_caller,
    sampling_is_forwarded_to_the_host,
    upstream_is_told_the_host_s_capabilities,
    elicitation_is_forwarded_to_the_host,
    roots_are_asked_of_the_host,
    images_and_structured_content_pass_through,
]


async def run():
    results = []
    for check in CHECKS:
        try:
            await asyncio.wait_for(check(), timeout=60)
            results.append((check.__name__, None))
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append((check.__name__, traceback.format_exc()))
    return results


def main():
    global TOF, EVERYTHING
    if len(sys.argv) != 3:
        sys.exit("usage: test_everything.py PATH_TO_TOF PATH_TO_MCP_SERVER_EVERYTHING")
    TOF, EVERYTHING = sys.argv[1], sys.argv[2]
    results = asyncio.run(run())
    report("proxy_everything", results)


if __name__ == "__main__":
    main()
