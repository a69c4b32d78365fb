"""Relative IRI references (RFC 3987 §6.5) and IRI comparison (RFC 3987 §5.3).

§6.5: "the algorithms of [RFC3986] can be applied directly, treating the characters
additionally allowed in IRI references in the same way that unreserved characters are
in URI references".  §3.1 adds that the resource an IRI locates is the one its URI
locates, "there is no need to define resolution separately on the IRI level": so
resolving and then mapping to a URI must equal mapping and then resolving.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit import IRI, URI, URIError, normalize, relativize, resolve
from urikit.compare import equivalent

BASE = "http://\u4f8b\u3048.jp/b/c/d;p?q"

# RFC 3986 §5.4.1's normal examples, with the base host and the "g" segment
# replaced by non-ASCII (ucschar) text.
NORMAL = [
    ("g:\u00fc", "g:\u00fc"),  # a scheme is ASCII (§2.2)
    ("\u00fc", "http://\u4f8b\u3048.jp/b/c/\u00fc"),
    ("./\u00fc", "http://\u4f8b\u3048.jp/b/c/\u00fc"),
    ("\u00fc/", "http://\u4f8b\u3048.jp/b/c/\u00fc/"),
    ("/\u00fc", "http://\u4f8b\u3048.jp/\u00fc"),
    ("//\u00fc", "http://\u00fc"),
    ("?\u00fc", "http://\u4f8b\u3048.jp/b/c/d;p?\u00fc"),
    ("\u00fc?y", "http://\u4f8b\u3048.jp/b/c/\u00fc?y"),
    ("#\u00fc", "http://\u4f8b\u3048.jp/b/c/d;p?q#\u00fc"),
    ("\u00fc#s", "http://\u4f8b\u3048.jp/b/c/\u00fc#s"),
    (";x", "http://\u4f8b\u3048.jp/b/c/;x"),
    ("\u00fc;x?y#s", "http://\u4f8b\u3048.jp/b/c/\u00fc;x?y#s"),
    ("", "http://\u4f8b\u3048.jp/b/c/d;p?q"),
    (".", "http://\u4f8b\u3048.jp/b/c/"),
    ("..", "http://\u4f8b\u3048.jp/b/"),
    ("../\u00fc", "http://\u4f8b\u3048.jp/b/\u00fc"),
    ("../..", "http://\u4f8b\u3048.jp/"),
    ("../../\u00fc", "http://\u4f8b\u3048.jp/\u00fc"),
    ("../../../\u00fc", "http://\u4f8b\u3048.jp/\u00fc"),
    ("?\ue000", "http://\u4f8b\u3048.jp/b/c/d;p?\ue000"),
]


@pytest.mark.parametrize(("ref", "target"), NORMAL)
def test_6_5_resolution(ref: str, target: str) -> None:
    base = IRI(BASE)
    result = base.resolve(ref)
    assert type(result) is IRI
    assert str(result) == target
    assert str(resolve(base, IRI(ref))) == target


def test_6_5_resolution_refuses_what_an_iri_cannot_hold() -> None:
    with pytest.raises(URIError):
        IRI(BASE).resolve("/\ue000")  # iprivate outside the query
    with pytest.raises(URIError):
        IRI(BASE).resolve("a\u202eb")  # §4.1
    with pytest.raises(URIError):
        URI("http://a/b").resolve("\u00fc")  # a URI base reads a URI reference


def test_6_5_relativize_round_trip() -> None:
    base = IRI(BASE)
    for _, target in NORMAL[1:]:
        ref = relativize(base, target)
        assert type(ref) is IRI
        assert str(base.resolve(ref)) == target


words = st.text(
    st.one_of(st.sampled_from("ab.-"), st.sampled_from("\u00e9\u4f8b\u05d0\U00010300")),
    max_size=4,
)
relative = st.builds(
    lambda prefix, segments, query: prefix + "/".join(segments) + query,
    st.sampled_from(["", "/", "../", "./", "//h\u00e9/"]),
    st.lists(st.one_of(words, st.sampled_from([".", ".."])), max_size=4),
    st.sampled_from(["", "?\u00e9", "#\u00e9", "?q#f"]),
).filter(lambda t: ":" not in t.split("/", 1)[0])


@given(relative)
@settings(max_examples=150)
def test_3_1_resolution_commutes_with_the_mapping(text: str) -> None:
    base = IRI("http://\u00e9.example/\u00e4/b/c?\u00f6")
    ref = IRI(text)
    assert base.resolve(ref).to_uri() == base.to_uri().resolve(ref.to_uri())


# -- RFC 3987 §5.3: the comparison ladder for IRIs ----------------------------------


def test_5_3_1_simple_string_comparison_does_not_map_to_uris() -> None:
    # "the comparison function MUST NOT map IRIs to URIs"
    assert IRI("http://example.org/ros\u00e9") != IRI("http://example.org/ros%C3%A9")
    assert (
        equivalent(
            IRI("http://example.org/ros\u00e9"), IRI("http://example.org/ros%C3%A9"), level="string"
        )
        is False
    )


def test_5_3_2_example() -> None:
    # §5.3.2.3: "the percent-encoding of both IRIs to be compared has to be aligned;
    # for example, by converting both IRIs to URIs (see section 3.1)"
    a = IRI("example://a/b/c/%7Bfoo%7D/ros\u00e9")
    b = IRI("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9")
    assert equivalent(a.to_uri(), b.to_uri(), level="syntax")
    assert not equivalent(a.to_uri(), b.to_uri(), level="string")


def test_5_3_2_1_case_normalization_only_for_ascii() -> None:
    assert str(normalize(IRI("HTTP://www.EXAMPLE.com/\u00c4"), level="syntax")) == (
        "http://www.example.com/\u00c4"
    )


def test_5_3_2_2_character_normalization_is_opt_in() -> None:
    nfc = IRI("http://www.example.org/r\u00e9sum\u00e9.html")
    decomposed = IRI("http://www.example.org/re\u0301sume\u0301.html")
    # "Equivalence of IRIs MUST rely on the assumption that IRIs are appropriately
    # pre-character-normalized rather than apply character normalization"
    assert not equivalent(nfc, decomposed)
    assert equivalent(nfc, decomposed, unicode="NFC")
    assert normalize(decomposed, unicode="NFC") == nfc
    # NFKC: "half-width Latin letters instead of full-width ones"
    assert equivalent(IRI("http://a/\uff41\uff42"), IRI("http://a/ab"), unicode="NFKC")
    assert not equivalent(IRI("http://a/\uff41\uff42"), IRI("http://a/ab"), unicode="NFC")
