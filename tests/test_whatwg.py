"""urikit.whatwg beyond the web-platform-tests: the API, the reports, the laws.

The laws are Hypothesis properties on assembled, mutated and arbitrary texts, on each
implementation: the href of a URL parses to the same href; setting a component to what
its getter returned changes nothing (but for the three documented cases: an empty query,
an empty fragment, the null host of a URL that is not special); any str input gives a URL
or a URLParseError and nothing else.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
import sys
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from linear import assert_linear
from whatwg_strategies import any_urls, web_urls, wpt_inputs

import urikit
from urikit import URIError

SETTABLE = ("protocol", "username", "password", "host", "hostname", "port", "pathname",
            "search", "hash")  # fmt: skip


# -- the laws --------------------------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=any_urls())
def test_href_parses_to_the_same_href(whatwg: ModuleType, text: str) -> None:
    try:
        url = whatwg.URL(text)
    except whatwg.URLParseError:
        assert not whatwg.URL.can_parse(text)
        return
    assert whatwg.URL.can_parse(text)
    assert whatwg.URL(url.href).href == url.href
    assert url.href.isascii()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=wpt_inputs(), base=st.sampled_from(["http://example.org/foo/bar", "file:///C:/a",
                                                "sc://x/y", "about:blank"]))  # fmt: skip
def test_href_law_with_a_base(whatwg: ModuleType, text: str, base: str) -> None:
    try:
        url = whatwg.URL(text, base)
    except whatwg.URLParseError:
        return
    assert whatwg.URL(url.href).href == url.href


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(web_urls(), wpt_inputs()), attribute=st.sampled_from(SETTABLE))
def test_setting_a_getter_value_changes_nothing(
    whatwg: ModuleType, text: str, attribute: str
) -> None:
    try:
        url = whatwg.URL(text)
    except whatwg.URLParseError:
        return
    before = url.href
    value = getattr(url, attribute)
    setattr(url, attribute, value)
    if attribute == "search" and value == "" and url.href != before:
        # An empty query reads as "" and "" removes the query (§6.1, search setter).
        assert before == url.href + "?" or "?#" in before
        return
    if attribute == "hash" and value == "" and url.href != before:
        assert before == url.href + "#"  # likewise an empty fragment
        return
    if attribute in ("host", "hostname") and value == "" and url.href != before:
        # A URL that is not special and has no host reads host as ""; "" gives it an
        # empty host (§6.1, host state with state override).
        scheme = url.protocol
        assert url.href.startswith(scheme + "//") and not before.startswith(scheme + "//")
        return
    assert url.href == before, (attribute, value)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=60))
def test_any_str_gives_a_url_or_the_documented_error(whatwg: ModuleType, text: str) -> None:
    for base in (None, "http://a/b", "sc:opaque"):
        try:
            whatwg.URL(text, base)
        except whatwg.URLParseError as e:
            assert isinstance(e, URIError) and e.validation_error in whatwg.VALIDATION_ERRORS


# -- the API ---------------------------------------------------------------------------------


def test_the_readme_example(whatwg: ModuleType) -> None:
    u = whatwg.URL("HTTPS://user@Example.COM:443/a/./b/../c?q=1 2#f")
    assert u.href == "https://user@example.com/a/c?q=1%202#f"
    assert (u.protocol, u.username, u.password, u.host, u.hostname, u.port) == (
        "https:",
        "user",
        "",
        "example.com",
        "example.com",
        "",
    )
    assert (u.pathname, u.search, u.hash, u.origin) == ("/a/c", "?q=1%202", "#f",
                                                        "https://example.com")  # fmt: skip


def test_failure_names_the_validation_error(whatwg: ModuleType) -> None:
    with pytest.raises(whatwg.URLParseError) as e:
        whatwg.URL("https://example.org:70000")
    assert e.value.validation_error == "port-out-of-range"
    assert isinstance(e.value, urikit.URIError) and isinstance(e.value, ValueError)
    assert "port-out-of-range" in str(e.value) and e.value.position == 20
    again = pickle.loads(pickle.dumps(e.value))
    assert (again.validation_error, str(again)) == (e.value.validation_error, str(e.value))
    for text, name in [
        ("//x", "missing-scheme-non-relative-URL"),
        ("https://exa%23mple.org", "domain-to-ASCII"),
        ("foo://exa[mple.org", "host-invalid-code-point"),
        ("https://1.2.3.4.5", "IPv4-too-many-parts"),
        ("https://[::1", "IPv6-unclosed"),
        ("https://[1::1::1]", "IPv6-multiple-compression"),
        ("https://example.org:7z", "port-invalid"),
        ("https://@/", "host-missing"),
    ]:
        with pytest.raises(whatwg.URLParseError) as e:
            whatwg.URL(text)
        assert e.value.validation_error == name, text


def test_checked_reports_validation_errors(whatwg: ModuleType) -> None:
    url, reports = whatwg.URL.checked(" https://user:pw@127.0.0x0.1\\a b")
    assert url.href == "https://user:pw@127.0.0.1/a%20b"
    codes = [r.code for r in reports]
    assert codes == ["invalid-URL-unit", "invalid-credentials", "IPv4-non-decimal-part",
                     "invalid-reverse-solidus", "invalid-URL-unit"]  # fmt: skip
    assert reports[1].span == (16, 17)  # the "@", in the input as given
    assert whatwg.URL.checked("https://example.org/").reports == []


def test_equality_hashing_pickling(whatwg: ModuleType) -> None:
    a = whatwg.URL("http://EXAMPLE.com")
    b = whatwg.URL("http://example.com/")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != whatwg.URL("http://example.com/#") and a != "http://example.com/"
    assert str(a) == a.href == a.to_json() and repr(a) == "URL('http://example.com/')"
    for clone in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert clone == a and clone is not a


def test_search_params_are_live_both_ways(whatwg: ModuleType) -> None:
    url = whatwg.URL("https://example.com/?a=1&b=2&a=3")
    params = url.search_params
    assert params is url.search_params
    assert params.get_all("a") == ["1", "3"] and params.get("c") is None
    params.append("c", "x y")
    assert url.search == "?a=1&b=2&a=3&c=x+y"
    params.delete("a")
    assert url.href == "https://example.com/?b=2&c=x+y"
    url.search = "?z=9"
    assert list(params) == [("z", "9")] and params.size == len(params) == 1
    url.href = "https://example.com/?q=%20"
    assert params.get("q") == " "
    params.delete("q")
    assert url.href == "https://example.com/"  # an empty list is a null query
    params.set("b", "1")
    params.append("a", "2")
    params.sort()
    assert str(params) == "a=2&b=1" and "a" in params and params.has("a", "2")
    assert not params.has("a", "3")


def test_url_search_params_init(whatwg: ModuleType) -> None:
    P = whatwg.URLSearchParams
    assert list(P("?a=b")) == [("a", "b")]
    assert list(P({"a": "1", "b": "2"})) == [("a", "1"), ("b", "2")]
    assert list(P([("a", "1"), ["a", "2"]])) == [("a", "1"), ("a", "2")]
    with pytest.raises(TypeError):
        P([("a", "1", "2")])
    assert str(P([("a b", "ü&=")])) == "a+b=%C3%BC%26%3D"
    assert whatwg.form_urlencoded_serialize([("€", "€")], "windows-1252") == "%80=%80"
    assert P("a=1") == P([("a", "1")])


def test_urls_and_uris_between_the_readings(whatwg: ModuleType) -> None:
    # The copy of urikit this reading belongs to (tests/backends.py); the compiled
    # parser reads a URI input through urikit.whatwg._pure, imported by that name.
    package = sys.modules[whatwg.__name__.rpartition(".")[0]]
    uri = (urikit if whatwg.compiled else package).URI("http://example.com/a/../b?q")
    assert whatwg.URL(uri).href == "http://example.com/b?q"
    assert whatwg.URL("c", uri).href == "http://example.com/c"
    assert whatwg.URL("d", whatwg.URL("http://h/x/y")).href == "http://h/x/d"
    made = whatwg.URL("http://h/a").to_uri()
    assert isinstance(made, package.URI) and str(made) == "http://h/a"
    odd = whatwg.URL("http://h/a|b{c}?d^")
    with pytest.raises(package.URIError):
        odd.to_uri()
    assert str(odd.to_uri(lenient=True)) == "http://h/a%7Cb%7Bc%7D?d%5E"
    with pytest.raises(TypeError):
        whatwg.URL(b"http://h/")


def test_components_for_columns(whatwg: ModuleType) -> None:
    assert whatwg.components("HTTP://u:p@h:8080/p?q#f") == (
        "http://u:p@h:8080/p?q#f",
        "http:",
        "u",
        "p",
        "h:8080",
        "h",
        "8080",
        "/p",
        "?q",
        "#f",
    )
    assert whatwg.components("g", "http://a/b") == whatwg.components("http://a/g")
    with pytest.raises(whatwg.URLParseError):
        whatwg.components("http://")


def test_setters_that_leave_the_url_unchanged(whatwg: ModuleType) -> None:
    url = whatwg.URL("mailto:someone@example.com")
    for attribute, value in [("host", "x"), ("hostname", "x"), ("pathname", "/x"),
                             ("port", "1"), ("username", "u")]:  # fmt: skip
        setattr(url, attribute, value)
    assert url.href == "mailto:someone@example.com"
    url = whatwg.URL("http://h/")
    url.protocol = "sc"  # a special scheme cannot become a non-special one
    url.port = "99999"
    url.host = ""
    assert url.href == "http://h/"
    with pytest.raises(whatwg.URLParseError):
        url.href = "not a url"
    assert url.href == "http://h/"


def test_lone_surrogates_are_replaced(whatwg: ModuleType) -> None:
    assert whatwg.URL("http://h/\ud800").pathname == "/%EF%BF%BD"
    assert whatwg.URL("http://h/\ud83d\ude00").pathname == "/%F0%9F%98%80"


def test_domain_functions_are_exported(whatwg: ModuleType) -> None:
    assert whatwg.domain_to_ascii("i❤.ws") == "xn--i-7iq.ws"
    assert whatwg.domain_to_unicode("xn--i-7iq.ws") == "i❤.ws"
    assert whatwg.URL("http://i%E2%9D%A4.ws/").host == whatwg.URL("http://xn--i-7iq.ws/").host


# -- linear time on hostile shapes (tests/linear.py) -------------------------------------------

HOSTILE = {
    "path": lambda n: "http://h/" + "a/" * (n // 2),
    "dot segments": lambda n: "http://h/" + "../" * (n // 3),
    "fragment": lambda n: "http://h/#" + "a b" * (n // 3),
    "opaque path": lambda n: "sc:" + "a " * (n // 2) + "x",
    "query": lambda n: "http://h/?" + "a=%zz&" * (n // 6),
    "at signs": lambda n: "http://" + "a@" * (n // 2) + "h/",
    "userinfo": lambda n: "http://" + "a:" * (n // 2) + "@h/",
    "tabs": lambda n: "http://h/" + "\t" * n,
    "IPv6": lambda n: "http://[" + "1:" * (n // 2) + "]/",
    "percent host": lambda n: "http://" + "%41" * (n // 3) + "/",
    "long host": lambda n: "http://" + "a" * n + "/",
    "IDN host": lambda n: "http://" + "ü" * n + "/",
    "distinct code points": lambda n: (
        "http://" + "".join(map(chr, range(0x4E00, 0x4E00 + n // 4))) + "/"
    ),
    "combining marks": lambda n: "http://a" + "\u0301\u0316" * (n // 8) + "/",
    "labels": lambda n: "http://" + "a." * (n // 2) + "com/",
}


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_linear_time(whatwg: ModuleType, shape: str) -> None:
    def parse(text: str) -> None:
        with contextlib.suppress(whatwg.URLParseError):
            whatwg.URL(text)

    assert_linear(HOSTILE[shape], parse, 40_000 if not whatwg.compiled else 300_000)
