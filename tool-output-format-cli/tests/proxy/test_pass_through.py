"""What `tof proxy` passes on, read on the wire, over each pair of transports: the host on
standard input/output or over streamable HTTP (`--listen`), the upstream started as a command
or reached over streamable HTTP (`--upstream-url`). The upstream is `raw_upstream.py` (JSON-RPC
written by hand), the host is this script (JSON-RPC written by hand): no SDK's model stands
between the wire and the checks, so a field the proxy drops shows.

    python test_pass_through.py PATH_TO_TOF

Each transport pair is checked the same way:

- `initialize`: upstream's result as it came (fields of no protocol version included);
- `tools/list`: upstream's tool exactly as it came (`execution`, `annotations`, `icons`,
  `_meta`, an unknown field), an unknown field of the result, and the fetch tool after it;
- `tools/call`: the host's params reach the upstream with every field (an unknown one, `_meta`),
  and the result's unknown field comes back; with a progress token, the progress comes back
  first and the result the same (over `--listen` the answer is then an event stream).

An upstream over streamable HTTP that answers with an event (or a JSON answer) over the proxy's
bound of 16 MiB: the call gets an MCP error naming the bound, soon, and the proxy goes on.

Then, with the MCP Python SDK's client over streamable HTTP (`--listen`, a session per client)
in front of `roots_upstream.py` (the SDK's low-level server, asking its client for things):
the upstream's `roots/list`, `sampling/createMessage` and `elicitation/create` reach the client
whose call asked and its answers come back, two clients one after the other each answering for
itself; the client's `notifications/roots/list_changed` and `notifications/cancelled` (a call
it gave up on) reach the upstream.

Prints libtest's lines and exits non-zero on a failure.
"""

import asyncio
import json
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "clients"))
from libtest import report  # noqa: E402

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
from raw_upstream import TOOL  # noqa: E402

UPSTREAM = [sys.executable, str(HERE / "raw_upstream.py")]
TOF = None
VERSION = "2025-06-18"
CALL_PARAMS = {
    "name": "echo",
    "arguments": {"note": "hi"},
    "x-unknown-param": {"kept": True},
    "_meta": {"example.com/trace": "t-1"},
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port):
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


class HttpUpstream:
    """`raw_upstream.py http PORT`, stopped on exit."""

    def __enter__(self):
        self.port = free_port()
        self.p = subprocess.Popen([*UPSTREAM, "http", str(self.port)])
        wait_port(self.port)
        return f"http://127.0.0.1:{self.port}/mcp"

    def __exit__(self, *_):
        self.p.kill()
        self.p.wait()


class StdioHost:
    """The proxy on standard input/output, spoken to line by line."""

    def __init__(self, upstream_args):
        self.p = subprocess.Popen(
            [TOF, "proxy", *upstream_args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        self.seen = []
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise AssertionError(f"the proxy closed its output before answering {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id and "method" not in reply:
                return reply
            self.seen.append(reply)

    def notify(self, method):
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.p.stdin.flush()

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


class HttpHost:
    """The proxy with `--listen 127.0.0.1:0`, spoken to with one POST per message."""

    def __init__(self, upstream_args):
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log")
        self.p = subprocess.Popen(
            [TOF, "proxy", "--listen", "127.0.0.1:0", *upstream_args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 60
        self.url = None
        while self.url is None:
            text = pathlib.Path(self.log.name).read_text()
            m = re.search(r"^tof proxy: listening on (http://\S+/mcp)$", text, re.M)
            if m:
                self.url = m.group(1)
            elif self.p.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise AssertionError(f"tof proxy --listen did not start:\n{text}")
            else:
                time.sleep(0.05)
        self.next_id = 0
        self.session = None

    def post(self, msg):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": VERSION,
        }
        # The session `initialize` opened: every later message names it.
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        req = urllib.request.Request(self.url, json.dumps(msg).encode(), headers, method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read().decode()
            kind = r.headers.get("Content-Type", "")
            self.session = r.headers.get("Mcp-Session-Id") or self.session
        if not body:
            return None
        if kind.startswith("text/event-stream"):
            # The response is the stream's last JSON-RPC response.
            datas = [l[5:].strip() for l in body.splitlines() if l.startswith("data:")]
            replies = [json.loads(d) for d in datas if d]
            self.seen = [r for r in replies if "method" in r]
            return [r for r in replies if "method" not in r][-1]
        return json.loads(body)

    def request(self, method, params):
        self.next_id += 1
        self.seen = []
        return self.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})

    def notify(self, method):
        self.post({"jsonrpc": "2.0", "method": method})

    def close(self):
        if self.p.poll() is None:
            self.p.terminate()
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        self.log.close()


def check(host):
    """Every field checked; the ones lost are named together."""
    lost = []

    def expect(ok, what):
        if not ok:
            lost.append(what)

    init = host.request(
        "initialize",
        {
            "protocolVersion": VERSION,
            "capabilities": {},
            "clientInfo": {"name": "test_pass_through", "version": "1"},
        },
    )["result"]
    expect(init.get("x-unknown-init-field") == "kept", f"initialize: an unknown field ({init})")
    expect(init["serverInfo"].get("x-unknown-info") is True, "initialize: serverInfo's unknown field")
    expect("x-unknown-capability" in init["capabilities"], "initialize: an unknown capability")
    expect(init.get("instructions") == "A bare upstream.", "initialize: instructions")
    host.notify("notifications/initialized")

    listed = host.request("tools/list", {})["result"]
    tools = {t["name"]: t for t in listed["tools"]}
    echo = tools.get("echo") or {}
    for key, value in TOOL.items():
        expect(echo.get(key) == value, f"tools/list: the tool's {key} (got {echo.get(key)!r})")
    expect(echo == TOOL, "tools/list: the tool as it came")
    expect(listed.get("x-unknown-list-field") == "kept", "tools/list: the result's unknown field")
    expect([t["name"] for t in listed["tools"]][-1] == "get_stored_result", "tools/list: the fetch tool last")

    called = host.request("tools/call", CALL_PARAMS)["result"]
    text = called["content"][0]["text"]
    for field in ["x-unknown-param", "example.com/trace"]:
        expect(field in text, f"tools/call: the request's {field} at the upstream ({text})")
    expect(called.get("x-unknown-result-field") == "kept", "tools/call: the result's unknown field")

    # With a progress token upstream sends a progress notification first; over --listen the
    # answer is then an event stream when the progress reaches the proxy's host side first.
    with_progress = {**CALL_PARAMS, "_meta": {"progressToken": "p-1"}}
    called = host.request("tools/call", with_progress)["result"]
    expect(
        called.get("x-unknown-result-field") == "kept",
        "tools/call with progress: the result's unknown field",
    )
    progress = [m for m in host.seen if m.get("method") == "notifications/progress"]
    assert not lost, "lost:\n- " + "\n- ".join(lost)
    return [m["params"]["progressToken"] for m in progress]
    assert not lost, "lost:\n- " + "\n- ".join(lost)


def on(pair):
    """Run `check` on a host and upstream of the transport pair `pair`; its progress tokens."""
    host_side, upstream_side = pair
    Host = StdioHost if host_side == "stdio" else HttpHost
    if upstream_side == "command":
        host = Host(["--", *UPSTREAM])
        try:
            return check(host)
        finally:
            host.close()
    with HttpUpstream() as url:
        host = Host(["--upstream-url", url])
        try:
            return check(host)
        finally:
            host.close()


PAIRS = [("stdio", "command"), ("stdio", "http"), ("listening", "command"), ("listening", "http")]
PROGRESS = {}  # pair -> the progress tokens the host saw before the call's answer


def pair_check(pair):
    def run():
        PROGRESS[pair] = on(pair)

    run.__name__ = f"{pair[0]}_host_{pair[1]}_upstream"
    return run


def progress_reaches_the_host_before_the_answer():
    # Upstream writes its progress notification before its answer. rmcp hands a notification
    # to the proxy on a task of its own, so the answer could overtake it (over --listen, reach
    # the client after the HTTP response ended: lost); the answer now waits for the progress
    # read before it to be passed on.
    late = {p: t for p, t in PROGRESS.items() if t != ["p-1"]}
    assert not late, f"the progress came after the answer (or not at all): {late}"


def an_upstream_answer_over_the_bound_is_an_error_naming_it():
    with HttpUpstream() as url:
        host = StdioHost(["--upstream-url", url])
        try:
            host.request(
                "initialize",
                {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
            )
            host.notify("notifications/initialized")
            for tool, what in [("flood", "one event of its event stream"), ("flood_json", "its JSON answer")]:
                start = time.monotonic()
                reply = host.request("tools/call", {"name": tool, "arguments": {}})
                took = time.monotonic() - start
                message = reply.get("error", {}).get("message", "")
                expected = f"sent {what} over 16777216 bytes (16 MiB), the bound on it"
                assert expected in message, f"{tool}: {reply!r:.300}"
                assert took < 20, f"{tool}: the error took {took:.1f} s"
            # The proxy goes on.
            called = host.request("tools/call", CALL_PARAMS)["result"]
            assert called.get("x-unknown-result-field") == "kept", called
        finally:
            host.close()


def over_listen(check):
    """`check(url)` against `tof proxy --listen` in front of `roots_upstream.py`."""
    host = HttpHost(["--", sys.executable, str(HERE / "roots_upstream.py")])
    try:
        asyncio.run(asyncio.wait_for(check(host.url), timeout=60))
    finally:
        host.close()


def client(url, roots, check):
    """`check(session)` in a session of the SDK's client over streamable HTTP whose roots are
    `roots` and that can sample (answering "sampled") and elicit (accepting with name Ada)."""
    import mcp.types as types
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots])

    async def sample(context, params):
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="sampled"), model="m"
        )

    async def elicit(context, params):
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    async def run():
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(
                read,
                write,
                list_roots_callback=list_roots,
                sampling_callback=sample,
                elicitation_callback=elicit,
            ) as s:
                await s.initialize()
                return await check(s)

    return run()


def said(result):
    assert not result.is_error, result
    return result.content[0].text


def listening_upstreams_requests_reach_the_client_whose_call_asked():
    async def check(url):
        async def ask(s):
            return [said(await s.call_tool(t, {})) for t in ["roots", "sample", "elicit"]]

        first = await client(url, ["file:///work/one"], ask)
        assert first == ["file:///work/one", "sampled", "accept Ada"], first
        # Another client, after the first: its own roots, not the first's.
        second = await client(url, ["file:///work/two", "file:///work/three"], ask)
        assert second[0] == "file:///work/two file:///work/three", second

    over_listen(check)


def listening_clients_notifications_reach_the_upstream():
    async def check(url):
        async def notify(s):
            await s.send_roots_list_changed()
            try:
                await s.call_tool("hang", {}, read_timeout_seconds=1)
                raise AssertionError("the hanging call succeeded")
            except AssertionError:
                raise
            except Exception:  # noqa: BLE001 - the SDK's timeout error; it sends the cancel
                pass
            # The session goes on; the upstream heard both.
            for _ in range(100):
                heard = said(await s.call_tool("heard", {}))
                if "cancelled" in heard.split() and "roots/list_changed" in heard.split():
                    return heard
                await asyncio.sleep(0.1)
            raise AssertionError(f"the upstream heard only: {heard}")

        await client(url, [], notify)

    over_listen(check)


CHECKS = [
    *(pair_check(p) for p in PAIRS),
    progress_reaches_the_host_before_the_answer,
    an_upstream_answer_over_the_bound_is_an_error_naming_it,
    listening_upstreams_requests_reach_the_client_whose_call_asked,
    listening_clients_notifications_reach_the_upstream,
]
# Checks that wait on work not done yet: reported `pending` with their failure, neither passed
# nor failed. None now.
PENDING = []


def main():
    global TOF
    if len(sys.argv) != 2:
        sys.exit("usage: test_pass_through.py PATH_TO_TOF")
    TOF = sys.argv[1]
    results = []
    for c in CHECKS:
        try:
            c()
            results.append((c.__name__, None))
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append((c.__name__, traceback.format_exc()))
    report("pass_through", results, pending=PENDING)


if __name__ == "__main__":
    main()
