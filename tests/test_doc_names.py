"""Every name of urikit that the README and docs/*.md write in backticks exists.

A code span that begins with a dotted name under ``urikit`` (``urikit.arrow.parse``,
``urikit.security.active.SCRIPT_SCHEMES``, ``urikit.URI.from_path(path)``) names a module,
or an attribute of one, or a method of a class: the longest prefix that imports is the
module, and the rest is read from it attribute by attribute.  What follows the name (a
call's arguments, an operator) is not part of it.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from test_docs import DOCUMENTS

#: A code span's leading dotted name under ``urikit``.
_NAME = re.compile(r"`(urikit(?:\.[A-Za-z_]\w*)+)")


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` names something: its longest importable prefix, then getattr."""
    parts = dotted.split(".")
    for stop in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:stop]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[stop:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def names(path: Path) -> list[tuple[int, str]]:
    """The dotted names under ``urikit`` that begin a code span of ``path``, with their
    line numbers."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _NAME.finditer(text)]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_documented_name_exists(path: Path) -> None:
    broken = [f"{path.name}:{line}: {name}" for line, name in names(path) if not resolves(name)]
    assert not broken, "names that do not exist:\n" + "\n".join(broken)


def test_the_documents_name_urikit_at_all() -> None:
    assert sum(len(names(path)) for path in DOCUMENTS) > 50


@pytest.mark.parametrize(
    ("dotted", "exists"),
    [
        ("urikit", True),
        ("urikit.security.active.SCRIPT_SCHEMES", True),
        ("urikit.security.redirect.redirect_findings", True),
        ("urikit.URI.remove_query_params", True),
        ("urikit.redirect.redirect_findings", False),
        ("urikit._checks", False),
        ("urikit.URI.no_such_method", False),
        ("urikit.security.no_such_module.name", False),
    ],
)
def test_resolves_tells_a_name_from_a_missing_one(dotted: str, exists: bool) -> None:
    assert resolves(dotted) is exists
