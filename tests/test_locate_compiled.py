"""The compiled locator (``_speedups.locate``, ``_c/locate.c``) against the reference,
``urikit.diagnose.locate``: the same position, rule and reason for every text that is not
a URI-reference or IRI-reference (RFC 3986 §4.1, RFC 3987 §2.2), and ``None`` for every
text that is one.

The inputs: a text reaching every state of the generated automata followed by a
character of every class; Hypothesis-generated near-valid and arbitrary text; random
mutations of the real URLs of bench/urls.txt; non-ASCII text for both grammars; and the
hostile inputs of test_hostile.
"""

from __future__ import annotations

import os
import pickle
import random
from collections import deque
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import authority_text, grammar_text, iri_references, uri_references
from test_hostile import HOSTILE
from test_speedups import mutate

from urikit import IRI, URI, URIError, diagnose
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR, Grammar
from urikit.validate import check

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("URIKIT_REQUIRE_EXTENSION") == "1"

try:
    from urikit import _speedups
except ImportError:  # pragma: no cover - the pure-Python install
    if REQUIRED:
        raise
    pytest.skip("urikit._speedups is not built", allow_module_level=True)

GRAMMARS: dict[bool, tuple[Grammar, str]] = {
    False: (URI_GRAMMAR, "URI-reference"),
    True: (IRI_GRAMMAR, "IRI-reference"),
}
BIDI = "\u061c\u200e\u200f\u202a\u202e\u2066\u2069"
WIDE = ["é", "\xa0", "\ue000", "\ufff0", "\U000f0000", "\U00010000", "\ud800", "例", *BIDI]


def _outcome(error: URIError | None) -> tuple[object, ...] | None:
    if error is None:
        return None
    assert type(error) is URIError
    return (error.position, error.rule, error.reason, error.text, error.args)


def _assert_same(text: str, iri: bool) -> None:
    """The compiled locator says what diagnose.locate says."""
    grammar, rule = GRAMMARS[iri]
    valid = grammar.reference.fullmatch(text) is not None
    expected = None if valid else _outcome(diagnose.locate(text, grammar, rule))
    assert _outcome(_speedups.locate(text, iri)) == expected, (text, iri)


def _both(text: str) -> None:
    _assert_same(text, False)
    _assert_same(text, True)


# --- every state, every class -------------------------------------------------------------


def _samples(letters: diagnose.Alphabet) -> dict[int, str]:
    """A character of each class: printable ASCII where the class has one."""
    sample = {}
    for start, k in zip(letters.starts, letters.ids, strict=True):
        sample.setdefault(k, chr(start))
    for c in map(chr, range(0x20, 0x7F)):
        sample[letters.class_of(c)] = c
    return sample


def _witnesses(machine: diagnose.Automaton) -> list[str]:
    """A shortest text reaching each row of ``machine``."""
    sample = _samples(machine.letters)
    machine.rows()
    found = {id(machine.start): ""}
    todo = deque([machine.start])
    while todo:
        row = todo.popleft()
        for name, nxt in row.items():
            if id(nxt) not in found:
                found[id(nxt)] = found[id(row)] + sample[ord(name)]
                todo.append(nxt)
    return list(found.values())


@pytest.mark.parametrize("iri", [False, True])
@pytest.mark.parametrize("userinfo", [True, False])
def test_every_state_and_every_class(iri: bool, userinfo: bool) -> None:
    grammar, rule = GRAMMARS[iri]
    machine = diagnose.automaton(grammar, rule, userinfo=userinfo)
    # every class, and a control beside a non-ASCII character of its class (RFC 3986 §2)
    chars = [*_samples(machine.letters).values(), "\x00", "\x80"]
    witnesses = _witnesses(machine)
    assert len(witnesses) == len(machine._rows)
    for prefix in witnesses:
        _assert_same(prefix, iri)
        for c in chars:
            _assert_same(prefix + c, iri)


# --- generated, real and hostile input --------------------------------------------------------


def _near_valid() -> st.SearchStrategy[str]:
    """Valid references with a few characters spliced in."""
    return st.builds(
        lambda text, at, insert: text[: min(at, len(text))] + insert + text[min(at, len(text)) :],
        uri_references() | iri_references(),
        st.integers(0, 60),
        grammar_text(max_size=3) | st.lists(st.sampled_from(WIDE), max_size=2).map("".join),
    )


@given(grammar_text() | authority_text() | _near_valid())
@example("http://example.com:80a/")
@example("http://h:80a@x:y/")
@example("//a:b@")
@example("1a:b")
@example("http://Bücher.example/")
@example("http://a/\u05d0\u200eb")
@example("http://[::1%25]")
def test_generated_text(text: str) -> None:
    _both(text)


@given(st.text(st.characters(exclude_categories=()), max_size=30))
def test_arbitrary_text(text: str) -> None:
    _both(text)


@given(
    st.lists(st.sampled_from([*WIDE, "%", "[", ":", "@", "/", "//", "a", "?", "#"]), max_size=12)
)
def test_non_ascii_text(pieces: list[str]) -> None:
    _both("".join(pieces))
    _both("http://" + "".join(pieces))


def test_mutations_of_the_corpus() -> None:
    lines = (ROOT / "bench" / "urls.txt").read_text(encoding="utf-8").splitlines()
    rng = random.Random(3986)
    for line in lines:
        _both(line)
        _both(mutate(line, rng, rng.randrange(1, 4)))
        wide = rng.choice(WIDE)
        at = rng.randrange(len(line) + 1)
        _both(line[:at] + wide + line[at:])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input(name: str) -> None:
    for size in (7, 600, 20_000):
        _both(HOSTILE[name](size))


# --- the value type and check() raise it ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "iri"),
    [("a b", False), ("http://example.com:80a/", False), ("http://é/", False), ("x y", True)],
)
def test_the_error_raised_is_the_reference_error(text: str, iri: bool) -> None:
    grammar, rule = GRAMMARS[iri]
    expected = _outcome(diagnose.locate(text, grammar, rule))
    for call in (lambda: (IRI if iri else URI)(text), lambda: check(text, rule)):
        with pytest.raises(URIError) as info:
            call()
        assert _outcome(info.value) == expected
        again = pickle.loads(pickle.dumps(info.value))
        assert _outcome(again) == expected and str(again) == str(info.value)


def test_a_built_error_is_an_ordinary_uri_error() -> None:
    error = _speedups.locate("http://a b", False)
    assert isinstance(error, URIError) and isinstance(error, ValueError)
    assert error.args == (error.reason,) and error.__traceback__ is None
    assert str(error).startswith("U+0020 at position 8 in host: ")
    error.note = "more"  # an instance still takes attributes of its own
    assert error.note == "more"
    assert _speedups.locate("http://a/b", False) is None
    assert _speedups.locate("http://\u00e9/", True) is None
    with pytest.raises(TypeError):
        _speedups.locate(b"a b", False)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _speedups.locate("a b", 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("direct", [False, True])
def test_a_subclass_with_another_rule_keeps_its_refuse(direct: bool) -> None:
    """The compiled core raises its error only for the reference rule of the grammar,
    whether the class is called through type.__call__ or its own vectorcall."""

    class Absolute(URI):
        __slots__ = ()
        _rule = "absolute-URI"

        @classmethod
        def _refuse(cls, text: str) -> None:
            raise diagnose.locate(text, URI_GRAMMAR, "absolute-URI")

    class Reference(URI):
        __slots__ = ()

    if direct:
        Absolute._construct_directly()
        Reference._construct_directly()
    with pytest.raises(URIError) as info:
        Absolute("a b")
    expected = _outcome(diagnose.locate("a b", URI_GRAMMAR, "absolute-URI"))
    assert _outcome(info.value) == expected
    with pytest.raises(URIError) as info:
        Reference("http://a b")
    assert _outcome(info.value) == _outcome(diagnose.locate("http://a b", URI_GRAMMAR, URI._rule))
