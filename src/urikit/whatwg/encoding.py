"""Percent-encoded bytes and the percent-encode sets of the URL Standard (§1.3).

The sets are built one from another as the standard defines them, each a ``frozenset``
of the ASCII code points it holds; every set also holds every code point above U+007E
(the C0 control percent-encode set does), which :func:`percent_encode_after_encoding`
checks by value.  Legacy encodings (the query of a special URL in a document of another
encoding, and the ``application/x-www-form-urlencoded`` serializer) go through Python's
codecs where they agree with the Encoding Standard; :data:`ENCODINGS` lists the labels
known and ``docs/deviations.md`` the differences handled here.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Final

from .._encoding_names import SINGLE_BYTE_CODECS

__all__ = [
    "APPLICATION_X_WWW_FORM_URLENCODED",
    "C0_CONTROL",
    "COMPONENT",
    "FRAGMENT",
    "PATH",
    "QUERY",
    "SPECIAL_QUERY",
    "USERINFO",
    "get_output_encoding",
    "percent_decode",
    "percent_encode_after_encoding",
    "utf8_percent_encode",
]

#: The C0 control percent-encode set: C0 controls and every code point above U+007E (~)
#: (the ASCII one, U+007F, held here; those above ASCII by every function).
C0_CONTROL: Final = frozenset(map(chr, range(0x20))) | {"\x7f"}
#: The fragment percent-encode set.
FRAGMENT: Final = C0_CONTROL | frozenset(' "<>`')
#: The query percent-encode set.
QUERY: Final = C0_CONTROL | frozenset(' "#<>')
#: The special-query percent-encode set.
SPECIAL_QUERY: Final = QUERY | frozenset("'")
#: The path percent-encode set.
PATH: Final = QUERY | frozenset("?^`{}")
#: The userinfo percent-encode set.
USERINFO: Final = PATH | frozenset("/:;=@[\\]|")
#: The component percent-encode set.
COMPONENT: Final = USERINFO | frozenset("$%&+,")
#: The application/x-www-form-urlencoded percent-encode set.
APPLICATION_X_WWW_FORM_URLENCODED: Final = COMPONENT | frozenset("!'()~")

_HEX: Final = frozenset("0123456789ABCDEFabcdef")


def _table(encode_set: frozenset[str]) -> dict[int, str]:
    """A ``str.translate`` table percent-encoding the ASCII members of a set (as UTF-8)."""
    return {ord(c): f"%{ord(c):02X}" for c in encode_set}


_TABLES: dict[frozenset[str], dict[int, str]] = {}


def utf8_percent_encode(text: str, encode_set: frozenset[str], space_as_plus: bool = False) -> str:
    """UTF-8 percent-encode ``text`` using ``encode_set`` (URL Standard §1.3).

    Every code point above U+007E is in every set: it is written as the percent-encoded
    bytes of its UTF-8 encoding.  With ``space_as_plus`` a space becomes "+".
    """
    table = _TABLES.get(encode_set)
    if table is None:
        table = _TABLES[encode_set] = _table(encode_set)
    if text.isascii():
        encoded = text.translate(table)
    else:
        out = []
        for ch in text:
            if ord(ch) < 0x7F:
                out.append(table.get(ord(ch), ch))
            else:
                out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        encoded = "".join(out)
    return encoded.replace("%20", "+") if space_as_plus else encoded


def percent_decode(data: bytes) -> bytes:
    """Percent-decode a byte sequence (URL Standard §1.3): each "%" and two hex digits
    becomes its byte; any other "%" stays."""
    if b"%" not in data:
        return data
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        byte = data[i]
        if byte == 0x25 and i + 2 < n and chr(data[i + 1]) in _HEX and chr(data[i + 2]) in _HEX:
            out.append(int(data[i + 1 : i + 3], 16))
            i += 3
            continue
        out.append(byte)
        i += 1
    return bytes(out)


def percent_decode_string(text: str) -> bytes:
    """Percent-decode a scalar value string: its UTF-8 encoding, percent-decoded."""
    return percent_decode(text.encode("utf-8"))


# -- encodings ----------------------------------------------------------------------------

#: The Encoding Standard's names (lowercase) with the Python codec that serves each.
#: UTF-16BE/LE and "replacement" give UTF-8 as output encoding (Encoding Standard
#: "get an output encoding").
ENCODINGS: Final = {
    "utf-8": "utf-8",
    **SINGLE_BYTE_CODECS,
    "gbk": "gbk",
    "gb18030": "gb18030",
    "big5": "big5hkscs",
    "euc-jp": "euc_jp",
    "iso-2022-jp": "iso2022_jp",
    "shift_jis": "shift_jis",
    "euc-kr": "euc_kr",
}

#: Labels of the Encoding Standard that name the encodings above by another name.
LABELS: Final = {
    "utf8": "utf-8",
    "unicode-1-1-utf-8": "utf-8",
    "latin1": "windows-1252",
    "iso-8859-1": "windows-1252",
    "ascii": "windows-1252",
    "us-ascii": "windows-1252",
    "cp1252": "windows-1252",
    "latin2": "iso-8859-2",
    "sjis": "shift_jis",
    "windows-31j": "shift_jis",
    "x-sjis": "shift_jis",
    "ms_kanji": "shift_jis",
    "gb2312": "gbk",
    "x-gbk": "gbk",
    "big5-hkscs": "big5",
    "csiso2022jp": "iso-2022-jp",
    "ks_c_5601-1987": "euc-kr",
    "windows-949": "euc-kr",
    "utf-16be": "utf-8",
    "utf-16le": "utf-8",
    "utf-16": "utf-8",
    "replacement": "utf-8",
}


def get_output_encoding(label: str) -> str:
    """The Encoding Standard's name of the output encoding for ``label``.

    "get an output encoding": UTF-16BE, UTF-16LE and replacement give UTF-8.  Raises
    ``ValueError`` for a label that names no encoding urikit knows.
    """
    name = label.strip().lower()
    name = LABELS.get(name, name)
    if name not in ENCODINGS:
        raise ValueError(f"unknown encoding label {label!r}")
    return name


def _encoder(name: str) -> Callable[[str], tuple[bytes, int | None]]:
    """The encoder of ``name``: one scalar value to its bytes, or the code point that
    the Encoding Standard's encoder reports as an error."""
    codec = ENCODINGS[name]

    def encode(ch: str) -> tuple[bytes, int | None]:
        cp = ord(ch)
        # Encoding Standard §10.1.2 (gb18030 encoder): U+E5E5 is an error.
        if name == "gb18030" and cp == 0xE5E5:
            return b"", cp
        # Encoding Standard §12.2.2 (ISO-2022-JP encoder): these are errors, reported as
        # U+FFFD, not written.
        if name == "iso-2022-jp" and cp in (0x0E, 0x0F, 0x1B):
            return b"", 0xFFFD
        # Encoding Standard §12.3.2 (Shift_JIS encoder) encodes U+2212 as U+FF0D, at 0x817C;
        # Python's shift_jis has U+2212 there and cannot encode U+FF0D.
        if name == "shift_jis" and cp == 0xFF0D:
            ch = "\u2212"
        try:
            return codecs.encode(ch, codec), None
        except UnicodeEncodeError:
            return b"", cp

    return encode


def _iso2022jp(text: str, encode_set: frozenset[str], space_as_plus: bool) -> str:
    """The ISO-2022-JP encoder's state machine (Encoding Standard §12.2.2), as bytes
    percent-encoded: ASCII, JIS X 0201 Roman (for U+00A5 and U+203E) and JIS X 0208."""
    out: list[str] = []
    state = "ascii"
    roman = {"\u00a5": 0x5C, "\u203e": 0x7E}

    def emit(data: bytes) -> None:
        for byte in data:
            ch = chr(byte)
            if space_as_plus and byte == 0x20:
                out.append("+")
            elif ch in encode_set or byte > 0x7E:
                out.append(f"%{byte:02X}")
            else:
                out.append(ch)

    for ch in text:
        cp = ord(ch)
        if cp in (0x0E, 0x0F, 0x1B):
            out.append("%26%2365533%3B")
            continue
        if cp < 0x80 and ch not in "\\~":
            if state != "ascii":
                emit(b"\x1b(B")
                state = "ascii"
            emit(bytes([cp]))
        elif ch in "\\~" or ch in roman:
            if ch in roman:
                if state != "roman":
                    emit(b"\x1b(J")
                    state = "roman"
                emit(bytes([roman[ch]]))
            else:
                if state != "ascii":
                    emit(b"\x1b(B")
                    state = "ascii"
                emit(bytes([cp]))
        else:
            try:
                jis = codecs.encode(ch, "iso2022_jp")
            except UnicodeEncodeError:
                out.append(f"%26%23{cp}%3B")
                continue
            body = jis.removeprefix(b"\x1b$B").removesuffix(b"\x1b(B")
            if len(body) != 2:
                out.append(f"%26%23{cp}%3B")
                continue
            if state != "jis0208":
                emit(b"\x1b$B")
                state = "jis0208"
            emit(body)
    if state != "ascii":
        emit(b"\x1b(B")
    return "".join(out)


def percent_encode_after_encoding(
    encoding: str, text: str, encode_set: frozenset[str], space_as_plus: bool = False
) -> str:
    """Percent-encode after encoding (URL Standard §1.3).

    ``encoding`` is an Encoding Standard name (:func:`get_output_encoding`); a code point
    the encoding cannot represent is written as ``%26%23`` + its number + ``%3B`` (the
    "&#N;" of an HTML form).
    """
    if encoding == "utf-8":
        return utf8_percent_encode(text, encode_set, space_as_plus)
    if encoding == "iso-2022-jp":
        return _iso2022jp(text, encode_set, space_as_plus)
    encode = _encoder(encoding)
    out = []
    for ch in text:
        if ord(ch) < 0x80:
            data, error = ch.encode("ascii"), None
        else:
            data, error = encode(ch)
        for byte in data:
            c = chr(byte)
            if space_as_plus and byte == 0x20:
                out.append("+")
            elif c in encode_set or byte > 0x7E:
                out.append(f"%{byte:02X}")
            else:
                out.append(c)
        if error is not None:
            out.append(f"%26%23{error}%3B")
    return "".join(out)
