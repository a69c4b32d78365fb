"""What urllib.parse users reach for: its attributes, conversions, origins (docs/migration.md)."""

from __future__ import annotations

import json
from urllib.parse import urlparse, urlsplit

import pytest
from hypothesis import example, given
from strategies import uri_references

from urikit import IRI, URI, URIError, same_origin

CASES = [
    "http://User:pw@Example.COM:8080/a/b;p?q=1&r#f",
    "https://example.com",
    "http://[FE80::1%25Eth0]:80/",
    "http://u@h/",
    "http://:p@h/",
    "file:///etc/hosts",
    "mailto:joe@example.com",
    "//h:1/x",
    "/just/a/path?q",
    "http://h:/",
]


@pytest.mark.parametrize("text", CASES)
def test_attributes_mean_what_urllib_means(text: str) -> None:
    ours, theirs = URI(text), urlsplit(text)
    assert ours.netloc == theirs.netloc
    assert ours.username == theirs.username
    assert ours.password == theirs.password
    assert (ours.hostname or None) == (theirs.hostname or None)
    if ours.port:
        assert ours.port_number == theirs.port


def test_absent_and_empty_differ_where_urllib_cannot_tell() -> None:
    # RFC 3986 §5.3: "?" with nothing after it is an empty query, not none.
    assert URI("http://h/?").query == "" and URI("http://h/").query is None
    assert urlsplit("http://h/?").query == urlsplit("http://h/").query == ""
    assert URI("http://h/").netloc == "" or URI("x:y").netloc == ""
    assert URI("x:y").netloc == "" and URI("x:y").authority is None


@pytest.mark.parametrize("text", CASES)
def test_to_urlsplit_gives_urllibs_answer(text: str) -> None:
    assert URI(text).to_urlsplit() == urlsplit(text)


@given(uri_references())
@example("////")  # an empty authority before a path that begins with "//" (§3.3)
@example("s:////a")
def test_from_urlsplit_round_trips_what_urllib_keeps(text: str) -> None:
    ours = URI(text)
    back = URI.from_urlsplit(ours.to_urlsplit())
    # urllib writes an absent component as "": only empty components can be lost.
    assert back.path == ours.path
    assert back.query == (ours.query or None)
    assert back.fragment == (ours.fragment or None)


def test_from_urlparse_keeps_params_in_the_path() -> None:
    # RFC 3986 §3.3: ";" belongs to the path; there is no params component.
    assert str(URI.from_urlsplit(urlparse("http://h/a;b?c"))) == "http://h/a;b?c"


def test_from_urlsplit_refuses_what_is_not_a_uri() -> None:
    with pytest.raises(URIError):
        URI.from_urlsplit(urlsplit("http://h/a b"))


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("http://Example.com/a", ("http", "example.com", 80)),
        ("HTTPS://example.com:8443/", ("https", "example.com", 8443)),
        ("http://b%C3%BCcher.example/", ("http", "xn--bcher-kva.example", 80)),
        ("http://[::1]/", ("http", "[::1]", 80)),
        ("foo://h/", ("foo", "h", None)),
    ],
)
def test_origin(text: str, origin: tuple[str, str, int | None]) -> None:
    # RFC 6454 §4: scheme and host without case, the default port filled in.
    assert URI(text).origin == origin


def test_opaque_origins() -> None:
    assert URI("mailto:a@b").origin is None
    assert URI("/relative").origin is None
    assert not same_origin("file:///a", "file:///a")


def test_same_origin() -> None:
    assert same_origin("http://Example.com/a", "http://example.com:80/b")
    assert same_origin(IRI("http://bücher.example/"), "http://xn--bcher-kva.example/")
    assert not same_origin("http://a/", "https://a/")
    assert not same_origin("http://a:81/", "http://a/")


def test_effective_port() -> None:
    assert URI("http://h/").effective_port == 80
    assert URI("http://h:8080/").effective_port == 8080
    assert URI("foo://h/").effective_port is None
    assert URI("/x").effective_port is None


def test_format_and_json() -> None:
    u = URI("http://a/")
    assert f"{u:>12}" == "   http://a/"
    assert format(u, "") == "http://a/"
    assert json.dumps([u], default=str) == '["http://a/"]'


def test_urllib_given_a_uri_says_what_to_do() -> None:
    with pytest.raises(TypeError, match=r"str\(uri\)"):
        urlsplit(URI("http://a/"))  # type: ignore[call-overload]
