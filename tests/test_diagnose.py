"""The automaton of ``urikit.diagnose`` and the regular expressions of ``urikit.grammar``:
both are derived from the same rule expressions, so they must agree on every rule.

Positions are checked against the independent ABNF transcription (``abnf_oracle``)
in ``test_errors.py``; here the two derivations are held together, and the
reasons are checked against what the grammar allows.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import abnf_oracle as oracle
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import grammar_text, iri_references, uri_references
from test_hostile import HOSTILE

from urikit import IRI, URI, URIError
from urikit.diagnose import PARTS, automaton, locate
from urikit.grammar import BIDI_FORMATTING, RULES, URI_GRAMMAR, Grammar
from urikit.validate import check

RULE_NAMES = sorted(RULES)
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _agree(text: str, rule: str) -> None:
    grammar = RULES[rule]
    by_regex = grammar.rule(rule).fullmatch(text) is not None
    assert automaton(grammar, rule).accepts(text) == by_regex, (rule, text)
    if not by_regex:
        error = locate(text, grammar, rule)
        assert error.position is not None and 0 <= error.position <= len(text)
        assert error.rule in RULES, error.rule


def _near_valid() -> st.SearchStrategy[str]:
    """Valid references with a few characters spliced in."""
    return st.builds(
        lambda text, at, insert: text[: min(at, len(text))] + insert + text[min(at, len(text)) :],
        uri_references() | iri_references(),
        st.integers(0, 40),
        grammar_text(max_size=3) | st.sampled_from([*BIDI, "\ue000", "\ud800", "\xa0"]),
    )


@given(st.sampled_from(RULE_NAMES), grammar_text(max_size=16) | _near_valid())
@example("URI-reference", "http://[::1%25]")
@example("IRI-reference", "http://a/\u05d0\u200eb")
def test_regex_and_automaton_agree(rule: str, text: str) -> None:
    _agree(text, rule)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_regex_and_automaton_agree_on_hostile_input(name: str) -> None:
    text = HOSTILE[name](600)
    for rule in RULE_NAMES:
        _agree(text, rule)
        _agree(text[:7], rule)


@pytest.mark.parametrize("rule", RULE_NAMES)
def test_every_rule_has_an_automaton_and_a_section(rule: str) -> None:
    grammar = RULES[rule]
    machine = automaton(grammar, rule)
    assert machine.accepts("") == (grammar.rule(rule).fullmatch("") is not None)
    assert re.search(r"RFC \d+ (§|Appendix )", grammar.definitions[rule].section)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_walk_builds_a_table_that_does_not_grow_with_the_input(name: str) -> None:
    """One table lookup per character: a longer input reaches no new states."""
    machine = automaton(URI_GRAMMAR, "URI-reference")
    machine.walk(HOSTILE[name](3_000))
    rows = len(machine._rows)
    position, _ = machine.walk(HOSTILE[name](30_000))
    assert len(machine._rows) == rows
    assert position == oracle.viable_prefix(HOSTILE[name](30_000)[: position + 1])


# --- the rule and the reason ----------------------------------------------------------------


def _example_char(label: str, grammar: Grammar) -> str | None:
    """A character that the label of a reason stands for (``None``: an ABNF range)."""
    if label.startswith('"'):
        return label[1]
    if label in grammar.rule_names:
        pattern = grammar.rule(label)
        return next((c for c in map(chr, range(0x21, 0x7F)) if pattern.fullmatch(c)), None)
    return None


@given(grammar_text() | _near_valid())
@example("http://a b")
@example("http://[::1/x")
@example("//a:1@b:c")
def test_what_the_reason_expects_does_continue(text: str) -> None:
    """Each character the reason lists makes the prefix one character longer (§4.1)."""
    try:
        URI(text)
    except URIError as error:
        assert error.position is not None
        found = re.search(r"expected (.*) \(RFC", error.reason)
        if found is None:
            return
        labels = re.split(r", | or ", found.group(1))
        assert error.rule not in PARTS or error.rule == "URI-reference"
        for label in labels:
            char = _example_char(label, URI_GRAMMAR)
            if char is None:
                continue
            prefix = text[: error.position] + char
            assert oracle.viable_prefix(prefix) == len(prefix), (text, label)


@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("http://a b", "host", ["unreserved", '"/"', '"?"', '"#"', "§3.2.2"]),
        ("http://[::1/x", "IPv6address", ["HEXDIG", '"]"', '"%25"']),
        ("http://u@h:80a/", "port", ["DIGIT", '"/"']),
        ("http://example.com:80a/", "port", ["DIGIT", '"/"', "§3.2.3"]),
        ("http://h/%4g", "segment", ["two hex digits", "§2.1"]),
        ("1a:b", "segment-nz-nc", ['"./"', "§4.2"]),
    ],
)
def test_rule_and_reason(text: str, rule: str, words: list[str]) -> None:
    with pytest.raises(URIError) as info:
        URI(text)
    assert info.value.rule == rule
    for word in words:
        assert word in info.value.reason, (word, info.value.reason)


# --- RFC 3987 §4.1 -----------------------------------------------------------------------------


@pytest.mark.parametrize("char", BIDI)
@pytest.mark.parametrize("rule", ["IRI-reference", "IRI", "ipath", "isegment", "iquery"])
def test_bidi_formatting_is_refused_where_it_stands(char: str, rule: str) -> None:
    text = {"IRI": "http://h/a", "IRI-reference": "//h/a"}.get(rule, "a") + char + "b"
    at = text.index(char)
    with pytest.raises(URIError) as info:
        check(text, rule)
    assert (info.value.position, info.value.rule) == (at, "ucschar")
    assert "RFC 3987 §4.1" in info.value.reason
    with pytest.raises(URIError) as info:
        IRI(text.replace("//", "s://", 1) if rule == "IRI-reference" else "s:" + text)
    assert info.value.rule == "ucschar"


@given(st.sampled_from(BIDI), iri_references(), st.integers(0, 30))
def test_bidi_position_is_the_character(char: str, iri: str, at: int) -> None:
    """A bidi character spliced into a valid IRI: the error is at it or before it."""
    at = min(at, len(iri))
    text = iri[:at] + char + iri[at:]
    with pytest.raises(URIError) as info:
        IRI(text)
    assert info.value.position is not None and info.value.position <= at
    if info.value.position == at and info.value.rule == "ucschar":
        assert re.fullmatch(f"[{BIDI_FORMATTING}]", text[at])


def test_the_automaton_is_built_on_first_failure_not_at_import() -> None:
    """On the pure path; the compiled core locates errors without it."""
    code = (
        "import urikit, urikit.diagnose as d\n"
        "urikit.URI('http://a/b')\n"
        "assert not d._AUTOMATA and d.alphabet.cache_info().currsize == 0\n"
        "try:\n    urikit.URI('a b')\nexcept urikit.URIError:\n    pass\n"
        "first = [] if urikit.compiled else [('RFC 3986', 'URI-reference', True)]\n"
        "assert list(d._AUTOMATA) == first\n"
        "try:\n    urikit.URI('http://h:8x')\nexcept urikit.URIError:\n    pass\n"
        "assert len(d._AUTOMATA) == (0 if urikit.compiled else 2)\n"
    )
    for switched_off in ("", "1"):
        env = {**os.environ, "URIKIT_NO_EXTENSIONS": switched_off}
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
