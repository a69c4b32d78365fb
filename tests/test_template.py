"""URI Templates (RFC 6570): every example of the RFC by section, the
uritemplate-test suite, error positions, matching and its safety, partial
expansion, and routing.  The laws over generated templates are in
``test_template_laws.py``."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from linear import assert_linear

from urikit import URIError, is_valid
from urikit.template import Router, TemplateError, URITemplate
from urikit.template.syntax import Literal

VECTORS = Path(__file__).parent / "vectors" / "uritemplate-test"

# --- §1.1 Overview -------------------------------------------------------------------


def test_1_1_overview_expansion() -> None:
    t = URITemplate("http://www.example.com/foo{?query,number}")
    assert t.expand(query="mycelium", number=100) == (
        "http://www.example.com/foo?query=mycelium&number=100"
    )
    assert t.expand(number=100) == "http://www.example.com/foo?number=100"
    assert t.expand() == "http://www.example.com/foo"


@pytest.mark.parametrize(
    ("template", "uri", "variables"),
    [
        ("http://example.com/~{username}/", "http://example.com/~fred/", {"username": "fred"}),
        ("http://example.com/~{username}/", "http://example.com/~mark/", {"username": "mark"}),
        (
            "http://example.com/dictionary/{term:1}/{term}",
            "http://example.com/dictionary/c/cat",
            {"term": "cat"},
        ),
        (
            "http://example.com/dictionary/{term:1}/{term}",
            "http://example.com/dictionary/d/dog",
            {"term": "dog"},
        ),
        (
            "http://example.com/search{?q,lang}",
            "http://example.com/search?q=cat&lang=en",
            {"q": "cat", "lang": "en"},
        ),
        (
            "http://example.com/search{?q,lang}",
            "http://example.com/search?q=chien&lang=fr",
            {"q": "chien", "lang": "fr"},
        ),
    ],
)
def test_1_1_overview_uri_spaces_match_back(
    template: str, uri: str, variables: dict[str, Any]
) -> None:
    # §1.1 gives these URIs as described by these templates; §1.4 says matching
    # them works where expressions are delimited by characters their expansions
    # cannot hold.
    t = URITemplate(template)
    assert t.match(uri) == variables
    assert t.expand(variables) == uri


def test_1_1_a_prefix_that_disagrees_is_no_match() -> None:
    t = URITemplate("http://example.com/dictionary/{term:1}/{term}")
    assert t.match("http://example.com/dictionary/d/cat") is None


# --- §1.2 Levels and Expression Types -----------------------------------------------

LEVEL_VALUES: dict[str, Any] = {
    "var": "value",
    "hello": "Hello World!",
    "empty": "",
    "path": "/foo/bar",
    "x": "1024",
    "y": "768",
    "list": ["red", "green", "blue"],
    "keys": {"semi": ";", "dot": ".", "comma": ","},
}

LEVEL_1 = [("{var}", "value"), ("{hello}", "Hello%20World%21")]
LEVEL_2 = [
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("X{#var}", "X#value"),
    ("X{#hello}", "X#Hello%20World!"),
]
LEVEL_3 = [
    ("map?{x,y}", "map?1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("X{.var}", "X.value"),
    ("X{.x,y}", "X.1024.768"),
    ("{/var}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
]
LEVEL_4 = [
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+list}", "red,green,blue"),
    ("{+list*}", "red,green,blue"),
    ("{+keys}", "semi,;,dot,.,comma,,"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    ("{#path:6}/here", "#/foo/b/here"),
    ("{#list}", "#red,green,blue"),
    ("{#list*}", "#red,green,blue"),
    ("{#keys}", "#semi,;,dot,.,comma,,"),
    ("{#keys*}", "#semi=;,dot=.,comma=,"),
    ("X{.var:3}", "X.val"),
    ("X{.list}", "X.red,green,blue"),
    ("X{.list*}", "X.red.green.blue"),
    ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
    ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
    ("{/var:1,var}", "/v/value"),
    ("{/list}", "/red,green,blue"),
    ("{/list*}", "/red/green/blue"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
    ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list}", ";list=red,green,blue"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{?var:3}", "?var=val"),
    ("{?list}", "?list=red,green,blue"),
    ("{?list*}", "?list=red&list=green&list=blue"),
    ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ("{&var:3}", "&var=val"),
    ("{&list}", "&list=red,green,blue"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
    ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
]
LEVELS = [(1, LEVEL_1), (2, LEVEL_2), (3, LEVEL_3), (4, LEVEL_4)]


@pytest.mark.parametrize(
    ("level", "template", "expansion"),
    [(level, t, e) for level, rows in LEVELS for t, e in rows],
    ids=lambda v: str(v),
)
def test_1_2_levels_and_expression_types(level: int, template: str, expansion: str) -> None:
    t = URITemplate(template)
    assert t.expand(LEVEL_VALUES) == expansion
    # the level is the template's syntax; composite values such as {list} are Level 4
    # values in a template the syntax of a lower level holds
    assert t.level <= level
    assert t.level == level or (level == 4 and ":" not in template and "*" not in template)


# --- §2.4.1 Prefix Values, §2.4.2 Composite Values -------------------------------------


@pytest.mark.parametrize(
    ("template", "expansion"),
    [("{var}", "value"), ("{var:20}", "value"), ("{var:3}", "val"), ("{semi}", "%3B"),
     ("{semi:2}", "%3B")],
)  # fmt: skip
def test_2_4_1_prefix_values(template: str, expansion: str) -> None:
    assert URITemplate(template).expand(var="value", semi=";") == expansion


def test_2_4_1_a_prefix_counts_characters_not_octets() -> None:
    assert URITemplate("{var:1}").expand(var="\u00e9t\u00e9") == "%C3%A9"
    assert URITemplate("{var:2}").expand(var="\U0001d11ex") == "%F0%9D%84%9Ex"
    # §3.2.1: in U+R a pct-encoded character of the value is one character
    assert URITemplate("{+var:2}").expand(var="%C3%A9tat") == "%C3%A9t"
    assert URITemplate("{+var:1}").expand(var="%2Fab") == "%2F"
    assert URITemplate("{var:2}").expand(var="%2Fab") == "%252"


def test_2_4_1_a_prefix_of_a_composite_value_is_an_error() -> None:
    with pytest.raises(TemplateError) as info:
        URITemplate("x{list:2}").expand(list=["a", "b"])
    assert (info.value.position, info.value.rule) == (6, "prefix")
    assert "§2.4.1" in info.value.reason


@pytest.mark.parametrize(
    ("template", "expansion"),
    [("find{?year*}", "find?year=1965&year=2000&year=2012"), ("www{.dom*}", "www.example.com")],
)
def test_2_4_2_composite_values(template: str, expansion: str) -> None:
    values = {"year": ["1965", "2000", "2012"], "dom": ["example", "com"]}
    assert URITemplate(template).expand(values) == expansion


def test_2_3_undefined_values() -> None:
    t = URITemplate("{?list,keys,var}")
    assert t.expand(list=[], keys={}, var=None) == ""
    assert t.expand(keys={"a": None}) == ""  # every pair undefined
    assert t.expand(keys={"a": None, "b": "1"}) == "?keys=b,1"
    assert t.expand(list=["a", None, "b"]) == "?list=a,b"


# --- §3.2 Expression Expansion -------------------------------------------------------------

SECTION_3_2_VALUES: dict[str, Any] = {
    "count": ["one", "two", "three"],
    "dom": ["example", "com"],
    "dub": "me/too",
    "hello": "Hello World!",
    "half": "50%",
    "var": "value",
    "who": "fred",
    "base": "http://example.com/home/",
    "path": "/foo/bar",
    "list": ["red", "green", "blue"],
    "keys": {"semi": ";", "dot": ".", "comma": ","},
    "v": "6",
    "x": "1024",
    "y": "768",
    "empty": "",
    "empty_keys": {},
    "undef": None,
}

SECTION_3_2 = {
    "3.2.1": [
        ("{count}", "one,two,three"),
        ("{count*}", "one,two,three"),
        ("{/count}", "/one,two,three"),
        ("{/count*}", "/one/two/three"),
        ("{;count}", ";count=one,two,three"),
        ("{;count*}", ";count=one;count=two;count=three"),
        ("{?count}", "?count=one,two,three"),
        ("{?count*}", "?count=one&count=two&count=three"),
        ("{&count*}", "&count=one&count=two&count=three"),
    ],
    "3.2.2": [
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("{x,y}", "1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("?{x,empty}", "?1024,"),
        ("?{x,undef}", "?1024"),
        ("?{undef,y}", "?768"),
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{keys}", "semi,%3B,dot,.,comma,%2C"),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ],
    "3.2.3": [
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("O{+empty}X", "OX"),
        ("O{+undef}X", "OX"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("up{+path}{var}/here", "up/foo/barvalue/here"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{+list}", "red,green,blue"),
        ("{+list*}", "red,green,blue"),
        ("{+keys}", "semi,;,dot,.,comma,,"),
        ("{+keys*}", "semi=;,dot=.,comma=,"),
    ],
    "3.2.4": [
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("{#half}", "#50%25"),
        ("foo{#empty}", "foo#"),
        ("foo{#undef}", "foo"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("{#path:6}/here", "#/foo/b/here"),
        ("{#list}", "#red,green,blue"),
        ("{#list*}", "#red,green,blue"),
        ("{#keys}", "#semi,;,dot,.,comma,,"),
        ("{#keys*}", "#semi=;,dot=.,comma=,"),
    ],
    "3.2.5": [
        ("{.who}", ".fred"),
        ("{.who,who}", ".fred.fred"),
        ("{.half,who}", ".50%25.fred"),
        ("www{.dom*}", "www.example.com"),
        ("X{.var}", "X.value"),
        ("X{.empty}", "X."),
        ("X{.undef}", "X"),
        ("X{.var:3}", "X.val"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
        ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
        ("X{.empty_keys}", "X"),
        ("X{.empty_keys*}", "X"),
    ],
    "3.2.6": [
        ("{/who}", "/fred"),
        ("{/who,who}", "/fred/fred"),
        ("{/half,who}", "/50%25/fred"),
        ("{/who,dub}", "/fred/me%2Ftoo"),
        ("{/var}", "/value"),
        ("{/var,empty}", "/value/"),
        ("{/var,undef}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{/var:1,var}", "/v/value"),
        ("{/list}", "/red,green,blue"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
        ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    ],
    "3.2.7": [
        ("{;who}", ";who=fred"),
        ("{;half}", ";half=50%25"),
        ("{;empty}", ";empty"),
        ("{;v,empty,who}", ";v=6;empty;who=fred"),
        ("{;v,bar,who}", ";v=6;who=fred"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{;x,y,undef}", ";x=1024;y=768"),
        ("{;hello:5}", ";hello=Hello"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
        ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ],
    "3.2.8": [
        ("{?who}", "?who=fred"),
        ("{?half}", "?half=50%25"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("{?x,y,undef}", "?x=1024&y=768"),
        ("{?var:3}", "?var=val"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
        ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ],
    "3.2.9": [
        ("{&who}", "&who=fred"),
        ("{&half}", "&half=50%25"),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        ("{&x,y,undef}", "&x=1024&y=768"),
        ("{&var:3}", "&var=val"),
        ("{&list}", "&list=red,green,blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
        ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
    ],
}


@pytest.mark.parametrize(
    ("template", "expansion"),
    [row for rows in SECTION_3_2.values() for row in rows],
    ids=[f"{section}:{t}" for section, rows in SECTION_3_2.items() for t, _ in rows],
)
def test_3_2_expression_expansion(template: str, expansion: str) -> None:
    t = URITemplate(template)
    assert t.expand(SECTION_3_2_VALUES) == expansion
    assert t._expand_plainly(SECTION_3_2_VALUES) == expansion


# Where the RFC's expansion loses nothing that matching needs, the examples of §3.2 match
# back.  Every example is either here, or listed with why it cannot be read back.
SECTION_3_2_MATCH_BACK = {
    "{count}": {"count": ["one", "two", "three"]},
    "{/count*}": {"count": ["one", "two", "three"]},
    "{;count*}": {"count": ["one", "two", "three"]},
    "{?count*}": {"count": ["one", "two", "three"]},
    "{var}": {"var": "value"},
    "{hello}": {"hello": "Hello World!"},
    "{half}": {"half": "50%"},
    "O{empty}X": {"empty": ""},
    "{x,y}": {"x": "1024", "y": "768"},
    "{x,hello,y}": {"x": "1024", "hello": "Hello World!", "y": "768"},
    "?{x,empty}": {"x": "1024", "empty": ""},
    "{base}index": {"base": "http://example.com/home/"},
    "{+base}index": {"base": "http://example.com/home/"},
    "{+path}/here": {"path": "/foo/bar"},
    "here?ref={+path}": {"path": "/foo/bar"},
    "{+path,x}/here": {"path": "/foo/bar", "x": "1024"},
    "{#hello}": {"hello": "Hello World!"},
    "{#path,x}/here": {"path": "/foo/bar", "x": "1024"},
    "foo{#empty}": {"empty": ""},
    "{.who,who}": {"who": "fred"},
    "X{.empty}": {"empty": ""},
    "X{.list*}": {"list": ["red", "green", "blue"]},
    "{/who,dub}": {"who": "fred", "dub": "me/too"},
    "{/var,empty}": {"var": "value", "empty": ""},
    "{/var:1,var}": {"var": "value"},
    "{/list*}": {"list": ["red", "green", "blue"]},
    "{;v,empty,who}": {"v": "6", "empty": "", "who": "fred"},
    "{;list*}": {"list": ["red", "green", "blue"]},
    "{?x,y,empty}": {"x": "1024", "y": "768", "empty": ""},
    "{?list}": {"list": ["red", "green", "blue"]},
    "?fixed=yes{&x}": {"x": "1024"},
    "{&x,y,empty}": {"x": "1024", "y": "768", "empty": ""},
}


@pytest.mark.parametrize(("template", "variables"), SECTION_3_2_MATCH_BACK.items())
def test_3_2_examples_match_back(template: str, variables: dict[str, Any]) -> None:
    t = URITemplate(template)
    uri = t.expand(SECTION_3_2_VALUES)
    assert t.match(uri) == variables
    assert t.expand(variables) == uri


def test_3_2_associative_arrays_match_back_as_dicts() -> None:
    keys = {"semi": ";", "dot": ".", "comma": ","}
    for template in ("{keys*}", "{/keys*}", "{;keys*}", "{?keys*}", "{&keys*}"):
        t = URITemplate(template)
        uri = t.expand(keys=keys)
        # the value "." of "dot" is refused by default, as a dot-segment would be
        assert t.match(uri) is None
        assert t.match(uri, allow_dot_segments=True) == {"keys": keys}
    # unexploded, an associative array is its names and values, as a list
    assert URITemplate("{keys}").match("semi,%3B,comma,%2C") == {
        "keys": ["semi", ";", "comma", ","]
    }


# --- the uritemplate-test suite (Apache 2.0, tests/vectors/uritemplate-test) -----------------


def _vector_cases() -> list[tuple[str, str, str, dict[str, Any], Any]]:
    cases = []
    for path in sorted(VECTORS.glob("*.json")):
        for group, spec in json.loads(path.read_text(encoding="utf-8")).items():
            for template, expected in spec["testcases"]:
                cases.append((path.name, group, template, spec["variables"], expected))
    return cases


VECTOR_CASES = _vector_cases()


def test_every_file_of_the_suite_is_read() -> None:
    assert {case[0] for case in VECTOR_CASES} == {
        "extended-tests.json", "negative-tests.json", "spec-examples-by-section.json",
        "spec-examples.json",
    }  # fmt: skip
    assert len(VECTOR_CASES) == 270
    licence = (VECTORS / "LICENSE").read_text(encoding="utf-8")
    assert licence.strip().startswith("Copyright") and "Apache License, Version 2.0" in licence


@pytest.mark.parametrize(
    ("file", "group", "template", "variables", "expected"),
    VECTOR_CASES,
    ids=[f"{c[0]}:{c[2]}" for c in VECTOR_CASES],
)
def test_uritemplate_test_suite(
    file: str, group: str, template: str, variables: dict[str, Any], expected: Any
) -> None:
    if expected is False:
        with pytest.raises(TemplateError) as info:
            URITemplate(template).expand(variables)
        assert info.value.position is not None and 0 <= info.value.position <= len(template)
        return
    got = URITemplate(template).expand(variables)
    assert got in expected if isinstance(expected, list) else got == expected


# --- §2 syntax: error positions and rules ----------------------------------------------------

ERRORS = [
    # (template, position, rule)
    ("{/id*", 5, "expression"),
    ("/id*}", 4, "literals"),
    ("{/?id}", 2, "varname"),
    ("{var:prefix}", 5, "max-length"),
    ("{hello:2*}", 8, "expression"),
    ("{??hello}", 2, "varname"),
    ("{!hello}", 1, "op-reserve"),
    ("{with space}", 5, "expression"),
    ("{ leading_space}", 1, "varname"),
    ("{trailing_space }", 15, "expression"),
    ("{=path}", 1, "op-reserve"),
    ("{$var}", 1, "varname"),
    ("{|var*}", 1, "op-reserve"),
    ("{*keys?}", 1, "varname"),
    ("{?empty=default,var}", 7, "expression"),
    ("{var}{-prefix|/-/|var}", 6, "varname"),
    ("?q={searchTerms}&amp;c={example:color?}", 32, "max-length"),
    ("x{?empty|foo=none}", 8, "expression"),
    ("/h{#hello+}", 9, "expression"),
    ("/h#{hello+}", 9, "expression"),
    ("{;keys:1*}", 8, "expression"),
    ("?{-join|&|var,list}", 2, "varname"),
    ("/people/{~thing}", 9, "varname"),
    ("/{default-graph-uri}", 9, "expression"),
    ("/sparql{?query,default-graph-uri}", 22, "expression"),
    ("/sparql{?query){&default-graph-uri*}", 14, "expression"),
    ("/resolution{?x, y}", 15, "varname"),
    ("{var:0}", 5, "max-length"),
    ("{var:01}", 5, "max-length"),
    ("{var:10000}", 9, "max-length"),
    ("{var:}", 5, "max-length"),
    ("{x.}", 3, "varname"),
    ("{x..y}", 3, "varname"),
    ("{%2x}", 3, "pct-encoded"),
    ("{", 1, "varname"),
    ("{}", 1, "varname"),
    ("{,a}", 1, "op-reserve"),
    ("{a,}", 3, "varname"),
    ("{a{b}", 2, "expression"),
    ("a}b", 1, "literals"),
    ("a%zz", 2, "pct-encoded"),
    ("a%2", 3, "pct-encoded"),
    ("a%", 2, "pct-encoded"),
    ("a b", 1, "literals"),
    ('a"b', 1, "literals"),
    ("a<b", 1, "literals"),
    ("a\\b", 1, "literals"),
    ("a^b", 1, "literals"),
    ("a`b", 1, "literals"),
    ("a|b", 1, "literals"),
    ("a\x7fb", 1, "literals"),
    ("a\x00b", 1, "literals"),
    ("\ud800", 0, "literals"),
    ("caf\u00e9/{x}/\ufffe", 9, "literals"),  # U+FFFE is no ucschar
    ("{x}{y", 5, "expression"),
    ("{x:1", 4, "expression"),
    ("{x*", 3, "expression"),
]


@pytest.mark.parametrize(("template", "position", "rule"), ERRORS, ids=[e[0] for e in ERRORS])
def test_2_malformed_templates_fail_where_the_grammar_ends(
    template: str, position: int, rule: str
) -> None:
    with pytest.raises(TemplateError) as info:
        URITemplate(template)
    error = info.value
    assert (error.position, error.rule, error.text) == (position, rule, template)
    assert isinstance(error, URIError) and isinstance(error, ValueError)
    message = str(error)
    assert f"at position {position} in {rule}:" in message
    assert message.endswith("^")  # the caret under the character
    assert "RFC 6570 §2" in error.reason


def test_2_the_longest_valid_prefix_is_where_the_error_is() -> None:
    # the position is the first character that no valid template can have there:
    # every prefix before it can be continued into a template, and it cannot
    for template, position, _ in ERRORS:
        prefix = template[:position]
        assert _can_be_continued(prefix), template
        if position < len(template):
            assert not _can_be_continued(template[: position + 1]), template


def _can_be_continued(prefix: str) -> bool:
    """Whether some template begins with ``prefix``: try the endings that close every
    construct of §2."""
    for ending in ("", "}", "a}", "0}", "1}", "00}", "0", "00"):
        try:
            URITemplate(prefix + ending)
        except TemplateError:
            continue
        return True
    return False


def test_2_2_reserved_operators_say_so() -> None:
    for op in "=,!@|":
        with pytest.raises(TemplateError, match="reserved for future extensions"):
            URITemplate("{" + op + "var}")


def test_2_1_literals_erratum_6937_the_apostrophe() -> None:
    t = URITemplate("a'b{var}'")
    assert t.expand(var="x") == "a'bx'"


def test_2_1_literals_outside_the_uri_are_encoded_3_1() -> None:
    t = URITemplate("caf\u00e9/{var}/\U000f0000")
    assert t.expand(var="value") == "caf%C3%A9/value/%F3%B0%80%80"
    assert URITemplate("x%20y/{var}").expand(var="value") == "x%20y/value"


def test_2_3_variables_are_named_as_written() -> None:
    t = URITemplate("/lookup{?Stra%C3%9Fe,last.name}{/Stra%C3%9Fe}")
    assert t.variables == ("Stra%C3%9Fe", "last.name")
    assert t.expand({"Stra%C3%9Fe": "x", "last.name": "y"}) == "/lookup?Stra%C3%9Fe=x&last.name=y/x"


@pytest.mark.parametrize(
    ("template", "level"),
    [("", 1), ("http://a/", 1), ("{var}", 1), ("{+var}", 2), ("{#var}", 2), ("{x,y}", 3),
     ("{.x}", 3), ("{/x}{?y}", 3), ("{x:3}", 4), ("{x*}", 4), ("{var}{+var}{?a,b}{c*}", 4)],
)  # fmt: skip
def test_1_2_level(template: str, level: int) -> None:
    assert URITemplate(template).level == level


# --- the value ------------------------------------------------------------------------------


def test_equality_hashing_str_and_pickling() -> None:
    t = URITemplate("/users/{id}")
    assert t == URITemplate("/users/{id}") == "/users/{id}"
    assert t != URITemplate("/users/{name}") and t != "/users/{name}"
    assert hash(t) == hash("/users/{id}")
    assert {t: 1}["/users/{id}"] == 1
    assert str(t) == "/users/{id}" and repr(t) == "URITemplate('/users/{id}')"
    assert pickle.loads(pickle.dumps(t)) == t
    assert URITemplate(t) == t
    with pytest.raises(TemplateError) as info:
        URITemplate("{")
    error = info.value
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is TemplateError and str(again) == str(error)


def test_variables_in_order_of_appearance() -> None:
    t = URITemplate("{b}{/a,b}{?c}{a}")
    assert t.variables == ("b", "a", "c")


def test_values_as_mapping_keywords_or_both() -> None:
    t = URITemplate("{a}{/b}")
    assert t.expand({"a": 1}, b=2) == "1/2"
    assert t.expand({"a": 1, "b": 3}, b=2) == "1/2"
    with pytest.raises(TypeError):
        t.expand(["a"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expansion"),
    [(True, "true"), (False, "false"), (42, "42"), (-7, "-7"), (37.76, "37.76"),
     (1e20, "1e%2B20"), (0.5, "0.5"), ("", ""), (("a", 1, True), "a,1,true"),
     ({"k": 2.5, "j": None}, "k,2.5")],
)  # fmt: skip
def test_value_types(value: object, expansion: str) -> None:
    assert URITemplate("{v}").expand(v=value) == expansion
    assert URITemplate("{v}")._expand_plainly(v=value) == expansion


def test_values_of_other_types_are_a_type_error() -> None:
    for value in (b"x", object(), [["nested"]], {"k": ["nested"]}, [b"x"]):
        with pytest.raises(TypeError):
            URITemplate("{v}").expand(v=value)


def test_a_lone_surrogate_in_a_value_is_a_template_error() -> None:
    for template in ("{v}", "{+v}", "{?v*}", "x{/v:3}"):
        with pytest.raises(TemplateError) as info:
            URITemplate(template).expand(v="a\udc80")
        assert "surrogate" in info.value.reason


def test_an_integer_too_long_to_write_is_a_template_error() -> None:
    with pytest.raises(TemplateError, match="digits"):
        URITemplate("{v}").expand(v=10**5000)


def test_exploded_pairs_with_empty_values_3_2_1() -> None:
    # §3.2.1: "name=value" or, if the value is empty and the type is not "?" or "&", "name"
    pairs = {"a": "", "b": "1"}
    assert URITemplate("{x*}").expand(x=pairs) == "a,b=1"
    assert URITemplate("{;x*}").expand(x=pairs) == ";a;b=1"
    assert URITemplate("{?x*}").expand(x=pairs) == "?a=&b=1"
    assert URITemplate("{/x*}").expand(x=pairs) == "/a/b=1"


# --- partial expansion ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "given", "result"),
    [
        ("/search{?a,b}", {"a": 1}, "/search?a=1{&b}"),
        ("/search{?a,b}", {"a": None}, "/search{?b}"),
        ("/search{?a,b}", {"a": 1, "b": 2}, "/search?a=1&b=2"),
        ("/search{?a,b}", {}, "/search{?a,b}"),
        ("{/a,b,c}", {"a": "x"}, "/x{/b,c}"),
        ("{.a,b}", {"a": "x"}, ".x{.b}"),
        ("{;a,b:2}", {"a": ""}, ";a{;b:2}"),
        ("{&a,b*}", {"a": "x y"}, "&a=x%20y{&b*}"),
        ("caf\u00e9{x}{y}", {"x": "1"}, "caf\u00e91{y}"),
        ("{x,y}", {"x": None}, "{y}"),
        ("{/x,y}", {"x": ""}, "/{/y}"),
        ("{+x,y}", {"x": "a", "y": "b"}, "a,b"),
        ("{unused}", {"other": 1}, "{unused}"),
    ],
)
def test_partial(template: str, given: dict[str, Any], result: str) -> None:
    assert URITemplate(template).partial(given) == URITemplate(result)


def test_partial_then_expand_is_expand() -> None:
    t = URITemplate("http://h{/p*}/x{?a,b,c}{&d}#{e}")
    values = {"p": ["1", "2"], "a": "A", "b": None, "c": "C", "d": [1, 2], "e": "E"}
    for k in range(len(values)):
        names = list(values)[:k]
        given = {n: values[n] for n in names}
        rest = {n: v for n, v in values.items() if n not in given}
        assert t.partial(given).expand(rest) == t.expand(values)


@pytest.mark.parametrize(
    ("template", "given", "position"),
    [("{x,y}", {"x": "1"}, 3), ("{x,y}", {"x": ""}, 3), ("{+x,y}", {"x": "1"}, 4),
     ("{#x,y}", {"x": "1"}, 4),
     ("{?a,b}", {"b": "1"}, 4), ("{/a,b,c}", {"a": 1, "c": 3}, 6)],
)  # fmt: skip
def test_partial_that_no_template_can_say(
    template: str, given: dict[str, Any], position: int
) -> None:
    with pytest.raises(TemplateError) as info:
        URITemplate(template).partial(given)
    assert (info.value.position, info.value.rule) == (position, "variable-list")


# --- matching -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "uri", "variables"),
    [
        ("/users/{id}", "/users/42", {"id": "42"}),
        ("/users/{id}", "/users/", {"id": ""}),
        ("/users/{id}", "/users/42/x", None),
        ("/users/{id}", "/users/a%20b", {"id": "a b"}),
        ("/users/{id}", "/users/caf%c3%a9", {"id": "caf\u00e9"}),
        ("/users/{id}", "/users/%FF", None),  # not UTF-8: no expansion writes it
        ("/users/{id}", "/users/%zz", None),
        ("/users/{id}", "/users/a b", None),
        ("{x}", "a,b", {"x": ["a", "b"]}),
        ("{x}", "a%2Cb", {"x": "a,b"}),
        ("{x}", "a=b", None),
        ("map?{x,y}", "map?1024", {"x": "1024"}),
        ("{x,y}", "a,b,c", {"x": "a", "y": ["b", "c"]}),
        ("{/a,b}", "/x", {"a": "x"}),
        ("{/a,b}", "/x/y/z", None),
        ("{/a}{?b}", "/x", {"a": "x"}),
        ("{/a}{?b}", "/x?b=y", {"a": "x", "b": "y"}),
        ("X{.a,b}", "X.x.y.z", {"a": "x", "b": "y.z"}),
        ("X{.ext}", "X.tar.gz", {"ext": "tar.gz"}),
        ("/files/{name}.txt", "/files/a.b.txt", {"name": "a.b"}),
        ("{+path}", "/a/b%20c%2Fd%7e%7E%c3%a9", {"path": "/a/b c%2Fd%7e%7E%c3%a9"}),
        ("{+path}", "/caf%C3%A9%FF", {"path": "/caf\u00e9%FF"}),
        ("{+path}", "/a/%25zz", {"path": "/a/%25zz"}),
        ("{+path}/edit", "/a/edit/edit", {"path": "/a/edit"}),
        ("{#frag}", "#a/b?c", {"frag": "a/b?c"}),
        ("{#frag}", "", {}),
        ("/x{#frag}", "/x#", {"frag": ""}),
        ("/x{?q}", "/x", {}),
        ("/x{?q}", "/x?", None),
        ("/x{?q}", "/x?q", None),  # "?" writes q= for an empty value
        ("/x{?q}", "/x?q=", {"q": ""}),
        ("/x{?q}", "/x?r=1", None),
        ("/x{?q,r}", "/x?r=1&q=2", None),  # expansion writes q before r
        ("/x{;q}", "/x;q", {"q": ""}),
        ("/x{;q}", "/x;q=", {"q": [""]}),
        ("/x{?q*}", "/x?q=1&q=2", {"q": ["1", "2"]}),
        ("/x{?q*}", "/x?a=1&b=", {"q": {"a": "1", "b": ""}}),
        ("/x{?q*,r}", "/x?a=1&r=2", {"q": {"a": "1"}, "r": "2"}),
        ("/x{/q*}", "/x/a=1/b", {"q": {"a": "1", "b": ""}}),
        ("/x{/q*}", "/x/a/b", {"q": ["a", "b"]}),
        ("/x{/q*}", "/x/a,b", None),
        # no values expand to these (§3.2.1): "," of a pair is written %2C, a repeated
        # name is not an associative array's, an empty value is the bare name, "=" alone
        ("{?a*}", "?b=2,", None),
        ("{a*}", "x=", None),
        ("{?a*}", "?x=1&x=2", None),
        ("{/a*}", "/=", None),
        ("{;a*}", ";b,", None),
        ("{.a*}", ".x=.y=1", None),
        ("{/a*}", "/x=1/x=2", None),
        ("{?a*}", "?a=1&a=2", {"a": ["1", "2"]}),  # the variable's own name: a list
        ("{?a*}", "?b=&c=1", {"a": {"b": "", "c": "1"}}),  # "?" writes "b=" for ""
        ("{;a*}", ";b;c=1", {"a": {"b": "", "c": "1"}}),  # ";" writes "b" for ""
        ("{;a*}", ";b=;c=1", None),
        ("{a,a:1}", "", {}),  # a undefined: a="" would write ","
        ("{a}/{/a:1}", "/", {}),
        ("{x}/{x}", "a/a", {"x": "a"}),
        ("{x}/{x}", "a/b", None),
        ("/{x}{?x}", "/a?x=a", {"x": "a"}),
        ("/{x}{?x}", "/a", None),  # x is defined, so {?x} writes it
        ("/{x}{?x}", "/", {}),
        ("{/id*}{?fields,first_name,last.name,token}",
         "/person?fields=id,name,picture&first_name=John&last.name=Doe&token=12345",
         {"id": ["person"], "fields": ["id", "name", "picture"], "first_name": "John",
          "last.name": "Doe", "token": "12345"}),
        ("http://x/{a}", "HTTP://x/a", None),  # literals match exactly
    ],
)  # fmt: skip
def test_match(template: str, uri: str, variables: dict[str, Any] | None) -> None:
    t = URITemplate(template)
    assert t.match(uri) == variables
    if variables is not None and "%" not in uri.lower().replace("%25", ""):
        assert t.expand(variables) == uri


@pytest.mark.parametrize(
    ("template", "position", "rule", "words"),
    [
        ("{a}{b}", 0, "expression", "side by side"),
        ("x/{name}.{ext}", 2, "expression", "'.'"),
        ("{+path}{?q}", 0, "expression", "'?'"),
        ("{a}-{b}", 0, "expression", "'-'"),
        ("{+base}/users/{id}", 0, "expression", "'/'"),
        ("{/a}{.b}", 0, "expression", "with which {.b} begins"),
        ("{x}{/y}{z}", 0, "expression", "side by side"),
        ("{/a}/x{b}", 0, "expression", "literal after it"),
        ("{;a}{;b}", 0, "expression", "both begin with ';'"),
        ("{/a}{/b}", 0, "expression", "both begin with '/'"),  # "/x": a or b
        ("/x{/a}{/b}", 2, "expression", "both begin with '/'"),
        ("{.a}{.b}", 0, "expression", "with which {.b} begins"),
        ("{/a}{;c}{/b}", 0, "expression", "both begin with '/'"),  # {;c} can be empty
        ("/{x:3}", 3, "prefix", "only with a prefix"),
        ("{/a*,b}", 3, "explode", "put it last"),
        ("{?a*,b*}", 6, "explode", "two exploded"),
    ],
)
def test_ambiguous_templates_are_refused_by_match(
    template: str, position: int, rule: str, words: str
) -> None:
    t = URITemplate(template)  # a valid template: expansion is fine
    t.expand(a="1")
    for _ in range(2):  # the same error each time
        with pytest.raises(TemplateError) as info:
            t.match("/anything")
        assert (info.value.position, info.value.rule) == (position, rule)
        assert words in info.value.reason
    with pytest.raises(TemplateError):
        Router([template])


@pytest.mark.parametrize(
    "template",
    ["{/a}{?b}", "{?a}{&b}", "/{a}/{b}", "{.a}{/b}", "{/a}{;b}{?c}{#d}", "{/id*}{?q}",
     "{+path}/edit", "/f/{name}.txt", "{/a}/x", "X{.ext}{/p}", "{x}{?y}{#z}", "{a}/{b}#{+c}"],
)  # fmt: skip
def test_unambiguous_templates_compile(template: str) -> None:
    URITemplate(template).matcher  # noqa: B018


# --- §3.2.3 safety: dot-segments and NUL ----------------------------------------------------


@pytest.mark.parametrize(
    ("template", "uri"),
    [
        ("/files/{name}", "/files/.."),
        ("/files/{name}", "/files/."),
        ("/files/{name}", "/files/%2E%2E"),
        ("/files/{name}", "/files/%2e"),
        ("/files/{name}", "/files/..%2F..%2Fetc"),
        ("/files/{name}", "/files/..%5C..%5Cwin.ini"),
        ("/files/{name}", "/files/a%00b"),
        ("/files{/path*}", "/files/a/../b"),
        ("/files{/path*}", "/files/a/%2E%2E/b"),
        ("/files/{+path}", "/files/a/../../etc/passwd"),
        ("/files/{+path}", "/files/a/%2e%2E/b"),
        ("/files/{+path}", "/files/a%2F..%2Fb"),
        ("/files/{+path}", "/files/./a"),
        ("/files{?q*}", "/files?..=x"),
        ("/files{?q*}", "/files?x=.."),
        ("/files{#f}", "/files#a/%00"),
    ],
)
def test_3_2_3_dot_segments_and_nul_are_refused_by_default(template: str, uri: str) -> None:
    t = URITemplate(template)
    assert t.match(uri) is None
    assert t.match(uri, allow_dot_segments=True) is not None
    assert Router([template]).match(uri) is None
    assert Router([template], allow_dot_segments=True).match(uri) is not None


@pytest.mark.parametrize(
    ("template", "uri"),
    [("/files/{name}", "/files/a..b"), ("/files/{name}", "/files/..."),
     ("/files/{+path}", "/files/a/.b/c"), ("/files{/p*}", "/files/.git/x")],
)  # fmt: skip
def test_3_2_3_other_dots_are_values(template: str, uri: str) -> None:
    assert URITemplate(template).match(uri) is not None


# --- routing ------------------------------------------------------------------------------


def test_router_most_specific_wins() -> None:
    router = Router(
        ["/users/{id}", "/users/me", "/users/{id}/posts{/post}", "{+anything}", "/users/me/posts"]
    )
    assert router.match("/users/me").template == "/users/me"
    assert router.match("/users/42").variables == {"id": "42"}
    assert router.match("/users/me/posts").template == "/users/me/posts"
    assert router.match("/users/42/posts/7").variables == {"id": "42", "post": "7"}
    assert router.match("/other/thing").template == "{+anything}"
    found = router.match("/users/42")
    assert found is not None and found.index == 0
    assert len(router) == 5 and router.templates[1] == "/users/me"


def test_router_among_equals_the_first_added_wins() -> None:
    assert Router(["/a/{x}", "/a/{y}"]).match("/a/1").variables == {"x": "1"}
    assert Router(["/a/{y}", "/a/{x}"]).match("/a/1").variables == {"y": "1"}


def test_router_goes_on_past_a_template_whose_values_fail() -> None:
    router = Router(["/a/{x}/b", "/a/{x}{?q}"])
    assert router.match("/a/1/b").index == 0
    assert router.match("/a/1?q=2").variables == {"x": "1", "q": "2"}
    assert router.match("/a/../b") is None  # refused by both, for their values
    assert router.match("/a/%FF/b") is None


def test_router_agrees_with_each_template() -> None:
    templates = [
        "/", "/a", "/a/", "/a/{x}", "/a/{x}/", "/a/{x}/{y}", "/a{/x*}", "/a{?q,r}",
        "/a/{x}{?q}", "/b/{+rest}", "/b/{x}.json", "{/p,q}", "/c{;k*}", "/d{#f}",
        "/a/b", "/a/b{.ext}", "http://h/{x}", "/a/%41", "/caf\u00e9/{x}",
    ]  # fmt: skip
    router = Router(templates)
    uris = [
        "/", "/a", "/a/", "/a/1", "/a/1/", "/a/1/2", "/a/1/2/3", "/a?q=1", "/a?r=2",
        "/a/1?q=x", "/b/x/y/z", "/b/x.json", "/p", "/p/q", "/c;k=1;j", "/d#x", "/a/b",
        "/a/b.c", "http://h/x", "/a/%41", "/caf%C3%A9/x", "/x/y", "", "/b/", "/a/b.c.d",
    ]  # fmt: skip
    for uri in uris:
        expected = None
        best = None
        for index, template in enumerate(templates):
            variables = URITemplate(template).match(uri)
            if variables is None:
                continue
            parts = URITemplate(template).parts
            literal = sum(len(p.expansion) for p in parts if isinstance(p, Literal))
            if best is None or literal > best:
                best, expected = literal, (index, variables)
        found = router.match(uri)
        assert (None if found is None else (found.index, found.variables)) == expected, uri


def test_compiled_router_is_plain_data() -> None:
    router = Router(["/users/{id}", "/users/me", "/users/{id}/posts{?page}", "/files{/p*}"])
    compiled = router.compiled()

    def plain(value: object) -> bool:
        if isinstance(value, (str, int, bool, type(None))):
            return True
        if isinstance(value, (tuple, list)):
            return all(plain(v) for v in value)
        if isinstance(value, dict):
            return all(plain(k) and plain(v) for k, v in value.items())
        return False

    assert plain(tuple(compiled))
    assert compiled.templates == tuple(str(t) for t in router.templates)
    assert compiled.order == (2, 1, 0, 3)
    assert json.loads(json.dumps(compiled.tokens))  # JSON-ready
    edges, regions, tails, ends = compiled.nodes[0]
    assert list(edges) == ["/"] and not regions and not tails and not ends
    assert compiled.tokens[0] == (
        ("literal", "/users/"),
        ("expression", "", (("id", None, False),), compiled.tokens[0][1][3]),
    )
    first, body = compiled.shapes[compiled.tokens[0][1][3]]
    assert first == "" and "/" not in body and "%" in body
    assert _walk(compiled, "/users/me") == [1, 0]
    assert _walk(compiled, "/users/7/posts") == [2]
    assert _walk(compiled, "/files/a/b") == [3]


def _walk(compiled: Any, uri: str) -> list[int]:
    """The candidates of ``uri``, found from the plain data alone."""
    import re

    found: list[int] = []
    stack = [(0, 0)]
    while stack:
        k, pos = stack.pop()
        edges, regions, tails, ends = compiled.nodes[k]
        if pos == len(uri):
            found += ends
        edge = edges.get(uri[pos : pos + 1])
        if edge and uri.startswith(edge[0], pos):
            stack.append((edge[1], pos + len(edge[0])))
        for shape, child in regions:
            first, body = compiled.shapes[shape]
            end = pos
            if not first or uri.startswith(first, pos):
                end = pos + len(first)
                while end < len(uri) and uri[end] in body:
                    end += 1
            stack.append((child, end))
        for shape, suffix, templates in tails:
            first, body = compiled.shapes[shape]
            stop = len(uri) - len(suffix)
            middle = uri[pos:stop] if stop >= pos and uri.endswith(suffix, pos) else None
            klass = "".join(re.escape(c) for c in body)
            if middle is not None and re.fullmatch(
                f"(?:{re.escape(first)}[{klass}]*)?" if first else f"[{klass}]*", middle
            ):
                found += templates
    return sorted(found, key=compiled.order.index)


def test_router_refuses_bad_templates_and_arguments() -> None:
    router = Router()
    with pytest.raises(TemplateError):
        router.add("{")
    with pytest.raises(TemplateError):
        router.add("{a}{b}")
    assert len(router) == 0
    with pytest.raises(TypeError):
        router.match(b"/x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        URITemplate("{x}").match(None)  # type: ignore[arg-type]


# --- linear time on hostile input -------------------------------------------------------------

HOSTILE = [
    ("{/a}{;b*}{?c,d}!", lambda n: "/x" + ";y" * n + "?c=1" + "&d" * n),
    ("{a}/{b}/{c}/{d}x", lambda n: "a/" * n),
    ("{+path}/edit", lambda n: "/edit" * n + "/edix"),
    ("{?a,b,c}", lambda n: "?" + "a=1&" * n + "z"),
    ("{x}.txt", lambda n: "." * n),
    ("/{x}/{x}", lambda n: "/" + "a" * n + "/" + "a" * (n - 1) + "b"),
    ("{/p*}", lambda n: "/.." * n),
    ("{;k*}", lambda n: ";a=" * n),
    ("{+p}", lambda n: "%2E%2" * n),
    ("{x}", lambda n: "%E2%82" * n),
]


@pytest.mark.parametrize(("template", "make"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_match_is_linear(template: str, make: Any) -> None:
    t = URITemplate(template)
    assert_linear(lambda n: make(n // 4), t.match, size=200_000)


def test_router_is_linear() -> None:
    router = Router([f"/r{i}/{{a}}/{{b}}{{?q}}" for i in range(50)] + ["{/p*}", "{+rest}"])
    assert_linear(lambda n: "/r1/" + "a" * n + "/b?q=" + "c" * n, router.match, size=200_000)
    assert_linear(lambda n: "/x" * n, router.match, size=200_000)


def test_parse_is_linear() -> None:
    assert_linear(lambda n: "{/a" + ",a" * n + "}", URITemplate, size=200_000)
    assert_linear(lambda n: "a" * n + "{", lambda t: _raises(t), size=200_000)


def _raises(template: str) -> None:
    with pytest.raises(TemplateError):
        URITemplate(template)


# --- an expansion is a URI reference ------------------------------------------------------


def test_expansions_of_the_rfc_examples_are_uri_references() -> None:
    for rows in SECTION_3_2.values():
        for template, _ in rows:
            uri = URITemplate(template).expand(SECTION_3_2_VALUES)
            assert is_valid(uri, "URI-reference"), template
