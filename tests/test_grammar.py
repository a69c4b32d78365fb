"""The grammar module (RFC 3986 Appendix A, RFC 6874, RFC 3987 §2.2): classes and rules."""

from __future__ import annotations

import ipaddress
import re

import abnf_oracle as oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    hosts,
    ip_vfutures,
    ipv4_addresses,
    ipv6_addresses,
    iri_references,
    parsed_references,
    ports,
    queries,
    reg_names,
    schemes,
    segments,
    userinfos,
)

from urikit import URI, URIError, is_valid
from urikit import grammar as g
from urikit.validate import RULE_NAMES

REQUIRED_RULES = [
    "URI", "URI-reference", "absolute-URI", "relative-ref", "scheme", "authority", "userinfo",
    "host", "reg-name", "port", "IPv4address", "IPv6address", "IPvFuture", "path", "segment",
    "query", "fragment",
]  # fmt: skip


def members(cls: str) -> str:
    pattern = re.compile(f"[{cls}]")
    return "".join(c for c in map(chr, range(128)) if pattern.fullmatch(c))


# --- character classes (§2) ----------------------------------------------------------------


def test_section_2_2_reserved_characters() -> None:
    assert sorted(members(g.GEN_DELIMS)) == sorted(":/?#[]@")
    assert sorted(members(g.SUB_DELIMS)) == sorted("!$&'()*+,;=")
    assert sorted(members(g.RESERVED)) == sorted(":/?#[]@!$&'()*+,;=")


def test_section_2_3_unreserved_characters() -> None:
    expected = "-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
    assert members(g.UNRESERVED) == expected
    assert members(g.HEXDIG) == "0123456789ABCDEFabcdef"
    # no character is both reserved and unreserved, and "%" is neither (§2.1)
    assert not set(members(g.UNRESERVED)) & set(members(g.RESERVED))
    assert "%" not in members(g.UNRESERVED + g.RESERVED)


@pytest.mark.parametrize(
    ("code", "ucschar", "iprivate"),
    [
        (0x9F, False, False),
        (0xA0, True, False),
        (0xD7FF, True, False),
        (0xD800, False, False),
        (0xDFFF, False, False),
        (0xE000, False, True),
        (0xF8FF, False, True),
        (0xF900, True, False),
        (0xFDCF, True, False),
        (0xFDD0, False, False),
        (0xFDEF, False, False),
        (0xFDF0, True, False),
        (0xFFEF, True, False),
        (0xFFF0, False, False),
        (0xFFFF, False, False),
        (0x10000, True, False),
        (0x1FFFD, True, False),
        (0x1FFFE, False, False),
        (0xDFFFD, True, False),
        (0xE0000, False, False),
        (0xE1000, True, False),
        (0xEFFFD, True, False),
        (0xF0000, False, True),
        (0xFFFFD, False, True),
        (0x100000, False, True),
        (0x10FFFD, False, True),
        (0x10FFFE, False, False),
    ],
)
def test_rfc_3987_ucschar_and_iprivate(code: int, ucschar: bool, iprivate: bool) -> None:
    c = chr(code)
    assert bool(re.fullmatch(f"[{g.UCSCHAR}]", c)) == ucschar
    assert bool(re.fullmatch(f"[{g.IPRIVATE}]", c)) == iprivate
    # iunreserved gains ucschar; iquery alone gains iprivate (RFC 3987 §2.2)
    assert is_valid(c, "isegment") == ucschar
    assert is_valid(c, "iquery") == (ucschar or iprivate)
    assert is_valid(c, "ifragment") == ucschar
    assert not is_valid(c, "segment")


def test_iri_classes_are_built_from_uri_classes() -> None:
    assert g.IRI_GRAMMAR.unreserved == g.UNRESERVED + g.IRI_UCSCHAR
    for name in ("userinfo_chars", "reg_name_chars", "pchar", "pchar_nc", "fragment_chars"):
        uri_cls, iri_cls = getattr(g.URI_GRAMMAR, name), getattr(g.IRI_GRAMMAR, name)
        assert members(uri_cls) == members(iri_cls), name
    assert g.IPRIVATE in g.IRI_GRAMMAR.query_chars
    assert g.IPRIVATE not in g.IRI_GRAMMAR.fragment_chars


# --- rules --------------------------------------------------------------------------------


def test_every_required_rule_is_known() -> None:
    for rule in REQUIRED_RULES:
        assert rule in RULE_NAMES
        assert rule in g.RULES
    for rule in ("IRI", "IRI-reference", "absolute-IRI", "irelative-ref", "ihost", "ZoneID"):
        assert rule in RULE_NAMES
    for name in RULE_NAMES:
        g.RULES[name].rule(name)  # compiles


# (rule, valid examples, invalid examples), mostly from the RFC's own text
RULE_EXAMPLES = [
    ("scheme", ["http", "a", "z39.50r", "svn+ssh", "A-1."], ["", "1a", "a_b", "+a", "a:"]),
    ("userinfo", ["", "user", "user:pass", "a%20b", "!$&'()*+,;=:"], ["a@b", "a b", "%", "a/b"]),
    ("host", ["example.com", "192.0.2.16", "[2001:db8::7]", "[v7.x]", "", "%41"],
     ["[::1", "a b", "[1.2.3.4]", "a:b", "[fe80::1%eth0]"]),
    ("reg-name", ["", "www.ietf.org", "a%2Fb", "a!b"], ["a/b", "a:b", "[::1]"]),
    ("port", ["", "80", "0080", "99999999"], ["8a", "-1", " 80", "+80"]),
    ("authority", ["", "h", "u@h:1", "[::1]:80", "@", ":", "u:p@[v1.x]:"],
     ["a/b", "h:8a", "a@b@c", "[::1]x"]),
    ("IPv4address", ["0.0.0.0", "192.0.2.16", "255.255.255.255"],
     ["256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.", "0x7f.0.0.1", "1.2.3.04", "1..2.3"]),
    ("IPv6address", ["::", "::1", "2001:db8::7", "1:2:3:4:5:6:7:8", "::ffff:192.0.2.128",
                     "1:2:3:4:5:6:7::", "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210"],
     ["", ":", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "::1%25eth0", "[::1]"]),
    ("IPvFuture", ["v1.x", "vF.a:b", "V7.!$&'()*+,;=:-._~"], ["v.x", "v1.", "v1", "vg.x", "x1.x"]),
    ("path", ["", "/", "a", "a:b", "//a", "/a/b/", "%41"], ["a?b", "a#b", "a b", "%4"]),
    ("segment", ["", "a", "a:b@c", "%2F"], ["a/b", "a?b"]),
    ("query", ["", "a=b&c=d", "/?:@", "objectClass?one"], ["a#b", "a b", "%"]),
    ("fragment", ["", "nose", "/?:@", "a%23"], ["a#b", "[", "%g0"]),
    ("URI", ["foo://example.com:8042/over/there?name=ferret#nose", "a:", "a:/", "a://"],
     ["", "//a", "a", "1a:", ":"]),
    ("absolute-URI", ["urn:example:animal:ferret:nose", "a:?"], ["a:#", "a:?#x", "/a"]),
    ("relative-ref", ["", "//a", "/a", "a", "./this:that", "?q", "#f"], ["a:b", "this:that"]),
    ("URI-reference", ["", "a:b", "//", "#", "?#"], ["a b", "1a:b", "#a#b", "http://[::1"]),
    ("path-absolute", ["/", "/a", "/a//b"], ["", "//a", "a"]),
    ("path-noscheme", ["a", "a/b:c"], ["", "a:b", "/a"]),
    ("path-rootless", ["a:b", "a/b"], ["", "/a"]),
    ("path-abempty", ["", "/", "//a"], ["a"]),
    ("ZoneID", ["eth0", "%25", "a%41"], ["", "a b", "%"]),
    ("IPv6addrz", ["fe80::1%25eth0"], ["fe80::1%eth0", "fe80::1%25", "fe80::1"]),
]  # fmt: skip


@pytest.mark.parametrize(("rule", "valid", "invalid"), RULE_EXAMPLES)
def test_rule_examples(rule: str, valid: list[str], invalid: list[str]) -> None:
    for text in valid:
        assert is_valid(text, rule), (rule, text)
        assert oracle.matches(text, rule), (rule, text)
    for text in invalid:
        assert not is_valid(text, rule), (rule, text)
        assert not oracle.matches(text, rule), (rule, text)


def test_reference_groups() -> None:
    """The reference pattern's groups are the components, in order (cf. Appendix B)."""
    m = g.URI_GRAMMAR.reference.fullmatch("s://u@h:1/p?q#f")
    assert m is not None
    assert m.groups() == ("s", "u@h:1", "u", "h", "1", "/p", "q", "f")


# --- strategies satisfy their rules (and the oracle agrees) -----------------------------------


@given(
    st.one_of(
        schemes().map(lambda t: ("scheme", t)),
        userinfos().map(lambda t: ("userinfo", t)),
        ports().map(lambda t: ("port", t)),
        reg_names().map(lambda t: ("reg-name", t)),
        ipv4_addresses().map(lambda t: ("IPv4address", t)),
        ipv6_addresses().map(lambda t: ("IPv6address", t[0])),
        ip_vfutures().map(lambda t: ("IPvFuture", t)),
        hosts().map(lambda t: ("host", t[0])),
        segments().map(lambda t: ("segment", t)),
        segments(nz=True, nc=True).map(lambda t: ("segment-nz-nc", t)),
        queries().map(lambda t: ("query", t)),
    )
)
def test_generated_components_match_their_rules(item: tuple[str, str]) -> None:
    rule, text = item
    assert is_valid(text, rule)
    assert oracle.matches(text, rule)


@given(parsed_references())
def test_generated_references_match_the_oracle(ref: tuple[str, object]) -> None:
    text, _ = ref
    assert oracle.matches(text)
    assert oracle.matches(text, "URI") == is_valid(text, "URI")


@given(iri_references())
def test_generated_iris(text: str) -> None:
    assert is_valid(text, "IRI-reference")
    assert oracle.matches(text, "IRI-reference", iri=True)
    if not text.isascii():
        assert not is_valid(text, "URI-reference")
        with pytest.raises(URIError):
            URI(text)


@given(st.ip_addresses(v=6))
def test_ipaddress_forms_are_ipv6address(address: ipaddress.IPv6Address) -> None:
    """§3.2.2: the exploded, compressed and embedded-IPv4 forms all match IPv6address."""
    v4_tail = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    head = address.exploded.rsplit(":", 2)[0]
    for text in (address.exploded, address.compressed, f"{head}:{v4_tail}"):
        assert is_valid(text, "IPv6address"), text
        u = URI(f"http://[{text}]/")
        assert u.host_type == "ipv6" and u.ip == address


@given(st.ip_addresses(v=4))
def test_ipaddress_ipv4_is_first_match_wins(address: ipaddress.IPv4Address) -> None:
    """§3.2.2: a host that matches IPv4address is IPv4, although reg-name matches too."""
    text = str(address)
    assert is_valid(text, "IPv4address") and is_valid(text, "reg-name")
    u = URI(f"http://{text}:80/")
    assert u.host_type == "ipv4" and u.ip == address


# --- RFC 3987 §4.1: the IRI classes leave out the bidi formatting characters ----------------


@pytest.mark.parametrize("char", "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2069")
def test_4_1_iri_ucschar_is_ucschar_without_bidi_formatting(char: str) -> None:
    assert re.fullmatch(f"[{g.UCSCHAR}]", char)
    assert re.fullmatch(f"[{g.BIDI_FORMATTING}]", char)
    assert not re.fullmatch(f"[{g.IRI_UCSCHAR}]", char)
    for near in (chr(ord(char) - 1), chr(ord(char) + 1)):
        inside = re.fullmatch(f"[{g.BIDI_FORMATTING}]", near) is None
        assert (re.fullmatch(f"[{g.IRI_UCSCHAR}]", near) is not None) == inside, hex(ord(near))
    for rule in ("IRI-reference", "IRI", "irelative-ref", "isegment", "iquery", "ifragment"):
        assert not is_valid(f"a{char}b", rule), rule
    assert g.IRI_GRAMMAR.reference.fullmatch(f"http://a/\u05d0{char}b") is None


@given(st.characters(min_codepoint=0xA0))
def test_iri_ucschar_ranges(char: str) -> None:
    in_ucschar = re.fullmatch(f"[{g.UCSCHAR}]", char) is not None
    bidi = re.fullmatch(f"[{g.BIDI_FORMATTING}]", char) is not None
    assert (re.fullmatch(f"[{g.IRI_UCSCHAR}]", char) is not None) == (in_ucschar and not bidi)


# --- the regular expressions are derived from the rule expressions -------------------------


def test_class_attributes_are_the_classes_of_their_rules() -> None:
    for grammar in (g.URI_GRAMMAR, g.IRI_GRAMMAR):
        p = grammar.prefix
        for rule, body in [
            (p + "unreserved", grammar.unreserved),
            ("sub-delims", g.SUB_DELIMS),
            ("gen-delims", g.GEN_DELIMS),
            ("reserved", g.RESERVED),
        ]:
            assert grammar.sources[rule] == f"[{body}]", rule
        assert grammar.sources[p + "userinfo"].startswith(f"[{grammar.userinfo_chars}]*")
        assert grammar.sources[p + "reg-name"].startswith(f"[{grammar.reg_name_chars}]*")
        assert grammar.sources[p + "segment"].startswith(f"[{grammar.pchar}]*")
        assert grammar.sources[p + "path"].startswith(f"[{grammar.path_chars}]*")
        assert grammar.sources[p + "query"].startswith(f"[{grammar.query_chars}]*")
        assert grammar.sources[p + "fragment"].startswith(f"[{grammar.fragment_chars}]*")
        assert f"[{grammar.pchar_nc}]" in grammar.sources[p + "segment-nz-nc"]
        assert set(grammar.definitions) >= grammar.rule_names


def test_shared_sources() -> None:
    assert re.fullmatch(g.PCT_ENCODED, "%4a") and not re.fullmatch(g.PCT_ENCODED, "%4g")
    assert re.fullmatch(g.SCHEME, "svn+ssh") and not re.fullmatch(g.SCHEME, "1a")
    # RFC 3986 Appendix C: "URL:" is case-insensitive like every ABNF string
    assert re.fullmatch(g.URL_PREFIX, "url:") and re.fullmatch(g.URL_PREFIX, "URL:")
    assert not re.fullmatch(g.URL_PREFIX, "URL")


@pytest.mark.parametrize(
    ("body", "ranges"),
    [("A-Za-z", ((65, 90), (97, 122))), (r"\-._~", ((45, 46), (95, 95), (126, 126))),
     (r":/?#\[\]@", ((35, 35), (47, 47), (58, 58), (63, 64), (91, 91), (93, 93)))],
)  # fmt: skip
def test_class_ranges(body: str, ranges: tuple[tuple[int, int], ...]) -> None:
    assert g.class_ranges(body) == ranges
    members_of = {c for lo, hi in ranges for c in map(chr, range(lo, hi + 1))}
    assert members_of == {c for c in map(chr, range(128)) if re.fullmatch(f"[{body}]", c)}
