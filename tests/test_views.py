"""Scheme views: mailto (RFC 6068), news (RFC 5538), ftp ;type= (RFC 1738), urn (RFC 8141)."""

from __future__ import annotations

import pytest

from urikit import URI, URIError
from urikit.views import URN, VIEWS, Mailto, News, ftp_type, mailto, news, urn, view

# -- mailto: RFC 6068 §6 examples, verbatim -------------------------------------------


@pytest.mark.parametrize(
    ("text", "to", "headers"),
    [
        # §6.1
        ("mailto:chris@example.com", ["chris@example.com"], []),
        (
            "mailto:infobot@example.com?subject=current-issue",
            ["infobot@example.com"],
            [("subject", "current-issue")],
        ),
        (
            "mailto:infobot@example.com?body=send%20current-issue",
            ["infobot@example.com"],
            [("body", "send current-issue")],
        ),
        (
            "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
            ["infobot@example.com"],
            [("body", "send current-issue\r\nsend index")],
        ),
        (
            "mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
            ["list@example.org"],
            [("In-Reply-To", "<3469A91.D10AF4C@example.com>")],
        ),
        (
            "mailto:joe@example.com?cc=bob@example.com&body=hello",
            ["joe@example.com"],
            [("cc", "bob@example.com"), ("body", "hello")],
        ),
        ("mailto:gorby%25kremvax@example.com", ["gorby%kremvax@example.com"], []),
        (
            "mailto:unlikely%3Faddress@example.com?blat=foop",
            ["unlikely?address@example.com"],
            [("blat", "foop")],
        ),
        ("mailto:Mike%26family@example.org", ["Mike&family@example.org"], []),
        # §6.2
        ("mailto:%22not%40me%22@example.org", ['"not@me"@example.org'], []),
        ("mailto:%22oh%5C%5Cno%22@example.org", ['"oh\\\\no"@example.org'], []),
        (
            "mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
            ['"\\\\\\"it\'s\\ ugly\\\\\\""@example.org'],
            [],
        ),
        (
            "mailto:user@example.org?subject=caf%C3%A9",
            ["user@example.org"],
            [("subject", "café")],
        ),
        # §6.3: "to" in the header fields adds addresses
        (
            "mailto:?to=addr1@an.example,addr2@an.example",
            ["addr1@an.example", "addr2@an.example"],
            [("to", "addr1@an.example,addr2@an.example")],
        ),
        (
            "mailto:addr1@an.example,addr2@an.example",
            ["addr1@an.example", "addr2@an.example"],
            [],
        ),
        (
            "mailto:addr1@an.example?to=addr2@an.example",
            ["addr1@an.example", "addr2@an.example"],
            [("to", "addr2@an.example")],
        ),
    ],
)
def test_mailto(text: str, to: list[str], headers: list[tuple[str, str]]) -> None:
    m = mailto(URI(text))
    assert m == Mailto(tuple(to), tuple(headers))


def test_mailto_plus_is_a_plus() -> None:
    # RFC 6068 §5: "+" is not a space in mailto: (no form encoding).
    m = mailto("mailto:a+tag@example.org?subject=1+1")
    assert m.to == ("a+tag@example.org",)
    assert m.subject == "1+1"


def test_mailto_helpers() -> None:
    m = mailto("mailto:joe@example.com?CC=a@x,b@x&Subject=Hi&cc=c@x&bcc=d@x&body=text")
    assert m.cc == ("a@x", "b@x", "c@x")
    assert m.bcc == ("d@x",)
    assert m.subject == "Hi"
    assert m.body == "text"
    assert m.header("subject") == "Hi"
    assert m.header("x-none") is None
    assert mailto("mailto:joe@example.com").subject is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mailto:a@x?subject", "no '='"),
        ("mailto:a@x#f", "fragment"),
        ("mailto://a@x", "authority"),
        ("http://x/", "not a mailto"),
        ("mailto:a@x?subject=%FF", "UTF-8|utf-8"),
    ],
)
def test_mailto_invalid(text: str, message: str) -> None:
    with pytest.raises(URIError, match=message):
        mailto(text)


# -- news: RFC 5538 §2.1 (and RFC 1738 §3.6) ------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("news:comp.infosystems.www.misc", News("comp.infosystems.www.misc", None)),
        ("news:*", News("*", None)),
        ("news:comp.lang.*", News("comp.lang.*", None)),
        (
            "news:p0624081dc30b8699bf9b@%5B10.20.30.108%5D",
            News(None, "p0624081dc30b8699bf9b@[10.20.30.108]"),
        ),
        (
            "news://news.server.example/example.group.this",
            News("example.group.this", None, "news.server.example"),
        ),
        ("news://news.server.example/*", News("*", None, "news.server.example")),
        (
            "news://news.server.example/abc%40def.example",
            News(None, "abc@def.example", "news.server.example"),
        ),
    ],
)
def test_news(text: str, expected: News) -> None:
    assert news(text) == expected


@pytest.mark.parametrize("text", ["news:", "news://server/", "news:a?b", "nntp://h/g"])
def test_news_invalid(text: str) -> None:
    with pytest.raises(URIError):
        news(text)


# -- ftp ;type= : RFC 1738 §3.2.2 --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ftp://ftp.example.org/pub/file.tar;type=i", "i"),
        ("ftp://ftp.example.org/pub/file.txt;type=A", "a"),
        ("ftp://ftp.example.org/pub/;type=d", "d"),
        ("ftp://ftp.example.org/pub/file.txt", None),
        ("ftp://ftp.example.org/a;type=i/b", None),
        ("ftp://ftp.example.org", None),
    ],
)
def test_ftp_type(text: str, expected: str | None) -> None:
    assert ftp_type(text) == expected


@pytest.mark.parametrize("text", ["ftp://h/f;type=x", "ftp://h/f;type=", "http://h/f;type=i"])
def test_ftp_type_invalid(text: str) -> None:
    with pytest.raises(URIError):
        ftp_type(text)


# -- urn: RFC 8141 §2, §3.1 -------------------------------------------------------------


def test_urn_components() -> None:
    u = urn("urn:example:a123,z456?+abc?=xyz#789")
    assert u == URN("example", "a123,z456", "abc", "xyz", "789")
    assert urn("urn:example:a123,z456?=xyz") == URN("example", "a123,z456", None, "xyz")
    assert urn("urn:example:a123,z456?+r?x=1") == URN("example", "a123,z456", "r?x=1")
    assert urn("urn:isbn:0451450523") == URN("isbn", "0451450523")


def test_urn_rfc8141_section_3_2_example() -> None:
    u = urn("urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z")
    assert u.nid == "example"
    assert u.nss == "weather"
    assert u.q_component == "op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z"


def test_urn_equivalence_rfc8141_section_3_2() -> None:
    # §3.2: these are URN-equivalent to the first ...
    same = [
        "urn:example:a123,z456",
        "URN:example:a123,z456",
        "urn:EXAMPLE:a123,z456",
        "urn:example:a123,z456?+abc",
        "urn:example:a123,z456?=xyz",
        "urn:example:a123,z456#789",
    ]
    keys = {urn(text).equivalence_key for text in same}
    assert keys == {"urn:example:a123,z456"}
    # ... and these are not.
    different = [
        "urn:example:a123,z456/foo",
        "urn:example:a123,z456/bar",
        "urn:example:a123%2Cz456",
        "urn:example:a123%2cz456",
        "urn:example:A123,z456",
        "urn:example:a123,Z456",
        "urn:example:%D0%B0123,z456",
    ]
    keys = [urn(text).equivalence_key for text in different]
    assert "urn:example:a123,z456" not in keys
    assert keys[2] == keys[3]  # percent-encodings compare in upper case
    assert len(set(keys)) == len(keys) - 1


@pytest.mark.parametrize(
    "text",
    [
        "urn:a:x",  # NID too short
        "urn:-ab:x",
        "urn:ab-:x",
        "urn:" + "a" * 33 + ":x",
        "urn:a_b:x",
        "urn:example",
        "urn:example:",
        "urn:example:/x",
        "urn:example:x?y",
        "urn:example:x?+",
        "urn:example:x?=",
        "urn:example:x?+/a",
        "urn://example/x",
        "isbn:0451450523",
    ],
)
def test_urn_invalid(text: str) -> None:
    with pytest.raises(URIError):
        urn(text)


def test_nid_length_bounds() -> None:
    assert urn("urn:ab:x").nid == "ab"
    assert urn("urn:" + "a" * 32 + ":x").nid == "a" * 32


# -- the table of views ----------------------------------------------------------------


def test_view_dispatches_on_the_scheme() -> None:
    assert set(VIEWS) == {"mailto", "news", "ftp", "urn"}
    assert view("MAILTO:a@x") == Mailto(("a@x",), ())
    assert view("urn:isbn:1") == URN("isbn", "1")
    assert view("ftp://h/f;type=a") == "a"
    assert view("http://h/") is None
    assert view("/relative") is None


def test_a_view_takes_a_uri_or_a_str() -> None:
    assert view(URI("urn:isbn:1")) == URN("isbn", "1")
    with pytest.raises(TypeError):
        view(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mailto(b"mailto:a@x")  # type: ignore[arg-type]
