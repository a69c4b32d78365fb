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
from .bounds import bound_findings, host_cut, long_host, shifted
from .checks import check_encoded, check_octets, check_reference, check_userinfo
from .differential import agree, check_differential
from .findings import Mapper, Reference, finding, identity, merge_runs, run_message
from .hosts import is_presentation_selector
from .reading import read
from .readings import Texts, check_readings
from .screen import ENCODED, PLAIN_HEAD, QUIET, is_quiet, screen

__all__ = ["audit", "full_audit", "innermost"]

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
    findings = _findings(text, ref, registry, failure)
    unique = {(f.code, f.span, f.message): f for f in findings}
    merged = sorted(merge_runs(list(unique.values())), key=lambda f: (f.span, f.code))
    return bound_findings(merged)


def _findings(
    text: str,
    given: Reference | None,
    registry: SchemeRegistry,
    failure: URIError | None = None,
    *,
    unwrap: bool = True,
) -> list[Report]:
    """Every finding in ``text`` (read as ``given`` when that is not None), unmerged;
    with ``unwrap``, those of the URL that ``text`` wraps as well."""
    findings: list[Report] = []
    where: Mapper = identity
    ref = given
    if ref is None:
        ref, where = read(text, findings, failure)
    check_active_content(text, findings)
    _check_invisible(text, findings)
    span = _host_span(text, ref, where)
    cut = None if span is None else host_cut(text, span)
    if cut is None:
        _read_checks(text, ref, where, registry, findings, host=True)
    else:
        # a long host (bounds.py): the checks that read it, on the text without its tail
        if not cut.plain:
            findings.append(long_host(cut))
            check_encoded(text, "host", (cut.start, cut.end), findings, identity)
        if cut.plain and ref is not None:
            check_reference(ref, registry, findings, where, text, internal=where is identity)
        elif cut.plain:
            check_encoded(text, None, (0, len(text)), findings, identity)
            _salvage(text, registry, findings)
        short = text[: cut.start] + text[cut.end :]
        short_ref, short_where = read(short, [], None)
        found: list[Report] = []
        _read_checks(short, short_ref, short_where, registry, found, host=not cut.plain)
        move = shifted(cut)
        findings.extend(
            Report(f.code, f.message, f.severity, move(f.span), f.repaired, f.component)
            for f in found
        )
    if unwrap:
        findings.extend(_wrapped(text, registry, findings))
    return findings


def _read_checks(
    text: str,
    ref: Reference | None,
    where: Mapper,
    registry: SchemeRegistry,
    findings: list[Report],
    *,
    host: bool,
) -> None:
    """The checks of urikit's reading ``ref`` of ``text`` (with ``host``: of its
    components; else ``text``'s are already checked), and of other parsers' readings."""
    repaired = ref if where is not identity else None
    if host and ref is not None:
        check_reference(ref, registry, findings, where, text, internal=repaired is None)
    elif host:
        check_encoded(text, None, (0, len(text)), findings, identity)
        _salvage(text, registry, findings)
    if not (isinstance(ref, URI) and agree(text, ref)):
        check_differential(text, ref, where, registry, findings)
        check_readings(Texts(text, repaired), None if repaired else ref, where, findings)


def _host_span(text: str, ref: Reference | None, where: Mapper) -> tuple[int, int] | None:
    """Where the host of ``text`` is: that of urikit's reading ``ref``, else the one
    other parsers read in text that urikit cannot read (:func:`_authority`)."""
    if ref is not None:
        span = ref.span("host")
        return None if span is None else where(span)
    authority = _authority(text)
    if authority is None:
        return None
    _, start, end = authority
    colon = text.rfind(":", start, end)
    if colon >= 0 and text[colon + 1 : end].isdigit():
        end = colon  # the port (§3.2.3)
    return start, end


# --- wrapped URLs ------------------------------------------------------------------

#: The C0 controls and spaces that a browser strips before a URL (URL Standard §4.4).
_LEADING: Final = re.compile("[\x00-\x20]*")
_ABSOLUTE: Final = re.compile(URI_GRAMMAR.sources["scheme"] + ":")


#: A run of wrapping schemes, each with its ":" (``_chain``), and the separator of each.
_Chain = tuple[re.Pattern[str], dict[str, str]]
#: Per registry (by identity, the registry kept alive with it), its ``_Chain`` or None.
_CHAINS: dict[int, tuple[SchemeRegistry, _Chain | None]] = {}
_CHAINS_KEPT: Final = 16


def _chain(registry: SchemeRegistry) -> _Chain | None:
    """``(?:name:)*+`` over the names of ``registry``'s schemes that wrap a URL, in any
    case (RFC 3986 §3.1), the longest first, and each name's ``wraps_uri`` by its lower
    case; None when no scheme wraps a URL."""
    kept = _CHAINS.get(id(registry))
    if kept is not None and kept[0] is registry:
        return kept[1]
    separators = {
        name.lower(): separator
        for name in registry
        if (separator := registry[name].wraps_uri) is not None
    }
    chain: _Chain | None = None
    if separators:
        names = sorted(separators, key=len, reverse=True)
        chain = (re.compile("(?i:(?:" + "|".join(map(re.escape, names)) + "):)*+"), separators)
    if len(_CHAINS) >= _CHAINS_KEPT:
        _CHAINS.clear()
    _CHAINS[id(registry)] = (registry, chain)
    return chain


def _wraps(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a URL that a wrapping scheme wraps: one with a scheme
    and without an authority of its own (``feed://host/`` names a feed's host)?"""
    return not text.startswith("//", start, end) and _ABSOLUTE.match(text, start, end) is not None


def innermost(text: str, registry: SchemeRegistry) -> tuple[int, int, int, list[str]]:
    """Where the innermost URL that ``text`` wraps lies in it, how many levels of
    wrapping schemes wrap it, and those schemes, the outermost first (0 and none when
    ``text`` wraps no URL).

    A URL of a scheme whose registry entry has ``wraps_uri`` wraps the URL that
    follows its ":", up to the first ``wraps_uri`` separator (``!/`` for ``jar:``)
    or to its end (``""``: ``feed:``, ``view-source:``); a URL with an authority
    (``feed://host/``) or without a scheme is wrapped by nothing.  There is no bound
    on the depth: the run of wrapping schemes is matched at once, and each level ends
    at the first separator of its scheme after it, so the levels of one scheme end at
    one place, found once from the first of them.  The time taken is linear.
    """
    chain = _chain(registry)
    if chain is None:
        return 0, len(text), 0, []
    pattern, separators = chain
    leading = _LEADING.match(text)
    begin = 0 if leading is None else leading.end()
    run = pattern.match(text, begin)
    if run is None or run.end() == begin:
        return 0, len(text), 0, []
    names = ":" + text[begin : run.end()].lower()  # each level's scheme between two ":"
    firsts = sorted((at, name) for name in separators if (at := names.find(f":{name}:")) >= 0)
    end = len(text)
    for at, name in firsts:  # in the order of their first levels
        separator = separators[name]
        if separator:
            found = text.find(separator, begin + at + len(name) + 1, end)
            if found >= 0:
                end = found
    start = min(run.end(), end)
    # the levels that begin before the innermost URL: those whose ":" ends before it
    levels = text.count(":", begin, start)
    start = text.rfind(":", begin, start) + 1
    while levels and not _wraps(text, start, end):
        levels -= 1  # the last level wraps no URL: it is the innermost URL itself
        start = max(begin, text.rfind(":", begin, start - 1) + 1)
    if not levels:
        return 0, len(text), 0, []
    inside = [name for at, name in firsts if begin + at < start]
    return start, end, levels, inside


def _wrapped(text: str, registry: SchemeRegistry, outer: list[Report]) -> list[Report]:
    """The findings of the innermost URL that ``text`` wraps (:func:`innermost`), in
    ``text``'s spans, each message naming the schemes that wrap it."""
    start, end, levels, schemes = innermost(text, registry)
    if not levels:
        return []
    wrapper = f"the URL that {schemes[0]}: wraps"
    if levels > 1:
        through = ", ".join(f"{name}:" for name in schemes)
        wrapper += f", {levels} levels deep through {through}"
    seen = {(f.code, f.span) for f in outer}
    found: list[Report] = []
    for f in _findings(text[start:end], None, registry, unwrap=False):
        span = (f.span[0] + start, f.span[1] + start)
        if (f.code, span) in seen:
            continue
        message = f"{f.message} (in {wrapper})"
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


def _authority(text: str) -> tuple[re.Match[str], int, int] | None:
    """The authority that other parsers read in text that urikit cannot read: its
    start (a match of the scheme and "//"), and where the host after its last "@"
    (as urllib.parse and WHATWG parsers read it) begins and the authority ends, at
    the first "/", "?", "#" or "\\"."""
    match = _AUTHORITY_START.match(text)
    if match is None:
        return None
    start = match.end()
    end = min((i for i in map(text.find, "/?#\\", [start] * 4) if i >= 0), default=len(text))
    return match, text.rfind("@", start, end) + 1 or start, end


def _salvage(text: str, registry: SchemeRegistry, findings: list[Report]) -> None:
    """The userinfo, host and port checks on what other parsers read in text that
    urikit cannot read even leniently: the authority up to the first "/", "?",
    "#" or "\\", the userinfo ending at its last "@" (as urllib.parse and WHATWG
    parsers read it, so ``http://a@b@c/`` has the host "c")."""
    authority = _authority(text)
    if authority is None:
        return
    match, host_start, end = authority
    start = match.end()
    if host_start > start:
        at = host_start - 1
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

    # the host's address is judged with the other readings (readings.py)
    check_reference(probe, registry, findings, moved, text, internal=False)


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
