"""Script of a letter, and letters that look like ASCII: data for homograph checks.

Python's ``unicodedata`` has no Script property, so the ranges below are a
compact transcription of the Unicode Character Database file ``Scripts.txt``
(Unicode 15) for the scripts that domain names commonly use.  Only *letters*
(general category L*) are looked up: digits, punctuation and combining marks
are Common or Inherited and never make a label mixed.  A letter outside every
range reads as ``"Unknown"``; the table is a subset of ``Scripts.txt``, so a
rare script is reported as Unknown rather than by its name.

The confusables are a small subset of Unicode's ``confusables.txt`` (UTS #39):
lower-case Cyrillic, Greek and Armenian letters whose usual glyph is the same
as, or very close to, a Latin letter, mapped to that letter.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from typing import Final

# (first code point, last code point, script), sorted, not overlapping.
_RANGES: Final[tuple[tuple[int, int, str], ...]] = (
    (0x0041, 0x005A, "Latin"),
    (0x0061, 0x007A, "Latin"),
    (0x00AA, 0x00AA, "Latin"),
    (0x00BA, 0x00BA, "Latin"),
    (0x00C0, 0x00D6, "Latin"),
    (0x00D8, 0x00F6, "Latin"),
    (0x00F8, 0x02B8, "Latin"),
    (0x02E0, 0x02E4, "Latin"),
    (0x0370, 0x0373, "Greek"),
    (0x0375, 0x0377, "Greek"),
    (0x037A, 0x037D, "Greek"),
    (0x037F, 0x037F, "Greek"),
    (0x0384, 0x0384, "Greek"),
    (0x0386, 0x0386, "Greek"),
    (0x0388, 0x03E1, "Greek"),
    (0x03E2, 0x03EF, "Coptic"),
    (0x03F0, 0x03FF, "Greek"),
    (0x0400, 0x052F, "Cyrillic"),
    (0x0531, 0x058F, "Armenian"),
    (0x0591, 0x05FF, "Hebrew"),
    (0x0600, 0x06FF, "Arabic"),
    (0x0700, 0x074F, "Syriac"),
    (0x0750, 0x077F, "Arabic"),
    (0x0780, 0x07BF, "Thaana"),
    (0x07C0, 0x07FF, "Nko"),
    (0x08A0, 0x08FF, "Arabic"),
    (0x0900, 0x097F, "Devanagari"),
    (0x0980, 0x09FF, "Bengali"),
    (0x0A00, 0x0A7F, "Gurmukhi"),
    (0x0A80, 0x0AFF, "Gujarati"),
    (0x0B00, 0x0B7F, "Oriya"),
    (0x0B80, 0x0BFF, "Tamil"),
    (0x0C00, 0x0C7F, "Telugu"),
    (0x0C80, 0x0CFF, "Kannada"),
    (0x0D00, 0x0D7F, "Malayalam"),
    (0x0D80, 0x0DFF, "Sinhala"),
    (0x0E00, 0x0E7F, "Thai"),
    (0x0E80, 0x0EFF, "Lao"),
    (0x0F00, 0x0FFF, "Tibetan"),
    (0x1000, 0x109F, "Myanmar"),
    (0x10A0, 0x10FF, "Georgian"),
    (0x1100, 0x11FF, "Hangul"),
    (0x1200, 0x139F, "Ethiopic"),
    (0x13A0, 0x13FF, "Cherokee"),
    (0x1400, 0x167F, "Canadian_Aboriginal"),
    (0x1780, 0x17FF, "Khmer"),
    (0x1800, 0x18AF, "Mongolian"),
    (0x1C80, 0x1C8F, "Cyrillic"),
    (0x1C90, 0x1CBF, "Georgian"),
    (0x1D00, 0x1D25, "Latin"),
    (0x1D26, 0x1D2A, "Greek"),
    (0x1D2B, 0x1D2B, "Cyrillic"),
    (0x1D2C, 0x1D5C, "Latin"),
    (0x1D5D, 0x1D61, "Greek"),
    (0x1D62, 0x1D65, "Latin"),
    (0x1D66, 0x1D6A, "Greek"),
    (0x1D6B, 0x1D77, "Latin"),
    (0x1D78, 0x1D78, "Cyrillic"),
    (0x1D79, 0x1DBE, "Latin"),
    (0x1DBF, 0x1DBF, "Greek"),
    (0x1E00, 0x1EFF, "Latin"),
    (0x1F00, 0x1FFF, "Greek"),
    (0x2071, 0x2071, "Latin"),
    (0x207F, 0x207F, "Latin"),
    (0x2090, 0x209C, "Latin"),
    (0x2C60, 0x2C7F, "Latin"),
    (0x2C80, 0x2CFF, "Coptic"),
    (0x2D00, 0x2D2F, "Georgian"),
    (0x2D30, 0x2D7F, "Tifinagh"),
    (0x2D80, 0x2DDF, "Ethiopic"),
    (0x2DE0, 0x2DFF, "Cyrillic"),
    (0x2E80, 0x2FDF, "Han"),
    (0x3005, 0x3005, "Han"),
    (0x3007, 0x3007, "Han"),
    (0x3021, 0x3029, "Han"),
    (0x3038, 0x303B, "Han"),
    (0x3041, 0x309F, "Hiragana"),
    (0x30A1, 0x30FA, "Katakana"),
    (0x30FD, 0x30FF, "Katakana"),
    (0x3105, 0x312F, "Bopomofo"),
    (0x3131, 0x318E, "Hangul"),
    (0x31A0, 0x31BF, "Bopomofo"),
    (0x31F0, 0x31FF, "Katakana"),
    (0x3400, 0x4DBF, "Han"),
    (0x4E00, 0x9FFF, "Han"),
    (0xA640, 0xA69F, "Cyrillic"),
    (0xA720, 0xA721, "Common"),
    (0xA722, 0xA787, "Latin"),
    (0xA78B, 0xA7FF, "Latin"),
    (0xA960, 0xA97F, "Hangul"),
    (0xAB30, 0xAB5A, "Latin"),
    (0xAB5C, 0xAB64, "Latin"),
    (0xAB65, 0xAB65, "Greek"),
    (0xAB66, 0xAB69, "Latin"),
    (0xAB70, 0xABBF, "Cherokee"),
    (0xAC00, 0xD7AF, "Hangul"),
    (0xD7B0, 0xD7FF, "Hangul"),
    (0xF900, 0xFAFF, "Han"),
    (0xFB00, 0xFB06, "Latin"),
    (0xFB13, 0xFB17, "Armenian"),
    (0xFB1D, 0xFB4F, "Hebrew"),
    (0xFB50, 0xFDFF, "Arabic"),
    (0xFE70, 0xFEFF, "Arabic"),
    (0xFF21, 0xFF3A, "Latin"),
    (0xFF41, 0xFF5A, "Latin"),
    (0xFF66, 0xFF6F, "Katakana"),
    (0xFF71, 0xFF9D, "Katakana"),
    (0xFFA0, 0xFFDC, "Hangul"),
    (0x20000, 0x2FA1F, "Han"),
    (0x30000, 0x323AF, "Han"),
)
_STARTS: Final = tuple(first for first, _, _ in _RANGES)

#: Scripts that one writing system uses together (UTS #39 §5.1, "Highly
#: Restrictive"): a label may mix these with each other and with Latin.
COMBINED_SCRIPTS: Final[tuple[frozenset[str], ...]] = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)

#: Letters that look like a lower-case ASCII letter: other scripts' letters and
#: a few non-ASCII Latin ones (a subset of UTS #39 confusables.txt).
CONFUSABLE_WITH_LATIN: Final[dict[str, str]] = {
    # Cyrillic
    "\u0430": "a",  # а
    "\u0441": "c",  # с
    "\u0501": "d",  # ԁ
    "\u0435": "e",  # е
    "\u04bb": "h",  # һ
    "\u0456": "i",  # і
    "\u0458": "j",  # ј
    "\u04cf": "l",  # ӏ
    "\u043e": "o",  # о
    "\u0440": "p",  # р
    "\u051b": "q",  # ԛ
    "\u0455": "s",  # ѕ
    "\u051d": "w",  # ԝ
    "\u0445": "x",  # х
    "\u0443": "y",  # у
    "\u04af": "y",  # ү
    # Latin letters outside ASCII
    "\u0261": "g",  # ɡ
    "\u0131": "i",  # ı
    # Greek
    "\u03b1": "a",  # α
    "\u03f2": "c",  # ϲ
    "\u03b9": "i",  # ι
    "\u03f3": "j",  # ϳ
    "\u03ba": "k",  # κ
    "\u03bd": "v",  # ν
    "\u03bf": "o",  # ο
    "\u03c1": "p",  # ρ
    "\u03c5": "u",  # υ
    "\u03c7": "x",  # χ
    # Armenian
    "\u0570": "h",  # հ
    "\u0578": "n",  # ո
    "\u0585": "o",  # օ
    "\u0566": "q",  # զ
    "\u057d": "u",  # ս
    "\u0581": "g",  # ց
}


def script_of(ch: str) -> str | None:
    """The script of the letter ``ch``, ``"Unknown"`` if not tabled; None if not a letter."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    code = ord(ch)
    index = bisect_right(_STARTS, code) - 1
    if index >= 0:
        first, last, script = _RANGES[index]
        if first <= code <= last:
            return None if script == "Common" else script
    return "Unknown"


def scripts_of(label: str) -> set[str]:
    """The scripts of the letters of ``label`` (Common and Inherited left out)."""
    found: set[str] = set()
    for ch in label:
        script = script_of(ch)
        if script is not None:
            found.add(script)
    return found


def is_mixed(scripts: set[str]) -> bool:
    """Do ``scripts`` mix writing systems, beyond the combinations one system uses?"""
    if len(scripts) <= 1:
        return False
    return not any(scripts <= allowed for allowed in COMBINED_SCRIPTS)


def ascii_skeleton(label: str) -> str | None:
    """The ASCII text ``label`` looks like, when every non-ASCII letter in it is
    confusable with a Latin one; None otherwise (or when it has none)."""
    out: list[str] = []
    changed = False
    for ch in label.lower():
        if ch.isascii():
            out.append(ch)
            continue
        latin = CONFUSABLE_WITH_LATIN.get(ch)
        if latin is None:
            return None
        out.append(latin)
        changed = True
    return "".join(out) if changed else None
