"""Streaming input and output shared by the subcommands.

Inputs are the command-line arguments or, when there are none, the lines of
standard input, read lazily so that memory stays constant.  Each input gives
exactly one output record, a result or an error, in input order; nothing is
dropped, and the exit status says whether any input failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from ..errors import URIError


def add_inputs(
    parser: argparse.ArgumentParser, what: str, name: str = "uri", metavar: str | None = None
) -> None:
    """The positional inputs ``name``: ``what`` as arguments, else the lines of stdin."""
    parser.add_argument(
        name, nargs="*", metavar=metavar, help=f"{what} (default: one per line on stdin)"
    )


def add_json(parser: argparse.ArgumentParser, help: str = "one JSON object per input line") -> None:
    """The ``--json`` option: records as JSON Lines (see :func:`run_json`)."""
    parser.add_argument("--json", action="store_true", help=help)


def inputs(values: Iterable[str] | None, stream: TextIO | None = None) -> Iterator[str]:
    """The given values, or the lines of ``stream`` (standard input) without their ends.

    A line ends at "\n" (a "\r" before it, or before the end of input, is
    part of the line end), so each "\n"-terminated line is one input; a "\r"
    inside a line is kept, and reported as the character it is.  Bytes that
    are not UTF-8 are kept as surrogate escapes (PEP 383).
    """
    if values:
        yield from values
        return
    if stream is None:
        stream = sys.stdin
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="surrogateescape", newline="\n")
    for line in stream:
        if line.endswith("\n"):
            line = line[:-1]
        if line.endswith("\r"):
            line = line[:-1]
        yield line


def _prepare_stdout() -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")


def run(
    items: Iterable[str],
    handle: Callable[[str], tuple[bool, str]],
) -> int:
    """Call ``handle(item) -> (ok, record)`` for each item and print each record.

    A ``ValueError`` raised by ``handle`` (``URIError`` among them) becomes an
    error record through :func:`error_record`, so no input is ever lost.
    """
    _prepare_stdout()
    failed = False
    out = sys.stdout
    for item in items:
        try:
            ok, record = handle(item)
        except ValueError as exc:
            ok, record = False, error_text(item, exc)
        failed = failed or not ok
        out.write(record + "\n")
        if out.isatty():
            out.flush()
    out.flush()
    return 1 if failed else 0


def run_json(items: Iterable[str], handle: Callable[[str], tuple[bool, dict[str, Any]]]) -> int:
    """As :func:`run`, with each record one line of JSON (JSON Lines)."""

    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"

    def as_json(item: str) -> tuple[bool, str]:
        try:
            ok, record = handle(item)
        except ValueError as exc:
            ok, record = False, error_json(item, exc)
        return ok, json_line(record, encoding)

    return run(items, as_json)


def json_line(record: dict[str, Any], encoding: str) -> str:
    """``record`` as one line of JSON that stays valid JSON once written in ``encoding``.

    Characters are written as they are when the output encoding can hold them
    all; otherwise (a lone surrogate from an undecodable input byte, or an
    output that is not UTF-8) the record is written with ``\\u`` escapes, so
    that no character is replaced by something that is not JSON.
    """
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return json.dumps(record)
    return text


def error_json(item: str, exc: ValueError) -> dict[str, Any]:
    """The JSON record of a failed input."""
    if isinstance(exc, URIError):
        error: dict[str, Any] = {
            "position": exc.position,
            "rule": exc.rule,
            "reason": exc.reason,
            "message": str(exc),
        }
    else:
        error = {"position": None, "rule": None, "reason": str(exc), "message": str(exc)}
    return {"input": item, "ok": False, "error": error}


def error_text(item: str, exc: ValueError) -> str:
    """The human record of a failed input: the input, then the caret and reason.

    The input is shown with its non-printable characters escaped, so that the
    record keeps to its own lines.
    """
    message = str(exc).replace("\n", "\n  ")
    return f"error: {printable(item)}\n  {message}"


def printable(text: str) -> str:
    """``text`` with each non-printable character written as a Python escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def use_color(stream: TextIO | None = None) -> bool:
    """Colour only for a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    stream = stream or sys.stdout
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()
