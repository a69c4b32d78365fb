"""Special-purpose addresses: IANA's registries as data, and the IPv4 address an IPv6 one carries.

RFC 6890 (updated by RFC 8190) keeps two registries of the address blocks set
aside for a special purpose, each entry with the name, the RFC that asked for
it and whether it is *globally reachable*: the IANA IPv4 Special-Purpose
Address Registry and the IANA IPv6 Special-Purpose Address Registry, both as
last updated on 2025-10-09.  :data:`IPV4_SPECIAL_PURPOSE` and
:data:`IPV6_SPECIAL_PURPOSE` transcribe them, an entry a line in the
registry's order.  An address is judged by the most specific entry that holds
it (``192.0.0.9/32``, globally reachable, inside ``192.0.0.0/24``, which is
not).  Beside the registries: IPv4 multicast (``224.0.0.0/4``, RFC 5771), IPv6
multicast (``ff00::/8``), the deprecated site-local prefix (``fec0::/10``, RFC
3879) and the IPv6 space outside ``2000::/3`` that no registry entry names,
which the IETF keeps reserved (RFC 4291 §2.4; the IANA IPv6 Address Space).

Some IPv6 addresses carry an IPv4 address, and a connection to them reaches
that IPv4 address, or a relay that leads there: :func:`embedded_ipv4` reads it.
"""

from __future__ import annotations

import ipaddress
from typing import Final, NamedTuple

__all__ = [
    "IPV4_SPECIAL_PURPOSE",
    "IPV6_SPECIAL_PURPOSE",
    "SpecialPurpose",
    "embedded_ipv4",
    "internal_reason",
    "special_purpose",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class SpecialPurpose(NamedTuple):
    """One entry of a special-purpose address registry (RFC 6890 §2.1).

    ``reachable`` is the registry's "Globally Reachable": True, False, or None
    where the registry says "N/A" (Teredo, 6to4: it depends on the address the
    block carries) or leaves it empty for a ``terminated`` allocation.
    """

    block: str
    name: str
    reference: str
    reachable: bool | None
    terminated: str | None = None


#: IANA IPv4 Special-Purpose Address Registry, last updated 2025-10-09.
IPV4_SPECIAL_PURPOSE: Final[tuple[SpecialPurpose, ...]] = (
    SpecialPurpose("0.0.0.0/8", '"This network"', "RFC 791 §3.2", False),
    SpecialPurpose("0.0.0.0/32", '"This host on this network"', "RFC 1122 §3.2.1.3", False),
    SpecialPurpose("10.0.0.0/8", "Private-Use", "RFC 1918", False),
    SpecialPurpose("100.64.0.0/10", "Shared Address Space", "RFC 6598", False),
    SpecialPurpose("127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3", False),
    SpecialPurpose("169.254.0.0/16", "Link Local", "RFC 3927", False),
    SpecialPurpose("172.16.0.0/12", "Private-Use", "RFC 1918", False),
    SpecialPurpose("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890 §2.1", False),
    SpecialPurpose("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", False),
    SpecialPurpose("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", False),
    SpecialPurpose("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", True),
    SpecialPurpose("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", True),
    SpecialPurpose("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", False),
    SpecialPurpose("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", False),
    SpecialPurpose("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", False),
    SpecialPurpose("192.31.196.0/24", "AS112-v4", "RFC 7535", True),
    SpecialPurpose("192.52.193.0/24", "AMT", "RFC 7450", True),
    SpecialPurpose(
        "192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", None, "2015-03"
    ),
    SpecialPurpose("192.88.99.2/32", "6a44-relay anycast address", "RFC 6751", False),
    SpecialPurpose("192.168.0.0/16", "Private-Use", "RFC 1918", False),
    SpecialPurpose("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", True),
    SpecialPurpose("198.18.0.0/15", "Benchmarking", "RFC 2544", False),
    SpecialPurpose("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", False),
    SpecialPurpose("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", False),
    SpecialPurpose("240.0.0.0/4", "Reserved", "RFC 1112 §4", False),
    SpecialPurpose("255.255.255.255/32", "Limited Broadcast", "RFC 8190, RFC 919 §7", False),
)

#: IANA IPv6 Special-Purpose Address Registry, last updated 2025-10-09.
IPV6_SPECIAL_PURPOSE: Final[tuple[SpecialPurpose, ...]] = (
    SpecialPurpose("::1/128", "Loopback Address", "RFC 4291", False),
    SpecialPurpose("::/128", "Unspecified Address", "RFC 4291", False),
    SpecialPurpose("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", False),
    SpecialPurpose("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", True),
    SpecialPurpose("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", False),
    SpecialPurpose("100::/64", "Discard-Only Address Block", "RFC 6666", False),
    SpecialPurpose("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", False),
    SpecialPurpose("2001::/23", "IETF Protocol Assignments", "RFC 2928", False),
    SpecialPurpose("2001::/32", "TEREDO", "RFC 4380, RFC 8190", None),
    SpecialPurpose("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", True),
    SpecialPurpose("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", True),
    SpecialPurpose(
        "2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", True
    ),
    SpecialPurpose("2001:2::/48", "Benchmarking", "RFC 5180, RFC Errata 1752", False),
    SpecialPurpose("2001:3::/32", "AMT", "RFC 7450", True),
    SpecialPurpose("2001:4:112::/48", "AS112-v6", "RFC 7535", True),
    SpecialPurpose("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", None, "2014-03"),
    SpecialPurpose("2001:20::/28", "ORCHIDv2", "RFC 7343", True),
    SpecialPurpose(
        "2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", True
    ),
    SpecialPurpose("2001:db8::/32", "Documentation", "RFC 3849", False),
    SpecialPurpose("2002::/16", "6to4", "RFC 3056", None),
    SpecialPurpose("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", True),
    SpecialPurpose("3fff::/20", "Documentation", "RFC 9637", False),
    SpecialPurpose("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", False),
    SpecialPurpose("fc00::/7", "Unique-Local", "RFC 4193, RFC 8190", False),
    SpecialPurpose("fe80::/10", "Link-Local Unicast", "RFC 4291", False),
)

#: Blocks outside the special-purpose registries that are no public unicast address.
_OTHER_V4: Final = ((ipaddress.IPv4Network("224.0.0.0/4"), "multicast (RFC 5771)"),)
_OTHER_V6: Final = (
    (ipaddress.IPv6Network("ff00::/8"), "multicast (RFC 4291 §2.7)"),
    (ipaddress.IPv6Network("fec0::/10"), "site-local, deprecated (RFC 3879)"),
)
#: The IPv6 global unicast space (RFC 4291 §2.4); the IETF reserves what lies outside
#: it and outside the blocks above.
_GLOBAL_UNICAST: Final = ipaddress.IPv6Network("2000::/3")


def _table(
    entries: tuple[SpecialPurpose, ...],
) -> tuple[tuple[int, int, SpecialPurpose], ...]:
    """The entries as (network, mask, entry), the longest prefixes first."""
    rows = []
    for entry in entries:
        network = ipaddress.ip_network(entry.block)
        rows.append((network.prefixlen, int(network.network_address), int(network.netmask), entry))
    rows.sort(key=lambda row: -row[0])
    return tuple((net, mask, entry) for _, net, mask, entry in rows)


_V4_TABLE: Final = _table(IPV4_SPECIAL_PURPOSE)
_V6_TABLE: Final = _table(IPV6_SPECIAL_PURPOSE)


def special_purpose(address: IPAddress) -> list[SpecialPurpose]:
    """The registry entries that hold ``address``, the most specific first."""
    table = _V4_TABLE if isinstance(address, ipaddress.IPv4Address) else _V6_TABLE
    value = int(address)
    return [entry for net, mask, entry in table if value & mask == net]


# --- IPv4 addresses in IPv6 ones -----------------------------------------------------

_MAPPED: Final = ipaddress.IPv6Network("::ffff:0:0/96")
_TRANSLATED: Final = ipaddress.IPv6Network("::ffff:0:0:0/96")
_COMPATIBLE: Final = ipaddress.IPv6Network("::/96")
_NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")
_SIX_TO_FOUR: Final = ipaddress.IPv6Network("2002::/16")
_TEREDO: Final = ipaddress.IPv6Network("2001::/32")
_LOW_32: Final = 0xFFFFFFFF


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    """The IPv4 address that ``address`` carries, and the name of the form, or None.

    * IPv4-mapped ``::ffff:0:0/96`` (RFC 4291 §2.5.5.2), IPv4-translated
      ``::ffff:0:0:0/96`` (RFC 2765 §2.1), IPv4-compatible ``::/96`` (RFC 4291
      §2.5.5.1, deprecated) and NAT64 ``64:ff9b::/96`` (RFC 6052 §2.2, the
      well-known prefix): the last 32 bits;
    * 6to4 ``2002::/16`` (RFC 3056 §2): bits 16 to 47;
    * Teredo ``2001::/32`` (RFC 4380 §4): the client's address, the last 32 bits
      with every bit inverted ("obfuscated").

    ``::`` and ``::1`` carry none.
    """
    value = int(address)
    if address in _MAPPED:
        return "IPv4-mapped", ipaddress.IPv4Address(value & _LOW_32)
    if address in _TRANSLATED:
        return "IPv4-translated", ipaddress.IPv4Address(value & _LOW_32)
    if address in _COMPATIBLE and value > 1:
        return "IPv4-compatible", ipaddress.IPv4Address(value & _LOW_32)
    if address in _NAT64:
        return "NAT64", ipaddress.IPv4Address(value & _LOW_32)
    if address in _SIX_TO_FOUR:
        return "6to4", ipaddress.IPv4Address((value >> 80) & _LOW_32)
    if address in _TEREDO:
        return "Teredo", ipaddress.IPv4Address(~value & _LOW_32)
    return None


#: Forms that reach their IPv4 address, and nothing else: they are what it is.
_LEADS_TO_IPV4: Final = frozenset({"IPv4-mapped", "NAT64", "6to4"})


def _entry_reason(entry: SpecialPurpose) -> str:
    if entry.terminated is not None:
        return (
            f"in {entry.block}, {entry.name} ({entry.reference}), an allocation terminated "
            f"in {entry.terminated}"
        )
    return f"in {entry.block}, {entry.name} ({entry.reference}), not globally reachable"


def internal_reason(address: IPAddress) -> str | None:
    """Why ``address`` is not a public unicast address, or None when it is.

    An address is internal when the most specific entry of the special-purpose
    registry that holds it is not globally reachable (or a terminated
    allocation), when it is multicast, site-local or in the reserved IPv6 space,
    when it has a zone ID (RFC 6874: it names a link of this host), and when the
    IPv4 address it carries (:func:`embedded_ipv4`) is internal.  An IPv4-mapped,
    NAT64 (``64:ff9b::/96``) or 6to4 address is what its IPv4 address is; the
    Teredo, IPv4-compatible and IPv4-translated forms are internal besides by
    their own blocks.
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return f"scoped to a link of this host (zone ID {address.scope_id!r})"
        address = ipaddress.IPv6Address(int(address))
        carried = embedded_ipv4(address)
        if carried is not None:
            kind, inner = carried
            reason = internal_reason(inner)
            if reason is not None:
                return f"the {kind} form of {inner}, which is {reason}"
            if kind in _LEADS_TO_IPV4:
                return None
    entries = special_purpose(address)
    for entry in entries:
        if entry.reachable is True:
            return None
        if entry.reachable is False or entry.terminated is not None:
            return _entry_reason(entry)
    others = _OTHER_V4 if isinstance(address, ipaddress.IPv4Address) else _OTHER_V6
    for network, reason in others:
        if address in network:
            return f"in {network}, {reason}"
    if isinstance(address, ipaddress.IPv6Address) and address not in _GLOBAL_UNICAST:
        return "outside the global unicast space 2000::/3: reserved by the IETF (RFC 4291 §2.4)"
    return None
