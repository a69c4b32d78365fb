"""The host of a reference, read once into its kind (RFC 3986 §3.2.2, RFC 6874).

::

    host        = IP-literal / IPv4address / reg-name
    IP-literal  = "[" ( IPv6address / IPv6addrz / IPvFuture  ) "]"
    IPv6addrz   = IPv6address "%25" ZoneID                       ; RFC 6874 §2

:func:`parse_host` reads the text of a valid host into a :class:`Host`: its kind,
its address, and the zone ID of an IPv6 literal, as written.  The accessors of the
value (``host_type``, ``zone_id``, ``ip``, ``hostname``, ``decoded("host")``,
``origin``), normalization, the building of a host from data and the security
checks all read a host through it, and :func:`ip_literal` writes one back.

:func:`read_ipv4` is the IPv4 parser of the URL Standard (§3.5), which reads the
inet_aton() forms of an address as resolvers do (RFC 3986 §7.4): the URL parser
of :mod:`urikit.whatwg` and the security checks both read an IPv4 host with it.
"""

from __future__ import annotations

import ipaddress
from typing import Final, NamedTuple

from .errors import URIError
from .grammar import URI_GRAMMAR
from .percent import percent_decode
from .types import HostType

__all__ = [
    "ZONE_DELIMITER",
    "Host",
    "IPAddress",
    "Origin",
    "effective_port",
    "hostname",
    "ip_literal",
    "ipv4_number_parser",
    "origin_key",
    "parse_host",
    "read_ipv4",
    "split_zone",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: What separates an IPv6 address from its zone ID in a URI: "%" percent-encoded
#: (RFC 6874 §2).
ZONE_DELIMITER: Final = "%25"


class Host(NamedTuple):
    """A host by kind: ``"reg-name"``, ``"ipv4"``, ``"ipv6"`` or ``"ipvfuture"``.

    ``address`` is a reg-name or IPv4address as written, and for an IP literal what
    stands between its brackets, without the zone ID; ``zone`` is the zone ID of an
    IPv6 literal as written (percent-encoded), ``None`` without one.
    """

    kind: HostType
    address: str
    zone: str | None

    @property
    def zone_id(self) -> str | None:
        """The zone ID decoded (RFC 6874 §2), octets that are not UTF-8 as lone
        surrogates; ``None`` without one."""
        zone = self.zone
        return None if zone is None else percent_decode(zone, errors="surrogateescape")

    def ip(self) -> IPAddress | None:
        """The ``ipaddress`` object of an IPv4 or IPv6 host, the zone ID as its scope ID
        (when ``ipaddress`` takes it); ``None`` for another kind."""
        if self.kind == "ipv4":
            return ipaddress.IPv4Address(self.address)
        if self.kind != "ipv6":
            return None
        zone = self.zone_id
        if zone is not None:
            try:
                return ipaddress.IPv6Address(f"{self.address}%{zone}")
            except ValueError:
                pass
        return ipaddress.IPv6Address(self.address)


def parse_host(host: str) -> Host:
    """The kind, address and zone of the valid ``host`` (RFC 3986 §3.2.2).

    A host that matches IPv4address is IPv4, not a reg-name: first-match-wins
    (§3.2.2); a zone ID follows the first "%25" of an IPv6 literal (RFC 6874 §2),
    and a reg-name's "%25" is data.
    """
    if host[:1] == "[":
        inner = host[1:-1]
        if inner[:1] in ("v", "V"):
            return Host("ipvfuture", inner, None)
        address, sep, zone = inner.partition(ZONE_DELIMITER)
        return Host("ipv6", address, zone if sep else None)
    if URI_GRAMMAR.rule("IPv4address").fullmatch(host):
        return Host("ipv4", host, None)
    return Host("reg-name", host, None)


def split_zone(inside: str) -> tuple[str, str | None]:
    """The address and the zone ID, as written, of the inside of an IPv6 literal as any
    reading gives it: the zone follows the first "%", and "25" after that "%" is its
    encoding (RFC 6874 §2), else it is the bare "%" of RFC 4007 §11 (which
    ``urllib.parse``, urllib3 and ``ipaddress`` write); ``None`` without a "%".
    :func:`parse_host` reads a host of a valid reference, where only "%25" delimits."""
    address, sep, zone = inside.partition("%")
    return address, zone.removeprefix("25") if sep else None


def ip_literal(address: str, zone: str | None = None) -> str:
    """The IP-literal of ``address`` and the percent-encoded ``zone`` (RFC 3986 §3.2.2,
    RFC 6874 §2): ``"[" address [ "%25" zone ] "]"``."""
    return f"[{address}]" if zone is None else f"[{address}{ZONE_DELIMITER}{zone}]"


_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def hostname(host: str) -> str:
    """A non-empty host as ``urllib.parse`` gives its ``hostname``: ASCII letters
    lower-cased, an IP literal without its brackets and with its zone ID as written
    (RFC 6874 §2)."""
    if host[0] != "[":
        return host.translate(_ASCII_LOWER)
    literal = parse_host(host)
    return ip_literal(literal.address.translate(_ASCII_LOWER), literal.zone)[1:-1]


class Origin(NamedTuple):
    """Where a request goes (RFC 6454 §4): the scheme, the host and the port."""

    scheme: str
    host: str
    port: int | None


def effective_port(scheme: str | None, host: str | None, port: int | None) -> int | None:
    """The port a client connects to: ``port`` when given, else the default port of
    ``scheme`` in ``urikit.schemes.DEFAULT_REGISTRY`` (§3.2.3, §6.2.3); ``None`` when
    neither is known, or there is no scheme or no host."""
    if port is not None:
        return port
    if scheme is None or host is None:
        return None
    from .schemes import DEFAULT_REGISTRY  # the registry's tables: loaded on first use

    return DEFAULT_REGISTRY.default_port(scheme)


def origin_key(host: str) -> str:
    """A non-empty host as origins compare it (RFC 6454 §4): lower case, and a name
    that is not ASCII once percent-decoded as the URL Standard's domain parser gives it
    (§3.3: UTS #46 ToASCII, :func:`urikit.uts46.domain_to_ascii`), so that origins agree
    with browsers on every name UTS #46 accepts; a name it refuses, lower-cased."""
    if host[0] == "[":
        return host.translate(_ASCII_LOWER)
    if "%" in host:
        host = percent_decode(host, errors="surrogateescape")
    if host.isascii():
        return host.translate(_ASCII_LOWER)
    from .uts46 import domain_parser  # loaded only for internationalized names

    try:
        return domain_parser(host, validate=False)[0]
    except URIError:
        return host.translate(_ASCII_LOWER)


# --- the URL Standard's IPv4 parser (§3.5), the inet_aton() forms of RFC 3986 §7.4 ---------

#: A number of more significant digits than this is past 2**32 in every radix; it
#: is read as :data:`_PAST_IPV4`, not converted (``int()`` of a long decimal text
#: costs more than linear time, and raises past 4,300 digits).
_MAX_SIGNIFICANT_DIGITS: Final = 34
#: The number that stands for a number past every IPv4 address.
_PAST_IPV4: Final = 1 << 32
_RADIX_DIGITS: Final = {
    8: frozenset("01234567"),
    10: frozenset("0123456789"),
    16: frozenset("0123456789abcdefABCDEF"),
}


def read_ipv4(text: str, errors: list[tuple[str, int]]) -> int | str:
    """The IPv4 parser (URL Standard §3.5): the address as a number, or the name of the
    validation error that makes it fail; the validation errors that do not are
    appended to ``errors`` as ``(name, offset)``.  It reads 1 to 4 dot-separated
    parts, each decimal, octal (a leading "0") or hexadecimal (a leading "0x"), the
    last filling the bytes that remain, and one final dot: the forms inet_aton()
    reads (RFC 3986 §7.4)."""
    parts = text.split(".")
    if parts[-1] == "":
        errors.append(("IPv4-empty-part", len(text) - 1))
        if len(parts) > 1:
            parts.pop()
    if len(parts) < 4:
        errors.append(("IPv4-too-few-parts", 0))
    if len(parts) > 4:
        return "IPv4-too-many-parts"
    numbers = []
    for part in parts:
        result = ipv4_number_parser(part)
        if result is None:
            return "IPv4-non-numeric-part"
        if result[1]:
            errors.append(("IPv4-non-decimal-part", 0))
        numbers.append(result[0])
    if any(n > 255 for n in numbers):
        errors.append(("IPv4-out-of-range-part", 0))
    if any(n > 255 for n in numbers[:-1]):
        return "IPv4-out-of-range-part"
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        return "IPv4-out-of-range-part"
    ipv4 = numbers[-1]
    for counter, n in enumerate(numbers[:-1]):
        ipv4 += n * 256 ** (3 - counter)
    return ipv4


def ipv4_number_parser(text: str) -> tuple[int, bool] | None:
    """The IPv4 number parser (URL Standard §3.5): the number and whether it was not
    decimal, or ``None`` for failure.  A number past 2**32 may be given as 2**32."""
    if text == "":
        return None
    validation_error = False
    radix = 10
    if len(text) >= 2 and text[:2] in ("0x", "0X"):
        validation_error = True
        text = text[2:]
        radix = 16
    elif len(text) >= 2 and text[0] == "0":
        validation_error = True
        text = text[1:]
        radix = 8
    if text == "":
        return 0, True
    if not _RADIX_DIGITS[radix].issuperset(text):
        return None
    if len(text.lstrip("0")) > _MAX_SIGNIFICANT_DIGITS:
        return _PAST_IPV4, validation_error
    return int(text, radix), validation_error
