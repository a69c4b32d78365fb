"""Hypothesis strategies for the WHATWG reading: URL-like text, near-valid and mutated.

``web_urls()`` assembles texts from pieces that exercise each state of the basic URL
parser (schemes special and not, slashes and backslashes, credentials, every host form
the host parser knows, ports, dot segments plain and percent-encoded, Windows drive
letters, queries and fragments with characters of every percent-encode set);
``mutated(text)`` inserts, deletes and replaces characters of a text;
``wpt_inputs()`` draws the inputs of ``urltestdata.json``, mutated or not.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

WPT = Path(__file__).resolve().parent / "vectors" / "wpt"

SCHEMES = ("http", "https", "HTTP", "ws", "wss", "ftp", "file", "FILE", "sc", "data",
           "blob", "javascript", "mailto", "web+demo", "a1.-+", "")  # fmt: skip
SEPARATORS = (":", "://", ":/", ":\\\\", ":///", ":\\/", "//", "/", "\\", ":////")
USERINFOS = ("", "user@", "user:pass@", ":@", "@", "u@v@", "%zz:%41@", "ü:ö@", "a b@")
HOSTS = (
    "example.com", "EXAMPLE.com.", "xn--i-7iq.ws", "i❤.ws", "faß.de", "0x7f.1", "127.0.0.1",
    "1.2.3", "4294967295", "4294967296", "0300.168.0xF0", "[::1]", "[1:2::3:4]",
    "[::ffff:1.2.3.4]", "[1::2::3]", "[", "%41.com", "%zz", "a..b", "exa mple", "a%00b",
    "localhost", "C|", "c:", "", "ab--c", "xn--a", "٠١", "a\u200cb", "ＥＸＡＭＰＬＥ.ｃｏｍ",
)  # fmt: skip
PORTS = ("", ":", ":80", ":443", ":21", ":0", ":65535", ":65536", ":8x", ":00080")
SEGMENTS = ("a", ".", "..", "%2e", ".%2E", "%2e%2e", "C:", "c|", "", "a b", "%zz", "ü",
            "{}", "x?y", "\\", "a#b", "\t", "~!$&'()*+,;=")  # fmt: skip
QUERIES = ("", "?", "?a=b&c=d", "?a b'\"<>", "?ü", "?%zz", "?#")
FRAGMENTS = ("", "#", "#f", "#a b`<>", "#ü", "#%zz", "##")


@st.composite
def web_urls(draw: st.DrawFn) -> str:
    """A URL-like text assembled from pieces of every state of the parser."""
    path = "/".join(draw(st.lists(st.sampled_from(SEGMENTS), max_size=5)))
    text = "".join(
        (
            draw(st.sampled_from(("", "", " ", "\t", "\x00"))),
            draw(st.sampled_from(SCHEMES)),
            draw(st.sampled_from(SEPARATORS)),
            draw(st.sampled_from(USERINFOS)),
            draw(st.sampled_from(HOSTS)),
            draw(st.sampled_from(PORTS)),
            draw(st.sampled_from(("", "/", "\\"))),
            path,
            draw(st.sampled_from(QUERIES)),
            draw(st.sampled_from(FRAGMENTS)),
        )
    )
    return text


def mutated(text: str) -> st.SearchStrategy[str]:
    """``text`` with a few characters inserted, deleted or replaced."""
    alphabet = st.sampled_from(list(":/\\?#@[]%.0123456789aAxX -\t\x00ü❤\u200d\ud800"))

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        chars = list(text)
        for _ in range(draw(st.integers(0, 4))):
            where = draw(st.integers(0, len(chars)))
            action = draw(st.sampled_from(("insert", "delete", "replace")))
            if action == "insert" or not chars:
                chars.insert(where, draw(alphabet))
            elif action == "delete":
                del chars[min(where, len(chars) - 1)]
            else:
                chars[min(where, len(chars) - 1)] = draw(alphabet)
        return "".join(chars)

    return mutate()


def _wpt_inputs() -> list[str]:
    data = json.loads((WPT / "urltestdata.json").read_text(encoding="utf-8"))
    return sorted({case["input"] for case in data if isinstance(case, dict)})


WPT_INPUTS = _wpt_inputs()
WPT_BASES = sorted(
    {
        case["base"]
        for case in json.loads((WPT / "urltestdata.json").read_text(encoding="utf-8"))
        if isinstance(case, dict) and case.get("base")
    }
)


def wpt_inputs() -> st.SearchStrategy[str]:
    """An input of urltestdata.json, often mutated."""
    return st.sampled_from(WPT_INPUTS).flatmap(lambda text: st.one_of(st.just(text), mutated(text)))


def any_urls() -> st.SearchStrategy[str]:
    """Assembled, mutated, WPT and arbitrary texts."""
    return st.one_of(web_urls(), web_urls().flatmap(mutated), wpt_inputs(), st.text(max_size=40))
