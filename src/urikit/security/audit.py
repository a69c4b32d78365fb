"""RFC 3986 §7, Security Considerations, as findings: :func:`audit`.

A URI is not a threat in itself (§7), but software that acts on one can be
misled.  :func:`audit` reads a reference (or text that is not one) and says
what in it deserves caution, each finding a :class:`~urikit.report.Report`
with a stable ``code``, a ``message``, a :class:`~urikit.report.Severity`,
the component it concerns and its span in the text:

``misleading-userinfo`` (§7.6), ``password`` (§7.5), ``ipv4-rare-format``
(§7.4), ``internal-address``, ``unusual-port`` (§7.2), ``encoded-control``
(§7.2, §7.3), ``encoded-dot-segment`` (§7.3), ``invalid-utf8`` (§7.3),
``mixed-script-host``, ``obfuscated-host`` (a host whose percent-encoding
or UTS #46 mapping hides the name used), ``active-content-scheme``
(``javascript:``, ``data:`` of HTML, SVG, XML or script, ``blob:``),
``parser-differential``, ``invisible-character`` (bidi and zero-width
characters, RFC 3987 §4.1), ``invalid`` (not a URI reference), and for text
that was read only after a lenient repair, one finding per repair with the
code of the repair (``backslash``, ``whitespace``, ``control``, ...) and
``repaired`` true.  The URL that a scheme such as ``jar:``,
``view-source:`` or ``feed:`` wraps (the registry's ``wraps_uri``) is
audited too, its findings spanning it in the text.

Findings of one code on consecutive characters are merged into one finding
over the run; past 100 findings of a repair or of ``invisible-character``, the
rest of that code are one finding from the first of them to the last.  A
clean reference gives no finding at all: most are proved clean by the quick
screen of :mod:`urikit.security.screen` after one parse, and
:func:`full_audit` runs every check regardless (the screen is tested against it).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from .. import _seam
from ..errors import URIError
from ..grammar import URI_GRAMMAR, class_ranges
from ..report import INVISIBLE_FORMAT, Report, Severity
from ..schemes import DEFAULT_REGISTRY, SchemeRegistry
from ..uri import IRI, URI
from .active import check_active_content
from .checks import check_encoded, check_octets, check_reference, check_userinfo
from .differential import agree, check_differential
from .findings import Mapper, Reference, finding, identity, merge_runs, run_message
from .hosts import is_presentation_selector
from .reading import read
from .screen import ENCODED, PLAIN_HEAD, QUIET, is_quiet, screen

__all__ = ["audit", "full_audit"]

#: How many wrapped URLs deep :func:`audit` looks (``jar:jar:http://...``).
MAX_NESTING: Final = 3
#: At most this many ``invisible-character`` findings; the runs after them are one more.
MAX_FINDINGS: Final = 100


def audit(uri: str | URI | IRI, *, registry: SchemeRegistry = DEFAULT_REGISTRY) -> list[Report]:
    """What in ``uri`` deserves caution (RFC 3986 §7), as a list of findings.

    ``uri`` is a :class:`~urikit.URI` (or IRI) or any text: text that is not
    a URI reference gives an ``invalid`` finding, the repairs a lenient parse
    needed, and whatever can still be said of its lenient reading.  Findings
    are sorted by position; a run of findings of one code on consecutive
    characters is one finding.  ``registry`` gives the default ports (§3.2.3)
    and the schemes that wrap another URL (``jar:``, ``view-source:``).
    Any ``str`` gives a list and raises nothing; the time taken is linear in
    the length of the text.

    >>> [f.code for f in audit("http://www.example.com&story=breaking_news@10.0.0.1/")]
    ['misleading-userinfo', 'internal-address']
    >>> [(f.code, f.span) for f in audit("jar:http://127.0.0.1!/")]
    [('internal-address', (11, 20))]
    >>> audit("https://www.example.com/index.html?q=1#x")
    []
    """
    if type(uri) is str:
        text = uri
        try:
            parsed = URI(text)
        except URIError as error:
            return _audit(text, None, registry, error)
        if (
            registry is DEFAULT_REGISTRY
            and "%" not in text
            and "--" not in text
            and PLAIN_HEAD(text) is not None
        ):
            return []  # most URLs: what screen() says QUIET, in one match (screen.py)
        verdict = screen(text, parsed, registry)
        if verdict is QUIET:
            return []  # the quick screen: no check can fire (screen.py)
        if verdict is ENCODED:
            octets: list[Report] = []
            check_octets(parsed, octets, identity)
            if not octets:
                return []
        return _audit(text, parsed, registry, None)
    if isinstance(uri, (URI, IRI)):
        text = str(uri)
        if is_quiet(text, uri, registry):
            return []
        return _audit(text, uri, registry, None)
    return full_audit(uri, registry=registry)


def full_audit(
    uri: str | URI | IRI, *, registry: SchemeRegistry = DEFAULT_REGISTRY
) -> list[Report]:
    """:func:`audit` with every check run on every input, without the quick screen
    of :func:`~urikit.security.screen.is_quiet`: the reference it is tested against."""
    if isinstance(uri, (URI, IRI)):
        text = str(uri)
        ref: Reference | None = uri
    elif isinstance(uri, str):
        text = str.__str__(uri)
        ref = None
    else:
        raise TypeError(f"audit() takes a str or a URI, not {type(uri).__name__}")
    return _audit(text, ref, registry, None)


def _audit(
    text: str, ref: Reference | None, registry: SchemeRegistry, failure: URIError | None
) -> list[Report]:
    """The findings of ``text`` (read as ``ref`` when not None), merged and sorted;
    ``failure`` is the error of a strict parse of ``text`` already tried."""
    findings = _findings(text, ref, registry, MAX_NESTING, failure)
    unique = {(f.code, f.span, f.message): f for f in findings}
    return sorted(merge_runs(list(unique.values())), key=lambda f: (f.span, f.code))


def _findings(
    text: str,
    given: Reference | None,
    registry: SchemeRegistry,
    depth: int,
    failure: URIError | None = None,
) -> list[Report]:
    """Every finding in ``text`` (read as ``given`` when that is not None), unmerged."""
    findings: list[Report] = []
    where: Mapper = identity
    ref = given
    if ref is None:
        ref, where = read(text, findings, failure)
    check_active_content(text, findings)
    if ref is not None:
        check_reference(ref, registry, findings, where, text)
    else:
        check_encoded(text, None, (0, len(text)), findings, identity)
        _salvage(text, registry, findings)
    _check_invisible(text, findings)
    if not (isinstance(ref, URI) and agree(text, ref)):
        check_differential(text, ref, where, registry, findings)
    if depth > 0:
        findings.extend(_wrapped(text, registry, depth - 1, findings))
    return findings


# --- wrapped URLs ------------------------------------------------------------------

_WRAPPER: Final = re.compile(rf"[\x00-\x20]*({URI_GRAMMAR.sources['scheme']}):")
_ABSOLUTE: Final = re.compile(URI_GRAMMAR.sources["scheme"] + ":")


def _wrapped(text: str, registry: SchemeRegistry, depth: int, outer: list[Report]) -> list[Report]:
    """The findings of the URL that the scheme of ``text`` wraps, in ``text``'s spans.

    The wrapped URL follows the scheme's ":" and ends where the scheme's
    ``wraps_uri`` separator first occurs (``!/`` for ``jar:``), or at the end
    of the text.  A URL with an authority (``feed://host/``) wraps nothing.
    """
    match = _WRAPPER.match(text)
    if match is None:
        return []
    scheme = registry.get(match.group(1))
    if scheme is None or scheme.wraps_uri is None:
        return []
    start = match.end()
    end = text.find(scheme.wraps_uri, start) if scheme.wraps_uri else -1
    inner = text[start : len(text) if end < 0 else end]
    if inner.startswith("//") or _ABSOLUTE.match(inner) is None:
        return []
    seen = {(f.code, f.span) for f in outer}
    name = match.group(1).lower()
    found: list[Report] = []
    for f in _findings(inner, None, registry, depth):
        span = (f.span[0] + start, f.span[1] + start)
        if (f.code, span) in seen:
            continue
        message = f"{f.message} (in the URL that {name}: wraps)"
        found.append(Report(f.code, message, f.severity, span, f.repaired, f.component))
    return found


# --- invisible characters -------------------------------------------------------------

_INVISIBLE_FORMAT: Final = re.compile(f"[{INVISIBLE_FORMAT}]+")
#: The characters of ``INVISIBLE_FORMAT`` (bidi formatting, zero-width and other
#: invisible characters).
_INVISIBLE_CHARS: Final = "".join(
    chr(code) for lo, hi in class_ranges(INVISIBLE_FORMAT) for code in range(lo, hi + 1)
)


_SELECTORS: Final = "\ufe0e\ufe0f"
#: A variation selector that begins a run of invisible characters.
_SELECTOR_FIRST: Final = re.compile(f"(?<![{INVISIBLE_FORMAT}])[{_SELECTORS}]")


@lru_cache(maxsize=256)
def _runs_of(chars: str) -> re.Pattern[str]:
    """``_INVISIBLE_FORMAT`` narrowed to ``chars``, the invisible characters that a text
    holds: the same runs in that text, found with a class of a few characters."""
    return re.compile(f"[{re.escape(chars)}]+")


def _check_invisible(text: str, findings: list[Report]) -> None:
    """``invisible-character``: bidi controls and zero-width characters, which make
    a URI look like another when shown (RFC 3986 §7.6, RFC 3987 §4.1).  A run is
    one finding; past ``MAX_FINDINGS`` runs, the rest are one more finding."""
    if text.isascii():
        return  # every invisible character is outside ASCII
    present = _seam.chars_in(text, _INVISIBLE_CHARS)
    if not present:
        return
    count = 0
    runs = _runs_of(present).finditer(text)
    for match in runs:
        start, end = match.span()
        if is_presentation_selector(text, start):
            start += 1  # the rest of a run follows an invisible character
        if start == end:
            continue
        count += 1
        run = text[start:end]
        message = (
            f"U+{ord(run[0]):04X}, an invisible or bidi formatting character: "
            "the URI does not look like what it is"
        )
        findings.append(
            finding(
                "invisible-character",
                run_message(message, len(run), (start, end)),
                Severity.MEDIUM,
                (start, end),
            )
        )
        if count == MAX_FINDINGS:
            break
    else:
        return
    # the rest at once: the characters of the runs, less the selectors that only give
    # an emoji its presentation (each begins a run, after a visible character)
    following = next(runs, None)
    if following is None:
        return
    rest = following.start()
    chars = sum(text.count(ch, rest) for ch in present)
    if any(ch in present for ch in _SELECTORS):
        chars -= sum(
            is_presentation_selector(text, m.start()) for m in _SELECTOR_FIRST.finditer(text, rest)
        )
    if chars == 0:
        return
    last = max(text.rfind(ch) for ch in present) + 1  # the end of the last run
    findings.append(
        finding(
            "invisible-character",
            f"{chars} more invisible or bidi formatting characters after the first "
            f"{MAX_FINDINGS} runs, from the start of this span to its end: the URI does "
            "not look like what it is",
            Severity.MEDIUM,
            (rest, last),
        )
    )


# --- text that cannot be read ---------------------------------------------------------

_AUTHORITY_START: Final = re.compile(rf"[\x00-\x20]*(?:({URI_GRAMMAR.sources['scheme']}):)?//")


def _salvage(text: str, registry: SchemeRegistry, findings: list[Report]) -> None:
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


def _probe(prefix: str, hostport: str) -> Reference | None:
    """``prefix`` and ``hostport`` read as a URI, else as an IRI, else without the
    port (a port of full-width digits, say), else None."""
    colon = hostport.rfind(":")
    candidates = [hostport]
    if colon >= 0 and "]" not in hostport[colon:]:
        candidates.append(hostport[:colon])
    for candidate in candidates:
        for cls in (URI, IRI):
            try:
                return cls(prefix + candidate)
            except URIError:
                continue
    return None
