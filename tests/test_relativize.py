"""Relativization: the shortest reference that resolves back to the target (RFC 3986 §5.2, §4.2).

The law: ``resolve(base, relativize(base, t)) == t`` for every absolute ``t``
whose path has no dot-segments.  Shortness is checked by brute force over
every string of a small alphabet on small inputs, and against the forms a
reference can take (§4.2) on larger ones.
"""

from __future__ import annotations

import itertools

import pytest
import rfc3986_oracle as oracle
import strategies
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from urikit import IRI, URI, URIError, relativize, resolve
from urikit.resolution import remove_dot_segments

BASE = "http://a/b/c/d;p?q"


@pytest.mark.parametrize(
    ("base", "target", "reference"),
    [
        # a different scheme: the target itself
        (BASE, "ftp://a/b/c/d;p?q", "ftp://a/b/c/d;p?q"),
        (BASE, "HTTP://a/b/c/g", "HTTP://a/b/c/g"),  # equality is exact (§6.2.1)
        # a different authority: a network-path reference
        (BASE, "http://x/b/c/g", "//x/b/c/g"),
        (BASE, "http://x", "//x"),
        ("foo:/a/b", "foo://x/a/b", "//x/a/b"),
        # the same path, another query
        (BASE, "http://a/b/c/d;p?y", "?y"),
        (BASE, "http://a/b/c/d;p?", "?"),
        (BASE, "http://a/b/c/d;p?y#s", "?y#s"),
        # only the fragment differs
        (BASE, "http://a/b/c/d;p?q#s", "#s"),
        (BASE, "http://a/b/c/d;p?q#", "#"),
        ("http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q#s", "#s"),
        # identical: the empty reference
        (BASE, BASE, ""),
        ("http://a/b/c/d;p?q#f", BASE, ""),
        # the same path without the query
        (BASE, "http://a/b/c/d;p", "d;p"),
        ("http://a/b/?q", "http://a/b/", "."),
        # a colon in the first segment needs "./" (§4.2)
        (BASE, "http://a/b/c/x:y", "./x:y"),
        ("foo:a", "foo:b:c", "./b:c"),
        # a path beginning with "//"
        (BASE, "http://a//g", "/.//g"),
        (BASE, "http://a/b/c//g", ".//g"),
        ("foo:/a/b", "foo:/.//g", "..//g"),  # as short as "/.//g"
        ("foo:/.//a/b", "foo:/.//a/x", "x"),
        ("A0:./", "A0:", "."),  # the directory of the base has dot-segments
        # empty base paths
        ("http://a", "http://a/x", "x"),
        ("http://a", "http://a/", "."),  # as short as "/"; a relative path is preferred
        ("http://a", "http://a?q", "?q"),
        ("http://a", "http://a", ""),
        ("http://a/", "http://a", "//a"),
        ("foo:", "foo:x", "x"),
        ("foo:a", "foo:", "."),
        # base paths with and without a trailing "/"
        ("http://a/b/", "http://a/b/c", "c"),
        ("http://a/b", "http://a/b/c", "b/c"),
        ("http://a/b/c", "http://a/b/", "."),
        ("http://a/b/c", "http://a/b/c/", "c/"),
        ("http://a/b/", "http://a/b", "/b"),
        ("http://a/x/b/", "http://a/x/b", "../b"),
        # climbing with ".."
        (BASE, "http://a/b/g", "../g"),
        (BASE, "http://a/b/", ".."),
        ("http://a/long/c/d/e", "http://a/long/", "../.."),
        ("http://a/longer/c/d/e", "http://a/longer/x/y", "../../x/y"),
        (BASE, "http://a/g", "/g"),
        (BASE, "http://a/", "/"),
        # rootless paths
        ("foo:a/b", "foo:a/c", "c"),
        ("foo:a/b/c", "foo:a/x", "../x"),
        ("foo:a/b", "foo:c", "foo:c"),  # ".." above "a" would make the path absolute
        ("foo:a/b", "foo:/c", "/c"),
        ("mailto:x@y", "mailto:z@w", "z@w"),
    ],
)
def test_cases(base: str, target: str, reference: str) -> None:
    result = relativize(base, target)
    assert str(result) == reference
    assert type(result) is URI
    assert str(resolve(base, result)) == target
    assert str(URI(base).relativize(URI(target))) == reference


@pytest.mark.parametrize(
    ("target", "reference", "resolved"),
    [
        ("http://a/b/c/./g", "g", "http://a/b/c/g"),
        ("http://a/b/c/../g", "../g", "http://a/b/g"),
        ("http://a/x/..", "/", "http://a/"),
        ("ftp://a/x/../y", "ftp://a/y", "ftp://a/y"),
    ],
)
def test_a_target_with_dot_segments(target: str, reference: str, resolved: str) -> None:
    # No reference resolves to such a target (resolution removes dot-segments):
    # the answer is for the target as it resolves, resolve(base, target).
    assert str(resolve(BASE, target)) == resolved
    result = relativize(BASE, target)
    assert str(result) == reference
    assert str(resolve(BASE, result)) == resolved


def test_a_relative_target_is_taken_relative_to_the_base() -> None:
    assert str(relativize(BASE, "../../x/../g")) == "/g"
    assert str(relativize(BASE, "g")) == "g"


def test_iri() -> None:
    base = IRI("http://\u4f8b.jp/a/b")
    result = relativize(base, "http://\u4f8b.jp/a/\u00fc")
    assert type(result) is IRI
    assert str(result) == "\u00fc"


def test_a_relative_base_is_refused() -> None:
    with pytest.raises(URIError):
        relativize("/a/b", "http://a/b")


# --- the law ------------------------------------------------------------------------


def _no_dot_segments(text: str) -> bool:
    path = URI(text).path
    return remove_dot_segments(path) == path


@st.composite
def related_targets(draw: st.DrawFn, base: str) -> str:
    """A target that shares a prefix with ``base``: its scheme, authority, path segments."""
    u = URI(base)
    scheme = draw(st.sampled_from([u.scheme, u.scheme, u.scheme, "other"]))
    authority = draw(st.sampled_from([u.authority, u.authority, u.authority, "x", None]))
    pieces = u.path.split("/")
    keep = draw(st.integers(0, len(pieces)))
    extra = draw(st.lists(st.one_of(st.sampled_from(["", "x", "y:z", "b"]), strategies.segments())))
    path = "/".join(pieces[:keep] + extra)
    if authority is not None and path and not path.startswith("/"):
        path = "/" + path
    if authority is None and path.startswith("//"):
        path = "/." + path
    query = draw(st.sampled_from([u.query, None, "", "y"]))
    fragment = draw(st.sampled_from([None, "", "s"]))
    text = scheme + ":" + ("" if authority is None else "//" + authority) + path
    text += "" if query is None else "?" + query
    return text + ("" if fragment is None else "#" + fragment)


def _valid(text: str) -> bool:
    try:
        URI(text)
    except URIError:
        return False
    return True


@given(st.data(), strategies.absolute_uris())
def test_law_on_related_pairs(data: st.DataObject, base: str) -> None:
    target = data.draw(related_targets(base).filter(_valid))
    if _no_dot_segments(target) or URI(target).authority is None:
        reference = relativize(base, target)
        assert str(resolve(base, reference)) == str(resolve(base, target))
        if _no_dot_segments(target):
            assert str(resolve(base, reference)) == target
        assert len(str(reference)) <= len(target)
        _assert_no_shorter_form(base, str(resolve(base, target)), str(reference))


@given(strategies.absolute_uris(), strategies.uri_references())
def test_law_on_independent_pairs(base: str, target: str) -> None:
    goal = resolve(base, target)
    # A goal that keeps a dot-segment (§5.2.2 keeps the base's path as it is for an empty
    # reference path: "A:." + "" is "A:.") has no reference resolving to it exactly.
    assume(_no_dot_segments(str(goal)))
    reference = relativize(base, goal)
    assert resolve(base, reference) == goal
    assert relativize(base, target) == reference


def _assert_no_shorter_form(base: str, target: str, reference: str) -> None:
    """No reference of the forms of §4.2 built from the target is shorter and works."""
    t = oracle.parse(target)
    tail = ("" if t.query is None else "?" + t.query) + (
        "" if t.fragment is None else "#" + t.fragment
    )
    candidates = {target, tail, "#" + (t.fragment or ""), ""}
    if t.authority is not None:
        candidates.add("//" + t.authority + t.path + tail)
    segments = t.path.split("/")
    for start in range(len(segments) + 1):
        rest = "/".join(segments[start:])
        for up in range(5):
            for lead in ("", "/", "./", "/.", "../" * up, "/".join([".."] * up)):
                candidates.add(lead + rest + tail)
                candidates.add(lead + rest)
    for candidate in candidates:
        if len(candidate) >= len(reference) or not _valid(candidate):
            continue
        assert str(resolve(base, candidate)) != target, (candidate, reference)


# --- shortness by brute force -------------------------------------------------------

SMALL_BASES = [
    "s://h/a/b", "s://h/a/", "s://h", "s:/a/b", "s:a/b", "s:a", "s:", "s://h/a/b?q", "s:./",
    "s:/.//a/b", "s://h/a/../b",
]  # fmt: skip


@st.composite
def small_targets(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["s", "t"]))
    authority = draw(st.sampled_from([None, "h", "g"]))
    segments = draw(st.lists(st.sampled_from(["a", "b", ""]), max_size=3))
    rooted = draw(st.booleans()) or authority is not None
    path = ("/" if rooted and segments else "") + "/".join(segments)
    if authority is None and path.startswith("//"):
        path = "/." + path
    query = draw(st.sampled_from([None, "", "q"]))
    fragment = draw(st.sampled_from([None, "f"]))
    text = scheme + ":" + ("" if authority is None else "//" + authority) + path
    return (
        text + ("" if query is None else "?" + query) + ("" if fragment is None else "#" + fragment)
    )


def _shorter_references(base: str, target: str, length: int) -> list[str]:
    """Every valid reference shorter than ``length`` (and than 4) that resolves to ``target``."""
    alphabet = sorted(set(target) | set("./"))
    found = []
    for size in range(min(length, 4)):
        for letters in itertools.product(alphabet, repeat=size):
            text = "".join(letters)
            if _valid(text) and str(resolve(base, text)) == target:
                found.append(text)
    return found


@pytest.mark.parametrize("base", SMALL_BASES)
@settings(max_examples=40)
@given(target=small_targets().filter(_valid))
def test_shortest_by_brute_force(base: str, target: str) -> None:
    goal = str(resolve(base, target))
    reference = str(relativize(base, target))
    assert str(resolve(base, reference)) == goal
    assert _shorter_references(base, goal, len(reference)) == []
