"""The ``data:`` URL scheme (RFC 2397): read one, and write one from bytes.

RFC 2397 §3::

    dataurl    := "data:" [ mediatype ] [ ";base64" ] "," data
    mediatype  := [ type "/" subtype ] *( ";" parameter )
    data       := *urlchar
    parameter  := attribute "=" value

A missing media type means ``text/plain;charset=US-ASCII``; a media type
of only parameters (``data:;charset=utf-8,...``) means ``text/plain`` with
them (§2).  Type, subtype and attribute names are case-insensitive (RFC 2045
§5.1) and are given in lower case; values keep their case.

The data runs from the first "," to the fragment: a "?" in it is data too
(RFC 2397 predates RFC 3986's query).  Each header element is percent-decoded
after the header is split on ";" and "=", so a ";" or "," inside a parameter
value must be written "%3B" or "%2C".
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ._seam import percent_decode, percent_encode
from .errors import URIError
from .percent import percent_decode_bytes
from .uri import IRI, URI

__all__ = ["DataURI", "data_uri", "parse_data"]

DEFAULT_MEDIA_TYPE: Final = "text/plain"
DEFAULT_PARAMETERS: Final = (("charset", "US-ASCII"),)

# token := 1*<any (US-ASCII) CHAR except SPACE, CTLs, or tspecials>   (RFC 2045 §5.1)
_TOKEN: Final = re.compile(r"[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+")
# quoted-string (RFC 822 §3.3): '"' *(qtext / quoted-pair) '"'
_QUOTED: Final = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_QUOTED_PAIR: Final = re.compile(r"\\(.)", re.DOTALL)


@dataclass(frozen=True)
class DataURI:
    """What a ``data:`` URL holds (RFC 2397 §2).

    ``media_type`` is ``type/subtype`` in lower case, ``parameters`` the
    ``(attribute, value)`` pairs in order (attributes in lower case, values
    decoded and unquoted), ``base64`` whether the data was base64-encoded,
    and ``data`` the decoded octets.
    """

    media_type: str
    parameters: tuple[tuple[str, str], ...]
    base64: bool
    data: bytes

    @property
    def charset(self) -> str | None:
        """The ``charset`` parameter, if given (or implied by the default, §2)."""
        for attribute, value in self.parameters:
            if attribute == "charset":
                return value
        return None

    @property
    def content_type(self) -> str:
        """The media type with its parameters, as in a Content-Type header."""
        parts = [self.media_type]
        for attribute, value in self.parameters:
            shown = value if _TOKEN.fullmatch(value) else _quote(value)
            parts.append(f"{attribute}={shown}")
        return ";".join(parts)

    def text(self, errors: str = "strict") -> str:
        """The data decoded with its charset (US-ASCII when none is given)."""
        return self.data.decode(self.charset or "us-ascii", errors)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _header_error(text: str, position: int, reason: str) -> URIError:
    return URIError(reason, text=text, position=position, rule="dataurl")


def _split_elements(header: str) -> list[str]:
    """``header`` split on the ";" that are not inside a quoted-string (RFC 2045 §5.1)."""
    elements = []
    start = 0
    quoted = False
    i = 0
    while i < len(header):
        char = header[i]
        if char == '"':
            quoted = not quoted
        elif char == "\\" and quoted:
            i += 1
        elif char == ";" and not quoted:
            elements.append(header[start:i])
            start = i + 1
        i += 1
    elements.append(header[start:])
    return elements


def _parse_header(
    header: str, text: str, offset: int, decode: Callable[[str], str] = percent_decode
) -> tuple[str, tuple[tuple[str, str], ...], bool]:
    """mediatype and ";base64" (RFC 2397 §3); ``offset`` is where ``header`` is in ``text``.

    Each element is split off on ";" and "=" first and then ``decode``-d.
    """
    elements = _split_elements(header)
    base64 = len(elements) > 1 and elements[-1].lower() == "base64"
    if base64:
        elements.pop()
    position = offset
    first = decode(elements[0])
    if first == "":
        media_type = None
    else:
        kind, slash, subtype = first.partition("/")
        if not (slash and _TOKEN.fullmatch(kind) and _TOKEN.fullmatch(subtype)):
            raise _header_error(text, position, f"{first!r} is not a type/subtype (RFC 2045 §5.1)")
        media_type = first.lower()
    parameters = []
    position += len(elements[0])
    for element in elements[1:]:
        position += 1
        raw_attribute, eq, raw_value = element.partition("=")
        attribute = decode(raw_attribute)
        value = decode(raw_value)
        if not (eq and _TOKEN.fullmatch(attribute)):
            raise _header_error(text, position, f"{element!r} is not an attribute=value parameter")
        quoted = _QUOTED.fullmatch(value)
        if quoted is not None:
            value = _QUOTED_PAIR.sub(r"\1", quoted.group(1))
        elif not _TOKEN.fullmatch(value):
            raise _header_error(
                text, position + len(raw_attribute) + 1, f"{value!r} is neither a token nor quoted"
            )
        parameters.append((attribute.lower(), value))
        position += len(element)
    if media_type is None:
        media_type = DEFAULT_MEDIA_TYPE
        if not parameters:
            parameters = list(DEFAULT_PARAMETERS)
    return media_type, tuple(parameters), base64


def parse_data(uri: URI | IRI | str) -> DataURI:
    """Read a ``data:`` URL (RFC 2397): media type, parameters and the decoded data.

    >>> d = parse_data("data:,A%20brief%20note")
    >>> d.media_type, d.parameters, d.data
    ('text/plain', (('charset', 'US-ASCII'),), b'A brief note')
    >>> parse_data("data:image/gif;base64,R0lGODdh").data
    b'GIF87a'
    """
    ref = uri if isinstance(uri, (URI, IRI)) else URI(uri)
    text = str(ref)
    if ref.scheme is None or ref.scheme.lower() != "data":
        raise _header_error(text, 0, "not a data: URL (RFC 2397)")
    start = len(ref.scheme) + 1
    fragment = ref.span("fragment")
    end = len(text) if fragment is None else fragment[0] - 1
    comma = text.find(",", start, end)
    if comma < 0:
        raise _header_error(text, end, 'a data: URL needs a "," before its data (RFC 2397 §3)')
    media_type, parameters, base64 = _parse_header(text[start:comma], text, start)
    body = text[comma + 1 : end]
    if not base64:
        return DataURI(media_type, parameters, False, percent_decode_bytes(body))
    try:
        data = binascii.a2b_base64(percent_decode_bytes(body), strict_mode=True)
    except (binascii.Error, ValueError) as exc:
        raise _header_error(text, comma + 1, f"the data is not valid base64: {exc}") from None
    return DataURI(media_type, parameters, True, data)


def data_uri(
    data: bytes,
    media_type: str = "application/octet-stream",
    *,
    base64: bool | None = None,
) -> URI:
    """A ``data:`` URL holding ``data`` (RFC 2397).

    ``media_type`` may carry parameters (``"text/plain;charset=utf-8"``); an
    empty one is left out, which means ``text/plain;charset=US-ASCII`` (§2).
    ``base64=None`` picks the shorter of the two encodings.

    >>> str(data_uri(b"hello, world", "text/plain;charset=utf-8"))
    'data:text/plain;charset=utf-8,hello%2C%20world'
    >>> str(data_uri(bytes(range(4)), base64=True))
    'data:application/octet-stream;base64,AAECAw=='
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data_uri() takes bytes, not {type(data).__name__}")
    data = bytes(data)
    header = _write_header(media_type)
    percent = percent_encode(data, "path").replace(",", "%2C")
    encoded = binascii.b2a_base64(data, newline=False).decode("ascii")
    if base64 is None:
        base64 = len(encoded) + 7 < len(percent)
    if base64:
        return URI("data:" + header + ";base64," + encoded)
    return URI("data:" + header + "," + percent)


def _write_header(media_type: str) -> str:
    """The mediatype of a data URL: checked, then each part percent-encoded as data."""
    if media_type == "":
        return ""
    if media_type.lower().endswith(";base64"):
        raise ValueError('give base64=True rather than ";base64" in the media type')
    kind, parameters, _ = _parse_header(media_type, media_type, 0, str)
    if media_type.split(";", 1)[0] == "":
        raise _header_error(media_type, 0, "give the type/subtype, or an empty media type")
    parts = ["/".join(_encode_header_text(token) for token in kind.split("/"))]
    for attribute, value in parameters:
        shown = value if _TOKEN.fullmatch(value) else _quote(value)
        parts.append(_encode_header_text(attribute) + "=" + _encode_header_text(shown))
    return ";".join(parts)


def _encode_header_text(text: str) -> str:
    """Data in the header: the delimiters "," ";" "=" "/" encoded too (RFC 2397 §3)."""
    encoded = percent_encode(text, "segment")
    return encoded.replace(",", "%2C").replace(";", "%3B").replace("=", "%3D")
