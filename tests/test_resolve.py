"""Reference resolution, RFC 3986 §5.2, checked against the RFC and its literal transcription."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import rfc3986_oracle as oracle
import strategies
from hypothesis import assume, given
from hypothesis import strategies as st

from urikit import IRI, URI, URIError, resolve
from urikit.resolution import merge, remove_dot_segments

BASE = "http://a/b/c/d;p?q"

# RFC 3986 §5.4.1.  Normal Examples
NORMAL_EXAMPLES = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 3986 §5.4.2.  Abnormal Examples (the strict answer for "http:g")
ABNORMAL_EXAMPLES = [
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
]


def expected_text(base: str, ref: str, strict: bool = True) -> str:
    """The oracle's answer, with urikit's documented "/." for a "//" path without authority."""
    t = oracle.resolve_components(base, ref, strict)
    if t.authority is None and t.path.startswith("//"):
        t = t._replace(path="/." + t.path)
    return oracle.recompose(t)


@pytest.mark.parametrize(("ref", "target"), NORMAL_EXAMPLES, ids=[r for r, _ in NORMAL_EXAMPLES])
def test_5_4_1_normal_examples(ref: str, target: str) -> None:
    assert str(resolve(BASE, ref)) == target
    assert str(URI(BASE).resolve(URI(ref))) == target
    assert oracle.resolve(BASE, ref) == target


@pytest.mark.parametrize(
    ("ref", "target"), ABNORMAL_EXAMPLES, ids=[r for r, _ in ABNORMAL_EXAMPLES]
)
def test_5_4_2_abnormal_examples(ref: str, target: str) -> None:
    assert str(resolve(BASE, ref)) == target
    assert str(URI(BASE).resolve(URI(ref))) == target
    assert oracle.resolve(BASE, ref) == target


def test_5_4_2_http_g_for_backward_compatibility() -> None:
    assert str(resolve(BASE, "http:g", strict=False)) == "http://a/b/c/g"
    assert oracle.resolve(BASE, "http:g", strict=False) == "http://a/b/c/g"
    # schemes compare case-insensitively (§3.1), so "HTTP:g" is the same scheme
    assert str(resolve(BASE, "HTTP:g", strict=False)) == "http://a/b/c/g"
    assert str(resolve(BASE, "ftp:g", strict=False)) == "ftp:g"


# RFC 3986 §5.2.4: the two worked examples, buffer by buffer.
def test_5_2_4_worked_examples() -> None:
    assert remove_dot_segments("/a/b/c/./../../g") == "/a/g"
    assert remove_dot_segments("mid/content=5/../6") == "mid/6"


@pytest.mark.parametrize(
    ("path", "result"),
    [
        ("", ""),
        (".", ""),
        ("..", ""),
        ("./", ""),
        ("../", ""),
        ("/.", "/"),
        ("/..", "/"),
        ("/./", "/"),
        ("/../", "/"),
        ("a/..", "/"),
        ("a/../b", "/b"),
        ("../a", "a"),
        (".//a", "/a"),
        ("/a//../b", "/a/b"),
        ("/a/b/..", "/a/"),
        ("/a/./b/.", "/a/b/"),
        ("...", "..."),
        ("/.../..", "/"),
        ("/a/.b/..c/", "/a/.b/..c/"),
    ],
)
def test_5_2_4_rules(path: str, result: str) -> None:
    assert remove_dot_segments(path) == result
    assert oracle.remove_dot_segments(path) == result


@given(st.text(alphabet="/.a", max_size=24))
def test_5_2_4_matches_the_two_buffer_algorithm(path: str) -> None:
    assert remove_dot_segments(path) == oracle.remove_dot_segments(path)


def test_5_2_4_is_linear() -> None:
    path = "/a" * 50_000 + "/.." * 50_000 + "/./x" * 10_000
    assert remove_dot_segments(path) == "/x" * 10_000


# RFC 3986 §5.2.3
def test_5_2_3_merge() -> None:
    assert merge("a", "", "g") == "/g"
    assert merge(None, "", "g") == "g"
    assert merge("a", "/b/c/d;p", "g") == "/b/c/g"
    assert merge(None, "b", "g") == "g"
    assert merge(None, "a/b", "g") == "a/g"


# RFC 3986 §5.1: what a base must be.
def test_5_1_a_relative_base_is_refused() -> None:
    for base in ["//a/b", "/b/c", "b/c", "", "#f"]:
        with pytest.raises(URIError) as info:
            resolve(base, "g")
        assert info.value.rule == "absolute-URI"
        assert "§5.1" in str(info.value)


def test_5_1_the_fragment_of_a_base_is_ignored() -> None:
    base = "http://a/b/c/d;p?q#f"
    assert str(resolve(base, "")) == "http://a/b/c/d;p?q"
    assert str(resolve(base, "#s")) == "http://a/b/c/d;p?q#s"
    assert str(resolve(base, "?y")) == "http://a/b/c/d;p?y"
    assert str(resolve(base, "g")) == "http://a/b/c/g"
    assert str(resolve(URI(base), URI(""))) == "http://a/b/c/d;p?q"


def test_an_invalid_base_or_reference_raises() -> None:
    with pytest.raises(URIError):
        resolve("http://a b/", "g")
    with pytest.raises(URIError):
        resolve(BASE, "g h")
    with pytest.raises(URIError):
        resolve(BASE, "%zz/../g")  # removed by ".." but still not a reference
    with pytest.raises(URIError):
        resolve(BASE, "1a:b")  # a colon in the first segment of a relative path (§4.2)
    with pytest.raises(TypeError):
        resolve(BASE, 3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="rfc3986"):
        resolve(BASE, "g", spec="rfc9999")


def test_types() -> None:
    base = URI(BASE)
    assert type(resolve(BASE, "g")) is URI
    assert type(resolve(base, "g")) is URI
    assert type(base.resolve(URI("g"))) is URI
    assert resolve(base, "") is base
    iri = IRI("http://\u4f8b.jp/a/b")
    result = resolve(iri, "\u00fc")
    assert type(result) is IRI
    assert str(result) == "http://\u4f8b.jp/a/\u00fc"
    assert type(resolve(iri, URI("g"))) is IRI
    with pytest.raises(URIError):
        resolve(base, IRI("\u00fc"))  # not a URI


# The open edge cases (docs/deviations.md).
@pytest.mark.parametrize(
    ("base", "ref", "literal", "target"),
    [
        ("foo:/a", "..//b", "foo://b", "foo:/.//b"),
        ("f:/a", ".//g", "f://g", "f:/.//g"),
        ("foo:/", "/.//g", "foo://g", "foo:/.//g"),
        ("foo:a/b", "..//c", "foo://c", "foo:/.//c"),
        ("foo:x", "foo:/.//y?q#f", "foo://y?q#f", "foo:/.//y?q#f"),
        ("foo:/", ".//@@", "foo://@@", "foo:/.//@@"),
    ],
)
def test_a_path_beginning_with_two_slashes_without_authority(
    base: str, ref: str, literal: str, target: str
) -> None:
    assert oracle.resolve(base, ref) == literal
    result = resolve(base, ref)
    assert str(result) == target
    assert result.authority is None
    assert remove_dot_segments(result.path) == oracle.resolve_components(base, ref).path


@pytest.mark.parametrize(
    ("base", "ref", "target"),
    [
        ("foo:a/b", "../../c", "foo:/c"),  # ".." above the first segment of a rootless path
        ("foo:a/b", "../c", "foo:/c"),
        ("foo:a/b", "..", "foo:/"),
        ("foo:a/b", "c", "foo:a/c"),
        ("foo:a", "b/c", "foo:b/c"),
        ("foo:a", ".", "foo:"),
        ("foo:", ".//g", "foo:/g"),
        ("foo:", "./a:b", "foo:a:b"),
        ("foo:a", "../b", "foo:b"),
        ("mailto:x@y", "z@w", "mailto:z@w"),
    ],
)
def test_rootless_and_empty_base_paths(base: str, ref: str, target: str) -> None:
    assert str(resolve(base, ref)) == target
    assert oracle.resolve(base, ref) == target


def _vector_cases() -> list[Any]:
    path = Path(__file__).parent / "vectors" / "resolution.json"
    if not path.exists():
        return []
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return [pytest.param(c, id=f"{c['base']} {c['ref']}") for c in cases]


@pytest.mark.parametrize("case", _vector_cases())
def test_vectors(case: dict[str, str]) -> None:
    base, ref, expected = case["base"], case["ref"], case["expected"]
    t = oracle.resolve_components(base, ref)
    if t.authority is None and t.path.startswith("//"):
        # The literal answer reads back with an authority; see the deviations.
        scheme, _, rest = expected.partition(":")
        expected = scheme + ":/." + rest
    assert str(resolve(base, ref)) == expected
    assert str(resolve(URI(base), URI(ref))) == expected


# --- properties ---------------------------------------------------------------------

_SEGMENTS = st.sampled_from(["", ".", "..", "a", "b", "...", ".a", "a.", "%2E", "c;x", "d=1"])


@st.composite
def dotted_paths(draw: st.DrawFn) -> str:
    """Paths rich in dot-segments, empty segments and leading "../" and "./"."""
    parts = draw(st.lists(_SEGMENTS, max_size=7))
    lead = draw(st.sampled_from(["", "/", "./", "../", "../../", ".//", "/./"]))
    return lead + "/".join(parts)


@st.composite
def bases(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "foo", "HTTP"]))
    authority = draw(st.sampled_from([None, "", "a", "u@h:80", "[::1]"]))
    path = draw(dotted_paths())
    if authority is not None:
        path = "/" + path.lstrip("/") if path else draw(st.sampled_from(["", "/"]))
    elif path.startswith("//"):
        path = path[1:]
    query = draw(st.sampled_from([None, "", "q", "x=/./y"]))
    fragment = draw(st.sampled_from([None, "", "f"]))
    return strategies.recompose(
        {
            "scheme": scheme,
            "host": authority,
            "userinfo": None,
            "port": None,
            "path": path,
            "query": query,
            "fragment": fragment,
        }
    )


@st.composite
def references(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["", "", "", "//a", "//", "http:", "foo:", "HTTP:"]))
    path = draw(dotted_paths())
    if prefix.startswith("//") and path and not path.startswith("/"):
        path = "/" + path
    query = draw(st.sampled_from([None, "", "y", "y/../x"]))
    fragment = draw(st.sampled_from([None, "", "s", "s/./x"]))
    text = prefix + path
    if query is not None:
        text += "?" + query
    if fragment is not None:
        text += "#" + fragment
    return text


def _valid(text: str) -> bool:
    try:
        URI(text)
    except URIError:
        return False
    return True


@given(bases().filter(_valid), references().filter(_valid), st.booleans())
def test_matches_the_rfc_pseudo_code(base: str, ref: str, strict: bool) -> None:
    b_scheme, r_scheme = oracle.parse(base).scheme, oracle.parse(ref).scheme
    if r_scheme is not None and r_scheme != b_scheme and r_scheme.lower() == b_scheme.lower():
        strict = True  # urikit compares schemes case-insensitively (§3.1); see the deviations
    expected = expected_text(base, ref, strict)
    result = resolve(base, ref, strict=strict)
    assert str(result) == expected
    # The general path (a parsed reference) agrees with the fast one (a str).
    assert str(resolve(URI(base), URI(ref), strict=strict)) == expected


@given(bases().filter(_valid), references().filter(_valid))
def test_the_result_always_reparses(base: str, ref: str) -> None:
    result = resolve(base, ref)
    again = URI(str(result))
    assert again == result
    assert result.is_absolute or result.fragment is not None
    components = oracle.resolve_components(base, ref)
    assert result.scheme == components.scheme
    assert result.authority == components.authority
    if components.authority is None and components.path.startswith("//"):
        assert result.path == "/." + components.path
    else:
        assert result.path == components.path
    assert (result.query, result.fragment) == (components.query, components.fragment)


@given(strategies.absolute_uris(), strategies.uri_references())
def test_matches_the_rfc_pseudo_code_on_grammar_references(base: str, ref: str) -> None:
    assert str(resolve(base, ref)) == expected_text(base, ref)


_PIECES = ["a", "b", ":", "/", "../", "./", ".", "?", "#", "%", "%41", "%zz", " ", "[", "]", "@"]
near_references = st.lists(st.sampled_from([*_PIECES, "1", "//", "http:"]), max_size=8).map("".join)


@given(bases().filter(_valid), strategies.grammar_text() | near_references)
def test_a_str_reference_is_refused_exactly_when_it_is_invalid(base: str, text: str) -> None:
    try:
        URI(text)
    except URIError:
        with pytest.raises(URIError):
            resolve(base, text)
    else:
        assert str(resolve(base, text)) == expected_text(base, text)


@given(strategies.absolute_uris(), strategies.uri_references())
def test_resolution_is_idempotent_on_its_result(base: str, ref: str) -> None:
    # §5.2.2: a target is absolute, and resolving it again changes nothing
    # (the path of the base is inherited as it is, dot-segments and all).
    path = URI(base).path
    assume(remove_dot_segments(path) == path)
    target = resolve(base, ref)
    assert resolve(base, target) == target
    assert resolve(target, "") == URI(str(target).split("#", 1)[0])


# --- the command --------------------------------------------------------------------


def test_command_resolve(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    assert main(["resolve", BASE, "../g", "?y", "#s"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "http://a/b/g",
        "http://a/b/c/d;p?y",
        "http://a/b/c/d;p?q#s",
    ]
    assert main(["resolve", "--spec", "rfc2396", BASE, "../../../g"]) == 0
    assert capsys.readouterr().out == "http://a/../g\n"
    assert main(["resolve", "--non-strict", "--json", BASE, "http:g"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["target"] == "http://a/b/c/g"
    assert record["ok"] is True


def test_command_resolve_streams_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    from urikit.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("g\ng h\n/g\n"))
    assert main(["resolve", BASE]) == 1
    out = capsys.readouterr().out
    assert out.startswith("http://a/b/c/g\nerror: g h\t")
    assert out.endswith("http://a/g\n")


def test_command_bad_base(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    assert main(["resolve", "/relative", "g"]) == 2
    assert "§5.1" in capsys.readouterr().err


def test_command_relativize(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    assert main(["relativize", BASE, "http://a/b/g", BASE, "ftp://x/"]) == 0
    assert capsys.readouterr().out.splitlines() == ["../g", "", "ftp://x/"]
    assert main(["relativize", "--json", BASE, "http://a/b/c/d;p?q#s"]) == 0
    assert json.loads(capsys.readouterr().out)["reference"] == "#s"
