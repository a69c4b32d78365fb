"""The findings of the security checks: their codes, and runs of them merged.

A finding is a :class:`~urikit.report.Report`, the one type in which urikit
says what it noticed in a text.  This module names every code the checks of
:mod:`urikit.security` give (:data:`Code`), makes a finding of one of them
(:func:`finding`), and merges runs of findings (:func:`merge_runs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal, TypeAlias, get_args

from ..report import Report, Severity, quote
from ..uri import IRI, URI

__all__ = [
    "AUDIT_CODES",
    "REDIRECT_CODES",
    "REPAIR_CODES",
    "AuditCode",
    "Code",
    "Mapper",
    "RedirectCode",
    "Reference",
    "RepairCode",
    "finding",
    "identity",
    "merge_runs",
    "run_message",
    "shown",
]

#: A reference the checks read: a URI or an IRI value.
Reference: TypeAlias = URI | IRI

#: The codes of :func:`urikit.security.audit` (listed in ``docs/security.md``).
AuditCode: TypeAlias = Literal[
    "misleading-userinfo",
    "password",
    "ipv4-rare-format",
    "internal-address",
    "unusual-port",
    "encoded-control",
    "encoded-dot-segment",
    "invalid-utf8",
    "mixed-script-host",
    "obfuscated-host",
    "active-content-scheme",
    "parser-differential",
    "invisible-character",
    "long-host",
    "invalid",
]
#: The repairs of a lenient reading (the codes of ``lenient.repair``), which
#: :func:`~urikit.security.audit` reports for text it could read only after them.
RepairCode: TypeAlias = Literal[
    "surrounding-whitespace",
    "delimiters",
    "url-prefix",
    "embedded-whitespace",
    "whitespace",
    "control",
    "backslash",
    "non-ascii",
    "forbidden-character",
    "bracket",
    "extra-hash",
    "bare-percent",
    "bidi-formatting",
]
#: Why :func:`~urikit.security.redirect_findings` refuses a redirect.
RedirectCode: TypeAlias = Literal[
    "invalid",
    "backslash",
    "encoded-backslash",
    "control",
    "network-path",
    "encoded-network-path",
    "encoded-host",
    "userinfo",
    "parser-differential",
    "scheme-not-allowed",
    "host-not-allowed",
]
#: Every code a check of :mod:`urikit.security` gives.
Code: TypeAlias = Literal[AuditCode, RepairCode, RedirectCode]

AUDIT_CODES: Final[frozenset[str]] = frozenset(get_args(AuditCode))
REPAIR_CODES: Final[frozenset[str]] = frozenset(get_args(RepairCode))
REDIRECT_CODES: Final[frozenset[str]] = frozenset(get_args(RedirectCode))

#: Maps a span of the text that was read to a span of the text that was given.
Mapper = Callable[[tuple[int, int]], tuple[int, int]]


#: The most characters of a text that a message shows of it.
SHOWN: Final = 60


def shown(text: str) -> str:
    """``text`` quoted for a message (:func:`~urikit.report.quote`); past ``SHOWN``
    characters, its first ``SHOWN`` and how many more (hostile text is megabytes long)."""
    if len(text) <= 2 * SHOWN:
        return quote(text)
    return f"{quote(text[:SHOWN])} (and {len(text) - SHOWN} characters more)"


def identity(span: tuple[int, int]) -> tuple[int, int]:
    """The span itself: the text read is the text given."""
    return span


def finding(
    code: Code,
    message: str,
    severity: Severity,
    span: tuple[int, int],
    component: str | None = None,
    *,
    repaired: bool = False,
) -> Report:
    """The report of one finding of the code ``code``."""
    return Report(code, message, severity, span, repaired, component)


def run_message(message: str, count: int, span: tuple[int, int]) -> str:
    """The message of ``count`` findings of one code merged into a run over ``span``."""
    if count == 1:
        return message
    return f"{message} (and {count - 1} more like it: a run of {span[1] - span[0]} characters)"


def merge_runs(findings: list[Report]) -> list[Report]:
    """``findings`` with each run of findings of one code and component, whose
    spans follow one another, merged into one finding that spans the run.

    Hostile text can repeat one bad character a million times; a person needs
    one finding that says so, not a million.  The merged finding keeps the
    first message (and says how long the run is) and the highest severity; it
    is a repair when every finding of the run is.  Findings of other codes, or
    of the same code with other spans, in between do not break a run.
    """
    runs: list[list[Report]] = []
    open_runs: dict[tuple[str, str | None, int], int] = {}
    for report in sorted(findings, key=lambda f: (f.span, f.code)):
        start, end = report.span
        key = (report.code, report.component, start)
        index = open_runs.pop(key, None) if end > start else None
        if index is None:
            index = len(runs)
            runs.append([])
        runs[index].append(report)
        if end > start:
            open_runs[(report.code, report.component, end)] = index
    merged: list[Report] = []
    for run in runs:
        first = run[0]
        if len(run) == 1:
            merged.append(first)
            continue
        span = (first.span[0], run[-1].span[1])
        merged.append(
            Report(
                first.code,
                run_message(first.message, len(run), span),
                max(f.severity for f in run),
                span,
                all(f.repaired for f in run),
                first.component,
            )
        )
    return merged
