"""The multi-byte decoders of the WHATWG Encoding Standard, as it writes them.

Python's codecs do not decode these encodings as browsers do.  They differ in
what an error swallows: Python's ``iso2022_jp`` reads an invalid escape and up
to 15 bytes after it as one U+FFFD, where the Standard's decoder emits U+FFFD
for the escape alone and reads what follows it again; ``shift_jis``,
``euc_jp``, ``euc_kr``, ``big5hkscs`` and ``gb18030`` consume an ASCII byte that
cannot end a two-byte sequence, which the Standard gives back to the stream.
They differ in their tables too (:mod:`urikit.text.indexes`).  So each decoder
below is the Standard's algorithm, its steps numbered as it numbers them, over
the Standard's indexes:

* gb18030 (§10.2.1), Big5 (§11.1.1), EUC-JP (§12.1.1), ISO-2022-JP (§12.2.1),
  Shift_JIS (§12.3.1) and EUC-KR (§13.1.1).

A decoder is a handler that reads one byte (or the end of the stream, None) in
its state and says what comes of it: a string of code points, an error (U+FFFD
in the "replacement" mode in which HTML decodes), or nothing yet; and that may
put bytes back at the head of the stream ("prepend", never more than it read).
Runs of ASCII, which each of these reads as itself, are copied at once where
the Standard's steps would return each byte as it is.  Each step moves forward,
so a decoder's time is linear in the length of its input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from .indexes import gb18030_ranges_code_point, index

__all__ = [
    "DECODERS",
    "decode_big5",
    "decode_euc_jp",
    "decode_euc_kr",
    "decode_gb18030",
    "decode_iso_2022_jp",
    "decode_shift_jis",
]

_ERROR: Final = "\ufffd"
#: Bytes that every decoder below returns as the code point of the same value.
_ASCII_RUN: Final = re.compile(rb"[\x00-\x7f]+")


def _is_ascii(byte: int) -> bool:
    return byte < 0x80


def _end_of_stream(out: list[str], pending: int) -> str:
    """A decoder's steps at the end of the stream: U+FFFD if a sequence was begun
    (``pending`` is its lead, not 0) (step 1), then the output, finished (step 2)."""
    if pending:
        out.append(_ERROR)
    return "".join(out)


def _code_point_or_error(code_point: str | None, byte: int, stream: _Stream) -> str:
    """A multi-byte decoder's last steps after its index lookup: the code point if
    there is one; else the byte is put back at the head of the stream if it is ASCII,
    and it is an error."""
    if code_point is not None:
        return code_point
    if _is_ascii(byte):
        stream.prepend(byte)
    return _ERROR


# --- gb18030 (§10.2.1) -------------------------------------------------------------------


def decode_gb18030(data: bytes) -> str:
    """The gb18030 decoder (§10.2.1); GBK's is the same (§10.1)."""
    out: list[str] = []
    stream = _Stream(data)
    first = second = third = 0
    gb18030 = index("gb18030")
    while True:
        if first == 0 and stream.copy_ascii(out):
            continue
        byte = stream.read()
        if byte is None:
            return _end_of_stream(out, first or second or third)  # 1, 2
        if third:  # 3
            if not 0x30 <= byte <= 0x39:  # 3.1
                stream.prepend(second, third, byte)
                first = second = third = 0
                out.append(_ERROR)
                continue
            code_point = gb18030_ranges_code_point(  # 3.2
                (first - 0x81) * (10 * 126 * 10)
                + (second - 0x30) * (10 * 126)
                + (third - 0x81) * 10
                + byte
                - 0x30
            )
            first = second = third = 0  # 3.3
            out.append(_ERROR if code_point is None else code_point)  # 3.4, 3.5
            continue
        if second:  # 4
            if 0x81 <= byte <= 0xFE:  # 4.1
                third = byte
                continue
            stream.prepend(second, byte)  # 4.2
            first = second = 0
            out.append(_ERROR)
            continue
        if first:  # 5
            if 0x30 <= byte <= 0x39:  # 5.1
                second = byte
                continue
            lead, pointer, first = first, None, 0  # 5.2, 5.3, 5.4
            offset = 0x40 if byte < 0x7F else 0x41  # 5.5
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:  # 5.6
                pointer = (lead - 0x81) * 190 + (byte - offset)
            code_point = None if pointer is None else gb18030[pointer]  # 5.7
            out.append(_code_point_or_error(code_point, byte, stream))  # 5.8, 5.9, 5.10
            continue
        if _is_ascii(byte):  # 6
            out.append(chr(byte))
        elif byte == 0x80:  # 7
            out.append("\u20ac")
        elif 0x81 <= byte <= 0xFE:  # 8
            first = byte
        else:
            out.append(_ERROR)  # 9


# --- Big5 (§11.1.1) -----------------------------------------------------------------------

#: The pointers that the Big5 decoder reads as two code points (§11.1.1 step 3.5).
_BIG5_PAIRS: Final = {
    1133: "\u00ca\u0304",
    1135: "\u00ca\u030c",
    1164: "\u00ea\u0304",
    1166: "\u00ea\u030c",
}


def decode_big5(data: bytes) -> str:
    """The Big5 decoder (§11.1.1)."""
    out: list[str] = []
    stream = _Stream(data)
    lead = 0
    big5 = index("big5")
    while True:
        if lead == 0 and stream.copy_ascii(out):
            continue
        byte = stream.read()
        if byte is None:
            return _end_of_stream(out, lead)  # 1, 2
        if lead:  # 3
            first, pointer, lead = lead, None, 0  # 3.1, 3.2
            offset = 0x40 if byte < 0x7F else 0x62  # 3.3
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:  # 3.4
                pointer = (first - 0x81) * 157 + (byte - offset)
            pair = _BIG5_PAIRS.get(pointer) if pointer is not None else None  # 3.5
            if pair is not None:
                out.append(pair)
                continue
            code_point = None if pointer is None else big5[pointer]  # 3.6
            out.append(_code_point_or_error(code_point, byte, stream))  # 3.7, 3.8, 3.9
            continue
        if _is_ascii(byte):  # 4
            out.append(chr(byte))
        elif 0x81 <= byte <= 0xFE:  # 5
            lead = byte
        else:
            out.append(_ERROR)  # 6


# --- EUC-JP (§12.1.1) ---------------------------------------------------------------------


def decode_euc_jp(data: bytes) -> str:
    """The EUC-JP decoder (§12.1.1)."""
    out: list[str] = []
    stream = _Stream(data)
    lead = 0
    jis0212 = False
    while True:
        if lead == 0 and stream.copy_ascii(out):
            continue
        byte = stream.read()
        if byte is None:
            return _end_of_stream(out, lead)  # 1, 2
        if lead == 0x8E and 0xA1 <= byte <= 0xDF:  # 3
            lead = 0
            out.append(chr(0xFF61 - 0xA1 + byte))
            continue
        if lead == 0x8F and 0xA1 <= byte <= 0xFE:  # 4
            jis0212 = True
            lead = byte
            continue
        if lead:  # 5
            first, lead = lead, 0  # 5.1
            code_point = None  # 5.2
            if 0xA1 <= first <= 0xFE and 0xA1 <= byte <= 0xFE:  # 5.3
                table = index("jis0212" if jis0212 else "jis0208")
                code_point = table[(first - 0xA1) * 94 + byte - 0xA1]
            jis0212 = False  # 5.4
            out.append(_code_point_or_error(code_point, byte, stream))  # 5.5, 5.6, 5.7
            continue
        if _is_ascii(byte):  # 6
            out.append(chr(byte))
        elif byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:  # 7
            lead = byte
        else:
            out.append(_ERROR)  # 8


# --- ISO-2022-JP (§12.2.1) ----------------------------------------------------------------

_ASCII, _ROMAN, _KATAKANA, _LEAD, _TRAIL, _ESCAPE_START, _ESCAPE = range(7)
#: The bytes that the ASCII and Roman states return as themselves: not SO, SI or ESC.
_ISO_2022_JP_RUN: Final = re.compile(rb"[\x00-\x0d\x10-\x1a\x1c-\x7f]+")
_ROMAN_RUN: Final = re.compile(rb"[\x00-\x0d\x10-\x1a\x1c-\x5b\x5d-\x7d\x7f]+")
#: Escape sequences: (lead, byte) to the state they switch to.
_DESIGNATIONS: Final = {
    (0x28, 0x42): _ASCII,
    (0x28, 0x4A): _ROMAN,
    (0x28, 0x49): _KATAKANA,
    (0x24, 0x40): _LEAD,
    (0x24, 0x42): _LEAD,
}


def decode_iso_2022_jp(data: bytes) -> str:
    """The ISO-2022-JP decoder (§12.2.1).

    An escape sequence that designates no set gives U+FFFD for its ESC alone, and
    the bytes after it are read again in the state before it: so
    ``ESC $ <a href=...>`` is U+FFFD followed by ``$<a href=...>``.
    """
    out: list[str] = []
    stream = _Stream(data)
    state = output_state = _ASCII
    lead = 0
    output_flag = False
    jis0208 = index("jis0208")
    while True:
        if state in (_ASCII, _ROMAN) and not stream.pending:
            run = (_ISO_2022_JP_RUN if state == _ASCII else _ROMAN_RUN).match(
                stream.data, stream.position
            )
            if run is not None:  # each byte of the run: unset the output flag, return it
                output_flag = False
                out.append(run.group().decode("ascii"))
                stream.position = run.end()
                continue
        byte = stream.read()
        if state == _ASCII:
            if byte == 0x1B:
                state = _ESCAPE_START
            elif byte is None:
                return "".join(out)
            elif byte < 0x80 and byte not in (0x0E, 0x0F):
                output_flag = False
                out.append(chr(byte))
            else:
                output_flag = False
                out.append(_ERROR)
        elif state == _ROMAN:
            if byte == 0x1B:
                state = _ESCAPE_START
            elif byte is not None and byte < 0x80 and byte not in (0x0E, 0x0F, 0x5C, 0x7E):
                output_flag = False
                out.append(chr(byte))
            elif byte == 0x5C:
                output_flag = False
                out.append("\u00a5")
            elif byte == 0x7E:
                output_flag = False
                out.append("\u203e")
            elif byte is None:
                return "".join(out)
            else:
                output_flag = False
                out.append(_ERROR)
        elif state == _KATAKANA:
            if byte == 0x1B:
                state = _ESCAPE_START
            elif byte is not None and 0x21 <= byte <= 0x5F:
                output_flag = False
                out.append(chr(0xFF61 - 0x21 + byte))
            elif byte is None:
                return "".join(out)
            else:
                output_flag = False
                out.append(_ERROR)
        elif state == _LEAD:
            if byte == 0x1B:
                state = _ESCAPE_START
            elif byte is not None and 0x21 <= byte <= 0x7E:
                output_flag = False
                lead = byte
                state = _TRAIL
            elif byte is None:
                return "".join(out)
            else:
                output_flag = False
                out.append(_ERROR)
        elif state == _TRAIL:
            if byte == 0x1B:
                state = _ESCAPE_START
                out.append(_ERROR)
            elif byte is not None and 0x21 <= byte <= 0x7E:
                state = _LEAD
                code_point = jis0208[(lead - 0x21) * 94 + byte - 0x21]
                out.append(_ERROR if code_point is None else code_point)
            elif byte is None:
                state = _LEAD
                stream.prepend_end()
                out.append(_ERROR)
            else:
                state = _LEAD
                out.append(_ERROR)
        elif state == _ESCAPE_START:
            if byte in (0x24, 0x28):
                lead = byte
                state = _ESCAPE
            else:
                stream.prepend_byte_or_end(byte)
                output_flag = False
                state = output_state
                out.append(_ERROR)
        else:  # _ESCAPE
            first, lead = lead, 0
            designated = None if byte is None else _DESIGNATIONS.get((first, byte))
            if designated is not None:
                state = output_state = designated
                was_set, output_flag = output_flag, True
                if was_set:
                    out.append(_ERROR)
                continue
            if byte is None:
                stream.prepend_end()
                stream.prepend(first)
            else:
                stream.prepend(first, byte)
            output_flag = False
            state = output_state
            out.append(_ERROR)


# --- Shift_JIS (§12.3.1) ------------------------------------------------------------------


def decode_shift_jis(data: bytes) -> str:
    """The Shift_JIS decoder (§12.3.1)."""
    out: list[str] = []
    stream = _Stream(data)
    lead = 0
    jis0208 = index("jis0208")
    while True:
        if lead == 0 and stream.copy_ascii(out):
            continue
        byte = stream.read()
        if byte is None:
            return _end_of_stream(out, lead)  # 1, 2
        if lead:  # 3
            first, pointer, lead = lead, None, 0  # 3.1, 3.2
            offset = 0x40 if byte < 0x7F else 0x41  # 3.3
            lead_offset = 0x81 if first < 0xA0 else 0xC1  # 3.4
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:  # 3.5
                pointer = (first - lead_offset) * 188 + byte - offset
            if pointer is not None and 8836 <= pointer <= 10715:  # 3.6
                out.append(chr(0xE000 - 8836 + pointer))
                continue
            code_point = None if pointer is None else jis0208[pointer]  # 3.7
            out.append(_code_point_or_error(code_point, byte, stream))  # 3.8, 3.9, 3.10
            continue
        if _is_ascii(byte) or byte == 0x80:  # 4
            out.append(chr(byte))
        elif 0xA1 <= byte <= 0xDF:  # 5
            out.append(chr(0xFF61 - 0xA1 + byte))
        elif 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:  # 6
            lead = byte
        else:
            out.append(_ERROR)  # 7


# --- EUC-KR (§13.1.1) ---------------------------------------------------------------------


def decode_euc_kr(data: bytes) -> str:
    """The EUC-KR decoder (§13.1.1)."""
    out: list[str] = []
    stream = _Stream(data)
    lead = 0
    euc_kr = index("euc-kr")
    while True:
        if lead == 0 and stream.copy_ascii(out):
            continue
        byte = stream.read()
        if byte is None:
            return _end_of_stream(out, lead)  # 1, 2
        if lead:  # 3
            first, pointer, lead = lead, None, 0  # 3.1, 3.2
            if 0x41 <= byte <= 0xFE:  # 3.3
                pointer = (first - 0x81) * 190 + (byte - 0x41)
            code_point = None if pointer is None else euc_kr[pointer]  # 3.4
            out.append(_code_point_or_error(code_point, byte, stream))  # 3.5, 3.6, 3.7
            continue
        if _is_ascii(byte):  # 4
            out.append(chr(byte))
        elif 0x81 <= byte <= 0xFE:  # 5
            lead = byte
        else:
            out.append(_ERROR)  # 6


# --- the stream (§3, "I/O queues") --------------------------------------------------------


class _Stream:
    """The bytes a decoder reads, and those it put back at the head of the stream.

    Put-back bytes are read before the rest (last put back, first read); a decoder
    puts back at most what it read, so each byte is read a bounded number of times.
    The end of the stream can be put back too: it is read again as None.
    """

    __slots__ = ("data", "pending", "position")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0
        self.pending: list[int | None] = []  # read from the end

    def read(self) -> int | None:
        if self.pending:
            return self.pending.pop()
        if self.position >= len(self.data):
            return None
        byte = self.data[self.position]
        self.position += 1
        return byte

    def prepend(self, *items: int) -> None:
        self.pending.extend(reversed(items))

    def prepend_end(self) -> None:
        self.pending.append(None)

    def prepend_byte_or_end(self, byte: int | None) -> None:
        self.pending.append(byte)

    def copy_ascii(self, out: list[str]) -> bool:
        """Copy the run of ASCII bytes at the head of the stream, if there is one and
        no byte was put back, to ``out``."""
        if self.pending:
            return False
        run = _ASCII_RUN.match(self.data, self.position)
        if run is None:
            return False
        out.append(run.group().decode("ascii"))
        self.position = run.end()
        return True


#: The decoders above, by the name of their encoding in the Encoding Standard.
DECODERS: Final[dict[str, Callable[[bytes], str]]] = {
    "gb18030": decode_gb18030,
    "big5": decode_big5,
    "euc-jp": decode_euc_jp,
    "iso-2022-jp": decode_iso_2022_jp,
    "shift_jis": decode_shift_jis,
    "euc-kr": decode_euc_kr,
}
