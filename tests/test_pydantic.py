"""urikit.pydantic: URI and IRI fields for pydantic v2 models (and FastAPI bodies)."""

from __future__ import annotations

import functools
import subprocess
import sys
from typing import Annotated, Any

import pytest
from hypothesis import given
from strategies import (
    absolute_uris,
    grammar_text,
    iri_references,
    relative_refs,
    uri_references,
)

from urikit import IRI, URI, URIError, normalize

pydantic = pytest.importorskip("pydantic")

from pydantic import BaseModel, TypeAdapter, ValidationError  # noqa: E402

from urikit.pydantic import (  # noqa: E402
    AbsoluteIRI,
    AbsoluteURI,
    HttpURL,
    IRIReference,
    URIConstraints,
    URIReference,
)


class Resource(BaseModel):
    """One field of each ready-made type."""

    reference: URIReference
    identifier: AbsoluteURI
    page: HttpURL
    label: IRIReference
    name: AbsoluteIRI


RESOURCE = {
    "reference": "../g;x?y#s",
    "identifier": "urn:example:animal:ferret:nose",
    "page": "HTTP://Example.COM/%7euser/%7Ea?q#top",
    "label": "http://résumé.example.org/Dürst#é",
    "name": "http://ab.CDEFGH.ij/kl/mn/op.html",
}


def one_error(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, Any]:
    errors = exc.value.errors()
    assert len(errors) == 1, errors
    return dict(errors[0])


@functools.cache
def adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


def validate(annotation: Any, value: object) -> Any:
    return adapter(annotation).validate_python(value)


# -- a model with each type ---------------------------------------------------------------


def test_each_type_gives_its_value_type() -> None:
    r = Resource.model_validate(RESOURCE)
    assert type(r.reference) is URI and r.reference.kind == "relative-path"
    assert type(r.identifier) is URI and r.identifier.is_absolute
    assert type(r.page) is URI and r.page.host == "Example.COM"
    assert type(r.label) is IRI and r.label.host == "résumé.example.org"
    assert type(r.name) is IRI and r.name.is_absolute


def test_values_are_the_exact_input() -> None:
    r = Resource.model_validate(RESOURCE)
    assert {name: str(getattr(r, name)) for name in RESOURCE} == RESOURCE


def test_rfc3986_section3_example_is_a_reference_not_an_absolute_uri() -> None:
    text = "foo://example.com:8042/over/there?name=ferret#nose"
    assert validate(URIReference, text).fragment == "nose"
    with pytest.raises(ValidationError) as exc:
        validate(AbsoluteURI, text)
    error = one_error(exc)
    assert error["type"] == "uri_fragment"
    assert error["ctx"]["position"] == text.index("#")
    assert error["ctx"]["rule"] == "absolute-URI"


# -- syntax errors: position, rule, reason ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "rule"),
    [
        ("http://a b/", 8, "host"),
        ("http://[::1/", 11, "IPv6address"),
        ("http://é/", 7, "host"),
    ],
)
def test_syntax_error_carries_position_and_rule(text: str, position: int, rule: str) -> None:
    with pytest.raises(ValidationError) as exc:
        Resource.model_validate({**RESOURCE, "reference": text})
    error = one_error(exc)
    assert error["type"] == "uri_syntax"
    assert error["loc"] == ("reference",)
    assert error["input"] == text
    assert error["ctx"]["position"] == position
    assert error["ctx"]["rule"] == rule
    assert error["ctx"]["reason"]
    assert f"at position {position} in {rule}: {error['ctx']['reason']}" in error["msg"]
    assert "\n" not in error["msg"]


def test_syntax_error_in_json_mode() -> None:
    with pytest.raises(ValidationError) as exc:
        TypeAdapter(URIReference).validate_json('"http://[::1/"')
    error = one_error(exc)
    assert (error["type"], error["ctx"]["position"], error["ctx"]["rule"]) == (
        "uri_syntax",
        11,
        "IPv6address",
    )


def test_iri_syntax_error_names_the_bidi_rule() -> None:
    text = "http://example.org/abc\u202edef"
    with pytest.raises(ValidationError) as exc:
        validate(IRIReference, text)
    error = one_error(exc)
    assert error["type"] == "uri_syntax"
    assert error["ctx"]["position"] == text.index("\u202e")


@given(grammar_text())
def test_field_agrees_with_the_value_type(text: str) -> None:
    try:
        expected: URI | URIError = URI(text)
    except URIError as e:
        expected = e
    try:
        got = validate(URIReference, text)
    except ValidationError as exc:
        assert isinstance(expected, URIError)
        error = exc.errors()[0]
        assert error["type"] == "uri_syntax"
        assert error["ctx"] == {
            "position": expected.position,
            "rule": expected.rule,
            "reason": expected.reason,
        }
    else:
        assert got == expected and str(got) == text


# -- input types ------------------------------------------------------------------------------


def test_python_mode_takes_an_existing_value_as_it_is() -> None:
    u = URI("http://a/b")
    assert validate(URIReference, u) is u


def test_python_mode_converts_between_uri_and_iri() -> None:
    iri = validate(IRIReference, URI("http://a/%C3%A9"))
    assert type(iri) is IRI and str(iri) == "http://a/%C3%A9"
    uri = validate(URIReference, IRI("http://a/b"))
    assert type(uri) is URI and str(uri) == "http://a/b"
    with pytest.raises(ValidationError) as exc:
        validate(URIReference, IRI("http://a/é"))
    assert one_error(exc)["type"] == "uri_syntax"


@pytest.mark.parametrize("value", [1, b"http://a/", None, ["http://a/"]])
def test_python_mode_refuses_other_types(value: object) -> None:
    with pytest.raises(ValidationError) as exc:
        validate(URIReference, value)
    assert one_error(exc)["type"] == "uri_type"


@pytest.mark.parametrize("document", ["1", "null", '["http://a/"]', '{"a": 1}'])
def test_json_mode_takes_only_strings(document: str) -> None:
    with pytest.raises(ValidationError) as exc:
        TypeAdapter(URIReference).validate_json(document)
    assert one_error(exc)["type"] == "string_type"


def test_optional_field() -> None:
    class Page(BaseModel):
        canonical: HttpURL | None = None

    assert Page().canonical is None
    assert Page(canonical="https://a/").canonical == URI("https://a/")


def test_default_given_as_text_is_validated_and_in_the_json_schema() -> None:
    class Site(BaseModel):
        home: HttpURL = pydantic.Field("HTTPS://example.com/%7e", validate_default=True)

    assert Site().home == URI("HTTPS://example.com/%7e") and type(Site().home) is URI
    home = Site.model_json_schema()["properties"]["home"]
    assert home["default"] == "HTTPS://example.com/%7e" and home["format"] == "uri"


# -- constraints ------------------------------------------------------------------------------


def test_http_url_schemes_are_case_insensitive() -> None:
    assert str(validate(HttpURL, "HtTpS://a/")) == "HtTpS://a/"
    assert validate(Annotated[URI, URIConstraints(schemes=["HTTP"])], "http:x").scheme == "http"


def test_http_url_refuses_other_schemes() -> None:
    with pytest.raises(ValidationError) as exc:
        validate(HttpURL, "ftp://a/")
    error = one_error(exc)
    assert error["type"] == "uri_scheme"
    assert error["ctx"]["position"] == 0 and error["ctx"]["rule"] == "scheme"
    assert error["ctx"]["expected_schemes"] == ["http", "https"]
    assert "'ftp'" in error["msg"]


@pytest.mark.parametrize(
    ("text", "position", "rule"),
    [("http:///a", 7, "host"), ("http://u@:80/", 9, "host"), ("http:a", 5, "authority")],
)
def test_http_url_requires_a_host(text: str, position: int, rule: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate(HttpURL, text)
    error = one_error(exc)
    assert error["type"] == "uri_host"
    assert (error["ctx"]["position"], error["ctx"]["rule"]) == (position, rule)


@pytest.mark.parametrize("text", ["/a", "//example.com/a", "a:b", "?q"])
def test_schemes_refuse_relative_references_by_default(text: str) -> None:
    https_only = Annotated[URI, URIConstraints(schemes={"https"})]
    with pytest.raises(ValidationError) as exc:
        validate(https_only, text)
    assert one_error(exc)["type"] == ("uri_scheme" if ":" in text else "uri_relative")


def test_schemes_with_relative_accepts_both() -> None:
    field = Annotated[URI, URIConstraints(schemes={"https"}, relative=True)]
    assert str(validate(field, "../a")) == "../a"
    assert str(validate(field, "https://a/")) == "https://a/"
    with pytest.raises(ValidationError) as exc:
        validate(field, "http://a/")
    assert one_error(exc)["type"] == "uri_scheme"


def test_relative_false_requires_a_scheme_and_allows_a_fragment() -> None:
    field = Annotated[URI, URIConstraints(relative=False)]
    assert validate(field, "mailto:a@example.org#x").fragment == "x"
    with pytest.raises(ValidationError) as exc:
        validate(field, "//example.org/")
    error = one_error(exc)
    assert error["type"] == "uri_relative"
    assert (error["ctx"]["position"], error["ctx"]["rule"]) == (0, "URI")


def test_host_required_accepts_a_network_path_reference() -> None:
    field = Annotated[URI, URIConstraints(host_required=True)]
    assert validate(field, "//example.org/a").host == "example.org"
    with pytest.raises(ValidationError):
        validate(field, "/a")


@given(absolute_uris())
def test_absolute_uri_accepts_absolute_uris(text: str) -> None:
    assert str(validate(AbsoluteURI, text)) == text


@given(relative_refs())
def test_absolute_uri_refuses_relative_references(text: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate(AbsoluteURI, text)
    error = one_error(exc)
    assert error["type"] == "uri_relative"
    assert error["ctx"]["rule"] == "absolute-URI"


def test_absolute_iri_names_the_iri_rules() -> None:
    with pytest.raises(ValidationError) as exc:
        validate(AbsoluteIRI, "http://é/#x")
    assert one_error(exc)["ctx"]["rule"] == "absolute-IRI"
    with pytest.raises(ValidationError) as exc:
        validate(AbsoluteIRI, "é")
    assert one_error(exc)["ctx"]["rule"] == "absolute-IRI"


def test_stacked_constraints_narrow() -> None:
    field = Annotated[HttpURL, URIConstraints(schemes={"https"})]
    assert str(validate(field, "https://a/")) == "https://a/"
    for text, kind in [("http://a/", "uri_scheme"), ("https:///", "uri_host")]:
        with pytest.raises(ValidationError) as exc:
            validate(field, text)
        assert one_error(exc)["type"] == kind


def test_stacked_constraints_without_a_common_scheme_fail_at_definition() -> None:
    with pytest.raises(ValueError, match="no scheme in common"):
        TypeAdapter(Annotated[HttpURL, URIConstraints(schemes={"ftp"})])


def test_constraints_annotate_only_uri_and_iri() -> None:
    with pytest.raises(TypeError, match="annotates URI or IRI"):
        TypeAdapter(Annotated[str, URIConstraints()])


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"schemes": "http"}, TypeError),
        ({"schemes": ["1http"]}, ValueError),
        ({"schemes": ["http:"]}, ValueError),
        ({"schemes": []}, ValueError),
        ({"absolute": True, "relative": True}, ValueError),
        ({"normalize": "full"}, ValueError),
    ],
)
def test_constraints_check_their_arguments(arguments: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        URIConstraints(**arguments)


def test_constraints_are_immutable_values() -> None:
    a = URIConstraints(schemes=["HTTPS", "http"], host_required=True)
    assert a == URIConstraints(schemes={"http", "https"}, host_required=True)
    assert hash(a) == hash(URIConstraints(schemes=("https", "http"), host_required=True))
    assert a != URIConstraints(schemes={"http", "https"})
    assert a.schemes == frozenset({"http", "https"})
    assert repr(a) == "URIConstraints(schemes=('http', 'https'), host_required=True)"
    with pytest.raises(AttributeError):
        a.host_required = False  # type: ignore[misc]


# -- normalization on input -----------------------------------------------------------------


def test_rfc3986_section6_2_2_example_normalized_on_input() -> None:
    field = Annotated[URI, URIConstraints(normalize="syntax")]
    assert str(validate(field, "eXAMPLE://a/./b/../b/%63/%7bfoo%7d")) == "example://a/b/c/%7Bfoo%7D"


def test_normalize_at_scheme_level_and_dump_the_normal_form() -> None:
    class Link(BaseModel):
        href: Annotated[HttpURL, URIConstraints(normalize="scheme")]

    link = Link(href="HTTP://Example.COM:80/%7euser")
    assert link.model_dump() == {"href": "http://example.com/~user"}
    assert link.model_dump_json() == '{"href":"http://example.com/~user"}'


def test_normalize_keeps_the_iri_type() -> None:
    field = Annotated[IRI, URIConstraints(normalize="syntax")]
    iri = validate(field, "HTTP://Résumé.example/%7e")
    assert type(iri) is IRI and str(iri) == "http://résumé.example/~"


NORMAL = Annotated[URI, URIConstraints(normalize="scheme")]


@given(uri_references())
def test_normalized_field_is_normalize(text: str) -> None:
    assert str(validate(NORMAL, text)) == str(normalize(text, level="scheme"))


def test_normalize_runs_after_the_checks_on_the_input() -> None:
    field = Annotated[URI, URIConstraints(normalize="scheme", absolute=True)]
    with pytest.raises(ValidationError) as exc:
        validate(field, "HTTP://a/#x")
    assert one_error(exc)["ctx"]["position"] == 9


# -- serialization: the exact text -------------------------------------------------------------


def test_model_dump_is_the_exact_text_in_python_and_json_mode() -> None:
    r = Resource.model_validate(RESOURCE)
    assert r.model_dump() == RESOURCE
    assert r.model_dump(mode="json") == RESOURCE
    assert Resource.model_validate_json(r.model_dump_json()).model_dump() == RESOURCE


def test_case_and_percent_encodings_are_kept_byte_for_byte() -> None:
    class Link(BaseModel):
        href: URIReference

    text = "HTTP://Example.COM/%7e%7E%7eA/../%2f?Q=%aa#%41"
    link = Link.model_validate_json('{"href": "' + text + '"}')
    assert link.model_dump_json() == '{"href":"' + text + '"}'
    assert link.model_dump()["href"] == text
    assert type(link.model_dump()["href"]) is str


def test_iri_round_trips_through_json_escapes() -> None:
    class Label(BaseModel):
        iri: IRIReference

    label = Label.model_validate_json('{"iri": "http://r\\u00e9sum\\u00e9.example/"}')
    assert str(label.iri) == "http://résumé.example/"
    assert Label.model_validate_json(label.model_dump_json()) == label


@given(uri_references())
def test_json_round_trip_is_exact(text: str) -> None:
    field = adapter(URIReference)
    dumped = field.dump_json(field.validate_python(text))
    assert str(field.validate_json(dumped)) == text
    assert field.dump_python(field.validate_json(dumped)) == text


@given(iri_references())
def test_iri_json_round_trip_is_exact(text: str) -> None:
    field = adapter(IRIReference)
    assert field.dump_python(field.validate_json(field.dump_json(IRI(text)))) == text


# -- JSON Schema --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["validation", "serialization"])
def test_json_schema_formats(mode: Any) -> None:
    properties = Resource.model_json_schema(mode=mode)["properties"]
    formats = {name: schema["format"] for name, schema in properties.items()}
    assert formats == {
        "reference": "uri-reference",
        "identifier": "uri",
        "page": "uri",
        "label": "iri-reference",
        "name": "iri",
    }
    assert all(schema["type"] == "string" for schema in properties.values())


def test_json_schema_format_follows_the_combined_constraints() -> None:
    relative = Annotated[URI, URIConstraints(schemes={"https"}, relative=True)]
    assert TypeAdapter(relative).json_schema() == {"type": "string", "format": "uri-reference"}
    stacked = Annotated[URIReference, URIConstraints(relative=False)]
    assert TypeAdapter(stacked).json_schema() == {"type": "string", "format": "uri"}
    iri = Annotated[IRI, URIConstraints(relative=False)]
    assert TypeAdapter(iri).json_schema() == {"type": "string", "format": "iri"}


# -- FastAPI ------------------------------------------------------------------------------------


class Bookmark(BaseModel):
    """A request body (FastAPI resolves the annotations of module-level models)."""

    url: HttpURL
    via: URIReference | None = None


@pytest.mark.filterwarnings("ignore:Using `httpx` with:Warning")
def test_fastapi_request_body_round_trip_and_openapi_format() -> None:
    fastapi = pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    app = fastapi.FastAPI()

    @app.post("/bookmarks")
    def create(bookmark: Bookmark) -> Bookmark:
        assert isinstance(bookmark.url, URI)
        return bookmark

    client = TestClient(app)
    sent = {"url": "HTTPS://Example.COM/%7euser", "via": "../%7E"}
    response = client.post("/bookmarks", json=sent)
    assert response.status_code == 200
    assert response.json() == sent

    response = client.post("/bookmarks", json={"url": "https://a b/"})
    assert response.status_code == 422
    [detail] = response.json()["detail"]
    assert detail["type"] == "uri_syntax"
    assert detail["loc"] == ["body", "url"]
    assert detail["ctx"] == {
        "position": 9,
        "rule": "host",
        "reason": detail["ctx"]["reason"],
    }

    schema = app.openapi()["components"]["schemas"]["Bookmark"]["properties"]
    assert schema["url"]["format"] == "uri"
    assert {"type": "string", "format": "uri-reference"} in schema["via"]["anyOf"]


# -- an optional extra ----------------------------------------------------------------------------


def test_import_urikit_does_not_need_pydantic() -> None:
    code = (
        "import sys\n"
        "sys.modules['pydantic'] = None\n"
        "sys.modules['pydantic_core'] = None\n"
        "import urikit\n"
        "assert urikit.URI('a:b').scheme == 'a'\n"
        "assert 'urikit.pydantic' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
