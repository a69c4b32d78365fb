"""Internationalized Resource Identifiers (RFC 3987).

An :class:`IRI` is a :class:`~urikit.uri.URI` with a wider grammar: the same
immutable value, components, classification, resolution and normalization
(one implementation, ``_Reference``), over the RFC 3987 §2.2 grammar that
``grammar.py`` builds from the RFC 3986 one.  On top of the ABNF, ``IRI()``
enforces the one MUST-level limit on characters: no bidirectional formatting
characters (§4.1).  The limits of §6.1 are SHOULDs and are not enforced (and
§6.1 a says generic software "cannot and should not check" them).

Two conversions link the two kinds of identifier: ``IRI.to_uri()``, the
mapping of §3.1, and ``URI.to_iri()``, the conversion of §3.2.  Both are
functions on text in :mod:`urikit.mapping`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from .bidi import bidi_reports, find_bidi_formatting
from .components import Parts
from .errors import URIError
from .grammar import IRI_GRAMMAR, Grammar
from .mapping import iri_to_uri
from .uri import URI, _Reference

if TYPE_CHECKING:
    from typing_extensions import Self

    from .report import Report

__all__ = ["IRI"]


class IRI(_Reference):
    """An IRI reference (RFC 3987 §2.2): strictly parsed, exact, immutable.

    Everything :class:`~urikit.URI` offers works the same way; the grammar
    also allows ``ucschar`` wherever RFC 3986 allows unreserved characters,
    and ``iprivate`` in the query.  A bidirectional formatting character
    (U+200E, U+200F, U+202A-U+202E, and U+061C, U+2066-U+2069) is refused as
    §4.1 requires, with a :class:`~urikit.URIError` at its position and the
    rule ``"ucschar"``.

    >>> iri = IRI("http://r\u00e9sum\u00e9.example.org/D\u00fcrst?q=\u00e9")
    >>> iri.host, iri.path
    ('r\u00e9sum\u00e9.example.org', '/D\u00fcrst')
    >>> str(iri.to_uri())
    'http://r%C3%A9sum%C3%A9.example.org/D%C3%BCrst?q=%C3%A9'
    >>> str(iri.to_uri(idna=True))
    'http://xn--rsum-bpad.example.org/D%C3%BCrst?q=%C3%A9'
    """

    __slots__ = ()
    _grammar: ClassVar[Grammar] = IRI_GRAMMAR
    _rule: ClassVar[str] = "IRI-reference"

    # The IRI pattern is compiled on first use, not when urikit is imported.
    @staticmethod
    def _fullmatch(text: str) -> re.Match[str] | None:
        return IRI_GRAMMAR.reference.fullmatch(text)

    def __new__(cls, text: str | _Reference) -> Self:
        self = super().__new__(cls, text)
        text = self._m.string
        if not text.isascii():
            position = find_bidi_formatting(text)
            if position is not None:
                raise URIError(
                    "IRIs MUST NOT contain bidirectional formatting characters "
                    "(RFC 3987 §4.1); percent-encode it",
                    text=text,
                    position=position,
                    rule="ucschar",
                )
        return self

    def to_uri(self, *, idna: bool = False, nfc: bool = False) -> URI:
        """The URI this IRI maps to (RFC 3987 §3.1); see ``urikit.mapping.iri_to_uri``."""
        parts = Parts(*self._m.group(1, 2, 3, 4, 5, 6, 7, 8))
        return URI(iri_to_uri(self._m.string, parts, idna=idna, nfc=nfc))

    def bidi_violations(self) -> list[Report]:
        """The components that break the Bidi IRI structure (§4.2); see ``urikit.bidi``."""
        return bidi_reports(Parts(*self._m.group(1, 2, 3, 4, 5, 6, 7, 8)), self._m.string)
