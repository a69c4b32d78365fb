"""Lenient parsing (RFC 3986 Appendix C, §2.1, §2.5): every repair is reported."""

from __future__ import annotations

import re
from types import ModuleType

import pytest
from backends import COMPILED, PURE
from hypothesis import given
from hypothesis import strategies as st
from strategies import grammar_text, uri_references

from urikit import IRI, URI, Repaired, Report, URIError
from urikit.character_repairs import authority
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR
from urikit.lenient import MAX_REPORTS, repair, repair_runs, replaced

CODES = {
    "surrounding-whitespace",
    "delimiters",
    "url-prefix",
    "embedded-whitespace",
    "whitespace",
    "control",
    "backslash",
    "non-ascii",
    "forbidden-character",
    "bracket",
    "extra-hash",
    "bare-percent",
}


def lenient(text: str) -> tuple[str, list[str]]:
    uri, violations = URI.lenient(text)
    return str(uri), [v.code for v in violations]


@pytest.mark.parametrize(
    ("text", "repaired", "codes"),
    [
        # Appendix C: the delimiters and the "URL:" prefix are not part of the URI
        ('"http://example.com/"', "http://example.com/", ["delimiters"]),
        ("<http://example.com/>", "http://example.com/", ["delimiters"]),
        ("  http://example.com/\n", "http://example.com/", ["surrounding-whitespace"]),
        ("<URL:http://www.w3.org/Addressing/>", "http://www.w3.org/Addressing/",
         ["delimiters", "url-prefix"]),
        ("URL:http://a/", "http://a/", ["url-prefix"]),
        # Appendix C: white space that breaks a delimited URI across lines is ignored
        ("<http://example.com/very/\n   long/path>", "http://example.com/very/long/path",
         ["delimiters", "embedded-whitespace"]),
        # §2.1, §2.5: forbidden characters are percent-encoded as UTF-8
        ("http://a/b c", "http://a/b%20c", ["whitespace"]),
        ("http://a/é", "http://a/%C3%A9", ["non-ascii"]),
        # a run of characters of one kind is one repair
        ('http://a/"<>', "http://a/%22%3C%3E", ["forbidden-character"]),
        ("http://a/{x}|^`", "http://a/%7Bx%7D%7C%5E%60", ["forbidden-character"] * 2),
        ("http://a\\b", "http://a%5Cb", ["backslash"]),
        ("http://a/\x01\x7f", "http://a/%01%7F", ["control"]),
        ("http://a/\x01a\x7f", "http://a/%01a%7F", ["control", "control"]),
        ("http://a/%zz", "http://a/%25zz", ["bare-percent"]),
        ("http://a/100%", "http://a/100%25", ["bare-percent"]),
        ("http://a/#x#y", "http://a/#x%23y", ["extra-hash"]),
        ("http://a/[x]", "http://a/%5Bx%5D", ["bracket", "bracket"]),
        ("http://[::1]/ x", "http://[::1]/%20x", ["whitespace"]),
        ("http://bücher.example/", "http://b%C3%BCcher.example/", ["non-ascii"]),
    ],
)  # fmt: skip
def test_repairs(text: str, repaired: str, codes: list[str]) -> None:
    assert lenient(text) == (repaired, codes)


def test_valid_input_is_untouched() -> None:
    result = URI.lenient("foo://example.com:8042/over/there?name=ferret#nose")
    assert isinstance(result, Repaired)
    assert result.reports == []
    assert str(result.uri) == "foo://example.com:8042/over/there?name=ferret#nose"
    assert URI.lenient("URL:foo") == Repaired(URI("URL:foo"), [])  # a scheme "URL", no prefix


@pytest.mark.parametrize("cls", [URI, IRI])
@pytest.mark.parametrize("text", ["url:s://RL:et", "URL:s://h:x"])
def test_valid_input_whose_prefix_reading_is_no_reference(cls: type[URI], text: str) -> None:
    # Found by tests/fuzz (lenient): without "url:" the port "et" is not *DIGIT (§3.2.3),
    # but the whole is the URI of a scheme "url" (§3.1), so it stands as it is.
    assert cls.lenient(text) == Repaired(cls(text), [])


def test_report_details() -> None:
    _, violations = URI.lenient(" <http://a/b c>")
    assert [v.code for v in violations] == [
        "surrounding-whitespace",
        "delimiters",
        "embedded-whitespace",
    ]
    last = violations[-1]
    assert isinstance(last, Report)
    assert (last.position, last.span, last.repaired) == (12, (12, 13), True)
    assert "white space" in last.message
    with pytest.raises(AttributeError):
        last.code = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "1a:b",  # §4.2: a colon in the first segment of a relative path
        "http://h:8a/",  # a port is digits
        "http://[::1",  # an unclosed IP literal
        "http://[1.2.3.4]/",  # not an IPv6address
        "http://a/\ud800",  # a lone surrogate has no UTF-8 form
        ":",
    ],
)
def test_unrepairable_input_still_raises(text: str) -> None:
    with pytest.raises(URIError):
        URI.lenient(text)


def test_non_str_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        URI.lenient(b"http://a/")  # type: ignore[arg-type]


@given(uri_references())
def test_valid_references_pass_unchanged(text: str) -> None:
    if text[:4].lower() == "url:":
        return
    uri, violations = URI.lenient(text)
    assert (str(uri), violations) == (text, [])


@given(st.one_of(grammar_text(), st.text(max_size=30)))
def test_nothing_is_repaired_silently(text: str) -> None:
    try:
        uri, violations = URI.lenient(text)
    except URIError as error:
        assert error.position is not None
        return
    assert isinstance(uri, URI)
    if not violations:
        assert str(uri) == text
    else:
        assert str(uri) != text
    for v in violations:
        assert v.code in CODES
        assert 0 <= v.position < len(text)
        assert v.repaired
        assert 0 <= v.span[0] < v.span[1] <= len(text)
    # a repaired reference needs no more repairs
    again, more = URI.lenient(str(uri))
    assert (again, more) == (uri, [])


@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=30))
def test_text_after_a_path_is_always_repairable(data: str) -> None:
    """Whatever follows "http://h/" (without surrogates) can be encoded into a valid URI."""
    uri, _ = URI.lenient("http://h/" + data.strip())
    assert uri.host == "h"


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("  http://a/ ", {"surrounding-whitespace": (0, 2)}),
        ("http://a/ \n", {"surrounding-whitespace": (9, 11)}),
        (' "http://a/"', {"surrounding-whitespace": (0, 1), "delimiters": (1, 12)}),
        (
            "<URL: http://a/b c>",
            {"delimiters": (0, 19), "url-prefix": (1, 6), "embedded-whitespace": (16, 17)},
        ),
        ("http://a/\U0001f600x", {"non-ascii": (9, 10)}),
    ],
)
def test_report_spans_are_in_the_input(text: str, spans: dict[str, tuple[int, int]]) -> None:
    _, reports = repair(text)
    assert {r.code: r.span for r in reports} == spans


def test_repair_of_text() -> None:
    assert repair("http://a/b") == ("http://a/b", [])
    assert repair("http://a/\u00e9", iri=True) == ("http://a/\u00e9", [])
    text, (report,) = repair("http://a/\u200f", iri=True)
    assert (text, report.code, report.severity) == (
        "http://a/%E2%80%8F",
        "bidi-formatting",
        "medium",
    )
    with pytest.raises(URIError, match="cannot be repaired") as info:
        repair("http://h:8a/ x")
    assert info.value.text == "http://h:8a/%20x"
    with pytest.raises(TypeError):
        repair(None)  # type: ignore[arg-type]


# --- many repairs: a pattern at a time, and at most MAX_REPORTS reports of a code ---


def _merged(pieces: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """``(start, end, length)`` pieces that follow one another, both removed or both
    encoded, as one: where ``replaced`` and ``repair_runs`` may cut differently."""
    out: list[tuple[int, int, int]] = []
    for start, end, length in pieces:
        if out and out[-1][1] == start and (out[-1][2] == 0) == (length == 0):
            out[-1] = (out[-1][0], end, out[-1][2] + length)
        else:
            out.append((start, end, length))
    return out


def test_replaced_on_the_examples_of_appendix_c() -> None:
    """RFC 3986 Appendix C: a URI broken across lines inside angle brackets loses the
    white space (a piece replaced by nothing); a non-ASCII character is replaced by
    three characters an octet of its UTF-8 (§2.5)."""
    text = "<ftp://foo.example.\n      com/rfc/>"
    assert repair(text)[0] == "ftp://foo.example.com/rfc/"
    at = text.index("\n")
    assert replaced(text) == [(at, at + 7, 0)]
    assert replaced("http://a/\u00e9x") == [(9, 10, 6)]
    assert replaced("http://example.com/") == []


def _both(text: str, iri: bool) -> None:
    """``repair`` and ``repair_runs`` agree, and ``replaced`` says where they replaced
    what; so do the compiled pass and the readable one (the seam of each copy), where the
    core is built."""
    try:
        fast: object = repair(text, iri=iri)
    except URIError as error:
        fast = ("error", error.position, error.reason)
    runs = None
    try:
        *slow_parts, runs = repair_runs(text, iri=iri)
        slow: object = tuple(slow_parts)
    except URIError as error:
        slow = ("error", error.position, error.reason)
    assert fast == slow, text
    if runs is not None:
        assert _merged(replaced(text, iri=iri)) == _merged(runs), text
    if COMPILED.compiled and not _SURROGATE.search(text):
        for delimited in (False, True):
            compiled, pure = (_encoded(copy, text, iri, delimited) for copy in (COMPILED, PURE))
            assert compiled[:2] == pure[:2], (text, delimited)
            assert _merged(compiled[2]) == _merged(pure[2]), (text, delimited)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _encoded(
    copy: ModuleType, text: str, iri: bool, delimited: bool
) -> tuple[str, list[Report], list[tuple[int, int, int]]]:
    """The character repairs of ``text`` (at offset 3) by the seam of ``copy``, and where
    they replace what."""
    grammar = IRI_GRAMMAR if iri else URI_GRAMMAR
    reports: list[Report] = []
    out = copy._seam.encode_forbidden(grammar, text, 3, delimited, reports)[0]
    runs = copy._seam.forbidden_runs(grammar, text, 3, delimited, None)[0]
    return out, reports, runs


_PIECES = [
    *'ab/:?#[]%4Fé \t\n<>\\\u202e\u200b\x00\x7f\x85\u3000\ue000\ufffe"{}|^`@.',
    *["%41", "%2", "http://", "[::1]", "%25", "URL:", "\ud800"],
    *"\x1c\xa0\u2028\u061c\U0001f600\U000f0001\U0010fffe\u0301",
]


@pytest.mark.parametrize("char", ["\u00e9", "\u202e", "\u3000", "\U0001f600", "\x85", "\ue000"])
def test_runs_of_one_character_of_every_length(char: str) -> None:
    """A run of one character repaired (its triplets copied, the copy doubling), of every
    length up to past a power of two, alone, after text and between other repairs."""
    for count in range(1, 40):
        for text in (char * count, "a/" + char * count + "b", " " + char * count + "\u00e9<"):
            _both(text, iri=False)
            _both(text, iri=True)


#: The authority of a text as one regular expression reads it (RFC 3986 §3.2).
_PLAIN_AUTHORITY = re.compile(r"\A(?:[A-Za-z][A-Za-z0-9+\-.]*:)?//([^/?#]*)")


@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_the_authority_is_found_as_the_pattern_finds_it(pieces: list[str]) -> None:
    text = "".join(pieces)
    plain = _PLAIN_AUTHORITY.match(text)
    assert authority(text) == (plain.span(1) if plain else (0, 0))
    assert authority("//" + text) == (2, 2 + len(re.split("[/?#]", text)[0]))


@given(st.lists(st.sampled_from(_PIECES), max_size=14), st.booleans(), st.booleans())
def test_the_two_ways_of_repairing_agree(pieces: list[str], iri: bool, delimited: bool) -> None:
    text = "".join(pieces)
    _both(f"<{text}>" if delimited else text, iri)


@given(st.text(st.characters(exclude_categories=("Cs",))), st.booleans())
def test_the_two_ways_agree_on_any_text(text: str, iri: bool) -> None:
    _both(text, iri)


@pytest.mark.parametrize(
    "text",
    [
        " a b" * 300,
        "http://a/" + "\u00e9 \u202e%<" * 300,
        "[#]" * 300,
        "%" * 500,
        "http://[::1]/" + "[]#" * 200,
        "<" + " a\n" * 300 + ">",
        "http://a/" + "\u00e9" * 300 + "x" + "\u00e8" * 300,
        # kept characters below U+0100, and wider ones, beside encoded astral ones
        "http://a/" + "\u00e9\U0010fffe" * 150,
        "http://a/" + "\u0101\U0010fffe" * 150,
        # as many distinct forbidden characters as are replaced one at a time, and one more
        "http://a/" + "".join(chr(0xE0 + i) + " " for i in range(15)) * 40,
        "http://a/" + "".join(chr(0xE0 + i) + " " for i in range(16)) * 40,
        # more distinct characters of a kind than a class is built of
        "http://a/" + "".join(chr(0x4E00 + i) + " " + chr(0x3400 + i) for i in range(400)),
    ],
)
@pytest.mark.parametrize("iri", [False, True])
def test_the_two_ways_agree_past_the_last_single_report(text: str, iri: bool) -> None:
    _both(text, iri)


def test_past_max_reports_the_rest_of_a_kind_is_one_report() -> None:
    text = "http://a/" + "b c" * (MAX_REPORTS + 50)
    repaired, reports = repair(text)
    assert repaired == "http://a/" + "b%20c" * (MAX_REPORTS + 50)
    assert [r.code for r in reports] == ["whitespace"] * (MAX_REPORTS + 1)
    first = 9 + 1 + 3 * MAX_REPORTS  # the space of the (MAX_REPORTS + 1)th "b c"
    assert reports[-1].span == (first, len(text) - 1)
    assert "50 more characters of this kind" in reports[-1].message
    assert [r.span for r in reports[:2]] == [(10, 11), (13, 14)]
