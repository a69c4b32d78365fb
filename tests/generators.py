"""The generators of ``tools/`` as modules, for the tests that hold each generated file
to its generator's text (``tests/test_generated.py`` names them all)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def load_tool(name: str) -> ModuleType:
    """The generator ``tools/<name>.py``, imported with ``tools/`` on the path as when it
    runs as a script (it imports ``tools/_generated.py``)."""
    if str(TOOLS) not in sys.path:
        sys.path.append(str(TOOLS))
    return importlib.import_module(name)
