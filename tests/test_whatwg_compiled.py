"""The compiled WHATWG parser (urikit._whatwg) against the readable Python, side by side.

Every observation must agree: the getters and the origin of a URL, or the name and the
position of the validation error that failed the parse; ``can_parse`` and ``components``;
and the URL after each setter.  The inputs are the benchmark corpus, assembled and
mutated URLs, the web-platform-tests' inputs mutated, and arbitrary text in every part,
hosts of any Unicode included (UTS #46 in C against ``urikit.uts46``).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from whatwg_strategies import WPT_BASES, any_urls, mutated, web_urls, wpt_inputs
from whatwg_twins import COMPILED, COMPILED_BUILT, PURE, REQUIRED

CORPUS = Path(__file__).resolve().parent.parent / "bench" / "urls.txt"
URLS = CORPUS.read_text(encoding="utf-8").splitlines()
GETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash", "origin")  # fmt: skip
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")  # fmt: skip
BASES = (None, "http://example.org/foo/bar", "file:///C:/a/b", "sc://h/p?q", "sc:opaque",
         "https://u:p@h:8080/a/b/c?q#f", "file://host/share/x")  # fmt: skip

pytestmark = pytest.mark.skipif(
    not COMPILED_BUILT and not REQUIRED, reason="urikit._whatwg is not built"
)


def test_the_compiled_module_is_used() -> None:
    assert COMPILED.compiled, "URIKIT_REQUIRE_EXTENSION=1 but urikit._whatwg did not load"
    assert not PURE.compiled


def _outcome(whatwg: ModuleType, text: str, base: str | None) -> tuple[object, ...]:
    try:
        url = whatwg.URL(text, base)
    except whatwg.URLParseError as e:
        assert not whatwg.URL.can_parse(text, base)
        return ("failure", e.validation_error, e.position)
    assert whatwg.URL.can_parse(text, base)
    assert whatwg.components(text, base) == tuple(getattr(url, g) for g in GETTERS[:10])
    return tuple(getattr(url, g) for g in GETTERS)


def _agree(text: str, base: str | None = None) -> None:
    assert _outcome(COMPILED, text, base) == _outcome(PURE, text, base), (text, base)


def test_corpus() -> None:
    for line in URLS:
        _agree(line)


@pytest.mark.parametrize("base", BASES)
def test_wpt_inputs_against_bases(base: str | None) -> None:
    from whatwg_strategies import WPT_INPUTS

    for text in WPT_INPUTS:
        _agree(text, base)


@given(text=any_urls(), base=st.sampled_from(BASES + tuple(WPT_BASES[:20])))
def test_generated(text: str, base: str | None) -> None:
    _agree(text, base)


@given(text=st.sampled_from(URLS).flatmap(mutated))
def test_corpus_mutations(text: str) -> None:
    _agree(text)


@given(host=st.text(max_size=12), scheme=st.sampled_from(("http", "https", "file", "sc")))
def test_any_host(host: str, scheme: str) -> None:
    _agree(f"{scheme}://{host}/x")
    _agree(f"{scheme}://{host}")


IDN_PIECES = ["xn--", "xn--tda", "Ü", "ß", "\u200c", "\u200d", "\u094d", "\u05d0", "\u0627",
              "1", "a", ".", "-", "\u0300", "\u0661", "٠", "ｅ", "\uff0e", "\u3002", "%",
              "%C3%BC", "\u00ad", "ς", "\u1100", "\u1161", "\uac00", "\u11a8", "\u0340",
              "\u0958", "❤"]  # fmt: skip


@given(host=st.lists(st.sampled_from(IDN_PIECES), max_size=8).map("".join))
def test_idn_hosts(host: str) -> None:
    _agree(f"https://{host}/")


@given(text=st.one_of(web_urls(), wpt_inputs()), setter=st.sampled_from(SETTERS),
       value=st.one_of(st.text(max_size=12), wpt_inputs()))  # fmt: skip
def test_setters(text: str, setter: str, value: str) -> None:
    hrefs = []
    for whatwg in (COMPILED, PURE):
        try:
            url = whatwg.URL(text)
        except whatwg.URLParseError:
            return
        try:
            setattr(url, setter, value)
        except whatwg.URLParseError:
            hrefs.append(None)
            continue
        url.search_params.append("k", value)
        hrefs.append(tuple(getattr(url, g) for g in GETTERS))
    assert hrefs[0] == hrefs[1]


def test_surrogates_and_controls() -> None:
    for text in ["http://h/\ud800", "http://h/\ud83d\ude00", " \thttp://h/\n ", "\x00http://a\r/",
                 "http://\ud800/", "sc://\udfff\ud800/", "http://h:80\t80/"]:  # fmt: skip
        _agree(text)


@pytest.mark.parametrize("encoding", ["windows-1252", "shift_jis", "utf-8"])
def test_legacy_encodings_through_the_readable_parser(encoding: str) -> None:
    text = "https://h/p?q=\u20ac\u2212#\u20ac"
    expected = PURE.URL(text, encoding=encoding).href
    assert COMPILED.URL(text, encoding=encoding).href == expected
    errors: list[tuple[str, int]] = []
    assert COMPILED.URL._parse(text, None, encoding, errors).href == expected
    assert COMPILED.URL._parse(text, None).href == PURE.URL(text).href
