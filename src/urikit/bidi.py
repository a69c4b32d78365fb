"""Bidirectional IRIs (RFC 3987 §4).

Two kinds of rule, of two strengths:

* §4.1 is a MUST: "IRIs MUST NOT contain bidirectional formatting characters
  (LRM, RLM, LRE, RLE, LRO, RLO, and PDF)".  :class:`~urikit.IRI` enforces
  it through :func:`find_bidi_formatting`, and the URI-to-IRI conversion keeps
  these characters percent-encoded (§3.2 step 4).
* §4.2 is a SHOULD, about the *structure* of an IRI whose components use
  right-to-left characters.  It is reported, not enforced:
  :func:`bidi_reports` lists the components that break it, and
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
from typing import Final

from .components import Parts, component_spans
from .errors import URIError
from .grammar import BIDI_FORMATTING
from .report import Report, Severity

__all__ = ["BIDI_FORMATTING", "bidi_reports", "check_bidi", "find_bidi_formatting"]

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
    if not isinstance(text, str):
        raise TypeError(f"find_bidi_formatting() takes a str, not {type(text).__name__}")
    if text.isascii():
        return None
    m = _BIDI_FORMATTING.search(text)
    return None if m is None else m.start()


def bidi_reports(parts: Parts, text: str) -> list[Report]:
    """The components of an IRI that break the Bidi IRI structure rules (RFC 3987 §4.2).

    ``text`` is the IRI reference and ``parts`` its components.  For each
    component that uses right-to-left characters (bidi class R or AL), rule 1
    says it SHOULD NOT also use left-to-right characters (code
    ``"bidi-mixed-direction"``, at the first left-to-right character), and
    rule 2 that it SHOULD start and end with right-to-left characters (code
    ``"bidi-rtl-boundary"``, at the offending first or last character).  Each
    :class:`~urikit.report.Report` has severity ``low`` (a SHOULD, §4.2),
    ``repaired=False``, the span of that character in ``text`` and the
    RFC 3986 component it is in.  An all-ASCII text never has any.

    >>> text = "http://example.org/\u05d0\u05d1/\u05d2\u05d31"
    >>> parts = Parts("http", "example.org", None, "example.org", None,
    ...               "/\u05d0\u05d1/\u05d2\u05d31", None, None)
    >>> [(r.code, r.span) for r in bidi_reports(parts, text)]
    [('bidi-rtl-boundary', (24, 25))]
    """
    return [report for _, report in _violations(parts, text)]


def _violations(parts: Parts, text: str) -> list[tuple[str, Report]]:
    """Each §4.2 violation with the rule of its component."""
    if not isinstance(parts, Parts) or not isinstance(text, str):
        raise TypeError("bidi_reports() takes the Parts and the text of an IRI reference")
    found: list[tuple[str, Report]] = []
    if text.isascii():
        return found
    spans = component_spans(parts)
    for component, seps, rule in _DIVISIONS:
        span = spans.get(component)
        if span is None:
            continue
        if component == "host" and (parts.host or "")[:1] == "[":
            continue
        for part in _PARTS[seps].finditer(text, *span):
            found.extend(
                (rule, report)
                for report in _check_component(text, part.start(), part.end(), rule, component)
            )
    return found


def _check_component(text: str, start: int, end: int, rule: str, component: str) -> list[Report]:
    """Apply the two restrictions of §4.2 to the component ``text[start:end]``."""
    out: list[Report] = []
    classes = [unicodedata.bidirectional(ch) for ch in text[start:end]]
    if not _RTL.intersection(classes):
        return out
    # Restriction 1: no mixing of right-to-left and left-to-right characters.
    if _LTR in classes:
        at = start + classes.index(_LTR)
        out.append(
            Report(
                "bidi-mixed-direction",
                f"a {rule} component uses both right-to-left and left-to-right "
                "characters (RFC 3987 §4.2, restriction 1)",
                Severity.LOW,
                (at, at + 1),
                False,
                component,
            )
        )
    # Restriction 2: a right-to-left component starts and ends right-to-left.
    for at, bidi_class in ((start, classes[0]), (end - 1, classes[-1])):
        if bidi_class not in _RTL:
            out.append(
                Report(
                    "bidi-rtl-boundary",
                    f"a {rule} component that uses right-to-left characters should "
                    f"{'start' if at == start else 'end'} with one "
                    "(RFC 3987 §4.2, restriction 2)",
                    Severity.LOW,
                    (at, at + 1),
                    False,
                    component,
                )
            )
            break
    return out


def check_bidi(parts: Parts, text: str) -> None:
    """Raise :class:`~urikit.URIError` at the first §4.2 violation, if any.

    The strict form of :func:`bidi_reports`, for IRIs that will be shown to
    people.  ``rule`` of the error is the component's rule (``"isegment"``...).
    """
    found = _violations(parts, text)
    if found:
        rule, first = found[0]
        raise URIError(first.message, text=text, position=first.position, rule=rule)
