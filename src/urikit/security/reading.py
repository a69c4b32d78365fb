"""How :func:`urikit.security.audit` reads its input: strictly, as an IRI, or leniently.

Text that is not a URI reference is read after the repairs of a lenient
parse (RFC 3986 Appendix C), each reported, and the spans of what is found
in the repaired text are mapped back to the text given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from ..errors import URIError
from ..grammar import URL_PREFIX
from ..lenient import SEVERITIES
from ..report import Report, Severity, printable
from ..uri import IRI, URI
from .findings import Mapper, Reference, identity, run_message

__all__ = ["read"]

_RUN_SUFFIX: Final = re.compile(r" \(a run of \d+ characters\)$")
#: Repairs that remove text around the reference rather than change one character.
_AROUND: Final = frozenset({"surrounding-whitespace", "delimiters", "url-prefix"})
_URL_PREFIX: Final = re.compile(URL_PREFIX + r"\s*")
#: Repairs that write one character as one triplet, whatever its UTF-8 length.
_SINGLE: Final = {"bare-percent": 3, "extra-hash": 3, "bracket": 3}


class _Repair(NamedTuple):
    """One repair of a lenient parse, where it was made in the text given."""

    code: str
    position: int
    message: str
    char: str | None


def _repairs(text: str, items: Sequence[Report]) -> Sequence[_Repair]:
    """The repairs of a lenient parse, each at its place in the text given."""
    repairs: list[_Repair] = []
    for item in items:
        start, end = item.span
        if item.code in _AROUND or start >= len(text):
            repairs.append(_Repair(item.code, start, item.message, None))
            continue
        # A run of characters of one kind is one report: each character is a repair.
        message = _RUN_SUFFIX.sub("", item.message)  # the run is counted again when merged
        repairs.extend(
            _Repair(item.code, at, message, text[at]) for at in range(start, max(end, start + 1))
        )
    return repairs


def _alignment(text: str, repaired: str, repairs: Sequence[_Repair]) -> Mapper:
    """Map spans of the repaired text back to the input, repair by repair."""
    start = 0
    while start < len(text) and text[start].isspace():
        start += 1
    for repair in repairs:
        if repair.code == "delimiters":
            start = repair.position + 1
            while start < len(text) and text[start].isspace():
                start += 1
        elif repair.code == "url-prefix":
            match = _URL_PREFIX.match(text, repair.position)
            start = match.end() if match else repair.position
    changed = {r.position: r for r in repairs if r.char is not None}
    offsets: list[int] = []
    i = start
    while len(offsets) < len(repaired) and i < len(text):
        r = changed.get(i)
        if r is not None and r.code == "embedded-whitespace":
            i += 1
            continue
        width = 1
        if r is not None:
            width = _SINGLE.get(r.code, 3 * len(text[i].encode("utf-8", "surrogatepass")))
        offsets.extend([i] * width)
        i += 1
    offsets.extend([i] * (len(repaired) - len(offsets)))

    def mapper(span: tuple[int, int]) -> tuple[int, int]:
        s, e = span
        first = offsets[s] if s < len(offsets) else i
        return (first, offsets[e - 1] + 1) if e > s else (first, first)

    return mapper


def _repair_span(text: str, repair: _Repair) -> tuple[int, int]:
    """The characters a repair concerns, in the input."""
    if repair.code not in _AROUND:
        return (repair.position, min(repair.position + 1, len(text)))
    if repair.code == "surrounding-whitespace":
        lead = len(text) - len(text.lstrip())
        return (0, lead) if lead else (len(text.rstrip()), len(text))
    if repair.code == "url-prefix":
        match = _URL_PREFIX.match(text, repair.position)
        return (repair.position, match.end() if match else repair.position)
    return (repair.position, min(repair.position + 1, len(text)))


def _add_repairs(text: str, repairs: Sequence[_Repair], findings: list[Report]) -> None:
    """One finding per repair, a run of one repair on consecutive characters merged."""
    index = 0
    while index < len(repairs):
        first = repairs[index]
        start, end = _repair_span(text, first)
        count = 1
        index += 1
        while index < len(repairs) and repairs[index].code == first.code and end > start:
            following = _repair_span(text, repairs[index])
            if following[0] != end or following[1] == following[0]:
                break
            end = following[1]
            count += 1
            index += 1
        findings.append(
            Report(
                first.code,
                run_message(f"read only after a repair: {first.message}", count, (start, end)),
                SEVERITIES.get(first.code, Severity.MEDIUM),
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
        repaired = URI.lenient(text)
    except URIError:
        return None, identity
    reference: URI = repaired[0]
    repairs = _repairs(text, repaired[1])
    _add_repairs(text, repairs, findings)
    return reference, _alignment(text, str(reference), repairs)
