"""Result sizes of `tof proxy` in front of the three reference servers (the table in BENCHMARKS.md):
each call direct, through the proxy out of the box, and through `tof proxy --max-chars 2000`
with every `Next:` line followed to the end (how many fetch pages, the largest page).

    python measure_reference.py PATH_TO_TOF PATH_TO_SERVER_FILESYSTEM PATH_TO_MCP_SERVER_GIT \
        PATH_TO_MCP_SERVER_SQLITE

The fixtures, the sessions and the walk are `test_reference.py`'s (a SQLite database of 5,000
orders and 400 customers, a git repository of 30 commits with one large one, a text file of
about 100 KB, a directory tree). Characters are those of the result's text content (its text
blocks joined), as an agent reads it. Prints a markdown table: the proxy out of the box (its
first text, then how many fetch pages its Next lines lead to and the largest), and under
`--max-chars 2000` (its first text, then its fetch pages and the largest).
"""

import asyncio
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import test_reference as ref  # noqa: E402


def calls():
    repo = str(ref.ROOT / "repo")
    return [
        ("sqlite read_query `SELECT *` (5,000 rows)", "sqlite", "read_query",
         {"query": "SELECT * FROM orders"}),
        ("sqlite read_query, an 800-row join", "sqlite", "read_query", {
            "query": "SELECT o.order_id, c.name, c.city, o.amount, o.status FROM orders o "
                     "JOIN customers c USING (customer_id) ORDER BY o.order_id LIMIT 800"}),
        ("git git_show of the large commit", "git", "git_show",
         {"repo_path": repo, "revision": f"HEAD~{ref.COMMITS - 1 - ref.COMMITS // 2}"}),
        (f"git git_diff over {ref.COMMITS - 1} commits (HEAD~{ref.COMMITS - 1})", "git",
         "git_diff", {"repo_path": repo, "target": f"HEAD~{ref.COMMITS - 1}"}),
        ("filesystem read_text_file (102 KB)", "filesystem", "read_text_file",
         {"path": str(ref.ROOT / "big.txt")}),
        ("filesystem directory_tree", "filesystem", "directory_tree",
         {"path": str(ref.ROOT / "tree")}),
    ]


async def sizes():
    rows = []
    for label, server, tool, args in calls():
        direct = await ref.direct_text(server, tool, args)

        async def walked(s, tool=tool, args=args):
            return await ref.walk(s, tool, args)

        default = await ref.session(server, [], walked)
        budget = await ref.session(server, ["--max-chars", str(ref.BUDGET)], walked)
        rows.append((label, len(direct), default, budget))
    return rows


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ref.TOF, ref.FS, ref.GIT, ref.SQLITE = sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="tof-measure-") as tmp:
        ref.ROOT = pathlib.Path(tmp).resolve()
        ref.make_fixtures(ref.ROOT)
        rows = asyncio.run(sizes())
    print("| call | direct chars | proxy (default) | `--max-chars 2000` | "
          "the rest by fetch under 2000: pages, largest page chars |")
    print("|---|---:|---:|---:|---:|")
    for label, direct, default, budget in rows:
        print(f"| {label} | {direct:,} | {cell(default)} | {len(budget[0]):,} | "
              f"{len(budget) - 1} pages, {max((len(p) for p in budget[1:]), default=0):,} |")


def cell(pages):
    """The first text's characters, and the fetch pages after it with the largest one."""
    rest = pages[1:]
    if not rest:
        return f"{len(pages[0]):,} (whole)"
    return f"{len(pages[0]):,} (+{len(rest)} pages, largest {max(len(p) for p in rest):,})"

if __name__ == "__main__":
    main()
