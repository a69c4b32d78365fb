"""The RFC operations of the compiled core against the readable ones.

``urikit._speedups`` resolves (RFC 3986 §5.2.2-§5.2.4), normalizes (§6.2.2, §6.2.3),
removes dot-segments (§5.2.4) and percent-encodes and decodes (§2.1) over the spans of
its scanner.  Each must give the answer of the plain code in ``resolution.py``,
``normalization.py`` and ``percent.py`` (the pure twin of ``test_compiled.py``), build the
value with the spans a scan of its text gives, and answer ``None`` (the readable path
then answers) only where it says it would.  The inputs: the examples of RFC 3986 §5.4
verbatim and the literal transcription of §5.2 (``rfc3986_oracle``), generated
references, the real URLs and pairs of ``bench/``, and random mutations of them; hostile
inputs stay linear.

Without the extension these tests skip, unless ``URIKIT_REQUIRE_EXTENSION=1`` is set.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import rfc3986_oracle as oracle
from backends import PURE
from hypothesis import example, given
from hypothesis import strategies as st
from linear import assert_linear
from strategies import (
    absolute_uris,
    grammar_text,
    iri_references,
    known_scheme_references,
    pct_encoded,
    uri_references,
)
from test_resolve import ABNORMAL_EXAMPLES, BASE, NORMAL_EXAMPLES, expected_text
from test_speedups import MUTATION_ALPHABET, mutate

from urikit import _seam
from urikit.components import split
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR
from urikit.normalization import normalize as normalize_parts
from urikit.resolution import remove_dot_segments, transform_references
from urikit.schemes import DEFAULT_REGISTRY, Scheme, SchemeRegistry

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("URIKIT_REQUIRE_EXTENSION") == "1"

try:
    from urikit import _speedups
except ImportError:  # pragma: no cover - depends on the build
    ops: ModuleType | None = None
else:
    ops = _speedups

pytestmark = pytest.mark.skipif(
    ops is None and not REQUIRED, reason="urikit._speedups is not built"
)


def _ops() -> Any:
    if ops is None:
        pytest.fail("urikit._speedups is required but not importable")
    return ops


def _classes() -> tuple[type, type]:
    if ops is None:
        return type, type

    class UriRef(ops.Reference):  # type: ignore[misc,name-defined]
        __slots__ = ()
        _iri = False

    class IriRef(ops.Reference):  # type: ignore[misc,name-defined]
        __slots__ = ()
        _iri = True

    return UriRef, IriRef


URI_REF, IRI_REF = _classes()
CODES = _seam.scheme_codes(DEFAULT_REGISTRY)


def _spans(ref: Any) -> tuple[int, ...]:
    return tuple(bound for g in range(1, 9) for bound in ref._span(g))


# --- resolution (§5.2) -----------------------------------------------------------------


def check_resolve(base: str, ref: str, strict: bool = True) -> str | None:
    """The compiled target of ``ref`` against ``base``, held to transform_references."""
    s = _ops()
    for iri, cls, grammar in ((False, URI_REF, URI_GRAMMAR), (True, IRI_REF, IRI_GRAMMAR)):
        got = s.resolve(cls, base, ref, strict)
        base_spans, ref_spans = s.scan(base, iri), s.scan(ref, iri)
        if base_spans is None or ref_spans is None or base_spans[0] < 0:
            assert got is None, (base, ref, iri)
            continue
        b, r = split(base, grammar), split(ref, grammar)
        assert b is not None and r is not None
        want = transform_references(b, r, strict=strict)
        assert got is not None and got._text == want, (base, ref, iri)
        assert type(got) is cls
        assert _spans(got) == s.scan(want, iri), (base, ref, want)
        if not iri:
            assert s.resolve(None, base, ref, strict) == want
    target = s.resolve(URI_REF, base, ref, strict)
    return None if target is None else str(target._text)


@pytest.mark.parametrize(("ref", "target"), NORMAL_EXAMPLES, ids=[r for r, _ in NORMAL_EXAMPLES])
def test_5_4_1_normal_examples(ref: str, target: str) -> None:
    assert check_resolve(BASE, ref) == target


@pytest.mark.parametrize(
    ("ref", "target"), ABNORMAL_EXAMPLES, ids=[r for r, _ in ABNORMAL_EXAMPLES]
)
def test_5_4_2_abnormal_examples(ref: str, target: str) -> None:
    assert check_resolve(BASE, ref) == target


def test_5_4_2_http_g_for_backward_compatibility() -> None:
    assert check_resolve(BASE, "http:g", strict=False) == "http://a/b/c/g"
    assert check_resolve(BASE, "HTTP:g", strict=False) == "http://a/b/c/g"
    assert check_resolve(BASE, "https:g", strict=False) == "https:g"


@pytest.mark.parametrize(
    ("base", "ref", "target"),
    [
        ("foo:/a", "..//b", "foo:/.//b"),  # docs/deviations.md: "/." before "//"
        ("foo:a/b", "../../c", "foo:/c"),  # §5.2.4 as written on a rootless path
        ("foo:", "a", "foo:a"),
        ("http://a", "g", "http://a/g"),  # §5.2.3: an authority and an empty path
        ("http://a", "", "http://a"),
        ("foo:a", "?y#s", "foo:a?y#s"),
        ("http://a/b/c/d;p?q#f", "", "http://a/b/c/d;p?q"),
        ("http://é/a/b", "../ü?ß", "http://é/ü?ß"),
        ("http://a/b", "\U0001f600/./x", "http://a/\U0001f600/x"),
    ],
)
def test_edge_cases(base: str, ref: str, target: str) -> None:
    got = check_resolve(base, ref)
    if base.isascii() and ref.isascii():
        assert got == target
    else:  # an IRI: read by the IRI grammar only
        result = _ops().resolve(IRI_REF, base, ref, True)
        assert result is not None and result._text == target


@given(absolute_uris(), uri_references(), st.booleans())
@example("a:", "..//b", True)
@example("a://h", "./g:h", True)
def test_generated_pairs(base: str, ref: str, strict: bool) -> None:
    check_resolve(base, ref, strict)
    if strict and ops is not None and (target := ops.resolve(None, base, ref, True)) is not None:
        assert target == expected_text(base, ref), (base, ref)


@given(iri_references(), iri_references())
def test_generated_iri_pairs(base: str, ref: str) -> None:
    check_resolve(base, ref)


_DOTTY = st.lists(
    st.sampled_from(["", ".", "..", "a", "b:c", "...", ".a", "%2E", "%2e%2E", "é", "\U0001f600"]),
    max_size=8,
).map("/".join)


@given(st.sampled_from(["http://a/b/c/d;p?q", "foo:x/y", "foo:/x/y", "a://h", "a:"]), _DOTTY)
def test_dot_segment_references(base: str, path: str) -> None:
    for ref in (path, "/" + path, "//h/" + path, path + "?q#f"):
        check_resolve(base, ref)


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str]]:
    lines = (ROOT / "bench" / "pairs.txt").read_text(encoding="utf-8").splitlines()
    return [(base, ref) for base, _, ref in (line.partition("\t") for line in lines)]


def test_corpus_pairs(pairs: list[tuple[str, str]]) -> None:
    resolved = 0
    for base, ref in pairs:
        target = check_resolve(base, ref)
        if target is not None:
            resolved += 1
            assert target == expected_text(base, ref), (base, ref)
    assert resolved > len(pairs) * 0.99


@pytest.mark.parametrize("seed", range(2))
def test_corpus_pair_mutations(pairs: list[tuple[str, str]], seed: int) -> None:
    rng = random.Random(seed)
    for base, ref in rng.sample(pairs, 1500):
        check_resolve(mutate(base, rng, rng.randint(0, 2)), mutate(ref, rng, rng.randint(1, 3)))


# --- remove_dot_segments (§5.2.4) --------------------------------------------------------


@given(_DOTTY | st.lists(st.sampled_from(MUTATION_ALPHABET), max_size=10).map("".join))
@example("/a/b/c/./../../g")
@example("mid/content=5/../6")
def test_remove_dot_segments(path: str) -> None:
    assert _ops().remove_dot_segments(path) == remove_dot_segments(path)
    assert _ops().remove_dot_segments(path) == oracle.remove_dot_segments(path)


# --- normalization (§6.2.2, §6.2.3) --------------------------------------------------------

LEVELS = ("syntax", "scheme")


def check_normalize(
    text: str, registry: SchemeRegistry = DEFAULT_REGISTRY, iri: bool = False
) -> list[str | None]:
    """The compiled normal forms of ``text`` at both levels, held to normalization.normalize."""
    s = _ops()
    cls, grammar = (IRI_REF, IRI_GRAMMAR) if iri else (URI_REF, URI_GRAMMAR)
    codes = _seam.scheme_codes(registry)
    answers: list[str | None] = []
    for level in LEVELS:
        got = s.normalize(cls, text, codes if level == "scheme" else None)
        via = s.normalize_in(registry, codes, _seam.scheme_codes, cls, text, level, registry)
        assert (got is None) == (via is None) and (got is None or got._text == via._text)
        answers.append(None if got is None else got._text)
        if s.scan(text, iri) is None:
            assert got is None, text
            continue
        if got is None:
            continue
        parts = split(text, grammar)
        assert parts is not None
        want = normalize_parts(parts, level=level, registry=registry, iri=iri)  # type: ignore[arg-type]
        assert got._text == want, (text, level)
        assert _spans(got) == s.scan(want, iri), (text, level)
        if iri or text.isascii():
            assert s.normalize(None, text, codes if level == "scheme" else None) == want
    return answers


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("HTTP://www.Example.com:80", "http://www.example.com/"),  # §6.2.3
        ("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D"),  # §6.2.2
        ("http://example.com:/", "http://example.com/"),  # §6.2.3: an empty port
        ("http://example.com:0080/%7Esmith", "http://example.com/~smith"),
        ("http://a:8080", "http://a:8080/"),
        ("HTTPS://U%3a@H%2F.COM:443?%41#%5a", "https://U%3A@h%2F.com/?A#Z"),
        ("file://LOCALHOST/etc/hosts", "file:///etc/hosts"),  # RFC 8089 §2
        ("file:/etc/hosts", "file:///etc/hosts"),
        ("file://localhost:/x", "file:///x"),
        ("file://u@localhost/x", "file://u@localhost/x"),
        ("file:x", "file:x"),
        ("mailto:Joe@Example.COM,A@B.org", "mailto:Joe@example.com,A@b.org"),  # RFC 6068
        ("URN:ISBN:0-395-36341-1", "urn:isbn:0-395-36341-1"),  # RFC 8141 §3.1
        ("foo:/.//a/./b", "foo:/.//a/b"),
        ("//H/a/../b", "//h/b"),
        ("/a/./b", "/a/b"),
        ("a:b/../c", "a:b/../c"),  # not hierarchical: the dots are data
        ("http://%E2%82%AC.example/", "http://%E2%82%AC.example/"),
        ("", ""),
    ],
)
def test_normalize_examples(text: str, normal: str) -> None:
    assert check_normalize(text)[1] == normal


@pytest.mark.parametrize("text", ["a/../b", "./a:b/..", "x/./y"])
def test_normalize_leaves_to_the_readable_path(text: str) -> None:
    """Relative-path references with dot-segments."""
    assert check_normalize(text) == [None, None]


@pytest.mark.parametrize(
    ("address", "syntax", "scheme"),
    [
        # RFC 5952 §4.1 leading zeros, §4.2.1-§4.2.3 the longest first run of two or
        # more zero hextets, §4.3 lower case, §5 IPv4-mapped addresses
        ("2001:0DB8::0001", "2001:0db8::0001", "2001:db8::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("2001:db8::1:0:0:1", "2001:db8::1:0:0:1", "2001:db8::1:0:0:1"),
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
        ("1::3:4:5:6:7:8", "1::3:4:5:6:7:8", "1:0:3:4:5:6:7:8"),
        ("0:0:1:0:0:0:0:0", "0:0:1:0:0:0:0:0", "0:0:1::"),
        ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
        ("::", "::", "::"),
        ("0:0:0:0:0:0:0:0", "0:0:0:0:0:0:0:0", "::"),
        ("::FFFF:0:0", "::ffff:0:0", "::ffff:0.0.0.0"),
        ("::ffff:192.0.2.1", "::ffff:192.0.2.1", "::ffff:192.0.2.1"),
        ("::ffff:C000:280", "::ffff:c000:280", "::ffff:192.0.2.128"),
        ("::1.2.3.4", "::1.2.3.4", "::102:304"),
        ("FE80::A%25En%30", "fe80::a%25En0", "fe80::a%25En0"),  # RFC 6874: zone case kept
        ("fe80::1%25%65th%2f0", "fe80::1%25eth%2F0", "fe80::1%25eth%2F0"),
        ("v1F.A:b", "v1f.a:b", "v1f.a:b"),  # IPvFuture folds, and has no RFC 5952 text
    ],
)
def test_normalize_ip_literals(address: str, syntax: str, scheme: str) -> None:
    """RFC 3986 §6.2.2.1 folds the hex digits of an IP literal; §6.2.3 then writes an IPv6
    address as RFC 5952 does."""
    assert check_normalize(f"http://[{address}]:8/p") == [
        f"http://[{syntax}]:8/p",
        f"http://[{scheme}]:8/p",
    ]


@given(st.ip_addresses(v=6), st.integers(0, 2), st.booleans())
def test_generated_ipv6_literals(ip: Any, form: int, upper: bool) -> None:
    """Any IPv6 address, written compressed, in full, or with its last 32 bits as an
    IPv4address (RFC 3986 §3.2.2 ls32), in either case: the compiled forms are those
    of the readable path."""
    low = int(ip) & 0xFFFFFFFF
    quad = ".".join(str(low >> shift & 0xFF) for shift in (24, 16, 8, 0))
    text = (ip.compressed, ip.exploded, ip.exploded.rsplit(":", 2)[0] + ":" + quad)[form]
    check_normalize(f"http://[{text.upper() if upper else text}]/")


def test_normalize_with_another_registry() -> None:
    registry = DEFAULT_REGISTRY.with_scheme(
        Scheme("web", default_port=8000, empty_path_is_root=True)
    ).with_scheme(Scheme("caseq", case_insensitive=frozenset({"query"})))
    assert check_normalize("WEB://h:8000", registry)[1] == "web://h/"
    assert check_normalize("caseq:x?Y", registry) == ["caseq:x?Y", None]
    assert check_normalize("WEB://h:8000")[1] == "web://h:8000"


@pytest.mark.parametrize("iri", [False, True])
def test_normalize_one_step_from_normal(iri: bool) -> None:
    """Texts that are normal, and the same with one upper-case letter in the scheme or
    host at every place in and around the eight-octet steps of the test for upper
    case (a Latin-1 letter in an IRI's host breaks a step), or with one "%" or
    dot-segment in the path (RFC 3986 §6.2.2.1, §6.2.2.2, §6.2.2.3)."""
    host = "abcdefgh\xe9ijklmnopqrstu" if iri else "abcdefghijklmnopqrstu"
    shapes = [("http://", "/p"), ("https://u:p@", ":8/q?r#s")]
    scheme = "abcdefghijklmnopqrstu"
    for prefix, suffix, name in [(p, q, host) for p, q in shapes] + [("", ":x", scheme)]:
        text = prefix + name + suffix
        assert check_normalize(text, iri=iri) == [text, text]
        for at in range(len(name)):
            upper = prefix + name[:at] + name[at].upper() + name[at + 1 :] + suffix
            want = text if name[at].isascii() else upper
            assert check_normalize(upper, iri=iri) == [want, want], upper
    for path in ("/a%41", "/a%2f", "/a/./b", "/.", "/a/..", "/%7e", "/a.b/.c", "/.a"):
        check_normalize(f"http://h{path}", iri=iri)


@given(uri_references() | known_scheme_references() | grammar_text())
@example("http://a/%2e%2E/b")
@example("HTTP://%7a:0/")
def test_generated_references(text: str) -> None:
    check_normalize(text)


@given(iri_references())
def test_generated_iris(text: str) -> None:
    check_normalize(text, iri=True)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return (ROOT / "bench" / "urls.txt").read_text(encoding="utf-8").splitlines()


def test_corpus_normalize(corpus: list[str]) -> None:
    answered = sum(check_normalize(text)[1] is not None for text in corpus)
    assert answered > len(corpus) * 0.99


@pytest.mark.parametrize("seed", range(2))
def test_corpus_normalize_mutations(corpus: list[str], seed: int) -> None:
    rng = random.Random(seed)
    for text in rng.sample(corpus, 1500):
        mutated = mutate(text, rng, rng.randint(1, 3))
        check_normalize(mutated)
        check_normalize(mutated, iri=True)


# --- percent-encoding (§2.1) ---------------------------------------------------------------

_TEXT = st.lists(pct_encoded() | st.sampled_from(MUTATION_ALPHABET), max_size=20).map("".join)
_COMPONENTS = ["userinfo", "host", "path", "segment", "segment-nz-nc", "query", "fragment"]


@given(_TEXT | st.text(), st.sampled_from(["strict", "replace"]))
@example("caf%C3%A9%20au%20lait", "strict")
@example("%C3", "strict")
@example("%zz", "strict")
def test_percent_decode(text: str, errors: str) -> None:
    from urikit import percent

    pure = PURE
    got = _ops().percent_decode(text)
    try:
        want = pure.percent_decode(text, errors=errors)
    except ValueError as error:
        assert got is None
        with pytest.raises(ValueError) as compiled_error:
            percent.percent_decode(text, errors=errors)
        assert str(compiled_error.value) == str(error)
    else:
        assert got == want or (got is None and (errors != "strict" or not _utf8(text)))
        assert percent.percent_decode(text, errors=errors) == want


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@given(_TEXT | st.text(), st.sampled_from(_COMPONENTS), st.booleans(), st.sampled_from(["", "/:@"]))
@example("a b/c?", "segment", False, "")
@example("100%25 sure%zz%", "query", True, "")
def test_percent_encode(text: str, component: str, encoded: bool, safe: str) -> None:
    from urikit import percent

    pure = PURE
    for iri in (False, True):
        outcomes = []
        for encode in (percent.percent_encode, pure.percent_encode):
            try:
                outcomes.append(encode(text, component, encoded=encoded, safe=safe, iri=iri))
            except ValueError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1], (text, component, encoded, safe, iri)


# --- hostile input --------------------------------------------------------------------------

BIG = 1 << 20


def test_one_megabyte_paths() -> None:
    path = "/a" * (BIG // 2)
    assert check_resolve("http://h" + path, "g" + path) == "http://h" + path[:-1] + "g" + path
    assert check_normalize("HTTP://h" + path)[1] == "http://h" + path


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "/.." * (n // 3),
        lambda n: "/." * (n // 2),
        lambda n: "a/" * (n // 4) + "../" * (n // 6),
        lambda n: "/" + "x" * (n // 2) + "/.." * (n // 6),
        lambda n: "%2E%2E/" * (n // 7),
    ],
    ids=["up", "here", "down-up", "long-up", "encoded"],
)
def test_dot_segment_runs_are_linear(make: Any) -> None:
    s = _ops()
    assert_linear(make, s.remove_dot_segments)
    assert_linear(make, lambda p: s.resolve(None, "http://a/b/c", p, True))
    assert_linear(lambda n: "http://a" + make(n), lambda t: s.normalize(None, t, CODES))


def test_percent_codec_is_linear() -> None:
    s = _ops()
    keep = bytes(128)
    assert_linear(lambda n: "é %" * (n // 3), lambda t: s.percent_encode(t, keep, True))
    assert_linear(lambda n: "%C3%A9" * (n // 6), s.percent_decode)


def test_arguments() -> None:
    s = _ops()
    with pytest.raises(TypeError):
        s.resolve(str, "http://a", "b", True)
    with pytest.raises(TypeError):
        s.resolve(None, b"http://a", "b", True)
    with pytest.raises(TypeError):
        s.resolve(None, "http://a", "b")
    with pytest.raises(TypeError):
        s.normalize(None, "http://a", [])
    with pytest.raises(ValueError):
        s.normalize(None, "http://a", {"http": -1})
    with pytest.raises(TypeError):
        s.percent_encode("a", b"short", False)
    with pytest.raises(TypeError):
        s.remove_dot_segments(None)
    assert s.resolve(None, "a/b", "c", True) is None  # §5.2.1: the base needs a scheme
    assert s.resolve(None, "http://a", "b c", True) is None
    assert s.normalize(None, "http://a b", CODES) is None
    assert (
        s.normalize_in(DEFAULT_REGISTRY, CODES, _seam.scheme_codes, None, "a:b", "x", None) is None
    )
    assert s.percent_decode("\ud800%41") is None
    assert s.percent_encode("\ud800", bytes(128), False) is None
