"""The links of an HTML document and its embedded base URI (urikit.html).

RFC 3986 §5.1.1 (base URI embedded in content) and the appendix "Embedding
the Base URI in HTML documents" of draft-fielding-uri-rfc2396bis-02.
"""

from __future__ import annotations

import io
import json
import signal
import sys
from pathlib import Path

import pytest

from urikit.cli import main
from urikit.errors import URIError
from urikit.text.html import (
    URL_ATTRIBUTES,
    Link,
    decode_attribute,
    links,
    refresh_url,
    srcset_urls,
    start_tag_attributes,
)
from urikit.uri import URI

RETRIEVAL = "http://host.example/dir/page.html"


def resolved(html: str | bytes, base: str = RETRIEVAL) -> list[str | None]:
    return [None if link.uri is None else str(link.uri) for link in links(html, base)]


# -- the appendix example, verbatim ---------------------------------------------------------------

# draft-fielding-uri-rfc2396bis-02, "Embedding the Base URI in HTML documents".
APPENDIX_HTML = """\
   <!doctype html public "-//W3C//DTD HTML 4.01 Transitional//EN">
   <HTML><HEAD>
   <TITLE>An example HTML document</TITLE>
   <BASE href="http://www.example.com/Test/a/b/c">
   </HEAD><BODY>
   ... <A href="../x">a hypertext anchor</A> ...
   </BODY></HTML>
"""


def test_appendix_embedding_the_base_uri_in_html() -> None:
    # "regardless of the context in which the example document was obtained"
    for retrieval in (RETRIEVAL, "ftp://elsewhere/x/y", "file:///tmp/doc.html"):
        (base, anchor) = links(APPENDIX_HTML, retrieval)
        assert (anchor.tag, anchor.attribute, anchor.raw) == ("a", "href", "../x")
        assert anchor.uri == URI("http://www.example.com/Test/a/x")
        assert (base.tag, base.attribute) == ("base", "href")
        assert base.uri == URI("http://www.example.com/Test/a/b/c")


def test_appendix_positions_are_those_of_the_start_tags() -> None:
    base, anchor = links(APPENDIX_HTML, RETRIEVAL)
    assert base.position == (4, 3)
    assert anchor.position == (6, 7)


# -- <base> ---------------------------------------------------------------------------------------


def test_without_base_the_retrieval_uri_is_the_base() -> None:
    assert resolved('<a href="x">') == ["http://host.example/dir/x"]
    assert resolved('<a href="../g?q#f">') == ["http://host.example/g?q#f"]


def test_relative_base_href_is_resolved_against_the_retrieval_uri() -> None:
    html = '<base href="../other/"><a href="x">'
    assert resolved(html) == ["http://host.example/other/", "http://host.example/other/x"]


def test_first_base_with_href_wins_and_a_second_is_ignored() -> None:
    html = '<base target="_top"><base href="/one/"><base href="/two/"><a href="x">'
    assert resolved(html) == [
        "http://host.example/one/",
        "http://host.example/two/",  # listed, resolved, but not used as the base
        "http://host.example/one/x",
    ]


@pytest.mark.parametrize(
    ("html", "on", "off"),
    [
        # HTML §13.2.6.4.7: with scripting, <noscript> is raw text, so a <style> in it
        # is text; without, the <style> opens raw text that hides the rest.
        ("<noscript><style></noscript><a href=/x>x</a>", ["/x"], []),
        ("<noscript><a href=/in></noscript><a href=/out>", ["/out"], ["/in", "/out"]),
        ("<noscript><base href=/t/></noscript><a href=x>", ["x"], ["/t/", "/t/x"]),
    ],
)
def test_links_read_noscript_by_the_scripting_flag(
    html: str, on: list[str], off: list[str]
) -> None:
    """``links`` takes scripting as enabled, as browsers do; ``scripting=False`` reads
    ``<noscript>`` as markup (HTML §13.2.4.5), a ``<base>`` in it included."""
    assert [str(link.uri) for link in links(html, RETRIEVAL)] == [
        str(URI(RETRIEVAL).resolve(ref)) for ref in on
    ]
    assert [str(link.uri) for link in links(html, RETRIEVAL, scripting=True)] == [
        str(URI(RETRIEVAL).resolve(ref)) for ref in on
    ]
    assert [str(link.uri) for link in links(html, RETRIEVAL, scripting=False)] == [
        str(URI(RETRIEVAL).resolve(ref)) for ref in off
    ]


def test_base_applies_to_links_before_it() -> None:
    # HTML: the document base URL is that of the first base element with href.
    assert resolved('<a href="x"><base href="http://b.example/">') == [
        "http://b.example/x",
        "http://b.example/",
    ]


def test_invalid_base_href_falls_back_to_the_retrieval_uri() -> None:
    base, anchor = links('<base href="http://[oops/"><a href="x">', RETRIEVAL)
    assert base.uri is None and isinstance(base.error, URIError)
    assert anchor.uri == URI("http://host.example/dir/x")


def test_retrieval_uri_must_be_absolute() -> None:
    with pytest.raises(URIError):
        links('<a href="x">', "/relative")
    assert links("<p>nothing</p>", URI(RETRIEVAL)) == []


# -- which attributes -----------------------------------------------------------------------------

ELEMENTS = [
    ('<a href="u">', "a", "href"),
    ('<area href="u">', "area", "href"),
    ('<link rel=stylesheet href="u">', "link", "href"),
    ('<img src="u">', "img", "src"),
    ('<script src="u"></script>', "script", "src"),
    ('<iframe src="u"></iframe>', "iframe", "src"),
    ('<frame src="u">', "frame", "src"),
    ('<source src="u">', "source", "src"),
    ('<audio src="u"></audio>', "audio", "src"),
    ('<video src="u"></video>', "video", "src"),
    ('<embed src="u">', "embed", "src"),
    ('<track src="u">', "track", "src"),
    ('<input type=image src="u">', "input", "src"),
    ('<img srcset="u 2x">', "img", "srcset"),
    ('<source srcset="u">', "source", "srcset"),
    ('<video poster="u"></video>', "video", "poster"),
    ('<form action="u"></form>', "form", "action"),
    ('<button formaction="u">', "button", "formaction"),
    ('<input type=submit formaction="u">', "input", "formaction"),
    ('<object data="u"></object>', "object", "data"),
    ('<blockquote cite="u">', "blockquote", "cite"),
    ('<q cite="u">', "q", "cite"),
    ('<del cite="u">', "del", "cite"),
    ('<ins cite="u">', "ins", "cite"),
    ('<meta http-equiv="refresh" content="5; url=u">', "meta", "content"),
]


@pytest.mark.parametrize(("html", "tag", "attribute"), ELEMENTS)
def test_url_attributes(html: str, tag: str, attribute: str) -> None:
    (link,) = links(html, RETRIEVAL)
    assert (link.tag, link.attribute, link.raw) == (tag, attribute, "u")
    assert link.uri == URI("http://host.example/dir/u")
    assert link.error is None and link.reports == ()


def test_the_table_covers_the_elements() -> None:
    for _, tag, attribute in ELEMENTS:
        assert tag == "meta" or attribute in URL_ATTRIBUTES[tag]


@pytest.mark.parametrize(
    "html",
    [
        '<div href="u">',
        '<a name="u">',
        '<img alt="u">',
        "<a>",
        '<meta name="description" content="5; url=u">',
        '<meta http-equiv="content-type" content="text/html">',
        "<!-- <a href='u'> -->",
        "<script>document.write('<a href=\"u\">')</script>",
        "<style>a { background: url(u) }</style>",
    ],
)
def test_not_links(html: str) -> None:
    assert links(html, RETRIEVAL) == []


def test_document_order_and_attribute_order() -> None:
    html = """<link href=a.css>
<img srcset="s1.png 1x, s2.png 2x" src=i.png>
<p><q cite=q.html>x</q><a href=b.html>b</a>
"""
    found = [(link.tag, link.attribute, link.raw, link.position) for link in links(html, RETRIEVAL)]
    assert found == [
        ("link", "href", "a.css", (1, 0)),
        ("img", "srcset", "s1.png", (2, 0)),
        ("img", "srcset", "s2.png", (2, 0)),
        ("img", "src", "i.png", (2, 0)),
        ("q", "cite", "q.html", (3, 3)),
        ("a", "href", "b.html", (3, 23)),
    ]


def test_tag_and_attribute_names_are_case_insensitive() -> None:
    assert resolved('<A HREF="x"><IMG SrC=y>') == [
        "http://host.example/dir/x",
        "http://host.example/dir/y",
    ]


def test_empty_values() -> None:
    # RFC 3986 §5.2: the empty reference is the base (without its fragment).
    assert resolved('<a href="">', RETRIEVAL + "#top") == [RETRIEVAL]
    assert resolved("<a href>") == [RETRIEVAL]
    # HTML §4.10.21.3: an empty action is the document's URL, whatever <base> says.
    assert resolved('<base href="/b/"><form action="">') == ["http://host.example/b/", RETRIEVAL]


# -- attribute values -----------------------------------------------------------------------------


def test_character_references_in_href() -> None:
    (link,) = links('<a href="/p?a=1&amp;b=2&#38;c=3&#x26;d=4">', RETRIEVAL)
    assert link.raw == "/p?a=1&b=2&c=3&d=4"
    assert link.uri == URI("http://host.example/p?a=1&b=2&c=3&d=4")


def test_legacy_references_before_equals_or_letters_are_kept() -> None:
    # WHATWG HTML §13.2.5.73: "&copy=" and "&notit" stay as written in attributes.
    (link,) = links('<a href="/p?x=1&copy=2&notit=3&reg;">', RETRIEVAL)
    assert link.raw == "/p?x=1&copy=2&notit=3\u00ae"
    assert str(link.uri) == "http://host.example/p?x=1&copy=2&notit=3%C2%AE"
    assert [v.code for v in link.reports] == ["non-ascii"]


@pytest.mark.parametrize(
    ("value", "decoded"),
    [
        ("a&amp;b", "a&b"),
        ("a&ampb", "a&ampb"),
        ("a&amp=b", "a&amp=b"),
        ("a&amp b", "a& b"),
        ("&lt;&gt;&quot;&apos;", "<>\"'"),
        ("&copy;&copy", "\u00a9\u00a9"),
        ("&#65;&#x42;&#X43", "ABC"),
        ("&#0;&#xD800;&#x110000;", "\ufffd\ufffd\ufffd"),
        ("&#128;", "\u20ac"),
        ("&unknown;", "&unknown;"),
        ("&", "&"),
        ("&&amp;", "&&"),
        ("&notin;&noti", "\u2209&noti"),
        ("&not;i &not", "\u00aci \u00ac"),
    ],
)
def test_decode_attribute(value: str, decoded: str) -> None:
    assert decode_attribute(value) == decoded


def test_start_tag_attributes() -> None:
    tag = "<a HREF='x&amp;y' title = \"t\" hidden href=second data-x=un/quoted =odd>"
    assert start_tag_attributes(tag) == {
        "href": "x&y",  # the first of a repeated attribute
        "title": "t",
        "hidden": "",
        "data-x": "un/quoted",
        "=odd": "",
    }
    assert start_tag_attributes("<img src=a.png/>") == {"src": "a.png/"}
    assert start_tag_attributes("<br/>") == {}


def test_surrounding_whitespace_is_stripped_silently() -> None:
    (link,) = links('<a href=" \n\t /x?y \r\n ">', RETRIEVAL)
    assert link.raw == " \n\t /x?y \r\n "
    assert link.uri == URI("http://host.example/x?y")
    assert link.reports == ()


def test_tabs_and_newlines_inside_are_removed_and_reported() -> None:
    (link,) = links('<a href="/a\tb\nc">', RETRIEVAL)
    assert link.uri == URI("http://host.example/abc")
    assert [(v.code, v.position) for v in link.reports] == [
        ("tab-or-newline", 2),
        ("tab-or-newline", 4),
    ]


def test_invalid_reference_repaired_and_reported() -> None:
    (link,) = links('<a href="/a b/&lt;c&gt;">', RETRIEVAL)
    assert link.raw == "/a b/<c>"
    assert link.uri == URI("http://host.example/a%20b/%3Cc%3E")
    assert [(v.code, v.position) for v in link.reports] == [
        ("whitespace", 2),
        ("forbidden-character", 5),
        ("forbidden-character", 7),
    ]


def test_unrepairable_reference_gets_an_error() -> None:
    (link,) = links('<a href="http://[::1/x">', RETRIEVAL)
    assert link.uri is None
    assert isinstance(link.error, URIError)
    assert link.error.rule is not None
    assert "IPv6" in str(link.error)


def test_link_is_a_frozen_value() -> None:
    (link,) = links('<a href="x">', RETRIEVAL)
    assert isinstance(link, Link)
    with pytest.raises(AttributeError):
        link.raw = "y"  # type: ignore[misc]


# -- srcset (WHATWG HTML §4.8.4.3.10) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "urls"),
    [
        ("a.png", ["a.png"]),
        ("a.png 1x, b.png 2x", ["a.png", "b.png"]),
        ("a.png 100w,b.png 200w", ["a.png", "b.png"]),
        ("  a.png  ,  b.png  ", ["a.png", "b.png"]),
        ("a.png,b.png", ["a.png,b.png"]),  # a comma inside a URL belongs to it
        ("a.png, b.png,", ["a.png", "b.png"]),
        ("a,b.png 1x, c.png", ["a,b.png", "c.png"]),
        ("data:image/png;base64,AAAA 1x, c.png 2x", ["data:image/png;base64,AAAA", "c.png"]),
        ("a.png (x, y) 1x, b.png", ["a.png", "b.png"]),
        (",,, ,", []),
        ("", []),
    ],
)
def test_srcset_urls(value: str, urls: list[str]) -> None:
    assert list(srcset_urls(value)) == urls


def test_srcset_links_are_resolved_and_entity_decoded() -> None:
    html = '<img srcset="/a.png?x=1&amp;y=2 1x, https://cdn.example/b.png 2x">'
    assert resolved(html) == ["http://host.example/a.png?x=1&y=2", "https://cdn.example/b.png"]


# -- meta refresh (WHATWG HTML §4.2.5.3) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "url"),
    [
        ("5; url=http://x.example/", "http://x.example/"),
        ("5;URL=/next", "/next"),
        ("0; Url = /spaced", "/spaced"),
        ("5, /comma", "/comma"),
        ("5 /space", "/space"),
        ("3; url='/single' trailing", "/single"),
        ('3; url="/double"', "/double"),
        ("3; url='/unclosed", "/unclosed"),
        ("2.5; url=/fraction", "/fraction"),
        (".5; url=/dot", "/dot"),
        ("5; /x?a=1", "/x?a=1"),
        ("5; urlish", "urlish"),
        ("5; uri=/x", "uri=/x"),
        ("  7  ;  url=/blank", "/blank"),
        ("5", None),
        ("5;", None),
        ("url=/no-time", None),
        ("5x; url=/bad", None),
        ("", None),
    ],
)
def test_refresh_url(content: str, url: str | None) -> None:
    assert refresh_url(content) == url


def test_meta_refresh_link() -> None:
    html = "<META HTTP-EQUIV=Refresh CONTENT=\"0; URL='../moved?a=1&amp;b=2'\">"
    (link,) = links(html, RETRIEVAL)
    assert (link.tag, link.attribute, link.raw) == ("meta", "content", "../moved?a=1&b=2")
    assert link.uri == URI("http://host.example/moved?a=1&b=2")


# -- real-world markup ----------------------------------------------------------------------------


def test_real_world_page() -> None:
    html = """<!DOCTYPE html>
<html lang=en><head>
<meta charset=utf-8>
<base href="https://www.example.org/docs/">
<link rel=icon href=/favicon.ico>
<script src="js/app.js?v=1.2&amp;t=3" defer></script>
<style>.x{background:url(no.png)}</style>
</head><body>
<a href=guide.html#intro>Guide</a> <a href='mailto:docs@example.org'>Mail</a>
<a href="javascript:void(0)">js</a> <a href="//cdn.example.net/lib.js">cdn</a>
<p>unclosed <b>bold <a href = ../up >up</a>
<img src="img/x.png" srcset="img/x@2x.png 2x, img/x@3x.png 3x" alt="">
<a href="http://ex&#97;mple.com/&#x7E;user/">tilde</a>
</body>"""
    assert resolved(html, "http://origin.example/") == [
        "https://www.example.org/docs/",
        "https://www.example.org/favicon.ico",
        "https://www.example.org/docs/js/app.js?v=1.2&t=3",
        "https://www.example.org/docs/guide.html#intro",
        "mailto:docs@example.org",
        "javascript:void(0)",
        "https://cdn.example.net/lib.js",
        "https://www.example.org/up",
        "https://www.example.org/docs/img/x.png",
        "https://www.example.org/docs/img/x@2x.png",
        "https://www.example.org/docs/img/x@3x.png",
        "http://example.com/~user/",
    ]


N = 300_000
HOSTILE = {
    "srcset commas": '<img srcset="' + "a," * (N // 2) + '">',
    "srcset candidates": '<img srcset="' + "a 1x," * (N // 5) + '">',
    "references": '<a href="' + "&amp" * (N // 4) + '">',
    "ampersands": '<a href="' + "&" * N + '">',
    "long name": '<a href="&' + "a" * N + '">',
    "attributes": "<a " + "b " * (N // 2) + "href=x>",
    "refresh": '<meta http-equiv=refresh content="5;url=' + "x" * N + '">',
    "links": "<a href=x>" * (N // 10),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_documents_finish(name: str) -> None:
    """A guard against a hang (a quadratic pass over 300k characters), not a timing test."""

    def expired(signum: int, frame: object) -> None:
        raise AssertionError("links() did not finish: not linear time")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(120)
    try:
        assert links(HOSTILE[name], RETRIEVAL)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_links_takes_str_or_bytes() -> None:
    assert resolved(b"<a href=x>") == ["http://host.example/dir/x"]
    with pytest.raises(TypeError):
        links(bytearray(b"<a href=x>"), RETRIEVAL)  # type: ignore[arg-type]


# -- the command ----------------------------------------------------------------------------------


def _stdin(monkeypatch: pytest.MonkeyPatch, data: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode("utf-8"))))


def test_cli_links_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, '<base href="/b/"><a href="x">')
    assert main(["links", "--base", "http://h/a"]) == 0
    assert capsys.readouterr().out == "http://h/b/\nhttp://h/b/x\n"


def test_cli_links_json_and_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, '<a href="x">\n<a href="http://[">')
    assert main(["links", "--json", "--base", "http://h/", "-"]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["uri"] == "http://h/x" and first["ok"] is True and first["line"] == 1
    assert second["ok"] is False and second["uri"] is None
    assert second["error"]["rule"] is not None


def test_cli_links_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    page.write_text(APPENDIX_HTML, encoding="utf-8")
    assert main(["links", str(page), "--base", "http://h/"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "http://www.example.com/Test/a/x"


def test_cli_links_bad_base(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "<a href=x>")
    assert main(["links", "--base", "relative"]) == 2
    assert "absolute" in capsys.readouterr().err
