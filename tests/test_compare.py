"""Equivalence and the comparison ladder (RFC 3986 §6.1, §6.2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import iri_references, uri_references

from urikit import IRI, URI, URIError, normalize
from urikit.compare import RUNGS, comparison_rung, equivalent
from urikit.normalization import LEVELS
from urikit.protocol_steps import TRACKING_PARAMS

HERE = Path(__file__).parent
VECTORS = json.loads((HERE / "vectors" / "normalization.json").read_text())
REAL_URLS = HERE.parent / "bench" / "urls.txt"


# --- the examples of the issue and of the RFCs ----------------------------------------------


def test_rfc3986_6_2_2_example() -> None:
    a, b = "example://a/b/c/%7A", "eXAMPLE://a/./b/../b/c/%7a"
    assert equivalent(a, b, level="syntax")
    assert comparison_rung(a, b) == "syntax"
    assert not equivalent(a, b, level="string")


def test_rfc3986_6_2_3_example() -> None:
    four = ["http://example.com", "http://example.com/", "http://example.com:/"]
    four.append("http://example.com:80/")
    for a in four:
        for b in four:
            assert equivalent(a, b)
            assert comparison_rung(a, b) == ("string" if a == b else "scheme")
    assert not equivalent("http://example.com/?", "http://example.com/")


def test_rfc3986_6_2_2_1_example() -> None:
    assert equivalent("HTTP://www.EXAMPLE.com/", "http://www.example.com/", level="syntax")
    assert comparison_rung("HTTP://www.EXAMPLE.com/", "http://www.example.com/") == "syntax"


def test_rfc1630_examples() -> None:
    base = "http://info.cern.ch/albert/bertram"
    assert equivalent(base + "/marie%2Dclaude", base + "/marie-claude")
    assert comparison_rung(base + "/marie%2Dclaude", base + "/marie-claude") == "syntax"
    assert not equivalent(base + "%2Fmarie-claude", base + "/marie-claude")
    assert comparison_rung(base + "%2Fmarie-claude", base + "/marie-claude") is None


def test_rfc3986_6_2_3_mailto() -> None:
    assert comparison_rung("mailto:Joe@Example.COM", "mailto:Joe@example.com") == "scheme"
    assert not equivalent("mailto:Joe@example.com", "mailto:joe@example.com")


def test_rfc3986_6_2_4_is_not_automatic() -> None:
    # §6.2.4: a trailing slash is protocol knowledge, never assumed.
    assert comparison_rung("http://example.com/data", "http://example.com/data/") is None


# --- vectors ------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "level", "source"), VECTORS["equivalent"])
def test_equivalent_vectors(a: str, b: str, level: str, source: str) -> None:
    assert equivalent(a, b, level=level), source
    assert equivalent(b, a, level=level), source
    rung = comparison_rung(a, b)
    assert rung is not None and RUNGS.index(rung) <= RUNGS.index(level), source


@pytest.mark.parametrize(("a", "b", "source"), VECTORS["not_equivalent"])
def test_not_equivalent_vectors(a: str, b: str, source: str) -> None:
    assert not equivalent(a, b), source
    assert comparison_rung(a, b) is None, source


# --- the protocol rung -----------------------------------------------------------------------


def test_protocol_rung() -> None:
    assert comparison_rung("http://a/?x=1#top", "http://a/?x=1", drop_fragment=True) == "protocol"
    assert comparison_rung("http://a/?x=1#top", "http://a/?x=1") is None
    a, b = "http://a/?b=1&utm_source=t&a=2", "HTTP://A:80/?a=2&b=1"
    assert comparison_rung(a, b, sort_query=True, remove_params=TRACKING_PARAMS) == "protocol"
    assert equivalent(a, b, sort_query=True, remove_params=TRACKING_PARAMS)
    assert not equivalent(a, b, sort_query=True)
    # The steps never hide a lower rung.
    assert comparison_rung("http://a", "http://a/", drop_fragment=True) == "scheme"


def test_protocol_idna() -> None:
    a, b = "http://xn--bcher-kva.example/", "http://B%C3%BCcher.example/"
    assert comparison_rung(a, b) is None
    assert comparison_rung(a, b, idna="a-label") == "protocol"
    assert comparison_rung(a, b, idna="u-label") == "protocol"
    assert equivalent(IRI("http://Bücher.example/"), a, idna="a-label")


def test_rfc3987_5_3_2_3_iris_compare_as_uris() -> None:
    # RFC 3987 §5.3.2.3: align percent-encoding by converting both IRIs to URIs.
    assert comparison_rung(
        IRI("http://example.org/résumé"), "http://example.org/r%C3%A9sum%C3%A9"
    ) == ("syntax")
    assert equivalent("http://example.org/~user", IRI("http://example.org/%7euser"))
    assert equivalent("http://a/é", "http://a/%c3%a9")  # a non-ASCII string is an IRI
    assert not equivalent("http://a/é", "http://a/%E9")  # different octets


def test_rfc3987_5_3_2_2_character_normalization_is_opt_in() -> None:
    nfc, nfd = "http://www.example.org/résumé.html", "http://www.example.org/résumé.html"
    assert comparison_rung(nfc, nfd) is None
    assert comparison_rung(nfc, nfd, unicode="NFC") == "protocol"
    assert equivalent(nfc, nfd, unicode="NFC")


def test_errors() -> None:
    with pytest.raises(URIError):
        equivalent("http://a b/", "http://a/")
    with pytest.raises(TypeError):
        comparison_rung("http://a/", "http://a/", sort="yes")


# --- laws ------------------------------------------------------------------------------------


@given(uri_references(), st.sampled_from(LEVELS))
def test_equivalent_to_its_normal_form(text: str, level: str) -> None:
    assert equivalent(text, normalize(text, level=level), level=level)
    rung = comparison_rung(text, normalize(text, level=level))
    assert rung is not None and RUNGS.index(rung) <= RUNGS.index(level)


@given(uri_references(), uri_references())
def test_rung_agrees_with_equivalent(a: str, b: str) -> None:
    rung = comparison_rung(a, b)
    for level in LEVELS:
        expected = rung is not None and RUNGS.index(rung) <= RUNGS.index(level)
        assert equivalent(a, b, level=level) == expected


@given(iri_references(), st.sampled_from(LEVELS))
def test_iri_equivalent_to_its_normal_form(text: str, level: str) -> None:
    iri = IRI(text)
    assert equivalent(iri, normalize(iri, level=level), level=level)


@given(uri_references())
def test_equivalence_is_reflexive_and_symmetric(text: str) -> None:
    other = normalize(text, level="syntax")
    assert comparison_rung(text, text) == "string"
    assert comparison_rung(text, other) == comparison_rung(other, text)


# --- real URLs ---------------------------------------------------------------------------------

_STEPS: dict[str, Any] = {
    "drop_fragment": True,
    "sort_query": True,
    "remove_params": TRACKING_PARAMS,
    "form_query": True,
    "strip_host_dot": True,
    "drop_empty_query": True,
}


@pytest.mark.skipif(not REAL_URLS.exists(), reason="bench/urls.txt is not present")
def test_real_urls_idempotent_and_reparse() -> None:
    checked = 0
    for line in REAL_URLS.read_text(encoding="utf-8").splitlines():
        try:
            uri = URI(line)
        except URIError:
            continue
        for level in LEVELS:
            once = normalize(uri, level=level)
            assert URI(str(once)) == once, line
            assert normalize(once, level=level) == once, line
            assert equivalent(uri, once, level=level), line
        protocol = normalize(uri, **_STEPS)
        assert normalize(protocol, **_STEPS) == protocol, line
        checked += 1
    assert checked > 1000
