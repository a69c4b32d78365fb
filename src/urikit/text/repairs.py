"""Lenient repairs as reports whose spans point into the text they came from.

``URI.lenient`` (RFC 3986 Appendix C) returns the repaired URI and what it
repaired, one :class:`~urikit.report.Report` per run of one kind; extraction
and link listing report each with its span moved from the repaired candidate
back to the document the candidate was taken from.
"""

from __future__ import annotations

from collections.abc import Callable

from ..report import Report
from ..uri import URI

__all__ = ["repair"]


def repair(candidate: str, where: Callable[[int], int]) -> tuple[URI, list[Report]]:
    """``URI.lenient(candidate)``, each repair a Report spanning ``where`` of its offsets.

    ``where`` maps an offset in ``candidate`` to a position in the document.
    Raises URIError when the candidate cannot be repaired.
    """
    uri, reports = URI.lenient(candidate)
    return uri, [
        item._replace(span=(where(item.span[0]), where(max(item.span[1] - 1, item.span[0])) + 1))
        for item in reports
    ]
