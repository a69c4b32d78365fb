"""Special-purpose addresses: IANA's registries, entry by entry, and the IPv4 address
that an IPv6 address carries (RFC 4291 §2.5.5, RFC 6052, RFC 3056, RFC 4380 §4)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit.security import audit, is_internal_address
from urikit.security.addresses import (
    IPV4_SPECIAL_PURPOSE,
    IPV6_SPECIAL_PURPOSE,
    SpecialPurpose,
    embedded_ipv4,
    internal_reason,
    special_purpose,
)

ENTRIES = [*IPV4_SPECIAL_PURPOSE, *IPV6_SPECIAL_PURPOSE]


def _name(entry: SpecialPurpose) -> str:
    return f"{entry.block} {entry.name}"


def _inside(entry: SpecialPurpose) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Addresses of the block that no more specific entry holds: its first and last."""
    network = ipaddress.ip_network(entry.block)
    return [
        address
        for address in (network.network_address, network.broadcast_address)
        if special_purpose(address)[0] == entry
    ]


def test_the_registries_have_every_entry() -> None:
    # IANA IPv4 and IPv6 Special-Purpose Address Registries, 2025-10-09: 25 records
    # each (the IPv4 registry's "192.0.0.170/32, 192.0.0.171/32" is one record)
    assert len(IPV4_SPECIAL_PURPOSE) == 26
    assert len(IPV6_SPECIAL_PURPOSE) == 25
    for entry in ENTRIES:
        ipaddress.ip_network(entry.block)  # each block is a network address
        assert entry.reachable is not None or entry.terminated or entry.name in ("TEREDO", "6to4")


@pytest.mark.parametrize(
    "entry", [e for e in ENTRIES if e.reachable is False or e.terminated], ids=_name
)
def test_every_entry_not_globally_reachable_is_internal(entry: SpecialPurpose) -> None:
    addresses = _inside(entry)
    assert addresses, "an entry whose every address a more specific entry holds"
    for address in addresses:
        reason = internal_reason(address)
        assert is_internal_address(address) and is_internal_address(str(address))
        assert reason is not None
        if isinstance(address, ipaddress.IPv4Address) or embedded_ipv4(address) is None:
            assert entry.name in reason and entry.block in reason


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.reachable is True], ids=_name)
def test_every_globally_reachable_entry_is_not(entry: SpecialPurpose) -> None:
    for address in _inside(entry):
        if isinstance(address, ipaddress.IPv6Address) and embedded_ipv4(address):
            continue  # 64:ff9b::/96 is what its IPv4 address is (below)
        assert not is_internal_address(address)


# --- the reproductions of the issue ------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "what"),
    [
        ("100::1", "Discard-Only Address Block (RFC 6666)"),
        ("2001:db8::1", "Documentation (RFC 3849)"),
        ("2001::", "Teredo form of 255.255.255.255"),  # the client obfuscated (RFC 4380 §4)
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", "IETF Protocol Assignments (RFC 2928)"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo form of 127.0.0.1"),
        ("64:ff9b:1::a00:1", "IPv4-IPv6 Translat. (RFC 8215)"),
        ("::ffff:0:7f00:1", "IPv4-translated form of 127.0.0.1"),
        ("198.18.0.1", "Benchmarking (RFC 2544)"),
        ("198.19.255.255", "Benchmarking (RFC 2544)"),
        ("192.0.0.1", "IPv4 Service Continuity Prefix (RFC 7335)"),
        ("192.0.0.200", "IETF Protocol Assignments (RFC 6890 §2.1)"),
        ("3fff::1", "Documentation (RFC 9637)"),
        ("5f00::1", "Segment Routing (SRv6) SIDs (RFC 9602)"),
        ("100:0:0:1::1", "Dummy IPv6 Prefix (RFC 9780)"),
    ],
)
def test_special_purpose_addresses_are_internal(address: str, what: str) -> None:
    reason = internal_reason(ipaddress.ip_address(address))
    assert reason is not None and what in reason
    host = f"[{address}]" if ":" in address else address
    (found,) = audit(f"http://{host}/")
    assert found.code == "internal-address" and what in found.message


@pytest.mark.parametrize(
    ("address", "kind", "ipv4"),
    [
        ("::ffff:10.0.0.1", "IPv4-mapped", "10.0.0.1"),  # RFC 4291 §2.5.5.2
        ("::10.0.0.1", "IPv4-compatible", "10.0.0.1"),  # RFC 4291 §2.5.5.1
        ("::ffff:0:a00:1", "IPv4-translated", "10.0.0.1"),  # RFC 2765 §2.1
        ("64:ff9b::a00:1", "NAT64", "10.0.0.1"),  # RFC 6052 §2.2
        ("2002:a00:1::1", "6to4", "10.0.0.1"),  # RFC 3056 §2
        # RFC 4380 §4: server 65.54.227.120, client 192.0.2.45 obfuscated as 3fff:fdd2
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo", "192.0.2.45"),
    ],
)
def test_the_ipv4_address_an_ipv6_address_carries(address: str, kind: str, ipv4: str) -> None:
    assert embedded_ipv4(ipaddress.IPv6Address(address)) == (kind, ipaddress.IPv4Address(ipv4))
    reason = internal_reason(ipaddress.IPv6Address(address))
    assert reason is not None and f"{kind} form of {ipv4}" in reason


@pytest.mark.parametrize("address", ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"])
def test_forms_that_lead_to_a_public_ipv4_address_are_public(address: str) -> None:
    assert not is_internal_address(address)


@pytest.mark.parametrize(
    "address",
    [
        "2001:0:4136:e378:8000:63bf:f7f7:f7f7",  # Teredo of 8.8.8.8: still 2001::/23
        "::8.8.8.8",  # IPv4-compatible, deprecated: outside 2000::/3
        "::ffff:0:808:808",  # IPv4-translated: outside 2000::/3
        "4000::1",  # reserved by the IETF
        "fec0::1",  # site-local, deprecated (RFC 3879)
        "ff02::1",
        "224.0.0.1",
        "192.88.99.1",  # terminated in 2015 (RFC 7526)
        "2001:10::1",  # terminated in 2014
    ],
)
def test_other_addresses_that_are_not_public_unicast(address: str) -> None:
    assert is_internal_address(address)


# --- against Python's ipaddress -------------------------------------------------------

#: Where urikit and ``ipaddress.is_global`` disagree, and why: urikit judges multicast,
#: the reserved IPv6 space and terminated blocks internal, the IPv4-compatible and
#: -translated forms as IPv6 addresses outside 2000::/3, a 6to4 or NAT64 address by the
#: IPv4 address it leads to, and follows the registry of 2025, which is newer than the
#: tables of some Python versions (3fff::/20, 5f00::/16 and 100:0:0:1::/64 are not
#: globally reachable; the blocks under 2001::/23 that it marks globally reachable are,
#: which Python before 3.11.10 and 3.12.4 counts as private, and 192.0.0.0/24 is not,
#: of which that Python counts only 192.0.0.0/29 and 192.0.0.170/31).
_KNOWN_DIFFERENCES = [
    ipaddress.ip_network(block)
    for block in (
        "224.0.0.0/4",
        "ff00::/8",
        "fec0::/10",
        "192.88.99.0/24",
        "::/96",
        "::ffff:0:0:0/96",
        "2002::/16",
        "64:ff9b::/96",
        "3fff::/20",
        "5f00::/16",
        "100:0:0:1::/64",
        "2001:1::1/128",
        "2001:1::2/128",
        "2001:1::3/128",
        "2001:3::/32",
        "2001:4:112::/48",
        "2001:20::/28",
        "2001:30::/28",
        "64:ff9b:1::/48",
        "100::/64",
        "192.0.0.0/24",
    )
]


def _differs_knowingly(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address not in ipaddress.IPv6Network("2000::/3") and not address.ipv4_mapped:
            return True  # reserved by the IETF (RFC 4291 §2.4)
        if address.ipv4_mapped is not None:
            return _differs_knowingly(address.ipv4_mapped)
        if address.teredo is not None:
            return True  # judged by the client address it carries as well
    return any(
        address in network for network in _KNOWN_DIFFERENCES if network.version == address.version
    )


_SAMPLE = [
    ipaddress.ip_address(text) for entry in ENTRIES for text in (entry.block.partition("/")[0],)
] + [
    ipaddress.ip_address(text)
    for text in (
        "8.8.8.8",
        "1.1.1.1",
        "93.184.215.14",
        "2606:4700::1111",
        "2a00:1450:4001:82b::200e",
        "::ffff:127.0.0.1",
        "::ffff:8.8.8.8",
        "172.15.255.255",
        "172.32.0.0",
        "100.63.255.255",
        "100.128.0.0",
    )
]


@pytest.mark.parametrize("address", _SAMPLE, ids=str)
def test_agrees_with_ipaddress_is_global_but_where_documented(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    if not _differs_knowingly(address):
        assert is_internal_address(address) == (not address.is_global)


@given(st.ip_addresses())
def test_every_address_python_calls_not_global_is_internal_but_where_documented(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    if not address.is_global and not _differs_knowingly(address):
        assert is_internal_address(address)
    if is_internal_address(address) and address.is_global:
        assert _differs_knowingly(address)
