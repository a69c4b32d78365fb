"""Whole documents for ``extract`` and ``links``: read as octets, decoded exactly.

A document is decoded with the encoding given (UTF-8 by default).  Each run
of octets that the encoding cannot decode becomes one U+FFFD in the text and
is remembered, with its byte position, so that what it touches can be
reported rather than silently cut short.
"""

from __future__ import annotations

import bisect
import sys
from dataclasses import dataclass, field

from .. import URIError
from . import _input


@dataclass
class Document:
    """The ``text`` of the document ``name``, and its ``invalid`` octets: for each
    run, its index in ``text`` and its error."""

    name: str
    text: str
    invalid: list[tuple[int, URIError]] = field(default_factory=list)

    def invalid_in(self, start: int, end: int) -> tuple[int, URIError] | None:
        """The first invalid octets in ``text[start:end + 1]`` (a URI cut short by them
        ends right before them): their index and error, or ``None``."""
        at = bisect.bisect_left(self.invalid, start, key=lambda entry: entry[0])
        if at < len(self.invalid) and self.invalid[at][0] <= end:
            return self.invalid[at]
        return None

    def offset(self, line: int, column: int) -> int:
        """The index in ``text`` of ``(line, column)``, line from 1."""
        at = 0
        for _ in range(line - 1):
            found = self.text.find("\n", at)
            if found < 0:
                return len(self.text)
            at = found + 1
        return at + column


def decode(name: str, data: bytes, encoding: str) -> Document:
    """``data`` decoded with ``encoding``, each undecodable run of octets as U+FFFD."""
    view = memoryview(data)
    parts: list[str] = []
    invalid: list[tuple[int, URIError]] = []
    length = 0
    at = 0
    while True:
        try:
            parts.append(str(view[at:], encoding))
            break
        except UnicodeDecodeError as exc:
            good = str(view[at : at + exc.start], encoding)
            parts.append(good)
            length += len(good)
            octets = data[at + exc.start : at + exc.end]
            reason = _input.octets_reason(octets, at + exc.start, encoding)
            invalid.append((length, URIError(reason, rule=_input.UTF8_RULE)))
            parts.append("\ufffd")
            length += 1
            at += exc.end
    return Document(name, "".join(parts), invalid)


def read(name: str, encoding: str) -> Document:
    """The document in the file ``name`` (``-``: standard input)."""
    if name == "-":
        data = _input.stdin().read()
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        with open(name, "rb") as stream:
            data = stream.read()
    return decode(name, data, encoding)


def check_encoding(encoding: str) -> bool:
    """Whether ``encoding`` names a text encoding; if not, say so on stderr."""
    try:
        "".encode(encoding)
        b"".decode(encoding)
    except LookupError:
        print(f"urikit: unknown encoding {encoding!r}", file=sys.stderr)
        return False
    return True
