"""Lenient reading of real-world input: repair what can be repaired, and report it.

Strict parsing is the default.  :func:`repair` takes text as people and
documents write it, makes the repairs listed below, and returns the repaired
text with one :class:`~urikit.report.Report` per repair, so that nothing is
fixed silently; ``URI.lenient(text)`` wraps the text into the value.

* surrounding white space, the ``<...>`` and ``"..."`` delimiters, and the
  ``URL:`` prefix are removed (RFC 3986 Appendix C);
* inside ``<...>`` or ``"..."``, white space (a line break in a wrapped URI)
  is removed (Appendix C);
* characters the grammar forbids are percent-encoded as UTF-8 (§2.1, §2.5):
  white space, controls, non-ASCII (in a URI), bidi formatting characters
  (in an IRI, RFC 3987 §4.1), ``"<>\\^`{|}``, a "[" or "]" outside an IP
  literal, and a second "#";
* a "%" that starts no triplet becomes "%25".

A run of characters of one kind is one report.  Hostile text can need a
million repairs: at most :data:`MAX_REPORTS` (100) reports of one code are
made, and the repairs of that code after them are one more report, whose
span runs from the first of them to the last and whose message counts them
(the characters between them that the grammar allows are kept as they are).

Each report has a stable ``code``: ``"surrounding-whitespace"``,
``"delimiters"``, ``"url-prefix"``, ``"embedded-whitespace"``,
``"whitespace"``, ``"control"``, ``"backslash"``, ``"non-ascii"``,
``"forbidden-character"``, ``"bracket"``, ``"extra-hash"``,
``"bare-percent"`` or ``"bidi-formatting"``; ``repaired=True``; and the
``span`` in the original input of what was removed or encoded: the character
for a character repair, the leading (or else the trailing) white space, the
delimited text from "<" to ">", the prefix with the white space after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Final, Generic, TypeVar

from . import _seam
from .character_repairs import MAX_REPORTS, SEVERITIES
from .errors import URIError
from .grammar import IRI_GRAMMAR, SCHEME, URI_GRAMMAR, URL_PREFIX
from .report import Report
from .validate import check, is_valid

__all__ = [
    "MAX_REPORTS",
    "SEVERITIES",
    "Repaired",
    "repair",
    "repair_runs",
    "repair_value",
    "replaced",
    "replaced_before",
]

_Value = TypeVar("_Value")

# "URL:" before a URI with a scheme (Appendix C); ``match`` anchors it at ``pos``.
_PREFIX: Final = re.compile(rf"{URL_PREFIX}\s*(?={SCHEME}:)")


class Repaired(Generic[_Value]):
    """What a lenient parse returns: the reference and every repair made (Appendix C).

    It unpacks like a pair: ``uri, reports = URI.lenient(text)``.  Immutable; equal to
    another with an equal reference and equal reports.
    """

    __slots__ = ("reports", "uri")
    __match_args__ = ("uri", "reports")
    uri: _Value
    reports: list[Report]

    def __init__(self, uri: _Value, reports: list[Report]) -> None:
        object.__setattr__(self, "uri", uri)
        object.__setattr__(self, "reports", reports)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(uri={self.uri!r}, reports={self.reports!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.uri, self.reports) == (other.uri, other.reports)

    def __hash__(self) -> int:
        return hash((self.uri, self.reports))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), (self.uri, self.reports))

    def __iter__(self) -> Iterator[Any]:
        return iter((self.uri, self.reports))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.uri, self.reports)[index]


def _report(code: str, message: str, start: int, end: int) -> Report:
    return Report(code, message, SEVERITIES[code], (start, end), True)


def repair(text: str, *, iri: bool = False) -> tuple[str, list[Report]]:
    """``text`` repaired into a URI reference (an IRI reference with ``iri=True``), and the repairs.

    A valid reference comes back as it is, with no report, unless a scheme
    follows a ``URL:`` prefix and the rest is a reference (``URL:a:b`` gives
    ``a:b``; ``URL:foo`` and ``URL:s://h:x`` are URIs of a scheme "URL").
    What cannot be repaired raises
    :class:`~urikit.URIError` at its position in the repaired text.

    >>> text, reports = repair(" <http://a/b c>")
    >>> text, [(r.code, r.span) for r in reports]
    ('http://a/bc', [('surrounding-whitespace', (0, 1)), ('delimiters', (1, 15)), \
('embedded-whitespace', (12, 13))])
    >>> repair("http://a/\u00e9")[0], repair("http://a/\u00e9", iri=True)[0]
    ('http://a/%C3%A9', 'http://a/\u00e9')
    """
    repaired, reports, _ = _repair(text, iri)
    return repaired, reports


def repair_value(
    text: str, iri: bool, scan: Callable[[str], _Value | None]
) -> tuple[str, list[Report], _Value | None]:
    """:func:`repair`, and ``scan(repaired)`` (a value, ``None`` for text that is not a
    reference) where the check of the repaired text can be that scan, or ``None``."""
    return _repair(text, iri, scan)


def repair_runs(
    text: str, *, iri: bool = False
) -> tuple[str, list[Report], list[tuple[int, int, int]]]:
    """:func:`repair`, and where it replaced what: ``(start, end, length)`` of each
    piece of ``text`` replaced by ``length`` characters, in order.  What the
    repairs around the reference removed (white space, delimiters, a prefix)
    is read from the reports."""
    repaired, reports, _ = _repair(text, iri)
    return repaired, reports, replaced(text, iri=iri)


def replaced(text: str, *, iri: bool = False) -> list[tuple[int, int, int]]:
    """Where :func:`repair` replaces what in ``text``: ``(start, end, length)`` of pieces
    of ``text`` replaced by ``length`` characters, in order, as :func:`repair_runs`
    lists them or cut finer (one of its pieces may come as several that follow one
    another, which place every character the same way): white space inside
    delimiters removed (RFC 3986 Appendix C), anything else three characters an
    octet of its UTF-8 (§2.1, §2.5); none for a text that needs no repair."""
    return replaced_before(text, iri=iri)[0]


def replaced_before(
    text: str, limit: int | None = None, *, iri: bool = False
) -> tuple[list[tuple[int, int, int]], int]:
    """:func:`replaced`, the pieces that begin before a position of ``text``, and that
    position: with the compiled core and a ``limit``, those before the first piece
    past the first ``limit`` pieces of a kind of repair (so that a text of a million
    repairs is not listed whole for the first of them); else all, and ``len(text)``."""
    if is_valid(text, "IRI-reference" if iri else "URI-reference") and _PREFIX.match(text) is None:
        return [], len(text)
    start, end, delimited = _body(text, [])
    grammar = IRI_GRAMMAR if iri else URI_GRAMMAR
    pieces, before = _seam.forbidden_runs(grammar, text[start:end], start, delimited, limit)
    return pieces, len(text) if before is None else before


def _repair(
    text: str, iri: bool, scan: Callable[[str], _Value | None] | None = None
) -> tuple[str, list[Report], _Value | None]:
    """:func:`repair`; with ``scan``, the repaired text is checked by it when it can be,
    and its value is returned (else ``None``)."""
    if not isinstance(text, str):
        raise TypeError(f"lenient() takes a str, not {type(text).__name__}")
    rule = "IRI-reference" if iri else "URI-reference"
    valid = is_valid(text, rule)
    if valid and _PREFIX.match(text) is None:
        return text, [], None
    reports: list[Report] = []
    start, end, delimited = _body(text, reports)
    grammar = IRI_GRAMMAR if iri else URI_GRAMMAR
    out, skeleton = _seam.encode_forbidden(grammar, text[start:end], start, delimited, reports)
    value = None
    try:
        if scan is not None and skeleton is out:  # one scan checks and reads the text
            value = scan(out)
            if value is None:
                check(out, rule)
        elif not is_valid(skeleton, rule):
            check(out, rule)
    except URIError as exc:
        if valid:
            # the prefix read as Appendix C leaves no reference; "url" is a scheme (§3.1)
            return text, [], None
        raise URIError(
            f"cannot be repaired: {exc.reason}", text=out, position=exc.position, rule=exc.rule
        ) from None
    return out, reports, value


def _body(text: str, reports: list[Report]) -> tuple[int, int, bool]:
    """Where the reference lies in ``text`` once white space around it, delimiters and a
    ``URL:`` prefix are taken off (Appendix C), and whether it was delimited; a report
    of each in ``reports``."""
    start, end = _strip(text, 0, len(text))
    if start:
        reports.append(
            _report("surrounding-whitespace", "surrounding white space removed", 0, start)
        )
    elif end != len(text):
        reports.append(
            _report("surrounding-whitespace", "surrounding white space removed", end, len(text))
        )
    delimited = end - start >= 2 and (text[start], text[end - 1]) in (("<", ">"), ('"', '"'))
    if delimited:
        reports.append(
            _report("delimiters", f"delimiters {text[start]}...{text[end - 1]} removed", start, end)
        )
        start, end = _strip(text, start + 1, end - 1)
    prefix = _PREFIX.match(text, start, end)
    if prefix is not None:
        reports.append(
            _report("url-prefix", 'the "URL:" prefix removed (Appendix C)', start, prefix.end())
        )
        start = prefix.end()
    return start, end, delimited


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` without the white space around it, as a span."""
    inner = text[start:end]
    kept = inner.lstrip()
    start += len(inner) - len(kept)
    return start, start + len(kept.rstrip())
