"""How :func:`urikit.security.audit` reads its input: strictly, as an IRI, or leniently.

Text that is not a URI reference is read after the repairs of a lenient
parse (RFC 3986 Appendix C), each reported, and the spans of what is found
in the repaired text are mapped back to the text given.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Final

from ..errors import URIError
from ..grammar import URL_PREFIX
from ..lenient import SEVERITIES, repair_value, replaced_before
from ..report import Report, Severity, printable
from ..uri import IRI, URI
from .findings import Mapper, Reference, identity

__all__ = ["read"]

#: Repairs that remove text around the reference rather than change characters.
_AROUND: Final = frozenset({"surrounding-whitespace", "delimiters", "url-prefix"})
_URL_PREFIX: Final = re.compile(URL_PREFIX + r"\s*")
#: How many runs of a kind of repair are listed at first to map spans back.
_FIRST_RUNS: Final = 256


def _body_start(text: str, reports: Sequence[Report]) -> int:
    """Where the reference begins in ``text``: after leading white space, an
    opening delimiter and a ``URL:`` prefix, as the repairs removed them."""
    start = len(text) - len(text.lstrip())
    for report in reports:
        if report.code == "delimiters":
            start = report.span[0] + 1
            start += len(text) - start - len(text[start:].lstrip())
        elif report.code == "url-prefix":
            match = _URL_PREFIX.match(text, report.span[0])
            start = match.end() if match else report.span[0]
    return start


def _body_end(text: str, start: int, reports: Sequence[Report]) -> int:
    """Where the reference that begins at ``start`` ends in ``text``: before trailing
    white space and a closing delimiter, as the repairs removed them."""
    end = len(text)
    for report in reports:
        if report.code == "delimiters":
            end = report.span[1] - 1
    return start + len(text[start:end].rstrip())


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (slices compared in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str) -> int:
    """The length of the longest common suffix of ``a`` and ``b`` (slices compared in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _alignment(text: str, repaired: str, start: int, end: int) -> Mapper:
    """Map spans of ``repaired``, the lenient repair of ``text``, back to ``text``.

    The repaired text is the input ``text[start:end]`` with runs of it replaced
    (:func:`~urikit.lenient.replaced`): nothing for white space removed, else
    three characters per UTF-8 octet ("%XX"), so that a position in a
    replacement falls on the character whose octet it encodes.  Up to the
    first replacement and after the last one the map is a shift; the runs,
    which take another repair to list, are listed only for a span between them.
    """
    unchanged = _common_prefix(repaired, text[start:])
    # "%2x" repaired as "%252x" begins like the input: the shift holds up to its "%"
    percent = repaired.rfind("%", max(0, unchanged - 2), unchanged)
    if percent >= 0:
        unchanged = percent + 1
    # the character replaced last is no HEXDIG (none is ever replaced), where its
    # replacement ends in one, or white space removed, which no repaired text holds:
    # the ends have in common the text after the last replacement, and no more
    kept = len(repaired) - _common_suffix(repaired, text[start:end])
    outs: list[int] = []  # where each replacement begins in the repaired text
    runs: list[tuple[int, int, int]] = []
    listed = [-1, 0]  # the repaired text is mapped before listed[0]; runs listed of a kind

    def position(at: int) -> int:
        if at < unchanged:
            return at + start
        if at >= kept:
            return at - len(repaired) + end
        while at >= listed[0]:
            # the runs before ``at``, listed a few hundred of a kind at first (the
            # findings of a kind are bounded), all of them if need be
            limit = _FIRST_RUNS if listed[1] == 0 else listed[1] * 64
            pieces, before = replaced_before(text, limit)
            runs[:] = pieces
            outs.clear()
            shift = -start  # repaired position - input position, before the next run
            for begin, finish, length in runs:
                outs.append(begin + shift)
                shift += length - (finish - begin)
            listed[:] = [before + shift if before < len(text) else len(repaired) + 1, limit]
        index = bisect_right(outs, at) - 1
        if index < 0:
            return at + start
        begin, finish, length = runs[index]
        inside = at - outs[index]
        if inside >= length:  # in the kept text after the replacement
            return finish + inside - length
        return begin + _character_of(text[begin:finish], inside // 3)

    def mapper(span: tuple[int, int]) -> tuple[int, int]:
        s, e = span
        first = position(s)
        return (first, position(e - 1) + 1) if e > s else (first, first)

    return mapper


def _character_of(piece: str, octet: int) -> int:
    """The index of the character of ``piece`` whose UTF-8 encoding holds octet ``octet``."""
    if piece.isascii():
        return min(octet, len(piece) - 1)
    encoded = piece.encode("utf-8")
    octet = min(octet, len(encoded) - 1)
    whole = len(encoded[: octet + 1].decode("utf-8", "ignore"))  # characters complete there
    ends_there = octet + 1 == len(encoded) or encoded[octet + 1] & 0xC0 != 0x80
    return whole - 1 if ends_there else whole


def _add_repairs(text: str, reports: Sequence[Report], findings: list[Report]) -> None:
    """One finding per repair report of the lenient parse."""
    for report in reports:
        start, end = report.span
        if report.code == "delimiters":
            end = min(start + 1, len(text))  # the opening delimiter
        elif report.code not in _AROUND and end <= start:
            end = min(start + 1, len(text))
        findings.append(
            Report(
                report.code,
                f"read only after a repair: {report.message}",
                SEVERITIES.get(report.code, Severity.MEDIUM),
                (start, end),
                True,
            )
        )


def read(
    text: str, findings: list[Report], failure: URIError | None = None
) -> tuple[Reference | None, Mapper]:
    """urikit's reading of ``text``: strict, as an IRI, or after a lenient repair.

    Returns the reference read, or None when even a lenient parse fails, and
    the map from spans of the reference's text to spans of ``text``; adds
    the ``invalid`` finding and the repairs to ``findings``.  ``failure`` is
    the error of a strict parse of ``text`` when it was already tried.
    """
    if failure is None:
        try:
            return URI(text), identity
        except URIError as error:
            failure = error
    if not text.isascii():  # an ASCII IRI reference is a URI reference (RFC 3987 §2.2)
        try:
            return IRI(text), identity
        except URIError:
            pass
    position = failure.position if failure.position is not None else 0
    findings.append(
        Report(
            "invalid",
            f"not a URI reference: {printable(failure.reason)} at position {position}"
            + (f" (rule {failure.rule})" if failure.rule else ""),
            Severity.MEDIUM,
            (position, min(position + 1, len(text))),
        )
    )
    try:
        out, reports, value = repair_value(text, False, URI._scan)  # one scan reads it
        reference = URI(out) if value is None else value
    except URIError:
        return None, identity
    _add_repairs(text, reports, findings)
    start = _body_start(text, reports)
    return reference, _alignment(text, out, start, _body_end(text, start, reports))
