"""The shape of the value's API (docs/api.md): one rule for properties and methods, the
``/`` operator, ``has_scheme`` beside ``is_absolute`` (RFC 3986 §4.3), keyword query
parameters, ``build(encode=True)`` per component (§2.1, §3), ``replace(host=None)``."""

from __future__ import annotations

import inspect
from types import GetSetDescriptorType, MemberDescriptorType, ModuleType
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from urikit import IRI, URI, URIError
from urikit.query import update_query_params, with_query_params

#: References that exercise every property: each kind of host, userinfo, port,
#: query, fragment, opaque and relative forms, an IRI.
SAMPLES = [
    "foo://example.com:8042/over/there?name=ferret#nose",  # RFC 3986 §3
    "http://u:pw@[fe80::1%25eth0]:8080/a/b?q=1&r#f",
    "http://192.0.2.16/",
    "mailto:John.Doe@example.com",  # RFC 3986 §1.1.2
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",  # RFC 3986 §1.1.2
    "//h/a",
    "/a/b",
    "a/b?x#y",
    "",
]
IRI_SAMPLES = ["http://r\u00e9sum\u00e9.example.org/D\u00fcrst?q=\u00e9#\u00e9"]

_DESCRIPTORS = (property, GetSetDescriptorType, MemberDescriptorType)


def _public(cls: type) -> dict[str, Any]:
    return {name: inspect.getattr_static(cls, name) for name in dir(cls) if name[0] != "_"}


def _references() -> list[URI | IRI]:
    return [URI(t) for t in SAMPLES] + [IRI(t) for t in SAMPLES + IRI_SAMPLES]


@pytest.mark.parametrize("cls", [URI, IRI])
def test_properties_are_parameterless_reads_of_the_parsed_value(cls: type[URI | IRI]) -> None:
    # The rule (docs/api.md): a property takes no argument and gives a component, a
    # reading of one, or a fact about the reference, as an immutable value that is
    # the same at each read; never a new reference, a list or a dict.
    properties = {n: a for n, a in _public(cls).items() if isinstance(a, _DESCRIPTORS)}
    assert {"scheme", "parts", "origin", "has_scheme", "is_absolute"} <= set(properties)
    for name, attribute in properties.items():
        if isinstance(attribute, property):
            assert attribute.fget is not None and attribute.fset is None, name
            assert list(inspect.signature(attribute.fget).parameters) == ["self"], name
        for ref in _references():
            if not isinstance(ref, cls):
                continue
            value = getattr(ref, name)
            assert not isinstance(value, (URI, IRI, list, dict, set)), (name, value)
            hash(value)  # immutable
            assert getattr(ref, name) == value, name


@pytest.mark.parametrize("cls", [URI, IRI])
def test_methods_take_options_or_compute_new_values(cls: type[URI | IRI]) -> None:
    # The rule's other half: a method takes arguments (even only optional ones), or
    # computes something new: a reference, a conversion to another type ("to_"),
    # or a list.  A parameterless read of a scalar would be a property.
    methods = {
        n: a
        for n, a in _public(cls).items()
        if not isinstance(a, _DESCRIPTORS) and callable(getattr(cls, n))
    }
    assert {"segments", "redacted", "joinpath", "parent", "to_urlsplit"} <= set(methods)
    parameterless = []
    for name in methods:
        parameters = list(inspect.signature(getattr(cls, name)).parameters)
        if isinstance(methods[name], classmethod):
            assert parameters, name  # constructors take what they build from
            continue
        if parameters[1:]:
            continue
        parameterless.append(name)
        for ref in _references():
            if not isinstance(ref, cls):
                continue
            try:
                value = getattr(ref, name)()
            except URIError:
                continue  # parent() of a relative-path reference
            assert name.startswith("to_") or isinstance(value, (URI, IRI, list)), (name, value)
    assert "parent" in parameterless and "to_urlsplit" in parameterless


# -- the "/" operator ------------------------------------------------------------------


def test_slash_is_joinpath_of_one_segment(backend: ModuleType) -> None:
    uri = backend.URI("http://h/a")
    assert uri / "b c" == uri.joinpath("b c") == "http://h/a/b%20c"
    assert uri / "b" / "c" == "http://h/a/b/c"
    assert uri / "x/y" == "http://h/a/x%2Fy"  # one data segment: "/" is data
    assert type(backend.IRI("http://h/") / "é") is backend.IRI
    assert backend.IRI("http://h/") / "é" == "http://h/é"
    with pytest.raises(backend.URIError, match="dot-segment"):
        _ = uri / "../x"
    with pytest.raises(TypeError):
        _ = uri / 1  # type: ignore[operator]


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))
def test_slash_agrees_with_joinpath(name: str) -> None:
    uri = URI("http://h/a/")
    try:
        expected = uri.joinpath(name)
    except URIError:
        with pytest.raises(URIError):
            _ = uri / name
        return
    assert uri / name == expected


# -- has_scheme and is_absolute (§4.3) ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "has_scheme", "is_absolute"),
    [
        ("ftp://ftp.is.co.za/rfc/rfc1808.txt", True, True),  # RFC 3986 §1.1.2
        ("mailto:John.Doe@example.com", True, True),  # RFC 3986 §1.1.2
        ("foo://example.com:8042/over/there?name=ferret#nose", True, False),  # §3
        ("http://h/#", True, False),  # an empty fragment is a fragment (§3.5)
        ("//example.com/a", False, False),
        ("/a", False, False),
        ("#f", False, False),
        ("", False, False),
    ],
)
def test_has_scheme_and_is_absolute(text: str, has_scheme: bool, is_absolute: bool) -> None:
    for ref in (URI(text), IRI(text)):
        assert (ref.has_scheme, ref.is_absolute) == (has_scheme, is_absolute)
        assert ref.has_scheme == (not ref.is_relative) == (ref.kind == "uri")


# -- replace(host=None) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["http://h/", "http://u@h:8/a", "//h", "http://[::1]/", "file:///"]
)
def test_replace_host_none_on_an_authority_is_an_error(text: str) -> None:
    # RFC 3986 §3.2: an authority always has a host, maybe empty (§3.2.2).
    uri = URI(text)
    with pytest.raises(URIError, match="authority=None") as info:
        uri.replace(host=None)
    assert (info.value.text, info.value.rule) == (text, "host")
    assert info.value.position == uri.span("host")[0]  # type: ignore[index]
    assert uri.replace(authority=None).authority is None
    assert uri.replace(host="").host == ""


def test_replace_host_none_without_an_authority_changes_nothing() -> None:
    assert URI("/a?q").replace(host=None) == "/a?q"
    assert URI("mailto:a@b").replace(host=None) == "mailto:a@b"


# -- keyword query parameters (§3.4) -----------------------------------------------------


def test_with_query_params_by_keyword(backend: ModuleType) -> None:
    uri = backend.URI("http://h/p?old=1#f")
    assert uri.with_query_params(a=2) == "http://h/p?a=2#f"
    assert (
        uri.with_query_params({"q": "a b"}, page=2, on=True) == "http://h/p?q=a+b&page=2&on=true#f"
    )
    assert uri.with_query_params([("tag", "x")], tag=["y", "z"]) == "http://h/p?tag=x&tag=y&tag=z#f"
    assert uri.with_query_params() == "http://h/p#f"  # no pairs: no query (yarl: None)
    assert uri.with_query_params([("codec", "x")], codec="rfc3986") == "http://h/p?codec=x#f"


def test_update_query_params(backend: ModuleType) -> None:
    uri = backend.URI("http://h/?sig=AbC%2f&a=1&b=2&a=3")
    assert uri.update_query_params(a=9) == "http://h/?sig=AbC%2f&a=9&b=2"
    assert uri.update_query_params(c="x y") == "http://h/?sig=AbC%2f&a=1&b=2&a=3&c=x+y"
    assert uri.update_query_params([("a", 1), ("a", 2)]) == "http://h/?sig=AbC%2f&a=1&a=2&b=2"
    assert uri.update_query_params(a=[]) == "http://h/?sig=AbC%2f&b=2"
    assert uri.update_query_params() is uri
    assert backend.URI("http://h/").update_query_params(a=1) == "http://h/?a=1"
    with pytest.raises(TypeError):
        uri.update_query_params(a=object())  # type: ignore[arg-type]


_NAMES = st.text(st.sampled_from("abc _&=+%é"), min_size=1, max_size=4)
_VALUES = st.one_of(
    st.none(), st.integers(-5, 5), st.text(st.sampled_from("xy &=+#%é"), max_size=4)
)


@given(st.lists(st.tuples(_NAMES, _VALUES), max_size=5), st.sampled_from(["form", "rfc3986"]))
def test_update_is_set_of_each_name(pairs: list[tuple[str, Any]], codec: Any) -> None:
    query = "k=%7e&a=1&&b=2"
    expected: str | None = query
    grouped: dict[str, list[Any]] = {}
    for name, value in pairs:
        grouped.setdefault(name, []).append(value)
    for name, values in grouped.items():
        uri = URI("http://h/") if expected is None else URI("http://h/?" + expected)
        expected = uri.set_query_param(name, values, codec=codec).query
    assert update_query_params(query, pairs, codec=codec) == expected
    keywords = {f"n{i}": v for i, (_, v) in enumerate(pairs)}
    assert update_query_params(query, keywords.items(), codec=codec) == update_query_params(
        query, codec=codec, **keywords
    )
    assert with_query_params(keywords.items(), codec=codec) == with_query_params(
        codec=codec, **keywords
    )


# -- build(encode=True): each component as data (§2.1, §3) ----------------------------------

_DATA = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@given(_DATA, st.sampled_from(["userinfo", "host", "path", "query", "fragment"]), st.booleans())
def test_build_encode_gives_back_each_component_as_data(
    backend: ModuleType, data: str, component: str, iri: bool
) -> None:
    # RFC 3986 §2.1: each octet the component cannot hold as data is a triplet, so the
    # component decodes to exactly the data given, and nothing else of it changes.
    if component == "host":
        assume(":" not in data and not data.startswith("["))  # an IP literal as data
    cls = backend.IRI if iri else backend.URI
    value = "/" + data if component == "path" else data
    components: dict[str, Any] = {"scheme": "s", "host": "h", component: value}
    built = cls.build(**components, encode=True)
    assert built.decoded(component) == value
    assert cls(str(built)) == built
    others = {"scheme": "s", "host": "h", "userinfo": None, "query": None, "fragment": None}
    for name, expected in others.items():
        if name != component:
            assert getattr(built, name) == expected


@pytest.mark.parametrize(
    ("component", "data", "written"),
    [
        ("userinfo", "a b:c@d", "a%20b:c%40d"),  # §3.2.1: ":" is userinfo's own
        ("host", "a b.example", "a%20b.example"),  # §3.2.2 reg-name
        ("path", "/a b/?#", "/a%20b/%3F%23"),  # §3.3: "/" is the path's own
        ("query", "a=1&b=#?/", "a=1&b=%23?/"),  # §3.4: "?" and "/" allowed
        ("fragment", "a#b %", "a%23b%20%25"),  # §3.5
    ],
)
def test_build_encode_per_component(component: str, data: str, written: str) -> None:
    components: dict[str, Any] = {"scheme": "s", "host": "h", component: data}
    assert getattr(URI.build(**components, encode=True), component) == written
    with pytest.raises(URIError):
        URI.build(**components)
