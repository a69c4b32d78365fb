"""The two implementations of urikit, loaded side by side in one process.

Two copies of urikit are loaded next to the one under test, from the same files:
:data:`PURE` with ``URIKIT_NO_EXTENSIONS=1`` (its seam binds every concept to the
readable Python) and :data:`COMPILED` without (its seam binds the compiled core,
when it is built).  ``conftest.py`` makes them the ``backend`` fixture, which runs a
test once on each; a test that compares the two takes both from here.

Without the extension the compiled copy is pure Python too: its tests skip, unless
``URIKIT_REQUIRE_EXTENSION=1`` is set; then they fail.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

import urikit

PACKAGE = Path(urikit.__file__).resolve().parent
REQUIRED = os.environ.get("URIKIT_REQUIRE_EXTENSION") == "1"


def load_twin(name: str, pure: bool) -> ModuleType:
    """A fresh copy of urikit under ``name``, its seam switched by ``pure`` at import."""
    if name in sys.modules:
        return sys.modules[name]
    saved = os.environ.get("URIKIT_NO_EXTENSIONS")
    os.environ["URIKIT_NO_EXTENSIONS"] = "1" if pure else ""
    try:
        spec = importlib.util.spec_from_file_location(
            name, PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        # One URLParseError for every copy: the compiled WHATWG parser raises
        # urikit.whatwg's, whichever copy called it.
        sys.modules[f"{name}.whatwg.errors"] = importlib.import_module("urikit.whatwg.errors")
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del os.environ["URIKIT_NO_EXTENSIONS"]
        else:
            os.environ["URIKIT_NO_EXTENSIONS"] = saved
    return module


PURE = load_twin("urikit_pure_twin", pure=True)
COMPILED = load_twin("urikit_compiled_twin", pure=False)

#: Skips a test where the compiled core is not built (fails it with URIKIT_REQUIRE_EXTENSION=1).
needs_extension = pytest.mark.skipif(
    not COMPILED.compiled and not REQUIRED, reason="urikit._speedups is not built"
)

#: The parameters of the ``backend`` fixture: each copy, by its name.
BACKENDS = [
    pytest.param(PURE, id="pure"),
    pytest.param(COMPILED, id="compiled", marks=needs_extension),
]
