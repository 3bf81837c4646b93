"""`tof proxy` driven by the official MCP Python SDK (`mcp` on PyPI, pinned in `.ci/proxy.sh`)
in front of a FastMCP upstream (`upstream_server.py`): nothing on either side was written for
the proxy.

    python test_proxy.py PATH_TO_TOF

Prints libtest's lines (`test proxy::NAME ... ok`, `test result: ...`) so that CI counts its
checks, and exits non-zero on a failure. Every check has a time bound: nothing hangs.
"""

import asyncio
import base64
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import traceback

import mcp.types as types
from mcp import ClientSession
from mcp.types import TextContent
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "clients"))
from clients import start_redis  # noqa: E402 - found through the path above
from libtest import report  # noqa: E402

HERE = pathlib.Path(__file__).parent
UPSTREAM = [sys.executable, str(HERE / "upstream_server.py")]
NEXT = re.compile(r'^Next: call (\w+)\(ref="(r_[0-9a-z]+)"(?:, cursor="([^"]+)")?\)$')
# Rows of `huge_list` that the proxy's default budget (10,000 tokens) cuts: a budget is the
# bound, with no 100-row cap beside it.
ROWS = 2000
TOF = None


def text(result):
    return result.content[0].text


def next_line(md):
    lines = [l for l in md.splitlines() if l.startswith("Next:")]
    assert len(lines) <= 1, f"more than one Next line:\n{lines}"
    return lines[0] if lines else None


def session(*proxy_args):
    params = StdioServerParameters(command=TOF, args=["proxy", *proxy_args, "--", *UPSTREAM])
    return stdio_client(params)


async def with_session(check, *proxy_args):
    async with session(*proxy_args) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            return await check(s)


# ---- one session, default options -----------------------------------------------------------


async def initialize_passes_upstream_through(_):
    async with session() as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            assert init.server_info.name == "proxy-test-upstream", init.server_info
            assert init.instructions == "Recorded API responses for tof proxy's tests.", init
            assert init.capabilities.tools is not None


async def tools_list_is_upstream_s_plus_the_fetch_tool(s):
    tools = {t.name: t for t in (await s.list_tools()).tools}
    for name in ["list_issues", "list_repos", "huge_list", "fail", "get_image", "get_stats"]:
        assert name in tools, sorted(tools)
    fetch = tools["get_stored_result"]
    props = fetch.input_schema["properties"]
    assert "ref" in props and "cursor" in props, fetch.input_schema
    assert fetch.input_schema["required"] == ["ref"]
    # structured_content = "fit" (the default) may leave structuredContent out of a cut
    # result, so the tools are listed without their outputSchema (the SDK would reject such a
    # result); `keep` lists it (per_tool_options_from_the_config).
    assert tools["get_stats"].output_schema is None


async def a_recorded_response_is_a_table_within_the_budget(s):
    raw = (HERE / "data" / "repos_100.json").read_text()
    result = await s.call_tool("list_repos", {})
    md = text(result)
    assert not result.is_error
    assert md.count("\n|") >= 10, md[:500]
    assert "|full_name|" in md.splitlines()[0] or any(
        l.startswith("|full_name|") for l in md.splitlines()
    ), md[:500]
    first = json.loads(raw)[0]["full_name"]
    assert first in md
    assert len(md) < len(raw), (len(md), len(raw))


async def the_fetch_walks_a_huge_list_to_the_last_row(s):
    count = 2000
    result = await s.call_tool("huge_list", {"count": count})
    md = text(result)
    assert md.startswith("[Truncated"), md[:300]
    seen = set(re.findall(r"\|row-(\d+)\|", md))
    line = next_line(md)
    assert line is not None, md[-500:]
    assert result.meta and result.meta["tool-output-format/cuts"]["reports"], result.meta
    pages = 0
    while line is not None:
        m = NEXT.match(line)
        assert m, line
        tool, ref, cursor = m.groups()
        assert tool == "get_stored_result", line
        args = {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
        page = await s.call_tool(tool, args)
        assert not page.is_error, text(page)
        pages += 1
        assert pages <= count, "the cursor does not advance"
        seen |= set(re.findall(r"\|row-(\d+)\|", text(page)))
        line = next_line(text(page))
    assert seen == {str(i) for i in range(count)}, (len(seen), pages)


async def plain_text_goes_through_the_string_path(s):
    md = text(await s.call_tool("read_log", {"lines": 2000}))
    assert md.startswith("[Truncated to "), md[:200]
    assert "step 0 done" in md
    assert next_line(md) is not None


async def an_error_stays_an_error(s):
    result = await s.call_tool("fail", {})
    assert result.is_error
    assert "acme/missing does not exist (404)" in text(result), text(result)


async def an_image_passes_through_untouched(s):
    result = await s.call_tool("get_image", {})
    assert len(result.content) == 1, result.content
    block = result.content[0]
    assert block.type == "image" and block.mime_type == "image/png", block
    assert base64.b64decode(block.data).startswith(b"\x89PNG"), block.data


async def structured_content_stays_upstream_s(s):
    # A result within the budget: its structuredContent is sent as upstream sent it (fit).
    result = await s.call_tool("get_stats", {})
    assert result.structured_content == {"open": 12, "closed": 30, "token": "s3cr3t-token"}
    said = result.meta["tool-output-format/cuts"]["structured_content"]
    chars = len(json.dumps(result.structured_content, separators=(",", ":")))
    assert said == {"option": "fit", "sent": True, "chars": chars}, said
    assert "- open: 12" in text(result), text(result)


async def structured_content_keep_and_drop(_):
    async def keep(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        # Listed as upstream lists it; the SDK validates the result against it.
        assert tools["get_stats"].output_schema is not None
        result = await s.call_tool("get_stats", {})
        assert result.structured_content["open"] == 12, result

    async def drop(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert tools["get_stats"].output_schema is None
        result = await s.call_tool("get_stats", {})
        assert result.structured_content is None, result
        said = result.meta["tool-output-format/cuts"]["structured_content"]
        assert said["option"] == "drop" and said["sent"] is False, said

    await with_session(keep, "--structured-content", "keep")
    await with_session(drop, "--structured-content", "drop")


# ---- a config file ------------------------------------------------------------------------


def write_config(body):
    f = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    f.write(body)
    f.close()
    return f.name


async def per_tool_options_from_the_config(_):
    config = write_config(
        """
[defaults]
max_tokens = 4000

[tools.list_issues]
max_rows = 5
shape = { keep = ["number", "title", "state", "user.login"] }

[tools.get_stats]
redact_keys = ["token"]

[tools.search_issues]
query_arg = "query"
max_rows = 10         # a table over its row cap keeps its most relevant rows
"""
    )

    async def check(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        # A redacting tool's structuredContent is dropped, so is its outputSchema.
        assert tools["get_stats"].output_schema is None
        stats = await s.call_tool("get_stats", {})
        assert "s3cr3t" not in text(stats) and "[redacted]" in text(stats), text(stats)
        assert stats.structured_content is None
        md = text(await s.call_tool("list_issues", {}))
        assert md.startswith("[Truncated to 5 rows of 30 total]"), md[:300]
        header = [l for l in md.splitlines() if l.startswith("|")][0]
        assert header == "|number|title|state|user.login|", header
        assert next_line(md) is not None
        # The call's `query` argument focuses the result (upstream does not filter); the
        # whole result is stored, and the fetch walks it to its last issue.
        issues = json.loads((HERE / "data" / "issues_30.json").read_text())
        want = {str(i["number"]) for i in issues if "ahmed" in json.dumps(i).lower()}
        assert 0 < len(want) < 30, len(want)
        md = text(await s.call_tool("search_issues", {"query": "ahmed"}))
        assert md.startswith(f'[Kept {len(want)} of 30 rows relevant to "ahmed"]'), md[:300]
        assert set(re.findall(r"\|(\d{4})\|", md)) == want, md[:3000]
        tool, ref, cursor = NEXT.match(next_line(md)).groups()
        seen, args = set(), {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
        for _ in range(100):
            page = text(await s.call_tool(tool, args))
            seen |= set(re.findall(r"\|(\d{4})\|", page))
            line = next_line(page)
            if line is None:
                break
            _, ref, cursor = NEXT.match(line).groups()
            args = {"ref": ref, "cursor": cursor}
        assert seen == {str(i["number"]) for i in issues}, sorted(seen)

    await with_session(check, "--config", config)


def run_tof(args, timeout):
    start = time.monotonic()
    p = subprocess.run(
        [TOF, "proxy", *args],
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return p, time.monotonic() - start


async def a_config_typo_names_the_nearest_tool(_):
    config = write_config("[tools.list_isues]\nmax_rows = 5\n")
    p, _ = run_tof(["--config", config, "--", *UPSTREAM], timeout=60)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stdout == "", p.stdout
    want = f"{config}: [tools.list_isues] names no tool of the upstream: did you mean [tools.list_issues]?"
    assert want in p.stderr, p.stderr


async def an_upstream_that_does_not_start_is_a_clear_error(_):
    p, took = run_tof(["--", "/nonexistent/mcp-server"], timeout=30)
    assert p.returncode != 0
    assert "can not start the upstream `/nonexistent/mcp-server`" in p.stderr, p.stderr
    assert took < 10, took


async def a_bad_upstream_url_is_a_clear_error(_):
    p, _ = run_tof(["--upstream-url", "ftp://127.0.0.1:1/mcp"], timeout=30)
    assert p.returncode == 2 and "give the server's streamable HTTP endpoint" in p.stderr, p.stderr
    p, _ = run_tof(["--upstream-url", "https://127.0.0.1:1/mcp"], timeout=30)
    assert p.returncode == 2 and "https is not supported yet" in p.stderr, p.stderr
    # Nothing listens there: a clear error, no hang.
    p, took = run_tof(["--upstream-url", "http://127.0.0.1:1/mcp"], timeout=90)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "the upstream at http://127.0.0.1:1/mcp did not initialize" in p.stderr, p.stderr


HTTP_PORT = 6392


async def an_upstream_over_streamable_http(_):
    server = subprocess.Popen(
        [*UPSTREAM, "http", str(HTTP_PORT)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        import socket

        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", HTTP_PORT), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        params = StdioServerParameters(
            command=TOF, args=["proxy", "--upstream-url", f"http://127.0.0.1:{HTTP_PORT}/mcp"]
        )
        async def sample(context, params):
            return types.CreateMessageResult(
                role="assistant", content=TextContent(type="text", text="hi back"), model="m"
            )

        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, sampling_callback=sample) as s:
                init = await s.initialize()
                assert init.server_info.name == "proxy-test-upstream", init.server_info
                # A request of upstream's to the client (sampling), sent in the call's event
                # stream, reaches the host and its answer comes back.
                sampled = await asyncio.wait_for(s.call_tool("sample_anyway", {}), timeout=30)
                assert "sampled: hi back" in text(sampled), text(sampled)
                names = [t.name for t in (await s.list_tools()).tools]
                assert "list_repos" in names and "get_stored_result" in names, names
                md = text(await s.call_tool("huge_list", {"count": ROWS}))
                assert md.startswith("[Truncated"), md[:200]
                tool, ref, cursor = NEXT.match(next_line(md)).groups()
                args = {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
                page = await s.call_tool(tool, args)
                assert not page.is_error and "|row-" in text(page), text(page)[:300]
    finally:
        server.kill()
        server.wait()


# ---- --listen: the host side over streamable HTTP --------------------------------------------


class Listening:
    """`tof proxy --listen 127.0.0.1:0 ARGS -- upstream`: port 0 lets the system pick a free
    port, which the proxy's `listening on` line names. Stopped (SIGTERM) on exit."""

    def __init__(self, *proxy_args, env=None):
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log")
        self.p = subprocess.Popen(
            [TOF, "proxy", "--listen", "127.0.0.1:0", *proxy_args, "--", *UPSTREAM],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            env=env,
        )
        self.url = None

    def __enter__(self):
        try:
            deadline = time.monotonic() + 60
            while self.url is None:
                text = pathlib.Path(self.log.name).read_text()
                m = re.search(r"^tof proxy: listening on (http://127\.0\.0\.1:\d+/mcp)$", text, re.M)
                if m:
                    self.url = m.group(1)
                elif self.p.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"tof proxy --listen did not start:\n{text}")
                else:
                    time.sleep(0.05)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_):
        if self.p.poll() is None:
            self.p.terminate()
        try:
            self.code = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            raise AssertionError("tof proxy --listen did not exit on SIGTERM")
        finally:
            self.log.close()


async def over_http(url, check):
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            return await check(s)


def cancel_mark():
    """A file `hang` writes when its call is cancelled, and the upstream's environment that
    names it."""
    import os

    mark = pathlib.Path(tempfile.mkdtemp()) / "cancelled"
    return mark, {**os.environ, "TOF_PROXY_CANCEL_MARK": str(mark)}


async def give_up_on_hang(s):
    """Call `hang` and give up after 1 s, as a client does when a call takes too long."""
    try:
        await s.call_tool("hang", {}, read_timeout_seconds=1)
        raise AssertionError("the hanging call succeeded")
    except AssertionError:
        raise
    except Exception:  # noqa: BLE001 - the SDK's timeout error
        pass


async def wait_for(mark, why):
    """Wait up to 10 s for `mark` to exist."""
    for _ in range(100):
        if mark.exists():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(why)


async def a_listening_proxy_serves_clients_over_streamable_http(_):
    with Listening("--store", "memory") as proxy:
        async with streamable_http_client(proxy.url) as (read, write):
            async with ClientSession(read, write) as s:
                init = await s.initialize()
                assert init.server_info.name == "proxy-test-upstream", init.server_info
                # The stdio session's checks, as they are: the fetch tool listed, a recorded
                # response formatted, the fetch walked, an error kept, an image, structured
                # content.
                for check in SHARED:
                    await check(s)

        # Several clients at once share the one upstream and the one store: a result cut
        # for one client is fetched by another.
        async def cut(s):
            md = text(await s.call_tool("huge_list", {"count": ROWS}))
            return NEXT.match(next_line(md)).groups()

        cuts = await asyncio.gather(*(over_http(proxy.url, cut) for _ in range(3)))
        assert len({ref for _, ref, _ in cuts}) == 3, cuts

        async def fetch(s):
            tool, ref, cursor = cuts[0]
            args = {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
            page = await s.call_tool(tool, args)
            # The page starts at the cursor's row (`990`, or `990;990-id,note` when the
            # first text's rows lacked a column the budget left out: those come after the
            # last row); without a cursor, at the first row.
            first = f"|row-{(cursor or '0').split(';')[0]}|"
            assert not page.is_error and first in text(page), text(page)[:300]

        await over_http(proxy.url, fetch)
        # Another path is not the MCP endpoint.
        import urllib.error
        import urllib.request

        try:
            urllib.request.urlopen(proxy.url.replace("/mcp", "/other"), timeout=10)
            raise AssertionError("a path other than /mcp was served")
        except urllib.error.HTTPError as e:
            assert e.code == 404, e
    # SIGTERM: a clean exit.
    assert proxy.code == 0, proxy.code


async def a_listening_proxy_forwards_the_upstreams_requests_to_the_calling_client(_):
    # Each client has a session of its own: the upstream's request made during a call goes to
    # the client that made the call, on that call's event stream, and its answer comes back.
    async def sample(context, params):
        return types.CreateMessageResult(
            role="assistant", content=TextContent(type="text", text="from the client"), model="m"
        )

    with Listening() as proxy:
        async with streamable_http_client(proxy.url) as (read, write):
            async with ClientSession(read, write, sampling_callback=sample) as s:
                await s.initialize()
                result = await asyncio.wait_for(s.call_tool("sample_anyway", {}), timeout=30)
                assert text(result) == "sampled: from the client", text(result)
        # A client that did not declare sampling: the upstream gets the proxy's MCP error.
        result = await over_http(proxy.url, lambda s: s.call_tool("sample_anyway", {}))
        body = text(result)
        assert "did not declare the `sampling` capability" in body, body


async def a_listening_proxy_cancels_the_call_of_a_client_that_goes(_):
    # Over --listen a client that gives up on a call (the SDK sends `notifications/cancelled`
    # in the call's session) cancels the forwarded call upstream.
    mark, env = cancel_mark()
    with Listening(env=env) as proxy:
        async with streamable_http_client(proxy.url) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                await give_up_on_hang(s)
        await wait_for(mark, "the upstream's call was not cancelled when its client went")
        # Another client is served by the same upstream.
        result = await over_http(proxy.url, lambda s: s.call_tool("list_repos", {}))
        assert not result.is_error, text(result)


async def a_listening_proxy_refuses_a_bad_address_at_once(_):
    p, took = run_tof(["--listen", "nonsense", "--", *UPSTREAM], timeout=30)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "tof proxy: --listen nonsense: not an address to listen on" in p.stderr, p.stderr
    assert took < 10, took


# ---- faults: bounded time, clear errors ---------------------------------------------------


async def an_upstream_killed_mid_call_is_a_clear_error_in_bounded_time(_):
    async def check(s):
        start = time.monotonic()
        try:
            result = await asyncio.wait_for(s.call_tool("crash", {}), timeout=20)
            message = text(result) if result.is_error else None
        except asyncio.TimeoutError:
            raise AssertionError("the call hung")
        except Exception as e:  # an MCP error response
            message = str(e)
        assert message is not None, "a crashed upstream gave a success"
        assert "is gone" in message, message
        assert time.monotonic() - start < 10
        # The next call fails at once too.
        start = time.monotonic()
        try:
            await asyncio.wait_for(s.call_tool("list_repos", {}), timeout=20)
            raise AssertionError("a call after the crash succeeded")
        except AssertionError:
            raise
        except Exception as e:
            assert "is gone" in str(e), str(e)
        assert time.monotonic() - start < 5

    await with_session(check)


async def an_upstream_that_never_answers_is_a_clear_error_in_bounded_time(_):
    async def check(s):
        start = time.monotonic()
        try:
            await asyncio.wait_for(s.call_tool("hang", {}), timeout=30)
            raise AssertionError("the hanging call succeeded")
        except asyncio.TimeoutError:
            raise AssertionError("the call hung past the proxy's timeout")
        except AssertionError:
            raise
        except Exception as e:
            assert "did not answer within 3 s" in str(e), str(e)
        took = time.monotonic() - start
        assert 2.5 < took < 10, took
        # The upstream is still there for the next call.
        assert not (await s.call_tool("list_repos", {})).is_error

    await with_session(check, "--timeout", "3")


async def a_cancelled_call_is_cancelled_upstream(_):
    mark, env = cancel_mark()
    params = StdioServerParameters(command=TOF, args=["proxy", "--", *UPSTREAM], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            # The SDK gives up after 1 s and sends notifications/cancelled.
            await give_up_on_hang(s)
            await wait_for(mark, "the upstream's call was not cancelled")
            # The session still works.
            assert not (await s.call_tool("list_repos", {})).is_error


# ---- Redis: two proxies share one store; a stopped Redis is a told failure --------------------


async def cut_rows(s, count):
    """Call `huge_list` for `count` rows: the fetch call of its Next line (tool, ref, cursor)
    and the row numbers the first page shows."""
    md = text(await s.call_tool("huge_list", {"count": count}))
    return NEXT.match(next_line(md)).groups(), set(re.findall(r"\|row-(\d+)\|", md))


async def walk_rows(s, tool, ref, cursor):
    """Follow Next lines from the fetch call (tool, ref, cursor) to the last page: the row
    numbers every page showed."""
    seen, pages = set(), 0
    args = {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
    while True:
        page = await s.call_tool(tool, args)
        assert not page.is_error, text(page)
        pages += 1
        assert pages <= 1000, "the cursor does not advance"
        seen |= set(re.findall(r"\|row-(\d+)\|", text(page)))
        line = next_line(text(page))
        if line is None:
            return seen
        _, ref2, cursor2 = NEXT.match(line).groups()
        args = {"ref": ref2, "cursor": cursor2}


REDIS_PORT = 6391


async def a_result_stored_through_one_proxy_is_fetched_through_another(_):
    redis = start_redis(REDIS_PORT)
    store = f"redis://127.0.0.1:{REDIS_PORT}"
    try:
        (tool, ref, cursor), seen = await with_session(lambda s: cut_rows(s, ROWS), "--store", store)

        async def walk(s):
            seen.update(await walk_rows(s, tool, ref, cursor))

        # The first proxy has exited: the second one reads what the first one stored.
        await with_session(walk, "--store", store)
        assert seen == {str(i) for i in range(ROWS)}, len(seen)

        # Redis stopped: the cut result says it was not stored, in bounded time.
        redis.kill()
        redis.wait()

        async def stopped(s):
            start = time.monotonic()
            md = text(await s.call_tool("huge_list", {"count": ROWS}))
            assert time.monotonic() - start < 10
            assert "[Full result not stored: " in md, md[-400:]
            assert next_line(md) is None, md[-400:]

        await with_session(stopped, "--store", store)
    finally:
        redis.kill()
        redis.wait()


async def a_result_stored_through_one_listening_proxy_is_fetched_through_another(_):
    redis = start_redis(REDIS_PORT)
    store = f"redis://127.0.0.1:{REDIS_PORT}"
    try:
        with Listening("--store", store) as a, Listening("--store", store) as b:
            (tool, ref, cursor), seen = await over_http(a.url, lambda s: cut_rows(s, ROWS))

            async def walk(s):
                seen.update(await walk_rows(s, tool, ref, cursor))

            await over_http(b.url, walk)
            assert seen == {str(i) for i in range(ROWS)}, len(seen)
    finally:
        redis.kill()
        redis.wait()


SHARED = [
    tools_list_is_upstream_s_plus_the_fetch_tool,
    a_recorded_response_is_a_table_within_the_budget,
    the_fetch_walks_a_huge_list_to_the_last_row,
    plain_text_goes_through_the_string_path,
    an_error_stays_an_error,
    an_image_passes_through_untouched,
    structured_content_stays_upstream_s,
]
ALONE = [
    initialize_passes_upstream_through,
    per_tool_options_from_the_config,
    structured_content_keep_and_drop,
    a_config_typo_names_the_nearest_tool,
    an_upstream_that_does_not_start_is_a_clear_error,
    a_bad_upstream_url_is_a_clear_error,
    a_listening_proxy_serves_clients_over_streamable_http,
    a_listening_proxy_forwards_the_upstreams_requests_to_the_calling_client,
    a_listening_proxy_cancels_the_call_of_a_client_that_goes,
    a_listening_proxy_refuses_a_bad_address_at_once,
    an_upstream_over_streamable_http,
    an_upstream_killed_mid_call_is_a_clear_error_in_bounded_time,
    an_upstream_that_never_answers_is_a_clear_error_in_bounded_time,
    a_cancelled_call_is_cancelled_upstream,
    a_result_stored_through_one_proxy_is_fetched_through_another,
    a_result_stored_through_one_listening_proxy_is_fetched_through_another,
]


async def run():
    results = []

    async def one(check, s):
        try:
            await asyncio.wait_for(check(s), timeout=120)
            results.append((check.__name__, None))
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append((check.__name__, traceback.format_exc()))

    async def shared(s):
        for check in SHARED:
            await one(check, s)

    try:
        await with_session(shared)
    except Exception:  # noqa: BLE001
        results.append(("shared_session", traceback.format_exc()))
    for check in ALONE:
        await one(check, None)
    return results


def main():
    global TOF
    if len(sys.argv) != 2:
        sys.exit("usage: test_proxy.py PATH_TO_TOF")
    TOF = sys.argv[1]
    results = asyncio.run(run())
    report("proxy", results)


if __name__ == "__main__":
    main()
