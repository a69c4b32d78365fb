"""``urikit resolve`` and ``urikit relativize``: RFC 3986 §5.2 and its inverse."""

from __future__ import annotations

import argparse
import sys
from typing import Any, get_args

from .. import IRI, URI, URIError
from ..types import Spec
from . import _display, _input, _output
from ._help import Formatter, examples


def _base(args: argparse.Namespace) -> URI | IRI | None:
    """The base URI (or IRI), or ``None`` after saying on stderr why it cannot be one."""
    try:
        base = (IRI if args.iri else URI)(args.base)
        if base.scheme is None:
            raise URIError(
                "a base URI must be absolute (RFC 3986 §5.1): it needs a scheme",
                text=args.base,
                position=0,
                rule="absolute-URI",
            )
    except URIError as exc:
        shown = exc if args.show_password else _display.masked_error(exc)
        text = args.base if args.show_password else _display.mask(args.base)
        message = str(shown).replace("\n", "\n  ")
        print(f"urikit {args.command}: bad base URI: {text}\n  {message}", file=sys.stderr)
        return None
    return base


def _resolve(args: argparse.Namespace) -> int:
    base = _base(args)
    if base is None:
        return _output.EXIT_USAGE
    records = _output.Records(args, "resolve")

    def one(text: str) -> str:
        ref = records.parse(text, args.iri)
        return str(base.resolve(ref, strict=not args.non_strict, spec=args.spec))

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, {"base": records.shown(str(base)), "spec": args.spec, "target": one(text)}

    items = _input.inputs(args.reference, what="references")
    return records.run(items, lambda text: (True, one(text)), one_json)


def _relativize(args: argparse.Namespace) -> int:
    base = _base(args)
    if base is None:
        return _output.EXIT_USAGE
    records = _output.Records(args, "relativize")

    def one(text: str) -> str:
        return str(base.relativize(records.parse(text, args.iri)))

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, {"base": records.shown(str(base)), "reference": one(text)}

    items = _input.inputs(args.target, what="target URIs")
    return records.run(items, lambda text: (True, one(text)), one_json)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resolve",
        formatter_class=Formatter,
        help="resolve references against a base URI (RFC 3986 §5.2)",
        description="Resolve each URI reference against BASE and print its target URI "
        "(RFC 3986 §5.2: transform, merge, remove_dot_segments). BASE must be an absolute "
        "URI; a fragment on it is ignored (§5.1). With no REF arguments, references are "
        "read one per line from standard input, and each gives one output line: the "
        "target, or an error record. Exits 1 if any reference is invalid, 2 if BASE is.",
        epilog=examples(
            "$ urikit resolve 'http://a/b/c/d;p?q' ../g '?y' '#s'\n"
            "http://a/b/g\n"
            "http://a/b/c/d;p?y\n"
            "http://a/b/c/d;p?q#s",
            "$ urikit resolve --spec rfc2396 'http://a/b/c/d;p?q' ../../../g\nhttp://a/../g",
        ),
    )
    parser.add_argument("base", metavar="BASE", help="the base URI (absolute)")
    parser.add_argument(
        "reference", nargs="*", metavar="REF", help="references (default: one per line on stdin)"
    )
    parser.add_argument(
        "--spec",
        choices=get_args(Spec),
        default="rfc3986",
        help="the resolution algorithm: rfc3986 (default), or the legacy rfc2396 (§5.2 "
        "and Appendix C of RFC 2396) or rfc1630 (RFC 1630 partial forms)",
    )
    parser.add_argument(
        "--non-strict",
        action="store_true",
        help="ignore a scheme in REF equal to the scheme of BASE, so http:g is read as g "
        "(the backward-compatible parser of RFC 3986 §5.2.2)",
    )
    parser.add_argument(
        "--iri", action="store_true", help="read BASE and REF as IRIs (RFC 3987 §6.5)"
    )
    _output.add_options(parser, lenient=True)
    parser.set_defaults(run=_resolve)

    inverse = subparsers.add_parser(
        "relativize",
        formatter_class=Formatter,
        help="the shortest reference from a base URI to each target",
        description="For each TARGET print the shortest reference that resolves against "
        "BASE to exactly TARGET (the inverse of resolve): the empty reference for BASE "
        "itself, '#s' or '?y' when only those differ, a relative path such as ../g, an "
        "absolute path, a network path '//host/...', or TARGET itself for another "
        "scheme. A relative TARGET is first resolved against BASE, and a TARGET with dot-"
        "segments is answered as it resolves. With no TARGET arguments, targets are read "
        "one per line from standard input.",
        epilog=examples(
            "$ urikit relativize 'http://a/b/c/d;p?q' http://a/b/g 'http://a/b/c/d;p?y'\n../g\n?y"
        ),
    )
    inverse.add_argument("base", metavar="BASE", help="the base URI (absolute)")
    inverse.add_argument(
        "target", nargs="*", metavar="TARGET", help="targets (default: one per line on stdin)"
    )
    inverse.add_argument(
        "--iri", action="store_true", help="read BASE and TARGET as IRIs (RFC 3987)"
    )
    _output.add_options(inverse, lenient=True)
    inverse.set_defaults(run=_relativize)
