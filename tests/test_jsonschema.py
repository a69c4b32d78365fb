"""urikit.jsonschema: the URI, IRI and URI Template formats of JSON Schema 2020-12.

The JSON-Schema-Test-Suite's format tests (``vectors/json-schema-test-suite``,
from the ``jsonschema`` sdist, MIT), the RFC 6570 examples of uritemplate-test
(``vectors/uritemplate-test``, Apache 2.0), the RFCs' own examples, and the
URI Template grammar transcribed into the ABNF oracle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from abnf_oracle import (
    ALPHA,
    DIGIT,
    HEXDIG,
    IPRIVATE_RANGES,
    NFA,
    UCSCHAR_RANGES,
    alt,
    chars,
    in_ranges,
    opt,
    rep,
    seq,
)
from hypothesis import given
from hypothesis import strategies as st
from linear import assert_linear

import urikit
from urikit.template import is_template
from urikit.template.syntax import TemplateError, parse

jsonschema = pytest.importorskip("jsonschema")

from urikit.jsonschema import FORMATS, format_checker  # noqa: E402

VECTORS = Path(__file__).resolve().parent / "vectors"
SUITE = VECTORS / "json-schema-test-suite"
TEMPLATES = VECTORS / "uritemplate-test"


def _suite_cases() -> list[Any]:
    cases = []
    for path in sorted(SUITE.glob("*.json")):
        for group in json.loads(path.read_text(encoding="utf-8")):
            for test in group["tests"]:
                cases.append(
                    pytest.param(
                        group["schema"],
                        test["data"],
                        test["valid"],
                        id=f"{path.stem}: {test['description']}",
                    )
                )
    return cases


@pytest.mark.parametrize(("schema", "data", "valid"), _suite_cases())
def test_json_schema_test_suite(schema: dict[str, Any], data: Any, valid: bool) -> None:
    validator = jsonschema.Draft202012Validator(schema, format_checker=format_checker)
    assert validator.is_valid(data) is valid


def test_the_checker_keeps_jsonschemas_other_formats() -> None:
    assert format_checker.conforms("2024-02-29", "date")
    assert not format_checker.conforms("2023-02-29", "date")
    assert {"uri", "uri-reference", "iri", "iri-reference", "uri-template"} <= set(
        format_checker.checkers
    )
    for name, function in FORMATS.items():
        assert format_checker.checkers[name][0] is function


# -- RFC 3986 and RFC 3987 read exactly ------------------------------------------------

# RFC 3986 §1.1.2
EXAMPLES_1_1_2 = [
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
]
# RFC 3986 §5.4.1: relative references, which are URI-references and not URIs
RELATIVE_5_4_1 = ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", ";x", "", ".."]


@pytest.mark.parametrize("text", EXAMPLES_1_1_2)
def test_rfc_3986_examples_are_uris(text: str) -> None:
    for name in ("uri", "uri-reference", "iri", "iri-reference"):
        assert format_checker.conforms(text, name), name


def test_a_uri_may_have_a_fragment() -> None:
    # JSON Schema 2020-12 Validation §7.3.5: "uri" is RFC 3986's URI (§3), whose fragment
    # is optional, not absolute-URI (§4.3), which has none.
    assert format_checker.conforms("http://example.com/a#frag", "uri")
    assert not urikit.is_valid("http://example.com/a#frag", "absolute-URI")


@pytest.mark.parametrize("text", RELATIVE_5_4_1)
def test_relative_references_are_uri_references_only(text: str) -> None:
    assert format_checker.conforms(text, "uri-reference")
    assert format_checker.conforms(text, "uri") is (text == "g:h")


@pytest.mark.parametrize(
    "text",
    [
        "http://a/\n",  # a final newline: "$" would match before it, fullmatch does not
        "http://a/\r\n",
        "\nhttp://a/",
        "http://a/ b",
        "http://a/\x00",
        "http://[::1/",
        "http://a:b/",
        "http://%zz/",
        "http://a/%",
        "http://a/{x}",
        "http://a/\\b",
        "ht tp://a/",
        "1http://a/",
    ],
)
def test_not_uris(text: str) -> None:
    for name in ("uri", "uri-reference", "iri", "iri-reference"):
        assert not format_checker.conforms(text, name), name


def test_iris_are_not_uris() -> None:
    # RFC 3987 §1.3 (an IRI of the examples) and its §3.1 mapping to a URI
    iri = "http://r\u00e9sum\u00e9.example.org"
    assert format_checker.conforms(iri, "iri") and not format_checker.conforms(iri, "uri")
    assert format_checker.conforms("http://xn--rsum-bpad.example.org", "uri")
    # RFC 3987 §4.1: an IRI holds no bidi formatting character
    assert not format_checker.conforms("http://a/\u202eb", "iri")
    # RFC 3987 §2.2: private-use characters only in the query
    assert format_checker.conforms("http://a/?\ue000", "iri")
    assert not format_checker.conforms("http://a/\ue000", "iri")


@given(st.text(alphabet="ab:/?#[]@%1e\u00e9 \n{", max_size=16))
def test_the_formats_are_urikits_rules(text: str) -> None:
    for name, rule in (
        ("uri", "URI"),
        ("uri-reference", "URI-reference"),
        ("iri", "IRI"),
        ("iri-reference", "IRI-reference"),
    ):
        assert FORMATS[name](text) is urikit.is_valid(text, rule)


@pytest.mark.parametrize("name", sorted(FORMATS))
@pytest.mark.parametrize("value", [12, 13.7, None, True, [], {}])
def test_non_strings_pass(name: str, value: object) -> None:
    assert FORMATS[name](value) is True


# -- RFC 6570 URI Templates --------------------------------------------------------------


def _template_cases(name: str) -> list[str]:
    data = json.loads((TEMPLATES / name).read_text(encoding="utf-8"))
    return [case[0] for group in data.values() for case in group["testcases"]]


@pytest.mark.parametrize("template", _template_cases("spec-examples.json"))
def test_rfc_6570_examples_are_templates(template: str) -> None:
    # "'{var}'" among them: an apostrophe is a literal (RFC 6570 erratum 6937)
    assert is_template(template)
    assert format_checker.conforms(template, "uri-template")


@pytest.mark.parametrize("template", _template_cases("extended-tests.json"))
def test_extended_examples_are_templates(template: str) -> None:
    assert is_template(template)


#: Negative tests that fail only when expanded with the suite's variables: a prefix
#: modifier on a composite value (§2.4.1) is an expansion error, not a syntax error.
EXPANSION_ERRORS = {"{keys:1}", "{+keys:1}"}


@pytest.mark.parametrize("template", _template_cases("negative-tests.json"))
def test_negative_examples(template: str) -> None:
    assert is_template(template) is (template in EXPANSION_ERRORS)


@pytest.mark.parametrize(
    ("template", "valid"),
    [
        ("", True),
        ("{var}", True),
        ("{+path}/here", True),  # level 2 (§1.2)
        ("{#x,hello,y}", True),
        ("X{.list*}", True),  # level 4
        ("{var:3}", True),
        ("{var:9999}", True),  # max-length < 10000 (§2.4.1)
        ("{var:10000}", False),
        ("{a.b.c}", True),
        ("{%41}", True),  # a pct-encoded varchar (§2.3)
        ("%E2%82%AC{x}", True),
        ("{%4}", False),
        ("%", False),
        ("{}", False),
        ("{a,}", False),
        ("{,a}", False),
        ("{a*,b:2}", True),
        ("{a:2*}", False),
        ("{=a}", False),  # op-reserve: reserved for future extensions (§2.2)
        ("{@a}", False),
        ("{!a}", False),
        ("{|a}", False),
        ("{,a}", False),
        ("}", False),
        ("{", False),
        ("{{a}}", False),
        ("a b", False),
        ("<a>", False),
        ('"', False),
        ("\\", False),
        ("^", False),
        ("`", False),
        ("|", False),
        ("\x7f", False),
        ("caf\u00e9/{x}", True),  # ucschar (RFC 3987 §2.2)
        ("\ue000", True),  # iprivate
        ("\ufffe", False),  # a noncharacter, in neither
    ],
)
def test_rfc_6570_grammar(template: str, valid: bool) -> None:
    assert is_template(template) is valid


# RFC 6570 §2, transcribed into the combinators of the ABNF oracle.
_PCT = seq(chars("%"), chars(HEXDIG), chars(HEXDIG))
_LITERALS = alt(
    chars(
        lambda c: (
            c in "\x21\x23\x24\x3d\x5d\x5f\x7e"
            or "\x26" <= c <= "\x3b"  # %x26-3B: erratum 6937 adds "'" (%x27)
            or "\x3f" <= c <= "\x5b"
            or "\x61" <= c <= "\x7a"
            or in_ranges(UCSCHAR_RANGES)(c)
            or in_ranges(IPRIVATE_RANGES)(c)
        )
    ),
    _PCT,
)
_VARCHAR = alt(chars(ALPHA + DIGIT + "_"), _PCT)
_VARNAME = seq(_VARCHAR, rep(seq(opt(chars(".")), _VARCHAR)))
_MAX_LENGTH = seq(chars("123456789"), rep(chars(DIGIT), 0, 3))
_MODIFIER = alt(seq(chars(":"), _MAX_LENGTH), chars("*"))
_VARSPEC = seq(_VARNAME, opt(_MODIFIER))
# op-level2 / op-level3; op-reserve belongs to no level (§1.2, §2.2)
_OPERATOR = chars("+#./;?&")
_EXPRESSION = seq(chars("{"), opt(_OPERATOR), _VARSPEC, rep(seq(chars(","), _VARSPEC)), chars("}"))
TEMPLATE_ORACLE = NFA(rep(alt(_LITERALS, _EXPRESSION)))


@given(st.text(alphabet="a1_.%4F{}:*,+#/;?&=!é x'", max_size=20))
def test_the_validator_is_the_grammar(text: str) -> None:
    assert is_template(text) is TEMPLATE_ORACLE.run(text)[1], text


def _parses(text: str) -> bool:
    try:
        parse(text)
    except TemplateError:
        return False
    return True


@given(st.text(alphabet="a1_.%4F{}:*,+#/;?&=!é x'\"<>|^`\\\x7f\U0010fffd", max_size=24))
def test_the_format_is_the_parser(text: str) -> None:
    """One grammar: the ``uri-template`` format (``urikit.template.is_template``, in C
    where it is built) answers as ``urikit.template``'s parser (RFC 6570 §2) on any
    text."""
    assert is_template(text) is _parses(text), text
    assert format_checker.conforms(text, "uri-template") is _parses(text), text


@pytest.mark.parametrize(
    "template",
    _template_cases("spec-examples.json")
    + _template_cases("extended-tests.json")
    + _template_cases("negative-tests.json"),
)
def test_the_format_is_the_parser_on_the_suite(template: str) -> None:
    assert is_template(template) is _parses(template)


def test_uri_template_takes_linear_time() -> None:
    for make in (
        lambda n: "{" * n,
        lambda n: "{a" * n,
        lambda n: "{" + "a." * n,
        lambda n: "%4" * n,
        lambda n: "a" * n + "{",
        lambda n: "{a,b" * n,
    ):
        assert_linear(make, is_template)


def test_the_rule_checks_are_one_call_into_the_compiled_core() -> None:
    from urikit._seam import Store

    if not urikit.compiled:
        assert Store._rule_validator("URI", bool) is bool  # the fallback answers every call
        return
    check = FORMATS["uri"]
    assert type(check).__name__ == "builtin_function_or_method"
    assert check("http://a/") is True and check("a") is False and check(None) is True
    template = FORMATS["uri-template"]
    one_call = type(template).__name__ == "builtin_function_or_method"
    assert one_call is urikit.template.backend.compiled
    assert template("/{x}") is True and template("/{x") is False and template(None) is True
    for rule in ("host", "nonsense"):
        with pytest.raises(ValueError, match="reference rule"):
            Store._rule_validator(rule, bool)
