"""Parser differentials: where other URL parsers read a reference differently.

A filter that checks a URL with one parser and a client that fetches it with
another is bypassed wherever the two disagree on the scheme, the userinfo,
the host or the port.  Two other readers are compared with urikit's:

* ``urllib.parse.urlsplit`` (the Python standard library), and
* the WHATWG URL Standard, as browsers and many HTTP clients read URLs: the
  ``ada_url`` package when it is installed (the ``whatwg`` extra), or else
  :func:`whatwg_authority`, which applies the WHATWG rules that matter for
  these four components (white space stripped and removed, "\\" as "/" in
  special schemes, the authority of a special URL found after any slashes,
  the userinfo ending at the last "@").

Readings are compared for *meaning*, not text: schemes and hosts without
case (RFC 3986 §3.1, §3.2.2), hosts percent-decoded, UTS #46-mapped and read
as addresses where inet_aton() would, ports against the scheme's default
(§3.2.3, §6.2.3), userinfo percent-decoded.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from types import ModuleType
from typing import Final, NamedTuple
from urllib.parse import unquote, urlsplit

from .. import punycode
from ..grammar import ALPHA, DIGIT, URI_GRAMMAR
from ..host import parse_host
from ..report import Report, Severity, quote
from ..schemes import DEFAULT_REGISTRY, SchemeRegistry
from ..types import Component
from .bounds import MAX_FINDINGS
from .findings import Mapper, Reference, finding, identity, run_message
from .hosts import lenient_ipv4, read_host

ada_url: ModuleType | None
try:
    import ada_url
except ImportError:  # the optional ``whatwg`` extra
    ada_url = None

__all__ = [
    "PLAIN_NAME",
    "PLAIN_USER",
    "SPECIAL_SCHEMES",
    "Reading",
    "agree",
    "check_differential",
    "compare",
    "differential_findings",
    "read_urllib",
    "read_whatwg",
]

#: A scheme and its ":" (RFC 3986 §3.1).
_SCHEME: Final = re.compile(URI_GRAMMAR.sources["scheme"] + ":")
#: WHATWG URL Standard "special schemes".
SPECIAL_SCHEMES: Final = frozenset({"ftp", "file", "http", "https", "ws", "wss"})
#: The base a relative reference is read against by the WHATWG reader.
PLACEHOLDER_BASE: Final = "http://urikit.invalid/"
_PLACEHOLDER_HOST: Final = "urikit.invalid"
#: C0 controls and space, which the WHATWG parser and urlsplit strip at the ends.
_C0_SPACE: Final = "".join(map(chr, range(0x21)))
_REMOVED: Final = "\t\n\r"
_DELETED_RUN: Final = re.compile("[\t\n\r]+")


class Reading(NamedTuple):
    """What one parser reads: scheme, userinfo, host, port; None for "no authority"."""

    scheme: str | None
    userinfo: str | None
    host: str | None
    port: str | None


def _split_hostport(hostport: str) -> tuple[str, str | None]:
    if hostport.startswith("["):
        host, bracket, rest = hostport.partition("]")
        port = rest[1:] if rest.startswith(":") else None
        return host + bracket, port
    host, colon, port = hostport.partition(":")
    return host, port if colon else None


def read_urllib(text: str) -> Reading | None:
    """What ``urllib.parse.urlsplit`` reads, or None when it refuses the text."""
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    scheme = parts.scheme or None
    if not parts.netloc:
        return Reading(scheme, None, None, None)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    host, port = _split_hostport(hostport)
    return Reading(scheme, userinfo if at else None, host, port)


#: The URL Standard's forbidden domain code points (§3.2 "host representation").
_FORBIDDEN_DOMAIN: Final = frozenset(" #/:<>?@[\\]^|" + "".join(map(chr, range(0x20))) + "\x7f")


def whatwg_authority(text: str) -> Reading | None:
    """The WHATWG URL Standard's reading of the scheme and authority, by its rules
    (§4.4 "basic URL parser"); a relative reference is read against a special base."""
    text = text.strip(_C0_SPACE)
    for ch in _REMOVED:
        text = text.replace(ch, "")
    scheme: str | None = None
    rest = text
    match = _SCHEME.match(text)
    if match is not None:
        scheme, rest = match.group()[:-1].lower(), text[match.end() :]
    special = scheme is None or scheme in SPECIAL_SCHEMES
    if special:
        end = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
        rest = rest[:end].replace("\\", "/") + rest[end:]
    if special and scheme is not None and scheme != "file":
        rest = rest.lstrip("/")
    elif rest.startswith("//"):
        rest = rest[2:]
    else:
        return Reading(scheme, None, None, None)
    end = min((i for i in map(rest.find, "/?#") if i >= 0), default=len(rest))
    authority = rest[:end]
    userinfo, at, hostport = authority.rpartition("@")
    host, port = _split_hostport(hostport)
    if port and not (port.isascii() and port.isdigit() and _port_number(port) < 65536):
        return None
    if host.startswith("[") and "%" in host:
        return None  # the URL Standard has no IPv6 zone IDs
    if special and not host.startswith("[") and any(ch in _FORBIDDEN_DOMAIN for ch in host):
        return None  # a "forbidden domain code point" fails the host parser
    return Reading(scheme, userinfo if at else None, host, port)


#: A URL of a special scheme other than "file" (URL Standard §4.4: "ftp", "http",
#: "https", "ws", "wss") up to the first "/", "\\", "?" or "#" after the slashes that
#: follow its scheme, without a C0 control or space (which the parser strips or
#: deletes): its authority (the group), which that character ends.
_SPECIAL_HEAD: Final = re.compile(r"(?i:ftp|https?|wss?):[/\\]*([^\x00-\x20/\\?#]*)")
#: The beginning of a relative reference that the URL Standard reads as a path against
#: a base (§4.4, "scheme start state", "no scheme state", "relative state"): after the
#: C0 controls and spaces that it strips, a character that begins no scheme and is not
#: "/", "\\", "?" or "#"; or a letter and scheme characters (and the tab, CR and LF that
#: it deletes) up to a character that ends them and is not ":".
_PATH_HEAD: Final = re.compile(
    r"[\x00-\x20]*(?:[^\x00-\x20A-Za-z/\\?#]"
    r"|[A-Za-z][A-Za-z0-9+.\-\t\n\r]*[^A-Za-z0-9+.\-\t\n\r:])"
)


def _decisive(text: str, relative: bool) -> str:
    """The beginning of ``text`` past which the URL Standard's basic URL parser (§4.4)
    neither fails nor changes the scheme, userinfo, host or port it has read.

    * A relative reference, read against the special base, that begins with a
      path (``_PATH_HEAD``): that beginning (the host is the base's, and the path,
      query and fragment states never fail).
    * A URL of a special scheme other than "file" (whose path can name a drive,
      which empties the host): its scheme and authority, and the character that
      ends the authority.  An authority that ends in "@" is as one "@": the
      authority state fails there (no host), and the path state, which reads it
      when the URL is relative to a base of its scheme, never does.
    * Else ``text`` itself.
    """
    path = _PATH_HEAD.match(text) if relative else None
    if path is not None:
        return text[: path.end()]
    head = _SPECIAL_HEAD.match(text)
    if head is None or text[head.end() : head.end() + 1] not in ("", "/", "\\", "?", "#"):
        return text
    if head.group(1).endswith("@"):
        return text[: head.start(1)] + "@"
    return text[: head.end() + 1]


def _read_ada(text: str, relative: bool) -> Reading | None:
    """ada's reading of the beginning of ``text`` that decides it (:func:`_decisive`)."""
    return _ada_reading(_decisive(text, relative), relative)


def _ada_reading(text: str, relative: bool) -> Reading | None:
    assert ada_url is not None
    try:
        url = ada_url.URL(text, PLACEHOLDER_BASE) if relative else ada_url.URL(text)
    except ValueError:
        return None
    scheme: str | None = url.protocol[:-1]
    userinfo = url.username + (":" + url.password if url.password else "")
    host, port = url.hostname, url.port
    if relative:
        if (host, port, userinfo) == (_PLACEHOLDER_HOST, "", ""):
            return Reading(None, None, None, None)
        scheme = None
    return Reading(scheme, userinfo or None, host or None, port or None)


def read_whatwg(text: str, relative: bool) -> Reading | None:
    """The WHATWG reading: ``ada_url`` if installed, else :func:`whatwg_authority`."""
    if has_ada():
        return _read_ada(text, relative)
    return whatwg_authority(text)


def has_ada() -> bool:
    """Is the optional WHATWG parser (``ada_url``, the ``whatwg`` extra) installed?"""
    return ada_url is not None


# --- comparison ----------------------------------------------------------------


def _host_key(host: str | None, scheme: str) -> object:
    if not host:
        return ""
    if scheme == "file" and host.lower() == "localhost":
        return ""  # RFC 8089 §2: "localhost" is the empty host
    if host.startswith("["):
        try:
            return ipaddress.IPv6Address(parse_host(host).address)
        except ValueError:
            return host.lower()
    name = read_host(host)
    if name is None:
        return host.lower()
    address = lenient_ipv4(name)
    if address is not None:
        return address
    return ".".join(_ace(label) for label in name.lower().split("."))


def _ace(label: str) -> str:
    """The ASCII form of a label (RFC 3492), without IDNA2008's stricter validity rules,
    as the URL Standard's UTS #46 processing gives it."""
    if label.isascii():
        return label
    try:
        return "xn--" + punycode.encode(label)
    except punycode.PunycodeError:
        return label


def _port_number(digits: str) -> int:
    """The value of a port's digits; any number past 65535 reads as 65536."""
    significant = digits.lstrip("0")
    if not significant:
        return 0
    return int(significant) if len(significant) <= 5 else 65536


def _port_key(port: str | None, scheme: str, registry: SchemeRegistry) -> int | str | None:
    if not port:
        return registry.default_port(scheme) if scheme else None
    if not (port.isascii() and port.isdigit()):
        return port
    number = _port_number(port)
    return number if number < 65536 else port.lstrip("0")


def _userinfo_key(userinfo: str | None) -> str:
    if not userinfo:
        return ""
    # unquote(), not percent_decode(): another parser's userinfo may hold a bare "%"
    return unquote(userinfo, errors="surrogateescape").removesuffix(":")


def compare(
    ours: Reading, theirs: Reading, registry: SchemeRegistry = DEFAULT_REGISTRY
) -> list[Component]:
    """The components (scheme, userinfo, host, port) whose meaning differs."""
    differs: list[Component] = []
    scheme = (ours.scheme or "").lower()
    if ours.scheme is not None and theirs.scheme is not None and scheme != theirs.scheme.lower():
        differs.append("scheme")
    if ours.host is None and theirs.host is None:
        return differs
    if _userinfo_key(ours.userinfo) != _userinfo_key(theirs.userinfo):
        differs.append("userinfo")
    if _host_key(ours.host, scheme) != _host_key(theirs.host, scheme):
        differs.append("host")
    if _port_key(ours.port, scheme, registry) != _port_key(theirs.port, scheme, registry):
        differs.append("port")
    return differs


# --- parser differentials ---------------------------------------------------------


def _masked(component: str, value: str | None) -> str | None:
    """A userinfo with its password masked (RFC 3986 §7.5); other values as they are."""
    if component != "userinfo" or value is None:
        return value
    user, colon, password = value.partition(":")
    return user + colon + ("***" if password else "")


def differential_findings(
    text: str, ref: Reference | None, registry: SchemeRegistry = DEFAULT_REGISTRY
) -> list[Report]:
    """The ``parser-differential`` findings of ``text``, which urikit reads as ``ref``."""
    findings: list[Report] = []
    check_differential(text, ref, identity, registry, findings)
    return findings


#: A reg-name that every reader takes as it is: ASCII letters, digits, hyphens and
#: underscores in dot-separated labels, the last beginning with a letter (so that
#: the URL Standard's IPv4 parser, which reads a host whose last label is a number,
#: and inet_aton() leave it alone).  An ``xn--`` label is left out by ``agree``.
PLAIN_NAME: Final = re.compile(f"(?:[{ALPHA}{DIGIT}_-]+\\.)*[{ALPHA}][{ALPHA}{DIGIT}_-]*")
#: A userinfo that every reader takes as it is: a user name of letters, digits,
#: ".", "_" and "-", which no reader percent-encodes, without a password.
PLAIN_USER: Final = re.compile(f"[{ALPHA}{DIGIT}._-]+")
_PORT_DIGITS: Final = 5


def agree(text: str, ref: Reference) -> bool:
    """Do urllib.parse and WHATWG parsers read ``text`` as urikit reads it (``ref``)?

    True only where none of the characters and forms on which they can
    disagree occurs: the text is an ASCII URI reference (so no white space,
    control or backslash); its authority, if any, has no userinfo but a plain
    user name (``PLAIN_USER``), a plain host name (``PLAIN_NAME``, no ``xn--``
    label) or a dotted-decimal IPv4address, and a port of at most 65535; a
    special scheme (WHATWG) has an authority; a ``file`` URL has no port and
    a plain or empty host, not "localhost" (RFC 8089 §2).  When it is true,
    :func:`check_differential` finds nothing (a test checks this on real and
    generated URLs); when false, it may or may not.
    """
    if not text.isascii() or str(ref) != text:
        return False
    host = ref.host
    scheme = (ref.scheme or "").lower()
    if host is None:
        return scheme not in SPECIAL_SCHEMES
    userinfo = ref.userinfo
    if userinfo is not None and PLAIN_USER.fullmatch(userinfo) is None:
        return False
    port = ref.port
    if scheme == "file":
        # a file: host may be a drive letter ("file://C:/") to WHATWG, and has no port
        if port is not None or userinfo is not None:
            return False
        return host == "" or (
            PLAIN_NAME.fullmatch(host) is not None
            and "xn--" not in host.lower()
            and host.lower() != "localhost"
        )
    if port and (len(port) > _PORT_DIGITS or int(port) > 65535):
        return False
    if ref.host_type == "ipv4":
        return True
    return PLAIN_NAME.fullmatch(host) is not None and "xn--" not in host.lower()


def _rest_of_deleted(
    text: str, start: int, add: Callable[[str, str | None, tuple[int, int]], None]
) -> None:
    """The one finding of the tabs, CRs and LFs from ``start`` on, which come after
    ``MAX_FINDINGS`` runs of them: counted, not reported run by run."""
    chars = sum(text.count(ch, start) for ch in _REMOVED)
    last = max(text.rfind(ch) for ch in _REMOVED) + 1
    add(
        f"urllib.parse and WHATWG parsers delete tabs, CRs and LFs anywhere in a URL: "
        f"{chars} more of them after the first {MAX_FINDINGS} runs, from the start of this "
        "span to its end; urikit does not",
        None,
        (start, last),
    )


def check_differential(
    text: str,
    ref: Reference | None,
    where: Mapper,
    registry: SchemeRegistry,
    findings: list[Report],
) -> None:
    """``parser-differential``: what urlsplit and WHATWG parsers read differently."""

    def add(message: str, component: str | None, span: tuple[int, int]) -> None:
        findings.append(finding("parser-differential", message, Severity.HIGH, span, component))

    stripped = text.strip(_C0_SPACE)
    if stripped != text:
        lead = len(text) - len(text.lstrip(_C0_SPACE))
        span = (0, lead) if lead else (len(stripped) + lead, len(text))
        add(
            "urllib.parse and WHATWG parsers strip leading and trailing spaces and C0 "
            "controls before parsing; urikit does not",
            None,
            span,
        )
    runs = _DELETED_RUN.finditer(text) if any(ch in text for ch in _REMOVED) else ()
    for count, deleted in enumerate(runs):
        if count == MAX_FINDINGS:
            _rest_of_deleted(text, deleted.start(), add)
            break
        message = (
            f"urllib.parse and WHATWG parsers delete {quote(deleted.group()[0])} anywhere in "
            "a URL, joining what it separates; urikit does not"
        )
        add(run_message(message, len(deleted.group()), deleted.span()), None, deleted.span())
    body = stripped.lstrip()
    match = _SCHEME.match(body)
    scheme = match.group()[:-1].lower() if match else None
    if scheme is None or scheme in SPECIAL_SCHEMES:
        end = min((i for i in map(text.find, "?#") if i >= 0), default=len(text))
        index = text.find("\\", 0, end)
        if index >= 0:
            add(
                f"WHATWG parsers read a backslash as '/' in {scheme or 'relative'} URLs "
                "(it can end the host); urikit and urllib.parse do not",
                None,
                (index, index + 1),
            )
    ours = None if ref is None else Reading(ref.scheme, ref.userinfo, ref.host, ref.port)
    relative = ref.scheme is None if ref is not None else scheme is None
    others = (
        ("urllib.parse.urlsplit", read_urllib(text)),
        ("the WHATWG URL parser", read_whatwg(text, relative)),
    )
    for name, theirs in others:
        if ours is None:
            if theirs is not None and theirs.host:
                add(
                    f"urikit cannot read this reference, but {name} reads the host as "
                    f"{quote(theirs.host)}"
                    + ("" if theirs.userinfo is None else " after a userinfo"),
                    "host",
                    (0, len(text)),
                )
            continue
        assert ref is not None
        if theirs is None:
            if ours.host is not None:
                add(f"{name} refuses this URL", None, (0, len(text)))
            continue
        for component in compare(ours, theirs, registry):
            mine = _masked(component, getattr(ours, component))
            other = _masked(component, getattr(theirs, component))
            span = ref.span(component) or ref.span("authority") or (0, len(str(ref)))
            add(
                f"{name} reads the {component} as "
                f"{'nothing' if other is None else quote(other)}, urikit as "
                f"{'nothing' if mine is None else quote(mine)}",
                component,
                where(span),
            )
