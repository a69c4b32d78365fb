"""RFC 3986 §7, Security Considerations, as findings: :func:`audit`.

A URI is not a threat in itself (§7), but software that acts on one can be
misled.  :func:`audit` reads a reference (or text that is not one) and says
what in it deserves caution, each finding with a stable ``code``, a
``message``, a :class:`Severity`, the component it concerns and its span in
the text:

``misleading-userinfo`` (§7.6), ``password`` (§7.5), ``ipv4-rare-format``
(§7.4), ``internal-address``, ``unusual-port`` (§7.2), ``encoded-control``
(§7.2, §7.3), ``encoded-dot-segment`` (§7.3), ``invalid-utf8`` (§7.3),
``mixed-script-host``, ``obfuscated-host`` (a host whose percent-encoding
or UTS #46 mapping hides the name used), ``active-content-scheme``
(``javascript:``, ``data:`` of HTML, SVG, XML or script, ``blob:``),
``parser-differential``, ``invisible-character`` (bidi and zero-width
characters, RFC 3987 §4.1), ``invalid`` (not a URI reference), and for text
that was read only after a lenient repair, one finding per repair with the
:class:`~urikit.report.Report` code (``backslash``, ``whitespace``,
``control``, ...).

Findings of one code on consecutive characters are merged into one finding
over the run.  A clean reference gives no finding at all.
"""

from __future__ import annotations

import importlib
import re
from typing import Final

from ..errors import URIError
from ..report import Report
from ..schemes import DEFAULT_REGISTRY, SchemeRegistry
from ..uri import URI, _Reference
from .active import check_active_content
from .checks import check_encoded, check_reference, check_userinfo
from .differential import check_differential, differential_findings
from .findings import (
    INVISIBLE_FORMAT,
    Finding,
    Mapper,
    Severity,
    identity,
    merge_runs,
    printable,
    run_message,
)
from .hosts import lenient_ipv4
from .redirect import is_safe_redirect, redirect_findings

__all__ = [
    "Finding",
    "Severity",
    "audit",
    "differential_findings",
    "is_safe_redirect",
    "lenient_ipv4",
    "printable",
    "redirect_findings",
]


# --- reading the input -------------------------------------------------------------

_LENIENT_SEVERITY: Final = {
    "backslash": Severity.HIGH,
    "control": Severity.HIGH,
    "whitespace": Severity.MEDIUM,
    "forbidden-character": Severity.MEDIUM,
    "bracket": Severity.MEDIUM,
    "bidi-formatting": Severity.MEDIUM,
    "extra-hash": Severity.LOW,
    "bare-percent": Severity.LOW,
    "non-ascii": Severity.LOW,
    "surrounding-whitespace": Severity.LOW,
    "embedded-whitespace": Severity.LOW,
    "delimiters": Severity.INFO,
    "url-prefix": Severity.INFO,
}
_URL_PREFIX: Final = re.compile(r"[Uu][Rr][Ll]:\s*")
_SINGLE: Final = {"bare-percent": 3, "extra-hash": 3, "bracket": 3}
# The repairs of the text as a whole rather than of one character.
_WHOLE_TEXT: Final = frozenset({"surrounding-whitespace", "delimiters", "url-prefix"})


def _alignment(text: str, repaired: str, violations: list[Report]) -> Mapper:
    """Map spans of the repaired text back to the input, repair by repair."""
    start = 0
    while start < len(text) and text[start].isspace():
        start += 1
    for violation in violations:
        if violation.code == "delimiters":
            start = violation.position + 1
            while start < len(text) and text[start].isspace():
                start += 1
        elif violation.code == "url-prefix":
            match = _URL_PREFIX.match(text, violation.position)
            start = match.end() if match else violation.position
    changed = {v.position: v for v in violations if v.code not in _WHOLE_TEXT}
    offsets: list[int] = []
    i = start
    while len(offsets) < len(repaired) and i < len(text):
        v = changed.get(i)
        if v is not None and v.code == "embedded-whitespace":
            i += 1
            continue
        width = 1
        if v is not None:
            width = _SINGLE.get(v.code, 3 * len(text[i].encode("utf-8", "surrogatepass")))
        offsets.extend([i] * width)
        i += 1
    offsets.extend([i] * (len(repaired) - len(offsets)))

    def mapper(span: tuple[int, int]) -> tuple[int, int]:
        s, e = span
        first = offsets[s] if s < len(offsets) else i
        return (first, offsets[e - 1] + 1) if e > s else (first, first)

    return mapper


def _violation_span(text: str, v: Report) -> tuple[int, int]:
    """The characters a repair concerns, in the input."""
    if v.code == "surrounding-whitespace":
        lead = len(text) - len(text.lstrip())
        return (0, lead) if lead else (len(text.rstrip()), len(text))
    if v.code == "url-prefix":
        match = _URL_PREFIX.match(text, v.position)
        return (v.position, match.end() if match else v.position)
    return (v.position, min(v.position + 1, len(text)))


def _add_repairs(text: str, violations: list[Report], findings: list[Finding]) -> None:
    """One finding per repair, a run of one repair on consecutive characters merged."""
    index = 0
    while index < len(violations):
        first = violations[index]
        start, end = _violation_span(text, first)
        count = 1
        index += 1
        while index < len(violations) and violations[index].code == first.code and end > start:
            following = _violation_span(text, violations[index])
            if following[0] != end or following[1] == following[0]:
                break
            end = following[1]
            count += 1
            index += 1
        findings.append(
            Finding(
                first.code,
                run_message(f"read only after a repair: {first.message}", count, (start, end)),
                _LENIENT_SEVERITY.get(first.code, Severity.MEDIUM),
                None,
                (start, end),
            )
        )


def _iri_class() -> type[_Reference] | None:
    try:
        module = importlib.import_module("urikit.iri")
    except ImportError:
        return None
    cls = getattr(module, "IRI", None)
    return cls if isinstance(cls, type) and issubclass(cls, _Reference) else None


def _read(text: str, findings: list[Finding]) -> tuple[_Reference | None, Mapper]:
    """urikit's reading of ``text``: strict, as an IRI, or after a lenient repair."""
    try:
        return URI(text), identity
    except URIError as error:
        failure = error
    iri = _iri_class()
    if iri is not None:
        try:
            return iri(text), identity
        except URIError:
            pass
    position = failure.position if failure.position is not None else 0
    findings.append(
        Finding(
            "invalid",
            f"not a URI reference: {printable(failure.reason)} at position {position}"
            + (f" (rule {failure.rule})" if failure.rule else ""),
            Severity.MEDIUM,
            None,
            (position, min(position + 1, len(text))),
        )
    )
    try:
        repaired = URI.lenient(text)
    except URIError:
        return None, identity
    _add_repairs(text, repaired.reports, findings)
    return repaired.uri, _alignment(text, str(repaired.uri), repaired.reports)


# --- the checks --------------------------------------------------------------------


def audit(uri: str | _Reference, *, registry: SchemeRegistry = DEFAULT_REGISTRY) -> list[Finding]:
    """What in ``uri`` deserves caution (RFC 3986 §7), as a list of findings.

    ``uri`` is a :class:`~urikit.URI` (or IRI) or any text: text that is not
    a URI reference gives an ``invalid`` finding, the repairs a lenient parse
    needed, and whatever can still be said of its lenient reading.  Findings
    are sorted by position; a run of findings of one code on consecutive
    characters is one finding.  ``registry`` gives the default ports (§3.2.3).

    >>> [f.code for f in audit("http://www.example.com&story=breaking_news@10.0.0.1/")]
    ['misleading-userinfo', 'internal-address']
    >>> audit("https://www.example.com/index.html?q=1#x")
    []
    """
    if isinstance(uri, _Reference):
        text = str(uri)
    elif isinstance(uri, str):
        text = str.__str__(uri)
    else:
        raise TypeError(f"audit() takes a str or a URI, not {type(uri).__name__}")
    findings: list[Finding] = []
    if isinstance(uri, _Reference):
        ref: _Reference | None = uri
        where: Mapper = identity
    else:
        ref, where = _read(text, findings)
    check_active_content(text, findings)
    if ref is not None:
        check_reference(ref, registry, findings, where, text)
    else:
        check_encoded(text, None, (0, len(text)), findings, identity)
        _salvage(text, registry, findings)
    _check_invisible(text, findings)
    check_differential(text, ref, where, registry, findings)
    unique = {(f.code, f.span, f.message): f for f in findings}
    return sorted(merge_runs(list(unique.values())), key=lambda f: (f.span, f.code))


_INVISIBLE_FORMAT: Final = re.compile(f"[{INVISIBLE_FORMAT}]+")


def _check_invisible(text: str, findings: list[Finding]) -> None:
    """``invisible-character``: bidi controls and zero-width characters, which make
    a URI look like another when shown (RFC 3986 §7.6, RFC 3987 §4.1)."""
    for match in _INVISIBLE_FORMAT.finditer(text):
        run = match.group()
        message = (
            f"U+{ord(run[0]):04X}, an invisible or bidi formatting character: "
            "the URI does not look like what it is"
        )
        findings.append(
            Finding(
                "invisible-character",
                run_message(message, len(run), match.span()),
                Severity.MEDIUM,
                None,
                match.span(),
            )
        )


_AUTHORITY_START: Final = re.compile(r"[\x00-\x20]*(?:([A-Za-z][A-Za-z0-9+.\-]*):)?//")


def _salvage(text: str, registry: SchemeRegistry, findings: list[Finding]) -> None:
    """The userinfo, host and port checks on what other parsers read in text that
    urikit cannot read even leniently: the authority up to the first "/", "?",
    "#" or "\\", the userinfo ending at its last "@" (as urllib.parse and WHATWG
    parsers read it, so ``http://a@b@c/`` has the host "c")."""
    match = _AUTHORITY_START.match(text)
    if match is None:
        return
    start = match.end()
    end = min((i for i in map(text.find, "/?#\\", [start] * 4) if i >= 0), default=len(text))
    at = text.rfind("@", start, end)
    host_start = at + 1 if at >= 0 else start
    if at >= 0:
        check_userinfo(
            text[start:at], (start, at), text[host_start:end], registry, findings, identity
        )
    scheme = match.group(1)
    prefix = f"{scheme}://" if scheme else "//"
    probe = _probe(prefix, text[host_start:end])
    if probe is None:
        return
    shift = host_start - len(prefix)

    def moved(span: tuple[int, int]) -> tuple[int, int]:
        return (span[0] + shift, span[1] + shift)

    check_reference(probe, registry, findings, moved, text)


def _probe(prefix: str, hostport: str) -> _Reference | None:
    """``prefix`` and ``hostport`` read as a URI, else as an IRI, else without the
    port (a port of full-width digits, say), else None."""
    iri = _iri_class()
    classes: list[type[_Reference]] = [URI] if iri is None else [URI, iri]
    colon = hostport.rfind(":")
    candidates = [hostport]
    if colon >= 0 and "]" not in hostport[colon:]:
        candidates.append(hostport[:colon])
    for candidate in candidates:
        for cls in classes:
            try:
                return cls(prefix + candidate)
            except URIError:
                continue
    return None
