"""The MCP Inspector's command line (`@modelcontextprotocol/inspector` from npm, `--cli`, the
official TypeScript SDK) as the host of `tof proxy`, in front of the FastMCP upstream of the
proxy tests. The Inspector starts a new server for every request, so each call is a new proxy
process: the stored rest of a cut result is reached through a Redis store the processes
share, walked to its last row.

    python test_inspector.py PATH_TO_TOF PATH_TO_MCP_INSPECTOR

Needs `redis-server` on PATH (it starts its own on port 6393). Prints libtest's lines so that
CI counts its checks, and exits non-zero on a failure.
"""

import pathlib
import re
import stat
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "clients"))
from clients import call_flags, inspector, start_redis  # noqa: E402 - found through the path above
from libtest import report, run_checks  # noqa: E402

HERE = pathlib.Path(__file__).parent
PORT = 6393
NEXT = re.compile(r'^Next: call (\w+)\(ref="(r_[0-9a-z]+)"(?:, cursor="([^"]+)")?\)$', re.M)


class Inspector:
    def __init__(self, inspector, server):
        self.inspector, self.server = inspector, server

    def run(self, *args):
        return inspector(self.inspector, self.server, *args)

    def call(self, tool, **args):
        return self.run(*call_flags(tool, args))

    def tools_list_is_upstream_s_plus_the_fetch_tool(self):
        tools = {t["name"]: t for t in self.run("--method", "tools/list")["tools"]}
        for name in ["list_issues", "huge_list", "fail", "get_stored_result"]:
            assert name in tools, sorted(tools)
        props = tools["get_stored_result"]["inputSchema"]["properties"]
        assert "ref" in props and "cursor" in props, props

    def a_cut_result_is_walked_to_the_last_row_one_process_a_call(self):
        result = self.call("huge_list", count=2000)
        md = result["content"][0]["text"]
        assert md.startswith("[Truncated to "), md[:200]
        reports = result["_meta"]["tool-output-format/cuts"]["reports"]
        assert reports[0]["reference"] is not None, reports
        seen = set(re.findall(r"\|row-(\d+)\|", md))
        calls = 0
        while (m := NEXT.search(md)) is not None:
            calls += 1
            assert calls <= 40, "the cursor does not advance"
            tool, ref, cursor = m.groups()
            args = {"ref": ref} if cursor is None else {"ref": ref, "cursor": cursor}
            page = self.call(tool, **args)
            assert page.get("isError") is not True, page
            md = page["content"][0]["text"]
            assert md.count("Next:") <= 1, md
            seen |= set(re.findall(r"\|row-(\d+)\|", md))
        assert seen == {str(i) for i in range(2000)}, (len(seen), calls)
        assert "has_more: false" in md, md[-300:]

    def an_error_stays_an_error(self):
        result = self.call("fail")
        assert result.get("isError") is True, result
        assert "acme/missing does not exist (404)" in result["content"][0]["text"], result


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: test_inspector.py PATH_TO_TOF PATH_TO_MCP_INSPECTOR")
    tof, inspector = sys.argv[1], sys.argv[2]
    redis = start_redis(PORT)
    try:
        with tempfile.TemporaryDirectory() as d:
            # The Inspector takes one server command; the proxy's own arguments go in a script.
            server = pathlib.Path(d) / "proxy.sh"
            server.write_text(
                "#!/bin/sh\n"
                f"exec '{tof}' proxy --store redis://127.0.0.1:{PORT} -- "
                f"'{sys.executable}' '{HERE / 'upstream_server.py'}'\n"
            )
            server.chmod(server.stat().st_mode | stat.S_IXUSR)
            checks = Inspector(inspector, str(server))
            names = [
                "tools_list_is_upstream_s_plus_the_fetch_tool",
                "a_cut_result_is_walked_to_the_last_row_one_process_a_call",
                "an_error_stays_an_error",
            ]
            results = run_checks(checks, names)
    finally:
        redis.kill()
        redis.wait()
    report("proxy_inspector", results)


if __name__ == "__main__":
    main()
