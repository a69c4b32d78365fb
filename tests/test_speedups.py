"""The compiled scanner ``urikit._speedups.scan`` against the grammar's own pattern.

The oracle is one full match of ``Grammar.reference`` (grammar.py): ``scan(text, iri)``
must give the spans of its groups 1-8, or ``None`` exactly when it does not match.  For
IRIs the scanner also refuses the bidi formatting characters (RFC 3987 §4.1), so there the
oracle is "the pattern matches and the text holds no ``BIDI_FORMATTING`` character".

Without the extension these tests skip, unless ``URIKIT_REQUIRE_EXTENSION=1`` is set; then
``test_extension_is_importable`` fails.  The generated header is checked in any case.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from generators import load_tool
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import (
    authority_text,
    grammar_text,
    iri_references,
    pct_encoded,
    uri_references,
)

from urikit.grammar import BIDI_FORMATTING, IRI_GRAMMAR, URI_GRAMMAR

ROOT = Path(__file__).resolve().parent.parent
URLS = ROOT / "bench" / "urls.txt"
REQUIRED = os.environ.get("URIKIT_REQUIRE_EXTENSION") == "1"

try:
    from urikit import _speedups
except ImportError as exc:  # pragma: no cover - depends on the build
    _speedups_or_none: ModuleType | None = None
    IMPORT_ERROR = repr(exc)
else:
    _speedups_or_none = _speedups
    IMPORT_ERROR = ""

needs_extension = pytest.mark.skipif(
    _speedups_or_none is None and not REQUIRED,
    reason=f"urikit._speedups is not built ({IMPORT_ERROR})",
)

_BIDI = re.compile(f"[{BIDI_FORMATTING}]")
COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")

Spans = tuple[int, ...] | None


def scan(text: str, iri: bool) -> Spans:
    if _speedups_or_none is None:
        pytest.fail(f"urikit._speedups is required but not importable: {IMPORT_ERROR}")
    return _speedups_or_none.scan(text, iri)


def oracle(text: str, iri: bool) -> Spans:
    """The spans of groups 1-8 of the full match, -1 where a group does not participate."""
    if iri and _BIDI.search(text):
        return None
    match = (IRI_GRAMMAR if iri else URI_GRAMMAR).reference.fullmatch(text)
    if match is None:
        return None
    return tuple(bound for group in range(1, 9) for bound in match.span(group))


def check(text: str) -> None:
    for iri in (False, True):
        assert scan(text, iri) == oracle(text, iri), (text, iri)


# --- the extension is there when it must be --------------------------------------------


def test_extension_is_importable() -> None:
    if _speedups_or_none is None:
        if REQUIRED:
            pytest.fail(f"URIKIT_REQUIRE_EXTENSION=1 but urikit._speedups: {IMPORT_ERROR}")
        pytest.skip(f"urikit._speedups is not built ({IMPORT_ERROR})")
    assert callable(_speedups_or_none.scan)


# --- the parser of class bodies of tools/gen_tables.py -------------------------------------


def test_class_body_parser() -> None:
    gen_tables = load_tool("gen_tables")
    assert gen_tables.parse_class(r"A-Za-z0-9\-._~") == [
        (0x2D, 0x2E), (0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A), (0x7E, 0x7E),
    ]  # fmt: skip
    assert gen_tables.parse_class(r":/?#\[\]@") == [
        (0x23, 0x23), (0x2F, 0x2F), (0x3A, 0x3A), (0x3F, 0x40), (0x5B, 0x5B), (0x5D, 0x5D),
    ]  # fmt: skip
    assert gen_tables.parse_class("+\\-.") == [(0x2B, 0x2B), (0x2D, 0x2E)]
    assert gen_tables.parse_class("a-") == [(0x2D, 0x2D), (0x61, 0x61)]
    assert gen_tables.parse_class("\\x41-\\u0043\U00010000") == [(0x41, 0x43), (0x10000, 0x10000)]
    for bad in ("^a", "\\d", "z-a", "a\\"):
        with pytest.raises(ValueError):
            gen_tables.parse_class(bad)


# --- a table of tricky cases, stated outright and checked against the pattern ----------

URI, IRI = False, True
N = None
TRICKY: list[tuple[str, bool, tuple[str | None, ...] | None]] = [
    # (text, iri, expected components: scheme, authority, userinfo, host, port, path,
    #  query, fragment; or None when the text is not a reference)
    ("", URI, (N, N, N, N, N, "", N, N)),
    ("a:", URI, ("a", N, N, N, N, "", N, N)),
    ("?", URI, (N, N, N, N, N, "", "", N)),
    ("#", URI, (N, N, N, N, N, "", N, "")),
    ("//", URI, (N, "", N, "", N, "", N, N)),
    ("///", URI, (N, "", N, "", N, "/", N, N)),
    ("a://", URI, ("a", "", N, "", N, "", N, N)),
    ("a:////", URI, ("a", "", N, "", N, "//", N, N)),
    ("a:/b", URI, ("a", N, N, N, N, "/b", N, N)),
    ("a:b//c", URI, ("a", N, N, N, N, "b//c", N, N)),
    # §3.1 scheme: ALPHA first; "scheme:" is taken whenever it is there
    ("a+b.c-d:x", URI, ("a+b.c-d", N, N, N, N, "x", N, N)),
    ("a:b:c", URI, ("a", N, N, N, N, "b:c", N, N)),
    ("1a:b", URI, None),
    ("+a:b", URI, None),
    (":", URI, None),
    (":a", URI, None),
    # §4.2: no ":" in the first segment of a relative-path reference
    ("b/c:d", URI, (N, N, N, N, N, "b/c:d", N, N)),
    ("./b:c", URI, (N, N, N, N, N, "./b:c", N, N)),
    ("/a:b", URI, (N, N, N, N, N, "/a:b", N, N)),
    ("?:", URI, (N, N, N, N, N, "", ":", N)),
    ("#:", URI, (N, N, N, N, N, "", N, ":")),
    ("@a", URI, (N, N, N, N, N, "@a", N, N)),
    # §3.2.1: a userinfo only when "@" comes before any "/", "?", "#"
    ("//@", URI, (N, "@", "", "", N, "", N, N)),
    ("//user@", URI, (N, "user@", "user", "", N, "", N, N)),
    ("//a:b@c:1/p", URI, (N, "a:b@c:1", "a:b", "c", "1", "/p", N, N)),
    ("//a/b@c", URI, (N, "a", N, "a", N, "/b@c", N, N)),
    ("//a?@", URI, (N, "a", N, "a", N, "", "@", N)),
    ("//a#@", URI, (N, "a", N, "a", N, "", N, "@")),
    ("//a@b@c", URI, None),
    ("//[::1]@h", URI, None),
    ("//a%2@h", URI, None),
    ("//a@[::1]:80", URI, (N, "a@[::1]:80", "a", "[::1]", "80", "", N, N)),
    # §3.2.2 host: IPv4address before reg-name (the host span is the same)
    ("//1.2.3.4", URI, (N, "1.2.3.4", N, "1.2.3.4", N, "", N, N)),
    ("//1.2.3.256", URI, (N, "1.2.3.256", N, "1.2.3.256", N, "", N, N)),
    ("//01.2.3.4:8", URI, (N, "01.2.3.4:8", N, "01.2.3.4", "8", "", N, N)),
    ("//%41", URI, (N, "%41", N, "%41", N, "", N, N)),
    ("//a%2", URI, None),
    ("//a b", URI, None),
    ("a://[", URI, None),
    # §3.2.3 port: *DIGIT, possibly empty
    ("//h:", URI, (N, "h:", N, "h", "", "", N, N)),
    ("//h:8x", URI, None),
    ("//a:1:2", URI, None),
    # IP-literal: the nine IPv6address forms
    ("//[::1]", URI, (N, "[::1]", N, "[::1]", N, "", N, N)),
    ("//[::]", URI, (N, "[::]", N, "[::]", N, "", N, N)),
    ("//[1:2:3:4:5:6:7:8]", URI, (N, "[1:2:3:4:5:6:7:8]", N, "[1:2:3:4:5:6:7:8]", N, "", N, N)),
    ("//[1:2:3:4:5:6:7::]", URI, (N, "[1:2:3:4:5:6:7::]", N, "[1:2:3:4:5:6:7::]", N, "", N, N)),
    ("//[1:2:3:4:5:6:1.2.3.4]", URI,
     (N, "[1:2:3:4:5:6:1.2.3.4]", N, "[1:2:3:4:5:6:1.2.3.4]", N, "", N, N)),
    ("//[1:2:3:4:5::1.2.3.4]", URI,
     (N, "[1:2:3:4:5::1.2.3.4]", N, "[1:2:3:4:5::1.2.3.4]", N, "", N, N)),
    ("//[::1.2.3.4]:0", URI, (N, "[::1.2.3.4]:0", N, "[::1.2.3.4]", "0", "", N, N)),
    ("//[FFFF::abcd]", URI, (N, "[FFFF::abcd]", N, "[FFFF::abcd]", N, "", N, N)),
    ("//[1:2:3:4:5:6:7:8:9]", URI, None),
    ("//[1:2:3:4:5:6:7]", URI, None),
    ("//[1:2:3:4:5:6:7:8::]", URI, None),
    ("//[1::2:3:4:5:6:7:8]", URI, None),
    ("//[1:2:3:4:5:6::1.2.3.4]", URI, None),
    ("//[1:2:3:4:5:6:7:1.2.3.4]", URI, None),
    ("//[::1.2.3.4.5]", URI, None),
    ("//[::01.2.3.4]", URI, None),
    ("//[::1.2.3]", URI, None),
    ("//[::1.2.3.4:1]", URI, None),
    ("//[1.2.3.4::]", URI, None),
    ("//[::12345]", URI, None),
    ("//[::1::2]", URI, None),
    ("//[:::]", URI, None),
    ("//[:1]", URI, None),
    ("//[1:]", URI, None),
    ("//[]", URI, None),
    ("//[::1", URI, None),
    ("//[::1]]", URI, None),
    ("//[::1]x", URI, None),
    # RFC 6874 §2: "%25" ZoneID
    ("//[fe80::1%25eth0]", URI, (N, "[fe80::1%25eth0]", N, "[fe80::1%25eth0]", N, "", N, N)),
    ("//[fe80::1%25%2541]", URI,
     (N, "[fe80::1%25%2541]", N, "[fe80::1%25%2541]", N, "", N, N)),
    ("//[fe80::1%eth0]", URI, None),
    ("//[fe80::1%24eth0]", URI, None),
    ("//[fe80::1%35eth0]", URI, None),
    ("//[fe80::1%2]", URI, None),
    ("//[fe80::1%25]", URI, None),
    ("//[fe80::1%25a%zz]", URI, None),
    ("//[fe80::1%25a:b]", URI, None),
    ("//[fe80::1%25\u00e9]", IRI, None),
    ("//[v1.x%25]", URI, None),
    # IPvFuture
    ("//[v1.x]", URI, (N, "[v1.x]", N, "[v1.x]", N, "", N, N)),
    ("//[V1F.a:b!]", URI, (N, "[V1F.a:b!]", N, "[V1F.a:b!]", N, "", N, N)),
    ("//[v1.]", URI, None),
    ("//[v.x]", URI, None),
    ("//[vG.x]", URI, None),
    ("//[v1x]", URI, None),
    # §2.1 pct-encoded
    ("%41", URI, (N, N, N, N, N, "%41", N, N)),
    ("%4", URI, None),
    ("%g1", URI, None),
    ("a%", URI, None),
    ("?%zz", URI, None),
    ("#%", URI, None),
    ("a?b?c#d?e/", URI, (N, N, N, N, N, "a", "b?c", "d?e/")),
    ("#a#b", URI, None),
    ("a b", URI, None),
    ("\x00", URI, None),
    # RFC 3987 §2.2: ucschar in iunreserved, iprivate only in iquery
    ("\u00e9", URI, None),
    ("\u00e9", IRI, (N, N, N, N, N, "\u00e9", N, N)),
    ("\xa0", IRI, (N, N, N, N, N, "\xa0", N, N)),
    ("\x80", IRI, None),
    ("http://\u00e9.example/", IRI,
     ("http", "\u00e9.example", N, "\u00e9.example", N, "/", N, N)),
    ("//\u00e9@h", IRI, (N, "\u00e9@h", "\u00e9", "h", N, "", N, N)),
    ("?\ue000", IRI, (N, N, N, N, N, "", "\ue000", N)),
    ("?\U0010fffd", IRI, (N, N, N, N, N, "", "\U0010fffd", N)),
    ("?\U000f0000", IRI, (N, N, N, N, N, "", "\U000f0000", N)),
    ("?\ue000", URI, None),
    ("#\ue000", IRI, None),
    ("/\ue000", IRI, None),
    ("\U00010000", IRI, (N, N, N, N, N, "\U00010000", N, N)),
    ("\U000e1000", IRI, (N, N, N, N, N, "\U000e1000", N, N)),
    ("\U000e0fff", IRI, None),
    ("\U0001fffe", IRI, None),
    ("\ufffe", IRI, None),
    ("\ufdd0", IRI, None),
    ("\ufdcf", IRI, (N, N, N, N, N, "\ufdcf", N, N)),
    # RFC 3987 §4.1: no bidi formatting characters
    ("\u200e", IRI, None),
    ("?\u202e", IRI, None),
    ("a\u061c", IRI, None),
    ("#\u2069", IRI, None),
    ("\u202f", IRI, (N, N, N, N, N, "\u202f", N, N)),
    # lone surrogates in a str
    ("\ud800", URI, None),
    ("\ud800", IRI, None),
    ("/\udfff", IRI, None),
    ("?\udbff\udc00", IRI, None),
]  # fmt: skip


def components(text: str, spans: Spans) -> tuple[str | None, ...] | None:
    if spans is None:
        return None
    pairs = zip(spans[::2], spans[1::2], strict=True)
    return tuple(None if start < 0 else text[start:end] for start, end in pairs)


@needs_extension
@pytest.mark.parametrize(("text", "iri", "expected"), TRICKY)
def test_tricky(text: str, iri: bool, expected: tuple[str | None, ...] | None) -> None:
    got = scan(text, iri)
    assert components(text, got) == expected
    assert got == oracle(text, iri)
    # The same text in a wider str kind (2- and 4-byte code units) scans the same.
    for wide in ("\u0100", "\U00010000"):
        padded = scan(text + "#" + wide, iri)
        assert padded == oracle(text + "#" + wide, iri)


# --- differential: generated references and near-references ---------------------------


@needs_extension
@given(uri_references())
def test_uri_references(text: str) -> None:
    check(text)


@needs_extension
@given(iri_references())
def test_iri_references(text: str) -> None:
    check(text)


@needs_extension
@given(grammar_text())
@example("a:b")
def test_grammar_text(text: str) -> None:
    check(text)


@needs_extension
@given(authority_text())
def test_authority_text(text: str) -> None:
    check(text)


@needs_extension
@given(st.text(st.characters(exclude_categories=())))
def test_any_text(text: str) -> None:
    check(text)


# Characters the mutations draw from: delimiters, "%", hex digits, pieces of IP literals,
# non-ASCII at the edges of ucschar and iprivate, bidi formatting characters, surrogates.
MUTATION_ALPHABET = [
    *":/?#[]@!$&'()*+,;=%.-_~", *"0123456789abcdefABCDEFvVxz", " ", "\x00", "\x7f",
    "%25", "%2", "::", "1.2.3.4", "//", "\x80", "\xa0", "\xe9", "\u0100", "\u061c",
    "\u200e", "\u202e", "\u2066", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000",
    "\uf8ff", "\uf900", "\ufdcf", "\ufdd0", "\ufdf0", "\uffef", "\ufffe", "\uffff",
    "\U00010000", "\U0001fffd", "\U0001fffe", "\U000e0fff", "\U000e1000", "\U000efffd",
    "\U000f0000", "\U000ffffd", "\U00100000", "\U0010fffd", "\U0010ffff",
]  # fmt: skip


def mutate(text: str, rng: random.Random, edits: int) -> str:
    """``text`` after ``edits`` random insertions, deletions and replacements."""
    for _ in range(edits):
        i = rng.randrange(len(text) + 1)
        action = rng.randrange(3)
        piece = rng.choice(MUTATION_ALPHABET)
        if action == 0 or not text:
            text = text[:i] + piece + text[i:]
        elif action == 1:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + piece + text[i + 1 :]
    return text


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return URLS.read_text(encoding="utf-8").splitlines()


@needs_extension
def test_corpus(corpus: list[str]) -> None:
    assert len(corpus) == 5000
    accepted = 0
    for url in corpus:
        check(url)
        accepted += scan(url, False) is not None
    # Most real URLs are valid, and a few are not (bench/README.md): both paths are taken.
    assert 4900 < accepted < 5000


@needs_extension
@pytest.mark.parametrize("seed", range(4))
def test_corpus_mutations(corpus: list[str], seed: int) -> None:
    rng = random.Random(seed)
    outcomes = set()
    for url in corpus:
        text = mutate(url, rng, rng.randint(1, 3))
        check(text)
        outcomes.add(scan(text, True) is None)
    assert outcomes == {True, False}


_edit = st.tuples(st.integers(0, 2), st.integers(0, 200), st.sampled_from(MUTATION_ALPHABET))


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for action, where, piece in edits:
        i = where % (len(text) + 1)
        if action == 0 or not text:
            text = text[:i] + piece + text[i:]
        elif action == 1:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + piece + text[i + 1 :]
    return text


@needs_extension
@given(uri_references() | iri_references(), st.lists(_edit, min_size=1, max_size=4))
def test_mutated_references(text: str, edits: list[tuple[int, int, str]]) -> None:
    check(_apply(text, edits))


@needs_extension
@given(st.lists(pct_encoded() | st.sampled_from(MUTATION_ALPHABET), max_size=20).map("".join))
def test_percent_and_non_ascii(text: str) -> None:
    for prefix in ("", "//", "s:", "//[", "//[::1%25", "?", "#"):
        check(prefix + text)


# --- large inputs and argument checking ---------------------------------------------------


@needs_extension
@pytest.mark.parametrize(
    "build",
    [
        lambda n: "a" * n,
        lambda n: "/" * n,
        lambda n: "//" + "@" * n,
        lambda n: "//" + "a" * n + "@",
        lambda n: "//[" + "1:" * n + "]",
        lambda n: "//[" + ":" * n + "]",
        lambda n: "//[v1." + "a" * n + "]",
        lambda n: "//[::1%25" + "%41" * n + "]",
        lambda n: "?" + "%4" * n,
        lambda n: "\U00010000" * n,
        lambda n: "a:" + "\ud800" * n,
    ],
)
def test_long_inputs(build: Callable[[int], str]) -> None:
    text = build(200_000)
    check(text)


@needs_extension
def test_arguments() -> None:
    module = _speedups_or_none
    assert module is not None
    with pytest.raises(TypeError):
        module.scan(b"a:b", False)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        module.scan("a:b", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        module.scan("a:b")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        module.scan("a:b", False, False)  # type: ignore[call-arg]

    class Text(str):
        pass

    assert module.scan(Text("a:b"), False) == oracle("a:b", False)
