"""``urikit inspect``: a live URI inspector in the browser, served on 127.0.0.1."""

from __future__ import annotations

import argparse
import json
import sys
import webbrowser
from typing import Any
from urllib.parse import urlencode

from . import _inspector
from ._display import password_span
from ._help import Formatter, examples
from ._output import EXIT_FAILED


def _address(args: argparse.Namespace, port: int) -> str:
    """The page's address, its inputs in the fragment as the page keeps them: all but
    those that hold a password (RFC 3986 §7.5), which the page gets from the server."""
    fields = {"uri": args.uri, "base": args.base, "other": args.other}
    filled = {name: v for name, v in fields.items() if v and password_span(v) is None}
    fragment = "#" + urlencode(filled) if filled else ""
    return f"http://{_inspector.LOOPBACK}:{port}/{fragment}"


def _run(args: argparse.Namespace) -> int:
    if args.json:
        result = _inspector.answer({"uri": args.uri or "", "base": args.base, "other": args.other})
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0 if result["ok"] else EXIT_FAILED
    try:
        initial = {"uri": args.uri, "base": args.base, "other": args.other}
        server = _inspector.make_server(args.port, initial)
    except OSError as exc:
        print(
            f"urikit inspect: cannot listen on {_inspector.LOOPBACK}:{args.port}: "
            f"{exc.strerror or exc}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    with server:
        address = _address(args, server.server_address[1])
        print(address, flush=True)
        print("urikit inspect: serving; Ctrl-C stops", file=sys.stderr, flush=True)
        if args.open and not _opened(address):
            print(
                "urikit inspect: no web browser could be opened here; open the address above",
                file=sys.stderr,
                flush=True,
            )
        server.serve_forever()
    return 0


def _opened(address: str) -> bool:
    """Whether a web browser was started on ``address``."""
    try:
        return webbrowser.open(address)
    except webbrowser.Error:
        return False


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0-65535): {text!r}")
    return int(text)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "inspect",
        formatter_class=Formatter,
        help="a live URI inspector in the browser, served on 127.0.0.1",
        description="Serve a page on 127.0.0.1 that shows a URI reference as you type it: "
        "its components, path segments and query parameters, decoded octets, the error "
        "position and rule, the resolution against a base (RFC 3986 §5.2), the comparison "
        "ladder (§6.2), the audit findings (§7) and how urllib.parse and the WHATWG parser "
        "read it. Prints the page's address, and serves until Ctrl-C (exit status 130). "
        "The server answers only its own pages on its own address, never another site. "
        "It reads no standard input. With --json, prints what the page would show of URI "
        "as JSON instead, and exits 1 if URI is invalid.",
        epilog=examples(
            "$ urikit inspect --json 'http://a/b'\n"
            "{\n"
            '  "input": "http://a/b",\n'
            '  "length": 10,\n'
            '  "ok": true,\n'
            "..."
        ),
    )
    parser.add_argument(
        "uri", nargs="?", default="", metavar="URI", help="a URI reference to show first"
    )
    parser.add_argument("--base", default="", metavar="BASE", help="a base URI to resolve against")
    parser.add_argument(
        "--other", default="", metavar="URI", help="a second URI to compare with (§6.2)"
    )
    parser.add_argument(
        "--port", type=_port, default=0, help="the port to listen on (default: a free port)"
    )
    parser.add_argument("--open", action="store_true", help="open the page in the web browser")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the page's data for URI as JSON and exit, without serving",
    )
    parser.set_defaults(run=_run)
