"""The fast paths of ``audit`` on hostile text give what the plain code gives.

``urikit.security.triplets`` reads runs of percent-encoded triplets (RFC 3986
§2.1) through the seam: in one pass in C with the compiled core, else by the
regular expressions of ``urikit.percent``; both are held here to the plain
transcriptions below, on each implementation (the ``backend`` fixture).  The invisible-character
check looks only for the invisible characters that the text holds, and counts
those after its first runs with ``str.count``.  The WHATWG reading gives ada only
the beginning of a URL that decides its scheme, userinfo, host and port.  A span
of a lenient reading after its last repair is mapped back by a shift, without the
runs of the repair (``test_security_screen`` checks the map at every position).

Each is held here to the plain code it replaces (the regular expressions below, a
triplet or a run at a time; ada on the whole text), on generated text, on runs that
end at and around the boundaries where the compiled passes change their step, and
through ``audit`` itself on the hostile shapes; and the triplets are read in time
linear in the length of the text.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linear import assert_linear
from test_hostile import SHAPES
from test_security import ATTACKS, CLEAN
from test_security_screen import CORPUS

from urikit.grammar import HEXDIG, PCT_ENCODED
from urikit.report import INVISIBLE_FORMAT, Report, Severity
from urikit.security import checks, differential, reading
from urikit.security.audit import MAX_FINDINGS, audit, full_audit
from urikit.security.findings import finding, run_message
from urikit.security.hosts import is_presentation_selector

audit_module = sys.modules[full_audit.__module__]

# --- the plain transcriptions ------------------------------------------------------

RUN = re.compile(f"(?:{PCT_ENCODED})+")
TRIPLET = re.compile(PCT_ENCODED)
CONCERN = re.compile(f"%(?:[01][{HEXDIG}]|7[Ff]|[89A-Fa-f][{HEXDIG}])")


def plain_concern_runs(text: str, start: int, end: int) -> Iterator[tuple[int, int, bytes]]:
    """Each triplet of concern found by the regex, its run read a triplet at a time."""
    done = start
    while (concern := CONCERN.search(text, done, end)) is not None:
        first = concern.start()
        while first - 3 >= done and TRIPLET.match(text, first - 3) is not None:
            first -= 3
        run = RUN.match(text, first, end)
        assert run is not None
        done = run.end()
        yield first, done, bytes.fromhex(run.group().replace("%", ""))


def reported(octets: bytes) -> bool:
    """Does a run of these octets hold a control (%00-%1F, %7F), or are they not UTF-8?"""
    if any(octet < 0x20 or octet == 0x7F for octet in octets):
        return True
    try:
        octets.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _decoded_run(run: re.Match[str]) -> str:
    return bytes.fromhex(run.group().replace("%", "")).decode("utf-8", "surrogateescape")


def plain_decode_once(text: str) -> str:
    return RUN.sub(_decoded_run, text)


_INVISIBLE = re.compile(f"[{INVISIBLE_FORMAT}]+")
_SELECTOR_FIRST = re.compile(f"(?<![{INVISIBLE_FORMAT}])[\ufe0e\ufe0f]")


def plain_check_invisible(text: str, findings: list[Report]) -> None:
    """``invisible-character`` with every run found by the class of all invisible characters."""
    count = 0
    runs = _INVISIBLE.finditer(text)
    for match in runs:
        start, end = match.span()
        if is_presentation_selector(text, start):
            start += 1
        if start == end:
            continue
        count += 1
        run = text[start:end]
        message = (
            f"U+{ord(run[0]):04X}, an invisible or bidi formatting character: "
            "the URI does not look like what it is"
        )
        span = (start, end)
        findings.append(
            finding(
                "invisible-character",
                run_message(message, len(run), span),
                Severity.MEDIUM,
                span,
            )
        )
        if count == MAX_FINDINGS:
            break
    else:
        return
    following = next(runs, None)
    if following is None:
        return
    rest = following.start()
    chars = sum(map(len, _INVISIBLE.findall(text, rest)))
    chars -= sum(
        is_presentation_selector(text, m.start()) for m in _SELECTOR_FIRST.finditer(text, rest)
    )
    if chars == 0:
        return
    (last,) = deque(_INVISIBLE.finditer(text, rest), maxlen=1)
    findings.append(
        finding(
            "invisible-character",
            f"{chars} more invisible or bidi formatting characters after the first "
            f"{MAX_FINDINGS} runs, from the start of this span to its end: the URI does "
            "not look like what it is",
            Severity.MEDIUM,
            (rest, last.end()),
        )
    )


def plain_traverses(raw: str) -> str | None:
    """``_traverses`` with its first tests on the lower-cased text and every part split."""
    if "%" not in raw:
        return None
    lowered = raw.lower()
    if "." not in raw and "%2e" not in lowered and "%25" not in lowered:
        return None
    decoded = raw
    for _ in range(3):
        again = plain_decode_once(decoded)
        if again == decoded:
            break
        decoded = again
    parts = re.split(r"[/\\]", decoded)
    return decoded if any(part in (".", "..") for part in parts) else None


# --- text to read ----------------------------------------------------------------------

PIECES = [
    "%", "%4", "%41", "%00", "%0a", "%7E", "%7F", "%7f", "%C3", "%A9", "%c3%a9", "%E2%80%AE",
    "%2e", "%2E", "%25", "%2F", "%5C", "%FF", "a", "F", "7", "c", "\u00e9", "/", "\\", ".",
    "..", "\u202e", "\u200b", "\ufe0f", "\u2764", "\u00ad", "x", "?", "&", "=", "\U0001f600",
    "%1f", "%20", "%80", "%F0%9F%98%80", "%ED%A0%80", "%C0%AF", "%E0%80%AF", "%F4%90%80%80",
    "%f0%90%80%80", "%F4%8F%BF%BF", "%EF%BF%BF", "%DF%BF", "2", "%32", "E", "%45", "%65",
    "%2525", "%252e", "%25%32%45",
]  # fmt: skip


@st.composite
def triplet_text(draw: st.DrawFn) -> str:
    """Text of triplets and what breaks runs of them, with long runs repeated."""
    parts = draw(st.lists(st.sampled_from(PIECES), max_size=30))
    if draw(st.booleans()):
        unit = "".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4)))
        at = draw(st.integers(0, len(parts)))
        parts.insert(at, unit * draw(st.integers(1, 400)))
    return "".join(parts)


def _boundary_texts() -> Iterator[str]:
    """Runs that end at and around each window boundary, broken in every way, with a
    triplet of concern at the start, in the middle or at the end, read forwards and
    backwards; and triplets that begin where one window of the search ends."""
    widest = 3 * 2**16
    breaks = ["", "%", "%4", "x", "\u00e9", "%%41", "4", "%4g", "%%%", "%%%41"]
    for count in [1, 15, 16, 17, 32, 48, 49, 95, 96, 97, 400, 1000, 2**16 + 1, 2**17 - 1]:
        for stop in breaks if count < 2**16 else breaks[:4]:
            yield "%00" + "%41" * count + stop + "%41"
            yield "ab%4" + "%41" * count + "%00" + stop + "%41" * 3
            yield "a" + "%E2%80%AE" * (count // 3 + 1) + stop
            yield "%41" * count + stop + "%41" * count + "%FF"
    yield "%41" * (widest // 3 + 5) + "%7F"
    yield "x" + "%41" * (2 * widest) + "%C3" + "%41" * (widest + 7) + "%00%"
    # a triplet that begins where the regular expression stops looking, or where a
    # window of the classes ends (64, 128, 256... characters, each beginning one or
    # two characters before the last one ended)
    for length in [*range(50, 1100), *range(2000, 2080), *range(4050, 4130)]:
        yield "a" * length + "%C3%41"


BOUNDARIES = list(_boundary_texts())


def _triplets(backend: ModuleType) -> ModuleType:
    """``urikit.security.triplets`` of the copy ``backend``."""
    return importlib.import_module(f"{backend.__name__}.security.triplets")


def _same_runs(backend: ModuleType, text: str, start: int = 0, end: int | None = None) -> None:
    """The runs of triplets and the runs of concern as the seam finds them (in C with the
    compiled core, else by ``percent``), and as the regular expressions do; those that
    the checks report, as ``security.triplets`` gives them."""
    stop = len(text) if end is None else end
    runs = [
        (m.start(), m.end(), bytes.fromhex(m.group().replace("%", "")))
        for m in RUN.finditer(text, start, stop)
    ]
    assert backend._seam.triplet_runs(text, start, stop) == runs
    plain = list(plain_concern_runs(text, start, stop))
    wanted = [run for run in plain if reported(run[2])]
    assert backend._seam.triplet_concerns(text, start, stop) == wanted
    assert list(_triplets(backend).concern_runs(text, start, stop)) == wanted


def _same_decoding(backend: ModuleType, text: str) -> None:
    """decode_once as the module does it and by the regular expressions."""
    assert _triplets(backend).decode_once(text) == plain_decode_once(text), text[:80]


# --- the triplets -------------------------------------------------------------------


@pytest.mark.parametrize("part", range(8))
def test_concern_runs_at_window_boundaries(backend: ModuleType, part: int) -> None:
    for text in BOUNDARIES[part::8]:
        _same_runs(backend, text)
        _same_runs(backend, text, 1, len(text) - 1)
        _same_decoding(backend, text)


@settings(max_examples=300)
@given(triplet_text(), st.integers(0, 60), st.integers(0, 60))
def test_concern_runs_are_the_regex_runs(
    backend: ModuleType, text: str, cut_start: int, cut_end: int
) -> None:
    _same_runs(backend, text)
    start = min(cut_start, len(text))
    _same_runs(backend, text, start, max(start, len(text) - cut_end))


@settings(max_examples=300)
@given(triplet_text())
def test_decode_once_is_the_regex_decoding(backend: ModuleType, text: str) -> None:
    _same_decoding(backend, text)


def _as_triplets(octets: bytes, case: str = "X") -> str:
    return "".join(f"%{octet:02{case}}" for octet in octets)


@given(st.binary(max_size=12), st.sampled_from(["X", "x"]))
def test_runs_reported_are_those_of_a_control_or_not_utf8(
    backend: ModuleType, octets: bytes, case: str
) -> None:
    text = "a" + _as_triplets(octets, case) + "b"
    wanted = [(1, len(text) - 1, octets)] if octets and reported(octets) else []
    assert list(_triplets(backend).concern_runs(text, 0, len(text))) == wanted


def test_runs_reported_by_every_utf8_rule(backend: ModuleType) -> None:
    """Every sequence of two octets, and of three or four from each leading octet above
    0xDF with every second octet (the ranges of RFC 3629 §4 that are not 80-BF:
    E0 A0-BF, ED 80-9F, F0 90-BF, F4 80-8F), each alone in a run."""
    sequences = [bytes([a, b]) for a in range(256) for b in range(256)]
    for lead in range(0xE0, 0x100):
        for second in range(256):
            for tail in (b"\x80", b"\xbf", b"\x7f", b"\xc0", b"\x80\x80", b"\x80\x7f"):
                sequences.append(bytes([lead, second]) + tail)
    text = "/".join(_as_triplets(octets) for octets in sequences)
    found = {octets for _, _, octets in _triplets(backend).concern_runs(text, 0, len(text))}
    assert found == {octets for octets in sequences if reported(octets)}


#: "%2E" or "%25" in either case: the triplets of "." and "%" (RFC 3986 §2.1).
PLAIN_DOT_OR_PERCENT = re.compile("%2[5Ee]")


@settings(max_examples=300)
@given(st.one_of(triplet_text(), st.text()))
def test_encodes_any_is_the_regex(backend: ModuleType, text: str) -> None:
    """encodes_any and the seam's triplet_find against a regular expression written out,
    where the first is, from either end (a negative start counts from the end)."""
    plain = PLAIN_DOT_OR_PERCENT.search(text)
    triplets = _triplets(backend)
    assert triplets.encodes_any(text, b".%") == (plain is not None)
    assert triplets.encodes_any(text, b"") is False
    find = backend._seam.triplet_find
    assert find(text, 0, len(text), b".%") == (-1 if plain is None else plain.start())
    cut = len(text) // 2
    later = PLAIN_DOT_OR_PERCENT.search(text[cut:])
    assert find(text, cut - len(text), len(text), b".%") == (
        -1 if later is None else cut + later.start()
    )


@given(st.text())
def test_decode_once_of_any_text(backend: ModuleType, text: str) -> None:
    _same_decoding(backend, text)


@settings(max_examples=300)
@given(st.one_of(triplet_text(), st.text()))
def test_decode_once_is_unquote(backend: ModuleType, text: str) -> None:
    assert _triplets(backend).decode_once(text) == unquote(text, errors="surrogateescape")


@pytest.mark.parametrize(
    "part",
    ["%2e", "%2E%2e", "%252e", "%252E%252E", "%25%32%65", "%25%32e", "%252%65", "%25252e",
     "%25%32%35%32e", "a/%252e/b", ".%252e", "%2525%32e/x"],
)  # fmt: skip
def test_traverses_double_and_triple_encoding(part: str) -> None:
    """Dot-segments encoded once, twice and three times, each way the "2" and "E" of a
    "%2E" that decoding makes can be written (RFC 3986 §7.3)."""
    assert checks._traverses(part) is not None
    assert checks._traverses(part) == plain_traverses(part)


#: A "%" that begins no triplet, which no part of a reference holds.
BARE_PERCENT = re.compile(f"%(?![{HEXDIG}]{{2}})")


@settings(max_examples=500)
@given(triplet_text())
def test_traverses_is_the_plain_test(text: str) -> None:
    part = BARE_PERCENT.sub("%25", text)  # as a path or query holds it
    assert checks._traverses(part) == plain_traverses(part)


def _first_triplet_of(text: str, start: int, wanted: bytes, then: bytes | None = None) -> int:
    """The first triplet of ``text[start:]`` of an octet in ``wanted``, read as the
    regular expression of a triplet finds them; with ``then``, the first that a triplet
    of an octet of ``then``, or an ASCII character that is one, follows."""
    for match in TRIPLET.finditer(text, start):
        if int(match.group()[1:], 16) not in wanted:
            continue
        after = match.end()
        following = TRIPLET.match(text, after)
        if following is not None:
            octet = int(following.group()[1:], 16)
        else:
            octet = ord(text[after]) if after < len(text) and text[after].isascii() else -1
        if then is None or (octet >= 0 and octet in then):
            return match.start()
    return -1


WANTED = [
    b".%",
    b".",
    b"\xae",
    b"\xa0\xaf",
    b"\x2e\x3e",
    b"\x00\x7f",
    b"\x80\xe2",
    b"A",
    b"\x2e\x3e\x4e",
    b"\xab\xcd\xef",
    b"\x5a\x5b\x5c\x5d\x5e",
]


@settings(max_examples=300)
@given(st.one_of(triplet_text(), st.text()), st.sampled_from(WANTED), st.integers(0, 40))
def test_triplet_find_is_the_regex(
    backend: ModuleType, text: str, wanted: bytes, start: int
) -> None:
    """The first triplet of some octets as the seam finds it (in C, 16 characters a step
    where they begin with one or two characters; else by a regular expression of them)
    and as the triplets read one by one give it."""
    start = min(start, len(text))
    plain = _first_triplet_of(text, start, wanted)
    assert backend._seam.triplet_find(text, start, len(text), wanted) == plain


THEN = [None, b"2", b"2%", b"\x80", b"E."]


@settings(max_examples=300)
@given(
    st.one_of(triplet_text(), st.text()),
    st.sampled_from(WANTED),
    st.sampled_from(THEN),
    st.integers(0, 40),
)
def test_triplet_find_then_is_the_regex(
    backend: ModuleType, text: str, wanted: bytes, then: bytes | None, start: int
) -> None:
    """A triplet of some octets that a triplet or an ASCII character of others follows,
    as the seam finds it, against a reading written out."""
    start = min(start, len(text))
    find = backend._seam.triplet_find
    assert find(text, start, len(text), wanted, then) == _first_triplet_of(
        text, start, wanted, then
    )
    for end in range(max(start, len(text) - 3), len(text)):  # nothing read past end
        cut = _first_triplet_of(text[:end], start, wanted, then)
        assert find(text, start, end, wanted, then) == cut


@pytest.mark.parametrize(
    ("text", "found"),
    [("%252e", True), ("%25%32E", True), ("%25%322", True), ("%25x2", False), ("%25%3", False),
     ("%25", False), ("%25%2", False), ("%25%41", False), ("%2E2", False), ("%25\u0662", False),
     ("%2525%32", True)],
)  # fmt: skip
def test_encodes_a_percent_then_a_two(backend: ModuleType, text: str, found: bool) -> None:
    assert _triplets(backend).encodes_any(text, b"%", b"2") is found
    for end in range(len(text) + 1):  # the text cut short: nothing read past end
        plain = _first_triplet_of(text[:end], 0, b"%", b"2")
        assert backend._seam.triplet_find(text, 0, end, b"%", b"2") == plain, end


@pytest.mark.parametrize("case", ["X", "x"])
@pytest.mark.parametrize("wanted", [b".%", b"\xae", b"\x00\x7f", b"\xa0\xaf"])
def test_triplet_find_at_every_offset(backend: ModuleType, wanted: bytes, case: str) -> None:
    """A triplet wanted, in either case, or one that only begins like one, at every
    offset of a text of other triplets and letters, and at every distance from its end."""
    target = _as_triplets(wanted[-1:], case)
    triplets = _triplets(backend)
    for filler in ("x", "%E2%80", "%2", "%2%"):
        for at in range(50):
            for text in (filler * 20)[:at] + target, (filler * 20)[:at] + target[:2] + "%":
                for end in range(len(text) - 4, len(text) + 1):
                    plain = _first_triplet_of(text[:end], 0, wanted)
                    assert backend._seam.triplet_find(text, 0, end, wanted) == plain, (text, end)
                    assert triplets.encodes_any(text[:end], wanted) == (plain >= 0)


# --- invisible characters -----------------------------------------------------------


@settings(max_examples=300)
@given(
    st.one_of(st.text(), st.text(alphabet="a\u00e9\u202e\u200b\U0001f600")), st.text(max_size=20)
)
def test_chars_in_is_a_search_for_each(backend: ModuleType, text: str, chars: str) -> None:
    """The characters that a text holds, as the seam finds them (in one pass in C with
    the compiled core), and as a search for each finds them (in text of each width of
    code unit)."""
    chars_in = backend._seam.chars_in
    assert chars_in(text, chars) == "".join(ch for ch in chars if ch in text)
    assert chars_in(text, audit_module._INVISIBLE_CHARS) == "".join(
        ch for ch in audit_module._INVISIBLE_CHARS if ch in text
    )


def test_chars_in_refuses_too_many_astral_characters(backend: ModuleType) -> None:
    astral = "".join(chr(0x1F600 + k) for k in range(65))
    assert backend._seam.chars_in("\U0001f600", astral[:64]) == "\U0001f600"
    if backend.compiled:
        with pytest.raises(ValueError, match="at most 64"):
            backend._seam.chars_in("a", astral)


@st.composite
def invisible_text(draw: st.DrawFn) -> str:
    """Text with many runs of invisible characters (past MAX_FINDINGS of them) and
    variation selectors after emoji, keycap bases and other characters."""
    pieces = ["\u202e", "\u200b", "\ufe0f", "\ufe0e", "\u2764", "1", "\u20e3", "a", "\u00ad", "é"]
    unit = "".join(draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=6)))
    head = "".join(draw(st.lists(st.sampled_from(pieces), max_size=10)))
    return head + unit * draw(st.integers(0, 300))


def _invisible(check: Callable[[str, list[Report]], None], text: str) -> list[Report]:
    found: list[Report] = []
    check(text, found)
    return found


@settings(max_examples=200)
@given(invisible_text())
def test_invisible_characters_are_the_plain_findings(text: str) -> None:
    fast = _invisible(audit_module._check_invisible, text)
    assert fast == _invisible(plain_check_invisible, text)


@given(st.text())
def test_invisible_characters_of_any_text(text: str) -> None:
    fast = _invisible(audit_module._check_invisible, text)
    assert fast == _invisible(plain_check_invisible, text)


# --- through audit ------------------------------------------------------------------


@contextmanager
def plain_paths() -> Iterator[None]:
    """``audit`` with the plain transcriptions in place of the fast paths."""
    with pytest.MonkeyPatch.context() as swap:
        swap.setattr(checks, "concern_runs", plain_concern_runs)
        swap.setattr(checks, "decode_once", plain_decode_once)
        swap.setattr(audit_module, "_check_invisible", plain_check_invisible)
        swap.setattr(differential, "_read_ada", differential._ada_reading)
        yield


HOSTILE_TEXTS = [make(3_000) for make in SHAPES.values()] + [
    "http://a/" + text for text in BOUNDARIES[:: len(BOUNDARIES) // 40]
]


@pytest.mark.parametrize("index", range(len(HOSTILE_TEXTS)))
def test_audit_of_hostile_text_is_the_plain_audit(index: int) -> None:
    text = HOSTILE_TEXTS[index]
    fast = (audit(text), full_audit(text))
    with plain_paths():
        assert (audit(text), full_audit(text)) == fast


@settings(max_examples=100)
@given(st.one_of(triplet_text(), invisible_text()), st.sampled_from(["", "http://a/", "//h/?"]))
def test_audit_of_generated_text_is_the_plain_audit(text: str, head: str) -> None:
    fast = full_audit(head + text)
    with plain_paths():
        assert full_audit(head + text) == fast


# --- the map from the repaired text back to the input --------------------------------


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("http://a/" + "x " * 500 + "%00", (1009, 1012)),
        (" <http://a/" + "x " * 500 + "%00>  ", (1011, 1014)),
        ("http://a/" + "\u00e9 " * 500 + "%C3", (1009, 1012)),
    ],
)
def test_spans_after_the_last_repair_are_mapped_without_the_runs(
    text: str, span: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # past the last replacement the map is a shift from the end, as up to the first
    # one it is a shift from the start: listing the runs repeats the whole repair
    def refuse(text: str, limit: int | None = None, *, iri: bool = False) -> object:
        raise AssertionError("the runs were listed")

    monkeypatch.setattr(reading, "replaced_before", refuse)
    found = [f for f in audit(text) if f.code in ("encoded-control", "invalid-utf8")]
    assert [f.span for f in found] == [span]
    monkeypatch.undo()
    assert audit(text) == full_audit(text)


# --- linear time --------------------------------------------------------------------

LINEAR: dict[str, Callable[[int], str]] = {
    "long-run-then-concern": lambda n: "%41" * (n // 3) + "%00",
    "concern-runs": lambda n: "%00x" * (n // 4),
    "false-hints": lambda n: "%7E" * (n // 3) + "%00",
    "long-concern-run": lambda n: "%E2%80%AE" * (n // 9) + "%4",
    "broken-triplets": lambda n: "%%41" * (n // 4),
    "percents": lambda n: "%" * n,
}


@pytest.mark.parametrize("name", sorted(LINEAR))
def test_triplets_are_read_in_linear_time(backend: ModuleType, name: str) -> None:
    triplets = _triplets(backend)

    def read(text: str) -> None:
        for _ in triplets.concern_runs(text, 0, len(text)):
            pass
        triplets.decode_once(text)

    assert_linear(LINEAR[name], read)


# --- the beginning of a URL that decides what WHATWG parsers read ------------------

URLISH = [
    "http:", "HTTPS:", "ws:", "file:", "foo:", "ftp:", "/", "//", "\\", "?", "#", "@", ":", "a",
    "b.c", "1", "[::1]", "%41", "\t", "\n", " ", "\x00", "\u202e", "\u00e9", "\uff0e", ".",
    "..", "C:", "|", "x@y", ":80", ":99999", " a", "a b", "ab\t:", "\x01", "x1:", "a+b.c",
]  # fmt: skip


@st.composite
def urlish_text(draw: st.DrawFn) -> str:
    return "".join(draw(st.lists(st.sampled_from(URLISH), max_size=14)))


def _same_ada_reading(text: str) -> None:
    for relative in (False, True):
        whole = differential._ada_reading(text, relative)
        assert differential._read_ada(text, relative) == whole, (text, relative)


needs_ada = pytest.mark.skipif(not differential.has_ada(), reason="ada_url is not installed")


@needs_ada
@settings(max_examples=500)
@given(urlish_text())
def test_ada_reads_the_decisive_beginning_as_the_whole(text: str) -> None:
    _same_ada_reading(text)


@needs_ada
def test_ada_reads_the_decisive_beginning_of_real_and_hostile_urls() -> None:
    texts = [make(3_000) for make in SHAPES.values()]
    texts += [t for ts in ATTACKS.values() for t in ts] + CLEAN
    texts += CORPUS[:: max(1, len(CORPUS) // 500)]
    for text in texts:
        _same_ada_reading(text)


def test_the_decisive_beginning_is_short_for_a_long_path() -> None:
    assert differential._decisive("http://a/" + "\u202e" * 10, False) == "http://a/"
    assert differential._decisive("HTTPS:\\\\a:1\\b", False) == "HTTPS:\\\\a:1\\"
    assert differential._decisive("\u202e" * 10, True) == "\u202e"
    assert differential._decisive(" a b a b", True) == " a "
    assert differential._decisive("ab\tc:d e", True) == "ab\tc:d e"
    assert differential._decisive("\u202e" * 10, False) == "\u202e" * 10
    assert differential._decisive("http://" + "x" * 10, False) == "http://" + "x" * 10
    assert differential._decisive("http:///a/b", False) == "http:///a/"
    assert differential._decisive("file://h/C:/x", False) == "file://h/C:/x"
    assert differential._decisive("http://" + "@" * 10, False) == "http://@"
    assert differential._decisive("wss:/a@@?q", True) == "wss:/@"
