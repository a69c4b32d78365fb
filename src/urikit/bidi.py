"""Bidirectional IRIs (RFC 3987 §4).

Two kinds of rule, of two strengths:

* §4.1 is a MUST: "IRIs MUST NOT contain bidirectional formatting characters
  (LRM, RLM, LRE, RLE, LRO, RLO, and PDF)".  :class:`~urikit.iri.IRI` enforces
  it through :func:`find_bidi_formatting`, and the URI-to-IRI conversion keeps
  these characters percent-encoded (§3.2 step 4).
* §4.2 is a SHOULD, about the *structure* of an IRI whose components use
  right-to-left characters.  It is reported, not enforced:
  :func:`bidi_violations` lists the components that break it, and
  :func:`check_bidi` raises for callers that want it strict.

§4.2's components are iuserinfo, ireg-name, isegment, iquery and ifragment,
which "MAY be divided further"; following the section's own advice we take
each domain label, each dot-separated part of a path segment (so a file
extension is a component of its own), each name and each value of the query,
and each ":"-separated part of the userinfo as one component.  With that
reading, the allowed examples 1-7 and 10 of §4.4 pass and the examples marked
"not allowed" (8 and 9) are reported.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Final

from .errors import URIError
from .grammar import BIDI_FORMATTING
from .lenient import Violation

if TYPE_CHECKING:
    from .uri import _Reference

__all__ = ["BIDI_FORMATTING", "bidi_violations", "check_bidi", "find_bidi_formatting"]

_BIDI_FORMATTING: Final = re.compile(f"[{BIDI_FORMATTING}]")

#: Bidi classes of right-to-left characters (Unicode Standard Annex #9).
_RTL: Final = frozenset({"R", "AL"})
_LTR: Final = "L"

#: How each §4.2 component is divided further: (component, separators, rule name).
_DIVISIONS: Final = (
    ("userinfo", ":", "iuserinfo"),
    ("host", ".", "ireg-name"),
    ("path", "/.", "isegment"),
    ("query", "&;=", "iquery"),
    ("fragment", "", "ifragment"),
)
_PARTS: Final = {
    seps: re.compile(f"[^{re.escape(seps)}]+" if seps else ".+", re.DOTALL)
    for _, seps, _ in _DIVISIONS
}


def find_bidi_formatting(text: str) -> int | None:
    """The index of the first bidirectional formatting character in ``text`` (§4.1), if any."""
    if text.isascii():
        return None
    m = _BIDI_FORMATTING.search(text)
    return None if m is None else m.start()


def bidi_violations(iri: _Reference | str) -> list[Violation]:
    """The components of ``iri`` that break the Bidi IRI structure rules (RFC 3987 §4.2).

    For each component that uses right-to-left characters (bidi class R or
    AL), rule 1 says it SHOULD NOT also use left-to-right characters (code
    ``"bidi-mixed-direction"``, at the first left-to-right character), and
    rule 2 that it SHOULD start and end with right-to-left characters (code
    ``"bidi-rtl-boundary"``, at the offending first or last character).
    Positions are indexes into the IRI's text.  A string is parsed as an
    :class:`~urikit.iri.IRI` first; a URI (all ASCII) never has violations.

    >>> bidi_violations("http://example.org/\u05d0\u05d1/\u05d2\u05d31")[0].code
    'bidi-rtl-boundary'
    """
    from .iri import IRI

    return [violation for _, violation in _violations(IRI._coerce(iri))]


def _violations(ref: _Reference) -> list[tuple[str, Violation]]:
    """Each §4.2 violation of ``ref`` with the rule of its component."""
    text = str(ref)
    found: list[tuple[str, Violation]] = []
    if text.isascii():
        return found
    for component, seps, rule in _DIVISIONS:
        span = ref.span(component)
        if span is None or (component == "host" and ref.host_type != "reg-name"):
            continue
        for part in _PARTS[seps].finditer(text, *span):
            found.extend((rule, v) for v in _check_component(text, part.start(), part.end(), rule))
    return found


def _check_component(text: str, start: int, end: int, rule: str) -> list[Violation]:
    """Apply the two restrictions of §4.2 to the component ``text[start:end]``."""
    out: list[Violation] = []
    classes = [unicodedata.bidirectional(ch) for ch in text[start:end]]
    if not _RTL.intersection(classes):
        return out
    # Restriction 1: no mixing of right-to-left and left-to-right characters.
    if _LTR in classes:
        at = start + classes.index(_LTR)
        out.append(
            Violation(
                "bidi-mixed-direction",
                at,
                f"a {rule} component uses both right-to-left and left-to-right "
                "characters (RFC 3987 §4.2, restriction 1)",
                text[at],
            )
        )
    # Restriction 2: a right-to-left component starts and ends right-to-left.
    for at, bidi_class in ((start, classes[0]), (end - 1, classes[-1])):
        if bidi_class not in _RTL:
            out.append(
                Violation(
                    "bidi-rtl-boundary",
                    at,
                    f"a {rule} component that uses right-to-left characters should "
                    f"{'start' if at == start else 'end'} with one "
                    "(RFC 3987 §4.2, restriction 2)",
                    text[at],
                )
            )
            break
    return out


def check_bidi(iri: _Reference | str) -> None:
    """Raise :class:`~urikit.URIError` at the first §4.2 violation of ``iri``, if any.

    The strict form of :func:`bidi_violations`, for IRIs that will be shown to
    people.  ``rule`` of the error is the component's rule (``"isegment"``...).
    """
    from .iri import IRI

    ref = IRI._coerce(iri)
    found = _violations(ref)
    if found:
        rule, first = found[0]
        raise URIError(first.message, text=str(ref), position=first.position, rule=rule)
