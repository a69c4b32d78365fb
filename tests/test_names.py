"""urikit.security names: DNS host names, special-use domains, public hosts in any spelling."""

from __future__ import annotations

import ipaddress
import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit import URIError
from urikit.security import (
    RESERVED_NAMES,
    HostError,
    check_host,
    is_dns_name,
    is_internal_address,
    is_public_dns_name,
    is_public_host,
)
from urikit.security.names import reserved_name

# RFC 1123 §2.1 (after RFC 952): a label is letters, digits and hyphens, beginning and
# ending with a letter or digit, of at most 63 octets (RFC 1035 §2.3.4).
LDH_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def oracle_is_dns_name(name: str) -> bool:
    """RFC 1035 §2.3.4, RFC 1123 §2.1 and RFC 3696 §2 read literally, for ASCII text
    without ``xn--`` labels."""
    if name.endswith(".") and len(name) > 1:
        name = name[:-1]
    labels = name.split(".")
    if not all(LDH_LABEL.fullmatch(label) for label in labels):
        return False
    if len(name) > 253:
        return False
    last = labels[-1]
    hexadecimal = all(c in "0123456789abcdefABCDEF" for c in last[2:])
    numeric = last.isdigit() or (last[:2].lower() == "0x" and hexadecimal)
    return not numeric


# -- the examples of issue 31 and RFC 1035 §2.3.4's limits ------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "-x",  # leading hyphen (RFC 1123 §2.1)
        "x-",  # trailing hyphen
        "a.-b.com",
        "a..b",  # an empty label (RFC 1035 §2.3.1)
        ".a.com",
        "a" * 64 + ".com",  # 64 octets
        "a_b.com",  # "_" is not LDH
        "a b.com",
        "xn--zz.com",  # not an A-label (RFC 5890 §2.3.2.1)
        "ｅｘａｍｐｌｅ.com",  # full-width letters: UTS #46 would map them
        "example。com",  # the ideographic full stop
        "a.123",  # a numeric top-level label (RFC 3696 §2)
        "a.0x1f",
        "1.2.3.4",  # an address, not a name
        "%ff.com",  # percent-encoded octets that are not UTF-8
        "",
        ".",
    ],
)
def test_not_dns_names(host: str) -> None:
    assert not is_dns_name(host)
    with pytest.raises(HostError) as caught:
        check_host(host, public=False) if host != "1.2.3.4" else check_host("a.123")
    assert caught.value.code == "not-dns-name"


@pytest.mark.parametrize(
    "host",
    [
        "example.com",
        "Example.COM",  # the DNS compares ASCII case-insensitively (RFC 4343)
        "example.com.",  # a fully qualified name, its root label written
        "a" * 63 + ".com",  # 63 octets: the limit itself
        "xn--bcher-kva.example",
        "b\u00fccher.example",  # a U-label, converted to xn--bcher-kva
        "B\u00dcCHER.example",  # upper case only lower-cases
        "%65xample.com",  # percent-encoded (RFC 3986 §3.2.2)
        "localhost",  # a DNS name, though not a public one
        "ab--cd.com",  # hyphens in the third and fourth place, not "xn"
        "1a.com",  # RFC 1123 §2.1 allows a leading digit
    ],
)
def test_dns_names(host: str) -> None:
    assert is_dns_name(host)
    check_host(host, public=False)


def test_the_name_limit_is_253_octets() -> None:
    labels = ["a" * 63] * 3 + ["a" * 61]  # 63 * 3 + 61 + 3 dots = 253
    name = ".".join(labels)
    assert len(name) == 253 and is_dns_name(name) and is_dns_name(name + ".")
    longer = name + "a"
    assert len(longer) == 254 and not is_dns_name(longer)
    with pytest.raises(HostError, match="254 octets"):
        check_host(longer, public=False)


def test_a_u_label_counts_in_octets_of_its_a_label() -> None:
    # 20 scattered CJK ideographs make an A-label of more than 63 octets (RFC 5890
    # §2.3.2.1 limits the A-label); 19 make one of 61.
    ideographs = "".join(chr(0x4E00 + i * 997) for i in range(20))
    assert not is_dns_name(ideographs + ".com")
    assert is_dns_name(ideographs[:19] + ".com")


def test_the_error_names_the_label_and_its_position() -> None:
    with pytest.raises(HostError) as caught:
        check_host("www.exa_mple.com")
    error = caught.value
    assert isinstance(error, URIError) and isinstance(error, ValueError)
    assert error.position == 4 and error.rule == "reg-name"
    assert "'_'" in error.reason and "exa_mple" in error.reason
    assert pickle.loads(pickle.dumps(error)).code == "not-dns-name"


def test_non_text_is_a_type_error() -> None:
    for function in (is_dns_name, is_public_dns_name, is_public_host, check_host):
        with pytest.raises(TypeError):
            function(b"example.com")  # type: ignore[arg-type]


# -- special-use domains (RFC 6761 and others) -----------------------------------------


@pytest.mark.parametrize(
    ("host", "domain"),
    [
        ("localhost", "localhost"),  # RFC 6761 §6.3
        ("LocalHost.", "localhost"),
        ("a.b.localhost", "localhost"),
        ("example", "example"),  # RFC 6761 §6.5
        ("www.example", "example"),
        ("a.test", "test"),  # RFC 6761 §6.2
        ("nowhere.invalid", "invalid"),  # RFC 6761 §6.4
        ("printer.local", "local"),  # RFC 6762 §3
        ("router.home.arpa", "home.arpa"),  # RFC 8375
        ("duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion", "onion"),  # RFC 7686
        ("x.alt", "alt"),  # RFC 9476
        ("db.internal", "internal"),
    ],
)
def test_reserved_names_are_not_public(host: str, domain: str) -> None:
    assert reserved_name(host) == domain
    assert domain in RESERVED_NAMES
    assert is_dns_name(host)
    assert not is_public_dns_name(host) and not is_public_host(host)
    with pytest.raises(HostError) as caught:
        check_host(host)
    assert caught.value.code == "reserved-name"
    assert domain in caught.value.reason


@pytest.mark.parametrize(
    "host",
    ["example.com", "example.net", "example.org", "www.example.com", "testing.com", "local.com"],
)
def test_names_like_reserved_ones_are_public(host: str) -> None:
    # RFC 6761 §6.5: example.com and friends are ordinary names that resolve.
    assert reserved_name(host) is None
    assert is_public_dns_name(host) and is_public_host(host)


@pytest.mark.parametrize("host", ["intranet", "com", "router.", "wpad"])
def test_single_labels_are_not_public(host: str) -> None:
    assert is_dns_name(host) and not is_public_dns_name(host)
    with pytest.raises(HostError) as caught:
        check_host(host)
    assert caught.value.code == "single-label"


# -- addresses in any spelling (RFC 3986 §7.4, WHATWG URL §3.5) --------------------------

INTERNAL_SPELLINGS = [
    "127.0.0.1",
    "127.1",  # fewer parts: the last fills the rest
    "127.0.1",
    "2130706433",  # one decimal number
    "0x7f000001",  # one hexadecimal number
    "0X7F.1",
    "0x7f.0x0.0x0.0x1",
    "017700000001",  # octal
    "0177.0.0.01",
    "127.000.000.001",
    "127.0.0.1.",  # a final dot
    "%31%32%37.0.0.1",  # percent-encoded digits, decoded as browsers do
    "\uff11\uff12\uff17.\uff10.\uff10.\uff11",  # full-width digits, mapped by UTS #46
    "0",  # 0.0.0.0
    "0x",  # WHATWG reads an empty hexadecimal part as 0
    "10.0.0.1",
    "012.0.0.1",  # octal 10
    "167772161",  # 10.0.0.1
    "169.254.169.254",  # cloud metadata
    "0xa9fea9fe",
    "2852039166",
    "192.168.1.1",
    "0xc0.0xa8.1.1",
    "172.16.0.1",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "[::]",
    "[::ffff:127.0.0.1]",  # IPv4-mapped
    "[::ffff:7f00:1]",
    "[::127.0.0.1]",  # IPv4-compatible
    "[64:ff9b::a9fe:a9fe]",  # NAT64 of 169.254.169.254
    "[2002:7f00:1::]",  # 6to4 of 127.0.0.1
    "[fe80::1]",
    "[fe80::1%25eth0]",  # a zone ID (RFC 6874)
    "[fc00::1]",
    "[fd12:3456:789a::1]",
    "[ff02::1]",
]


@pytest.mark.parametrize("host", INTERNAL_SPELLINGS)
def test_internal_addresses_in_any_spelling(host: str) -> None:
    assert not is_public_host(host)
    assert not is_dns_name(host)
    with pytest.raises(HostError) as caught:
        check_host(host)
    error = caught.value
    assert error.code == "internal-address"
    assert error.address is not None and is_internal_address(error.address)
    assert "internal address" in error.reason


@pytest.mark.parametrize(
    "host", ["93.184.215.14", "8.8.8.8", "0x8.0x8.0x8.0x8", "134744072", "[2606:4700:4700::1111]"]
)
def test_public_addresses_pass(host: str) -> None:
    assert is_public_host(host)
    assert not is_public_dns_name(host)  # an address, not a name


def test_ipvfuture_names_no_address() -> None:
    with pytest.raises(HostError) as caught:
        check_host("[v7.anything]")
    assert caught.value.code == "not-an-address"


def test_without_public_addresses_pass_as_written_and_rare_forms_do_not() -> None:
    check_host("127.0.0.1", public=False)
    check_host("[::1]", public=False)
    with pytest.raises(HostError) as caught:
        check_host("0x7f.1", public=False)  # no IPv4address: a reg-name that is no name
    assert caught.value.code == "not-dns-name"


# -- laws --------------------------------------------------------------------------------

ASCII_HOSTS = st.text(alphabet="ab0-._x", max_size=12) | st.builds(
    lambda n, tail: "a" * n + tail, st.integers(60, 66), st.sampled_from(["", ".com", ".a-"])
)


@given(ASCII_HOSTS)
def test_is_dns_name_is_the_rfcs_read_literally(host: str) -> None:
    if "xn--" in host.lower():
        return
    assert is_dns_name(host) == oracle_is_dns_name(host), host


@given(st.integers(0, 2**32 - 1))
def test_every_spelling_of_an_ipv4_address_is_judged_alike(value: int) -> None:
    address = ipaddress.IPv4Address(value)
    internal = is_internal_address(address)
    a, b, c, d = address.packed
    for spelling in (
        str(address),
        str(value),
        hex(value),
        "0" + oct(value)[2:],
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"0x{a:x}.0x{b:x}.{c}.0{d:o}",
        f"[::ffff:{address}]",
    ):
        assert is_public_host(spelling) is not internal, spelling


@given(st.text(max_size=40))
def test_check_host_raises_only_host_errors(host: str) -> None:
    try:
        check_host(host)
    except HostError as error:
        assert error.code in {
            "not-dns-name",
            "single-label",
            "reserved-name",
            "internal-address",
            "not-an-address",
        }
        assert 0 <= (error.position or 0) <= len(host)
    else:
        assert is_public_host(host)
    assert is_public_dns_name(host) <= is_dns_name(host)
