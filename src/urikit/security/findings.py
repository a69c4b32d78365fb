"""Findings: what :func:`urikit.audit` reports, and how to show text safely."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

__all__ = [
    "INVISIBLE_FORMAT",
    "Finding",
    "Mapper",
    "Severity",
    "identity",
    "merge_runs",
    "printable",
    "quote",
    "run_message",
]

#: Maps a span of the text that was read to a span of the text that was given.
Mapper = Callable[[tuple[int, int]], tuple[int, int]]


def identity(span: tuple[int, int]) -> tuple[int, int]:
    """The span itself: the text read is the text given."""
    return span


class Severity(str, Enum):
    """How much a finding of ``audit`` matters (RFC 3986 §7).

    Ordered ``info < low < medium < high``.

    A severity equals its name (``Severity.HIGH == "high"``) and compares with
    other severities and with those names.
    """

    INFO = "info"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @property
    def rank(self) -> int:
        return _RANK[self.value]

    def _other(self, other: object) -> int | None:
        if isinstance(other, str) and other in _RANK:
            return _RANK[other]
        return None

    def __lt__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank < rank

    def __le__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank <= rank

    def __gt__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank > rank

    def __ge__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank >= rank

    def __str__(self) -> str:
        return self.value

    __hash__ = str.__hash__


_RANK: Final = {"info": 0, "low": 1, "medium": 2, "high": 3}


@dataclass(frozen=True)
class Finding:
    """One thing in a URI that deserves caution.

    ``code`` is stable (see the module docstring), ``message`` is for people,
    ``component`` is the RFC 3986 component concerned (``"userinfo"``,
    ``"host"``, ``"port"``, ``"path"``, ...) or None for the whole text, and
    ``span`` is ``(start, end)``, indexes into the text given to :func:`audit`.
    """

    code: str
    message: str
    severity: Severity
    component: str | None
    span: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "component": self.component,
            "span": list(self.span),
            "message": self.message,
        }


def run_message(message: str, count: int, span: tuple[int, int]) -> str:
    """The message of ``count`` findings of one code merged into a run over ``span``."""
    if count == 1:
        return message
    return f"{message} (and {count - 1} more like it: a run of {span[1] - span[0]} characters)"


def merge_runs(findings: list[Finding]) -> list[Finding]:
    """``findings`` with each run of findings of one code and component, whose
    spans follow one another, merged into one finding that spans the run.

    Hostile text can repeat one bad character a million times; a person needs
    one finding that says so, not a million.  The merged finding keeps the
    first message (and says how long the run is) and the highest severity.
    Findings of other codes, or of the same code with other spans, in between
    do not break a run.
    """
    runs: list[list[Finding]] = []
    open_runs: dict[tuple[str, str | None, int], int] = {}
    for finding in sorted(findings, key=lambda f: (f.span, f.code)):
        start, end = finding.span
        key = (finding.code, finding.component, start)
        index = open_runs.pop(key, None) if end > start else None
        if index is None:
            index = len(runs)
            runs.append([])
        runs[index].append(finding)
        if end > start:
            open_runs[(finding.code, finding.component, end)] = index
    merged: list[Finding] = []
    for run in runs:
        first = run[0]
        if len(run) == 1:
            merged.append(first)
            continue
        span = (first.span[0], run[-1].span[1])
        merged.append(
            Finding(
                first.code,
                run_message(first.message, len(run), span),
                max(f.severity for f in run),
                first.component,
                span,
            )
        )
    return merged


#: Characters that show nothing, or reorder what follows them: bidi formatting
#: (RFC 3987 §4.1), zero-width and other invisible format characters, fillers.
INVISIBLE_FORMAT: Final = (
    "\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
_INVISIBLE: Final = re.compile(f"[\x00-\x1f\x7f-\x9f{INVISIBLE_FORMAT}\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` safe to show: controls, bidi and invisible characters as ``<U+XXXX>``.

    A URI shown to a person must look like what it is (RFC 3986 §7.6): a
    right-to-left override or a zero-width space can make one host look like
    another, and a terminal escape can rewrite the screen.
    """
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def quote(text: str) -> str:
    return "'" + printable(text).replace("'", "\\'") + "'"
