"""Arbitrary text never gets an undocumented exception out of a public function.

The targets of ``tests/fuzz/targets.py`` (one per public text-taking function,
also run by the atheris fuzzers of ``tools/fuzz_python.sh``) are run here on
Hypothesis draws: any code point (lone surrogates and controls included),
text biased towards the grammar's delimiters, the empty string and long
repetitions.  A target lets ``urikit.URIError`` through only where the text is
bad, and checks the cheap laws (the text round trip, idempotent
normalization, resolution of a relativized target) on the way.  Below them,
each crash the fuzzers found is kept as a regression test.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from fuzz.targets import TARGETS
from hypothesis import given
from hypothesis import strategies as st
from strategies import grammar_text

import urikit

T = TypeVar("T")

#: Any code point at all: Hypothesis leaves out the surrogates (category Cs) unless told.
ANY_TEXT = st.text(st.characters(exclude_categories=()))
LONG_TEXT = st.builds(
    lambda piece, times: piece * times,
    grammar_text(max_size=6).filter(bool),
    st.integers(1_000, 10_000),
)
TEXT = st.one_of(ANY_TEXT, grammar_text(), st.just(""), LONG_TEXT)


class HypothesisDraw:
    """The arguments of a target, drawn by Hypothesis."""

    def __init__(self, data: st.DataObject) -> None:
        self._data = data

    def pick(self, options: Sequence[T]) -> T:
        return self._data.draw(st.sampled_from(options))

    def flag(self) -> bool:
        return self._data.draw(st.booleans())

    def texts(self, count: int) -> list[str]:
        return [self._data.draw(TEXT) for _ in range(count)]

    def octets(self) -> bytes:
        utf8 = TEXT.map(lambda text: text.encode("utf-8", "surrogatepass"))
        utf16 = TEXT.map(lambda text: text.encode("utf-16", "surrogatepass"))
        return self._data.draw(st.one_of(st.binary(), utf8, utf16))


@pytest.mark.parametrize("name", sorted(TARGETS))
@given(data=st.data())
def test_only_documented_exceptions(name: str, data: st.DataObject) -> None:
    TARGETS[name](HypothesisDraw(data))


def test_every_public_function_has_a_target() -> None:
    source = (Path(__file__).parent / "fuzz" / "targets.py").read_text(encoding="utf-8")
    functions = [
        name
        for name in urikit.__all__
        if callable(getattr(urikit, name)) and not isinstance(getattr(urikit, name), type)
    ]
    missing = [name for name in functions if not re.search(rf"\b{name}\(", source)]
    assert not missing


# -- what the fuzzers found -------------------------------------------------------------


@pytest.mark.parametrize("cls", [urikit.URI, urikit.IRI])
@pytest.mark.parametrize(
    "text",
    [
        "https://%25bu.js%20merge%20",  # fuzz_python.py iri: URIError from percent_decode
        "https://%25bu.js/",  # the zone ID 'bu.j'
        "//a%25b:80",
    ],
)
def test_zone_id_of_other_hosts(cls: type[urikit.URI], text: str) -> None:
    # RFC 6874 §2: a ZoneID follows "%25" inside an IPv6 literal only.
    assert cls(text).host_type == "reg-name"
    assert cls(text).zone_id is None


def test_lenient_removes_url_prefix_from_valid_text() -> None:
    # fuzz_python.py lenient: valid text (scheme "URL") that a scheme follows loses the
    # prefix, with a report (Appendix C; docs/deviations.md).
    repaired, reports = urikit.URI.lenient("URL:htte:::htte::655")
    assert str(repaired) == "htte:::htte::655"
    assert [(r.code, r.span) for r in reports] == [("url-prefix", (0, 4))]


def test_parent_keeps_the_dot_before_a_double_slash() -> None:
    # fuzz_python.py paths: with no authority, "//" opens the path behind "/." (§3.3).
    assert str(urikit.URI("https:/.//dlmf.nist.gov/12.10#E9").parent()) == "https:/.//"


def test_relativize_a_dot_segment_under_an_authority() -> None:
    # fuzz_python.py relativize: "/." before "//" is a dot-segment when there is an
    # authority, so the target is answered without it (§5.2.4).
    base = urikit.URI("https://github.com/nodejht:+")
    target = "a://.././/tps://github.com/nodejs/ull/7246"
    assert str(base.relativize(target)) == "a://..//tps://github.com/nodejs/ull/7246"
    assert base.resolve(base.relativize(target)) == base.resolve(target)


def test_loophole_compares_schemes_case_insensitively() -> None:
    # fuzz_python.py resolve: §3.1 schemes are case-insensitive (docs/deviations.md).
    target = urikit.resolve("https://landlock.io/", "httPs://www.debian.org/", strict=False)
    assert str(target) == "https://www.debian.org/"
    assert str(urikit.resolve("https://landlock.io/", "httPs://www.debian.org/")) == (
        "httPs://www.debian.org/"
    )


def test_same_origin_of_a_port_too_long_for_a_number() -> None:
    # fuzz_python.py compare: the origin of a valid URI whose port has no number.
    text = "http://u%2fr@%1Ea9999999999:" + "65536" + "9" * 60 + "#1"
    with pytest.raises(urikit.URIError, match="port"):
        urikit.same_origin(text, text)


def test_query_values_with_a_lone_surrogate() -> None:
    # fuzz_python.py query: a value with no UTF-8 form is bad text (§2.5), not a crash.
    with pytest.raises(urikit.URIError):
        urikit.URI("").with_query_params([("a", "\udcff")])
