"""The compiled core and pure Python, side by side: the same answers for every input.

Two copies of urikit are loaded next to the one under test (``backends.py``): one with
``URIKIT_NO_EXTENSIONS=1`` (its references are stored by ``_store.PureStore`` over the
grammar's ``re.Match``, the reference implementation) and one without (stored by
``_speedups.Reference``).  Every observation below (validity; components, spans and
derived properties; the error's position, rule and message; resolution both ways;
normalization; pickling) must be the same on both, for generated references, the real
URLs of ``bench/urls.txt`` and random mutations of them.

Without the extension the differential tests skip, unless ``URIKIT_REQUIRE_EXTENSION=1``
is set; then they fail, as does ``test_the_extension_is_used``.
"""

from __future__ import annotations

import gc
import inspect
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from backends import COMPILED, PURE, REQUIRED, needs_extension
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import authority_text, grammar_text, iri_references, uri_references
from test_speedups import MUTATION_ALPHABET, mutate

import urikit
from urikit import _seam, _store

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(urikit.__file__).resolve().parent
URLS = ROOT / "bench" / "urls.txt"
SWITCHED_OFF = os.environ.get("URIKIT_NO_EXTENSIONS", "") not in ("", "0")

COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
BASES = (
    "http://a/b/c/d;p?q",
    "http://u:pw@example.com:8080/a/./b/../c/%7euser?x=1#top",
    "foo:opaque/path",
    "file:///etc/hosts",
    "http://a",
)
REFERENCES = ("g", "../g", "./g/.", "?y", "#s", "//h/p", "/x/../y", "", "..", "g:h", "%7E")


# --- the switch and the flag --------------------------------------------------------------


def test_the_flag_says_which_store() -> None:
    assert isinstance(urikit.compiled, bool)
    assert "compiled" in urikit.__all__
    assert PURE.compiled is False
    assert PURE.URI.__mro__[2] is PURE._store.PureStore
    expected = COMPILED._store.PureStore if not COMPILED.compiled else COMPILED._speedups.Reference
    assert COMPILED.URI.__mro__[2] is expected
    assert urikit.compiled is (_seam.Store is not _store.PureStore)


def test_the_extension_is_used() -> None:
    """With URIKIT_REQUIRE_EXTENSION=1 the compiled core must be loaded (and used, unless
    URIKIT_NO_EXTENSIONS switches it off for this run)."""
    if REQUIRED:
        assert COMPILED.compiled, "URIKIT_REQUIRE_EXTENSION=1 but urikit._speedups did not load"
    # Whatever the run: the flag says the truth about the store in use.
    assert urikit.compiled == (COMPILED.compiled and not SWITCHED_OFF)
    assert (type(urikit.URI("a:b")).__mro__[-2].__module__ == "urikit._speedups") is (
        urikit.compiled
    )


def _run(code: str, switched_off: bool | str) -> str:
    """What ``code`` prints in a fresh interpreter, the switch set to "1" (``True``),
    unset (``False``) or to the value given."""
    env = {k: v for k, v in os.environ.items() if k != "URIKIT_NO_EXTENSIONS"}
    if switched_off is not False:
        env["URIKIT_NO_EXTENSIONS"] = "1" if switched_off is True else switched_off
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_environment_switch() -> None:
    """The one rule of the seam: URIKIT_NO_EXTENSIONS set to anything other than "" or
    "0" means pure Python."""
    code = "import urikit; print(urikit.compiled)"
    assert _run(code, switched_off=True) == "False"
    assert _run(code, switched_off=False) == str(COMPILED.compiled)
    for value in ("", "0"):
        assert _run(code, switched_off=value) == str(COMPILED.compiled), value
    for value in ("yes", "true", "00", " "):
        assert _run(code, switched_off=value) == "False", value


def test_version_names_the_core() -> None:
    code = "from urikit.cli import main; main(['--version'])"
    assert _run(code, switched_off=True) == "urikit 0.1.0 (pure Python)"
    core = "compiled core" if COMPILED.compiled else "pure Python"
    assert _run(code, switched_off=False) == f"urikit 0.1.0 ({core})"


# --- observations ---------------------------------------------------------------------------


def _outcome(action: Callable[[], Any]) -> Any:
    """What ``action`` gives, as plain data: a reference as its class name and text, an
    error as its type name, message, position and rule."""
    try:
        value = action()
    except (ValueError, TypeError) as error:
        return ("error", type(error).__name__, str(error), *_where(error))
    return _plain(value)


def _where(error: BaseException) -> tuple[Any, ...]:
    return (getattr(error, "position", None), getattr(error, "rule", None))


def _plain(value: Any) -> Any:
    if isinstance(value, (PURE.URI, PURE.IRI, COMPILED.URI, COMPILED.IRI)):
        return (type(value).__name__, str(value))
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


#: Queries put in place of a reference's own: valid, none, empty, and not queries.
REPLACED_QUERIES = (
    None,
    "",
    "a=1&b",
    "?/:@!$'()*+,;=%20",
    "x\u00e9",
    "\ue000",
    "a b",
    "#",
    "%2",
    "%",
)


def _parts_of(ref: Any) -> tuple[Any, ...]:
    """A reference's type, text and every component and span."""
    return (
        type(ref).__name__,
        ref._text,
        ref._groups(),
        tuple(ref._span(g) for g in range(9)),
    )


def _observe_reference(ref: Any) -> Iterator[tuple[str, Any]]:
    yield "str", str(ref)
    yield "repr", repr(ref)
    yield "hash", hash(ref) == hash(str(ref))
    for name in COMPONENTS:
        yield name, getattr(ref, name)
        yield f"span {name}", ref.span(name)
    yield "parts", tuple(ref.parts)
    for g in range(9):
        yield f"group {g}", (ref._group(g), ref._span(g))
    yield "groups", ref._groups()
    for name in (
        "kind", "is_absolute", "is_relative", "is_opaque", "host_type", "netloc",
        "hostname", "username", "password", "redacted",
    ):  # fmt: skip
        attribute = getattr(ref, name)
        yield name, _outcome(attribute if callable(attribute) else lambda a=attribute: a)
    yield "port_number", _outcome(lambda: ref.port_number)
    yield "origin", _outcome(lambda: ref.origin)
    yield "urlsplit", tuple(ref.to_urlsplit())
    yield "pickle", _plain(pickle.loads(pickle.dumps(ref)))
    yield "same", _plain(type(ref)(ref))
    yield "normalize syntax", _outcome(lambda: ref.normalize(level="syntax"))
    yield "normalize scheme", _outcome(lambda: ref.normalize())
    yield "with query", _outcome(lambda: ref.set_query_param("k", "v"))
    for query in REPLACED_QUERIES:
        replaced = ref._replace_query(query)
        yield f"_replace_query {query!r}", None if replaced is None else _parts_of(replaced)
    if ref.scheme is not None:
        for other in REFERENCES:
            yield f"resolve {other}", _outcome(lambda o=other: ref.resolve(o))
    for base in BASES:
        yield f"against {base}", _outcome(lambda b=base: type(ref)(b).resolve(ref))


#: The rules is_valid answers from one scan on the compiled path.
SCANNED_RULES = (
    "URI-reference", "URI", "absolute-URI", "relative-ref",
    "IRI-reference", "IRI", "absolute-IRI", "irelative-ref",
)  # fmt: skip


def observe(module: ModuleType, text: str) -> dict[str, Any]:
    """Everything both stores must agree on for ``text``, read through ``module``."""
    seen: dict[str, Any] = {}
    for cls in (module.URI, module.IRI):
        name = cls.__name__
        made = _outcome(lambda c=cls: c(text))
        seen[f"{name}()"] = made
        seen[f"{name}._parse"] = _outcome(lambda c=cls: c._parse(text))
        seen[f"{name}._scan"] = _plain(cls._scan(text))
        if made[0] == "error":
            continue
        for key, value in _observe_reference(cls(text)):
            seen[f"{name} {key}"] = value
    seen["is_valid"] = module.is_valid(text)
    for rule in (*SCANNED_RULES, "authority", "path", "IPv6address"):
        seen[f"is_valid {rule}"] = module.is_valid(text, rule)
    seen["is_valid rule="] = module.is_valid(text=text, rule="absolute-URI")
    seen["normalize()"] = _outcome(lambda: module.normalize(text))
    for base in BASES[:2]:
        seen[f"resolve({base})"] = _outcome(lambda b=base: module.resolve(b, text))
    seen["resolve(text, g)"] = _outcome(lambda: module.resolve(text, "g"))
    return seen


def check(text: str) -> None:
    pure, compiled = observe(PURE, text), observe(COMPILED, text)
    assert pure.keys() == compiled.keys(), text
    for key in pure:
        assert compiled[key] == pure[key], (text, key)


# --- differential: generated, real and mutated references -----------------------------------


@needs_extension
@pytest.mark.parametrize(
    "text",
    [
        "", "a:", "//", "?", "#", "http://user:pw@[fe80::1%25eth0]:0080/a/../b?q=1#f",
        "HTTP://Example.COM:80", "http://a b", "//a@b@c", "a:b:c", "b/c:d", "http://%41/",
        "http://r\u00e9sum\u00e9.example/?\ue000", "\u200e", "foo://[v1.x]/", "//h:",
        "http://h:99999999999999999999999/", "mailto:a@b", "urn:isbn:0451450523",
    ],
)  # fmt: skip
def test_cases(text: str) -> None:
    check(text)


@needs_extension
@given(uri_references())
def test_uri_references(text: str) -> None:
    check(text)


@needs_extension
@given(iri_references())
def test_iri_references(text: str) -> None:
    check(text)


@needs_extension
@given(grammar_text() | authority_text())
@example("http://a/b/c/g;x?y#s")
def test_near_references(text: str) -> None:
    check(text)


@needs_extension
@given(st.lists(st.sampled_from(MUTATION_ALPHABET), max_size=12).map("".join))
def test_delimiters_and_edges(text: str) -> None:
    check(text)


#: Ten triplets in both cases, as a lenient repair writes runs of them (RFC 3986 §2.1).
RUN = "%4A%e2%80%ae%20%7e%00%FF%c3%a9"


@needs_extension
@pytest.mark.parametrize(
    "fault",
    ["", "%", "%4", "%g1", "%1g", "%4:", "%/4", "%4G", "%@4", "%4`", "%4\u00e9", "x", "\u00e9",
     "/", "%%41", "#", " ", "@"],
)  # fmt: skip
def test_runs_of_triplets_broken_at_every_offset(fault: str) -> None:
    """A run of triplets, which the compiled scanner reads five at a time, broken at every
    offset, in each component that holds triplets: the answer of the pure scanner."""
    for head in ("http://", "http://h/", "http://h/?", "http://h/#", "", "//", "s:"):
        for at in range(len(RUN) + 1):
            check(head + RUN[:at] + fault + RUN[at:] + RUN)


@needs_extension
@pytest.mark.parametrize("fault", ["", " ", "%", "%4", "%41", "\u00e9", "#", "?", "@", ":", "["])
def test_ascii_texts_of_every_length_near_the_steps(fault: str) -> None:
    """A str of ASCII characters is read 16 octets a step, and one of at most 256 is
    copied before zeros first: a fault at the end and in the middle of texts of every
    length near the first steps and near the end of the copy."""
    for head in ("http://h/", "//", "s:", "http://u@h:1/?", "#"):
        for length in (*range(0, 36), *range(236, 262)):
            body = ("a/b=" * length)[:length]
            check(head + body + fault)
            check(head + body[: length // 2] + fault + body[length // 2 :])


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return URLS.read_text(encoding="utf-8").splitlines()


@needs_extension
@pytest.mark.parametrize("part", range(4))
def test_corpus(corpus: list[str], part: int) -> None:
    for url in corpus[part::4]:
        check(url)


@needs_extension
@pytest.mark.parametrize("seed", range(2))
def test_corpus_mutations(corpus: list[str], seed: int) -> None:
    rng = random.Random(seed)
    for url in rng.sample(corpus, 1000):
        check(mutate(url, rng, rng.randint(1, 3)))


# --- the compiled store itself --------------------------------------------------------------


@needs_extension
def test_the_interface_is_the_same() -> None:
    pure, compiled = COMPILED._store.PureStore, COMPILED._speedups.Reference
    names = {
        "_parse", "_scan", "_from_match", "_refuse", "_text", "_group", "_span", "_groups",
        "_construct_directly", "_validator", "_replace_query", *COMPONENTS,
    }  # fmt: skip
    for name in names:
        assert inspect.getdoc(getattr(compiled, name)) == inspect.getdoc(getattr(pure, name))


@needs_extension
def test_objects_are_small_and_untracked() -> None:
    uri = COMPILED.URI("http://e.com/a?c#d")  # short enough for int32 ends in any build
    assert not gc.is_tracked(uri)
    assert sys.getsizeof(uri) <= 100
    assert not hasattr(uri, "__dict__")

    class Annotated(COMPILED.URI):  # type: ignore[name-defined,misc]
        """A subclass with a __dict__: its objects can join cycles, so they are tracked."""

    annotated = Annotated("a:b")
    assert gc.is_tracked(annotated)
    assert annotated.path == "b" and type(Annotated._parse("c:d")) is Annotated


@needs_extension
def test_construction_and_arguments() -> None:
    uri, iri = COMPILED.URI, COMPILED.IRI

    class Text(str):
        def __str__(self) -> str:
            return "not this"

    for cls in (uri, iri, PURE.URI, PURE.IRI):
        assert str(cls(Text("a:b"))) == "a:b" and type(cls(Text("a:b"))._text) is str
        assert cls(text="a:b").scheme == "a"
        with pytest.raises(TypeError, match=rf"^{cls.__name__}\(\) takes a str, not bytes$"):
            cls(b"a:b")
        with pytest.raises(TypeError):
            cls()
        for group in (-1, 9):
            with pytest.raises(IndexError):
                cls("a:b")._group(group)
            with pytest.raises(IndexError):
                cls("a:b")._span(group)
    assert str(uri(iri("a:b"))) == "a:b" and type(uri(iri("a:b"))) is uri
    with pytest.raises(COMPILED.URIError):
        uri(iri("a:\u00e9"))
    m = COMPILED.grammar.URI_GRAMMAR.reference.fullmatch("http://h/p")
    assert uri._from_match(m)._span(6) == m.span(6)
    assert COMPILED._speedups.Reference("//h").host == "h"
    with pytest.raises(ValueError, match="not a reference"):
        COMPILED._speedups.Reference("a b")


@needs_extension
def test_the_direct_construction_is_the_class_call() -> None:
    """URI(text) goes to the scan at once; a subclass, and a class with its own __new__
    or __init__, take type.__call__, with the same answers and errors."""
    uri, iri = COMPILED.URI, COMPILED.IRI
    calls: list[str] = []

    class Plain(uri):  # type: ignore[misc,valid-type]
        __slots__ = ()

    class WithInit(uri):  # type: ignore[misc,valid-type]
        __slots__ = ()

        def __init__(self, text: str) -> None:
            calls.append(f"init {text}")

    class WithNew(uri):  # type: ignore[misc,valid-type]
        __slots__ = ()

        def __new__(cls, text: str) -> Any:
            calls.append(f"new {text}")
            return super().__new__(cls, text)

    for cls, seen in (
        (uri, []),
        (iri, []),
        (Plain, []),
        (WithInit, ["init"] * 3),
        (WithNew, ["new"] * 4),
    ):
        calls.clear()
        made = cls("http://h/p?q#f")
        assert type(made) is cls and made.fragment == "f" and not gc.is_tracked(made)
        assert type(cls(made)) is cls and type(cls(text="a:b")) is cls
        with pytest.raises(COMPILED.URIError) as error:
            cls("http://h/a b")
        assert error.value.position == 10
        with pytest.raises(TypeError):
            cls("a:b", "c:d")
        with pytest.raises(TypeError):
            cls("a:b", extra=1)
        assert [call.split()[0] for call in calls] == seen, cls
    assert iri("http://\u00e9/").host == "\u00e9"
    with pytest.raises(COMPILED.URIError):
        uri("http://\u00e9/")


@needs_extension
def test_is_valid_answers_as_the_function_it_stands_for() -> None:
    compiled_is_valid = COMPILED.is_valid
    assert compiled_is_valid is COMPILED.validate.is_valid
    assert type(compiled_is_valid) is not type(PURE.is_valid)  # the compiled one is in C
    assert [
        (p.name, p.kind, p.default)
        for p in inspect.signature(compiled_is_valid).parameters.values()
    ] == [(p.name, p.kind, p.default) for p in inspect.signature(PURE.is_valid).parameters.values()]

    class Text(str):
        pass

    for text in ("http://a/b#c", "//h/p", "a b", Text("x:y"), "\u00e9:x"):
        for rule in (*SCANNED_RULES, Text("URI"), "scheme"):
            assert compiled_is_valid(text, rule) is PURE.is_valid(text, rule), (text, rule)
    for module in (COMPILED, PURE):
        with pytest.raises(TypeError, match=r"^is_valid\(\) takes a str, not bytes$"):
            module.is_valid(b"a:b")
        with pytest.raises(ValueError, match=r"^unknown rule 'uri'"):
            module.is_valid("a:b", "uri")
        with pytest.raises(TypeError):
            module.is_valid()
        with pytest.raises(TypeError):
            module.is_valid("a:b", "URI", "extra")


@needs_extension
def test_long_texts() -> None:
    """Texts beyond NARROW_MAX keep their ends as ptrdiff_t (the sanitizer build makes
    NARROW_MAX small, so that this and the corpus take that road); in an ordinary build
    NARROW_MAX is too large to reach, and a megabyte-long text is checked instead."""
    narrow_max = COMPILED._speedups.NARROW_MAX
    length = min(narrow_max, 1 << 20)
    for text in (
        "http://u@h:1/" + "p" * length + "?q#f",
        "//" + "h" * length,
        "a" * (length + 1),
    ):
        check(text)
        if length == narrow_max:
            assert sys.getsizeof(COMPILED.URI(text)) > sys.getsizeof(COMPILED.URI("a"))
