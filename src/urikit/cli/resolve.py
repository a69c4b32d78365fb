"""``urikit resolve`` and ``urikit relativize``: RFC 3986 §5.2 and its inverse."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import URIError
from ..resolve import SPECS, relativize, resolve
from ..uri import IRI, URI
from . import _stream

ORDER = 10


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
        message = str(exc).replace("\n", "\n  ")
        print(f"urikit: bad base URI: {args.base}\n  {message}", file=sys.stderr)
        return None
    return base


def _resolve(args: argparse.Namespace) -> int:
    base = _base(args)
    if base is None:
        return 2

    def one(text: str) -> str:
        return str(resolve(base, text, strict=not args.non_strict, spec=args.spec))

    items = _stream.inputs(args.reference)
    if args.json:
        return _stream.run_json(
            items,
            lambda text: (
                True,
                {"input": text, "ok": True, "base": str(base), "spec": args.spec,
                 "target": one(text)},
            ),
        )  # fmt: skip
    return _stream.run(items, lambda text: (True, one(text)))


def _relativize(args: argparse.Namespace) -> int:
    base = _base(args)
    if base is None:
        return 2
    items = _stream.inputs(args.target)
    if args.json:
        return _stream.run_json(
            items,
            lambda text: (
                True,
                {"input": text, "ok": True, "base": str(base),
                 "reference": str(relativize(base, text))},
            ),
        )  # fmt: skip
    return _stream.run(items, lambda text: (True, str(relativize(base, text))))


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resolve",
        help="resolve references against a base URI (RFC 3986 §5.2)",
        description="Resolve each URI reference against BASE and print its target URI "
        "(RFC 3986 §5.2: transform, merge, remove_dot_segments). BASE must be an absolute "
        "URI; a fragment on it is ignored (§5.1). With no REF arguments, references are "
        "read one per line from standard input, and each gives one output line: the "
        "target, or an error with a caret under the first bad character. Exits 1 if any "
        "reference is invalid, 2 if BASE is.",
        epilog="examples: urikit resolve http://a/b/c/d;p?q ../g '?y' '#s'  |  "
        "urikit resolve --spec rfc2396 http://a/b/c/d;p?q ../../../g",
    )
    parser.add_argument("base", metavar="BASE", help="the base URI (absolute)")
    _stream.add_inputs(parser, "references", "reference", "REF")
    parser.add_argument(
        "--spec",
        choices=SPECS,
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
    _stream.add_json(parser)
    parser.set_defaults(run=_resolve)

    inverse = subparsers.add_parser(
        "relativize",
        help="the shortest reference from a base URI to each target",
        description="For each TARGET print the shortest reference that resolves against "
        "BASE to exactly TARGET (the inverse of resolve): the empty reference for BASE "
        "itself, '#s' or '?y' when only those differ, a relative path such as ../g, an "
        "absolute path, a network path '//host/...', or TARGET itself for another "
        "scheme. A relative TARGET is first resolved against BASE, and a TARGET with dot-"
        "segments is answered as it resolves. With no TARGET arguments, targets are read "
        "one per line from standard input.",
        epilog="example: urikit relativize http://a/b/c/d;p?q http://a/b/g  (prints ../g)",
    )
    inverse.add_argument("base", metavar="BASE", help="the base URI (absolute)")
    _stream.add_inputs(inverse, "targets", "target", "TARGET")
    inverse.add_argument(
        "--iri", action="store_true", help="read BASE and TARGET as IRIs (RFC 3987)"
    )
    _stream.add_json(inverse)
    inverse.set_defaults(run=_relativize)
