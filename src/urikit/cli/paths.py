"""``urikit from-path`` and ``urikit to-path``: local paths and ``file:`` URIs (RFC 8089)."""

from __future__ import annotations

import argparse
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import Any

from ..uri import URI
from . import _stream

ORDER = 70


def _as_path(text: str, flavor: str | None) -> str | PurePath:
    if flavor == "windows":
        return PureWindowsPath(text)
    if flavor == "posix":
        return PurePosixPath(text)
    return text


def _from_path(args: argparse.Namespace) -> int:
    items = _stream.inputs(args.path)

    def one(text: str) -> str:
        return str(URI.from_path(_as_path(text, args.flavor)))

    if args.json:
        return _stream.run_json(
            items, lambda text: (True, {"input": text, "ok": True, "uri": one(text)})
        )
    return _stream.run(items, lambda text: (True, one(text)))


def _to_path(args: argparse.Namespace) -> int:
    items = _stream.inputs(args.uri)

    def one(text: str) -> str:
        return str(URI(text).to_path(args.flavor))

    if args.json:
        return _stream.run_json(
            items, lambda text: (True, {"input": text, "ok": True, "path": one(text)})
        )
    # A path may hold any character that a percent-encoding decodes to, a line
    # end among them: written raw, it would split its record in two.
    return _stream.run(items, lambda text: (True, _stream.printable(one(text))))


_FLAVOR_HELP = "posix or windows (default: the current operating system)"


def register(subparsers: Any) -> None:
    from_parser = subparsers.add_parser(
        "from-path",
        help="write absolute local paths as file: URIs (RFC 8089)",
        description="Write each absolute local path as a file: URI (RFC 8089): "
        "file:///etc/hosts, file:///C:/Windows, file://server/share/x for a UNC path. "
        "Each path component is percent-encoded as data (UTF-8). A relative path or one "
        "containing NUL is an error. One output line per input line; exits 1 if any failed.",
    )
    _stream.add_inputs(from_parser, "paths", "path")
    from_parser.add_argument(
        "--flavor", choices=("posix", "windows"), default=None, help=f"path syntax: {_FLAVOR_HELP}"
    )
    _stream.add_json(from_parser)
    from_parser.set_defaults(run=_from_path)

    to_parser = subparsers.add_parser(
        "to-path",
        help="read file: URIs as local paths (RFC 8089)",
        description="Read each file: URI as a local path (RFC 8089, with the forms of its "
        "Appendix E: file:/x, file://localhost/x, drive letters C: and C|, UNC as "
        "file://server/share or file:////server/share). A remote host is a UNC server for "
        "Windows and an error for POSIX. One output line per input line, with a non-"
        "printable character of the path (such as a newline from %0A) written as a Python "
        "escape (\\n); --json gives the path exactly. Exits 1 if any failed.",
    )
    _stream.add_inputs(to_parser, "file: URIs")
    to_parser.add_argument(
        "--flavor", choices=("posix", "windows"), default=None, help=f"path syntax: {_FLAVOR_HELP}"
    )
    _stream.add_json(to_parser)
    to_parser.set_defaults(run=_to_path)
