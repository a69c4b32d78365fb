"""``urikit.whatwg`` on each implementation, side by side in one process.

``IMPLEMENTATIONS`` maps "pure" and "compiled" to ``urikit.whatwg`` of each copy of
urikit in ``backends.py``, its store chosen by that copy's seam (the compiled one falls
back to the readable Python when ``urikit._whatwg`` is not built; ``COMPILED_BUILT``
says whether it was).  The fixture
``whatwg`` of ``tests/conftest.py`` gives each test both.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest
from backends import COMPILED as COMPILED_URIKIT
from backends import PURE as PURE_URIKIT
from backends import REQUIRED

PURE: ModuleType = importlib.import_module(f"{PURE_URIKIT.__name__}.whatwg")
COMPILED: ModuleType = importlib.import_module(f"{COMPILED_URIKIT.__name__}.whatwg")
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
