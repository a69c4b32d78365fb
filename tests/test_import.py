"""``import urikit`` loads the core and defers the rest (docs/architecture.md).

The core is the value type and what constructing one needs; the operations behind
its methods, the scheme registry's tables, the error walk, the tools, and the standard
modules only they use are loaded on first use.  Each check runs in a fresh
interpreter, on both paths, and reads ``sys.modules``: what was loaded, not how long
it took.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

#: Modules that ``import urikit`` must not load: they load on first use.
DEFERRED = frozenset(
    {
        # the operations behind the methods, the tools
        "urikit.bidi",
        "urikit.character_repairs",
        "urikit.compare",
        "urikit.datauri",
        "urikit.diagnose",
        "urikit.fileuri",
        "urikit.legacy",
        "urikit.lenient",
        "urikit.mapping",
        "urikit.normalization",
        "urikit.paths",
        "urikit.protocol_steps",
        "urikit.report",
        "urikit.resolution",
        "urikit.schemes",
        "urikit.security",
        "urikit.sites",
        "urikit.text",
        "urikit.views",
        # the standard modules only those need
        "dataclasses",
        "inspect",
        "pathlib",
        "stringprep",
        "idna",
    }
)

_PROBE = """
import json, sys
import urikit
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR
before = sorted(sys.modules)
u = urikit.URI("http://user@example.com:8042/over/there?name=ferret#nose")
parts = [u.scheme, u.userinfo, u.host, u.port, u.path, u.query, u.fragment]
valid = urikit.is_valid("http://example.com/"), urikit.is_valid("http://[/")
after = sorted(sys.modules)
compiled = {
    grammar.name: sorted(grammar._compiled) + sorted(k for k in ("reference", "sources")
    if k in vars(grammar))
    for grammar in (URI_GRAMMAR, IRI_GRAMMAR)
}
print(json.dumps({"before": before, "after": after, "compiled": compiled, "parts": parts,
                  "valid": valid, "is_compiled": urikit.compiled}))
"""


def _probe(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "URIKIT_NO_EXTENSIONS"}
    if pure:
        env["URIKIT_NO_EXTENSIONS"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_import_loads_only_the_core(pure: bool) -> None:
    result = _probe(pure)
    loaded = set(result["before"])  # type: ignore[arg-type]
    assert "urikit.uri" in loaded  # the probe sees the modules the package loads
    assert sorted(loaded & DEFERRED) == []


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_parsing_a_valid_reference_loads_nothing_more(pure: bool) -> None:
    result = _probe(pure)
    assert result["parts"] == [
        "http",
        "user",
        "example.com",
        "8042",
        "/over/there",
        "name=ferret",
        "nose",
    ]
    assert result["valid"] == [True, False]
    assert sorted(set(result["after"]) & DEFERRED) == []  # type: ignore[arg-type]


def test_the_compiled_path_compiles_no_grammar_pattern() -> None:
    # The probe runs in a process of its own, where the compiled core is used when built
    # (whichever path this process runs on).
    if importlib.util.find_spec("urikit._speedups") is None:
        pytest.skip("urikit._speedups is not built")
    result = _probe(pure=False)
    assert result["is_compiled"] is True
    assert result["compiled"] == {"RFC 3986": [], "RFC 3987": []}


def test_the_pure_path_compiles_the_reference_pattern_on_first_use() -> None:
    result = _probe(pure=True)
    assert result["is_compiled"] is False
    compiled = result["compiled"]
    assert compiled["RFC 3986"] == ["URI-reference", "reference", "sources"]  # type: ignore[index]
    assert compiled["RFC 3987"] == []  # type: ignore[index]


def test_deferred_names_load_on_first_use() -> None:
    code = (
        "import sys, urikit\n"
        "assert 'urikit.schemes' not in sys.modules\n"
        "r = urikit.SchemeRegistry\n"
        "from urikit.schemes import SchemeRegistry\n"
        "assert r is SchemeRegistry\n"
        "from urikit.report import Report\n"
        "assert urikit.Report is Report\n"
        "u = urikit.URI('HTTP://A:80/b/../c')\n"
        "assert str(u.normalize()) == 'http://a/c'\n"
        "assert str(urikit.normalize('HTTP://A:80/b/../c')) == 'http://a/c'\n"
        "assert 'urikit.normalization' in sys.modules\n"
        "assert str(urikit.resolve('http://a/b/c', '../d')) == 'http://a/d'\n"
        "assert callable(urikit.normalize) and callable(urikit.resolve)\n"
        "assert urikit.Repaired is urikit.URI.lenient(' a:b').__class__\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
