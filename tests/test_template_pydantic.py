"""urikit.pydantic: URI Template fields (RFC 6570) for pydantic v2 models."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit.template import TemplateError, URITemplate

pydantic = pytest.importorskip("pydantic")

from pydantic import BaseModel, TypeAdapter, ValidationError  # noqa: E402

from urikit.pydantic import (  # noqa: E402
    MatchableURITemplate,
    URITemplateConstraints,
    URITemplateField,
)


class Api(BaseModel):
    link: URITemplateField
    route: MatchableURITemplate | None = None


def one_error(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, Any]:
    errors = exc.value.errors()
    assert len(errors) == 1, errors
    return dict(errors[0])


def test_a_field_holds_the_parsed_template_and_gives_its_text_back() -> None:
    api = Api(link="https://api.github.com/repos/{owner}/{repo}{?page}", route="/users/{id}")
    assert isinstance(api.link, URITemplate)
    assert api.link.variables == ("owner", "repo", "page")
    assert api.link.expand(owner="a", repo="b") == "https://api.github.com/repos/a/b"
    assert api.route is not None and api.route.match("/users/7") == {"id": "7"}
    assert api.model_dump() == {
        "link": "https://api.github.com/repos/{owner}/{repo}{?page}",
        "route": "/users/{id}",
    }
    text = api.model_dump_json()
    assert text == (
        '{"link":"https://api.github.com/repos/{owner}/{repo}{?page}","route":"/users/{id}"}'
    )
    assert Api.model_validate_json(text) == api


def test_python_mode_takes_a_template_json_mode_a_string() -> None:
    template = URITemplate("/a/{b}")
    assert Api(link=template).link is template
    with pytest.raises(ValidationError) as info:
        Api(link=42)  # type: ignore[arg-type]
    assert one_error(info)["type"] == "uri_template_type"
    with pytest.raises(ValidationError) as info:
        Api.model_validate_json('{"link": 42}')
    assert one_error(info)["type"] == "string_type"


@pytest.mark.parametrize(
    ("text", "position", "rule"),
    [("{", 1, "varname"), ("/users/{id", 10, "expression"), ("a}b", 1, "literals"),
     ("{!x}", 1, "op-reserve"), ("{x:0}", 3, "max-length")],
)  # fmt: skip
def test_a_malformed_template_says_where_and_why(text: str, position: int, rule: str) -> None:
    with pytest.raises(ValidationError) as info:
        Api(link=text)
    error = one_error(info)
    assert error["type"] == "uri_template_syntax"
    assert error["ctx"]["position"] == position and error["ctx"]["rule"] == rule
    with pytest.raises(TemplateError) as expected:
        URITemplate(text)
    assert error["ctx"]["reason"] == expected.value.reason
    assert error["msg"] == f"at position {position} in {rule}: {expected.value.reason}"


def test_a_route_must_be_matchable() -> None:
    with pytest.raises(ValidationError) as info:
        Api(link="/x", route="{rule}{reason}")
    error = one_error(info)
    assert error["type"] == "uri_template_ambiguous"
    assert error["ctx"]["rule"] == "expression" and error["ctx"]["position"] == 0
    assert "{rule} and {reason} stand side by side" in error["msg"]  # braces kept as written
    assert Api(link="{a}{b}").link == "{a}{b}"  # any template expands


def test_max_level() -> None:
    level_2 = TypeAdapter(Annotated[URITemplate, URITemplateConstraints(max_level=2)])
    assert level_2.validate_python("{+path}/x") == "{+path}/x"
    with pytest.raises(ValidationError) as info:
        level_2.validate_python("{?q,r}")
    error = one_error(info)
    assert error["type"] == "uri_template_level"
    assert error["ctx"] == {"level": 3, "max_level": 2}
    with pytest.raises(ValueError):
        URITemplateConstraints(max_level=5)


def test_constraints_are_values() -> None:
    a = URITemplateConstraints(matchable=True)
    assert a == URITemplateConstraints(max_level=4, matchable=True)
    assert hash(a) == hash(URITemplateConstraints(matchable=True))
    assert a != URITemplateConstraints()
    assert repr(a) == "URITemplateConstraints(max_level=4, matchable=True)"
    with pytest.raises(AttributeError):
        a.matchable = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        TypeAdapter(Annotated[str, URITemplateConstraints()])


def test_json_schema_format() -> None:
    schema = Api.model_json_schema()
    assert schema["properties"]["link"] == {"format": "uri-template", "title": "Link",
                                            "type": "string"}  # fmt: skip
    assert TypeAdapter(MatchableURITemplate).json_schema() == {
        "type": "string",
        "format": "uri-template",
    }


@given(text=st.text(st.sampled_from("ab/{}+#?&=,*:19%2!"), max_size=12))
def test_the_field_accepts_exactly_what_the_constructor_accepts(text: str) -> None:
    try:
        expected: URITemplate | None = URITemplate(text)
    except TemplateError:
        expected = None
    adapter = TypeAdapter(URITemplateField)
    try:
        got = adapter.validate_python(text)
    except ValidationError as exc:
        assert expected is None
        assert exc.errors()[0]["type"] == "uri_template_syntax"
        return
    assert got == expected
    assert adapter.dump_json(got) == adapter.dump_json(text)
