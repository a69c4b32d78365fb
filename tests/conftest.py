"""Test configuration: Hypothesis profiles, importable test helpers, and the fixture
that runs a test on each implementation (``backend``, from ``backends.py``).

``ci`` (the default) keeps runs short on a shared machine; ``thorough`` is for
a longer hunt: ``HYPOTHESIS_PROFILE=thorough python -m pytest``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

# tests/ holds shared helpers (strategies.py, abnf_oracle.py) imported by name.
TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from backends import BACKENDS, COMPILED  # noqa: E402  (tests/ is on the path from here)

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(params=BACKENDS, scope="session")
def backend(request: pytest.FixtureRequest) -> ModuleType:
    """A copy of urikit on one implementation: the test runs once on the readable
    Python and once on the compiled core (``backends.py``)."""
    module: ModuleType = request.param
    if not module.compiled and module is COMPILED:
        pytest.fail("URIKIT_REQUIRE_EXTENSION=1 but urikit._speedups did not load")
    return module


@pytest.fixture(params=["compiled", "pure"])
def whatwg(request: pytest.FixtureRequest) -> object:
    """``urikit.whatwg`` on each implementation (``tests/whatwg_twins.py``)."""
    import whatwg_twins

    return whatwg_twins.select(request.param)
