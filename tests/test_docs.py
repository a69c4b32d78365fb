"""Every Python block of the README and of docs/*.md runs as pasted, so they stay true.

Every block runs as a reader pastes it: alone, in a namespace of its own that starts
empty, so each block shows its own imports.  A block with ``>>>`` prompts runs as a
doctest and its shown output is compared; any other block is a program, run in a new
interpreter (a block may change global state, as patching urllib3 does).  A block
that needs what no test can give it (a Spark session, a Dask cluster) says so in an
HTML comment on the line before it, ``<!-- not run: REASON -->``, must still
compile, and may use no name it does not bind or import but the session it needs
(:data:`SESSIONS`).  The FastAPI example of docs/pydantic.md runs, and its claims are checked
with FastAPI's ``TestClient``.
"""

from __future__ import annotations

import builtins
import doctest
import re
import subprocess
import symtable
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
#: The objects a block that is not run may take as given: a Spark session, a Dask client.
SESSIONS = frozenset({"spark", "client"})


def unbound_names(code: str) -> set[str]:
    """The global names ``code`` reads without binding or importing them (builtins
    aside), at any depth of its functions and lambdas."""
    table = symtable.symtable(code, "<block>", "exec")
    bound = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    unbound: set[str] = set()
    tables = [table]
    while tables:
        current = tables.pop()
        tables.extend(current.get_children())
        for symbol in current.get_symbols():
            if symbol.is_referenced() and (symbol.is_global() or current is table):
                unbound.add(symbol.get_name())
    return unbound - bound - set(dir(builtins))


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
    failed = []
    for line, code, reason in blocks(path):
        where = f"{path.name}:{line}"
        if reason is not None:
            assert reason.strip(), f"{where}: say why the block is not run"
            compile(code, where, "exec")
            hidden = unbound_names(code) - SESSIONS
            assert not hidden, f"{where}: {sorted(hidden)} used but never imported or bound"
            continue
        if ">>>" in code:
            before = runner.failures
            fresh: dict[str, Any] = {"__name__": "__block__"}  # nothing imported
            test = parser.get_doctest(code, fresh, where, str(path), line)
            runner.run(test)
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


def test_unbound_names_finds_a_missing_import() -> None:
    """The check of blocks that are not run sees a name used without its import, also
    inside a lambda, and not a name that is imported, assigned or built in."""
    assert unbound_names("df = pd.DataFrame()\nprint(len(df))") == {"pd"}
    assert unbound_names("import pandas as pd\nf = lambda: pd.x(uri)") == {"uri"}
    assert unbound_names("from urikit import URI\nu = URI('a')\nspark.x(u)") == {"spark"}


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
