#!/usr/bin/env bash
# `tof proxy` against a server and a client no one here wrote: a FastMCP upstream
# (tool-output-format-cli/tests/proxy/upstream_server.py) driven through the proxy by the
# official MCP Python SDK (tests/proxy/test_proxy.py): formatted results, the fetch walked to
# the last row, errors and images kept, the config checked against upstream's tools, an
# upstream killed mid-call or never answering, two proxies sharing a Redis and a stopped
# Redis; and what passes through, read on the wire over each pair of transports (stdio or
# streamable HTTP on each side, tests/proxy/test_pass_through.py), an HTTP upstream's answer
# over the bound, and under --listen the upstream's roots/sampling/elicitation requests and a
# client's notifications both ways (tests/proxy/roots_upstream.py, the SDK's low-level
# server). Then
# `@modelcontextprotocol/server-everything` (npm, pinned) as the upstream for the
# protocol surface (tests/proxy/test_everything.py): initialize, prompts, resources,
# completions, logging, progress, sampling (forwarded; the host's capabilities told upstream),
# roots, images. Then the
# MCP Inspector's CLI (npm, pinned) as the host, a new proxy for each request, sharing Redis
# (tests/proxy/test_inspector.py). Then three reference servers people run (pinned:
# server-filesystem from npm, mcp-server-git and mcp-server-sqlite from PyPI, each in its own
# virtual environment) walked to the last Next line (tests/proxy/test_reference.py), and
# `tof` installed as MCP users install tools: `pip install ./tool-output-format-cli` (maturin's
# bin wheel) and `uvx --from ./tool-output-format-cli tof`.
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
"$venv/bin/python" tool-output-format-cli/tests/proxy/test_pass_through.py "$target/debug/tof"
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
# The reference servers. Each venv's name carries its pin, so a new pin installs
# afresh and a present one is not installed again.
fs_version=2026.8.31 git_version=2026.10.19 sqlite_version=2025.4.25
fs="$target/server-filesystem-$fs_version"
[ -x "$fs/node_modules/.bin/mcp-server-filesystem" ] ||
    npm install --prefix "$fs" --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/server-filesystem@$fs_version"
git_venv="$target/mcp-server-git-$git_version"
[ -x "$git_venv/bin/mcp-server-git" ] || {
    python3 -m venv "$git_venv"
    "$git_venv/bin/pip" install -q "mcp-server-git==$git_version" 'mcp==2.3.0'
}
# mcp-server-sqlite 2025.4.25 needs the MCP SDK before 2.0.
sqlite_venv="$target/mcp-server-sqlite-$sqlite_version"
[ -x "$sqlite_venv/bin/mcp-server-sqlite" ] || {
    python3 -m venv "$sqlite_venv"
    "$sqlite_venv/bin/pip" install -q "mcp-server-sqlite==$sqlite_version" 'mcp==1.30.0'
}
"$venv/bin/python" tool-output-format-cli/tests/proxy/test_reference.py "$target/debug/tof" \
    "$fs/node_modules/.bin/mcp-server-filesystem" "$git_venv/bin/mcp-server-git" \
    "$sqlite_venv/bin/mcp-server-sqlite"
# Installed as MCP users install tools (docs/proxy.md): the wheel maturin builds from
# tool-output-format-cli/pyproject.toml puts `tof` on PATH. Built with cargo's dev profile
# here (MATURIN_PEP517_ARGS) to reuse this run's build; users get a release build.
pip_venv="$target/tof-pip-venv"
[ -x "$pip_venv/bin/python" ] || python3 -m venv "$pip_venv"
"$pip_venv/bin/pip" install -q 'uv==0.13.8'
export MATURIN_PEP517_ARGS="--profile dev" UV_CACHE_DIR="$target/uv-cache"
"$pip_venv/bin/pip" install -q --force-reinstall --no-deps ./tool-output-format-cli
"$venv/bin/python" tool-output-format-cli/tests/proxy/test_install.py "$pip_venv/bin/tof" \
    "$pip_venv/bin/uvx" "$fs/node_modules/.bin/mcp-server-filesystem"
