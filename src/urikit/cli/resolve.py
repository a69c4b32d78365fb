"""``urikit resolve`` and ``urikit relativize``: RFC 3986 §5.2 and its inverse."""

from __future__ import annotations

import argparse
import sys
from typing import Any, get_args

from .. import IRI, URI, URIError
from ..types import Spec
from . import _display, _files, _input, _output
from ._help import Formatter, examples
from ._operation import Operation


def _absolute(text: str, iri: bool) -> URI | IRI:
    """``text`` as a base URI (or IRI): it must be absolute (RFC 3986 §5.1)."""
    base = (IRI if iri else URI)(text)
    if base.scheme is None:
        raise URIError(
            "a base URI must be absolute (RFC 3986 §5.1): it needs a scheme",
            text=text,
            position=0,
            rule="absolute-URI",
        )
    return base


def _base(args: argparse.Namespace) -> URI | IRI | None:
    """The base URI (or IRI), or ``None`` after saying on stderr why it cannot be one."""
    try:
        base = _absolute(args.base, args.iri)
    except URIError as exc:
        shown = _display.shown_error(
            exc, show_password=args.show_password, advice=_output.advice(args.command)
        )
        text = args.base if args.show_password else _display.mask(args.base)
        block = _display.error_block(text, shown).removeprefix("error: ")
        print(f"urikit {args.command}: bad base URI: {block}", file=sys.stderr)
        return None
    return base


def resolve_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    """The targets of references against BASE, or, with ``--base-column``, against the
    base in each row's column (BASE for a row whose base is null or empty: CSV does not
    tell them apart)."""
    fixed = None if args.base is None else _absolute(args.base, args.iri)
    last: tuple[str, URI | IRI] | None = None

    def base_of_row() -> URI | IRI:
        nonlocal last
        item = records.item
        text = None if item is None else item.base
        if not text:
            if fixed is None:
                raise URIError(
                    f"the row has no base: {args.base_column} is empty and no BASE is given"
                )
            return fixed
        if last is None or last[0] != text:
            try:
                last = (text, _absolute(text, args.iri))
            except URIError as exc:
                reason = f"bad base URI {records.shown(text)!r}: {exc.reason}"
                raise URIError(reason, rule=exc.rule) from None
        return last[1]

    def target(text: str) -> tuple[URI | IRI, str]:
        base = fixed if args.base_column is None else base_of_row()
        assert base is not None
        ref = records.parse(text, args.iri)
        return base, str(base.resolve(ref, strict=not args.non_strict, spec=args.spec))

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        base, found = target(text)
        return True, {"base": records.shown(str(base)), "spec": args.spec, "target": found}

    fields = {"base": "string", "spec": "string", "target": "string"}
    return Operation(lambda text: (True, target(text)[1]), one_json, fields)


def _resolve(args: argparse.Namespace) -> int:
    if args.base_column is None:
        if args.base is None:
            _output.warn("resolve", "give BASE (or --base-column NAME with --input)")
            return _output.EXIT_USAGE
        if _base(args) is None:
            return _output.EXIT_USAGE
    elif args.base is not None and _base(args) is None:
        return _output.EXIT_USAGE
    return _files.run(args, "resolve", resolve_operation, args.reference, what="references")


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
        "target, or an error record. Exits 1 if any reference is invalid, 2 if BASE is. "
        "With --input and --base-column, each row of a table has its own base.",
        epilog=examples(
            "$ urikit resolve 'http://a/b/c/d;p?q' ../g '?y' '#s'\n"
            "http://a/b/g\n"
            "http://a/b/c/d;p?y\n"
            "http://a/b/c/d;p?q#s",
            "$ urikit resolve --spec rfc2396 'http://a/b/c/d;p?q' ../../../g\nhttp://a/../g",
            "$ printf 'ref,base\\n../g,http://a/b/c/d;p?q\\n#s,\\n' | urikit resolve "
            "'http://x/y' --input - --input-format csv --column ref --base-column base\n"
            "http://a/b/g\n"
            "http://x/y#s",
        ),
    )
    parser.add_argument(
        "base",
        nargs="?",
        metavar="BASE",
        help="the base URI (absolute); with --base-column, the base of rows whose base is null",
    )
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
    _files.add_options(parser, base_column=True)
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
