"""Path segments (RFC 3986 §3.3), safe joins, and navigation by resolution (§5.2)."""

from __future__ import annotations

import re
import unicodedata
from types import ModuleType
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit import IRI, URI, URIError
from urikit.paths import PARENT_REFERENCE, joinpath, segments, sibling_reference

TEXT = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from("/\\.%:?#"))


# -- segments ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://h", []),
        ("", []),
        ("http://h/", [""]),
        ("/", [""]),
        ("http://h/a/b", ["a", "b"]),
        ("http://h/a/b/", ["a", "b", ""]),
        ("http://h//a", ["", "a"]),
        ("a/b", ["a", "b"]),
        ("./a:b", [".", "a:b"]),
        ("mailto:joe@example.com", ["joe@example.com"]),
        ("http://h/a%2Fb/c%20d", ["a/b", "c d"]),
        ("http://h/caf%C3%A9/%25", ["café", "%"]),
        ("http://h/a/../b/.", ["a", "..", "b", "."]),
    ],
)
def test_segments(text: str, expected: list[str]) -> None:
    assert URI(text).segments() == expected


def test_segments_of_invalid_utf8() -> None:
    uri = URI("http://h/caf%E9")
    with pytest.raises(URIError) as info:
        _ = URI("http://h/a/caf%E9").segments()
    assert (info.value.text, info.value.position, info.value.rule) == ("/a/caf%E9", 6, "segment")
    assert segments(uri.path, errors="replace") == ["caf\ufffd"]
    assert segments("/a") == ["a"]


# -- joinpath -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "names", "expected"),
    [
        ("http://h/x/", ("a",), "http://h/x/a"),
        ("http://h/x", ("a",), "http://h/x/a"),
        ("http://h", ("a",), "http://h/a"),
        ("http://h/", ("a", "b"), "http://h/a/b"),
        ("http://h/x?q=1#f", ("a",), "http://h/x/a?q=1#f"),
        ("http://h/x", ("a", ""), "http://h/x/a/"),
        ("http://h/x", ("",), "http://h/x/"),
        ("http://h/x/", ("",), "http://h/x/"),
        ("/x", ("a",), "/x/a"),
        ("x", ("a",), "x/a"),
        ("", ("a",), "a"),
        ("//h", ("a",), "//h/a"),
        ("file:///", ("etc", "hosts"), "file:///etc/hosts"),
    ],
)
def test_joinpath(base: str, names: tuple[str, ...], expected: str) -> None:
    assert str(URI(base).joinpath(*names)) == expected


@pytest.mark.parametrize(
    ("name", "encoded"),
    [
        ("a/b", "a%2Fb"),
        ("a\\b", "a%5Cb"),
        ("a/...", "a%2F..."),
        (".../x", "...%2Fx"),
        (".a/b.", ".a%2Fb."),
        ("a?b#c", "a%3Fb%23c"),
        ("100%", "100%25"),
        ("%41", "%2541"),
        ("a b", "a%20b"),
        ("é", "%C3%A9"),
        ("...", "..."),
        (".a", ".a"),
        ("a:b@c", "a:b@c"),
        ("%zz%2e", "%25zz%252e"),
        ("\x80\x9f", "%C2%80%C2%9F"),
    ],
)
def test_joinpath_encodes_each_segment_as_data(name: str, encoded: str) -> None:
    joined = URI("http://h/base/").joinpath(name)
    assert str(joined) == "http://h/base/" + encoded
    assert joined.segments() == ["base", name]


@pytest.mark.parametrize(
    "name",
    [
        ".",
        "..",
        "%2e",
        "%2E",
        "%2e%2e",
        "%2E%2e",
        ".%2E",
        "%2e.",
        "%252e%252e",
        "%25252E.",
        "\uff0e\uff0e",
        "\u2025",
        "%EF%BC%8E",
        "%" + "25" * 20 + "2e",
    ],
)
def test_joinpath_refuses_dot_segments_in_any_spelling(name: str) -> None:
    with pytest.raises(ValueError, match="dot-segment"):
        URI("http://h/a/").joinpath(name)
    with pytest.raises(URIError):
        URI("http://h/a/").joinpath("ok", name, "ok")
    with pytest.raises(URIError):
        URI("http://h/a/").sibling(name)


@pytest.mark.parametrize(
    ("name", "position"),
    [
        ("../x", 0),
        ("a/..", 2),
        ("a/./b", 2),
        ("x\\.", 2),
        ("..\\..\\etc", 0),
        ("%2e/x", 0),
        ("x/%2E%2e", 2),
        ("a%2F%2E%2E", 0),
        ("a%252F..", 0),
        ("a/%252e%252e/b", 2),
        ("\uff0e\uff0e\uff0fx", 0),
        ("x\uff0f\uff0e", 0),
        ("%zz%2F%2e%2e", 0),
    ],
)
def test_joinpath_refuses_dot_segments_between_separators(name: str, position: int) -> None:
    # RFC 3986 §7.3: "..%2Fx" decoded by a server is "../x", which climbs; the audit
    # rates it high (encoded-dot-segment), so joinpath refuses it, at the part.
    with pytest.raises(URIError, match="dot-segment") as info:
        URI("http://h/a").joinpath(name)
    error = info.value
    assert (error.text, error.position, error.rule) == (name, position, "segment")
    with pytest.raises(URIError):
        URI("http://h/a/").sibling(name)


@pytest.mark.parametrize("code", [*range(0x20), 0x7F])
def test_joinpath_refuses_control_characters(code: int) -> None:
    name = "ab" + chr(code) + "c"
    with pytest.raises(URIError, match="control character") as info:
        URI("http://h/").joinpath(name)
    assert (info.value.position, info.value.rule) == (2, "segment")
    assert f"U+{code:04X}" in str(info.value)


def test_joinpath_writes_invisible_characters_of_an_iri_as_triplets() -> None:
    # RFC 3987 §4.1, RFC 3986 §7.6: a joined segment looks like what it is.
    joined = IRI("http://h/").joinpath("a\u00adb\u200bc\ufeffü")
    assert str(joined) == "http://h/a%C2%ADb%E2%80%8Bc%EF%BB%BFü"
    assert joined.segments() == ["a\u00adb\u200bc\ufeffü"]


def test_joinpath_refuses_empty_segments_except_last() -> None:
    with pytest.raises(URIError, match="empty segment"):
        URI("http://h/").joinpath("", "a")
    with pytest.raises(URIError, match="empty segment"):
        URI("http://h/").joinpath("a", "", "b")


def test_joinpath_refuses_opaque_uris() -> None:
    with pytest.raises(URIError, match="opaque"):
        URI("mailto:joe@example.com").joinpath("x")
    with pytest.raises(URIError, match="opaque"):
        URI("urn:isbn:0451450523").joinpath("x")


def test_joinpath_without_segments_changes_nothing() -> None:
    uri = URI("http://h/x")
    assert uri.joinpath() is uri


def test_joinpath_colon_in_first_segment_of_relative_path() -> None:
    # §4.2: "a:b" first in a relative-path reference would read as a scheme.
    joined = URI("").joinpath("a:b", "c:d")
    assert str(joined) == "a%3Ab/c:d"
    assert joined.scheme is None
    assert joined.segments() == ["a:b", "c:d"]


def test_joinpath_segments_must_be_text() -> None:
    with pytest.raises(TypeError):
        URI("http://h/").joinpath(1)  # type: ignore[arg-type]


def test_joinpath_on_an_iri() -> None:
    joined = IRI("http://h/ö/").joinpath("ü b")
    assert isinstance(joined, IRI)
    assert str(joined) == "http://h/ö/ü%20b"


DOTS = [".", "..", "%2e", ".%2E", "%252E", ""]


def _climbs(name: str) -> bool:
    """Does repeated percent-decoding (urllib's, as an independent oracle), read by NFKC,
    give a dot-segment between "/" or "\\", or does ``name`` hold a control character?"""
    if any(ord(c) < 0x20 or c == "\x7f" for c in name):
        return True
    for _ in range(len(name) + 1):
        name = unicodedata.normalize("NFKC", name)
        if any(part in (".", "..") for part in re.split(r"[/\\]", name)):
            return True
        decoded = unquote(name, errors="surrogateescape")
        if decoded == name:
            return False
        name = decoded
    return False


@given(
    base=st.sampled_from(["http://h", "http://h/x", "http://h/x/", "/x", "x", ""]),
    names=st.lists(
        TEXT | st.sampled_from([".", "..", "%2e", ".%2E", "%252E"]), min_size=1, max_size=4
    ),
)
def test_joined_segments_are_the_data_given(base: str, names: list[str]) -> None:
    uri = URI(base)
    try:
        joined = uri.joinpath(*names)
    except URIError:
        assert any(_climbs(n) for n in names) or "" in names[:-1]
        return
    assert not any(_climbs(n) for n in names)
    if base == "" and names == [""]:
        assert joined == ""  # no path to give a trailing "/"
        return
    assert joined.segments()[-len(names) :] == names
    prefix = uri.path if uri.path.endswith("/") or not uri.path else uri.path + "/"
    if uri.authority is not None and not uri.path:
        prefix = "/"
    assert joined.path.startswith(prefix)
    assert joined.path[len(prefix) :].count("/") == len(names) - 1
    assert joined.scheme == uri.scheme


#: Pieces of text near a finding of the audit: dots, separators and their triplets,
#: double encodings, NFKC forms, controls and invisible characters.
NEAR_FINDINGS = st.sampled_from(
    [
        *[".", "..", "/", "\\", "%", "%2e", "%2E", "%2f", "%5C", "%25", "%252e", "%252F"],
        *["%0a", "\uff0e", "\uff0f", "\u2025", "\x00", "\n", "\x7f", "\u200b", "\u202e"],
        *["\u00ad", "x", "é", "%C0%AE", "%zz", ":", "@", "?", "#", "javascript:"],
    ]
)
DATA = st.lists(NEAR_FINDINGS, min_size=1, max_size=6).map("".join) | TEXT
#: Bases, the first without findings, the last two with findings of their own.
AUDIT_BASES = [
    "http://h/a",
    "http://h/a/",
    "http://h",
    "https://h/a?q=1#f",
    "/a",
    "a",
    "",
    "//h",
    "file:///x",
    "http://10.0.0.1/%2e%2e/",
    "http://u:p@h/a?x=%2e%2e#f",
]


@given(
    base=st.sampled_from(AUDIT_BASES),
    names=st.lists(DATA, min_size=1, max_size=3),
    iri=st.booleans(),
)
def test_nothing_joined_draws_an_audit_finding(
    backend: ModuleType, base: str, names: list[str], iri: bool
) -> None:
    # The promise of joinpath: data cannot climb or hide, so urikit.audit finds in
    # the result nothing that the joined data causes (RFC 3986 §7.3, §7.6).
    uri = (backend.IRI if iri else backend.URI)(base)
    try:
        joined = uri.joinpath(*names)
    except backend.URIError:
        return
    before = backend.audit(uri)
    after = backend.audit(joined)
    if not before:
        assert after == [], (str(joined), after)
    start = uri.span("path")[1]  # the joined segments lie from here to the path's end
    end = joined.span("path")[1]
    assert not [f for f in after if f.span[1] > start and f.span[0] < end], after
    assert {f.code for f in after} <= {f.code for f in before}


# -- parent and sibling (§5.2) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        # RFC 3986 §5.4.1: ".." against http://a/b/c/d;p?q is http://a/b/
        ("http://a/b/c/d;p?q", "http://a/b/"),
        ("http://h/a/b/", "http://h/a/"),
        ("http://h/a/b/c#frag", "http://h/a/"),
        ("http://h/a", "http://h/"),
        ("http://h/", "http://h/"),
        ("/a/b/c", "/a/"),
        ("//h/a/b/c", "//h/a/"),
    ],
)
def test_parent(base: str, expected: str) -> None:
    assert str(URI(base).parent()) == expected


@pytest.mark.parametrize(
    ("base", "name", "expected"),
    [
        ("http://a/b/c/d;p?q", "g", "http://a/b/c/g"),
        ("http://h/a/b.html#x", "c d.html", "http://h/a/c%20d.html"),
        ("http://h/a/", "b", "http://h/a/b"),
        ("http://h/a/b", "x:y", "http://h/a/x:y"),
        ("http://h/a/b", "x/y", "http://h/a/x%2Fy"),
        ("/a/b", "c", "/a/c"),
        ("//h/a/b", "c", "//h/a/c"),
    ],
)
def test_sibling(base: str, name: str, expected: str) -> None:
    assert str(URI(base).sibling(name)) == expected


def test_navigation_needs_a_base_for_relative_paths() -> None:
    with pytest.raises(URIError, match="relative-path"):
        URI("a/b").parent()
    with pytest.raises(URIError, match="relative-path"):
        URI("a/b").sibling("c")


def test_sibling_refuses_empty_name() -> None:
    with pytest.raises(URIError):
        URI("http://h/a").sibling("")


def test_functions_take_and_give_path_text() -> None:
    assert joinpath("", ["a"], scheme="http", authority="h") == "/a"
    assert joinpath("/x", ["a b", ""]) == "/x/a%20b/"
    assert joinpath("/x", ["é"]) == "/x/%C3%A9"
    assert joinpath("/x", ["é"], iri=True) == "/x/é"
    assert joinpath("/x", []) == "/x"
    assert PARENT_REFERENCE == ".."
    assert sibling_reference("a/b") == "./a%2Fb"
    assert sibling_reference("é", iri=True) == "./é"


def test_path_arguments_of_the_wrong_type() -> None:
    with pytest.raises(TypeError):
        joinpath("/x", "ab")
    with pytest.raises(TypeError):
        joinpath("/x", [1])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        segments(None)  # type: ignore[arg-type]
    with pytest.raises(URIError):
        sibling_reference("..")
