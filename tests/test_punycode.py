"""Punycode (RFC 3492) held to a literal transcription of its pseudocode.

``urikit.punycode`` does the two steps of §6.2 and §6.3 that take quadratic time as
written (inserting into the output, reading the input once per code point value) with
binary indexed trees (``place_insertions``, ``smaller_before``); here both procedures,
and both steps on their own, are checked against ``tests/rfc3492_oracle.py`` on generated
input, and the compiled decoder (``urikit._whatwg``, reached through a host that is not
ASCII) against the readable one.  The samples of RFC 3492 §7.1 and the agreement with
Python's codec are in ``tests/test_uts46.py``; linear time is ``tests/test_punycode_linear.py``.
"""

from __future__ import annotations

import random

import pytest
import rfc3492_oracle as oracle
from hypothesis import example, given
from hypothesis import strategies as st
from whatwg_twins import COMPILED, COMPILED_BUILT, PURE

from urikit import punycode

# Punycode digits of both cases, the delimiter, and characters that are no digit.
ACE_TEXT = st.text(alphabet="abcdekzAZ0189-?ü", max_size=40)

LABELS = st.text(
    alphabet=st.one_of(
        st.characters(max_codepoint=0x7F),
        st.characters(min_codepoint=0x80, max_codepoint=0x2FF),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4E40),
        st.characters(min_codepoint=0x80),  # up to U+10FFFF: far apart, overflows
    ),
    max_size=60,
)


def _outcome(function: object, text: str) -> str | None:
    """The result, or None for failure."""
    try:
        return function(text)  # type: ignore[operator, no-any-return]
    except (punycode.PunycodeError, oracle.Failure):
        return None


@given(ACE_TEXT)
@example("zzzzzzzzzzzz")  # i overflows (§6.4)
@example("99999999999")  # w overflows
@example("-abc")  # a delimiter first consumes nothing: "-" is then read as a digit
@example("abc-")  # only basic code points
@example("a-b-c-egd")  # the last delimiter counts
@example("ü-a")  # a non-basic code point before the delimiter
@example("6g5h")  # a surrogate (not a scalar value)
def test_decode_is_the_pseudocode(text: str) -> None:
    """RFC 3492 §6.2: the same output, or failure on the same inputs."""
    assert _outcome(punycode.decode, text) == _outcome(oracle.decode, text)


@given(LABELS)
@example("a" * 2100 + "\U0010ffff")  # (m - n) * (h + 1) overflows
@example("\U0010ffff" * 3000)  # delta overflows while counting
@example("\u4e00" * 700 + "\u4e01" * 700)
@example("")
def test_encode_is_the_pseudocode(text: str) -> None:
    """RFC 3492 §6.3: the same output, or failure on the same inputs."""
    encoded = _outcome(punycode.encode, text)
    assert encoded == _outcome(oracle.encode, text)
    if encoded is not None and not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        assert punycode.decode(encoded) == text


def _insert(basic: str, insertions: list[tuple[int, int]]) -> str:
    """§6.2's step as written: "insert n into output at position i"."""
    output = list(basic)
    for i, n in insertions:
        output.insert(i, chr(n))
    return "".join(output)


@st.composite
def insertion_runs(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """Basic code points, then insertions at the front, the end, or anywhere; sizes span
    several blocks of ``PLACES_PER_LEAF`` places."""
    basic = draw(st.text(alphabet="ab-", max_size=300))
    count = draw(st.integers(0, 3 * punycode.PLACES_PER_LEAF))
    kind = draw(st.sampled_from(["front", "end", "anywhere", "mixed"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    insertions, length = [], len(basic)
    for k in range(count):
        where = kind if kind != "mixed" else rng.choice(["front", "end", "anywhere"])
        i = 0 if where == "front" else length if where == "end" else rng.randint(0, length)
        insertions.append((i, 0x100 + k))
        length += 1
    return basic, insertions


@given(insertion_runs())
def test_place_insertions_is_inserting(run: tuple[str, list[tuple[int, int]]]) -> None:
    """``place_insertions`` gives the output of §6.2's insertions made one by one."""
    basic, insertions = run
    assert punycode.place_insertions(basic, insertions) == _insert(basic, insertions)


@given(st.lists(st.one_of(st.integers(0, 0x7F), st.integers(0x80, 0x88), st.integers(0x80)),
                max_size=600))  # fmt: skip
def test_smaller_before_counts_what_the_pseudocode_reads(code_points: list[int]) -> None:
    """For each m, what §6.3's "for each code point c in the input" counts with c < n
    before each occurrence of n = m."""
    expected = []
    for m in sorted({c for c in code_points if c >= 0x80}):
        counts, smaller = [], 0
        for c in code_points:
            if c < m:
                smaller += 1
            elif c == m:
                counts.append(smaller)
        expected.append((m, counts))
    assert punycode.smaller_before(code_points) == expected


# -- the compiled decoder (urikit._whatwg, uts46.c) --------------------------------------------

compiled_only = pytest.mark.skipif(not COMPILED_BUILT, reason="urikit._whatwg is not built")


def _href(whatwg: object, text: str) -> str | None:
    try:
        return whatwg.URL(text).href  # type: ignore[attr-defined, no-any-return]
    except ValueError:
        return None


@compiled_only
@given(ACE_TEXT)
def test_compiled_decoder_agrees(label: str) -> None:
    """A host that is not ASCII is decoded by uts46.c; the readable parser decodes it by
    ``punycode.decode``."""
    text = f"http://\u00e9.xn--{label}/"
    assert _href(COMPILED, text) == _href(PURE, text)


@compiled_only
@given(LABELS.filter(lambda s: not s.isascii()))
def test_compiled_decoder_agrees_on_encoded_labels(label: str) -> None:
    text = f"http://\u00e9.xn--{punycode.encode(label)}/"
    assert _href(COMPILED, text) == _href(PURE, text)


def _scrambled(n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    return "".join(chr(0x4E00 + rng.randrange(20_000)) for _ in range(n))


@pytest.mark.parametrize("n", [255, 256, 257, 5_000, 80_000])
def test_huge_labels_on_both_paths(n: int) -> None:
    """A label of n ideographs in no order: decoded and encoded again on both paths, to the
    A-label that ``punycode.encode`` gives (the URL Standard sets no length limit)."""
    label = _scrambled(n)
    ace = "xn--" + punycode.encode(label)
    assert punycode.decode(ace[4:]) == label
    expected = f"http://xn--9ca.{ace}/"
    for whatwg in (COMPILED, PURE):
        assert whatwg.URL(f"http://\u00e9.{ace}/").href == expected  # decoded
        assert whatwg.URL(f"http://\u00e9.{label}/").href == expected  # encoded
        assert whatwg.URL(f"http://{ace.upper()}/").href == f"http://{ace}/"  # lower-cased
