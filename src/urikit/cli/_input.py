"""The inputs of a subcommand: its arguments, or the lines of standard input.

Standard input is read as octets, lazily, so that memory stays constant.  A
line ends at "\\n"; one "\\r" before it (or before the end of input) is part of
the line end, and a "\\r" inside a line is kept.  Each line is decoded as
UTF-8 (RFC 3629); a line that is not UTF-8 is still an input, carrying the
error that names its first invalid octets by value and byte position, and
shown with each invalid octet as U+FFFD.  Arguments are checked the same way:
the operating system hands their undecodable octets over as surrogate escapes
(PEP 383).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from .. import URIError

#: The rule of RFC 3629 §4 that an invalid octet breaks.
UTF8_RULE = "UTF8-char"

NOTE_AWAITING = "reading URIs from standard input, one per line; Ctrl-D to end"


@dataclass(frozen=True)
class Item:
    """One input: its ``text``, where it came from (``line 3``, ``argument 1``,
    ``row 7``), the ``error`` of an input that is not UTF-8, and the ``base`` of a
    row of ``--input`` read with ``--base-column``."""

    text: str
    label: str
    error: URIError | None = None
    base: str | None = None


def decode(data: bytes, label: str, encoding: str = "utf-8") -> Item:
    """``data`` decoded, or an item whose error names the first octets that are not text."""
    try:
        return Item(data.decode(encoding), label)
    except UnicodeDecodeError as exc:
        text = data.decode(encoding, "replace")
        return Item(text, label, undecodable(data, exc, encoding))
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None


def octets_reason(octets: bytes, byte: int, encoding: str = "utf-8") -> str:
    """Why ``octets`` at byte ``byte`` are not text: ``invalid UTF-8 octet 0xFF at byte 9``."""
    names = " ".join(f"0x{octet:02X}" for octet in octets)
    plural = "s" if len(octets) > 1 else ""
    label = "UTF-8" if encoding.replace("_", "-").lower() in ("utf-8", "utf8") else encoding
    return f"invalid {label} octet{plural} {names} at byte {byte}"


def undecodable(data: bytes, exc: UnicodeDecodeError, encoding: str = "utf-8") -> URIError:
    """The error of octets ``data[exc.start:exc.end]``, which ``encoding`` cannot decode."""
    # The octets before the first invalid one decode, so their length is its position.
    position = len(data[: exc.start].decode(encoding, "replace"))
    return URIError(
        octets_reason(data[exc.start : exc.end], exc.start, encoding),
        text=data.decode(encoding, "replace"),
        position=position,
        rule=UTF8_RULE,
    )


def from_arguments(values: Iterable[str]) -> Iterator[Item]:
    for number, value in enumerate(values, 1):
        data = value.encode("utf-8", "surrogateescape")
        yield decode(data, f"argument {number}")


def from_stream(stream: BinaryIO | TextIO) -> Iterator[Item]:
    """The lines of ``stream`` without their ends; a text stream's lines are taken as read."""
    lines: Iterable[str | bytes] = stream
    for number, line in enumerate(lines, 1):
        label = f"line {number}"
        if isinstance(line, str):
            yield Item(line.removesuffix("\n").removesuffix("\r"), label)
        else:
            yield decode(line.removesuffix(b"\n").removesuffix(b"\r"), label)


def stdin() -> BinaryIO | TextIO:
    """Standard input as octets when it has them (a replaced ``sys.stdin`` may not)."""
    stream = sys.stdin
    buffer = getattr(stream, "buffer", None)
    return stream if buffer is None else buffer


def interactive() -> bool:
    """Whether standard input is a terminal."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def inputs(values: Iterable[str] | None, *, what: str = "URIs") -> Iterator[Item]:
    """The items of ``values``, or, when there are none, the lines of standard input.

    Reading a terminal, a note on standard error first says that input is awaited.
    """
    if values:
        yield from from_arguments(values)
        return
    if interactive():
        print(f"urikit: {NOTE_AWAITING.replace('URIs', what)}", file=sys.stderr, flush=True)
    yield from from_stream(stdin())
