"""A bare MCP upstream for `tof proxy`'s pass-through tests, written on the JSON-RPC wire with no
SDK, so that what it sends is exactly what the test says: fields no SDK's model knows (a tool's
`execution`, a field of no protocol version) that a faithful proxy passes on unchanged.

    python raw_upstream.py             # newline-delimited JSON-RPC on standard input/output
    python raw_upstream.py http PORT   # streamable HTTP at http://127.0.0.1:PORT/mcp (JSON
                                       # responses, no session)

It answers `initialize` (with an unknown field in its result and in its server info),
`tools/list` (one tool with `execution`, `annotations`, `icons`, `_meta` and an unknown field;
an unknown field on the result), and `tools/call` of `echo`, whose text is the request's params
as the upstream received them (so a test sees which fields of the host's request arrived), with
an unknown field on its result; a call with a progress token is sent a progress notification
before its answer (over HTTP the answer is then an event stream). Over HTTP, a hostile
upstream too: `tools/call` of `flood` is answered with an event stream whose one event grows
to 64 MiB, and of `flood_json` with a JSON answer of 20 MiB.
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

TOOL = {
    "name": "echo",
    "description": "The request's params as the upstream received them, as JSON text.",
    "inputSchema": {"type": "object", "properties": {"note": {"type": "string"}}},
    "execution": {"taskSupport": "optional"},
    "annotations": {"readOnlyHint": True, "x-annotation": "kept"},
    "icons": [{"src": "https://example.com/echo.png", "mimeType": "image/png"}],
    "_meta": {"example.com/owner": "tests"},
    "x-unknown-tool-field": {"nested": [1, 2]},
}


def answer(message):
    """The messages that answer one JSON-RPC message, the response last; none for a
    notification or a response."""
    method, rid = message.get("method"), message.get("id")
    if method is None or rid is None:
        return []
    params = message.get("params") or {}
    before = []
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {"listChanged": False}, "x-unknown-capability": {}},
            "serverInfo": {"name": "raw-upstream", "version": "1.0", "x-unknown-info": True},
            "instructions": "A bare upstream.",
            "x-unknown-init-field": "kept",
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": [TOOL], "x-unknown-list-field": "kept"}
    elif method == "tools/call" and params.get("name") == "echo":
        result = {
            "content": [{"type": "text", "text": json.dumps(params, sort_keys=True)}],
            "isError": False,
            "x-unknown-result-field": "kept",
        }
        token = (params.get("_meta") or {}).get("progressToken")
        if token is not None:
            before.append({
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": 1, "total": 2},
            })
    else:
        error = {"code": -32601, "message": f"no {method}"}
        return [{"jsonrpc": "2.0", "id": rid, "error": error}]
    return [*before, {"jsonrpc": "2.0", "id": rid, "result": result}]


def stdio():
    for line in sys.stdin:
        if not line.strip():
            continue
        for reply in answer(json.loads(line)):
            sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


class Http(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def send(self, status, body=b"", content_type=None):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def flood(self, rid, stream):
        """An answer far over any sensible bound: one event of 64 MiB, or 20 MiB of JSON."""
        self.close_connection = True
        self.send_response(200)
        try:
            if stream:
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(b"data: ")
                for _ in range(1024):
                    self.wfile.write(b"x" * 65536)
                self.wfile.write(b"\n\n")
            else:
                text = "x" * (20 * 1024 * 1024)
                result = {"content": [{"type": "text", "text": text}]}
                body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what a bound does

    def do_POST(self):
        if self.path != "/mcp":
            return self.send(404)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        message = json.loads(body)
        name = (message.get("params") or {}).get("name")
        if message.get("method") == "tools/call" and name in ("flood", "flood_json"):
            return self.flood(message["id"], name == "flood")
        replies = answer(message)
        if not replies:
            return self.send(202)
        if len(replies) == 1:
            return self.send(200, json.dumps(replies[0]).encode(), "application/json")
        events = "".join(f"data: {json.dumps(r)}\n\n" for r in replies)
        self.send(200, events.encode(), "text/event-stream")

    def do_GET(self):
        # No standalone stream: the server sends nothing of its own.
        self.send(405)

    def do_DELETE(self):
        self.send(405)


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        HTTPServer(("127.0.0.1", int(sys.argv[2])), Http).serve_forever()
    else:
        stdio()
