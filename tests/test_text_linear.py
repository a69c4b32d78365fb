"""A crawler is not stalled: ``links`` and ``extract`` take linear time on hostile input.

Each shape is run at n and 4n characters and the CPU times are compared: a
linear pass takes about 4 times as long, a quadratic one 16 times (CPU time
without the garbage collector, ``linear.cpu_seconds``).  The
bound is generous (8 times) and a run is retried, so that a busy machine
does not fail it; there is no wall-clock limit.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from linear import cpu_seconds

from urikit.text import extract, links

SIZE = 1 << 18  # 256 KiB; the larger run is 1 MiB
RATIO = 8.0
FLOOR = 0.01  # seconds: below this the clock says little


def _cpu(work: Callable[[str], object], text: str) -> float:
    return cpu_seconds(lambda: work(text))


def assert_linear(work: Callable[[str], object], unit: str, size: int = SIZE) -> None:
    small_text = unit * (size // len(unit))
    large_text = unit * (4 * size // len(unit))
    ratios = []
    for _ in range(4):
        small = max(min(_cpu(work, small_text) for _ in range(2)), FLOOR)
        large = _cpu(work, large_text)
        ratios.append(large / small)
        if large <= RATIO * small:
            return
    pytest.fail(f"4 times the input took {min(ratios):.1f} times as long: not linear")


def _links(html: str) -> object:
    return links(html, "http://a/")


HOSTILE_HTML = {
    "unterminated attributes": "<a href=",
    "processing instructions": "<?x ",
    "end tag opens": "</",
    "tag opens and line feeds": "<a\n",
    "markup declarations": "<![ ",
    "less-than signs": "<",
    "comment opens": "<!--",
    "references": "<a href='" + "&amp",
    "escaped scripts": "<script><!--<script>",
    "quoted attributes": "<a b='x' ",
    "foreign content": "<svg>",
    "meta opens": "<meta ",
    "links": "<a href=x>",
    "srcset commas": "<img srcset='" + "a,",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_HTML))
def test_links_is_linear(name: str) -> None:
    assert_linear(_links, HOSTILE_HTML[name], SIZE // 4 if name == "links" else SIZE)


def test_links_of_hostile_bytes_is_linear() -> None:
    assert_linear(lambda text: links(text.encode(), "http://a/"), "<a href=")


def _extract(text: str) -> object:
    return list(extract(text, suffix=True))


HOSTILE_TEXT = {
    "bare percents": "%",
    "non-ASCII letters": "\u00e9",
    "less-than signs": "<",
    "quotes": '"',
    "colons": "a:",
    "brackets": "http://[",
    "angle with words": "<http://a/ b ",
    "open parentheses": "(",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TEXT))
def test_extract_is_linear(name: str) -> None:
    unit = HOSTILE_TEXT[name]
    if name in ("bare percents", "non-ASCII letters", "open parentheses"):
        assert_linear(lambda text: _extract("http://a/" + text), unit)
    else:
        assert_linear(_extract, unit)


def test_one_long_repaired_uri_is_one_match_with_one_report_per_run() -> None:
    text = "see http://a/" + "%" * 1000 + "\u00e9" * 1000 + " now"
    (match,) = extract(text)
    assert str(match) == "http://a/" + "%25" * 1000 + "%C3%A9" * 1000
    assert [(r.code, r.span) for r in match.reports] == [
        ("bare-percent", (13, 1013)),
        ("non-ascii", (1013, 2013)),
    ]
