"""Hosts of the URL Standard (§3): the host parser and the host serializer.

A host is a domain or an opaque host (a ``str``), an empty host (``""``), an IPv4
address (an ``int``) or an IPv6 address (a tuple of eight ``int`` pieces).  The parsers
return a host or raise :class:`~urikit.whatwg.errors.URLParseError` naming the validation
error; non-fatal validation errors are appended to the ``errors`` list given, as
``(name, offset)`` pairs with the offset into the input of the parser.
"""

from __future__ import annotations

from typing import Final

from .. import uts46
from ..host import ipv4_number_parser, read_ipv4
from .encoding import C0_CONTROL, percent_decode_string, utf8_percent_encode
from .errors import URLParseError, ValidationErrors

__all__ = [
    "Host",
    "ends_in_a_number",
    "host_parser",
    "host_serializer",
    "ipv4_number_parser",
    "ipv4_parser",
    "ipv6_parser",
    "ipv6_serializer",
    "opaque_host_parser",
]

Host = str | int | tuple[int, ...]

#: A forbidden host code point (§3.2).
FORBIDDEN_HOST: Final = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
#: A forbidden domain code point (§3.2).
FORBIDDEN_DOMAIN: Final = uts46.FORBIDDEN_DOMAIN

_HEX: Final = frozenset("0123456789abcdefABCDEF")
_DIGITS: Final = frozenset("0123456789")


def is_url_code_point(ch: str) -> bool:
    """A URL code point (§4.3): ASCII alphanumeric, one of ``!$&'()*+,-./:;=?@_~``, or a
    code point from U+00A0 to U+10FFFD that is neither a surrogate nor a noncharacter."""
    cp = ord(ch)
    if cp < 0x80:
        return ch.isalnum() or ch in "!$&'()*+,-./:;=?@_~"
    if cp < 0xA0 or 0xD800 <= cp <= 0xDFFF or 0xFDD0 <= cp <= 0xFDEF:
        return False
    return (cp & 0xFFFE) != 0xFFFE


def host_parser(
    text: str, is_opaque: bool, errors: ValidationErrors, validate: bool = True
) -> Host:
    """The host parser (§3.5); without ``validate``, the domain-to-ASCII validation error
    is not looked for (the domain parser's strict ToASCII, §3.3 step 1)."""
    # 1. An IPv6 address in brackets.
    if text.startswith("["):
        if not text.endswith("]"):
            raise URLParseError("IPv6-unclosed", text, len(text))
        return ipv6_parser(text[1:-1], errors, 1)
    # 2. A host of a non-special URL is opaque.
    if is_opaque:
        return opaque_host_parser(text, errors)
    # 3-4. Percent-decoded, as UTF-8.
    assert text != ""
    if "%" in text and _has_percent_encoded_byte(text):
        errors.append(("domain-percent-encoded", 0))
    domain = percent_decode_string(text).decode("utf-8", "replace")
    # 5-6. The domain parser.
    try:
        ascii_domain, strict_error = uts46.domain_parser(domain, False, validate)
    except uts46.IDNAError as e:
        raise URLParseError("domain-to-ASCII", text, 0, detail=str(e.reason)) from None
    if strict_error is not None:
        errors.append(("domain-to-ASCII", 0))
    # 7. A domain that ends in a number is an IPv4 address.
    if ends_in_a_number(ascii_domain):
        return ipv4_parser(ascii_domain, errors)
    return ascii_domain


def _has_percent_encoded_byte(text: str) -> bool:
    i = text.find("%")
    while i >= 0:
        if text[i + 1 : i + 2] in _HEX and text[i + 2 : i + 3] in _HEX and i + 2 < len(text):
            return True
        i = text.find("%", i + 1)
    return False


def ends_in_a_number(text: str) -> bool:
    """The ends in a number checker (§3.5)."""
    parts = text.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last != "" and all(c in _DIGITS for c in last):
        return True
    return ipv4_number_parser(last) is not None


def ipv4_parser(text: str, errors: ValidationErrors) -> int:
    """The IPv4 parser (§3.5), read by :func:`urikit.host.read_ipv4`, which the security
    checks share; its failure is raised."""
    result = read_ipv4(text, errors)
    if isinstance(result, str):
        raise URLParseError(result, text, 0)
    return result


def ipv6_parser(text: str, errors: ValidationErrors, offset: int = 0) -> tuple[int, ...]:
    """The IPv6 parser (§3.5); ``offset`` is where ``text`` starts in what is reported."""
    address = [0] * 8
    piece_index = 0
    compress: int | None = None
    pointer = 0
    n = len(text)

    def c(at: int) -> str:
        return text[at] if at < n else ""  # "" is the EOF code point

    def fail(name: str, at: int) -> URLParseError:
        return URLParseError(name, text, offset + at)

    if c(pointer) == ":":
        if c(pointer + 1) != ":":
            raise fail("IPv6-invalid-compression", pointer)
        pointer += 2
        piece_index += 1
        compress = piece_index
    while c(pointer) != "":
        if piece_index == 8:
            raise fail("IPv6-too-many-pieces", pointer)
        if c(pointer) == ":":
            if compress is not None:
                raise fail("IPv6-multiple-compression", pointer)
            pointer += 1
            piece_index += 1
            compress = piece_index
            continue
        value = length = 0
        while length < 4 and c(pointer) in _HEX and c(pointer) != "":
            value = value * 0x10 + int(c(pointer), 16)
            pointer += 1
            length += 1
        if c(pointer) == ".":
            if length == 0:
                raise fail("IPv4-in-IPv6-invalid-code-point", pointer)
            pointer -= length
            if piece_index > 6:
                raise fail("IPv4-in-IPv6-too-many-pieces", pointer)
            numbers_seen = 0
            while c(pointer) != "":
                ipv4_piece: int | None = None
                if numbers_seen > 0:
                    if c(pointer) == "." and numbers_seen < 4:
                        pointer += 1
                    else:
                        raise fail("IPv4-in-IPv6-invalid-code-point", pointer)
                if c(pointer) == "" or c(pointer) not in _DIGITS:
                    raise fail("IPv4-in-IPv6-invalid-code-point", pointer)
                while c(pointer) != "" and c(pointer) in _DIGITS:
                    number = int(c(pointer))
                    if ipv4_piece is None:
                        ipv4_piece = number
                    elif ipv4_piece == 0:
                        raise fail("IPv4-in-IPv6-invalid-code-point", pointer)
                    else:
                        ipv4_piece = ipv4_piece * 10 + number
                    if ipv4_piece > 255:
                        raise fail("IPv4-in-IPv6-out-of-range-part", pointer)
                    pointer += 1
                assert ipv4_piece is not None
                address[piece_index] = address[piece_index] * 0x100 + ipv4_piece
                numbers_seen += 1
                if numbers_seen in (2, 4):
                    piece_index += 1
            if numbers_seen != 4:
                raise fail("IPv4-in-IPv6-too-few-parts", pointer)
            break
        elif c(pointer) == ":":
            pointer += 1
            if c(pointer) == "":
                raise fail("IPv6-invalid-code-point", pointer)
        elif c(pointer) != "":
            raise fail("IPv6-invalid-code-point", pointer)
        if length > 1 and value < 0x10 ** (length - 1):
            errors.append(("IPv6-piece-leading-zero", offset + pointer - length))
        address[piece_index] = value
        piece_index += 1
    if compress is not None:
        swaps = piece_index - compress
        piece_index = 7
        while piece_index != 0 and swaps > 0:
            other = compress + swaps - 1
            address[piece_index], address[other] = address[other], address[piece_index]
            piece_index -= 1
            swaps -= 1
    elif piece_index != 8:
        raise fail("IPv6-too-few-pieces", pointer)
    return tuple(address)


def opaque_host_parser(text: str, errors: ValidationErrors) -> str:
    """The opaque-host parser (§3.5)."""
    for i, ch in enumerate(text):
        if ch in FORBIDDEN_HOST:
            raise URLParseError("host-invalid-code-point", text, i)
    for i, ch in enumerate(text):
        if ch == "%":
            if not (text[i + 1 : i + 2] in _HEX and text[i + 2 : i + 3] in _HEX):
                errors.append(("invalid-URL-unit", i))
        elif not is_url_code_point(ch):
            errors.append(("invalid-URL-unit", i))
    return utf8_percent_encode(text, C0_CONTROL)


def host_serializer(host: Host) -> str:
    """The host serializer (§3.6)."""
    if isinstance(host, int):
        return ipv4_serializer(host)
    if isinstance(host, tuple):
        return "[" + ipv6_serializer(host) + "]"
    return host


def ipv4_serializer(address: int) -> str:
    """The IPv4 serializer (§3.6)."""
    return ".".join(str((address >> shift) & 0xFF) for shift in (24, 16, 8, 0))


def compressed_piece_index(address: tuple[int, ...]) -> int | None:
    """Find the IPv6 address compressed piece index (§3.6): the first of the longest run
    of two or more zero pieces."""
    longest_index: int | None = None
    longest_size = 1
    found_index: int | None = None
    found_size = 0
    for piece_index, piece in enumerate(address):
        if piece != 0:
            if found_size > longest_size:
                longest_index, longest_size = found_index, found_size
            found_index = None
            found_size = 0
        else:
            if found_index is None:
                found_index = piece_index
            found_size += 1
    if found_size > longest_size:
        return found_index
    return longest_index


def ipv6_serializer(address: tuple[int, ...]) -> str:
    """The IPv6 serializer (§3.6)."""
    output = []
    compress = compressed_piece_index(address)
    ignore0 = False
    for piece_index, piece in enumerate(address):
        if ignore0 and piece == 0:
            continue
        ignore0 = False
        if compress == piece_index:
            output.append("::" if piece_index == 0 else ":")
            ignore0 = True
            continue
        output.append(f"{piece:x}")
        if piece_index != 7:
            output.append(":")
    return "".join(output)
