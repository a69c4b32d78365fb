"""URIs in running text: RFC 3986 Appendix C and §4.5 (urikit.extract)."""

from __future__ import annotations

import dataclasses
import io
import json
import signal
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit.cli import main
from urikit.errors import URIError
from urikit.schemes import DEFAULT_REGISTRY
from urikit.text.extract import Match, extract
from urikit.text.repairs import repair
from urikit.uri import URI


def found(text: str, **options: object) -> list[str]:
    return [str(m) for m in extract(text, **options)]  # type: ignore[arg-type]


# -- RFC 3986 Appendix C, verbatim ----------------------------------------------------------------

# RFC 3986 Appendix C, the example text as printed (with its indentation).
APPENDIX_C = """\
      Yes, Jim, I found it under "http://www.w3.org/Addressing/",
      but you can probably pick it up from <ftp://foo.example.
      com/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
      ietf/uri/historical.html#WARNING>.
"""

# draft-fielding-uri-rfc2396bis-02, "Delimiting a URI in Context": the same
# example with another FTP host.
APPENDIX_C_DRAFT = """\
   Yes, Jim, I found it under "http://www.w3.org/Addressing/",
   but you can probably pick it up from <ftp://ds.internic.
   net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
   ietf/uri/historical.html#WARNING>.
"""


def test_rfc3986_appendix_c_example() -> None:
    assert found(APPENDIX_C) == [
        "http://www.w3.org/Addressing/",
        "ftp://foo.example.com/rfc/",
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
    ]


def test_draft_appendix_delimiting_example() -> None:
    assert found(APPENDIX_C_DRAFT) == [
        "http://www.w3.org/Addressing/",
        "ftp://ds.internic.net/rfc/",
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
    ]


def test_appendix_c_examples_with_suffix_references_on() -> None:
    assert found(APPENDIX_C, suffix=True) == found(APPENDIX_C)


def test_appendix_c_spans_exclude_the_delimiters() -> None:
    first, second, third = extract(APPENDIX_C)
    for match in (first, second, third):
        assert APPENDIX_C[match.start : match.end] == match.text
    assert APPENDIX_C[first.start - 1] == '"' and APPENDIX_C[first.end] == '"'
    assert APPENDIX_C[second.start - 1] == "<" and APPENDIX_C[second.end] == ">"
    assert second.text == "ftp://foo.example.\n      com/rfc/"
    assert third.text.endswith("#WARNING")


def test_appendix_c_the_three_delimiting_styles() -> None:
    # RFC 3986 Appendix C: double-quotes, angle brackets, or white space.
    text = (
        'within double-quotes "http://example.com/", angle brackets\n'
        "<http://example.com/>, or just by using whitespace:\n\n      http://example.com/\n"
    )
    assert found(text) == ["http://example.com/"] * 3


# -- angle brackets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<URL:http://x.org/>", "http://x.org/"),
        ("<URL: http://x.org/>", "http://x.org/"),
        ("<url:http://x.org/>", "http://x.org/"),
        ("< http://x.org/ >", "http://x.org/"),
        ("<http://x.org/a b>", "http://x.org/ab"),
        ("<http://x.org/\tpath\r\n  /more>", "http://x.org/path/more"),
        ("<http://example.com/very-\n     long-path>", "http://example.com/very-long-path"),
        ("<http://example.com/very- \n   long>", "http://example.com/very-long"),
        ("<foo:bar>", "foo:bar"),  # any scheme counts inside <>
        ("<mailto:john@example.com>", "mailto:john@example.com"),
        ("<http://x.org/a.>", "http://x.org/a."),  # <> is exact
        ("<http://x.org/a)>", "http://x.org/a)"),
        ("<<http://x.org/>>", "http://x.org/"),
        ("<urn:isbn:0451450523>", "urn:isbn:0451450523"),
    ],
)
def test_angle_brackets(text: str, expected: str) -> None:
    assert found(text) == [expected]


def test_angle_span_covers_the_uri_text_only() -> None:
    text = "see <URL: http://x.org/a-\n  b> now"
    (match,) = extract(text)
    assert text[match.start : match.end] == "http://x.org/a-\n  b"
    assert str(match) == "http://x.org/a-b"


@pytest.mark.parametrize(
    "text",
    [
        "<john@example.com>",  # no scheme: not a URI in context
        "<b>bold</b>",
        "<Note: this>",  # a scheme must be followed by the URI, not by a space
        "x < y and y > z",
        "<>",
        "<http:>",
        "<http://>",
    ],
)
def test_angle_brackets_without_a_uri(text: str) -> None:
    assert found(text) == []


def test_angle_bracket_content_that_is_not_one_uri_is_scanned_as_text() -> None:
    assert found("<see http://x.org/a>") == ["http://x.org/a"]
    assert found("<http://a.org/ http://b.org/>") == ["http://a.org/", "http://b.org/"]
    assert found('<a href="http://x.org/">x</a>') == ["http://x.org/"]
    # a blank line ends the bracket: the URI is taken from the first line only
    assert found("<http://a.org/x\n\nmore text>") == ["http://a.org/x"]
    assert found("<http://a.org/x") == ["http://a.org/x"]


# -- double quotes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"http://www.w3.org/Addressing/",', "http://www.w3.org/Addressing/"),
        ('"foo:bar"', "foo:bar"),  # any scheme counts inside ""
        ('"URL:http://x.org/"', "http://x.org/"),
        ('"URL: http://x.org/"', "http://x.org/"),
        ('"http://x.org/a."', "http://x.org/a"),  # punctuation typeset inside quotes
        ('"http://x.org/a)"', "http://x.org/a)"),
        ("\u201chttp://x.org/\u201d", "http://x.org/"),
        ('"http://x.org/very-\n   long"', "http://x.org/very-long"),
    ],
)
def test_double_quotes(text: str, expected: str) -> None:
    assert found(text) == [expected]


def test_quoted_prose_is_not_a_uri() -> None:
    assert found('He said "Note: this" and "yes"') == []
    assert found('"see http://x.org/ now"') == ["http://x.org/"]
    assert found('"a" "http://x.org/"') == ["http://x.org/"]


# -- undelimited text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Go to http://x.org/a.", "http://x.org/a"),
        ("http://x.org/a, then", "http://x.org/a"),
        ("http://x.org/a; then", "http://x.org/a"),
        ("http://x.org/a: then", "http://x.org/a"),
        ("Is it http://x.org/a?", "http://x.org/a"),
        ("Look: http://x.org/a!", "http://x.org/a"),
        ("http://x.org/a...", "http://x.org/a"),
        ("'http://x.org/a'", "http://x.org/a"),
        ("**http://x.org/a**", "http://x.org/a"),
        ("_http://x.org/a_", "http://x.org/a"),
        ("http://x.org/~user/", "http://x.org/~user/"),
        ("\u2018http://x.org/a\u2019", "http://x.org/a"),
        ("\u201chttp://x.org/a.\u201d", "http://x.org/a"),
        ("\u00abhttp://x.org/a\u00bb", "http://x.org/a"),
        ("(see http://x.org/a)", "http://x.org/a"),
        ("(see http://x.org/a).", "http://x.org/a"),
        ("http://en.wikipedia.org/wiki/Foo_(bar)", "http://en.wikipedia.org/wiki/Foo_(bar)"),
        ("(http://en.wikipedia.org/wiki/Foo_(bar))", "http://en.wikipedia.org/wiki/Foo_(bar)"),
        ("http://x.org/a_(b_(c))_d.", "http://x.org/a_(b_(c))_d"),
        ("[http://x.org/a]", "http://x.org/a"),
        ("http://x.org/a[1](2)", "http://x.org/a%5B1%5D(2)"),
        ("[link](http://x.org/a_(b))", "http://x.org/a_(b)"),
        ("http://x.org/?q=a&b=(c)#f.", "http://x.org/?q=a&b=(c)#f"),
        ("http://[2001:db8::1]:8080/x", "http://[2001:db8::1]:8080/x"),
        ("(http://[2001:db8::1]/)", "http://[2001:db8::1]/"),
        ("http://[::1].", "http://[::1]"),
        ("URL:http://x.org/", "http://x.org/"),
        ("URL: http://x.org/", "http://x.org/"),
        ("mailto:john@example.com.", "mailto:john@example.com"),
        ("urn:isbn:0451450523,", "urn:isbn:0451450523"),
        ("HTTP://X.ORG/", "HTTP://X.ORG/"),
        ("foo://bar/baz", "foo://bar/baz"),  # unregistered, but "//" follows the scheme
        ("x:http://x.org/", "http://x.org/"),
        ("<p>http://x.org/</p>", "http://x.org/"),
        ("http://x.org/a-\n  b", "http://x.org/a-"),  # undelimited: a line break ends it
        ("file:///etc/hosts", "file:///etc/hosts"),
    ],
)
def test_undelimited(text: str, expected: str) -> None:
    assert found(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Note: this",
        "ratio 3:4",
        "at 10:30",
        "a:b",
        "javascript:alert(1)",  # not registered and no "//"
        "e.g. this, i.e. that",
        "john@example.com",
        "http:",
        "http://",
        "the http:// prefix",
        "https://...",
        "C:\\Windows\\system32",
        "C:/Windows",
        "Re: subject",
        "Tel: 555-0100",
    ],
)
def test_undelimited_nothing(text: str) -> None:
    assert found(text) == []


def test_a_line_break_not_after_a_hyphen_ends_the_uri() -> None:
    assert found("http://x.org/a\nb") == ["http://x.org/a"]
    assert found("http://x.org/a-\n\nb") == ["http://x.org/a-"]
    assert found("http://a.org/x-\nhttp://b.org/") == ["http://a.org/x-", "http://b.org/"]


def test_one_uri_is_not_found_inside_another() -> None:
    assert found("http://a.org/?next=http://b.org/") == ["http://a.org/?next=http://b.org/"]


def test_several_uris_in_order() -> None:
    text = 'first http://a.org/, then <ftp://b.org/> and "c:d" (mailto:x@y.org).'
    assert found(text) == ["http://a.org/", "ftp://b.org/", "c:d", "mailto:x@y.org"]
    spans = [(m.start, m.end) for m in extract(text)]
    assert spans == sorted(spans)


def test_schemes_that_require_an_authority_count_only_with_slashes() -> None:
    # RFC 3986 §3.2; http, ssh, git require an authority in the default registry
    assert found("http:foo ssh:user@host git:main") == []
    assert found("ssh://user@host/ git://h/r") == ["ssh://user@host/", "git://h/r"]
    assert found("news:comp.infosystems.www.servers.unix") == [
        "news:comp.infosystems.www.servers.unix"
    ]
    assert found("http:foo", registry={"http"}) == ["http:foo"]  # a plain set knows no more


def test_registry_decides_which_schemes_count_undelimited() -> None:
    assert found("tel:+1-201-555-0123") == ["tel:+1-201-555-0123"]
    assert found("tel:+1-201-555-0123", registry={"http"}) == []
    assert found("xmpp:a@b.org", registry=DEFAULT_REGISTRY.without("xmpp")) == []
    assert found("foo:bar", registry={"foo"}) == ["foo:bar"]
    assert found("FOO:bar", registry={"foo"}) == ["FOO:bar"]
    # inside delimiters, any scheme counts
    assert found("<foo:bar>", registry=set()) == ["foo:bar"]


# -- lenient repairs ------------------------------------------------------------------------------


def test_non_ascii_is_repaired_and_reported() -> None:
    text = "see http://example.com/caf\u00e9 now"
    (match,) = extract(text)
    assert str(match) == "http://example.com/caf%C3%A9"
    assert match.text == "http://example.com/caf\u00e9"
    (violation,) = match.reports
    assert violation.code == "non-ascii"
    assert text[violation.position] == "\u00e9"


def test_violation_positions_point_into_the_input_across_a_line_break() -> None:
    text = "<http://x.org/a-\n   b\u00e9>"
    (match,) = extract(text)
    (violation,) = match.reports
    assert text[violation.position] == "\u00e9"


def test_a_candidate_that_cannot_be_repaired_is_skipped() -> None:
    assert found("http://a:b:c/ and http://ok.org/") == ["http://ok.org/"]
    assert found("<http://[::1/>") == []


def test_valid_uris_have_no_violations() -> None:
    assert all(m.reports == () for m in extract(APPENDIX_C))


# -- suffix references (§4.5) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("www.w3.org/Addressing/", "http://www.w3.org/Addressing/"),  # RFC 3986 §4.5
        ("Visit www.w3.org/Addressing/.", "http://www.w3.org/Addressing/"),
        ("(www.example.co.uk)", "http://www.example.co.uk"),
        ("example.com/path?q=1", "http://example.com/path?q=1"),
        ("example.org,", "http://example.org"),
        ("www.example.com:8080/x", "http://www.example.com:8080/x"),
        ("<www.w3.org/Addressing/>", "http://www.w3.org/Addressing/"),
        ('"www.w3.org/Addressing/"', "http://www.w3.org/Addressing/"),
        ("WWW.EXAMPLE.COM", "http://WWW.EXAMPLE.COM"),
    ],
)
def test_suffix_references(text: str, expected: str) -> None:
    assert found(text, suffix=True) == [expected]
    assert found(text) == []  # only when asked


def test_suffix_reference_default_scheme_and_report() -> None:
    (match,) = extract("www.w3.org/Addressing/", suffix=True, default_scheme="https")
    assert str(match) == "https://www.w3.org/Addressing/"
    assert (match.start, match.end) == (0, 22)
    assert [v.code for v in match.reports] == ["suffix-reference"]


@pytest.mark.parametrize(
    "text",
    [
        "john@example.com",
        "john.smith@example.com",
        "setup.py index.html README.md archive.tar.gz",
        "version 1.2.3 and 3.14",
        "e.g. i.e. Mr. Smith, U.S.A.",
        "ASP.NET and Node.js",
        "www.",
        "192.168.0.1",
        "/usr/local/example.com",
        "example.com's",
        "foo.example",
    ],
)
def test_not_suffix_references(text: str) -> None:
    assert found(text, suffix=True) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # issue 29.4: the Public Suffix List's ICANN section, not nine top-level domains
        ("bbc.co.uk", ["http://bbc.co.uk"]),
        ("news.bbc.co.uk/sport", ["http://news.bbc.co.uk/sport"]),
        ("example.museum and example.co.za", ["http://example.museum", "http://example.co.za"]),
        ("shop.example.com.au.", ["http://shop.example.com.au"]),
        ("example.xn--p1ai/", ["http://example.xn--p1ai/"]),  # an A-label of the list (рф)
        ("xn--bcher-kva.de/buch", ["http://xn--bcher-kva.de/buch"]),
        ("photo.zip", ["http://photo.zip"]),  # a generic top-level domain is a domain
        ("a." * 125 + "com", ["http://" + "a." * 125 + "com"]),  # 253 characters
        # a private suffix is a host of its ICANN suffix (io), and no file name ends in it
        ("github.io and user.github.io", ["http://github.io", "http://user.github.io"]),
        # a country code as the whole public suffix: with "www." or a path only
        ("heise.de/newsticker", ["http://heise.de/newsticker"]),
        ("www.heise.de", ["http://www.heise.de"]),
        ("www.example.io:8443/x", ["http://www.example.io:8443/x"]),
    ],
)
def test_suffix_references_by_the_public_suffix_list(text: str, expected: list[str]) -> None:
    assert found(text, suffix=True) == expected


@pytest.mark.parametrize(
    "text",
    [
        "example.de",  # a country code alone: as setup.py is
        "see example.io, today",
        "main.rs:42",  # a file and a line, not a port
        "Makefile.in configure.ac main.cc rules.mk main.tf",
        "README.md#install",
        "co.uk",  # a public suffix is no registrable domain
        "foo.ck",  # *.ck: a public suffix by a wildcard rule
        "a.b.unlisted",  # the implicit rule of a top-level domain the list does not name
        "www.example.local",
        "john.doe",
        "Example.COM",  # the last label in lower case, unless "www."
        "a." * 127 + "com",  # 257 characters: no domain name (RFC 1035 §2.3.4)
    ],
)
def test_not_suffix_references_by_the_public_suffix_list(text: str) -> None:
    assert found(text, suffix=True) == []


def test_no_hand_kept_list_of_top_level_domains() -> None:
    # one source remains for what a domain is: urikit.sites
    import urikit.security.checks
    import urikit.text.extract

    for module in (urikit.text.extract, urikit.security.checks):
        assert not [name for name in vars(module) if "TLDS" in name and "RESERVED" not in name]


def test_bad_default_scheme() -> None:
    with pytest.raises(URIError):
        extract("x", suffix=True, default_scheme="1http")


# -- zero false positives on prose ----------------------------------------------------------------

PROSE = """\
Dear Mr. Smith:

Thank you for your letter of March 3. The meeting is at 10:30 a.m. on Tuesday;
please arrive by 10:15. The ratio of applicants to places was 3:4 last year and
16:9 the year before, i.e. slightly better. Note: this figure excludes late
entries (about 2.5% of the total, e.g. those received after 5:00 p.m.).

Re: your question about the budget. We spent $1,250.00 on hardware, and the
balance (roughly 40%) went to travel. See chapter 3: "Results", section 3.2,
and John 3:16 for the quotation. The score was 2:1 at half-time and 3:3 at the
end; kick-off was 19:45:30 local time (2024-01-15T19:45:30Z).

Warning: do not edit config.yaml or setup.py directly; run make install, then
open index.html in a browser. Version 1.2.3 fixes the bug in v1.2.2; Python
3.11 or later is required. The file is at C:\\Users\\smith\\report.docx, or in
/usr/local/share/doc/README.md on Unix.

You can reach me at john.smith@example.com or jane@example.org. (Fwd: the
original message was sent by <jane@example.org> on Monday.) Subject: Update
on the project. Reminder: finish the report. PS: AT&T and Q&A are not links.

He said "Note: this is important" and "hello, world"; she answered 'yes: no'.
In mathematics, x < y and y > z; the set {a: 1, b: 2} is a map. Time: 9:00.
Use the key:value format, e.g. name:John, or a/b and/or c. The "data" field
is optional; the news: nothing new. Mailing list: users. File: report.pdf.
Tel: +1 555 0100. Fax: 555-0101. ISBN 978-0-13-110362-7. Ph.D. candidates,
U.S.A. residents and Node.js or ASP.NET users: please register (by 5 p.m.).

Q: What time is it? A: Half past ten (10:30). Step 1: open. Step 2: close.
Chapter 4 -- Methods: we used http as a protocol and ftp for files. The word
"mailto" names a scheme; http is defined in RFC 9110. Ratio 1:2:3. "3:4".
"""


def test_no_false_positives_in_prose() -> None:
    assert found(PROSE) == []


def test_no_false_positives_in_prose_with_suffix_references() -> None:
    assert found(PROSE, suffix=True) == []


def test_prose_around_real_uris() -> None:
    text = PROSE + "\nThe report is at http://example.com/report (see p. 3).\n" + PROSE
    assert found(text) == ["http://example.com/report"]


# -- the Match value and laziness -----------------------------------------------------------------


def test_match_value() -> None:
    (match,) = extract("see <http://x.org/>")
    assert isinstance(match, Match)
    assert isinstance(match.uri, URI)
    assert (match.start, match.end, match.text) == (5, 18, "http://x.org/")
    assert str(match) == "http://x.org/"
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.start = 0  # type: ignore[misc]


def test_extract_is_lazy() -> None:
    result = extract("http://a.org/ " * 10)
    assert isinstance(result, types.GeneratorType)
    assert str(next(result)) == "http://a.org/"


def test_extract_takes_str() -> None:
    with pytest.raises(TypeError):
        extract(b"http://x.org/")  # type: ignore[arg-type]


# -- linear time ----------------------------------------------------------------------------------

N = 300_000
HOSTILE = {
    "colons": "a:" * (N // 2),
    "schemes": "http:" * (N // 5),
    "open angles": "<" * N,
    "open angle with a URI": "<http://a/" * (N // 10),
    "angle with words": "<http://a/ " + "b " * (N // 2),
    "quotes": '"' * N,
    "curly quotes": "\u201c" * N,
    "open parens": "http://x/" + "(" * N,
    "close parens": "http://x/a)" * (N // 11),
    "hyphen breaks": "http://x/a-\n" * (N // 12),
    "bad ports": "http://a:b:" * (N // 11),
    "brackets": "http://[" * (N // 8),
    "dots": "a." * (N // 2),
    "www": "www." * (N // 4),
    "letters": "a" * N,
    "blanks after a hyphen": "http://x/a-" + " " * N + "b",
}


@pytest.fixture
def hang_guard() -> Iterator[None]:
    """Fail a test that runs for minutes: a quadratic scan of 300k characters would.

    This is a guard against a hang, not a measure of speed: a linear pass takes
    well under a second.
    """

    def expired(signum: int, frame: object) -> None:
        raise AssertionError("extraction did not finish: not linear time")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(120)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_finishes(name: str, hang_guard: None) -> None:
    text = HOSTILE[name]
    for suffix in (False, True):
        matches = list(extract(text, suffix=suffix))
        assert all(text[m.start : m.end] == m.text for m in matches)


def test_hostile_counts() -> None:
    assert len(list(extract(HOSTILE["close parens"]))) == N // 11
    assert len(list(extract(HOSTILE["colons"]))) == 0
    assert len(list(extract(HOSTILE["open angle with a URI"]))) == N // 10


# -- properties -----------------------------------------------------------------------------------

TEXT = st.lists(
    st.sampled_from([*"ab:/.,;()[]<>\"'-@ \n\t%#?=\u00e9", "http", "www.", ".com", "URL:"]),
    max_size=40,
).map("".join)


@given(TEXT)
def test_matches_are_ordered_disjoint_valid_spans(text: str) -> None:
    previous_end = 0
    for match in extract(text, suffix=True):
        assert previous_end <= match.start < match.end <= len(text)
        assert match.text == text[match.start : match.end]
        assert str(URI(str(match.uri))) == str(match)
        if not match.reports:
            assert str(match) == "".join(match.text.split())
        previous_end = match.end


# A path and query that do not end with a character left out at the end ("_~").
URI_TAIL = st.text(alphabet="abcdefghij0123456789-_~/=&", max_size=20).filter(
    lambda tail: not tail.endswith(("_", "~"))
)


@given(
    st.from_regex(r"[a-z][a-z0-9]{0,8}(\.[a-z][a-z0-9]{0,8}){0,3}", fullmatch=True),
    URI_TAIL,
    st.sampled_from([" ", "\n", ". ", ", ", ") ", "; "]),
)
def test_an_embedded_uri_is_found_exactly(host: str, tail: str, after: str) -> None:
    uri = f"https://{host}/{tail}"
    for text in (f"see {uri}{after}ok", f"<{uri}>", f'"{uri}"', f"({uri})"):
        assert found(text) == [uri]


# -- the command ----------------------------------------------------------------------------------


def test_cli_extract_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(APPENDIX_C.encode("utf-8")))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["extract"]) == 0
    assert capsys.readouterr().out.splitlines() == found(APPENDIX_C)


def test_cli_extract_json_spans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "mail.txt"
    document.write_bytes(APPENDIX_C.replace("\n", "\r\n").encode("utf-8"))
    assert main(["extract", "--json", str(document)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    text = document.read_bytes().decode("utf-8")
    assert [r["uri"] for r in records] == found(APPENDIX_C)
    for record in records:
        assert set(record) >= {"start", "end", "uri", "text"}
        assert text[record["start"] : record["end"]] == record["text"]
    assert records[1]["text"] == "ftp://foo.example.\r\n      com/rfc/"


def test_cli_extract_suffix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "ad.txt"
    document.write_text("Visit www.w3.org/Addressing/ today.", encoding="utf-8")
    assert main(["extract", str(document)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["extract", "--suffix", "--default-scheme", "https", str(document)]) == 0
    assert capsys.readouterr().out == "https://www.w3.org/Addressing/\n"


def test_cli_extract_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "ok.txt"
    document.write_text("http://x.org/", encoding="utf-8")
    assert main(["extract", str(tmp_path / "missing.txt"), str(document)]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"{document}\thttp://x.org/\n"  # several FILEs: each line names its file
    assert "missing.txt" in captured.err


# -- the fast repairs agree with URI.lenient ------------------------------------------------------

CANDIDATE = st.lists(
    st.sampled_from([*"a/%?#[]:@ 0F", "\u00e9", "\u4e2d", "\U0001f600", "\xa0", "\x85", "\u200e"]),
    max_size=20,
).map(lambda parts: "http://h/" + "".join(parts))


@given(CANDIDATE, st.integers(0, 50))
def test_repairs_are_lenients_moved_into_the_document(candidate: str, shift: int) -> None:
    """urikit.text.repairs reports what URI.lenient repaired, spans moved by ``where``."""
    try:
        expected = URI.lenient(candidate)
    except URIError:
        with pytest.raises(URIError):
            repair(candidate, lambda offset: offset + shift)
        return
    uri, reports = repair(candidate, lambda offset: offset + shift)
    assert uri == expected.uri
    assert [(r.code, r.span) for r in reports] == [
        (v.code, (v.span[0] + shift, max(v.span[1], v.span[0] + 1) + shift))
        for v in expected.reports
    ]
    assert all(r.repaired for r in reports)


def test_the_suffix_lookup_is_the_list_read_plainly() -> None:
    # _icann_suffix asks the compiled lookup and one question per top-level domain; it is
    # held to lookup() (the rule that prevails, its section) on names made of every rule
    from pathlib import Path

    from urikit.sites import lookup
    from urikit.text.extract import _icann_suffix

    def plain(name: str) -> str | None:
        found = lookup(name, private=False)
        if found is None or found.implicit or found.registrable_domain is None:
            return None
        return found.public_suffix

    dat = Path(__file__).resolve().parent.parent / "src" / "urikit" / "sites"
    names = {"a.notatld", "notatld", "a.b.c", "x.ck", "www.ck", "a.www.ck", "a.kawasaki.jp"}
    for line in (dat / "public_suffix_list.dat").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("//"):
            rule = line.lstrip("!").replace("*", "x")
            names.update((rule, "a." + rule, "www.a." + rule))
    assert [name for name in sorted(names) if _icann_suffix(name) != plain(name)] == []
