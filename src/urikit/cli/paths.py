"""``urikit from-path`` and ``urikit to-path``: local paths and ``file:`` URIs (RFC 8089)."""

from __future__ import annotations

import argparse
import os
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import Any, Final, get_args

from .. import URIError, from_path
from ..report import printable
from ..types import Flavor
from . import _input, _output
from ._help import Formatter, examples


def _as_path(text: str, flavor: str | None) -> str | PurePath:
    """``text`` as a path of ``flavor``; a relative path of this system's flavor is
    resolved against the working directory (``os.path.abspath``: "." and ".." are
    removed as names)."""
    native = "windows" if os.name == "nt" else "posix"
    if flavor in (None, native) and text and not os.path.isabs(text):
        text = os.path.abspath(text)
    if flavor == "windows":
        return PureWindowsPath(text)
    if flavor == "posix":
        return PurePosixPath(text)
    return text


def _on_input(exc: URIError, text: str) -> URIError:
    """``exc`` drawn on the path as given rather than as ``pathlib`` wrote it again."""
    if exc.text is None or exc.text == text:
        return exc
    at_nul = exc.position is not None and exc.text[exc.position : exc.position + 1] == "\x00"
    position = text.find("\x00") if at_nul else 0
    return URIError(exc.reason, text=text, position=position, rule=exc.rule)


def _from_path(args: argparse.Namespace) -> int:
    records = _output.Records(args, "from-path")

    def one(text: str) -> str:
        try:
            return str(from_path(_as_path(text, args.flavor)))
        except URIError as exc:
            raise _on_input(exc, text) from None

    return records.run(
        _input.inputs(args.path, what="paths"),
        lambda text: (True, one(text)),
        lambda text: (True, {"uri": one(text)}),
    )


_NAMED: Final = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    "\x1b": "\\E",
    "\\": "\\\\",
    "'": "\\'",
}


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    if 0xDC80 <= code <= 0xDCFF:  # an octet that was not UTF-8 (PEP 383)
        return f"\\x{code - 0xDC00:02X}"
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02X}"
    if printable(ch) == ch:
        return ch
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def quoted(path: str) -> str:
    """``path`` as written by ``to-path``: as it is when every character shows as
    itself, else in the ``$'...'`` quoting of bash, ksh and zsh, where ``\\n``,
    ``\\xHH`` (an octet that is not UTF-8), ``\\uHHHH``, ``\\\\`` and ``\\'``
    stand for what they escape."""
    if printable(path) == path and not path.startswith("$'"):
        return path
    return "$'" + "".join(_escape(ch) for ch in path) + "'"


def _to_path(args: argparse.Namespace) -> int:
    records = _output.Records(args, "to-path")

    def one(text: str) -> str:
        return str(records.parse(text).to_path(args.flavor))

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        path = one(text)
        return True, {"path": path, "quoted": quoted(path)}

    return records.run(
        _input.inputs(args.uri, what="file: URIs"), lambda text: (True, quoted(one(text))), one_json
    )


_FLAVOR_HELP = "posix or windows (default: the current operating system)"


def register(subparsers: Any) -> None:
    from_parser = subparsers.add_parser(
        "from-path",
        formatter_class=Formatter,
        help="write local paths as file: URIs (RFC 8089)",
        description="Write each local path as a file: URI (RFC 8089): "
        "file:///etc/hosts, file:///C:/Windows, file://server/share/x for a UNC path. "
        "A relative path is resolved against the working directory first ('.' and '..' "
        "removed as names, as os.path.abspath does), unless --flavor names the other "
        "system's paths, where it is an error. Each path component is percent-encoded as "
        "data (UTF-8). A path containing NUL is an error. One output line per input line; "
        "exits 1 if any failed.",
        epilog=examples(
            "$ urikit from-path --flavor posix '/tmp/a b#1.txt'\nfile:///tmp/a%20b%231.txt",
            "$ urikit from-path --flavor windows 'C:\\Users\\Zo\u00eb'\nfile:///C:/Users/Zo%C3%AB",
        ),
    )
    from_parser.add_argument("path", nargs="*", help="paths (default: one per line on stdin)")
    from_parser.add_argument(
        "--flavor", choices=get_args(Flavor), default=None, help=f"path syntax: {_FLAVOR_HELP}"
    )
    _output.add_options(from_parser)
    from_parser.set_defaults(run=_from_path)

    to_parser = subparsers.add_parser(
        "to-path",
        formatter_class=Formatter,
        help="read file: URIs as local paths (RFC 8089)",
        description="Read each file: URI as a local path (RFC 8089, with the forms of its "
        "Appendix E: file:/x, file://localhost/x, drive letters C: and C|, UNC as "
        "file://server/share or file:////server/share). A remote host is a UNC server for "
        "Windows and an error for POSIX. One output line per input line. A path whose "
        "characters all show as themselves is written as it is; any other (a newline "
        "from %0A, an octet that is not UTF-8 from %E9, a control or bidi character) is "
        "written in the $'...' quoting of bash, where \\n, \\t, \\xHH (an octet), \\uHHHH, "
        "\\\\ (a backslash) and \\' stand for what they escape, so a quoted path pasted "
        "into the shell is the file's name. --json gives path and quoted.",
        epilog=examples(
            "$ urikit to-path --flavor posix file:///etc/hosts 'file:///a%0Ab' file:///caf%E9\n"
            "/etc/hosts\n"
            "$'/a\\nb'\n"
            "$'/caf\\xE9'",
        ),
    )
    to_parser.add_argument("uri", nargs="*", help="file: URIs (default: one per line on stdin)")
    to_parser.add_argument(
        "--flavor", choices=get_args(Flavor), default=None, help=f"path syntax: {_FLAVOR_HELP}"
    )
    _output.add_options(to_parser, lenient=True)
    to_parser.set_defaults(run=_to_path)
