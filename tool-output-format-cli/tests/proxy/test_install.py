"""`tof` installed the way MCP users install tools, and the host snippets of
docs/proxy.md run as written: `.ci/proxy.sh` has `pip install ./tool-output-format-cli` (the
maturin `bin` wheel) put `tof` in a fresh virtual environment, with `uv` beside it.

    python test_install.py PATH_TO_PIP_INSTALLED_TOF PATH_TO_UVX PATH_TO_SERVER_FILESYSTEM

Each snippet's command is started as the host would start it, with `tof` and `uvx` the
installed ones, the checkout path the repository's, `npx -y @modelcontextprotocol/server-filesystem`
the installed server and `/home/me/projects` a test folder; the official MCP Python SDK client
then lists the tools (upstream's and the fetch tool) and reads a file through it.

Prints libtest's lines and exits non-zero on a failure.
"""

import asyncio
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile
import traceback

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "clients"))
from libtest import report  # noqa: E402 - found through the path above

TOF = UVX = FS = None
SERVER = ["npx", "-y", "@modelcontextprotocol/server-filesystem"]
PROJECTS = "/home/me/projects"
CHECKOUT = "/home/me/src/tool-output-format/tool-output-format-cli"


def blocks(kind):
    md = (REPO / "docs" / "proxy.md").read_text()
    return re.findall(rf"^```{kind}\n(.*?)^```$", md, re.S | re.M)


def snippets():
    """(name, command, args) of every host snippet that starts the filesystem server."""
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            if line.startswith("claude mcp add "):
                words = shlex.split(line)
                cut = words.index("--")
                out.append(("claude mcp add", words[cut + 1], words[cut + 2:]))
    for block in blocks("json"):
        if "\n...\n" in block:  # an excerpt of a recorded response
            continue
        doc = json.loads(block)
        for key in ("servers", "mcpServers"):
            for name, server in doc.get(key, {}).items():
                if "@modelcontextprotocol/server-filesystem" in server.get("args", []):
                    out.append((f"{key}.{name} ({server['command']})", server["command"],
                                server["args"]))
    return out


def localize(command, args, folder):
    """The snippet's command with this machine's paths."""
    command = {"tof": TOF, "uvx": UVX}.get(command, command)
    args = [str(REPO / "tool-output-format-cli") if a == CHECKOUT else a for a in args]
    args = [folder if a == PROJECTS else a for a in args]
    for i in range(len(args)):
        if args[i:i + len(SERVER)] == SERVER:
            args[i:i + len(SERVER)] = [FS]
    return command, args


async def serves(command, args, folder):
    params = StdioServerParameters(command=command, args=args,
                                   env=dict(os.environ))
    async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            names = [t.name for t in (await s.list_tools()).tools]
            assert "read_text_file" in names and "get_stored_result" in names, names
            r = await s.call_tool("read_text_file", {"path": f"{folder}/note.txt"})
            assert not r.is_error and "installed" in r.content[0].text, r


async def the_pip_installed_tof_is_on_the_venv_s_path():
    bin_dir = pathlib.Path(TOF).parent
    assert (bin_dir / "python").exists(), f"{TOF} is not in a virtual environment's bin"
    out = subprocess.run(["tof", "proxy", "--help"], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")).stdout
    assert "--structured-content" in out and "--upstream-url" in out, out


async def the_host_snippets_start_a_proxy_that_serves():
    found = snippets()
    kinds = {name.split(" ")[0] for name, _, _ in found}
    assert {"claude", "servers.filesystem", "mcpServers.filesystem"} <= kinds, found
    with tempfile.TemporaryDirectory() as folder:
        folder = str(pathlib.Path(folder).resolve())
        pathlib.Path(folder, "note.txt").write_text("installed the way MCP users do\n")
        for name, command, args in found:
            command, args = localize(command, args, folder)
            try:
                await asyncio.wait_for(serves(command, args, folder), timeout=300)
            except Exception as e:
                raise AssertionError(f"{name}: {command} {args}") from e


CHECKS = [
    the_pip_installed_tof_is_on_the_venv_s_path,
    the_host_snippets_start_a_proxy_that_serves,
]


async def run():
    results = []
    for check in CHECKS:
        try:
            await check()
            results.append((check.__name__, None))
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append((check.__name__, traceback.format_exc()))
    return results


def main():
    global TOF, UVX, FS
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    TOF, UVX, FS = sys.argv[1:]
    report("proxy_install", asyncio.run(run()))


if __name__ == "__main__":
    main()
