"""The hosts that other readings of a text land on, judged as the audit judges its own.

:func:`urikit.audit` reads a text strictly (or as an IRI), or, where it cannot,
after the repairs of a lenient parse.  Software that acts on the text may read
it otherwise: a browser deletes a tab and reads "\\" as "/" (the WHATWG URL
Standard), ``urllib.parse`` ends the userinfo at the last "@".  A filter that
looks for ``internal-address`` alone misses ``http://127.0.0.1\\t/``, whose
host a browser reads as 127.0.0.1.  :data:`READINGS` lists the readings the
audit computes, each a function from the text to the host it reads (or None);
:func:`check_readings` reports ``internal-address`` for every internal host
that one of them reads and urikit's own strict reading does not, naming the
readings.  The WHATWG reading is urikit's own, :class:`urikit.whatwg.URL`
(through :func:`~urikit.security.differential.read_whatwg`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Final, NamedTuple

from ..grammar import URI_GRAMMAR
from ..host import split_zone
from ..report import Report, Severity, quote
from .addresses import internal_reason
from .differential import read_urllib, read_whatwg
from .findings import Mapper, Reference, finding, shown
from .hosts import is_localhost_name, lenient_ipv4, read_host

__all__ = [
    "READINGS",
    "HostReading",
    "Texts",
    "check_readings",
    "host_reason",
    "lenient_host",
    "urllib_host",
    "whatwg_host",
]


class Texts(NamedTuple):
    """What a reading reads: the text as given, and the reference that a lenient
    repair of it gave when the strict reading failed (else None)."""

    text: str
    repaired: Reference | None


#: A reading: the host it reads in a text, or None for no host.
HostReading = Callable[[Texts], str | None]

#: A scheme after the C0 controls and spaces that parsers strip (URL Standard §4.4).
_SCHEME_AFTER_SPACE: Final = re.compile("[\x00-\x20]*" + URI_GRAMMAR.sources["scheme"] + ":")


def lenient_host(texts: Texts) -> str | None:
    """The host of urikit's lenient repair (``URI.lenient``, RFC 3986 Appendix C)."""
    return None if texts.repaired is None else texts.repaired.host


def urllib_host(texts: Texts) -> str | None:
    """The host that ``urllib.parse.urlsplit`` reads."""
    reading = read_urllib(texts.text)
    return None if reading is None else reading.host


def whatwg_host(texts: Texts) -> str | None:
    """The host that the WHATWG URL Standard's basic URL parser reads (§4.4); a
    relative reference is read against a base of another host, and has none."""
    relative = _SCHEME_AFTER_SPACE.match(texts.text) is None
    reading = read_whatwg(texts.text, relative)
    return None if reading is None else reading.host


#: The readings of a text that the audit computes besides its own strict one, by name.
READINGS: Final[tuple[tuple[str, HostReading], ...]] = (
    ("the lenient repair", lenient_host),
    ("urllib.parse.urlsplit", urllib_host),
    ("the WHATWG URL parser", whatwg_host),
)


def _identity(host: str) -> object:
    """What ``host`` names, to tell two readings of it apart: an address, or a name
    as resolvers read it (percent-decoded, UTS #46-mapped, without final dots)."""
    if host.startswith("["):
        inner, zone = split_zone(host[1:].removesuffix("]"))
        try:
            return (ipaddress.IPv6Address(inner), zone or "")
        except ValueError:
            return host.lower()
    name = read_host(host)
    if name is None:
        return host.lower()
    address = lenient_ipv4(name)
    return name.rstrip(".") if address is None else address


def host_reason(host: str) -> str | None:
    """Why the host ``host`` (as a reading gives it) is internal, or None.

    An IP literal is judged by its address (a zone ID names a link of this host,
    RFC 6874); a reg-name by the IPv4 address an inet_aton()-style resolver reads in
    it (RFC 3986 §7.4), or as a name of the local host (RFC 6761 §6.3).
    """
    if host.startswith("["):
        inner, zone = split_zone(host[1:].removesuffix("]"))
        if zone is not None:
            return f"scoped to a link of this host (zone ID {quote(zone)})"
        try:
            return internal_reason(ipaddress.IPv6Address(inner))
        except ValueError:
            return None
    name = read_host(host)
    if name is None:
        return None
    address = lenient_ipv4(name)
    if address is not None:
        return internal_reason(address)
    if is_localhost_name(name):
        return "a name of the local host (RFC 6761 §6.3)"
    return None


def _names(names: list[str]) -> str:
    if len(names) == 1:
        return f"{names[0]} reads"
    return f"{', '.join(names[:-1])} and {names[-1]} read"


def check_readings(
    texts: Texts,
    ours: Reference | None,
    where: Mapper,
    findings: list[Report],
) -> None:
    """``internal-address``, for the internal hosts that the :data:`READINGS` of
    ``texts`` land on and ``ours``, urikit's strict reading (None when there is
    none), does not.  One finding per host, naming every reading that reads it; its
    span is the host in the text where a reading's host is written as it is, else
    the text.  ``where`` maps spans of the lenient repair to the text.
    """
    scheme = ours.scheme if ours is not None else None
    if scheme is None and texts.repaired is not None:
        scheme = texts.repaired.scheme
    if (scheme or "").lower() == "file":
        return  # a file: host is always local (RFC 8089 §2)
    own = None if ours is None or not ours.host else _identity(ours.host)
    found: dict[object, tuple[list[str], str, str, tuple[int, int]]] = {}
    for name, reading in READINGS:
        host = reading(texts)
        if not host:
            continue
        key = _identity(host)
        if key == own:
            continue
        if key in found:
            found[key][0].append(name)
            continue
        reason = host_reason(host)
        if reason is None:
            continue
        found[key] = ([name], host, reason, _span(texts, host, reading is lenient_host, where))
    for names, host, reason, span in found.values():
        findings.append(
            finding(
                "internal-address",
                f"{_names(names)} the host as {shown(host)}, which is {reason}: not a "
                "public address, a common target of server-side request forgery",
                Severity.MEDIUM,
                span,
                "host",
            )
        )


def _span(texts: Texts, host: str, repaired: bool, where: Mapper) -> tuple[int, int]:
    """Where ``host``, as a reading gives it, is written in the text."""
    if repaired and texts.repaired is not None:
        span = texts.repaired.span("host")
        if span is not None:
            return where(span)
    scheme = _SCHEME_AFTER_SPACE.match(texts.text)
    at = texts.text.find(host, 0 if scheme is None else scheme.end())
    if at >= 0:
        return (at, at + len(host))
    return (0, len(texts.text))
