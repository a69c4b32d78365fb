"""The two implementations of URI Templates held together: the readable Python of
``urikit.template`` and the C of ``urikit._template`` (src/urikit/_c/template/).

The same tests run on each (the ``backend`` fixture), and Hypothesis compares them on
generated templates and URIs, hostile and non-UTF-8-ish text included (lone
surrogates, characters of every plane): the syntax check of RFC 6570 §2 must refuse
at the same character, and a router must give the same template, regions and
variables.  Linear time on hostile shapes is checked on each.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any

import pytest
from backends import COMPILED, PURE, REQUIRED, needs_extension
from hypothesis import assume, given
from hypothesis import strategies as st
from linear import assert_linear

from urikit.template.syntax import TemplateError, parse


def _template(backend: ModuleType) -> ModuleType:
    return importlib.import_module(f"{backend.__name__}.template")


PURE_T = _template(PURE)
COMPILED_T = _template(COMPILED)


def test_each_copy_uses_its_implementation() -> None:
    assert PURE_T.backend.compiled is False
    if COMPILED.compiled or REQUIRED:
        assert COMPILED_T.backend.compiled is True


# --- the same tests on both ------------------------------------------------------------

#: Templates of RFC 6570 (§1.2, §2.4, §3.2) and of the forms the grammar allows.
VALID = [
    "", "http://example.com/~{username}/", "{var}", "O{empty}X", "{x,hello,y}",
    "{+path}/here", "{#path,x}/here", "X{.list*}", "{/var:1,var}", "{;v,empty,who}",
    "{?x,y,empty}", "{&who}", "{var:3}", "{var:9999}", "{a.b.c}", "{a%20b}", "{_}",
    "caf\u00e9/{x}", "'{x}'", "\U00010000{x}\U000e1000\U0010fffd", "%41{%41}",
]  # fmt: skip

#: Malformed templates, and the position of the first character outside the grammar.
INVALID = [
    ("{", 1), ("}", 0), ("{}", 1), ("{a", 2), ("{=a}", 1), ("{|a}", 1), ("{a:0}", 3),
    ("{a:12345}", 7), ("{a.}", 3), ("{.a..b}", 4), ("{a b}", 2), ("x%4", 3),
    ("x%g1", 2), ("{a%4}", 4), ("a b", 1), ("<", 0), ("\x00", 0), ("\ud800", 0),
    ("a\udfff", 1), ("\ufdd0", 0), ("\uffff", 0), ("\U000e0fff", 0), ("{a*b}", 3),
    ("{a:1*}", 4), ("{+}", 2), ("{a,}", 3), ("{a}{", 4), ('"', 0), ("{\u00e9}", 1),
]  # fmt: skip


@pytest.mark.parametrize("text", VALID)
def test_2_is_template_accepts_templates(backend: ModuleType, text: str) -> None:
    t = _template(backend)
    assert t.is_template(text)
    assert t.backend.error_position(text) is None


@pytest.mark.parametrize(("text", "position"), INVALID, ids=[repr(t) for t, _ in INVALID])
def test_2_is_template_refuses_where_parse_does(
    backend: ModuleType, text: str, position: int
) -> None:
    t = _template(backend)
    assert not t.is_template(text)
    assert t.backend.error_position(text) == position
    with pytest.raises(TemplateError) as caught:
        parse(text)
    assert caught.value.position == position


def test_is_template_takes_a_str(backend: ModuleType) -> None:
    with pytest.raises(TypeError):
        _template(backend).is_template(b"{x}")


def test_the_json_schema_format(backend: ModuleType) -> None:
    """``uri-template`` of JSON Schema 2020-12 (§7.3.6): the syntax check for a str, and
    True for any other instance (§7.1); one C call with the compiled core."""
    conforms = _template(backend).backend.template_format
    for instance in (None, 1, b"{", ["{"], {"{": 1}):
        assert conforms(instance) is True
    for text in VALID:
        assert conforms(text) is True, text
    for text, _ in INVALID:
        assert conforms(text) is False, text
    long_literals = "/caf\u00e9-'~" * 300
    assert conforms(long_literals + "{x}") is True
    assert conforms(long_literals + " {x}") is False
    compiled = _template(backend).backend.compiled
    assert (type(conforms).__name__ == "builtin_function_or_method") is compiled


ROUTES = [
    "/", "/a", "/a/", "/a/{x}", "/a/{x}/", "/a/{x}/{y}", "/a{/x*}", "/a{?q,r}",
    "/a/{x}{?q}", "/b/{+rest}", "/b/{x}.json", "{/p,q}", "/c{;k*}", "/d{#f}", "/a/b",
    "/a/b{.ext}", "http://h/{x}", "/a/%41", "/caf\u00e9/{x}", "{+anything}/edit",
    "/e/{x}/{x}", "/f/{x}{?x}",
]  # fmt: skip

URIS = [
    "/", "/a", "/a/", "/a/1", "/a/1/", "/a/1/2", "/a/1/2/3", "/a?q=1", "/a?r=2", "/a/1?q=x",
    "/b/x/y/z", "/b/x.json", "/p", "/p/q", "/c;k=1;j", "/d#x", "/a/b", "/a/b.c",
    "http://h/x", "/a/%41", "/caf%C3%A9/x", "/x/y", "", "/b/", "/a/b.c.d", "/x/edit/edit",
    "/a/..", "/a/%2E%2E", "/b/a/../../etc", "/a/%00", "/e/1/1", "/e/1/2", "/f/1?x=1",
    "/f/1?x=2", "/a/\u00e9", "/a/\ud800", "/caf\u00e9/x", "/a/%FF",
]  # fmt: skip


@pytest.mark.parametrize("uri", URIS)
def test_router_gives_what_the_templates_give(backend: ModuleType, uri: str) -> None:
    t = _template(backend)
    router = t.Router(ROUTES)
    found = router.match(uri)
    expected = None
    best = None
    for index, text in enumerate(ROUTES):
        variables = t.URITemplate(text).match(uri)
        if variables is None:
            continue
        literal = sum(
            len(p.expansion) for p in t.URITemplate(text).parts if hasattr(p, "expansion")
        )
        if best is None or literal > best:
            best, expected = literal, (index, variables)
    assert (None if found is None else (found.index, found.variables)) == expected


def test_router_goes_on_past_values_it_refuses(backend: ModuleType) -> None:
    router = _template(backend).Router(
        ["/a/{x}/b", "/a/{x}{?q}", "{+all}"], allow_dot_segments=False
    )
    assert router.match("/a/1/b").index == 0
    assert router.match("/a/1?q=2").variables == {"x": "1", "q": "2"}
    assert router.match("/a/x=1/b").index == 2  # U writes "=" of a value as %3D
    assert router.match("/a/..?q=1").index == 2  # a dot-segment in {x}, none in {+all}
    assert router.match("/a/../b") is None  # a dot-segment in each


def test_a_router_added_to_after_matching(backend: ModuleType) -> None:
    router = _template(backend).Router(["/a/{x}"])
    assert router.match("/a/me").index == 0
    router.add("/a/me")
    assert router.match("/a/me").index == 1
    assert router.match("/b") is None


def test_an_empty_router_matches_nothing(backend: ModuleType) -> None:
    assert _template(backend).Router().match("/") is None


# --- the compiled router's interface ---------------------------------------------------


@needs_extension
def test_compiled_router_spans_and_ranks() -> None:
    from urikit._template import Router as CRouter

    router = COMPILED_T.Router(["/users/{id}", "/users/me", "/files{/path*}{?q}"])
    core = CRouter(router.compiled())
    assert core.match("/users/me") == (1, 0, ())
    assert core.match("/users/me", 0) == (0, 1, ("me",))
    assert core.match("/users/me", 1) is None
    assert core.spans("/files/a/b?q=1") == (2, 2, (6, 10, 10, 14))
    assert core.match("/nothing") is None
    with pytest.raises(TypeError):
        core.match(b"/users/me")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        core.match()  # type: ignore[call-arg]


@needs_extension
@pytest.mark.parametrize(
    "change",
    [
        lambda c: c._replace(order=c.order[:-1]),
        lambda c: c._replace(order=(0, 0, 1)),
        lambda c: c._replace(nodes=()),
        lambda c: c._replace(nodes=((None, (), (), ()),)),
        lambda c: c._replace(nodes=(({"/": ("/x", 9)}, (), (), ()),)),
        lambda c: c._replace(nodes=(({"/": ("x", 1)}, (), (), ()), ({}, (), (), ()))),
        lambda c: c._replace(nodes=(({}, ((0, 0),), (), ()),)),
        lambda c: c._replace(nodes=(({}, (), (), (7,)),)),
        lambda c: c._replace(shapes=(("ab", ""),)),
        lambda c: c._replace(tokens=((("literal", "\u00e9"),),) * 3),
        lambda c: c._replace(tokens=((("other",),),) * 3),
        lambda c: c._replace(tokens=((("expression", "", (), 99),),) * 3),
        lambda c: "not a router",
    ],
)
def test_compiled_router_refuses_data_out_of_range(change: Any) -> None:
    from urikit._template import Router as CRouter

    compiled = COMPILED_T.Router(["/a/{x}", "/b", "{/p*}"]).compiled()
    with pytest.raises((TypeError, ValueError)):
        CRouter(change(compiled))


# --- C and readable, on generated input -------------------------------------------------

#: Characters of the grammar, of its errors, and of every plane: lone surrogates,
#: noncharacters, controls.
CHARS = st.one_of(
    st.sampled_from("{}+#./;?&=,!@|:*%0129aAfFgz_-~'\"<> \t\x00"),
    st.sampled_from("\u00e9\ud800\udfff\ufdd0\ufffe\uffff\U00010000\U000e0fff\U000e1000\U0010ffff"),
    st.characters(exclude_categories=()),
)


@given(st.text(CHARS, max_size=24))
def test_the_syntax_checks_agree(text: str) -> None:
    assert COMPILED_T.backend.error_position(text) == PURE_T.backend.error_position(text)
    assert COMPILED_T.is_template(text) == PURE_T.is_template(text)
    assert COMPILED_T.backend.template_format(text) is PURE_T.is_template(text)


@st.composite
def route_sets(draw: st.DrawFn) -> list[str]:
    """Templates a router accepts: literals, expressions of every operator, shared
    prefixes, repeated variables."""
    out: list[str] = []
    for _ in range(draw(st.integers(1, 8))):
        pieces = [draw(st.sampled_from(["", "/", "/a", "/a/", "/b/", "http://h/"]))]
        for k in range(draw(st.integers(0, 3))):
            op = draw(st.sampled_from(["", "+", "#", ".", "/", ";", "?", "&"]))
            names = draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=1, max_size=2))
            mods = [draw(st.sampled_from(["", "", "*"])) for _ in names]
            pieces.append(
                "{" + op + ",".join(n + m for n, m in zip(names, mods, strict=True)) + "}"
            )
            pieces.append(draw(st.sampled_from(["", "/", "!", ".json", "/e", "@", "$" + str(k)])))
        text = "".join(pieces)
        try:
            PURE_T.URITemplate(text).matcher  # noqa: B018
        except PURE_T.TemplateError:
            continue
        out.append(text)
    assume(out)
    return out


URI_PIECES = st.one_of(
    st.sampled_from("/a/b?x=1&y=2;z=3#.,=!$%20%2E%2e%FF%C3%A9..\\"),
    st.sampled_from(["%", "/..", "/.", "%00", "\u00e9", "\ud800", "\U0010ffff", "e", "json"]),
    st.characters(exclude_categories=()),
)


def _uri_text(most: int) -> st.SearchStrategy[str]:
    return st.lists(URI_PIECES, max_size=most).map("".join)


@st.composite
def route_uris(draw: st.DrawFn, templates: list[str]) -> str:
    """A URI: an expansion of one of the templates, changed or not, or any text."""
    if draw(st.booleans()):
        return draw(_uri_text(20))
    t = PURE_T.URITemplate(draw(st.sampled_from(templates)))
    value = st.one_of(
        _uri_text(5),
        st.lists(_uri_text(3), min_size=1, max_size=3),
        st.dictionaries(st.sampled_from("pq"), _uri_text(3), min_size=1),
    )
    values = {name: draw(value) for name in t.variables if draw(st.booleans())}
    try:
        uri: str = t.expand(values)
    except PURE_T.TemplateError:
        uri = str(t)
    cut = draw(st.integers(0, len(uri)))
    return draw(st.sampled_from([uri, uri[:cut], uri + draw(_uri_text(3))]))


@needs_extension
@given(data=st.data())
def test_the_routers_agree(data: st.DataObject) -> None:
    templates = data.draw(route_sets())
    pure, compiled = PURE_T.Router(templates), COMPILED_T.Router(templates)
    compiled.match("")
    core = compiled._core
    assert core is not None
    for _ in range(8):
        uri = data.draw(route_uris(templates))
        a, b = pure.match(uri), compiled.match(uri)
        assert (None if a is None else (a.index, a.variables)) == (
            None if b is None else (b.index, b.variables)
        ), uri
        # the regions of the first candidate that has them, as the readable code reads them
        expected = None
        for index in pure.candidates(uri):
            regions = pure.templates[index].matcher.regions(uri)
            if regions is not None:
                expected = (index, tuple(regions))
                break
        found = core.match(uri)
        assert (None if found is None else (found[0], found[2])) == expected, uri


def _expected_rows(router: Any, texts: list[Any]) -> list[tuple[int, str] | None]:
    """Each row as ``urikit.arrow.template_match`` writes it, from ``Router.match``."""
    from urikit._column_functions import variables_json

    out: list[tuple[int, str] | None] = []
    for text in texts:
        found = router.match(text) if isinstance(text, str) else None
        out.append(None if found is None else (found.index, variables_json(found.variables)))
    return out


@needs_extension
@given(data=st.data())
def test_the_json_of_the_compiled_binding_is_the_readable_binding(data: st.DataObject) -> None:
    """``match_json`` (bind.c) answers a row only with what ``Matcher.bind`` gives, the
    variables written as ``variables_json`` writes them; every other row is left in
    ``rest`` (RFC 6570 §3.2.1 read backwards, and the safety checks next to §3.2.3)."""
    templates = data.draw(route_sets())
    allow = data.draw(st.booleans())
    pure = PURE_T.Router(templates, allow_dot_segments=allow)
    compiled = COMPILED_T.Router(templates, allow_dot_segments=allow)
    texts: list[Any] = [data.draw(route_uris(templates)) for _ in range(8)]
    texts += [None, b"/a"]
    indexes, variables, rest = compiled.match_rows(texts)
    expected = _expected_rows(pure, texts)
    left = set(rest)
    assert len(texts) - 1 in left and len(texts) - 2 not in left  # bytes, null
    for row, want in enumerate(expected):
        got = (indexes[row], variables[row])
        if row in left:
            assert got == (None, None)
        else:
            assert got == ((None, None) if want is None else want), texts[row]


PLAIN_TEMPLATES = ["/a/{x}", "/b{?p,q}", "/c{/y}!{.e}", "/d/{+p}/e", "/f{;a,b}", "/h{#f}"]
PLAIN_ROWS = [
    "/a/x%20y",
    "/a/%22q%5C%0A%0D%09%08%0C%1F%7F%C3%A9%F0%9F%98%80",
    "/a/",
    "/a/a.b",
    "/b?p=1&q=%C3%A9",
    "/b?q=2",
    "/b",
    "/c/z!.json",
    "/c!",
    "/d/a/b/e",
    "/f;a;b=2",
    "/h#a/b",
    "/h",
    "/nothing",
    "/a/\u00e9",
]


@st.composite
def plain_route_sets(draw: st.DrawFn) -> list[str]:
    """Templates whose values bind.c reads: each variable once, without explode or
    prefix, each expression of one variable or named."""
    out: list[str] = []
    for i in range(draw(st.integers(1, 6))):
        pieces = [draw(st.sampled_from(["", "/", "/a", "/a/", "/b/"]))]
        for k in range(draw(st.integers(1, 3))):
            op = draw(st.sampled_from(["", "+", "#", ".", "/", ";", "?", "&"]))
            width = draw(st.integers(1, 3)) if op in ";?&" else 1
            pieces.append("{" + op + ",".join(f"v{i}{k}{n}" for n in range(width)) + "}")
            pieces.append(draw(st.sampled_from(["", "/", "!", ".json", "@", "$"])))
        text = "".join(pieces)
        try:
            PURE_T.URITemplate(text).matcher  # noqa: B018
        except PURE_T.TemplateError:
            continue
        out.append(text)
    assume(out)
    return out


#: Text in the characters of the regions, triplets good and bad.
PLAIN_PIECES = st.one_of(
    st.sampled_from("/ab.!@$?&;=,#+~-"),
    st.sampled_from(["%41", "%2c", "%2C", "%3d", "%2F", "%2f", "%C3%A9", "%c3%a9"]),
    st.sampled_from(["%FF", "%2E", "%00", "%", "%4"]),
)
_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^}]*)\}")


@st.composite
def plain_uris(draw: st.DrawFn, templates: list[str]) -> str:
    """A template with each expression replaced by its operator's first character
    and text of names, "=" and the pieces above: mostly no expansion at all."""
    template = draw(st.sampled_from(templates))

    def region(m: re.Match[str]) -> str:
        pieces = st.one_of(PLAIN_PIECES, st.sampled_from(m.group(2).split(",")))
        first = m.group(1) if m.group(1) not in "+" else ""
        return first + draw(st.lists(pieces, max_size=5).map("".join))

    return _EXPRESSION.sub(region, template)


@needs_extension
@given(data=st.data(), allow=st.booleans())
def test_the_compiled_binding_of_plain_templates_is_the_readable_binding(
    data: st.DataObject, allow: bool
) -> None:
    """For plain templates and text that is no expansion, ``match_json`` (bind.c)
    answers a row only with what ``Router.match`` gives on both paths."""
    templates = data.draw(plain_route_sets())
    pure = PURE_T.Router(templates, allow_dot_segments=allow)
    compiled = COMPILED_T.Router(templates, allow_dot_segments=allow)
    texts: list[Any] = [data.draw(plain_uris(templates)) for _ in range(8)]
    indexes, variables, rest = compiled.match_rows(texts)
    expected = _expected_rows(pure, texts)
    assert expected == _expected_rows(compiled, texts)
    left = set(rest)
    for row, want in enumerate(expected):
        if row not in left:
            assert (indexes[row], variables[row]) == ((None, None) if want is None else want), (
                texts[row]
            )


#: Rows bind.c leaves to Matcher.bind: a list, "=" in a value, an octet that is not
#: UTF-8, a dot-segment, U+0000, a triplet U+R kept, an item out of order.
LEFT_ROWS = [
    "/a/a,b",
    "/b?p=a=b",
    "/a/%FF",
    "/a/%ED%A0%80",
    "/a/%C0%AF",
    "/a/..",
    "/a/%2E",
    "/a/%2E%2E%2Fx",
    "/a/x%5C..",
    "/a/%00",
    "/a/%4",
    "/d/%41/e",
    "/b?q=1&p=2",
    "/f;a=",
]


@needs_extension
def test_the_compiled_binding_answers_plain_values_and_leaves_the_rest() -> None:
    compiled = COMPILED_T.Router(PLAIN_TEMPLATES)
    pure = PURE_T.Router(PLAIN_TEMPLATES)
    indexes, variables, rest = compiled.match_rows(PLAIN_ROWS)
    assert rest == []
    assert list(zip(indexes, variables, strict=True)) == [
        (None, None) if want is None else want for want in _expected_rows(pure, PLAIN_ROWS)
    ]
    assert variables[1] == '{"x":"\\"q\\\\\\n\\r\\t\\b\\f\\u001f\x7f\u00e9\U0001f600"}'
    _, _, rest = compiled.match_rows(LEFT_ROWS)
    assert rest == list(range(len(LEFT_ROWS)))
    # templates whose values the general reader reads: explode, a repeated variable, a
    # prefix, an unnamed list of variables
    for template, row in [
        ("/l{/p*}", "/l/a/b"),
        ("/r/{x}/{x}", "/r/1/1"),
        ("/p/{x}{?x:2}", "/p/abc?x=ab"),
        ("/u/{x,y}", "/u/1,2"),
    ]:
        assert COMPILED_T.Router([template]).match_rows([row]) == ([None], [None], [0])
        assert PURE_T.Router([template]).match(row) is not None


# --- linear time on hostile shapes ----------------------------------------------------------


def test_the_syntax_check_is_linear(backend: ModuleType) -> None:
    is_template = _template(backend).is_template
    assert_linear(lambda n: "{/a" + ",a" * n + "}", is_template, size=400_000)
    assert_linear(lambda n: "a" * n + "{", is_template, size=400_000)
    assert_linear(lambda n: "\U00010000%41" * (n // 4) + "\ud800", is_template, size=400_000)
    assert_linear(lambda n: "{" + "a." * n + "}", is_template, size=400_000)


ROUTER_HOSTILE = [
    lambda n: "/r1/" + "a" * n + "/b?q=" + "c" * n,
    lambda n: "/x" * n,
    lambda n: "/r1/" + "/" * n,
    lambda n: "/edit" * n + "/edix",
    lambda n: "\ud800" * n,
]


@pytest.mark.parametrize("make", ROUTER_HOSTILE)
def test_the_router_is_linear(backend: ModuleType, make: Any) -> None:
    router = _template(backend).Router(
        [f"/r{i}/{{a}}/{{b}}{{?q}}" for i in range(50)]
        + ["{/p*}", "{+rest}/edit", "{+rest}", "/r1/{+x}/b"]
    )
    assert_linear(make, router.match, size=200_000)
