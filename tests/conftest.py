"""Test configuration: Hypothesis profiles and importable test helpers.

``ci`` (the default) keeps runs short on a shared machine; ``thorough`` is for
a longer hunt: ``HYPOTHESIS_PROFILE=thorough python -m pytest``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# tests/ holds shared helpers (strategies.py, abnf_oracle.py) imported by name.
TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(params=["compiled", "pure"])
def whatwg(request: pytest.FixtureRequest) -> object:
    """``urikit.whatwg`` on each implementation (``tests/whatwg_twins.py``)."""
    import whatwg_twins

    return whatwg_twins.select(request.param)
