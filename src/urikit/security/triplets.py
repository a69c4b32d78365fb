"""Runs of percent-encoded triplets (RFC 3986 §2.1), read a pass in C at a time.

``pct-encoded = "%" HEXDIG HEXDIG``.  A HEXDIG is no "%", so triplets cannot
overlap, and the runs of consecutive triplets in a text are the same read from
either end.  The checks of percent-encoded octets (:mod:`urikit.security.checks`)
read whole runs.  A regular expression reads a run a triplet at a time and tries
a match at every "%", and the text that a lenient repair makes of hostile input
holds millions of triplets, often in one run.  With the compiled core the runs and
their octets are found by one pass in C (``_speedups.triplet_runs``; the runs the
checks report, of a control or not UTF-8, by ``_speedups.triplet_concerns``, which
builds no octets for the others).  Without it,
these functions read such text with passes of ``str`` and ``bytes`` methods
instead: past the next few characters, which the regular expression reads, the
text is classified by ``bytes.translate`` (a character outside ASCII is encoded as
"?" first) and a triplet found with ``bytes.find`` in the classes; past a short
run, the run is compared with ``"%hh" * n`` a window at a time, the windows
doubling up to a bound.  The time taken is linear in the length of the text
whatever its runs.

Both are fast paths of the regular expressions that ``tests/test_security_fast.py``
writes out (a run, a triplet and a triplet of concern, each matched in turn), which
the tests hold them to.
"""

from __future__ import annotations

import binascii
import re
import sys
from binascii import unhexlify
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from string import hexdigits
from typing import Final

from .._store import speedups
from ..grammar import HEXDIG, PCT_ENCODED

__all__ = ["NOT_CONTROLS", "concern_runs", "decode_once", "encodes_any"]

_TRIPLET: Final = re.compile(PCT_ENCODED)
#: The runs of triplets of a text in one pass in C, with the compiled core.
_compiled_runs: Final[Callable[[str, int, int], list[tuple[int, int, bytes]]] | None] = (
    None if speedups is None else speedups.triplet_runs
)
#: The runs of triplets of a control or not UTF-8, in one pass in C, with the compiled core.
_compiled_concerns: Final[Callable[[str, int, int], list[tuple[int, int, bytes]]] | None] = (
    None if speedups is None else speedups.triplet_concerns
)
#: The first triplet of one of some octets, in one pass in C, with the compiled core.
_compiled_find: Final[Callable[[str, int, int, bytes, bytes | None], int] | None] = (
    None if speedups is None else speedups.triplet_find
)
#: Every octet but a control (%00-%1F, %7F): what ``bytes.translate`` deletes to leave
#: the controls.
NOT_CONTROLS: Final = bytes([*range(0x20, 0x7F), *range(0x80, 0x100)])
#: A triplet of a control (%00-%1F, %7F) or of an octet above 0x7F (RFC 3986 §2.1).
_CONCERN: Final = re.compile(f"%(?:[01][{HEXDIG}]|7[Ff]|[89A-Fa-f][{HEXDIG}])")
#: Runs up to this many triplets are read by one match of ``_HEAD``; longer ones by windows.
_SHORT: Final = 16
#: Possessive where the ``re`` module has it (Python 3.11): a run is taken whole.
_HEAD: Final = re.compile(
    f"(?:{PCT_ENCODED}){{1,{_SHORT}}}" + ("+" if sys.version_info >= (3, 11) else "")
)
#: The widest window compared at once, in characters (a whole number of triplets).
_WIDEST: Final = 3 * 2**16
#: How far a regular expression looks for a triplet before the classes are read.
_NEAR: Final = 64


def _table(classes: dict[str, str]) -> bytes:
    """A ``bytes.translate`` table: each character of a key as its value, others as "."."""
    table = bytearray(b"." * 256)
    for chars, name in classes.items():
        for ch in chars:
            table[ord(ch)] = ord(name)
    return bytes(table)


#: "%", and a HEXDIG (``string.hexdigits``: the class ``0-9A-Fa-f``) as "h".
_CLASSES: Final = _table({"%": "%", hexdigits: "h"})
#: "%", and as "c" the HEXDIG that begin a triplet of ``_CONCERN``.
_CONCERN_CLASSES: Final = _table({"%": "%", "01789ABCDEFabcdef": "c"})
#: The classes of a run of ``_WIDEST // 3`` triplets, and its "%".
_RUN_CLASSES: Final = b"%hh" * (_WIDEST // 3)
_PERCENTS: Final = b"%" * (_WIDEST // 3)


def _classes(text: str, start: int, end: int, table: bytes) -> bytes:
    """The classes of the characters of ``text[start:end]`` by ``table``, each a byte;
    a character outside ASCII is "?" (no HEXDIG, no "%")."""
    return text[start:end].encode("ascii", "replace").translate(table)


def _all_triplets(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` (at most ``_WIDEST`` characters) a run of whole triplets?"""
    return _classes(text, start, end, _CLASSES) == _RUN_CLASSES[: end - start]


def _longest_prefix(text: str, start: int, end: int) -> int:
    """The length of the longest run of whole triplets that begins ``text[start:end]``,
    which is not one itself (``end - start`` a multiple of 3, at most ``_WIDEST``).
    Each step halves the part not yet known and reads only that part."""
    good, bad = 0, (end - start) // 3  # triplets: a run up to ``good``, none up to ``bad``
    while bad - good > 1:
        middle = (good + bad) // 2
        if _all_triplets(text, start + 3 * good, start + 3 * middle):
            good = middle
        else:
            bad = middle
    return 3 * good


def _longest_suffix(text: str, start: int, end: int) -> int:
    """:func:`_longest_prefix` read from the end: the longest run that ends ``text[start:end]``."""
    good, bad = 0, (end - start) // 3
    while bad - good > 1:
        middle = (good + bad) // 2
        if _all_triplets(text, end - 3 * middle, end - 3 * good):
            good = middle
        else:
            bad = middle
    return 3 * good


def _window_octets(text: str, start: int, end: int) -> bytes | None:
    """The octets of ``text[start:end]`` (``end - start`` a multiple of 3, at most
    ``_WIDEST``) when it is a run of whole triplets, else None: a "%" at every third
    character and nowhere else, and HEXDIG pairs between, which ``unhexlify`` reads."""
    window = text[start:end].encode("ascii", "replace")
    count = (end - start) // 3
    if window[::3] != _PERCENTS[:count]:
        return None
    pairs = window.translate(None, b"%")
    if len(pairs) != 2 * count:
        return None
    try:
        return unhexlify(pairs)
    except binascii.Error:  # a character that is no HEXDIG
        return None


def _read_run(text: str, first: int, at: int, end: int) -> tuple[int, bytes]:
    """The end of the run of triplets of ``text`` that goes on from the triplet at
    ``at``, not past ``end`` (where ``(?:%HH)+`` matched at ``at`` ends), and the
    octets of the run from ``first`` (``at``, or where a run that holds ``at`` begins)."""
    head = _HEAD.match(text, at, end)
    assert head is not None
    done = head.end()
    parts = [_octets(text, first, done)]
    size = done - at
    if size < 3 * _SHORT:
        return done, parts[0]
    while True:
        size = min(2 * size, _WIDEST)
        stop = done + min(size, (end - done) // 3 * 3)
        window = _window_octets(text, done, stop) if stop > done else None
        if window is None:
            last = done + _longest_prefix(text, done, stop)
            parts.append(_octets(text, done, last))
            return last, b"".join(parts)
        parts.append(window)
        done = stop


def _run_start(text: str, at: int, start: int) -> int:
    """The beginning of the run of triplets of ``text`` that holds the triplet at
    ``at``, not before ``start``: ``at`` less 3 for each triplet that ends where
    the last one read begins."""
    first = at
    for _ in range(_SHORT):
        if first - 3 < start or _TRIPLET.match(text, first - 3) is None:
            return first
        first -= 3
    size = 3 * _SHORT
    while True:
        size = min(2 * size, _WIDEST)
        begin = first - min(size, (first - start) // 3 * 3)
        if begin == first or not _all_triplets(text, begin, first):
            return first - _longest_suffix(text, begin, first)
        first = begin


def _octets(text: str, start: int, end: int) -> bytes:
    """The octets of the run of triplets ``text[start:end]`` (RFC 3986 §2.1)."""
    return bytes.fromhex(text[start:end].replace("%", ""))


def _find(text: str, start: int, end: int, table: bytes, classes: bytes) -> int:
    """Where the characters of ``text[start:end]`` first have the classes ``classes``
    by ``table``, or -1.  The text is classified in windows that double, so that the
    time taken is that of the characters read up to there."""
    size = 64
    while end - start >= len(classes):
        stop = min(end, start + size)
        found = _classes(text, start, stop, table).find(classes)
        if found >= 0:
            return start + found
        start = stop - len(classes) + 1  # a match may begin in this window and end in the next
        size = min(2 * size, _WIDEST)
    return -1


def _search(
    text: str, pattern: re.Pattern[str], start: int, end: int, table: bytes, classes: bytes
) -> re.Match[str] | None:
    """The first match of ``pattern`` (three characters long) in ``text[start:end]``:
    sought by the regular expression over the next ``_NEAR`` characters, and past
    them from where the classes by ``table`` of the text first read ``classes``,
    which every match begins with."""
    near = min(end, start + _NEAR)
    found = pattern.search(text, start, near)
    if found is not None or near == end:
        return found
    hint = _find(text, near - 2, end, table, classes)  # a match may end past ``near``
    return None if hint < 0 else pattern.search(text, hint, end)


def concern_runs(text: str, start: int, end: int) -> Iterator[tuple[int, int, bytes]]:
    """The runs of triplets of ``text[start:end]`` that hold a triplet of a control
    (%00-%1F, %7F) or whose octets are not UTF-8 (RFC 3629 §4), as ``(start, end,
    octets)``, in order: the runs that the checks of encoded octets report.  One pass
    in C with the compiled core (``_speedups.triplet_concerns``), which also reads the
    UTF-8; else the runs that hold a triplet of ``_CONCERN`` (every run of a control
    or not UTF-8 holds one), each decoded."""
    if _compiled_concerns is not None:
        return iter(_compiled_concerns(text, start, end))
    return (run for run in _concern_runs(text, start, end) if _of_concern(run[2]))


def _of_concern(octets: bytes) -> bool:
    """Do ``octets`` hold a control, or are they not UTF-8?"""
    if octets.translate(None, NOT_CONTROLS):
        return True
    try:
        octets.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _concern_runs(text: str, start: int, end: int) -> Iterator[tuple[int, int, bytes]]:
    """The runs of ``text[start:end]`` that hold a triplet of ``_CONCERN``, read by passes
    of ``str`` and ``bytes`` methods: such a triplet is a "%" and a HEXDIG of class "c"
    in ``_CONCERN_CLASSES``."""
    done = start
    while (concern := _search(text, _CONCERN, done, end, _CONCERN_CLASSES, b"%c")) is not None:
        at = concern.start()
        first = _run_start(text, at, done)
        done, run = _read_run(text, first, at, end)
        yield first, done, run


def decode_once(text: str) -> str:
    """``text`` with each run of triplets replaced by its octets decoded as UTF-8,
    each octet that is not UTF-8 as a lone surrogate (``surrogateescape``): one
    percent-decoding, as ``urllib.parse.unquote(text, errors="surrogateescape")``
    gives it.  ``text`` itself when it holds no triplet."""
    if "%" not in text:
        return text
    pieces: list[str] = []
    done = 0
    for start, end, octets in _runs(text):
        pieces.append(text[done:start])
        pieces.append(octets.decode("utf-8", "surrogateescape"))
        done = end
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _runs(text: str) -> Iterable[tuple[int, int, bytes]]:
    """Every run of triplets of ``text``, as ``(start, end, octets)``, in order."""
    if _compiled_runs is not None:
        return _compiled_runs(text, 0, len(text))
    return _every_run(text)


def _every_run(text: str) -> Iterator[tuple[int, int, bytes]]:
    """:func:`_runs` read by passes of ``str`` and ``bytes`` methods."""
    done = 0
    while (triplet := _search(text, _TRIPLET, done, len(text), _CLASSES, b"%hh")) is not None:
        at = triplet.start()
        done, run = _read_run(text, at, at, len(text))
        yield at, done, run


def encodes_any(
    text: str, octets: bytes, then: bytes | None = None, start: int = 0, end: int | None = None
) -> bool:
    """Does ``text[start:end]`` hold a triplet of one of ``octets`` (RFC 3986 §2.1), in
    either case?  With ``then``, only such a triplet that a triplet of one of the octets
    of ``then`` follows, or an ASCII character that is one (``encodes_any(text, b"%",
    b"2")``: a "%25" that "2" or "%32" follows, which decodes to the beginning of a
    triplet)."""
    stop = len(text) if end is None else end
    if _compiled_find is not None:  # one pass in C, up to the first
        return _compiled_find(text, start, stop, octets, then) >= 0
    pattern = _triplet_of(octets, then or b"")
    return bool(octets) and pattern.search(text, start, stop) is not None


@lru_cache(maxsize=16)
def _triplet_of(octets: bytes, then: bytes = b"") -> re.Pattern[str]:
    """The triplets of ``octets``, either case ("%" and two characters, no repetition),
    and with ``then``, each followed by a triplet of one of its octets or an ASCII
    character that is one (a "%" that begins a triplet is that triplet)."""

    def digit(value: int) -> str:
        return "[" + "".join(sorted({f"{value:X}", f"{value:x}"})) + "]"

    def triplets(octets: bytes) -> str:
        return "%(?:" + "|".join(digit(o >> 4) + digit(o & 15) for o in octets) + ")"

    if not then:
        return re.compile(triplets(octets))
    chars = "".join(re.escape(chr(o)) for o in then if o < 0x80)
    literal = f"|(?!{PCT_ENCODED})[{chars}]" if chars else ""
    return re.compile(f"{triplets(octets)}(?:{triplets(then)}{literal})")
