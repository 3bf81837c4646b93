"""The Python examples in the package README and the Python guide run and print what their
comments say."""

import contextlib
import io
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
READMES = [ROOT / "tool-output-format-py" / "README.md", ROOT / "docs" / "python.md"]


@pytest.mark.parametrize("readme", READMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_readme_example(readme):
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)
    assert blocks, "no Python example"
    for code in blocks:
        # The comment lines right after the first print are its output.
        shown = [line[2:] for line in code.splitlines() if line.startswith("# |")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(readme), "exec"), {})
        assert shown and out.getvalue().startswith("\n".join(shown) + "\n")
