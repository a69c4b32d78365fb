"""The fast paths (``urikit._fast``) against the plain algorithms they stand in for.

Each shortcut answers only where it is sure; where it answers, the answer must
be the plain algorithm's: ``normalize.normalize`` (RFC 3986 §6.2.2, §6.2.3) for
the normalization shortcuts, ``resolve.transform_references`` (§5.2.2) for the
resolution shortcut.  Checked on grammar-generated references, URL-shaped ones,
the real URLs of ``bench/urls.txt``, and tables of tricky cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import known_scheme_references, uri_references

from urikit import IRI, URI, URIError, normalize, resolve
from urikit._fast import (
    _CHANGING_TRIPLET,
    default_tables,
    normal_match,
    resolved_by_match,
    target_text,
)
from urikit.components import split
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR
from urikit.normalize import LEVELS
from urikit.normalize import normalize as plain_normalize
from urikit.resolve import transform_references

REAL = (Path(__file__).parent.parent / "bench" / "urls.txt").read_text().split()
BASES = ["http://a/b/c/d;p?q", "http://a", "http://a/b/", "foo:a/b", "http://a/b/c/d#f", "x:"]


def plain(text: str, level: str) -> str:
    """The normal form by the plain algorithm alone."""
    parts = split(text, URI_GRAMMAR)
    assert parts is not None
    return plain_normalize(parts, level=level)  # type: ignore[arg-type]


# --- normalization -----------------------------------------------------------------------


@given(uri_references(), st.sampled_from(LEVELS))
def test_normalize_agrees_with_the_plain_algorithm(text: str, level: str) -> None:
    assert str(normalize(URI(text), level=level)) == plain(text, level)  # type: ignore[arg-type]
    assert str(normalize(text, level=level)) == plain(text, level)  # type: ignore[arg-type]


@given(known_scheme_references(), st.sampled_from(LEVELS))
def test_normalize_agrees_on_urls(text: str, level: str) -> None:
    for candidate in (text.lower(), text):
        assert str(normalize(URI(candidate), level=level)) == plain(candidate, level)  # type: ignore[arg-type]
        assert str(normalize(candidate, level=level)) == plain(candidate, level)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", LEVELS)
def test_normalize_agrees_on_real_urls(level: str) -> None:
    for text in REAL:
        if URI_GRAMMAR.reference.fullmatch(text) is None:
            continue
        assert str(normalize(text, level=level)) == plain(text, level), text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["http://a", "http://a?q", "http://a#f", "https://u@a.example", "file://h", "foo://a",
     "mysql://h", "http://a/b/./c", "http://a/.well-known/x", "http://a/%41", "HTTP://a"],
)  # fmt: skip
def test_normalize_cases(text: str) -> None:
    for level in LEVELS:
        assert str(normalize(text, level=level)) == plain(text, level)


def _check_normal_match(text: str) -> bool:
    """If a fast pattern accepts ``text``, it is a URI, the groups are the
    grammar's, and, where normalize trusts the match, the answer is the plain one."""
    tables = default_tables()
    plain_match, encoded = tables.normal(text), tables.normal_encoded(text)
    assert plain_match is None or encoded is not None, text
    if encoded is None:
        return False
    full = URI_GRAMMAR.reference.fullmatch(text)
    assert full is not None, text
    for fast in (plain_match, encoded):
        assert fast is None or fast.groups() == full.groups(), text
    trusted = "/." not in text and _CHANGING_TRIPLET.search(text) is None
    if trusted and (encoded[6] or encoded[2] is None):
        for level in LEVELS:
            assert plain(text, level) == text
    m = normal_match(text)
    if m is not None:
        assert m.string == plain(text, "scheme"), text
    return True


@given(uri_references())
def test_fast_pattern_is_a_subset_of_the_grammar(text: str) -> None:
    for candidate in (text, text.lower()):
        _check_normal_match(candidate)


@given(known_scheme_references())
def test_fast_pattern_on_urls(text: str) -> None:
    for candidate in (text, text.lower()):
        _check_normal_match(candidate)


def test_fast_pattern_on_real_urls() -> None:
    accepted = sum(_check_normal_match(text) for text in REAL)
    assert accepted > len(REAL) // 2  # the shortcut serves the common case


@pytest.mark.parametrize(
    ("text", "accepted"),
    [("http://a/b?c#d", True), ("tel:+1-201-555-0123", True), ("http://a", True),
     ("http://a?q", True), ("foo:", True), ("http:///x", True),
     ("http://A/", False), ("HTTP://a/", False), ("http://u@a/", False), ("http://a:80/", False),
     ("http://[::1]/", False), ("file:///x", False), ("urn:a:b", False), ("mailto:a@b", False),
     ("//a/b", False), ("a/b", False), ("http://a b/", False), ("http:a//b", True),
     ("x:////b", True), ("http://a/%20?%C3%A9#%2F", True), ("http://a/%7e", True),
     ("http://%61/", False), ("http://a/%2", False)],
)  # fmt: skip
def test_fast_pattern_cases(text: str, accepted: bool) -> None:
    assert _check_normal_match(text) is accepted


@pytest.mark.parametrize(
    ("text", "trusted"),
    [("http://a/b?x=/./y", True), ("http://a/b#/../c", True), ("http://a/.well-known/x", False),
     ("http://a/b/./c", False), ("http://a/b/..", False), ("http://.a/b", True),
     ("foo:a/./b", False), ("http://a?/.", True), ("mysql://h", True), ("http://a", True)],
)  # fmt: skip
def test_normal_match_reads_dots_in_the_path_only(text: str, trusted: bool) -> None:
    # "/." sends a text the long way only in its path, where a dot-segment can be
    # (§6.2.2.3); the match, when there is one, is the normal form.
    m = normal_match(text)
    assert (m is not None) is trusted
    if m is not None:
        assert m.string == plain(text, "scheme")
        assert str(normalize(text)) == m.string


def test_fast_normalize_reports_errors_at_the_input() -> None:
    with pytest.raises(URIError) as info:
        normalize("http://a b")
    assert info.value.text == "http://a b" and info.value.position == 8


# --- resolution --------------------------------------------------------------------------


def _plain_target(base: str, ref: str) -> str:
    base_parts, ref_parts = split(base, URI_GRAMMAR), split(ref, URI_GRAMMAR)
    assert base_parts is not None and ref_parts is not None
    return transform_references(base_parts, ref_parts)


def _check_target(base: str, ref: str) -> None:
    m = URI_GRAMMAR.reference.fullmatch(base)
    assert m is not None
    fast = target_text(m.string, m.span, ref)
    valid = URI_GRAMMAR.reference.fullmatch(ref) is not None
    if fast is not None and URI_GRAMMAR.reference.fullmatch(fast) is not None:
        assert valid, (base, ref)
        assert fast == _plain_target(base, ref), (base, ref)
    if valid:
        assert str(resolve(base, ref)) == _plain_target(base, ref)


@given(st.sampled_from(BASES), uri_references())
def test_resolution_shortcut_agrees_with_5_2_2(base: str, ref: str) -> None:
    _check_target(base, ref)


@given(st.sampled_from(BASES), st.text(alphabet="ab./?#:%2F@", max_size=12))
def test_resolution_shortcut_on_dotted_references(base: str, ref: str) -> None:
    _check_target(base, ref)


#: RFC 3986 §5.4.1, and leading and final dot-segments, and network-path references.
SHORTCUT_CASES = [
    "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x",
    "g;x?y#s", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
    "../../../g", "../../../../..", "//g/h?y#s", "//g/./h", "./..", "../.", ".././g",
    "..?y", ".?y", "../..#s", "./g:h", "g:h", "//[::1]:8/x",
]  # fmt: skip


@pytest.mark.parametrize("ref", SHORTCUT_CASES)
@pytest.mark.parametrize("base", [*BASES, "http://a/b/c/d;p?q#f", "http://a/b/c/"])
def test_resolution_shortcut_cases(base: str, ref: str) -> None:
    _check_target(base, ref)


@pytest.mark.parametrize(
    ("ref", "target"),
    [(".", "http://a/b/c/"), ("..", "http://a/b/"), ("../..", "http://a/"),
     ("../../../..", "http://a/"), ("//g/h?y", "http://g/h?y"), ("../../g", "http://a/g")],
)  # fmt: skip
def test_resolution_shortcut_answers(ref: str, target: str) -> None:
    m = URI_GRAMMAR.reference.fullmatch("http://a/b/c/d;p?q")
    assert m is not None
    assert target_text(m.string, m.span, ref) == target


def test_resolution_shortcut_on_real_urls() -> None:
    for base, ref in zip(REAL, REAL[1:] + ["../x", "./y", "?q", "#f", "g;x"] * 3, strict=False):
        m = URI_GRAMMAR.reference.fullmatch(base)
        if m is not None and m.start(1) >= 0:
            for candidate in (ref, "../" + ref.rpartition("/")[2], "#top", "?page=2"):
                _check_target(base, candidate)


# --- resolution on the matches (the pure path's ``resolved``) --------------------------

PAIRS = [
    tuple(line.split("\t"))
    for line in (Path(__file__).parent.parent / "bench" / "pairs.txt").read_text().splitlines()
]


def _check_resolved(base: str, ref: str, strict: bool) -> None:
    """``resolved_by_match`` against ``transform_references`` (RFC 3986 §5.2.2), for
    URIs and IRIs: the same target, and ``None`` exactly when an operand is not a
    reference of the class or the base has no scheme."""
    for cls, grammar in ((URI, URI_GRAMMAR), (IRI, IRI_GRAMMAR)):
        base_parts, ref_parts = split(base, grammar), split(ref, grammar)
        got = resolved_by_match(cls, base, ref, strict)
        if base_parts is None or ref_parts is None or base_parts.scheme is None:
            assert got is None, (cls, base, ref)
            continue
        assert type(got) is cls
        assert str(got) == transform_references(base_parts, ref_parts, strict=strict), (base, ref)


@given(st.sampled_from(BASES), uri_references(), st.booleans())
def test_resolved_by_match_agrees_with_5_2_2(base: str, ref: str, strict: bool) -> None:
    _check_resolved(base, ref, strict)


@given(
    st.sampled_from([*BASES, "foo:/a", "foo:a/b", "HTTP://a/b"]),
    st.text(alphabet="abhtpHTP./?#:%2F@", max_size=14),
    st.booleans(),
)
def test_resolved_by_match_on_schemes_and_dots(base: str, ref: str, strict: bool) -> None:
    _check_resolved(base, ref, strict)


@pytest.mark.parametrize(
    ("base", "ref"),
    [
        ("http://a/b/c/d;p?q", "g:h"),  # RFC 3986 §5.4.1
        ("http://a/b/c/d;p?q", "http:g"),  # RFC 3986 §5.4.2
        ("http://a/b/c/d;p?q", "HTTP:g"),
        ("http://a/b/c/d;p?q", "http://x/./y/../z"),
        ("http://a/b/c/d;p?q", "ftp:./a"),
        ("http://a/b/c/d;p?q", "ftp:.a"),
        ("http://a/b/c/d;p?q", ""),
        ("http://a/b/c/d;p?q#f", ""),
        ("foo:/a", "..//b"),
        ("b", "c"),
        ("http://a/b", "%zz"),
    ],
)
def test_resolved_by_match_cases(base: str, ref: str) -> None:
    for strict in (True, False):
        _check_resolved(base, ref, strict)


def test_resolved_by_match_on_the_corpus_pairs() -> None:
    for base, ref in PAIRS:
        _check_resolved(base, ref, True)
