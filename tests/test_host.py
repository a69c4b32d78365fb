"""The host read once into its kind (RFC 3986 §3.2.2, RFC 6874 §2): ``urikit.host``.

Every reader of a host (the value's accessors, normalization, the building of a host
from data, the security checks) stands on :func:`parse_host`, so the split of
"address%25zone" is written once; these tests hold it to the grammar's rules and to
the accessors that read it.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import uri_references

import urikit
from urikit import URI
from urikit.grammar import URI_GRAMMAR
from urikit.host import (
    ZONE_DELIMITER,
    Host,
    hostname,
    ip_literal,
    parse_host,
    read_ipv4,
    split_zone,
)

PACKAGE = Path(urikit.__file__).resolve().parent


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("example.com", Host("reg-name", "example.com", None)),
        ("", Host("reg-name", "", None)),
        ("1.2.3.4", Host("ipv4", "1.2.3.4", None)),
        ("1.2.3.256", Host("reg-name", "1.2.3.256", None)),  # no IPv4address: a reg-name
        ("01.2.3.4", Host("reg-name", "01.2.3.4", None)),
        ("[::1]", Host("ipv6", "::1", None)),
        ("[fe80::1%25eth0]", Host("ipv6", "fe80::1", "eth0")),
        ("[fe80::1%25%65th0]", Host("ipv6", "fe80::1", "%65th0")),
        ("[v1.fe80::a+en1]", Host("ipvfuture", "v1.fe80::a+en1", None)),
        ("[V7.x]", Host("ipvfuture", "V7.x", None)),
        ("a%25b", Host("reg-name", "a%25b", None)),  # a reg-name's "%25" is data
    ],
)
def test_hosts_by_kind(text: str, expected: Host) -> None:
    """RFC 3986 §3.2.2: first-match-wins reads an IPv4address before a reg-name;
    RFC 6874 §2: IPv6addrz = IPv6address "%25" ZoneID."""
    assert parse_host(text) == expected
    if expected.kind in ("ipv6", "ipvfuture"):
        assert ip_literal(expected.address, expected.zone) == text


def test_the_zone_and_its_address() -> None:
    host = parse_host("[fe80::1%25en%201]")
    assert host.zone_id == "en 1"
    assert host.ip() == ipaddress.IPv6Address("fe80::1%en 1")
    assert parse_host("[fe80::1%25%FF]").zone_id == "\udcff"  # not UTF-8: a lone surrogate
    assert parse_host("[::1]").zone_id is None
    assert parse_host("1.2.3.4").ip() == ipaddress.IPv4Address("1.2.3.4")
    assert parse_host("example.com").ip() is None
    assert parse_host("[v1.x]").ip() is None


@pytest.mark.parametrize(
    ("text", "name"),
    [("Example.COM", "example.com"), ("[FE80::1%25Eth0]", "fe80::1%25Eth0"), ("[V1.X]", "v1.x")],
)
def test_hostname_as_urllib_gives_it(text: str, name: str) -> None:
    assert hostname(text) == name


@given(uri_references())
def test_every_host_of_the_grammar(text: str) -> None:
    """The kind agrees with the grammar's rules, and an IP literal is written back as
    it was read."""
    host = URI(text).host
    if host is None:
        return
    parsed = parse_host(host)
    rule = {"reg-name": "reg-name", "ipv4": "IPv4address", "ipvfuture": "IPvFuture"}
    if parsed.kind == "ipv6":
        inner = "IPv6address" if parsed.zone is None else "IPv6addrz"
        assert URI_GRAMMAR.rule(inner).fullmatch(host[1:-1])
        assert ip_literal(parsed.address, parsed.zone) == host
    else:
        inner_text = host[1:-1] if parsed.kind == "ipvfuture" else host
        assert URI_GRAMMAR.rule(rule[parsed.kind]).fullmatch(inner_text)
    assert URI(text).host_type == parsed.kind
    assert URI(text).zone_id == parsed.zone_id


@given(st.text(alphabet="abc%25[]:.v", max_size=12))
def test_any_text_has_a_kind(text: str) -> None:
    assert parse_host(text).kind in ("reg-name", "ipv4", "ipv6", "ipvfuture")


#: The ways a zone ID can be split off by hand: a partition at "%25" (or the constant),
#: a partition at "%" followed by the removal of "25", and "%25" replaced by "%".
ZONE_SPLITS = re.compile(
    r"""partition\(\s*(?:"%25"|'%25'|ZONE_DELIMITER)"""
    r"""|partition\(\s*(?:"%"|'%')\s*\)(?s:.){0,300}?removeprefix\(\s*(?:"25"|'25')"""
    r"""|replace\(\s*(?:"%25"|'%25'|ZONE_DELIMITER)\s*,\s*(?:"%"|'%')"""
)


def test_the_zone_delimiter_is_split_in_one_place() -> None:
    """The split of "address%25zone" is written once (RFC 6874 §2): ``host.py``."""
    splits = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if ZONE_SPLITS.search(path.read_text("utf-8"))
    ]
    assert splits == ["host.py"]
    assert ZONE_DELIMITER == "%25"


@pytest.mark.parametrize(
    "written",
    [
        'inner, _, zone = host[1:].partition("%")\n    zone.removeprefix("25")',
        "x.partition('%25')",
        'bare.replace("%25", "%")',
        "text[1:close].replace('%25', '%')",
    ],
)
def test_the_search_for_zone_splits_finds_each_way(written: str) -> None:
    assert ZONE_SPLITS.search(written)


@pytest.mark.parametrize(
    ("inside", "expected"),
    [
        ("fe80::1%25eth0", ("fe80::1", "eth0")),  # RFC 6874 §2
        ("fe80::1%eth0", ("fe80::1", "eth0")),  # RFC 4007 §11, as urllib.parse gives it
        ("fe80::1%2525", ("fe80::1", "25")),
        ("fe80::1%25en%2531", ("fe80::1", "en%2531")),  # the zone as written
        ("fe80::1%", ("fe80::1", "")),
        ("::1", ("::1", None)),
        ("v1.x", ("v1.x", None)),
    ],
)
def test_split_zone_reads_either_delimiter(inside: str, expected: tuple[str, str | None]) -> None:
    assert split_zone(inside) == expected


@given(uri_references())
def test_split_zone_agrees_with_parse_host_on_valid_hosts(text: str) -> None:
    host = URI(text).host
    if host is not None and host.startswith("[") and host[1:2] not in ("v", "V"):
        literal = parse_host(host)
        assert split_zone(host[1:-1]) == (literal.address, literal.zone)


# --- the URL Standard's IPv4 parser (§3.5), the inet_aton() forms of RFC 3986 §7.4 ----------


def test_the_ipv4_number_parser_is_written_once() -> None:
    """One readable IPv4 parser (URL Standard §3.5) serves the WHATWG host parser and the
    security checks: no other module converts a part in a radix it chose."""
    converters = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if re.search(r"\bint\(\s*\w+\s*,\s*(?:radix|base)\s*\)", path.read_text("utf-8"))
    ]
    assert converters == ["host.py"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1", 0x7F000001),
        ("0x7f.1", 0x7F000001),  # RFC 3986 §7.4
        ("017700000001", 0x7F000001),
        ("2130706433.", 0x7F000001),
        ("0x", 0),
        ("1.2.3.256", "IPv4-out-of-range-part"),
        ("256.1", "IPv4-out-of-range-part"),
        ("1.2.3.4.5", "IPv4-too-many-parts"),
        ("1..2", "IPv4-non-numeric-part"),
        ("09", "IPv4-non-numeric-part"),
        ("1" * 5000, "IPv4-out-of-range-part"),  # read in linear time, not converted
        ("0x" + "f" * 5000, "IPv4-out-of-range-part"),
        ("1.1.1." + "0" * 5000 + "1", 0x01010101),
    ],
)
def test_read_ipv4(text: str, expected: int | str) -> None:
    assert read_ipv4(text, []) == expected


def test_a_long_number_is_no_ipv4_address_in_any_reading() -> None:
    from urikit.security import lenient_ipv4
    from urikit.whatwg.errors import URLParseError
    from urikit.whatwg.host import ipv4_number_parser, ipv4_parser

    number = "1" * 5000
    assert lenient_ipv4(number) is None
    with pytest.raises(URLParseError):
        ipv4_parser(number, [])
    parsed = ipv4_number_parser(number)
    assert parsed is not None and parsed[0] >= 1 << 32
