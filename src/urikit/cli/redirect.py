"""``urikit redirect-check``: may a server redirect to each target? (RFC 3986 §7)"""

from __future__ import annotations

import argparse
from typing import Any

from .. import URI, URIError
from ..report import printable
from ..security import redirect_findings
from . import _input, _output
from ._help import Formatter, examples


def _base(args: argparse.Namespace) -> str | None:
    """BASE, or ``https://HOST/`` of the first --allow HOST; ``None`` after saying why not."""
    if args.base is None and not args.allow:
        _output.warn("redirect-check", "give --allow HOST or --base URI")
        return None
    text: str = args.base if args.base is not None else f"https://{args.allow[0]}/"
    try:
        base = URI(text)
    except URIError as exc:
        _output.warn("redirect-check", f"bad base URI: {exc}")
        return None
    if base.scheme is None:
        _output.warn("redirect-check", "the base URI must be absolute (RFC 3986 §5.1)")
        return None
    return text


def _run(args: argparse.Namespace) -> int:
    base = _base(args)
    if base is None:
        return _output.EXIT_USAGE
    records = _output.Records(args, "redirect-check")
    schemes = tuple(args.allow_scheme or ("http", "https"))

    def findings(text: str) -> list[Any]:
        return list(
            redirect_findings(text, base=base, allowed_hosts=args.allow, allowed_schemes=schemes)
        )

    def one(text: str) -> tuple[bool, str]:
        found = findings(text)
        shown = printable(records.shown(text))
        if not found:
            return True, f"safe: {shown}"
        return False, f"unsafe: {shown}\t" + ", ".join(f.code for f in found)

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        found = findings(text)
        return not found, {"safe": not found, "findings": [f.to_dict() for f in found]}

    return records.run(_input.inputs(args.uri, what="redirect targets"), one, one_json)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "redirect-check",
        formatter_class=Formatter,
        help="check redirect targets against allowed hosts (open redirects)",
        description="For each redirect target (from the arguments or one per line on "
        "standard input), say whether a server may redirect a client to it: the target is "
        "resolved against BASE and refused when it is not a strict URI reference, holds a "
        "backslash, white space or a control character, is a network-path reference "
        "(//evil), has userinfo, is read differently by other parsers, or leads to a "
        "scheme or host not allowed. A record is 'safe: TARGET' or 'unsafe: TARGET<TAB>"
        "CODES'; --json gives safe and findings (code, severity, span, message). Exits 1 "
        "when any target is unsafe.",
        epilog=examples(
            "$ urikit redirect-check --allow example.com /account https://example.com/x "
            "//evil.example/\n"
            "safe: /account\n"
            "safe: https://example.com/x\n"
            "unsafe: //evil.example/\tnetwork-path"
        ),
    )
    parser.add_argument("uri", nargs="*", help="redirect targets (default: one per line on stdin)")
    parser.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="HOST",
        help="a host that targets may lead to (repeatable), besides the host of BASE",
    )
    parser.add_argument(
        "--allow-scheme",
        action="append",
        metavar="SCHEME",
        help="a scheme that targets may have (repeatable; default: http and https)",
    )
    parser.add_argument(
        "--base",
        metavar="URI",
        help="the URI of the page that redirects (default: https://HOST/ for the first "
        "--allow HOST)",
    )
    _output.add_options(parser)
    parser.set_defaults(run=_run)
