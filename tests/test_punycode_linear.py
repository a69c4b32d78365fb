"""Punycode labels of any length in linear time (``tests/linear.py``: CPU-time ratios).

The URL Standard sets no length limit on a label when beStrict is false, so a host may be
one label of a million characters.  RFC 3492 written as it reads inserts each decoded code
point into an array (§6.2) and reads the whole input once per code point value (§6.3):
quadratic.  The shapes below are those that make it so: code points in no order, each
inserted at the front (every one larger than those after it), all distinct, basic and
non-basic mixed, and many short labels; they are run through ``punycode.decode`` and
``encode``, ``uts46.domain_to_ascii`` and ``domain_to_unicode``, ``whatwg.URL`` (and
``URL.checked``, which runs the strict ToASCII that decodes an ASCII host) on both
implementations, and the security checks that read a host's labels.  The sizes are those
at which the quadratic procedures fail the bound of ``tests/linear.py`` (inserting into an
array moves memory fast, so the quadratic term shows only on long labels).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from urllib.parse import quote

import pytest
from linear import assert_linear

from urikit import is_safe_redirect, punycode, uts46
from urikit.security.hosts import suspicious_labels


def _scrambled(n: int) -> str:
    rng = random.Random(n)
    return "".join(chr(0x4E00 + rng.randrange(20_000)) for _ in range(n))


# Label shapes of n code points.  Ideographs are valid in IDNA and of Bidi class L; the
# supplementary planes give distinct values for shapes longer than the ideographs.
LABELS: dict[str, Callable[[int], str]] = {
    "scrambled": _scrambled,
    "descending": lambda n: "".join(chr(0x10000 + n - k) for k in range(n)),
    "ascending distinct": lambda n: "".join(chr(0x10000 + k) for k in range(n)),
    "basic mixed": lambda n: "".join(f"a{c}" for c in _scrambled(n // 2)),
}
# Shapes whose labels pass UTS #46 (ideographs, in every order).
IDNA_LABELS: dict[str, Callable[[int], str]] = {
    "scrambled": _scrambled,
    "descending": lambda n: "".join(chr(0x9FFF - k % 20_000) for k in range(n)),
}
UNITS = 3  # characters of Punycode per ideograph, about


@lru_cache(maxsize=16)
def _label(shape: str, n: int, idna: bool = False) -> str:
    return (IDNA_LABELS if idna else LABELS)[shape](n)


@lru_cache(maxsize=16)
def _ace(shape: str, n: int, idna: bool = False) -> str:
    return punycode.encode(_label(shape, n, idna))


def _many(n: int) -> str:
    """Many short A-labels: about n characters."""
    return ".".join(["xn--" + punycode.encode("\u4e8c\u4e00\u4e09")] * (n // 14))


@pytest.mark.parametrize("shape", ["descending", "basic mixed"])
def test_decode(shape: str) -> None:
    assert_linear(lambda n: _ace(shape, n // UNITS), punycode.decode, 600_000)


@pytest.mark.parametrize("shape", ["scrambled", "ascending distinct"])
def test_encode(shape: str) -> None:
    assert_linear(lambda n: _label(shape, n), punycode.encode, 120_000)


@pytest.mark.parametrize("shape", sorted(IDNA_LABELS))
def test_domain_to_ascii_and_unicode(shape: str) -> None:
    ace = lambda n: "xn--" + _ace(shape, n // UNITS, True)  # noqa: E731
    assert_linear(ace, uts46.domain_to_ascii, 100_000)
    assert_linear(ace, uts46.domain_to_unicode, 100_000)
    assert_linear(lambda n: _label(shape, n // UNITS, True), uts46.domain_to_ascii, 100_000)


def test_domain_to_ascii_and_unicode_of_many_labels() -> None:
    assert_linear(_many, uts46.domain_to_ascii, 100_000)
    assert_linear(_many, uts46.domain_to_unicode, 100_000)


@pytest.mark.parametrize("shape", sorted(IDNA_LABELS))
def test_url(whatwg: ModuleType, shape: str) -> None:
    """A host that is not ASCII goes through ToASCII, which decodes its A-labels (on the
    compiled path, in ``uts46.c``); ``URL.checked`` decodes an ASCII one too."""
    size = 600_000 if whatwg.compiled else 60_000

    def parse(text: str) -> None:
        with contextlib.suppress(whatwg.URLParseError):
            whatwg.URL(text)

    decoded = lambda n: f"http://\u00e9.xn--{_ace(shape, n // UNITS, True)}/"  # noqa: E731
    assert_linear(decoded, parse, size)
    assert_linear(lambda n: f"http://{_label(shape, n // UNITS, True)}/", parse, size)
    assert_linear(lambda n: f"http://xn--{_ace(shape, n // UNITS, True)}/", whatwg.URL.checked,
                  60_000)  # fmt: skip


def test_url_of_many_labels(whatwg: ModuleType) -> None:
    size = 600_000 if whatwg.compiled else 60_000
    assert_linear(lambda n: f"http://\u00e9.{_many(n)}/", whatwg.URL, size)


def test_security_reads_labels_in_linear_time() -> None:
    """The audit's parser differential writes a host's labels in ACE form, and the
    homograph check reads ACE labels as Unicode."""

    def redirect(text: str) -> None:
        is_safe_redirect(text, base="http://example.com/", allowed_hosts=["example.com"])

    assert_linear(lambda n: f"http://{quote(_label('scrambled', n // 9))}/", redirect, 72_000)
    assert_linear(lambda n: "xn--" + _ace("scrambled", n // UNITS), suspicious_labels, 600_000)
