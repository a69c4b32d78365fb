"""The legacy resolution profiles: RFC 2396 §5.2 (Appendix C) and RFC 1630 partial forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit import IRI, URI, URIError, resolve
from urikit.legacy import resolve_rfc1630, resolve_rfc2396

BASE = "http://a/b/c/d;p?q"

# RFC 2396 Appendix C.1.  Normal Examples ("(current document)" is the base)
RFC2396_C1 = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 2396 Appendix C.2.  Abnormal Examples ("<>" is the empty reference)
RFC2396_C2 = [
    ("", "http://a/b/c/d;p?q"),
    ("../../../g", "http://a/../g"),
    ("../../../../g", "http://a/../../g"),
    ("/./g", "http://a/./g"),
    ("/../g", "http://a/../g"),
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
]


@pytest.mark.parametrize(("ref", "target"), RFC2396_C1, ids=[r for r, _ in RFC2396_C1])
def test_rfc2396_appendix_c_1_normal_examples(ref: str, target: str) -> None:
    assert str(resolve(BASE, ref, spec="rfc2396")) == target
    assert str(URI(BASE).resolve(ref, spec="rfc2396")) == target


@pytest.mark.parametrize(("ref", "target"), RFC2396_C2, ids=[r or "<>" for r, _ in RFC2396_C2])
def test_rfc2396_appendix_c_2_abnormal_examples(ref: str, target: str) -> None:
    assert str(resolve(BASE, ref, spec="rfc2396")) == target
    assert resolve_rfc2396(URI(BASE).parts, URI(ref).parts) == target


def test_rfc2396_differs_from_rfc3986_where_appendix_c_says() -> None:
    for ref, rfc2396, rfc3986 in [
        ("?y", "http://a/b/c/?y", "http://a/b/c/d;p?y"),
        ("../../../g", "http://a/../g", "http://a/g"),
        ("/./g", "http://a/./g", "http://a/g"),
        ("/../g", "http://a/../g", "http://a/g"),
    ]:
        assert str(resolve(BASE, ref, spec="rfc2396")) == rfc2396
        assert str(resolve(BASE, ref)) == rfc3986


def test_rfc2396_step_3_loophole() -> None:
    # "an implementation may work around such references by removing the scheme
    # if it matches that of the base URI and the scheme is known to always use
    # the <hier_part> syntax": here, when the base is hierarchical.
    assert str(resolve(BASE, "http:g", spec="rfc2396")) == "http:g"
    assert str(resolve(BASE, "http:g", spec="rfc2396", strict=False)) == "http://a/b/c/g"
    assert str(resolve("urn:a:b", "urn:c", spec="rfc2396", strict=False)) == "urn:c"


def test_rfc2396_absolute_references_keep_their_dot_segments() -> None:
    # Steps 3-5 skip step 6: only a merged relative path loses its dot-segments.
    assert str(resolve(BASE, "ftp://x/./y/../z", spec="rfc2396")) == "ftp://x/./y/../z"
    assert str(resolve(BASE, "//x/../y", spec="rfc2396")) == "http://x/../y"


@pytest.mark.parametrize(
    ("base", "ref", "target"),
    [
        ("http://a", "g", "http://a/g"),  # an authority and an empty path merge below "/"
        ("foo:a", "../g", "foo:../g"),  # 6g: a leading ".." is kept
        ("foo:a/b", "../../g", "foo:../g"),
        ("foo:/a/", "..//g", "foo:/.//g"),  # "//g" without authority is written "/.//g"
        ("foo:", "g", "foo:g"),
        ("http://a/b/c/d;p?q#f", "", "http://a/b/c/d;p?q"),
    ],
)
def test_rfc2396_edge_cases(base: str, ref: str, target: str) -> None:
    result = resolve(base, ref, spec="rfc2396")
    assert str(result) == target
    assert URI(str(result)) == result


# RFC 1630 "Partial (relative) form": the examples, in both contexts.
RFC1630_EXAMPLES = [
    ("g", "magic://a/b/c//d/e/g"),
    ("/g", "magic://a/g"),
    ("//g", "magic://g"),
    ("../g", "magic://a/b/c//d/g"),
    ("g:h", "g:h"),
]


@pytest.mark.parametrize("base", ["magic://a/b/c//d/e/f", "magic://a/b/c//d/e/"])
@pytest.mark.parametrize(("ref", "target"), RFC1630_EXAMPLES, ids=[r for r, _ in RFC1630_EXAMPLES])
def test_rfc1630_examples(base: str, ref: str, target: str) -> None:
    assert str(resolve(base, ref, spec="rfc1630")) == target
    assert resolve_rfc1630(URI(base).parts, URI(ref).parts) == target


@pytest.mark.parametrize(
    ("ref", "target"),
    [
        # "If the scheme parts are different, the whole absolute URI must be
        # given.  Otherwise, the scheme is omitted": the same-scheme loophole.
        ("magic:g", "magic://a/b/c//d/e/g"),
        ("magic:../g", "magic://a/b/c//d/g"),
        ("MAGIC:/g", "magic://a/g"),
        ("magic://x/y", "magic://x/y"),
        ("http:g", "http:g"),
        # "xxx/../" and "/." are removed, recursively
        ("g/./h", "magic://a/b/c//d/e/g/h"),
        ("g/.", "magic://a/b/c//d/e/g"),
        ("x/y/../../g", "magic://a/b/c//d/e/g"),
        ("../../../g", "magic://a/b/c/g"),  # the void segment between "c" and "d" is one
        ("g/..", "magic://a/b/c//d/e/g/.."),  # "xxx/.." without a "/" after it stays
        # a partial form starting with slashes keeps its dot-segments
        ("/./g", "magic://a/./g"),
        ("//x/../g", "magic://x/../g"),
        ("///g", "magic:///g"),  # no run of exactly three slashes: only the scheme is kept
        # queries and fragments
        ("g?y", "magic://a/b/c//d/e/g?y"),
        ("?y", "magic://a/b/c//d/e/?y"),
        ("g#s", "magic://a/b/c//d/e/g#s"),
        ("#s", "magic://a/b/c//d/e/f?q#s"),
        ("", "magic://a/b/c//d/e/f?q"),
    ],
)
def test_rfc1630_rules(ref: str, target: str) -> None:
    assert str(resolve("magic://a/b/c//d/e/f?q#frag", ref, spec="rfc1630")) == target


def test_rfc1630_slash_runs_are_looked_for_before_the_query() -> None:
    base = "magic://a/b?x=//y"
    assert str(resolve(base, "//g", spec="rfc1630")) == "magic://g"
    assert str(resolve("magic:/a/b", "//g", spec="rfc1630")) == "magic://g"
    assert str(resolve("magic:/a//b/c", "//g", spec="rfc1630")) == "magic:/a//g"


def test_the_profiles_keep_the_class_of_the_base() -> None:
    base = IRI("http://\u4f8b.jp/a/b")
    for spec in ("rfc2396", "rfc1630"):
        result = resolve(base, "\u00fc", spec=spec)
        assert type(result) is IRI
        assert str(result) == "http://\u4f8b.jp/a/\u00fc"


def test_the_profiles_refuse_what_resolve_refuses() -> None:
    for spec in ("rfc2396", "rfc1630"):
        with pytest.raises(URIError):
            resolve("/relative", "g", spec=spec)
        with pytest.raises(URIError):
            resolve(BASE, "g h", spec=spec)
    with pytest.raises(ValueError, match="rfc2396"):
        resolve(BASE, "g", spec="rfc1808")


_PIECES = st.sampled_from(["a", "", ".", "..", "b", "//", "?q", "#f", ":"])


@given(st.lists(_PIECES, max_size=8).map("/".join), st.sampled_from(["rfc2396", "rfc1630"]))
def test_the_profiles_always_give_a_uri(ref: str, spec: str) -> None:
    try:
        URI(ref)
    except URIError:
        return
    for base in ["magic://a/b/c//d/e/f", BASE, "foo:a/b", "foo:/a/", "foo:"]:
        result = resolve(base, ref, spec=spec)
        assert URI(str(result)) == result
        assert result.scheme is not None


def test_linear_time() -> None:
    ref = "a/" * 20_000 + "../" * 20_000 + "g"
    assert str(resolve(BASE, ref, spec="rfc2396")) == "http://a/b/c/g"
    assert str(resolve(BASE, ref, spec="rfc1630")) == "http://a/b/c/g"
