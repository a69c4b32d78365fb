"""Lenient repairs as reports whose spans point into the text they came from.

``URI.lenient`` (RFC 3986 Appendix C) returns the repaired URI and what it
repaired; extraction and link listing report each repair as a
:class:`~urikit.report.Report` with ``repaired=True``, its span moved from
the repaired candidate back to the document the candidate was taken from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from ..report import Report, Severity
from ..uri import URI

__all__ = ["moved", "repair"]


def repair(candidate: str) -> tuple[URI, list[Report]]:
    """``URI.lenient(candidate)``, each repair a Report; raises URIError if none works."""
    repaired = URI.lenient(candidate)
    uri, found = repaired[0], repaired[1]
    # A repair of the lenient parse concerns the character at its position.
    return uri, [
        Report(item.code, item.message, Severity.LOW, (item.position, item.position + 1), True)
        for item in found
    ]


def moved(reports: Iterable[Report], where: Callable[[int], int]) -> list[Report]:
    """``reports`` with each span mapped by ``where`` (an offset to a document position)."""
    return [
        dataclasses.replace(report, span=(where(report.span[0]), where(report.span[1] - 1) + 1))
        for report in reports
    ]
