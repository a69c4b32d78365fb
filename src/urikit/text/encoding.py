"""The character encoding of an HTML document given as bytes, as browsers find it.

WHATWG HTML §13.2.3.2 (determining the character encoding), without a
transport layer: a byte order mark; else the prescan of the first 1024 bytes
for ``<meta charset>`` or ``<meta http-equiv=content-type content=...>``
(§13.2.3.2 "prescan a byte stream", §2.6.6 "extracting a character encoding
from a meta element"); else the caller's default; else windows-1252.  Labels
are those of the WHATWG Encoding Standard §4.2, so ``iso-8859-1``, ``latin1``
and ``us-ascii`` mean windows-1252, as they do in every browser.  Each
encoding is decoded as the Encoding Standard decodes it: its multi-byte
decoders are :mod:`urikit.text.decoders`, its indexes
:mod:`urikit.text.indexes`, and Python's codecs read UTF-8 and UTF-16, which
they decode as it does.  Bytes that do not decode become U+FFFD (the
decoders' "replacement" error mode).
"""

from __future__ import annotations

import re
from typing import Final

from .decoders import DECODERS
from .indexes import charmap, single_byte_table

__all__ = ["decode_html", "encoding_for_label"]

# Encoding Standard §4.2: the labels of each encoding, by its name.
_LABELS: Final[dict[str, str]] = {
    "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
    "ibm866": "866 cp866 csibm866 ibm866",
    "iso-8859-2": (
        "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2"
    ),
    "iso-8859-3": (
        "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3"
    ),
    "iso-8859-4": (
        "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4"
    ),
    "iso-8859-5": (
        "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 "
        "iso_8859-5:1988"
    ),
    "iso-8859-6": (
        "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 "
        "iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"
    ),
    "iso-8859-7": (
        "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 "
        "iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek"
    ),
    "iso-8859-8": (
        "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 "
        "iso88598 iso_8859-8 iso_8859-8:1988 visual"
    ),
    "iso-8859-8-i": "csiso88598i iso-8859-8-i logical",
    "iso-8859-10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
    "iso-8859-13": "iso-8859-13 iso8859-13 iso885913",
    "iso-8859-14": "iso-8859-14 iso8859-14 iso885914",
    "iso-8859-15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    "iso-8859-16": "iso-8859-16",
    "koi8-r": "cskoi8r koi koi8 koi8-r koi8_r",
    "koi8-u": "koi8-ru koi8-u",
    "macintosh": "csmacintosh mac macintosh x-mac-roman",
    "windows-874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
    "windows-1250": "cp1250 windows-1250 x-cp1250",
    "windows-1251": "cp1251 windows-1251 x-cp1251",
    "windows-1252": (
        "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 "
        "iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"
    ),
    "windows-1253": "cp1253 windows-1253 x-cp1253",
    "windows-1254": (
        "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 "
        "l5 latin5 windows-1254 x-cp1254"
    ),
    "windows-1255": "cp1255 windows-1255 x-cp1255",
    "windows-1256": "cp1256 windows-1256 x-cp1256",
    "windows-1257": "cp1257 windows-1257 x-cp1257",
    "windows-1258": "cp1258 windows-1258 x-cp1258",
    "x-mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
    "gbk": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk",
    "gb18030": "gb18030",
    "big5": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "euc-jp": "cseucpkdfmtjapanese euc-jp x-euc-jp",
    "iso-2022-jp": "csiso2022jp iso-2022-jp",
    "shift_jis": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
    "euc-kr": (
        "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 "
        "ksc_5601 windows-949"
    ),
    "replacement": "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement",
    "utf-16be": "unicodefffe utf-16be",
    "utf-16le": "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
    "x-user-defined": "x-user-defined",
}
_ENCODING: Final = {label: name for name, labels in _LABELS.items() for label in labels.split()}
_WINDOWS_1252: Final = "windows-1252"
_BOMS: Final = ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))
_ASCII_SPACE: Final = b"\t\n\f\r "
#: x-user-defined (§14.5.1): bytes 0x80 to 0xFF are U+F780 to U+F7FF.
_X_USER_DEFINED: Final = "".join(chr(b) if b < 0x80 else chr(0xF700 + b) for b in range(256))
#: The decoders whose Python codec reads as the Standard does (UTF-8 and UTF-16 with
#: U+FFFD for each maximal subpart, RFC 3629 §3 and §7.1 "U+FFFD substitution"), by name.
_CODECS: Final = {"utf-8": "utf-8", "utf-16be": "utf-16-be", "utf-16le": "utf-16-le"}


def encoding_for_label(label: str) -> str | None:
    """The name of the encoding of a label (Encoding Standard §4.2 "get an encoding"),
    or None."""
    return _ENCODING.get(label.strip("\t\n\f\r ").lower())


def decode_html(data: bytes, default: str | None = None) -> str:
    """The text of an HTML document given as bytes (WHATWG HTML §13.2.3.2).

    A byte order mark decides; else a ``<meta>`` in the first 1024 bytes;
    else ``default`` (a label, when the caller knows better than the
    windows-1252 of the web's legacy content).
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _decode(data[len(bom) :], encoding)
    fallback = _WINDOWS_1252
    if default is not None:
        known = encoding_for_label(default)
        if known is None:
            raise ValueError(f"unknown encoding label {default!r} (WHATWG Encoding Standard §4.2)")
        fallback = known
    return _decode(data, prescan(data[:1024]) or fallback)


def _decode(data: bytes, name: str) -> str:
    """``data`` decoded by the decoder of encoding ``name`` (Encoding Standard §4.1),
    in its "replacement" error mode: each error is U+FFFD."""
    if name == "replacement":
        return "\ufffd" if data else ""  # §14.1.1
    codec = _CODECS.get(name)
    if codec is not None:
        return data.decode(codec, errors="replace")
    if name == "x-user-defined":
        return charmap(data, _X_USER_DEFINED)
    decoder = DECODERS.get("gb18030" if name == "gbk" else name)
    if decoder is not None:
        return decoder(data)
    return charmap(data, single_byte_table(name))


# -- the prescan (§13.2.3.2 "prescan a byte stream to determine its encoding") --------

_META: Final = re.compile(rb"<meta[\t\n\f\r /]", re.IGNORECASE)
_TAG: Final = re.compile(rb"</?[A-Za-z]")
_CHARSET: Final = re.compile(rb"charset[\t\n\f\r ]*=[\t\n\f\r ]*", re.IGNORECASE)


def prescan(data: bytes) -> str | None:
    """The encoding a ``<meta>`` of ``data`` declares (the first 1024 bytes), or None."""
    n = len(data)
    position = 0
    while position < n:
        if data.startswith(b"<!--", position):
            end = data.find(b"-->", position + 2)
            if end < 0:
                return None
            position = end + 3
        elif _META.match(data, position):
            position, name = _meta(data, position + 5)
            if name is not None:
                return name
        elif _TAG.match(data, position):
            position += 2
            while position < n and data[position] not in b"\t\n\f\r >":
                position += 1
            while True:
                attribute = _attribute(data, position)
                if attribute is None:
                    break
                position = attribute[2]
        elif data.startswith((b"<!", b"</", b"<?"), position):
            end = data.find(b">", position + 2)
            if end < 0:
                return None
            position = end + 1
        else:
            position += 1
    return None


def _meta(data: bytes, position: int) -> tuple[int, str | None]:
    """The attributes of a ``<meta``: where they end and the encoding they declare."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: str | None = None
    while True:
        attribute = _attribute(data, position)
        if attribute is None:
            break
        name, value, position = attribute
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv" and value.lower() == b"content-type":
            got_pragma = True
        elif name == b"content" and charset is None:
            found = _content_charset(value)
            if found is not None:
                charset, need_pragma = found, True
        elif name == b"charset" and charset is None:
            charset, need_pragma = _label(value), False
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return position, None
    if charset in ("utf-16be", "utf-16le"):
        return position, "utf-8"
    if charset == "x-user-defined":
        return position, _WINDOWS_1252
    return position, charset


def _label(value: bytes) -> str | None:
    return encoding_for_label(value.decode("ascii", errors="replace"))


def _attribute(data: bytes, position: int) -> tuple[bytes, bytes, int] | None:
    """§13.2.3.2 "get an attribute": name (lower case), value, and where it ends."""
    n = len(data)
    while position < n and data[position] in b"\t\n\f\r /":
        position += 1
    if position >= n or data[position] == 0x3E:  # ">"
        return None
    start = position
    position += 1  # the first byte of a name may be "="
    while position < n and data[position] not in b"\t\n\f\r /=>":
        position += 1
    name = data[start:position].lower()
    while position < n and data[position] in _ASCII_SPACE:
        position += 1
    if position >= n or data[position] != 0x3D:  # "="
        return (name, b"", position) if position < n else None
    position += 1
    while position < n and data[position] in _ASCII_SPACE:
        position += 1
    if position >= n:
        return None
    quote = data[position]
    if quote in b"\"'":
        end = data.find(bytes([quote]), position + 1)
        if end < 0:
            return None
        return name, data[position + 1 : end].lower(), end + 1
    start = position
    while position < n and data[position] not in b"\t\n\f\r >":
        position += 1
    return (name, data[start:position].lower(), position) if position < n else None


def _content_charset(content: bytes) -> str | None:
    """HTML §2.6.6, extracting a character encoding from a meta element's content."""
    found = _CHARSET.search(content)
    if found is None:
        return None
    position = found.end()
    if position >= len(content):
        return None
    quote = content[position : position + 1]
    if quote in (b'"', b"'"):
        end = content.find(quote, position + 1)
        return None if end < 0 else _label(content[position + 1 : end])
    end = position
    while end < len(content) and content[end] not in b"\t\n\f\r ;":
        end += 1
    return _label(content[position:end])
