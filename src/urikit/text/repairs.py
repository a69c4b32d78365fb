"""Lenient repairs as reports whose spans point into the text they came from.

``URI.lenient`` (RFC 3986 Appendix C) returns the repaired URI and what it
repaired; extraction and link listing report each repair as a
:class:`~urikit.report.Report` with ``repaired=True``, its span moved from
the repaired candidate back to the document the candidate was taken from.

The fast path: the two repairs that text in the wild needs most, a "%" that
starts no triplet (§2.4) and a non-ASCII letter (an IRI character, RFC 3987
§3.1), are made here a run at a time, one report per run.  A candidate that
needs any other repair goes to ``URI.lenient``; ``tests/test_extract.py``
holds the two to the same URIs and the same repaired characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final
from urllib.parse import quote

from ..errors import URIError
from ..grammar import BIDI_FORMATTING, PCT_ENCODED
from ..report import Report, Severity
from ..uri import URI

__all__ = ["repair"]

# A run of "%" that start no triplet (pct-encoded = "%" HEXDIG HEXDIG, §2.1), or
# of non-ASCII characters other than white space, controls, bidi formatting
# characters and surrogates (those have repairs of their own).
_FAST: Final = re.compile(
    f"(?P<percent>(?:(?!{PCT_ENCODED})%)+)"
    f"|(?P<wide>[^\\x00-\\x9f\\s{BIDI_FORMATTING}\\ud800-\\udfff]+)"
)
# What URI.lenient removes or reads as more than characters to encode.
_OTHER: Final = re.compile(r"\A(?:\s|[<\"]|[Uu][Rr][Ll]:)|[\s>\"]\Z")
_MESSAGES: Final = {
    "percent": ("bare-percent", '"%" that starts no triplet encoded as "%25"'),
    "wide": ("non-ascii", "non-ASCII characters must be percent-encoded as UTF-8 (§2.5); encoded"),
}


def repair(candidate: str, where: Callable[[int], int]) -> tuple[URI, list[Report]]:
    """``URI.lenient(candidate)``, each repair a Report spanning ``where`` of its offsets.

    ``where`` maps an offset in ``candidate`` to a position in the document.
    Raises URIError when the candidate cannot be repaired.
    """
    fast = _fast(candidate, where)
    if fast is not None:
        return fast
    repaired = URI.lenient(candidate)
    # Each repair of the lenient parse concerns the character at its position.
    return repaired[0], [
        _report(item.code, item.message, where(item.position), where(item.position) + 1)
        for item in repaired[1]
    ]


def _fast(candidate: str, where: Callable[[int], int]) -> tuple[URI, list[Report]] | None:
    """The repair of a candidate whose only faults are bare "%" and non-ASCII letters."""
    if _OTHER.search(candidate):
        return None
    reports: list[Report] = []
    pieces: list[str] = []
    done = 0
    for found in _FAST.finditer(candidate):
        kind = found.lastgroup
        assert kind is not None
        start, end = found.span()
        pieces.append(candidate[done:start])
        pieces.append(found.group().replace("%", "%25") if kind == "percent" else _utf8(found))
        code, message = _MESSAGES[kind]
        reports.append(_report(code, message, where(start), where(end - 1) + 1))
        done = end
    if not reports:
        return None
    pieces.append(candidate[done:])
    try:
        return URI("".join(pieces)), reports
    except URIError:
        return None


def _utf8(found: re.Match[str]) -> str:
    return quote(found.group(), safe="", encoding="utf-8", errors="strict")


def _report(code: str, message: str, start: int, end: int) -> Report:
    return Report(code, message, Severity.LOW, (start, end), repaired=True)
