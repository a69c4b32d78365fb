"""Hostile input of a few hundred thousand characters: no super-linear behaviour.

Each case is run at two sizes, N and 8N, and compared by CPU time
(``linear.assert_linear``): a linear parser takes about 8 times as long on the
larger one, a quadratic one 64 times.  The check is about complexity, not speed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from linear import assert_linear

from urikit import IRI, URI, URIError, audit, is_valid, percent_decode, percent_encode
from urikit.text import extract
from urikit.validate import check

BIG = 300_000

HOSTILE: dict[str, Callable[[int], str]] = {
    "letters": lambda n: "a" * n,
    "percents": lambda n: "%" * n,
    "half-triplets": lambda n: "%4" * (n // 2),
    "triplets-then-space": lambda n: "%41" * (n // 3) + " ",
    "slashes": lambda n: "/" * n,
    "long-host-then-space": lambda n: "http://" + "a" * n + " ",
    "brackets": lambda n: "[" * n,
    "double-colons-in-brackets": lambda n: "http://[" + "::" * (n // 2) + "]",
    "at-signs": lambda n: "@" * n,
    "authority-at-signs": lambda n: "//" + "@" * n,
    "colons": lambda n: ":" * n,
    "authority-colons": lambda n: "//" + ":" * n + "x",
    "one-dot": lambda n: "1." * (n // 2),
    "dotted-host": lambda n: "http://" + "1.2.3." * (n // 6) + " ",
    "userinfo-without-at": lambda n: "http://" + "a:" * (n // 2) + "/",
    "userinfo-then-at": lambda n: "//" + "a" * n + "@",
    "long-scheme": lambda n: "a" * n + ":" + " ",
    "questions": lambda n: "?" * n + " ",
    "hashes": lambda n: "#" * n,
    "long-port": lambda n: "http://h:" + "1" * n + "a",
    "unclosed-ipv6": lambda n: "http://[" + "1:" * (n // 2),
    "long-zone": lambda n: "http://[::1%25" + "a" * n,
    "long-ipvfuture": lambda n: "http://[v1." + "a" * n,
    "delimiters": lambda n: "a:/?#[]@%" * (n // 9),
    "userinfo-triplets": lambda n: "//" + "a%41" * (n // 4) + "%4",
    "path-then-bad": lambda n: "/" + "a/" * (n // 2) + "\x00",
    "non-ascii": lambda n: "http://h/" + "é" * n,
    "spaces": lambda n: " " * n,
}


def _parse(text: str) -> None:
    try:
        URI(text)
    except URIError as error:
        assert 0 <= error.position <= len(text)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_uri_is_linear(name: str) -> None:
    assert_linear(HOSTILE[name], _parse)


def _check_rules(text: str) -> None:
    for rule in ("URI", "absolute-URI", "relative-ref", "authority", "host", "path", "query"):
        with contextlib.suppress(URIError):
            check(text, rule)


@pytest.mark.parametrize("name", ["long-host-then-space", "userinfo-triplets", "long-port",
                                  "authority-colons", "dotted-host", "delimiters"])  # fmt: skip
def test_validation_of_rules_is_linear(name: str) -> None:
    assert_linear(HOSTILE[name], _check_rules)


@pytest.mark.parametrize("name", ["spaces", "non-ascii", "percents", "brackets", "hashes"])
def test_lenient_is_linear(name: str) -> None:
    def repair(text: str) -> None:
        with contextlib.suppress(URIError):
            URI.lenient(text)

    # one violation is reported per character repaired: a smaller input suffices
    assert_linear(HOSTILE[name], repair, BIG // 4)


def test_percent_codec_is_linear() -> None:
    assert_linear(lambda n: "é %" * (n // 3), lambda t: percent_encode(t, "path", encoded=True))
    assert_linear(lambda n: "%C3%A9" * (n // 6), percent_decode)


def test_huge_valid_reference_round_trips() -> None:
    text = "http://" + "u" * BIG + "@" + "h" * BIG + ":" + "8" * 1000 + "/p" * BIG + "?" + "q" * BIG
    u = URI(text)
    assert str(u) == text
    assert u.host == "h" * BIG and u.port == "8" * 1000 and u.query == "q" * BIG
    assert is_valid(text, "URI")


# --- hostile shapes in the tools above the parser: audit, lenient, extract ------------

SHAPES: dict[str, Callable[[int], str]] = {
    "space-letter": lambda n: " a b" * (n // 4),
    "rlo-run": lambda n: "\u202e" * n,
    "url-then-percents": lambda n: "http://a/" + "%" * n,
    "less-than-signs": lambda n: "<" * n,
    "url-then-non-ascii": lambda n: "http://a/" + "\u00e9" * n,
    "url-then-bidi": lambda n: "http://a/" + "\u202e" * n,
    "url-then-spaces": lambda n: "http://a/" + " " * n + "x",
    "url-then-tabs": lambda n: "http://a/" + "\t" * n + "x",
    "authority-at-signs": lambda n: "http://" + "@" * n,
    "mixed": lambda n: "http://a/" + "\u00e9 \u202e%<" * (n // 5),
    "encoded-nuls": lambda n: "http://a/" + "%00" * (n // 3),
    "selectors": lambda n: "\ufe0f" * n,
}


def _lenient(cls: type[URI] | type[IRI]) -> Callable[[str], object]:
    def repair(text: str) -> None:
        with contextlib.suppress(URIError):
            cls.lenient(text)

    return repair


TOOLS: dict[str, Callable[[str], object]] = {
    "audit": audit,
    "URI.lenient": _lenient(URI),
    "IRI.lenient": _lenient(IRI),
    "extract": lambda text: list(extract(text)),
}


# "encoded-nuls" is a valid reference, which the lenient readings only validate
# (test_uri_is_linear); the regex of the pure path reads triplets about 8 times
# slower past ~200 KB, so the sizes are 8 times 75,000 characters: a repaired text
# of triplets is past that at both sizes.
CASES = [
    (tool, shape)
    for tool in sorted(TOOLS)
    for shape in sorted(SHAPES)
    if not (shape == "encoded-nuls" and tool.endswith("lenient"))
]


@pytest.mark.parametrize(("tool", "shape"), CASES)
def test_tools_are_linear_on_hostile_shapes(tool: str, shape: str) -> None:
    assert_linear(SHAPES[shape], TOOLS[tool], 2 * BIG)
