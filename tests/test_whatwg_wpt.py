"""The URL Standard's own tests (web-platform-tests, tests/vectors/wpt/), on each implementation.

Each file is run as the web-platform-tests run it in a browser: ``urltestdata.json`` by
the URL constructor (url-constructor.any.js, failure.html), ``setters_tests.json`` by
setting one attribute (url-setters.any.js), ``toascii.json`` and ``IdnaTestV2.json`` by
the host of ``https://{input}/x`` (toascii.window.js, IdnaTestV2.window.js) and the host
setters, ``percent-encoding.json`` by a query in a document of each encoding
(percent-encoding.window.js), and ``urlencoded-parser-data.json`` by ``URLSearchParams``
(urlencoded-parser.any.js).  Every case must pass: there is no list of expected failures.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from urikit import uts46

WPT = Path(__file__).resolve().parent / "vectors" / "wpt"


def _load(name: str) -> Any:
    return json.loads((WPT / name).read_text(encoding="utf-8"))


def _cases(name: str) -> list[dict[str, Any]]:
    return [case for case in _load(name) if isinstance(case, dict)]


URLTESTDATA = _cases("urltestdata.json")
SETTERS = [
    (attribute, case)
    for attribute, cases in _load("setters_tests.json").items()
    if attribute != "comment"
    for case in cases
]
TOASCII = _cases("toascii.json")
IDNA = _cases("IdnaTestV2.json")
PERCENT = _cases("percent-encoding.json")
URLENCODED = _cases("urlencoded-parser-data.json")
GETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")  # fmt: skip


def _id(case: dict[str, Any]) -> str:
    return ascii(case["input"])[:60] + (
        " base=" + ascii(case["base"])[:40] if case.get("base") else ""
    )


@pytest.mark.parametrize("case", URLTESTDATA, ids=_id)
def test_urltestdata(whatwg: ModuleType, case: dict[str, Any]) -> None:
    URL = whatwg.URL
    base = case["base"]
    if case.get("failure"):
        with pytest.raises(whatwg.URLParseError):
            URL(case["input"], base)
        assert URL.can_parse(case["input"], base) is False
        assert URL.parse(case["input"], base) is None
        if base is None:
            # failure.html: what fails without a base fails as a base, and as an href.
            with pytest.raises(whatwg.URLParseError):
                URL("about:blank", case["input"])
            url = URL("about:blank")
            with pytest.raises(whatwg.URLParseError):
                url.href = case["input"]
            assert url.href == "about:blank"
        return
    url = URL(case["input"], base)
    got = {name: getattr(url, name) for name in GETTERS}
    assert got == {name: case[name] for name in GETTERS}
    if "origin" in case:
        assert url.origin == case["origin"]
    if "searchParams" in case:
        assert str(url.search_params) == case["searchParams"]
    assert URL.can_parse(case["input"], base) is True
    # The laws: the href parses to the same href, and so does the URL as an input.
    assert URL(url.href).href == url.href
    assert URL(url).href == url.href


@pytest.mark.parametrize(("attribute", "case"), SETTERS,
                         ids=[f"{a}:{ascii(c['href'])[:30]}<-{ascii(c['new_value'])[:30]}"
                              for a, c in SETTERS])  # fmt: skip
def test_setters(whatwg: ModuleType, attribute: str, case: dict[str, Any]) -> None:
    url = whatwg.URL(case["href"])
    setattr(url, attribute.replace("searchParams", "search_params"), case["new_value"])
    for name, expected in case["expected"].items():
        assert getattr(url, name) == expected, name


def _host_test(whatwg: ModuleType, host: str, output: str | None) -> None:
    URL = whatwg.URL
    if output is None:
        with pytest.raises(whatwg.URLParseError):
            URL(f"https://{host}/x")
        for setter in ("host", "hostname"):
            url = URL("https://x/x")
            setattr(url, setter, host)
            assert url.host == "x"
        return
    url = URL(f"https://{host}/x")
    assert (url.host, url.hostname, url.pathname, url.href) == (
        output,
        output,
        "/x",
        f"https://{output}/x",
    )
    for setter in ("host", "hostname"):
        url = URL("https://x/x")
        setattr(url, setter, host)
        assert url.host == output


@pytest.mark.parametrize("case", TOASCII, ids=_id)
def test_toascii(whatwg: ModuleType, case: dict[str, Any]) -> None:
    _host_test(whatwg, case["input"], case["output"])
    if case["output"] is None:
        with pytest.raises(uts46.IDNAError):
            uts46.domain_to_ascii(case["input"])
    else:
        assert uts46.domain_to_ascii(case["input"]) == case["output"]


def _encode_host_ending(text: str) -> str:
    """IdnaTestV2.window.js: the code points that end a host, percent-encoded."""
    return "".join(f"%{ord(c):02X}" if c in ":/?#\\" else c for c in text)


@pytest.mark.parametrize("case", IDNA, ids=_id)
def test_idna_v2(whatwg: ModuleType, case: dict[str, Any]) -> None:
    if case["input"] == "":
        # Not testable through a URL; ToASCII itself gives the empty string, which the
        # URL Standard's domain parser turns into failure.
        assert uts46.to_ascii("") == case["output"]
        with pytest.raises(uts46.IDNAError):
            uts46.domain_to_ascii("")
        return
    URL = whatwg.URL
    host = _encode_host_ending(case["input"])
    if case["output"] is None:
        with pytest.raises(whatwg.URLParseError):
            URL(f"https://{host}/x")
        return
    url = URL(f"https://{host}/x")
    assert (url.host, url.hostname, url.pathname, url.href) == (
        case["output"],
        case["output"],
        "/x",
        f"https://{case['output']}/x",
    )


PERCENT_CASES = [(case, encoding) for case in PERCENT for encoding in case["output"]]


@pytest.mark.parametrize(("case", "encoding"), PERCENT_CASES,
                         ids=[f"{c['input']!a}-{e}" for c, e in PERCENT_CASES])  # fmt: skip
def test_percent_encoding(whatwg: ModuleType, case: dict[str, Any], encoding: str) -> None:
    text = case["input"]
    url = whatwg.URL(f"https://doesnotmatter.invalid/?{text}#{text}", encoding=encoding)
    assert url.search[1:] == case["output"][encoding]
    assert url.hash[1:] == case["output"]["utf-8"]


@pytest.mark.parametrize("case", URLENCODED, ids=_id)
def test_urlencoded_parser(whatwg: ModuleType, case: dict[str, Any]) -> None:
    expected = [tuple(pair) for pair in case["output"]]
    assert list(whatwg.URLSearchParams(case["input"])) == expected
    assert whatwg.form_urlencoded_parse(case["input"]) == expected
    url = whatwg.URL("https://example.com/?" + case["input"])
    assert list(url.search_params) == expected
