"""Start tags as the WHATWG HTML tokenizer reads them, and the encoding of HTML bytes.

WHATWG HTML §13.2.5 (tokenization) and §13.2.3.2 (determining the character
encoding): urikit.text.tokenizer and urikit.text.encoding.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit.errors import URIError
from urikit.text import links
from urikit.text.encoding import decode_html, encoding_for_label, prescan
from urikit.text.tokenizer import start_tags

BASE = "http://a/"


def hrefs(html: str) -> list[str]:
    return [tag.attributes["href"] for tag in start_tags(html) if "href" in tag.attributes]


# -- tokenization (§13.2.5) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # 13.2.5.6 tag open: "<" before anything but a letter, "!", "/" or "?" is text
        ("a < b <a href=1> 1<2 <3", ["1"]),
        # a ">" inside a quoted value does not end the tag
        ('<a title="x>y" href=2>', ["2"]),
        # 13.2.5.8 eof-in-tag: a tag cut off by the end of the input is not emitted
        ("<a href=1><a href=2", ["1"]),
        ('<a href="1>', []),
        # 13.2.5.32: a "=" that begins a name belongs to it
        ('<a ="x>" href=3>', []),
        ("<a =x href=3>", ["3"]),
        # 13.2.5.38: no space is needed after a quoted value
        ('<a b="x"href="4">', ["4"]),
        # comments, including the abrupt <!--> and <!--->, and --!>
        ("<!-- <a href=no> --><a href=5>", ["5"]),
        ("<!--><a href=6>", ["6"]),
        ("<!---><a href=7>", ["7"]),
        ("<!-- x --!><a href=8>", ["8"]),
        ("<!-- unterminated <a href=no>", []),
        # bogus comments end at the first ">"
        ("<!DOCTYPE html><a href=9>", ["9"]),
        ("<?xml version='1.0'?><a href=10>", ["10"]),
        ("</ x><a href=11>", ["11"]),
        ("<![CDATA[<a href=no>]]><a href=12>", ["12"]),
        ("</><a href=13>", ["13"]),
        # end tags are read through their attributes
        ('</p title=">"><a href=14>', ["14"]),
        # RCDATA, RAWTEXT and PLAINTEXT
        ("<title><a href=no></title><a href=15>", ["15"]),
        ("<TEXTAREA><a href=no></textarea ><a href=16>", ["16"]),
        ("<style><a href=no></styles></style/><a href=17>", ["17"]),
        ("<xmp><a href=no></xmp><iframe><a href=no></iframe><a href=18>", ["18"]),
        ("<noembed><a href=no></noembed><noframes><a href=no></noframes><a href=19>", ["19"]),
        ("<plaintext></plaintext><a href=no>", []),
        ("<title><a href=no>", []),
        # scripting enabled, as in browsers: <noscript> holds raw text
        ("<noscript><a href=20></noscript><a href=21>", ["21"]),
        ("<NOSCRIPT><a href=20></noscript ><a href=21>", ["21"]),
        ("<noscript><style></noscript><a href=22>", ["22"]),
    ],
)
def test_tokenization(html: str, expected: list[str]) -> None:
    assert hrefs(html) == expected


@pytest.mark.parametrize(
    ("html", "scripting", "expected"),
    [
        ("<noscript><a href=1></noscript><a href=2>", True, ["2"]),
        ("<noscript><a href=1></noscript><a href=2>", False, ["1", "2"]),
        # HTML §13.2.6.4.7: with scripting, <noscript> is raw text, so <style> inside is text
        ("<noscript><style></noscript><a href=3>", True, ["3"]),
        ("<noscript><style></noscript><a href=3>", False, []),
        # foreign content has no raw text elements
        ("<svg><noscript><a href=4></noscript></svg>", True, ["4"]),
    ],
)
def test_the_scripting_flag(html: str, scripting: bool, expected: list[str]) -> None:
    tags = start_tags(html, scripting=scripting)
    assert [t.attributes["href"] for t in tags if "href" in t.attributes] == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<script>x = '<a href=no>'</script><a href=1>", ["1"]),
        ("<script></script x><a href=2>", ["2"]),
        # 13.2.5.20: after "<!--", "</script>" still ends the element
        ("<script><!-- x </script><a href=3>", ["3"]),
        # 13.2.5.27: "<!--<script>" double-escapes; "</script>" then only un-escapes
        ("<script><!--<script></script><a href=no></script><a href=4>", ["4"]),
        ("<script><!--<script>--></script><a href=5>", ["5"]),
        ("<script><!--></script><a href=6>", ["6"]),
        ("<script><!--<scripts></script><a href=7>", ["7"]),
        ("<script><!--<script>", []),
    ],
)
def test_script_data(html: str, expected: list[str]) -> None:
    assert hrefs(html) == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # 13.2.6.5: in foreign content, <style/> is self-closing and CDATA is a section
        ("<svg><style/><a href=1></svg><a href=2>", ["1", "2"]),
        ("<svg><![CDATA[<a href=no>]]><a href=3></svg>", ["3"]),
        ("<math><title><a href=4></title></math><title><a href=no></title>", ["4"]),
        # an HTML element breaks out of foreign content
        ("<svg><p><style><a href=no></style><a href=5>", ["5"]),
        ("<svg><font color=red><style><a href=no></style><a href=6>", ["6"]),
        ("<svg><font><style/><a href=7></svg>", ["7"]),
        ("<svg/><style><a href=no></style><a href=8>", ["8"]),
    ],
)
def test_foreign_content(html: str, expected: list[str]) -> None:
    assert hrefs(html) == expected


def test_names_and_values() -> None:
    (tag,) = start_tags("<A HREF=\"1\" Href=2 DATA-X='&amp;' hidden b\0=x\0>")
    assert tag.name == "a"
    assert tag.attributes == {"href": "1", "data-x": "&", "hidden": "", "b\ufffd": "x\ufffd"}


def test_only_the_named_tags_are_yielded() -> None:
    html = '<p title=">"><a href=1><img src=2>'
    assert [tag.name for tag in start_tags(html, {"a"})] == ["a"]
    assert [tag.offset for tag in start_tags(html)] == [0, 13, 23]


def test_links_start_tag_positions_count_line_feeds() -> None:
    html = "<p>\n  <a href=1>\r\n<br><img\nsrc=2> <a href=3>"
    assert [link.position for link in links(html, BASE)] == [(2, 2), (3, 4), (4, 7)]


def test_the_assertion_error_repro() -> None:
    assert links("<![ ", BASE) == []
    assert links("<![ <a href=x>", BASE) == []


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from(
            [
                *"<>/!?-='\" \n\t&;#x0aA\0",
                "<a",
                "href",
                "<!--",
                "-->",
                "<script",
                "</script",
                "<svg",
                "<style",
                "<![CDATA[",
                "]]>",
                "&amp",
                "&#",
                "<meta",
                "http-equiv=refresh",
                "content=",
                "srcset=",
                "<base",
                "\u00e9",
                "\ud800",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_links_raises_nothing_but_uri_error(html: str) -> None:
    for document in (html, html.encode("utf-8", "surrogatepass")):
        try:
            found = links(document, BASE)
        except URIError:  # pragma: no cover - no document should raise; a base could
            raise
        assert all(link.uri is not None or link.error is not None for link in found)


# -- the encoding of bytes (§13.2.3.2) ------------------------------------------------------------


def test_latin1_page_is_decoded_then_made_a_uri() -> None:
    page = b'<meta charset=iso-8859-1><a href="caf\xe9">'
    (link,) = links(page, BASE)
    assert link.raw == "caf\u00e9"
    assert str(link.uri) == "http://a/caf%C3%A9"
    assert [(r.code, r.span, r.repaired) for r in link.reports] == [("non-ascii", (3, 4), True)]


@pytest.mark.parametrize(
    ("data", "default", "text"),
    [
        # the byte order mark wins over everything
        (
            b"\xef\xbb\xbf<meta charset=windows-1252>caf\xc3\xa9",
            None,
            "<meta charset=windows-1252>caf\u00e9",
        ),
        ("<p>caf\u00e9".encode("utf-16-le").join([b"\xff\xfe", b""]), None, "<p>caf\u00e9"),
        ("<p>caf\u00e9".encode("utf-16-be").join([b"\xfe\xff", b""]), None, "<p>caf\u00e9"),
        # <meta charset> and <meta http-equiv=content-type content=...>
        (b"<meta charset='utf-8'>caf\xc3\xa9", None, "<meta charset='utf-8'>caf\u00e9"),
        (
            b'<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\xc3\xa9',
            "windows-1252",
            '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\u00e9',
        ),
        # content without the pragma does not count
        (
            b'<meta content="text/html; charset=utf-8">\xc3\xa9',
            None,
            '<meta content="text/html; charset=utf-8">\u00c3\u00a9',
        ),
        # a <meta> inside a comment does not count
        (
            b"<!-- <meta charset=utf-8> -->\xc3\xa9",
            None,
            "<!-- <meta charset=utf-8> -->\u00c3\u00a9",
        ),
        # the caller's default, then windows-1252 (whose 0x80 is the euro sign)
        (b"caf\xc3\xa9", "utf-8", "caf\u00e9"),
        (b"\x80\x81", None, "\u20ac\x81"),
        # us-ascii and iso-8859-1 are labels of windows-1252
        (b"<meta charset=us-ascii>\x80", None, "<meta charset=us-ascii>\u20ac"),
        # a UTF-16 label in a <meta> means UTF-8 (the bytes are ASCII-compatible)
        (b"<meta charset=utf-16>\xc3\xa9", None, "<meta charset=utf-16>\u00e9"),
        # undecodable bytes become U+FFFD
        (b"<meta charset=utf-8>\xff", None, "<meta charset=utf-8>\ufffd"),
    ],
)
def test_decode_html(data: bytes, default: str | None, text: str) -> None:
    assert decode_html(data, default) == text


def test_the_prescan_reads_only_the_first_1024_bytes() -> None:
    late = b" " * 1024 + b"<meta charset=utf-8>\xc3\xa9"
    assert decode_html(late).endswith("\u00c3\u00a9")
    assert prescan(b"<meta charset=koi8-r>") == "koi8-r"
    assert prescan(b"<meta http-equiv=content-type content=\"charset='sjis'\">") == "shift_jis"


def test_labels() -> None:
    assert encoding_for_label(" Latin1\n") == "windows-1252"
    assert encoding_for_label("utf8") == "utf-8"
    assert encoding_for_label("utf-7") is None
    assert decode_html(b"<meta charset=iso-2022-kr><a href=x>") == "\ufffd"


def test_default_encoding_reaches_links() -> None:
    (link,) = links(b'<a href="caf\xc3\xa9">', BASE, default_encoding="utf-8")
    assert str(link.uri) == "http://a/caf%C3%A9"
    (link,) = links(b'<a href="caf\xc3\xa9">', BASE)
    assert str(link.uri) == "http://a/caf%C3%83%C2%A9"


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from(
            [
                "<p>",
                "<P>",
                "<b>",
                "<a>",
                "<A href=x>",
                "<img src=y>",
                "<svg>",
                "</svg>",
                "<title>",
                "</title>",
                "<script>",
                "</script>",
                "<style>",
                "</style>",
                "<plaintext>",
                "<!--",
                "-->",
                "<p title='<a href=z>'>",
                "text",
                "<",
                ">",
                "'",
                "\u017fcript",
                "<font color=1>",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_named_start_tags_are_those_of_the_full_pass(html: str) -> None:
    """Skipping the start tags that change nothing changes nothing."""
    names = {"a", "img"}
    assert list(start_tags(html, names)) == [t for t in start_tags(html) if t.name in names]


def test_an_unknown_default_label_is_an_argument_error() -> None:
    # Strict by default: a label the Encoding Standard does not know is not guessed at.
    with pytest.raises(ValueError, match="unknown encoding label"):
        decode_html(b"\x80", "no-such-label")
