#!/usr/bin/env bash
# `tof proxy` (issue 33) against a server and a client no one here wrote: a FastMCP upstream
# (tool-output-format-cli/tests/proxy/upstream_server.py) driven through the proxy by the
# official MCP Python SDK (tests/proxy/test_proxy.py): formatted results, the fetch walked to
# the last row, errors and images kept, the config checked against upstream's tools, an
# upstream killed mid-call or never answering, two proxies sharing a Redis and a stopped
# Redis. Then `@modelcontextprotocol/server-everything` (npm, pinned) as the upstream for the
# protocol surface (tests/proxy/test_everything.py): initialize, prompts, resources,
# completions, logging, progress, sampling (forwarded and refused), roots, images. Then the
# MCP Inspector's CLI (npm, pinned) as the host, a new proxy for each request, sharing Redis
# (tests/proxy/test_inspector.py).
# Installs its pinned virtual environment and npm package under the target directory, builds `tof`, prints libtest
# lines (counted by .ci/run) and exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
venv="$target/proxy-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q 'mcp==2.3.0' 'fastmcp==4.1.6'
# redis-server on PATH for the Redis checks (the test starts its own on port 6391).
command -v redis-server >/dev/null 2>&1 || .ci/redis.sh >/dev/null
# With the feature `redis` (not default, see its Cargo.toml) for --store redis://.
cargo build -q -p tool-output-format-cli --features redis
"$venv/bin/python" tool-output-format-cli/tests/proxy/test_proxy.py "$target/debug/tof"
npm install --prefix "$target/server-everything" --no-audit --no-fund --loglevel=error \
    '@modelcontextprotocol/server-everything@2026.8.31'
"$venv/bin/python" tool-output-format-cli/tests/proxy/test_everything.py "$target/debug/tof" \
    "$target/server-everything/node_modules/.bin/mcp-server-everything"
# The MCP Inspector's command line (npm, pinned, the same as .ci/run's) as the proxy's host, one
# proxy process a request: the rest of a cut result walked through a shared Redis store.
npm install --prefix "$target/mcp-inspector" --no-audit --no-fund --loglevel=error \
    '@modelcontextprotocol/inspector@0.15.0'
"$venv/bin/python" tool-output-format-cli/tests/proxy/test_inspector.py "$target/debug/tof" \
    "$target/mcp-inspector/node_modules/.bin/mcp-inspector"
