"""``urikit query``: read and edit the query of URI references (RFC 3986 §3.4).

``list``, ``get NAME``, ``set NAME VALUE`` and ``remove NAME`` use the query
methods of :class:`urikit.URI`, which keep every byte of the pairs they do not
touch: only the pairs named change.
"""

from __future__ import annotations

import argparse
from typing import Any, get_args

from ..report import printable
from ..types import Codec
from . import _input, _output
from ._help import Formatter, examples


def _pair(name: str, value: str | None) -> str:
    shown = printable(name).replace("=", "<U+003D>")
    return shown if value is None else f"{shown}={printable(value)}"


def _remove(uri: Any, name: str, codec: Codec) -> Any:
    """``uri`` without the parameters NAME names, read as ``URI.remove_query_params`` and
    ``normalize --remove-param`` read it: a glob pattern (``utm_*``) when it holds "*"
    or "?", else that one name (``a[1]`` is a name)."""
    return uri.remove_query_params(name, codec=codec)


def _run(args: argparse.Namespace) -> int:
    records = _output.Records(args, "query")
    codec = args.codec
    action = args.action

    def fields(text: str) -> tuple[bool, dict[str, Any]]:
        uri = records.parse(text)
        if action == "list":
            return True, {"params": [[n, v] for n, v in uri.query_params(codec=codec)]}
        if action == "get":
            values = uri.query_param_all(args.name, codec=codec)
            if not values:
                raise ValueError(f"no query parameter {args.name!r}")
            return True, {"name": args.name, "value": values[0]}
        if action == "set":
            return True, {"uri": str(uri.set_query_param(args.name, args.value, codec=codec))}
        return True, {"uri": str(_remove(uri, args.name, codec))}

    def one(text: str) -> tuple[bool, str]:
        ok, data = fields(text)
        if action == "list":
            return ok, "\t".join(_pair(n, v) for n, v in data["params"])
        if action == "get":
            return ok, "" if data["value"] is None else printable(data["value"])
        return ok, str(data["uri"])

    return records.run(_input.inputs(args.uri), one, fields)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("uri", nargs="*", help="URI references (default: one per line on stdin)")
    parser.add_argument(
        "--codec",
        choices=get_args(Codec),
        default="form",
        help="how names and values are encoded: form (default: '+' is a space, as in "
        "HTML forms) or rfc3986 (percent-encoding only)",
    )
    _output.add_options(parser, lenient=True)
    parser.set_defaults(run=_run)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "query",
        formatter_class=Formatter,
        help="list, get, set or remove query parameters",
        description="Read or edit the query parameters (name=value pairs separated by '&', "
        "RFC 3986 §3.4) of each URI reference, from the arguments or one per line on "
        "standard input. Editing keeps every byte of the pairs it does not touch.",
        epilog=examples(
            "$ urikit query get q 'http://h/?q=a+b&x=%2F'\na b",
            "$ urikit query set q c 'http://h/?q=a+b&x=%2F'\nhttp://h/?q=c&x=%2F",
        ),
    )
    actions = parser.add_subparsers(
        dest="action", metavar="ACTION", required=True, help="list, get, set or remove"
    )

    listing = actions.add_parser(
        "list",
        formatter_class=Formatter,
        help="the decoded pairs",
        description="One line per URI: its decoded pairs separated by tabs, each NAME=VALUE "
        "(NAME alone when it has no '='), characters that would not show written as "
        "<U+XXXX> and an '=' in a name as <U+003D>. --json gives params: [[name, value], ...] "
        "with null for a missing value.",
        epilog=examples("$ urikit query list 'http://h/?a=1&b&c=x+y'\na=1\tb\tc=x y"),
    )
    _common(listing)

    get = actions.add_parser(
        "get",
        formatter_class=Formatter,
        help="the first value of a parameter",
        description="One line per URI: the decoded first value of NAME (an empty line when "
        "it has no '='). A URI without NAME gives an error record (exit status 1).",
        epilog=examples("$ urikit query get a 'http://h/?a=1&a=2'\n1"),
    )
    get.add_argument("name", metavar="NAME", help="the parameter name (decoded)")
    _common(get)

    setter = actions.add_parser(
        "set",
        formatter_class=Formatter,
        help="give a parameter one value",
        description="One line per URI: the URI where NAME has the one value VALUE, at the "
        "place of its first occurrence (appended when absent); other pairs are kept byte "
        "for byte.",
        epilog=examples("$ urikit query set a 3 'http://h/?a=1&b=%7e&a=2'\nhttp://h/?a=3&b=%7e"),
    )
    setter.add_argument("name", metavar="NAME", help="the parameter name (decoded)")
    setter.add_argument("value", metavar="VALUE", help="the value (decoded)")
    _common(setter)

    remove = actions.add_parser(
        "remove",
        formatter_class=Formatter,
        help="remove a parameter",
        description="One line per URI: the URI without any pair named NAME; other pairs are "
        "kept byte for byte. A NAME holding '*' or '?' is a glob pattern on the decoded name "
        "(fnmatch, case-sensitive), as in URI.remove_query_params and normalize "
        "--remove-param: 'utm_*' removes every utm_ parameter.",
        epilog=examples(
            "$ urikit query remove utm_source 'http://h/?utm_source=x&id=%41'\nhttp://h/?id=%41",
            "$ urikit query remove 'utm_*' 'http://h/?utm_source=x&id=7&utm_medium=y'\n"
            "http://h/?id=7",
        ),
    )
    remove.add_argument(
        "name", metavar="NAME", help="the parameter name (decoded), or a pattern with * or ?"
    )
    _common(remove)
