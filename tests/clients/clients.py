"""What the Python client scripts share besides the report (`libtest.py`): the MCP
Inspector's command line run once, and a throwaway `redis-server`."""

import json
import subprocess
import time


def inspector(path, server, *args):
    """Run the Inspector's CLI (`path --cli server args...`) for one request; its JSON answer."""
    out = subprocess.run(
        [path, "--cli", server, *args],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert out.returncode == 0, f"inspector {args}: exit {out.returncode}\n{out.stdout}\n{out.stderr}"
    return json.loads(out.stdout)


def call_flags(tool, args):
    """The Inspector's flags for `tools/call` of `tool` with `args` (non-strings as JSON)."""
    flags = ["--method", "tools/call", "--tool-name", tool]
    for key, value in args.items():
        flags += ["--tool-arg", f"{key}={value if isinstance(value, str) else json.dumps(value)}"]
    return flags


def start_redis(port):
    """A `redis-server` on 127.0.0.1:`port`, without persistence, answering; the process."""
    p = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        ping = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True)
        if ping.stdout.strip() == "PONG":
            return p
        time.sleep(0.05)
    p.kill()
    raise AssertionError(f"redis-server did not start on port {port}")
