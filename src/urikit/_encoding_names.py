"""The Encoding Standard's single-byte encodings (§9) and the Python codec of each.

The URL Standard's encoders (:mod:`urikit.whatwg.encoding`) and the HTML decoders'
indexes (:mod:`urikit.text.indexes`) both read this table.
"""

from __future__ import annotations

from typing import Final

__all__ = ["SINGLE_BYTE_CODECS"]

#: The single-byte encodings of the Encoding Standard (§9), and the Python codec of each.
SINGLE_BYTE_CODECS: Final[dict[str, str]] = {
    "ibm866": "cp866",
    "iso-8859-2": "iso8859_2",
    "iso-8859-3": "iso8859_3",
    "iso-8859-4": "iso8859_4",
    "iso-8859-5": "iso8859_5",
    "iso-8859-6": "iso8859_6",
    "iso-8859-7": "iso8859_7",
    "iso-8859-8": "iso8859_8",
    "iso-8859-8-i": "iso8859_8",
    "iso-8859-10": "iso8859_10",
    "iso-8859-13": "iso8859_13",
    "iso-8859-14": "iso8859_14",
    "iso-8859-15": "iso8859_15",
    "iso-8859-16": "iso8859_16",
    "koi8-r": "koi8_r",
    "koi8-u": "koi8_u",
    "macintosh": "mac_roman",
    "windows-874": "cp874",
    "windows-1250": "cp1250",
    "windows-1251": "cp1251",
    "windows-1252": "cp1252",
    "windows-1253": "cp1253",
    "windows-1254": "cp1254",
    "windows-1255": "cp1255",
    "windows-1256": "cp1256",
    "windows-1257": "cp1257",
    "windows-1258": "cp1258",
    "x-mac-cyrillic": "mac_cyrillic",
}
