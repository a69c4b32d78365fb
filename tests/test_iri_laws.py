"""The laws of the IRI <-> URI conversions (RFC 3987 §3.1, §3.2), as properties.

* §3.1: the mapping is the identity on URIs and idempotent, and its result is a URI;
* §3.2: the conversion "will always result in an IRI that maps back to the URI used as
  an input ... (except for potential case differences in percent-encoding)";
* an IRI made of letters, mapped to a URI and converted back, is itself again.
"""

from __future__ import annotations

import re
import string
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import iri_references, uri_references

from urikit import IRI, URI, mapping
from urikit.bidi import find_bidi_formatting
from urikit.components import Parts
from urikit.grammar import IRI_GRAMMAR


def _parts(ref: URI | IRI) -> Parts:
    return Parts(*(getattr(ref, name) for name in Parts._fields))


def iri_to_uri(text: str | URI | IRI, *, idna: bool = False, nfc: bool = False) -> URI:
    """RFC 3987 §3.1 on a reference read as an IRI, through ``urikit.mapping``."""
    ref = IRI(text)
    return URI(mapping.iri_to_uri(str(ref), _parts(ref), idna=idna, nfc=nfc))


def uri_to_iri(text: str | URI | IRI, *, idna: bool = False) -> IRI:
    """RFC 3987 §3.2 on a reference read as an IRI, through ``urikit.mapping``."""
    ref = IRI(text)
    return IRI(mapping.uri_to_iri(str(ref), _parts(ref), idna=idna))


UNRESERVED = string.ascii_letters + string.digits + "-._~"
SUB_DELIMS = "!$&'()*+,;="
UCSCHAR = IRI_GRAMMAR.rule("ucschar")
IPRIVATE = IRI_GRAMMAR.rule("iprivate")


def upper_non_ascii_octets(text: str) -> str:
    """The only change §3.2 allows a round trip: the hex case of non-ASCII octets.

    An IP literal is never converted, so its zone ID keeps its case.
    """

    def upper(part: str) -> str:
        return re.sub("%[89A-Fa-f][0-9A-Fa-f]", lambda m: m.group().upper(), part)

    ref = IRI(text)
    span = ref.span("host")
    if span is None or text[span[0] : span[0] + 1] != "[":
        return upper(text)
    return upper(text[: span[0]]) + text[span[0] : span[1]] + upper(text[span[1] :])


def triplets(data: bytes, lower: list[bool] | None = None) -> str:
    out = []
    for index, octet in enumerate(data):
        hex_digits = f"{octet:02X}"
        if lower and lower[index % len(lower)]:
            hex_digits = hex_digits.lower()
        out.append("%" + hex_digits)
    return "".join(out)


# Percent-encoded octets of every kind: random bytes (mostly not UTF-8), the UTF-8 of
# random text (any character, allowed in an IRI or not), in either hex case.
encoded_octets = st.one_of(
    st.binary(min_size=1, max_size=4),
    st.text(min_size=1, max_size=3).map(lambda s: s.encode("utf-8")),
)


def uri_piece(extra: str, lower_case: bool) -> st.SearchStrategy[str]:
    lower = st.lists(st.booleans(), min_size=1, max_size=3) if lower_case else st.just([])
    encoded = st.builds(triplets, encoded_octets, lower)
    plain = st.sampled_from(list(UNRESERVED + SUB_DELIMS + extra))
    return st.lists(st.one_of(plain, encoded), max_size=6).map("".join)


@st.composite
def uris(draw: st.DrawFn, lower_case: bool = False) -> str:
    """URI references with percent-encodings everywhere a URI may have them."""
    text = ""
    if draw(st.booleans()):
        text += draw(st.sampled_from(["http:", "urn:", "x-y+z.1:"]))
    if draw(st.booleans()):
        text += "//"
        if draw(st.booleans()):
            text += draw(uri_piece(":", lower_case)) + "@"
        text += draw(
            st.one_of(
                uri_piece("", lower_case),
                st.just("[::1]"),
                st.just("[fe80::1%25en%C3%A90]"),
                st.just("127.0.0.1"),
            )
        )
        if draw(st.booleans()):
            text += ":" + draw(st.sampled_from(["", "80", "08080"]))
        segments = draw(st.lists(uri_piece(":@", lower_case), max_size=3))
        text += "".join("/" + s for s in segments)
    else:
        segments = draw(st.lists(uri_piece("@", lower_case), max_size=3))
        path = "/".join(segments)
        # §3.3: without an authority a path cannot begin with "//".
        text += "/." + path[1:] if path.startswith("//") else path
    if draw(st.booleans()):
        text += "?" + draw(uri_piece(":@/?", lower_case))
    if draw(st.booleans()):
        text += "#" + draw(uri_piece(":@/?", lower_case))
    return text


def ucs(letters_only: bool) -> st.SearchStrategy[str]:
    if letters_only:
        return st.characters(categories=["Lu", "Ll", "Lo"], min_codepoint=0xA0)
    return st.characters(min_codepoint=0xA0).filter(lambda c: UCSCHAR.fullmatch(c) is not None)


@st.composite
def iris(draw: st.DrawFn, letters_only: bool = False) -> str:
    """IRI references: the URIs above with ucschar (and iprivate in the query) mixed in."""
    pieces = st.one_of(ucs(letters_only), st.sampled_from(list(UNRESERVED)))
    word = st.lists(pieces, max_size=5).map("".join)
    host = draw(word)
    path = "/".join(draw(st.lists(word, max_size=3)))
    query_chars = st.one_of(
        pieces, st.characters(min_codepoint=0xE000, max_codepoint=0xF8FF), st.just("=")
    )
    query = draw(st.lists(query_chars, max_size=5).map("".join))
    text = f"http://{host}/{path}?{query}#{draw(word)}"
    if not letters_only:
        text += draw(uri_piece(":@/?", False))
    return text


def without_bidi_formatting(text: str) -> str:
    return re.sub("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", text)


@given(uris())
@settings(max_examples=200)
def test_3_2_round_trip_is_exact_with_upper_case_hex(text: str) -> None:
    uri = URI(text)
    assert uri.to_iri().to_uri() == uri


@given(uris(lower_case=True))
@settings(max_examples=200)
def test_3_2_round_trip_up_to_hex_case(text: str) -> None:
    uri = URI(text)
    assert str(uri.to_iri().to_uri()) == upper_non_ascii_octets(text)


@given(uris(lower_case=True))
@settings(max_examples=100)
def test_3_2_conversion_is_idempotent(text: str) -> None:
    once = uri_to_iri(text)
    assert uri_to_iri(once) == once
    assert uri_to_iri(once, idna=True) == uri_to_iri(text, idna=True)


@given(uris(lower_case=True))
@settings(max_examples=100)
def test_3_1_identity_on_uris(text: str) -> None:
    assert str(IRI(text).to_uri()) == text


@given(st.builds(without_bidi_formatting, iris()))
@settings(max_examples=200)
def test_3_1_result_is_a_uri_and_idempotent(text: str) -> None:
    uri = iri_to_uri(text)
    assert str(uri).isascii()
    assert type(uri) is URI
    assert IRI(uri).to_uri() == uri
    assert iri_to_uri(uri, nfc=True) == uri
    assert iri_to_uri(text, nfc=True) == iri_to_uri(iri_to_uri(text, nfc=True), nfc=True)


@given(iris(letters_only=True))
@settings(max_examples=200)
def test_iri_to_uri_to_iri_is_identity_for_letters(text: str) -> None:
    iri = IRI(text)
    assert iri.to_uri().to_iri() == iri
    assume(unicodedata.normalize("NFC", text) == text)
    assert iri.to_uri(nfc=True).to_iri() == iri


@given(uri_references())
@settings(max_examples=150)
def test_round_trip_on_grammar_generated_uris(text: str) -> None:
    assert str(URI(text).to_iri().to_uri()) == upper_non_ascii_octets(text)
    assert str(IRI(text).to_uri()) == text


@given(iri_references())
@settings(max_examples=150)
def test_mapping_on_grammar_generated_iris(text: str) -> None:
    assume(find_bidi_formatting(text) is None)
    uri = IRI(text).to_uri()
    assert IRI(uri).to_uri() == uri
    assert str(uri.to_iri().to_uri()) == upper_non_ascii_octets(str(uri))


CORPUS = Path(__file__).resolve().parent.parent / "bench" / "urls.txt"


@pytest.mark.skipif(not CORPUS.exists(), reason="bench/urls.txt is not there")
def test_round_trip_on_real_urls() -> None:
    checked = 0
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        try:
            uri = URI(line)
        except ValueError:
            continue
        iri = uri.to_iri()
        assert str(iri.to_uri()) == upper_non_ascii_octets(line), line
        assert str(IRI(line).to_uri()) == line
        assert uri_to_iri(iri) == iri
        checked += 1
    assert checked > 1000
