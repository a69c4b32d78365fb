"""The laws of URI Templates (RFC 6570), as Hypothesis properties.

* **Round trip**: for a template that matching accepts and values in the form
  matching gives back, ``match(expand(t, v)) == v``.
* **Soundness**: for a matchable template whose variables each appear once, any
  values: the expansion matches, and the values it gives expand to the same URI;
  for any template and any text, a match is values that expand to that text, up to
  the equivalences of percent-encoding (RFC 3986 §6.2.2.1, §6.2.2.2).
* **Validity**: the expansion of a template whose literals stand where a URI
  reference allows them (RFC 3986 §3) is a URI reference, ``urikit.is_valid``.
* **Partial**: ``t.partial(g).expand(r) == t.expand(g | r)``.
* **Robustness**: for any ``str`` template and any values of the accepted types,
  nothing but ``TemplateError`` escapes (``TypeError`` only for other types).
* **Fast path**: the compiled steps of ``urikit.template.fast`` give what the
  readable §3.2.1 (``expand_expression``) gives, errors included.
"""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from urikit import is_valid
from urikit.template import Router, TemplateError, URITemplate
from urikit.template.matching import bind

OPERATORS = ["", "+", "#", ".", "/", ";", "?", "&"]
U_OPERATORS = ["", ".", "/", ";", "?", "&"]

#: Text for values: every kind of character a value can hold, the delimiters of
#: the URI, of the operators and of the triplets among them.
VALUE_TEXT = st.text(
    st.one_of(
        st.sampled_from("abcXYZ019-._~:/?#[]@!$&'()*+,;=% "),
        st.characters(exclude_categories=("Cs",)),
    ),
    max_size=8,
)
#: Any text at all, lone surrogates included.
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=12)
SCALARS = st.one_of(VALUE_TEXT, st.integers(-(10**6), 10**6), st.booleans(), st.floats())
ANY_VALUE = st.one_of(
    st.none(),
    SCALARS,
    st.lists(st.one_of(st.none(), SCALARS), max_size=4),
    st.dictionaries(
        st.one_of(VALUE_TEXT, st.integers()), st.one_of(st.none(), SCALARS), max_size=4
    ),
)


@st.composite
def varspecs(draw: st.DrawFn, name: str) -> str:
    modifier = draw(st.sampled_from(["", "", "*", ":1", ":3", ":10"]))
    return name + modifier


@st.composite
def templates(draw: st.DrawFn, names: tuple[str, ...] = ("a", "b", "c", "d.e", "f%20")) -> str:
    """Any template of the grammar of §2, literals included."""
    out = []
    for _ in range(draw(st.integers(0, 4))):
        out.append(draw(st.text(st.sampled_from("ab/.?&=;,!$@:~-%20é'"), max_size=4)))
        op = draw(st.sampled_from(OPERATORS))
        specs = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
        out.append("{" + op + ",".join(draw(varspecs(n)) for n in specs) + "}")
    out.append(draw(st.text(st.sampled_from("ab/#?"), max_size=3)))
    text = "".join(out)
    try:
        URITemplate(text)
    except TemplateError:
        assume(False)  # a "%" that the literal alphabet cut short
    return text


# --- robustness, and the fast path against the readable one -----------------------------


def _outcome(action: Any) -> tuple[str, object]:
    try:
        return "value", action()
    except TemplateError as error:
        return "TemplateError", (error.reason, error.position, error.rule)


@given(text=ANY_TEXT)
def test_any_text_is_a_template_or_a_template_error(text: str) -> None:
    try:
        t = URITemplate(text)
    except TemplateError as error:
        assert error.position is not None and 0 <= error.position <= len(text)
        assert error.text == text and error.rule
        return
    assert str(t) == text
    assert t.expand() == t._expand_plainly()


@given(text=templates(), values=st.dictionaries(st.sampled_from(["a", "b", "c", "d.e", "f%20"]),
                                                 ANY_VALUE))  # fmt: skip
def test_only_template_errors_and_the_fast_path_agrees(text: str, values: dict[str, Any]) -> None:
    t = URITemplate(text)
    fast = _outcome(lambda: t.expand(values))
    plain = _outcome(lambda: t._expand_plainly(values))
    assert fast == plain
    _outcome(lambda: t.partial(values))
    for uri in (fast[1] if fast[0] == "value" else "", text):
        assert isinstance(uri, str)
        _outcome(lambda uri=uri: t.match(uri))  # type: ignore[misc]
    _outcome(lambda: Router([t]).match(text))


#: Text made of what expansions write: the delimiters of every operator, the names of
#: the drawn templates, triplets in both cases of hex, and any character.
URI_TEXT = st.lists(
    st.one_of(
        st.sampled_from("ab/.?&=;,!$@:~-#+ "),
        st.sampled_from(["a=", "b=1", "c", "d.e", "f%20", "%41", "%2c", "%2C", "%3D", "%25"]),
        st.sampled_from(["%c3%a9", "%C3%A9", "%FF", "%2E%2E", "%", "\u00e9"]),
        st.characters(exclude_categories=()),
    ),
    max_size=10,
).map("".join)

_TRIPLET = re.compile("%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")


def _normal(text: str) -> str:
    """RFC 3986 §6.2.2.1 (hex digits in upper case) and §6.2.2.2 (a triplet of an
    unreserved character is the character), transcribed."""

    def one(m: re.Match[str]) -> str:
        ch = chr(int(m.group()[1:], 16))
        return ch if ch in _UNRESERVED else m.group().upper()

    return _TRIPLET.sub(one, text)


@given(text=templates(), uri=st.one_of(ANY_TEXT, URI_TEXT), allow=st.booleans())
def test_match_of_any_text_is_values_none_or_a_template_error(
    text: str, uri: str, allow: bool
) -> None:
    """Any text matches as None, a TemplateError, or values that the template expands
    to that text, up to the equivalences of percent-encoding (RFC 3986 §6.2.2.1,
    §6.2.2.2): matching never gives values from which the template writes another URI."""
    t = URITemplate(text)
    try:
        found = t.match(uri, allow_dot_segments=allow)
    except TemplateError as error:
        assert error.rule in ("expression", "prefix", "explode")
        with pytest.raises(TemplateError):
            Router([t])
        return
    routed = Router([t], allow_dot_segments=allow).match(uri)
    assert (None if routed is None else routed.variables) == found
    if found is not None:
        assert _normal(t.expand(found)) == _normal(uri), (found, t.expand(found))


# --- partial then expand equals expand --------------------------------------------------------


@given(
    text=templates(),
    values=st.dictionaries(st.sampled_from(["a", "b", "c", "d.e", "f%20"]), ANY_VALUE),
    given_names=st.sets(st.sampled_from(["a", "b", "c", "d.e", "f%20"])),
)
def test_partial_then_expand_is_expand(
    text: str, values: dict[str, Any], given_names: set[str]
) -> None:
    t = URITemplate(text)
    everything = _outcome(lambda: t.expand(values))
    assume(everything[0] == "value")
    given_values = {name: values.get(name) for name in given_names}
    rest = {name: value for name, value in values.items() if name not in given_names}
    try:
        partial = t.partial(given_values)
    except TemplateError as error:
        assert error.rule in ("variable-list", "prefix")
        return
    assert set(partial.variables) <= set(t.variables) - given_names
    assert partial.expand(rest) == everything[1]


# --- round trip and soundness -----------------------------------------------------------------

#: Characters that begin no U expansion's body: a literal after an expression that
#: begins with one of them leaves no doubt where the expression ends.
DELIMITERS = "!$@()*+:'"


@st.composite
def matchable(draw: st.DrawFn) -> tuple[URITemplate, list[tuple[str, str, bool, int, int]]]:
    """A template that matching accepts, each variable once: (template, [(operator,
    name, explode, place in its expression, variables in its expression), ...])."""
    out = [draw(st.text(st.sampled_from("ab/"), max_size=3))]
    specs: list[tuple[str, str, bool, int, int]] = []
    count = draw(st.integers(1, 4))
    for k in range(count):
        op = draw(st.sampled_from(OPERATORS if k == count - 1 else U_OPERATORS))
        width = draw(st.integers(1, 3))
        names = [f"v{len(specs) + i}" for i in range(width)]
        exploded = [draw(st.booleans()) for _ in names]
        for i, name in enumerate(names):
            specs.append((op, name, exploded[i], i, width))
        out.append(
            "{"
            + op
            + ",".join(n + ("*" if x else "") for n, x in zip(names, exploded, strict=True))
            + "}"
        )
        if k < count - 1 or draw(st.booleans()):
            out.append(draw(st.sampled_from(DELIMITERS)) + draw(st.text("ab/", max_size=2)))
    t = URITemplate("".join(out))
    try:
        t.matcher  # noqa: B018
    except TemplateError:
        assume(False)
    return t, specs


def _canonical(draw: st.DrawFn, op: str, name: str, explode: bool, i: int, width: int) -> Any:
    """A value in the form matching gives back for this varspec (docs/templates.md)."""
    text = VALUE_TEXT
    if op == ".":
        text = text.map(lambda s: s.replace(".", ""))  # a value holds no separator
    if op in "+#" and op:
        text = text.map(lambda s: s.replace("%", ""))
        if width > 1:
            text = text.map(lambda s: s.replace(",", ""))
    if not explode:
        return draw(text)
    if op in "+#" and op:
        members = draw(st.lists(text.map(lambda s: s.replace(",", "")), min_size=1, max_size=3))
        if op == "+":
            assume(members != [""])  # "" reads back as the empty string
        return members
    if draw(st.booleans()):
        members = draw(st.lists(text, min_size=1, max_size=3))
        if not op:
            assume(members != [""])  # "" reads back as the empty string
        return members
    keys = text.filter(lambda k: k != name)  # one key named as the variable reads as a list
    pairs = draw(st.dictionaries(keys, text, min_size=1, max_size=3))
    assume(any(pairs.values()))  # pairs without values read back as a list of names
    return pairs


@given(data=st.data())
def test_round_trip(data: st.DataObject) -> None:
    t, specs = data.draw(matchable())
    values = {name: _canonical(data.draw, op, name, x, i, w) for op, name, x, i, w in specs}
    uri = t.expand(values)
    assert t.match(uri, allow_dot_segments=True) == values
    assert Router([t], allow_dot_segments=True).match(uri).variables == values  # type: ignore[union-attr]


def _texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [str(k) for k in value] + [str(v) for v in value.values()]
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)]


#: A value with no "." in it: a label expression with several variables ({.a,b})
#: splits its text at every "." (docs/templates.md), so values with dots may not
#: read back there.
NO_DOTS = ANY_VALUE.filter(lambda v: not any("." in text for text in _texts(v)))


@given(data=st.data())
def test_soundness(data: st.DataObject) -> None:
    t, specs = data.draw(matchable())
    values = {}
    for op, name, _, place, width in specs:
        if op == "." and width > 1:
            values[name] = data.draw(NO_DOTS)
        elif op in ("", "+", "#") and place < width - 1:
            # "," both separates the values and joins a list's members: each
            # variable but the last takes one value (docs/templates.md)
            values[name] = data.draw(st.one_of(st.none(), SCALARS))
        else:
            values[name] = data.draw(ANY_VALUE)
    try:
        uri = t.expand(values)
    except TemplateError:
        return  # a lone surrogate; a prefix of a composite value
    found = t.match(uri, allow_dot_segments=True)
    assert found is not None, uri
    assert t.expand(found) == uri


@given(data=st.data())
def test_safe_matches_hold_no_dot_segment(data: st.DataObject) -> None:
    t, specs = data.draw(matchable())
    values = {name: data.draw(ANY_VALUE) for _, name, _, _, _ in specs}
    try:
        uri = t.expand(values)
    except TemplateError:
        return
    found = t.match(uri)
    if found is None:
        return
    for value in found.values():
        for text in value if isinstance(value, list) else [value] if isinstance(value, str) else [
            *value.keys(), *value.values()
        ]:  # fmt: skip
            segments = text.replace("\\", "/").split("/")
            assert "\x00" not in text and "." not in segments and ".." not in segments


# --- the expansion of a template with valid literals is a URI reference ----------------------

PCHAR_LITERALS = "abz019-._~!$&'()*+,;=@"
QUERY_LITERALS = PCHAR_LITERALS + "/?"


@st.composite
def uri_shaped(draw: st.DrawFn) -> str:
    """A template whose literals stand where a URI reference allows them: an optional
    scheme and authority, a path of segments and path expressions, a query of
    literal pairs and query expressions, an optional fragment."""
    start = draw(st.sampled_from(["", "http://example.com", "urn:x:", "//h"]))
    out = [start]
    n = 0

    def expr(ops: list[str]) -> str:
        nonlocal n
        op = draw(st.sampled_from(ops))
        width = draw(st.integers(1, 3))
        specs = []
        for _ in range(width):
            n += 1
            specs.append(f"v{n}" + draw(st.sampled_from(["", "*", ":2"])))
        return "{" + op + ",".join(specs) + "}"

    for _ in range(draw(st.integers(0, 3))):
        # after an authority the path begins with "/" (RFC 3986 §3.3)
        out.append("/" if "//" in start else draw(st.sampled_from(["/", ""])))
        out.append(draw(st.text(st.sampled_from(PCHAR_LITERALS), max_size=3)))
        if draw(st.booleans()):
            out.append(expr(["", "/", ".", ";"]))
    if draw(st.booleans()):
        out.append(draw(st.sampled_from(["?", "?a=1"])) + expr(["&"]))
    elif draw(st.booleans()):
        out.append(expr(["?"]) + draw(st.sampled_from(["", "{&x}"])))
    if draw(st.booleans()):
        out.append(draw(st.sampled_from(["{#", "#{", "#{/", "#a{."])) + expr([""])[1:])
    return "".join(out)


#: Values of reserved expansions must not hold what their place forbids (a second
#: "#", brackets outside a host, a ":" in the first segment of a relative path).
RESERVED_SAFE = VALUE_TEXT.map(lambda s: s.translate({ord(c): None for c in "#[]:"}))


@given(text=uri_shaped(), data=st.data())
def test_an_expansion_is_a_uri_reference(text: str, data: st.DataObject) -> None:
    t = URITemplate(text)
    values = {}
    for name in t.variables:
        values[name] = data.draw(
            st.one_of(
                st.none(),
                RESERVED_SAFE,
                st.lists(RESERVED_SAFE, max_size=3),
                st.dictionaries(RESERVED_SAFE, RESERVED_SAFE, max_size=3),
            )
        )
    try:
        uri = t.expand(values)
    except TemplateError as error:
        assert error.rule == "prefix"  # a prefix of a composite value (§2.4.1)
        return
    assert is_valid(uri, "URI-reference"), (text, values, uri)


# --- the matcher's readers against the readable bind --------------------------------------


@given(data=st.data(), allow=st.booleans())
def test_the_readers_agree_with_bind(data: st.DataObject, allow: bool) -> None:
    t, specs = data.draw(matchable())
    values = {name: data.draw(ANY_VALUE) for _, name, _, _, _ in specs}
    try:
        uri = t.expand(values)
    except TemplateError:
        uri = ""
    candidates = [uri, data.draw(st.text(st.sampled_from("ab/.?&=,;!$@:%2E#+*"), max_size=12))]
    matcher = t.matcher
    assert matcher.readers is not None  # each variable once, no prefix
    for text in candidates:
        found = matcher.regions(text)
        if found is None:
            continue
        assert matcher.bind(found, allow) == bind(matcher.expressions, found, allow)
