"""Every Python block of the README and of docs/*.md runs as pasted, so they stay true.

A document is read as one session of a new interpreter: its blocks with ``>>>``
prompts run as doctests, in order, in one namespace that starts empty (nothing is
imported for them: the document shows its own imports, before their first use), and
their shown output is compared.  Any other block is a program: it runs alone, in a new
interpreter (a block may change global state, as patching urllib3 does).  A block
that needs what no test can give it (a Spark session, a Dask cluster) says so in an
HTML comment on the line before it, ``<!-- not run: REASON -->``, and must still
compile.  The FastAPI example of docs/pydantic.md runs, and its claims are checked
with FastAPI's ``TestClient``.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: A fenced block of Python, and the comment on the line before it, if any.
_BLOCK = re.compile(
    r"^(?:<!-- (?P<comment>[^\n]*?) -->\n)?```(?:python|pycon|py)\n(?P<code>.*?)^```", re.M | re.S
)
_NOT_RUN = "not run: "


def blocks(path: Path) -> list[tuple[int, str, str | None]]:
    """The Python blocks of ``path``: the line each starts on, its code, and why it is
    not run (``None`` when it is)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        comment = match.group("comment") or ""
        reason = comment[len(_NOT_RUN) :] if comment.startswith(_NOT_RUN) else None
        line = text.count("\n", 0, match.start("code"))
        found.append((line, match.group("code"), reason))
    return found


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_examples_in_documents(path: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    session: dict[str, Any] = {"__name__": "__session__"}  # nothing imported
    failed = []
    for line, code, reason in blocks(path):
        where = f"{path.name}:{line}"
        if reason is not None:
            assert reason.strip(), f"{where}: say why the block is not run"
            compile(code, where, "exec")
            continue
        if ">>>" in code:
            before = runner.failures
            test = parser.get_doctest(code, session, where, str(path), line)
            runner.run(test, clear_globs=False)
            session.update(test.globs)  # a DocTest runs in a copy of the namespace
            if runner.failures > before:
                failed.append(where)
            continue
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
        )
        if result.returncode != 0:
            print(f"{where}:\n{result.stderr}")
            failed.append(where)
    assert not failed, f"failing block(s): {', '.join(failed)}"


def test_every_block_is_seen() -> None:
    """No Python block escapes the pattern above (an opening fence it does not match)."""
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        opened = len(re.findall(r"^```(?:python|pycon|py)$", text, re.M))
        assert opened == len(blocks(path)), path.name


def _fastapi_block() -> str:
    (code,) = [c for _, c, _ in blocks(ROOT / "docs" / "pydantic.md") if "FastAPI()" in c]
    return code


def test_the_fastapi_example_does_what_it_says() -> None:
    """docs/pydantic.md: a valid post is echoed as the exact text, ``ftp://x/`` answers
    422 with the ``uri_scheme`` error and its ``ctx``, and the schema says ``uri``."""
    testclient = pytest.importorskip("fastapi.testclient")
    # A module of its own, as the example is (pydantic resolves its names there).
    module = types.ModuleType("bookmarks")
    sys.modules[module.__name__] = module
    try:
        exec(_fastapi_block(), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    namespace = module.__dict__
    client = testclient.TestClient(namespace["app"])
    posted = "HTTP://Example.COM:80/a/./b?q#f"
    answer = client.post("/bookmarks", json={"url": posted})
    assert answer.status_code == 200 and answer.json() == {"url": posted}
    refused = client.post("/bookmarks", json={"url": "ftp://x/"})
    assert refused.status_code == 422
    (error,) = refused.json()["detail"]
    assert error["type"] == "uri_scheme" and error["loc"] == ["body", "url"]
    assert error["ctx"]["expected_schemes"] == ["http", "https"]
    assert error["ctx"]["position"] == 0 and error["ctx"]["rule"] == "scheme"
    schema = namespace["app"].openapi()["components"]["schemas"]["Bookmark"]
    url = schema["properties"]["url"]
    assert (url["type"], url["format"]) == ("string", "uri")


def test_readme_begins_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^```sh\n(.*?)\n```", text, re.M | re.S)[:2]
    assert "pip install" in commands[0] and "urikit parse" in commands[0]
    assert "pip install" in commands[1] and "[test]" in commands[1] and "pytest" in commands[1]
