"""The component checks behind :func:`urikit.audit` (RFC 3986 §7.2 - §7.6)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Final
from urllib.parse import unquote

from ..grammar import HEXDIG, URI_GRAMMAR
from ..report import Report, Severity, printable, quote
from ..schemes import SchemeRegistry
from ..types import Component
from .bounds import MAX_FINDINGS, MAX_HOST
from .findings import Mapper, Reference, finding, shown
from .hosts import (
    internal_reason,
    is_localhost_name,
    lenient_ipv4,
    read_host,
    suspicious_labels,
    uts46_changes,
)
from .triplets import NOT_CONTROLS, concern_runs, decode_once, encodes_any

__all__ = [
    "check_encoded",
    "check_octets",
    "check_port",
    "check_reference",
    "check_userinfo",
    "domain_like",
]

_NAMES: Final = {0x00: "NUL", 0x09: "TAB", 0x0A: "LF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL"}
_WORST: Final = frozenset({0x00, 0x0A, 0x0D})
_CONTROLS: Final = frozenset([*range(0x20), 0x7F])


def check_reference(
    ref: Reference,
    registry: SchemeRegistry,
    findings: list[Report],
    where: Mapper,
    given: str | None = None,
    *,
    internal: bool = True,
) -> None:
    """Every component check, on a parsed reference; spans go through ``where``
    into ``given``, the text as it was given (``str(ref)`` when None).  Without
    ``internal``, an internal host is left to the caller (the audit judges the hosts
    of its other readings together: :mod:`urikit.security.readings`)."""
    _check_userinfo(ref, registry, findings, where)
    _check_host(ref, findings, where, str(ref) if given is None else given, internal)
    check_port(ref, registry, findings, where)
    check_octets(ref, findings, where)


def check_octets(ref: Reference, findings: list[Report], where: Mapper) -> None:
    """The checks of percent-encoded octets (RFC 3986 §7.2, §7.3): ``encoded-control``
    and ``invalid-utf8`` in every component, ``encoded-dot-segment`` in the path
    and query."""
    if "%" not in str(ref):
        return
    content = _data_content(ref)
    for component in ("userinfo", "host", "path", "query", "fragment"):
        span = ref.span(component)
        if span is not None and content is not None and component in ("path", "query"):
            span = (span[0], min(span[1], content))
        if span is not None and span[1] > span[0]:
            check_encoded(str(ref), component, span, findings, where)
    if content is None:
        _check_dot_segments(ref, findings, where)


def _data_content(ref: Reference) -> int | None:
    """Where the data of a ``data:`` URL begins (RFC 2397 §3: after the first ","),
    or None for other references.  The data is content, not a name that a server
    resolves: binary octets, controls and dots in it are what it holds."""
    span = ref.span("path")
    if (ref.scheme or "").lower() != "data" or span is None:
        return None
    comma = str(ref).find(",", span[0])
    return span[1] if comma < 0 else comma


# --- §7.5, §7.6: userinfo -----------------------------------------------------------

#: What separates the names a userinfo may hold: anything but a letter or digit of any
#: script (a U-label is a name too), "." and "-".
_TOKEN_SPLIT: Final = re.compile(r"(?:[^\w.\-]|_)+")
_SCHEME_AT_START: Final = re.compile(URI_GRAMMAR.sources["scheme"] + ":")


#: The names that RFC 2606 §2-§3 and RFC 6761 §6 reserve: top-level domains, and the
#: second-level names of RFC 2606 §3 and RFC 6761 §6.1 (the reverse names of the
#: private addresses of RFC 1918).
_RESERVED_TLDS: Final = frozenset({"test", "example", "invalid", "localhost"})
_RESERVED_NAMES: Final = frozenset(
    {
        "example.com",
        "example.net",
        "example.org",
        "10.in-addr.arpa",
        *(f"{n}.172.in-addr.arpa" for n in range(16, 32)),
        "168.192.in-addr.arpa",
    }
)
#: The most labels of a name of ``_RESERVED_NAMES``.
_RESERVED_DEPTH: Final = 4


def domain_like(name: str) -> str | None:
    """What kind of host name ``name`` (a dot-separated token of a userinfo) looks like,
    or None (RFC 3986 §7.6): a name that RFC 2606 or RFC 6761 reserves (``good.example``,
    ``example.com``, ``localhost``), or a domain name of the DNS, one that has a
    registrable domain under a public suffix that the ICANN section of the Public Suffix
    List names (``paypal.com``, ``login.bank.co.uk``, ``bücher.de``; not ``John.Doe``,
    whose top-level domain is not delegated).  The ICANN section is read, not the
    private one: ``github.io`` names a host as ``a.github.io`` does."""
    labels = name.lower().strip(".").split(".")
    if "" in labels:
        return None
    if labels[-1] in _RESERVED_TLDS or any(
        ".".join(labels[-size:]) in _RESERVED_NAMES for size in range(2, _RESERVED_DEPTH + 1)
    ):
        return "the reserved name"
    if len(labels) < 2:
        return None
    from ..sites import lookup

    found = lookup(".".join(labels), private=False)
    if found is None or found.implicit or found.registrable_domain is None:
        return None
    return "the domain name"


def _looks_like_host(userinfo: str, registry: SchemeRegistry) -> str | None:
    """What in a (decoded) userinfo looks like a host or a URL (§7.6), or None."""
    lowered = userinfo.lower()
    if "://" in lowered:
        return "a URL"
    scheme = _SCHEME_AT_START.match(userinfo)
    if scheme is not None and scheme.group()[:-1] in registry:
        return f"a URL of scheme {quote(scheme.group()[:-1])}"
    if "www." in lowered:
        return "a host name beginning with 'www.'"
    if "." not in userinfo:
        # every name or address below has two labels or more, but RFC 6761 §6.3's
        return "the reserved name 'localhost'" if lowered == "localhost" else None
    for token in _TOKEN_SPLIT.split(userinfo):
        labels = token.strip(".").split(".")
        if len(labels) < 2 or "" in labels:
            continue
        if lenient_ipv4(token) is not None:
            return f"the IP address {shown(token)}"
        what = domain_like(token)
        if what is not None:
            return f"{what} {shown(token)}"
    return None


def _check_userinfo(
    ref: Reference, registry: SchemeRegistry, findings: list[Report], where: Mapper
) -> None:
    userinfo = ref.userinfo
    span = ref.span("userinfo")
    if userinfo is not None and span is not None:
        check_userinfo(userinfo, span, ref.host or "", registry, findings, where)


def check_userinfo(
    userinfo: str,
    span: tuple[int, int],
    host: str,
    registry: SchemeRegistry,
    findings: list[Report],
    where: Mapper,
) -> None:
    """``password`` (§7.5) and ``misleading-userinfo`` (§7.6) for ``userinfo`` at ``span``."""
    user, colon, password = userinfo.partition(":")
    if colon and password:
        start = span[0] + len(user) + 1
        findings.append(
            finding(
                "password",
                "the userinfo holds a password, in plain text for anyone who sees the URI; "
                "passwords in URIs are deprecated (RFC 3986 §7.5)",
                Severity.MEDIUM,
                where((start, span[1])),
                "userinfo",
            )
        )
    # what a person reads as a host is at the start: the first MAX_HOST characters
    what = _looks_like_host(unquote(user[:MAX_HOST], errors="surrogateescape"), registry)
    if what is None and colon:
        what = _looks_like_host(unquote(userinfo[:MAX_HOST], errors="surrogateescape"), registry)
        what = None if what is None else "a host or a URL (with its password part)"
    if what is not None:
        findings.append(
            finding(
                "misleading-userinfo",
                f"the userinfo looks like {what}, but the host is {shown(host)}: "
                "the part before '@' is not where the URI leads (RFC 3986 §7.6)",
                Severity.HIGH,
                where(span),
                "userinfo",
            )
        )


# --- §7.4: hosts --------------------------------------------------------------------


def _check_host(
    ref: Reference, findings: list[Report], where: Mapper, given: str, internal: bool
) -> None:
    host = ref.host
    span = ref.span("host")
    if not host or span is None:
        return
    kind = ref.host_type
    reason: str | None = None
    if kind in ("ipv4", "ipv6"):
        address = ref.ip
        if address is not None:
            reason = internal_reason(address)
        if reason is None and ref.zone_id is not None:
            reason = f"scoped to a link of this host (zone ID {quote(ref.zone_id)})"
    elif kind == "reg-name":
        name = read_host(host)
        if name is not None:
            address = lenient_ipv4(name)
            if address is not None:
                findings.append(
                    finding(
                        "ipv4-rare-format",
                        f"the host {shown(host)} is not a dotted-decimal IPv4address, but "
                        f"inet_aton()-style resolvers read it as {address} (RFC 3986 §7.4)",
                        Severity.MEDIUM,
                        where(span),
                        "host",
                    )
                )
                reason = internal_reason(address)
            elif is_localhost_name(name):
                reason = "a name of the local host (RFC 6761 §6.3)"
        _check_labels(host, span, findings, where)
        if not (ref.scheme or "").lower().endswith("+unix"):
            _check_obfuscated(host, given[slice(*where(span))], findings, where(span))
    if reason is not None and internal and (ref.scheme or "").lower() != "file":
        findings.append(
            finding(
                "internal-address",
                f"the host {shown(host)} is {reason}: not a public address, a common "
                "target of server-side request forgery",
                Severity.MEDIUM,
                where(span),
                "host",
            )
        )


def _check_labels(host: str, span: tuple[int, int], findings: list[Report], where: Mapper) -> None:
    labels = suspicious_labels(host, MAX_FINDINGS)
    for label in labels:
        raw = host[label.start : label.end]
        label_text = quote(label.text) + ("" if raw == label.text else f" ({printable(raw)})")
        if label.mixed:
            what = f"mixes {' and '.join(sorted(label.scripts))} letters"
        else:
            what = f"is written in {' and '.join(sorted(label.scripts))} letters"
        if label.looks_like is not None:
            what += f" and looks like the ASCII {quote(label.looks_like)}"
        findings.append(
            finding(
                "mixed-script-host",
                f"the host label {label_text} {what}: a possible homograph",
                Severity.HIGH,
                where((span[0] + label.start, span[0] + label.end)),
                "host",
            )
        )
    if len(labels) == MAX_FINDINGS and labels[-1].end < len(host):
        rest = labels[-1].end + 1
        findings.append(
            finding(
                "mixed-script-host",
                f"the labels of the host after the first {MAX_FINDINGS} that mix scripts or "
                f"look like ASCII ({len(host) - rest} characters, from the start of this "
                "span to its end) were not examined one by one: a possible homograph",
                Severity.HIGH,
                where((span[0] + rest, span[1])),
                "host",
            )
        )


#: A pct-encoded octet below 0x80: an ASCII character (RFC 3986 §2.1).
_ASCII_TRIPLET: Final = re.compile(f"%[0-7][{HEXDIG}]")
_SHOWN_CHANGES: Final = 3


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def _check_obfuscated(host: str, raw: str, findings: list[Report], span: tuple[int, int]) -> None:
    """``obfuscated-host``: a reg-name whose meaning differs from its text.

    ``host`` is the reg-name read, ``raw`` its text as given.  Two spellings
    hide the name that resolvers and browsers use (the WHATWG host parser
    percent-decodes, then applies UTS #46): percent-encoded ASCII, which always
    has a plain form (RFC 3986 §6.2.2.2 decodes unreserved octets), and
    characters that UTS #46 maps to something other than their lower case.
    Percent-encoded UTF-8 of non-ASCII characters is the form RFC 3986 §3.2.2
    gives for internationalized names, and is not reported by itself; neither
    is the host of a ``+unix`` scheme (``http+unix://%2Frun%2Fapp.sock/``),
    which is an encoded socket path, not a name.
    """
    if host.isascii() and "%" not in host and "%" not in raw:
        return  # no triplet, and UTS #46 only lowers the case of ASCII
    encoded = list(dict.fromkeys(m.group().upper() for m in _ASCII_TRIPLET.finditer(raw)))
    try:
        decoded = unquote(host, errors="strict")
    except UnicodeDecodeError:
        return  # not UTF-8 once decoded: reported as invalid-utf8
    mapped, changes = uts46_changes(decoded)
    if not encoded and not changes:
        return
    reasons: list[str] = []
    if encoded:
        listed = ", ".join(encoded[:_SHOWN_CHANGES]) + (
            ", ..." if len(encoded) > _SHOWN_CHANGES else ""
        )
        reasons.append(f"percent-encodes ASCII ({listed})")
    if changes:
        distinct = list(dict.fromkeys(changes))
        listed = ", ".join(
            f"{_describe(ch)} to {quote(target) if target else 'nothing'}"
            for ch, target in distinct[:_SHOWN_CHANGES]
        )
        more = len(distinct) - _SHOWN_CHANGES
        more_text = f" and {more} more" if more > 0 else ""
        reasons.append(f"holds characters that UTS #46 maps ({listed}{more_text})")
    findings.append(
        finding(
            "obfuscated-host",
            f"the host {shown(raw)} {' and '.join(reasons)}: decoded and mapped, as "
            f"browsers and resolvers read hosts, it is {shown(mapped)}, which its text "
            "does not show",
            Severity.MEDIUM,
            span,
            "host",
        )
    )


# --- §7.2: ports ----------------------------------------------------------------------

_WEB: Final = frozenset({"http", "https", "ws", "wss"})
#: Schemes that name a transport, not an application protocol: any service may
#: listen on their port (``tcp://127.0.0.1:2375`` is how Docker names its socket).
_TRANSPORTS: Final = frozenset({"tcp", "udp", "tls", "ssl"})


def _family(name: str) -> str:
    """Protocols that speak alike: the web schemes, and ``x``/``xs`` (TLS) pairs."""
    return "web" if name in _WEB else name.removesuffix("s")


def check_port(
    ref: Reference, registry: SchemeRegistry, findings: list[Report], where: Mapper
) -> None:
    """``unusual-port``: a port above 65535, or the well-known port of another
    protocol than the scheme's (RFC 3986 §7.2)."""
    port = ref.port
    span = ref.span("port")
    if not port or span is None:
        return
    significant = port.lstrip("0")
    number = int(significant) if len(significant) <= 5 and significant else 0
    if len(significant) > 5:
        number = 65536
    if number > 65535:
        digits = significant if len(significant) <= 20 else significant[:20] + "..."
        findings.append(
            finding(
                "unusual-port",
                f"the port {digits} is above 65535: no TCP or UDP port has that number, and "
                "software that truncates it connects elsewhere",
                Severity.MEDIUM,
                where(span),
                "port",
            )
        )
        return
    scheme = (ref.scheme or "").lower()
    if scheme in _TRANSPORTS or (scheme and registry.default_port(scheme) == number):
        return
    owners = registry.port_owner(number)
    if not owners or (scheme and any(_family(o) == _family(scheme) for o in owners)):
        return
    findings.append(
        finding(
            "unusual-port",
            f"the port {number} is the well-known port of {', '.join(owners)}, not of "
            f"{scheme or 'this reference'}: a request there may be read as another "
            "protocol's commands (RFC 3986 §7.2)",
            Severity.MEDIUM,
            where(span),
            "port",
        )
    )


# --- §7.2, §7.3: percent-encoded octets ---------------------------------------------------


def check_encoded(
    text: str,
    component: str | None,
    span: tuple[int, int],
    findings: list[Report],
    where: Mapper,
) -> None:
    """``encoded-control`` and ``invalid-utf8`` in ``text[span]``.

    Only a run of triplets that holds a control or an octet above 0x7F can give
    either: each such run is found from one of those octets (triplets cannot
    overlap, so the run is the same read backwards as forwards).  Past
    ``MAX_FINDINGS`` findings, the runs after them are one finding more.
    """
    reported = 0  # runs that gave a finding
    for start, _, octets in _concerns(text, span[0], span[1]):
        if reported == MAX_FINDINGS:
            _rest_of_runs(text, component, (start, span[1]), findings, where)
            return
        before = len(findings)
        controls = octets.translate(None, NOT_CONTROLS)  # in C, not an int per octet
        present = {b for b in _CONTROLS if b in controls} if controls else set()
        if present:
            order = sorted(present, key=octets.find)
            names = ", ".join(_NAMES.get(b, f"0x{b:02X}") for b in order)
            worst = not present.isdisjoint(_WORST)
            first = start + 3 * octets.find(order[0])
            last = start + 3 * max(octets.rfind(b) for b in present) + 3
            findings.append(
                finding(
                    "encoded-control",
                    f"percent-encoded control characters ({names}): decoded before they "
                    "reach another protocol, they can inject commands or headers, or cut a "
                    "string (RFC 3986 §7.2, §7.3)",
                    Severity.HIGH if worst else Severity.MEDIUM,
                    where((first, last)),
                    component,
                )
            )
        try:
            octets.decode("utf-8")
        except UnicodeDecodeError as error:
            first = start + 3 * error.start
            findings.append(
                finding(
                    "invalid-utf8",
                    f"the octets {text[first : start + 3 * error.end]} are not "
                    "UTF-8: servers that transcode them disagree on what they mean "
                    "(RFC 3986 §7.3)",
                    Severity.LOW,
                    where((first, start + 3 * error.end)),
                    component,
                )
            )
        reported += len(findings) > before


#: The first window of text whose runs of triplets are listed at once, and how it grows.
_FIRST_WINDOW: Final = 4096
_GROWTH: Final = 8


def _concerns(text: str, start: int, end: int) -> Iterator[tuple[int, int, bytes]]:
    """``concern_runs(text, start, end)``, listed a window at a time, each eight times as
    long as the last: a caller that stops after a few runs reads a few windows, and one
    that reads them all reads the text once and a seventh.  A run that reaches a window's
    end is listed again from its start with the next window, where it may go on."""
    width = _FIRST_WINDOW
    while start < end:
        stop = min(end, start + width)
        if stop < end:
            # not inside a triplet (§2.1): one that begins 1 or 2 before goes whole next
            stop -= 1 if text[stop - 1] == "%" else 2 if text[stop - 2] == "%" else 0
        runs = list(concern_runs(text, start, stop))
        if stop < end and runs and runs[-1][1] == stop:
            *runs, last = runs
            stop = last[0]
        yield from runs
        if stop == start:  # one run fills the window: read it with a wider one
            width *= _GROWTH
            continue
        start = stop
        width *= _GROWTH


def _rest_of_runs(
    text: str,
    component: str | None,
    span: tuple[int, int],
    findings: list[Report],
    where: Mapper,
) -> None:
    """The one finding of the runs of triplets in ``text[span]`` that come after
    ``MAX_FINDINGS`` runs of concern: they are counted, not read one by one."""
    findings.append(
        finding(
            "encoded-control",
            f"{text.count('%', *span)} more percent-encoded octets after the first "
            f"{MAX_FINDINGS} runs of controls or octets that are not UTF-8, from the start "
            "of this span to its end, were not examined one run at a time (RFC 3986 §7.2, "
            "§7.3)",
            Severity.HIGH,
            where(span),
            component,
        )
    )


def _decode_all(text: str, rounds: int = 3) -> str:
    """``text`` percent-decoded up to ``rounds`` times (double encoding undone), a run
    of triplets at a time (as ``unquote(text, errors="surrogateescape")``)."""
    for _ in range(rounds):
        decoded = decode_once(text)
        if decoded == text:
            break
        text = decoded
    return text


_SEPARATORS: Final = re.compile(r"[/\\]")


def _may_traverse(text: str, start: int, end: int) -> bool:
    """Can ``text[start:end]``, a part of a reference's path or query (each "%" begins a
    triplet), decode to a "." in some round, read where it lies?

    A "." that decoding makes is a "%2E" decoded, and a "%2E" that a round of
    decoding makes begins with a "%25" decoded (the only "%" left after it) followed
    by a "2" or a "%32": without "." and "%2E", and without "%252" and "%25%32",
    decoding makes no "." in any round (each found in one pass in C).
    """
    if text.find("%", start, end) < 0:
        return False
    return (
        text.find(".", start, end) >= 0
        or encodes_any(text, b".", None, start, end)
        or encodes_any(text, b"%", b"2", start, end)
    )


def _traverses(raw: str) -> str | None:
    """The decoded form of an encoded ``raw``, a part of a reference's path or query
    (each "%" begins a triplet), when it holds a "." or ".." segment."""
    return _decoded_traversal(raw) if _may_traverse(raw, 0, len(raw)) else None


def _decoded_traversal(raw: str) -> str | None:
    """:func:`_traverses` for a ``raw`` that :func:`_may_traverse` lets through."""
    decoded = _decode_all(raw)
    if "." not in decoded:
        return None
    parts = _SEPARATORS.split(decoded)
    return decoded if any(part in (".", "..") for part in parts) else None


_QUERY_SEPARATORS: Final = re.compile("[&;=]")


def _ends(text: str, separators: re.Pattern[str] | None, start: int, end: int) -> Iterator[int]:
    """Where the parts of ``text[start:end]`` end: at each "/" (``separators`` None,
    each found by ``str.find``) or each match of ``separators``, and at ``end``."""
    if separators is None:
        at = text.find("/", start, end)
        while at >= 0:
            yield at
            at = text.find("/", at + 1, end)
    else:
        for match in separators.finditer(text, start, end):
            yield match.start()
    yield end


def _check_dot_segments(ref: Reference, findings: list[Report], where: Mapper) -> None:
    """``encoded-dot-segment``: "%2E%2E", "..%2F" and the like (RFC 3986 §7.3).
    Past ``MAX_FINDINGS`` findings, the parts after them are one finding more."""
    text = str(ref)
    places: tuple[tuple[Component, re.Pattern[str] | None], ...] = (
        ("path", None),  # "/" alone, found by str.find
        ("query", _QUERY_SEPARATORS),
    )
    made = 0
    for component, separators in places:
        span = ref.span(component)
        if span is None:
            continue
        start = span[0]
        for index in _ends(text, separators, span[0], span[1]):
            # read in place before any copy: a hostile path is one segment of megabytes
            raw, decoded = "", None
            if _may_traverse(text, start, index):
                raw = text[start:index]
                decoded = _decoded_traversal(raw)
            if decoded is not None:
                if made == MAX_FINDINGS:
                    _rest_of_segments(ref, component, start, findings, where)
                    return
                made += 1
                findings.append(
                    finding(
                        "encoded-dot-segment",
                        f"{shown(raw)} decodes to {shown(decoded)}: a dot-segment that "
                        "remove_dot_segments (§5.2.4) did not see, which traverses "
                        "directories once decoded (RFC 3986 §7.3)",
                        Severity.HIGH,
                        where((start, index)),
                        component,
                    )
                )
            start = index + 1


def _rest_of_segments(
    ref: Reference, component: Component, start: int, findings: list[Report], where: Mapper
) -> None:
    """The one finding of the parts of the path and query from ``start`` on, which come
    after ``MAX_FINDINGS`` encoded dot-segments: not read one by one."""
    query = ref.span("query")
    end = query[1] if query is not None else (ref.span(component) or (start, start))[1]
    where_in = "path and query" if component == "path" and query is not None else component
    findings.append(
        finding(
            "encoded-dot-segment",
            f"the {end - start} characters of the {where_in} "
            f"after the first {MAX_FINDINGS} encoded dot-segments, from the start of this "
            "span to its end, were not examined one segment at a time: more may traverse "
            "directories once decoded (RFC 3986 §7.3)",
            Severity.HIGH,
            where((start, end)),
            component,
        )
    )
