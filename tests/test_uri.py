"""The URI value (RFC 3986 §3, §4, §5.3): components, classification, building.

RFC examples are quoted verbatim and named by section.
"""

from __future__ import annotations

import copy
import ipaddress
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import absolute_uris, components, parsed_references, recompose, relative_refs

from urikit import URI, URIError, is_valid

NAMES = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def parts(text: str) -> tuple[str | None, ...]:
    u = URI(text)
    return tuple(getattr(u, name) for name in NAMES)


# --- RFC 3986 examples ------------------------------------------------------------------

# (text, scheme, authority, userinfo, host, port, path, query, fragment)
RFC_EXAMPLES = [
    # §1.1.2 Examples
    ("ftp://ftp.is.co.za/rfc/rfc1808.txt",
     "ftp", "ftp.is.co.za", None, "ftp.is.co.za", None, "/rfc/rfc1808.txt", None, None),
    ("http://www.ietf.org/rfc/rfc2396.txt",
     "http", "www.ietf.org", None, "www.ietf.org", None, "/rfc/rfc2396.txt", None, None),
    ("ldap://[2001:db8::7]/c=GB?objectClass?one",
     "ldap", "[2001:db8::7]", None, "[2001:db8::7]", None, "/c=GB", "objectClass?one", None),
    ("mailto:John.Doe@example.com",
     "mailto", None, None, None, None, "John.Doe@example.com", None, None),
    ("news:comp.infosystems.www.servers.unix",
     "news", None, None, None, None, "comp.infosystems.www.servers.unix", None, None),
    ("tel:+1-816-555-1212", "tel", None, None, None, None, "+1-816-555-1212", None, None),
    ("telnet://192.0.2.16:80/",
     "telnet", "192.0.2.16:80", None, "192.0.2.16", "80", "/", None, None),
    ("urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
     "urn", None, None, None, None, "oasis:names:specification:docbook:dtd:xml:4.1.2", None, None),
    # §3 Syntax Components
    ("foo://example.com:8042/over/there?name=ferret#nose",
     "foo", "example.com:8042", None, "example.com", "8042", "/over/there", "name=ferret", "nose"),
    ("urn:example:animal:ferret:nose",
     "urn", None, None, None, None, "example:animal:ferret:nose", None, None),
    # §3.3 Path
    ("mailto:fred@example.com", "mailto", None, None, None, None, "fred@example.com", None, None),
    ("foo://info.example.com?fred",
     "foo", "info.example.com", None, "info.example.com", None, "", "fred", None),
    # §1.2.3 / §3.3
    ("file:///etc/hosts", "file", "", None, "", None, "/etc/hosts", None, None),
    # §6.2.2 Syntax-Based Normalization
    ("example://a/b/c/%7Bfoo%7D", "example", "a", None, "a", None, "/b/c/%7Bfoo%7D", None, None),
    ("eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
     "eXAMPLE", "a", None, "a", None, "/./b/../b/%63/%7bfoo%7d", None, None),
    # §6.2.2.1 Case Normalization
    ("HTTP://www.EXAMPLE.com/", "HTTP", "www.EXAMPLE.com", None, "www.EXAMPLE.com", None, "/",
     None, None),
    # §6.2.3 Scheme-Based Normalization
    ("http://example.com", "http", "example.com", None, "example.com", None, "", None, None),
    ("http://example.com/", "http", "example.com", None, "example.com", None, "/", None, None),
    ("http://example.com:/", "http", "example.com:", None, "example.com", "", "/", None, None),
    ("http://example.com:80/", "http", "example.com:80", None, "example.com", "80", "/", None,
     None),
    ("http://example.com/?", "http", "example.com", None, "example.com", None, "/", "", None),
    # §7.6 Semantic Attacks: the host is 10.0.0.1
    ("ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
     "ftp", "cnn.example.com&story=breaking_news@10.0.0.1", "cnn.example.com&story=breaking_news",
     "10.0.0.1", None, "/top_story.htm", None, None),
    # Appendix B
    ("http://www.ics.uci.edu/pub/ietf/uri/#Related",
     "http", "www.ics.uci.edu", None, "www.ics.uci.edu", None, "/pub/ietf/uri/", None, "Related"),
    # §5.4 base URI
    ("http://a/b/c/d;p?q", "http", "a", None, "a", None, "/b/c/d;p", "q", None),
]  # fmt: skip


@pytest.mark.parametrize("row", RFC_EXAMPLES, ids=[row[0] for row in RFC_EXAMPLES])
def test_rfc_examples_components(row: tuple[str | None, ...]) -> None:
    text, *expected = row
    assert text is not None
    assert parts(text) == tuple(expected)


@pytest.mark.parametrize("text", [row[0] for row in RFC_EXAMPLES])
def test_rfc_examples_recompose_5_3(text: str) -> None:
    u = URI(text)
    assert str(u) == text
    c = {n: getattr(u, n) for n in ("scheme", "userinfo", "host", "port", "path", "query")}
    c["fragment"] = u.fragment
    assert recompose(c) == text
    assert str(URI.build(**c)) == text


def test_section_3_2_2_host_types() -> None:
    assert URI("ldap://[2001:db8::7]/c=GB?objectClass?one").host_type == "ipv6"
    assert URI("telnet://192.0.2.16:80/").host_type == "ipv4"
    assert URI("telnet://192.0.2.16:80/").ip == ipaddress.IPv4Address("192.0.2.16")
    assert URI("ldap://[2001:db8::7]/").ip == ipaddress.IPv6Address("2001:db8::7")
    assert URI("ftp://ftp.is.co.za/").host_type == "reg-name"
    assert URI("ftp://ftp.is.co.za/").ip is None
    # only the dotted-decimal form of four octets is an IPv4address (§3.2.2)
    for name in ("192.0.2", "0x7f.0.0.1", "1.2.3.256", "01.2.3.4", "1.2.3.4.", "1.2.3.4.5"):
        assert URI(f"http://{name}/").host_type == "reg-name", name
    assert URI("x:").host_type is None
    assert URI("x://[v7.zz]").host_type == "ipvfuture"
    assert URI("x://[V7.zz]").ip is None


# §3.2.2: the nine IPv6address forms (plus the all-groups and zero-run variants)
IPV6_FORMS = [
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:1.2.3.4",
    "::2:3:4:5:6:7:8",
    "::2:3:4:5:6:1.2.3.4",
    "1::3:4:5:6:7:8",
    "::3:4:5:6:7:8",
    "1:2::4:5:6:7:8",
    "1::4:5:6:7:8",
    "1:2:3::5:6:7:8",
    "1:2:3:4::6:7:8",
    "1:2:3:4:5::7:8",
    "1:2:3:4:5::1.2.3.4",
    "1:2:3:4:5:6::8",
    "1:2:3:4:5:6:7::",
    "::",
    "::1",
    "::ffff:192.0.2.128",
    "fe80::",
    "FFFF:ffff:0000:0:00:000::",
    "1:2:3:4:5:6::",
]


@pytest.mark.parametrize("address", IPV6_FORMS)
def test_section_3_2_2_ipv6_forms(address: str) -> None:
    u = URI(f"http://[{address}]:8080/")
    assert u.host == f"[{address}]"
    assert u.host_type == "ipv6"
    assert u.ip == ipaddress.IPv6Address(address)
    assert is_valid(address, "IPv6address")


@pytest.mark.parametrize(
    "address",
    [
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7",
        "1::2::3",
        ":1::",
        "1:::2",
        "12345::",
        "::1.2.3",
        "::1.2.3.256",
        "1:2:3:4:5:6:7:1.2.3.4",
        "1:2:3:4:5:6::1.2.3.4",
        "::01.2.3.4",
        "g::",
        "1.2.3.4",
        "",
    ],
)
def test_section_3_2_2_not_ipv6(address: str) -> None:
    assert not is_valid(address, "IPv6address")
    with pytest.raises(URIError):
        URI(f"http://[{address}]/")


def test_rfc_6874_zone_id() -> None:
    u = URI("http://[fe80::1%25eth0]:80/")
    assert u.host == "[fe80::1%25eth0]"
    assert u.host_type == "ipv6"
    assert u.zone_id == "eth0"
    assert u.ip == ipaddress.IPv6Address("fe80::1%eth0")
    assert URI("http://[fe80::1%25%65th0]/").zone_id == "eth0"
    for bad in ("http://[fe80::1%eth0]/", "http://[fe80::1%25]/", "http://[v1.x%25a]/"):
        with pytest.raises(URIError):
            URI(bad)


def test_section_3_2_3_port() -> None:
    assert URI("http://h:/").port == ""
    assert URI("http://h:/").port_number is None
    assert URI("http://h/").port is None
    assert URI("http://h:080/").port == "080"
    assert URI("http://h:080/").port_number == 80
    assert URI("http://h:65535/").port_number == 65535
    assert URI("http://h:00000065535/").port_number == 65535
    # §3.2.3 sets no bound: the text is valid and round-trips, but it is no TCP/UDP port
    big = URI("http://h:99999999999/")
    assert str(big) == "http://h:99999999999/" and big.port == "99999999999"
    for text in ("http://h:65536/", "http://h:99999999999/", "//u@h:0065536?q"):
        with pytest.raises(URIError) as info:
            _ = URI(text).port_number
        assert info.value.rule == "port" and info.value.position == text.rindex(":") + 1
        assert "65535" in info.value.reason and "TCP or UDP" in info.value.reason
    with pytest.raises(URIError):
        URI("http://h:8a/")


def test_undefined_is_not_empty_5_3() -> None:
    """§5.3: an empty query or fragment is kept apart from an absent one."""
    assert parts("") == (None, None, None, None, None, "", None, None)
    assert parts("?") == (None, None, None, None, None, "", "", None)
    assert parts("#") == (None, None, None, None, None, "", None, "")
    assert parts("//") == (None, "", None, "", None, "", None, None)
    assert parts("//@") == (None, "@", "", "", None, "", None, None)
    assert parts("//:") == (None, ":", None, "", "", "", None, None)
    assert parts("s:?#") == ("s", None, None, None, None, "", "", "")


def test_section_3_1_scheme() -> None:
    assert URI("a+b-c.d:x").scheme == "a+b-c.d"
    # "1a:b" has no scheme and a colon in the first segment: not a reference
    with pytest.raises(URIError):
        URI("1a:b")
    assert URI("a1:b").scheme == "a1"


def test_section_4_2_colon_in_first_segment() -> None:
    """§4.2: "this:that" is a URI with scheme "this"; "./this:that" a relative path."""
    assert URI("this:that").scheme == "this"
    u = URI("./this:that")
    assert (u.scheme, u.path, u.kind) == (None, "./this:that", "relative-path")
    with pytest.raises(URIError) as info:
        URI("th%69s:that")
    assert info.value.position == 6
    assert URI("x/this:that").path == "x/this:that"


# §5.4.1 Normal Examples and §5.4.2 Abnormal Examples: the references themselves
SECTION_5_4_REFERENCES = [
    "g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x",
    "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
    "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g", "./../g",
    "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g?y/../x",
    "g#s/./x", "g#s/../x", "http:g",
]  # fmt: skip


@pytest.mark.parametrize("ref", SECTION_5_4_REFERENCES)
def test_section_5_4_references_parse(ref: str) -> None:
    u = URI(ref)
    assert str(u) == ref
    if ref in ("g:h", "http:g"):
        assert u.kind == "uri" and not u.is_relative
    else:
        assert u.is_relative
        expected = (
            "network-path"
            if ref.startswith("//")
            else "absolute-path"
            if ref.startswith("/")
            else "relative-path"
        )
        assert u.kind == expected


def test_section_4_classification() -> None:
    # §4.3 absolute-URI: a scheme and no fragment
    assert URI("http://a/b?q").is_absolute
    assert not URI("http://a/b#f").is_absolute
    assert not URI("//a/b").is_absolute
    assert is_valid("http://a/b?q", "absolute-URI")
    assert not is_valid("http://a/b#f", "absolute-URI")
    # §4.4 same-document references
    assert URI("").is_same_document()
    assert URI("#frag").is_same_document()
    assert not URI("g#frag").is_same_document()
    # §1.2.3 hierarchical and opaque paths
    assert URI("mailto:fred@example.com").is_opaque
    assert URI("urn:example:animal:ferret:nose").is_opaque
    assert not URI("file:///etc/hosts").is_opaque
    assert URI("http:/a").is_hierarchical
    assert URI("g").is_hierarchical


def test_first_match_wins_4_1() -> None:
    """§4.1: a reference that could be a URI is a URI."""
    assert URI("a:b").scheme == "a"
    assert URI("a://b").authority == "b"
    # "//a@b@c" has no valid parse; "//a@b:c@d" neither
    for bad in ("//a@b@c", "//a:b/"):
        with pytest.raises(URIError):
            URI(bad)


# --- the value ----------------------------------------------------------------------------


def test_equality_hash_and_order_6_2_1() -> None:
    a, b = URI("http://a/b"), URI("http://a/b")
    assert a == b and hash(a) == hash(b)
    assert a == "http://a/b"
    assert a != URI("HTTP://a/b")  # simple string comparison (§6.2.1)
    assert a != URI("http://a/%62")
    assert len({a, b, URI("http://a/c")}) == 2
    assert URI("a:") < URI("b:")
    assert (a == 3) is False


@given(
    st.sampled_from(["a:", "b:", "http://a/", "http://a/b", ""]),
    st.sampled_from(["a:", "b:", "http://a/b", "z"]),
)
def test_the_value_contract(x: str, y: str) -> None:
    """Equality, hashing and a complete order all follow the text (§6.2.1), across
    URI, IRI and str alike."""
    from urikit import IRI

    for a in (URI(x), IRI(x)):
        for b in (URI(y), IRI(y), y):
            assert (a == b) is (x == y) and (a != b) is (x != y)
            assert (a < b) is (x < y) and (a <= b) is (x <= y)
            assert (a > b) is (x > y) and (a >= b) is (x >= y)
            if a == b:
                assert hash(a) == hash(b)
    with pytest.raises(TypeError):
        _ = URI(x) < 3  # type: ignore[operator]


def test_immutable_and_copyable() -> None:
    u = URI("http://u:pw@h/p")
    with pytest.raises(AttributeError):
        u.path = "/x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del u.host
    assert pickle.loads(pickle.dumps(u)) == u
    assert copy.copy(u) is u and copy.deepcopy(u) is u
    assert URI(u) == u


def test_repr_hides_the_password_7_5() -> None:
    u = URI("http://user:secret@h/")
    assert "secret" not in repr(u)
    assert "user" in repr(u)
    assert str(u) == "http://user:secret@h/"
    assert u.redacted() == "http://user:***@h/"
    assert URI("http://user@h/").redacted() == "http://user@h/"


@pytest.mark.parametrize("value", [b"http://a/", None, 42, ["x"], bytearray(b"a")])
def test_non_str_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        URI(value)  # type: ignore[arg-type]


def test_str_subclass_is_accepted() -> None:
    class S(str):
        pass

    u = URI(S("http://a/"))
    assert type(str(u)) is str and u == "http://a/"


def test_decode_accessor() -> None:
    u = URI("http://h/a%20b/c%2Fd?q=%C3%A9#%7E")
    assert u.path == "/a%20b/c%2Fd"
    assert u.decoded("path") == "/a b/c/d"
    assert u.decoded("query") == "q=é"
    assert u.decoded("fragment") == "~"
    assert u.decoded("userinfo") is None
    with pytest.raises(ValueError):
        u.decoded("nonsense")


# --- building and editing ----------------------------------------------------------------


def test_build_examples() -> None:
    assert str(URI.build(scheme="foo", host="example.com", port=8042, path="/over/there",
                         query="name=ferret", fragment="nose")) == (
        "foo://example.com:8042/over/there?name=ferret#nose"
    )  # fmt: skip
    assert str(URI.build(scheme="urn", path="example:animal:ferret:nose")) == (
        "urn:example:animal:ferret:nose"
    )
    assert str(URI.build(path="")) == ""
    assert str(URI.build(host="")) == "//"
    assert str(URI.build(host="h", port="")) == "//h:"
    data = URI.build(scheme="http", host="h", path="/a b/?#", query="x=1&y=#", encode=True)
    assert str(data) == "http://h/a%20b/%3F%23?x=1&y=%23"
    assert str(URI.build(scheme="http", host="::1", encode=True)) == "http://[::1]"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"host": "h", "path": "a"},  # §3.3: with an authority the path starts with "/"
        {"path": "//a"},  # §3.3: no authority, no leading "//"
        {"scheme": "s", "path": "//a"},
        {"path": "a:b"},  # §4.2: colon in the first segment of a relative path
        {"query": "a#b"},
        {"path": "a?b"},
        {"scheme": "1x", "path": "a"},
        {"host": "a b"},
        {"port": "8a", "host": "h"},
        {"port": -1, "host": "h"},
    ],
)
def test_build_refuses_what_the_grammar_forbids(kwargs: dict[str, object]) -> None:
    with pytest.raises(URIError):
        URI.build(**kwargs)  # type: ignore[arg-type]


def test_replace() -> None:
    u = URI("http://u@h:1/p?q#f")
    assert str(u.replace(fragment=None)) == "http://u@h:1/p?q"
    assert str(u.replace(query="")) == "http://u@h:1/p?#f"
    assert str(u.replace(host="example.com")) == "http://u@example.com:1/p?q#f"
    assert str(u.replace(port=None, userinfo=None)) == "http://h/p?q#f"
    assert str(u.replace(scheme=None)) == "//u@h:1/p?q#f"
    assert str(u.replace(path="/a b", encode=True)) == "http://u@h:1/a%20b?q#f"
    assert str(URI("a/b").replace(path="c:d", encode=False, scheme="s")) == "s:c:d"
    with pytest.raises(URIError):
        u.replace(path="relative")
    with pytest.raises(URIError):
        URI("a/b").replace(path="c:d")
    assert str(u) == "http://u@h:1/p?q#f"


# --- properties ------------------------------------------------------------------------------


@given(parsed_references())
def test_generated_references_parse_and_round_trip(ref: tuple[str, dict[str, object]]) -> None:
    text, expected = ref
    u = URI(text)
    assert str(u) == text
    for name in (*NAMES, "host_type"):
        assert getattr(u, name) == expected[name], name
    assert is_valid(text) and is_valid(text, "URI-reference")
    assert is_valid(text, "URI") == (expected["scheme"] is not None)
    assert is_valid(text, "relative-ref") == (expected["scheme"] is None)
    assert URI(text) == u and hash(URI(text)) == hash(u)


@given(components())
def test_build_recomposes_components_5_3(c: dict[str, str | None]) -> None:
    u = URI.build(**c)  # type: ignore[arg-type]
    assert str(u) == recompose(c)
    for name, value in c.items():
        assert getattr(u, name) == value


@given(absolute_uris())
def test_generated_absolute_uris_4_3(text: str) -> None:
    u = URI(text)
    assert u.is_absolute and not u.is_relative
    assert is_valid(text, "absolute-URI") and is_valid(text, "URI")


@given(relative_refs())
def test_generated_relative_refs_4_2(text: str) -> None:
    u = URI(text)
    assert u.is_relative and u.scheme is None
    assert is_valid(text, "relative-ref") and not is_valid(text, "URI")


@given(parsed_references(), st.data())
def test_replace_each_component_keeps_the_others(
    ref: tuple[str, dict[str, object]], data: st.DataObject
) -> None:
    text, _ = ref
    u = URI(text)
    for name in ("query", "fragment"):
        new = data.draw(st.none() | st.sampled_from(["", "x=1", "a/b?c"]), label=name)
        v = u.replace(**{name: new})
        assert getattr(v, name) == new
        for other in NAMES:
            if other != name:
                assert getattr(v, other) == getattr(u, other)


def test_a_port_too_long_for_a_number_is_a_uri_error() -> None:
    # §3.2.3: port = *DIGIT has no bound, but no port number has thousands of digits
    uri = URI("http://a:" + "1" * 5000 + "/")
    with pytest.raises(URIError) as error:
        _ = uri.port_number
    assert error.value.rule == "port" and error.value.position == 9
    assert URI("http://a:0080/").port_number == 80
