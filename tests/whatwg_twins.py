"""``urikit.whatwg`` on each implementation, side by side in one process.

``IMPLEMENTATIONS`` maps "pure" and "compiled" to a copy of ``urikit.whatwg`` loaded with
its store chosen as named (the compiled one falls back to the readable Python when
``urikit._whatwg`` is not built; ``COMPILED_BUILT`` says whether it was).  The fixture
``whatwg`` of ``tests/conftest.py`` gives each test both.
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


def _load_copy(name: str, pure: bool) -> ModuleType:
    """A fresh copy of ``urikit.whatwg`` as ``urikit.<name>``, its store chosen by ``pure``
    (the rest of urikit is shared)."""
    saved = os.environ.get("URIKIT_NO_EXTENSIONS")
    os.environ["URIKIT_NO_EXTENSIONS"] = "1" if pure else ""
    full = f"urikit.{name}"
    # One errors module for both: the compiled module raises urikit.whatwg's URLParseError.
    sys.modules[f"{full}.errors"] = importlib.import_module("urikit.whatwg.errors")
    try:
        spec = importlib.util.spec_from_file_location(
            full,
            PACKAGE / "whatwg" / "__init__.py",
            submodule_search_locations=[str(PACKAGE / "whatwg")],
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del os.environ["URIKIT_NO_EXTENSIONS"]
        else:
            os.environ["URIKIT_NO_EXTENSIONS"] = saved
    return module


PURE = _load_copy("_whatwg_twin_pure", pure=True)
COMPILED = _load_copy("_whatwg_twin_compiled", pure=False)
COMPILED_BUILT: bool = COMPILED.compiled
IMPLEMENTATIONS = {"pure": PURE, "compiled": COMPILED}


def select(name: str) -> ModuleType:
    """``urikit.whatwg`` on the implementation named; the compiled one skips when it is
    not built, unless ``URIKIT_REQUIRE_EXTENSION=1``."""
    if name == "compiled" and not COMPILED_BUILT:
        if REQUIRED:
            pytest.fail("URIKIT_REQUIRE_EXTENSION=1 but urikit._whatwg did not load")
        pytest.skip("urikit._whatwg is not built")
    return IMPLEMENTATIONS[name]
