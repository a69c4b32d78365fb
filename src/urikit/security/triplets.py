"""Runs of percent-encoded triplets (RFC 3986 §2.1), as the checks of encoded octets read them.

``pct-encoded = "%" HEXDIG HEXDIG``.  A HEXDIG is no "%", so triplets cannot
overlap, and the runs of consecutive triplets in a text are the same read from
either end.  The checks of percent-encoded octets (:mod:`urikit.security.checks`)
read whole runs: those of a control or not UTF-8 (:func:`concern_runs`), a text
decoded once (:func:`decode_once`), and whether a triplet of some octets occurs
(:func:`encodes_any`).  The runs are found by ``percent.triplet_runs`` and its
companions, or in one pass in C with the compiled core (``urikit._seam``); either
way the time taken is linear in the length of the text, whatever its runs.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import _seam
from ..percent import NOT_CONTROLS

__all__ = ["NOT_CONTROLS", "concern_runs", "decode_once", "encodes_any"]


def concern_runs(text: str, start: int, end: int) -> Iterator[tuple[int, int, bytes]]:
    """The runs of triplets of ``text[start:end]`` that hold a triplet of a control
    (%00-%1F, %7F) or whose octets are not UTF-8 (RFC 3629 §4), as ``(start, end,
    octets)``, in order: the runs that the checks of encoded octets report."""
    return iter(_seam.triplet_concerns(text, start, end))


def decode_once(text: str) -> str:
    """``text`` with each run of triplets replaced by its octets decoded as UTF-8,
    each octet that is not UTF-8 as a lone surrogate (``surrogateescape``): one
    percent-decoding, as ``urllib.parse.unquote(text, errors="surrogateescape")``
    gives it.  ``text`` itself when it holds no triplet."""
    if "%" not in text:
        return text
    pieces: list[str] = []
    done = 0
    for start, end, octets in _seam.triplet_runs(text, 0, len(text)):
        pieces.append(text[done:start])
        pieces.append(octets.decode("utf-8", "surrogateescape"))
        done = end
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def encodes_any(
    text: str, octets: bytes, then: bytes | None = None, start: int = 0, end: int | None = None
) -> bool:
    """Does ``text[start:end]`` hold a triplet of one of ``octets`` (RFC 3986 §2.1), in
    either case?  With ``then``, only such a triplet that a triplet of one of the octets
    of ``then`` follows, or an ASCII character that is one (``encodes_any(text, b"%",
    b"2")``: a "%25" that "2" or "%32" follows, which decodes to the beginning of a
    triplet)."""
    stop = len(text) if end is None else end
    return _seam.triplet_find(text, start, stop, octets, then) >= 0
