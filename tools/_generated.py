"""What each generator of ``tools/`` does with the files it makes: write every file whose
text has changed, or, with ``--check``, write nothing and name each file that is out of
date (``tests/test_generated.py`` and the tests it names hold every generated file to its
generator's text)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_or_check(outputs: Mapping[Path, str], *, check: bool, tool: str) -> int:
    """Write each of ``outputs`` (a path and the text it must hold) that differs from the
    file, or with ``check`` only report it; 1 if ``check`` found a file out of date, else 0.
    ``tool`` is the generator's file, named in the report."""
    stale = 0
    for path, text in outputs.items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if check:
            print(f"{shown} is out of date: run python tools/{Path(tool).name}", file=sys.stderr)
            stale = 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {shown}")
    return stale
