"""Percent-encoding (RFC 3986 §2.1, §2.4, §2.5) and the separate form codec."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import pct_encoded

from urikit import URI, URIError, form_decode, form_encode, is_valid, percent_decode
from urikit import percent_encode as encode
from urikit.percent import COMPONENTS, percent_decode_bytes

# the rule a component's encoded data must match
RULE_OF = {
    "userinfo": "userinfo",
    "host": "reg-name",
    "reg-name": "reg-name",
    "path": "path",
    "segment": "segment",
    "segment-nz-nc": "segment",
    "query": "query",
    "fragment": "fragment",
    "unreserved": "segment",
}

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


def test_section_2_1_uppercase_hex() -> None:
    assert encode(" ") == "%20"
    assert encode("\x7f\xff") == "%7F%C3%BF"
    assert encode("%e9", encoded=True) == "%E9"
    assert re.fullmatch(r"(%[0-9A-F]{2})+", encode("\x00\x1b\xfe"))


def test_section_2_3_unreserved_is_never_encoded() -> None:
    for component in COMPONENTS:
        assert encode(UNRESERVED, component) == UNRESERVED


def test_section_2_5_utf8() -> None:
    """§2.5: non-ASCII text is encoded as UTF-8 octets."""
    assert encode("é") == "%C3%A9"
    assert encode("€", "query") == "%E2%82%AC"
    assert encode("\U0001f600", "fragment") == "%F0%9F%98%80"
    assert encode(b"\xe9") == "%E9"
    assert percent_decode("%C3%A9") == "é"
    assert percent_decode("%E9", encoding="latin-1") == "é"


@pytest.mark.parametrize(
    ("component", "data", "expected"),
    [
        ("path", "a b/c?d#e", "a%20b/c%3Fd%23e"),
        ("segment", "a/b:c@d", "a%2Fb:c@d"),
        ("segment-nz-nc", "a:b", "a%3Ab"),
        ("query", "a=1&b=2/?#", "a=1&b=2/?%23"),
        ("fragment", "x?y/z#", "x?y/z%23"),
        ("userinfo", "user:pw@x/y", "user:pw%40x%2Fy"),
        ("host", "ex ample:80", "ex%20ample%3A80"),
        ("unreserved", "a:b/c", "a%3Ab%2Fc"),
        ("path", "[x]", "%5Bx%5D"),
        ("query", "%", "%25"),
        ("query", "%41", "%2541"),
        ("path", "", ""),
    ],
)
def test_encode_per_component(component: str, data: str, expected: str) -> None:
    assert encode(data, component) == expected


def test_encoded_input_is_never_encoded_twice() -> None:
    assert encode("a%20b", "path", encoded=True) == "a%20b"
    assert encode("a %20b", "path", encoded=True) == "a%20%20b"
    assert encode("100%", "query", encoded=True) == "100%25"
    assert encode("%%41", "query", encoded=True) == "%25%41"
    assert encode("%4", "query", encoded=True) == "%254"
    assert encode("%zz", "query", encoded=True) == "%25zz"
    assert encode("é%c3%a9 ", "path", encoded=True) == "%C3%A9%C3%A9%20"
    assert encode(b"\xe9%41 %", "path", encoded=True) == "%E9%41%20%25"
    assert encode("100%25 sure", "query", encoded=True) == "100%25%20sure"


def test_safe_keeps_what_the_enclosing_component_allows() -> None:
    assert encode("a/b c", "segment", safe="/") == "a/b%20c"
    assert encode("a?b", "path", safe="?") == "a%3Fb"  # a "?" would end the path
    assert encode("a#b", "query", safe="#") == "a%23b"
    assert encode("a:b", "segment-nz-nc", safe=":") == "a:b"


def test_iri_keeps_ucschar() -> None:
    assert encode("é €", "path", iri=True) == "é%20€"
    assert encode("\ue000", "path", iri=True) == "%EE%80%80"  # iprivate: query only
    assert encode("\ue000", "query", iri=True) == "\ue000"
    assert encode("\ufff0", "query", iri=True) == "%EF%BF%B0"  # not ucschar


def test_unknown_component_and_bad_types() -> None:
    with pytest.raises(ValueError, match="unknown component"):
        encode("x", "scheme")
    with pytest.raises(TypeError):
        encode(3, "path")  # type: ignore[arg-type]


def test_decode_errors_policy() -> None:
    assert percent_decode("a%FFb", errors="replace") == "a\ufffdb"
    assert percent_decode("a%FFb", errors="ignore") == "ab"
    assert percent_decode("a%FFb", errors="surrogateescape") == "a\udcffb"
    assert percent_decode("a%FFb", errors="backslashreplace") == "a\\xffb"
    with pytest.raises(URIError) as info:
        percent_decode("ab%C3%28")
    assert info.value.position == 2
    assert info.value.rule == "pct-encoded"
    with pytest.raises(URIError) as info:
        percent_decode("abc%E2%82")
    assert info.value.position == 3


@pytest.mark.parametrize(("text", "position"), [("%", 1), ("a%4", 3), ("%g0", 1), ("%4g", 2)])
def test_decode_bad_percent_is_an_error(text: str, position: int) -> None:
    for errors in ("strict", "replace"):
        with pytest.raises(URIError) as info:
            percent_decode(text, errors=errors)
        assert info.value.position == position


def test_decode_keeps_literal_characters() -> None:
    assert percent_decode("plain") == "plain"
    assert percent_decode("é%E9", encoding="latin-1") == "éé"
    assert percent_decode("%2F/%2f") == "///"
    assert percent_decode_bytes("a%00é") == b"a\x00\xc3\xa9"


def test_form_codec_is_separate() -> None:
    """RFC 1630's "+" for space is a different convention, used only on request."""
    assert form_encode("a b&c=d+e") == "a+b%26c%3Dd%2Be"
    assert form_decode("a+b%2Bc") == "a b+c"
    assert encode("a b+c", "query") == "a%20b+c"
    assert percent_decode("a+b") == "a+b"
    assert form_encode(b"\xff ") == "%FF+"
    assert form_encode("é", encoding="latin-1") == "%E9"
    assert form_decode("%E9", encoding="latin-1") == "é"


@given(st.text(), st.sampled_from(sorted(COMPONENTS)))
def test_decode_encode_round_trip(data: str, component: str) -> None:
    text = encode(data, component)
    assert text.isascii()
    assert is_valid(text, RULE_OF[component])
    assert percent_decode(text, errors="surrogatepass") == data


@given(st.binary(), st.sampled_from(sorted(COMPONENTS)))
def test_bytes_round_trip(data: bytes, component: str) -> None:
    text = encode(data, component)
    assert is_valid(text, RULE_OF[component])
    assert percent_decode_bytes(text) == data


@given(
    st.lists(st.sampled_from(["%", "%4", "a", " ", "é", "/", "?", "#"]) | pct_encoded()).map(
        "".join
    ),
    st.sampled_from(sorted(COMPONENTS)),
)
def test_encoded_true_is_idempotent_and_keeps_triplets(data: str, component: str) -> None:
    once = encode(data, component, encoded=True)
    assert is_valid(once, RULE_OF[component])
    assert encode(once, component, encoded=True) == once
    # the octets are those of the input: its triplets kept, everything else UTF-8
    octets, i = b"", 0
    while i < len(data):
        if re.fullmatch("%[0-9A-Fa-f]{2}", data[i : i + 3]):
            octets, i = octets + bytes.fromhex(data[i + 1 : i + 3]), i + 3
        else:
            octets, i = octets + data[i].encode(), i + 1
    assert percent_decode_bytes(once) == octets
    assert all(t == t.upper() for t in re.findall("%[0-9A-Fa-f]{2}", once))
    if "%" not in data:
        assert once == encode(data, component)


@given(st.text())
def test_form_round_trip(data: str) -> None:
    encoded = form_encode(data)
    assert " " not in encoded and is_valid(encoded, "query")
    assert form_decode(encoded, errors="surrogatepass") == data


@given(st.text())
def test_encoded_data_builds_a_uri(data: str) -> None:
    path, query = "/" + encode(data, "segment"), encode(data, "query")
    u = URI.build(scheme="s", host="h", path=path, query=query)
    assert u.decoded("query", errors="surrogatepass") == data


def test_bytes_are_octets_even_for_an_iri() -> None:
    # RFC 3986 §2.1: an octet is written as its triplet; byte E9 is not the character "é"
    assert encode(b"caf\xe9", "path", encoded=True, iri=True) == "caf%E9"
    assert encode(b"caf\xe9", "path", iri=True) == "caf%E9"


def test_bidi_formatting_is_encoded_in_an_iri_when_the_input_is_already_encoded() -> None:
    # RFC 3987 §4.1
    assert encode("a\u202eb%41", "path", iri=True, encoded=True) == "a%E2%80%AEb%41"


@pytest.mark.parametrize("function", [encode, form_encode])
def test_a_lone_surrogate_is_refused(function: Callable[[str], str]) -> None:
    # RFC 3986 §2.5: text is encoded as UTF-8, which has no form for a lone surrogate,
    # so it is refused rather than written as octets that are not UTF-8
    with pytest.raises(URIError) as error:
        function("ab\ud800")
    assert error.value.position == 2
