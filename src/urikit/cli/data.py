"""``urikit data``: the octets of a ``data:`` URL (RFC 2397)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import URI, parse_data
from ..report import printable
from . import _display, _input, _output, _target
from ._help import Formatter, examples


def _read_uri(args: argparse.Namespace) -> _input.Item:
    if args.uri is not None:
        return next(_input.from_arguments([args.uri]))
    stream = _input.stdin()
    data = stream.read()
    octets = data.encode("utf-8") if isinstance(data, str) else data
    return _input.decode(octets.rstrip(b"\r\n"), "standard input")


def _write(octets: bytes) -> None:
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        raise _output.OutputError(OSError(9, "standard output takes no octets"))
    try:
        sys.stdout.flush()
        stream.write(octets)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _output.OutputError(exc) from None


def _lenient_reads(text: str) -> bool:
    """Whether ``--lenient`` would read ``text`` as a ``data:`` URL."""
    try:
        parse_data(URI.lenient(text).uri)
    except ValueError:
        return False
    return True


def _run(args: argparse.Namespace) -> int:
    item = _read_uri(args)
    try:
        if item.error is not None:
            raise item.error
        text: str | URI = item.text
        if args.lenient:
            repaired = URI.lenient(item.text)
            for report in repaired.reports:
                _output.warn("data", f"repaired at {report.span[0]}: {printable(report.message)}")
            text = repaired.uri
        decoded = parse_data(text)
    except ValueError as exc:
        error = _display.shown_error(exc, show_password=True, advice=_output.advice("data"))
        _output.warn("data", f"{item.label}: {_display.error_block(item.text, error)}")
        if not args.lenient and item.error is None and _lenient_reads(item.text):
            _output.warn("data", "--lenient reads it as a browser's address bar does")
        return _output.EXIT_FAILED
    if args.verbose:
        kind = "base64" if decoded.base64 else "percent-encoded"
        _output.warn("data", f"{decoded.content_type} ({len(decoded.data)} octets, {kind})")
    if args.output is None:
        _write(decoded.data)
        return _output.EXIT_OK
    try:
        target = _target.Target(args.output)
    except _output.OutputError as exc:
        _output.warn("data", str(exc))
        return _output.EXIT_OUTPUT
    try:
        with open(target.writing, "wb") as stream:
            stream.write(decoded.data)
        target.commit()
    except OSError as exc:
        _output.warn("data", f"{args.output}: {exc.strerror or exc}")
        return _output.EXIT_OUTPUT
    except _output.OutputError as exc:
        _output.warn("data", str(exc))
        return _output.EXIT_OUTPUT
    finally:
        target.discard()
    return _output.EXIT_OK


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "data",
        formatter_class=Formatter,
        help="decode a data: URL (RFC 2397)",
        description="Decode one data: URL (RFC 2397), given as an argument or as the whole "
        "of standard input, and write its octets to standard output or to --output FILE. "
        "With --verbose, its media type, size and encoding go to standard error. Exits 1 "
        "if it is not a valid data: URL, 3 if the octets cannot be written.",
        epilog=examples(
            "$ urikit data 'data:,A%20brief%20note'\nA brief note",
            "$ urikit data --verbose 'data:text/plain;base64,SGVsbG8='\nHello",
            "$ urikit data --lenient 'data:text/html,<b>x</b>' 2>/dev/null\n<b>x</b>",
        ),
    )
    parser.add_argument(
        "uri", nargs="?", metavar="URI", help="the data: URL (default: standard input)"
    )
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write the octets to FILE, not standard output"
    )
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="read the URL as a browser's address bar does: what the grammar forbids ('<', "
        "'>', a space, '\"', non-ASCII characters) is percent-encoded first and decoded "
        "again with the data (RFC 3986 Appendix C), each repair said on stderr; a '#' "
        "still ends the data and starts the fragment",
    )
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="write the media type and size to standard error",
    )
    parser.set_defaults(run=_run)
