"""What a host means to the software that connects to it (RFC 3986 §7.4, §7.6).

The URI grammar reads a host strictly (§3.2.2).  Resolvers read more: the
inet_aton() forms of an IPv4 address, percent-encoded and full-width
characters, Unicode labels and their ``xn--`` forms.  These functions read a
host the way such software does, so that a check sees the address or the
name that will actually be used.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import punycode
from .._seam import percent_decode
from ..errors import URIError
from ..host import read_ipv4
from .addresses import internal_reason
from .scripts import ascii_skeleton, is_mixed, scripts_of

__all__ = [
    "HostLabel",
    "internal_reason",
    "is_internal_address",
    "is_presentation_selector",
    "lenient_ipv4",
    "read_host",
    "suspicious_labels",
    "uts46_changes",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def lenient_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address that inet_aton()-style resolvers read in ``host``, or None.

    RFC 3986 §7.4: besides the dotted-decimal IPv4address of §3.2.2, such
    resolvers accept 1 to 4 dot-separated parts, each decimal, octal (a
    leading "0") or hexadecimal (a leading "0x"); the last part fills the
    remaining bytes of the address ("127.1" is 127.0.0.1, "2130706433" too).
    A single trailing dot, as in a fully qualified name, is ignored.  Every
    part before the last must fit in one byte.  The strict dotted-decimal
    form is read as well.

    >>> lenient_ipv4("0x7f.1")
    IPv4Address('127.0.0.1')
    >>> lenient_ipv4("example.com") is None
    True
    """
    if not isinstance(host, str):
        return None
    number = read_ipv4(host, [])
    return None if isinstance(number, str) else ipaddress.IPv4Address(number)


def read_host(host: str) -> str | None:
    """A reg-name as resolvers see it: percent-decoded, mapped by UTS #46 (full-width
    digits, ideographic full stops, case; the IDNA Mapping Table of :mod:`urikit.uts46`,
    as browsers map it), or None when it is not UTF-8."""
    if host.isascii() and "%" not in host:
        return host.lower()  # UTS #46 maps ASCII to its lower case, without STD3 rules
    try:
        decoded = percent_decode(host)
    except ValueError:
        return None
    return _mapped(decoded)


def _mapped(name: str) -> str:
    """UTS #46 §4 steps 1 and 2, map and normalize (NFC), on the data of :mod:`urikit.uts46`
    (loaded only for a name that is not ASCII)."""
    from .._nfc import nfc
    from ..uts46 import map_domain

    return nfc(map_domain(name))


@lru_cache(maxsize=4096)
def _uts46_char(ch: str) -> str:
    """UTS #46 §4 "Processing", step 1 (map), for one character; a character the
    table disallows is left as it is (the IDNA validity steps refuse it later)."""
    from ..uts46 import map_domain

    return map_domain(ch)


def uts46_changes(name: str) -> tuple[str, list[tuple[str, str]]]:
    """What the UTS #46 mapping (as browsers and IDNA 2008 resolvers apply it) makes
    of the decoded host ``name``, and the characters it changes *beyond lower-casing*:
    full-width forms, the ideographic full stops U+3002, U+FF0E and U+FF61 (which
    become "."), ligatures, and ignored characters such as U+00AD (which vanish),
    but not a variation selector that gives an emoji its presentation (``❤️``).

    >>> uts46_changes("\uff45\uff56\uff49\uff4c.com")[0]
    'evil.com'
    >>> uts46_changes("B\u00dcCHER.example")
    ('b\u00fccher.example', [])
    """
    if name.isascii():
        return name.lower(), []
    mapped: list[str] = []
    changes: list[tuple[str, str]] = []
    for index, ch in enumerate(name):
        if ch.isascii():
            mapped.append(ch.lower())
            continue
        target = _uts46_char(ch)
        mapped.append(target)
        if target != ch and target != ch.lower() and not is_presentation_selector(name, index):
            changes.append((ch, target))
    from .._nfc import nfc

    return nfc("".join(mapped)), changes


#: The variation selectors that ask for text (U+FE0E) or emoji (U+FE0F) presentation.
_PRESENTATION: Final = frozenset("\ufe0e\ufe0f")
#: Emoji that are not symbols (general category S*) in Unicode: ‼ ⁉ 〰 〽.
_EMOJI_PUNCTUATION: Final = frozenset("\u203c\u2049\u3030\u303d")
_KEYCAP_BASES: Final = frozenset("0123456789#*")
_KEYCAP: Final = "\u20e3"


def is_presentation_selector(text: str, index: int) -> bool:
    """Is ``text[index]`` a variation selector that gives the emoji before it its
    presentation (Unicode TS #51 §1.4.3: ``❤️`` is U+2764 U+FE0F, the keycap ``1️⃣``
    is "1" U+FE0F U+20E3)?  An emoji is taken to be a symbol (general category S*),
    one of the few emoji that are punctuation, or a keycap base."""
    if text[index] not in _PRESENTATION or index == 0:
        return False
    base = text[index - 1]
    if base in _KEYCAP_BASES:
        return text[index + 1 : index + 2] == _KEYCAP
    return unicodedata.category(base)[0] == "S" or base in _EMOJI_PUNCTUATION


# --- internal addresses -------------------------------------------------------


def is_internal_address(ip: IPAddress | str) -> bool:
    """Is ``ip`` an address that a server should not connect to for a user?

    True for the addresses that :func:`~urikit.security.addresses.internal_reason`
    names: every block of IANA's special-purpose address registries that is not
    globally reachable (loopback, private, shared, link-local where cloud
    metadata services live, documentation, benchmarking, discard, ...),
    multicast and reserved addresses, IPv6 addresses that carry such an IPv4
    address (IPv4-mapped, -compatible and -translated, NAT64, 6to4, Teredo),
    and addresses with a zone ID.  ``ip`` is an :mod:`ipaddress` address or
    its text (``"10.0.0.1"``, ``"::ffff:127.0.0.1"``, ``"fe80::1%eth0"``), as
    a socket gives it; other text raises :class:`~urikit.URIError` (a ``ValueError``).

    A host *name* can only be judged once it is resolved: call this on every
    address the name resolves to, or better on the address that a connection
    reached (``docs/security.md`` shows hooks for httpx and requests).

    >>> is_internal_address("169.254.169.254")
    True
    >>> is_internal_address("93.184.215.14")
    False
    """
    if isinstance(ip, str):
        try:
            address: IPAddress = ipaddress.ip_address(ip)
        except ValueError:
            # bad text, as everywhere in urikit: a URIError (a ValueError)
            raise URIError(
                "not an IPv4 or IPv6 address (RFC 3986 §3.2.2); a host name can only be "
                "judged by the addresses it resolves to",
                text=ip,
                position=0,
                rule="IP-literal",
            ) from None
    elif isinstance(ip, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        address = ip
    else:
        raise TypeError(f"is_internal_address() takes an IP address, not {type(ip).__name__}")
    return internal_reason(address) is not None


def is_localhost_name(name: str) -> bool:
    """ "localhost" and the names under ".localhost" (RFC 6761 §6.3), with any final dots,
    which resolvers and browsers may drop (``localhost..``)."""
    name = name.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


# --- homographs ---------------------------------------------------------------

_LABEL_SEPARATORS: Final = frozenset(".\u3002\uff0e\uff61")


@dataclass(frozen=True)
class HostLabel:
    """A label of a host that may be a homograph: where it is and what it shows."""

    start: int
    end: int
    text: str
    scripts: frozenset[str]
    mixed: bool
    looks_like: str | None


def _labels(host: str) -> Iterator[tuple[int, int]]:
    start = 0
    for index, ch in enumerate(host):
        if ch in _LABEL_SEPARATORS:
            yield start, index
            start = index + 1
    yield start, len(host)


def _unicode_label(raw: str) -> str | None:
    """The Unicode form of a label: percent-decoded, and punycode-decoded if ``xn--``."""
    try:
        label = percent_decode(raw)
    except ValueError:
        return None
    if label[:4].lower() == "xn--" and label.isascii():
        try:
            return punycode.decode(label[4:])
        except punycode.PunycodeError:
            return None
    return label


def suspicious_labels(host: str, limit: int | None = None) -> list[HostLabel]:
    """The labels of reg-name ``host`` that mix scripts or imitate ASCII (the first
    ``limit`` of them, when ``limit`` is not None).

    A label is read as Unicode (decoding percent-encoded UTF-8 and the
    ``xn--`` ACE form of RFC 3492); it is suspicious when its letters come from
    more than one writing system (UTS #39 §5.1, Japanese, Chinese and Korean
    combinations allowed), or when every non-ASCII letter in it looks like an
    ASCII letter (a whole-script homograph such as Cyrillic "аррӏе").
    """
    found: list[HostLabel] = []
    if host.isascii() and "%" not in host and "xn--" not in host.lower():
        return found  # every label is ASCII as it stands
    for start, end in _labels(host):
        label = _unicode_label(host[start:end])
        if label is None or label.isascii():
            continue
        scripts = scripts_of(label)
        mixed = is_mixed(scripts)
        looks_like = ascii_skeleton(label)
        if mixed or looks_like is not None:
            found.append(HostLabel(start, end, label, frozenset(scripts), mixed, looks_like))
            if len(found) == limit:
                break
    return found
