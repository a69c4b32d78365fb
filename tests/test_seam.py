"""The seam's operations on values, on each implementation, against the readable algorithms.

``urikit._seam`` answers ``urikit.normalize(text)`` and ``urikit.resolve(base, ref)``
from the texts alone: in one call into the compiled core, or by the readable glue over
``normalization.normalize`` (RFC 3986 §6.2.2, §6.2.3) and
``resolution.transform_references`` (§5.2.2).  Where it answers, the answer must be
the plain algorithm's, on both implementations (the ``backend`` fixture); checked on
grammar-generated references, URL-shaped ones, the real URLs and pairs of ``bench/``,
and tables of tricky cases.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import known_scheme_references, uri_references

from urikit.components import split
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR
from urikit.normalization import LEVELS
from urikit.normalization import normalize as plain_normalize
from urikit.resolution import transform_references

ROOT = Path(__file__).parent.parent
REAL = (ROOT / "bench" / "urls.txt").read_text().split()
PAIRS = [
    tuple(line.split("\t")) for line in (ROOT / "bench" / "pairs.txt").read_text().splitlines()
]
BASES = ["http://a/b/c/d;p?q", "http://a", "http://a/b/", "foo:a/b", "http://a/b/c/d#f", "x:"]


def plain(text: str, level: str) -> str:
    """The normal form by the plain algorithm alone."""
    parts = split(text, URI_GRAMMAR)
    assert parts is not None
    return plain_normalize(parts, level=level)  # type: ignore[arg-type]


def _check_normal(backend: ModuleType, text: str, level: str) -> None:
    """``normalize`` of a value and of a str, and the seam's answer where it gives one."""
    expected = plain(text, level)
    assert str(backend.normalize(backend.URI(text), level=level)) == expected, text
    assert str(backend.normalize(text, level=level)) == expected, text
    if level != "string":
        made = backend._seam.normalized(backend.URI, text, level, None)
        assert made is None or (type(made) is backend.URI and str(made) == expected), text
        if not backend.compiled:  # the readable glue answers every reference
            assert made is not None


# --- normalization -----------------------------------------------------------------------


@given(uri_references(), st.sampled_from(LEVELS))
def test_normalize_agrees_with_the_plain_algorithm(
    backend: ModuleType, text: str, level: str
) -> None:
    _check_normal(backend, text, level)


@given(known_scheme_references(), st.sampled_from(LEVELS))
def test_normalize_agrees_on_urls(backend: ModuleType, text: str, level: str) -> None:
    for candidate in (text.lower(), text):
        _check_normal(backend, candidate, level)


@pytest.mark.parametrize("level", LEVELS)
def test_normalize_agrees_on_real_urls(backend: ModuleType, level: str) -> None:
    for text in REAL:
        if URI_GRAMMAR.reference.fullmatch(text) is not None:
            _check_normal(backend, text, level)


@pytest.mark.parametrize(
    "text",
    ["http://a", "http://a?q", "http://a#f", "https://u@a.example", "file://h", "foo://a",
     "mysql://h", "http://a/b/./c", "http://a/.well-known/x", "http://a/%41", "HTTP://a",
     "http://a/b?x=/./y", "http://a/b#/../c", "http://.a/b", "foo:a/./b", "http://a?/.",
     "http://[FE80::A%25En1]:080/", "mailto:A@B.example", "urn:ISBN:1", "file://localhost/x"],
)  # fmt: skip
def test_normalize_cases(backend: ModuleType, text: str) -> None:
    for level in LEVELS:
        _check_normal(backend, text, level)


def test_normalize_reports_errors_at_the_input(backend: ModuleType) -> None:
    with pytest.raises(backend.URIError) as info:
        backend.normalize("http://a b")
    assert info.value.text == "http://a b" and info.value.position == 8


def test_an_already_normal_value_is_itself(backend: ModuleType) -> None:
    uri = backend.URI("http://a/b")
    assert uri.normalize() is uri and uri.normalize(level="syntax") is uri


# --- resolution --------------------------------------------------------------------------


def _check_resolved(backend: ModuleType, base: str, ref: str, strict: bool) -> None:
    """``_seam.resolved`` against ``transform_references`` (RFC 3986 §5.2.2), for URIs and
    IRIs: the same target, and ``None`` exactly when an operand is not a reference of the
    class or the base has no scheme; ``resolve`` gives the same."""
    for cls, grammar in ((backend.URI, URI_GRAMMAR), (backend.IRI, IRI_GRAMMAR)):
        base_parts, ref_parts = split(base, grammar), split(ref, grammar)
        got = backend._seam.resolved(cls, base, ref, strict)
        if base_parts is None or ref_parts is None or base_parts.scheme is None:
            assert got is None, (cls, base, ref)
            continue
        target = transform_references(base_parts, ref_parts, strict=strict)
        assert type(got) is cls
        assert str(got) == target, (base, ref)
        assert str(cls(base).resolve(cls(ref), strict=strict)) == target
        if cls is backend.URI:
            assert str(backend.resolve(base, ref, strict=strict)) == target


def test_a_reference_of_the_base_class_is_resolved_by_the_seam(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``URI`` reference against a ``URI`` base (an ``IRI`` against an ``IRI``) takes the
    seam's one call, as a ``str`` does; a reference of the other class is converted first
    (RFC 3987 §3.1) and takes the readable road."""
    calls: list[tuple[str, str]] = []
    backend._seam.resolved(backend.URI, "http://a", "g", True)  # binds on its first call
    resolved = backend._seam.resolved

    def counting(cls: type, base: str, ref: str, strict: bool) -> object:
        calls.append((base, ref))
        return resolved(cls, base, ref, strict)

    monkeypatch.setattr(backend._seam, "resolved", counting)
    for cls in (backend.URI, backend.IRI):
        calls.clear()
        assert str(cls("http://a/b/c/d;p?q").resolve(cls("../g"))) == "http://a/b/g"
        assert calls == [("http://a/b/c/d;p?q", "../g")]
    calls.clear()
    assert str(backend.resolve(backend.URI("http://a/b/c/d;p?q"), backend.URI("g"))) == (
        "http://a/b/c/g"
    )
    assert calls == [("http://a/b/c/d;p?q", "g")]
    calls.clear()
    assert str(backend.URI("http://a/b/").resolve(backend.IRI("r%C3%A9"))) == "http://a/b/r%C3%A9"
    assert calls == []


@given(st.sampled_from(BASES), uri_references(), st.booleans())
def test_resolved_agrees_with_5_2_2(backend: ModuleType, base: str, ref: str, strict: bool) -> None:
    _check_resolved(backend, base, ref, strict)


@given(
    st.sampled_from([*BASES, "foo:/a", "foo:a/b", "HTTP://a/b"]),
    st.text(alphabet="abhtpHTP./?#:%2F@", max_size=14),
    st.booleans(),
)
def test_resolved_on_schemes_and_dots(
    backend: ModuleType, base: str, ref: str, strict: bool
) -> None:
    _check_resolved(backend, base, ref, strict)


#: RFC 3986 §5.4.1, and leading and final dot-segments, and network-path references.
CASES = [
    "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x",
    "g;x?y#s", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
    "../../../g", "../../../../..", "//g/h?y#s", "//g/./h", "./..", "../.", ".././g",
    "..?y", ".?y", "../..#s", "./g:h", "g:h", "//[::1]:8/x", "", "http:g", "HTTP:g",
    "http://x/./y/../z", "ftp:./a", "ftp:.a", "..//b", "%zz",
]  # fmt: skip


@pytest.mark.parametrize("ref", CASES)
@pytest.mark.parametrize("base", [*BASES, "http://a/b/c/d;p?q#f", "http://a/b/c/", "foo:/a", "b"])
def test_resolved_cases(backend: ModuleType, base: str, ref: str) -> None:
    for strict in (True, False):
        _check_resolved(backend, base, ref, strict)


def test_resolved_on_the_corpus_pairs(backend: ModuleType) -> None:
    for base, ref in PAIRS:
        _check_resolved(backend, base, ref, True)
