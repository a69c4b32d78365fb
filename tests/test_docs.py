"""The examples in the README and in docs/ are run as doctests, so they stay true."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_PYTHON_BLOCK = re.compile(r"^```(?:python|pycon)\n(.*?)^```", re.M | re.S)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_examples_in_documents(path: Path) -> None:
    blocks = _PYTHON_BLOCK.findall(path.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    # Each document's examples share one namespace that starts with urikit's public names.
    globs: dict[str, object] = {}
    exec("import urikit\nfrom urikit import *", globs)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{path.name}[{number}]", str(path), 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {path.name}"


def test_readme_begins_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^```sh\n(.*?)\n```", text, re.M | re.S)[:2]
    assert "pip install" in commands[0] and "urikit parse" in commands[0]
    assert "pip install" in commands[1] and "[test]" in commands[1] and "pytest" in commands[1]
