"""``urikit normalize`` and ``urikit compare``: the comparison ladder (RFC 3986 §6.2)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any, get_args

from .. import IRI, URIError, comparison_rung
from ..types import Level
from . import _files, _input, _output
from ._help import Formatter, examples
from ._operation import Operation


def _steps(args: argparse.Namespace) -> dict[str, Any]:
    """The protocol-based steps switched on by the flags (each off by default)."""
    steps: dict[str, Any] = {}
    flags = ("drop_fragment", "sort_query", "drop_empty_query", "form_query", "strip_host_dot")
    for flag in (*flags, "remove_tracking"):
        if getattr(args, flag):
            steps[flag] = True
    if args.remove_param:
        steps["remove_params"] = tuple(args.remove_param)
    if args.idna:
        steps["idna"] = args.idna
    if args.unicode:
        steps["unicode"] = args.unicode
    return steps


def normalize_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    steps = _steps(args)
    last: tuple[str, Any] | None = None

    def normal(text: str) -> Any:
        # One-entry memo: with --unique each input is normalized for its key, then
        # written right away.
        nonlocal last
        if last is not None and last[0] == text:
            return last[1]
        result = records.parse(text, args.iri).normalize(level=args.level, **steps)
        last = (text, result)
        return result

    def key(fields: dict[str, Any]) -> str:
        # Equivalent IRIs have equivalent URI forms (RFC 3987 §5.3.2.3).
        if args.iri:
            return str(IRI(fields["normalized"]).to_uri().normalize(level=args.level))
        return str(fields["normalized"])

    def one(text: str) -> tuple[bool, str]:
        result = str(normal(text))
        return True, records.shown(text) if args.original else result

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, {"normalized": str(normal(text))}

    def column(values: Any) -> tuple[Any, dict[str, Any]]:
        from ..arrow import normalize

        normalized = normalize(values, level=args.level, iri=args.iri, **steps)
        return normalized.is_valid(), {"normalized": normalized}

    def answer(text: str, fields: dict[str, Any]) -> str:
        return records.shown(text) if args.original else str(fields["normalized"])

    return Operation(
        one,
        one_json,
        {"normalized": "string"},
        None if args.lenient else column,
        answer,
        key if args.unique else None,
    )


def _normalize(args: argparse.Namespace) -> int:
    return _files.run(args, "normalize", normalize_operation, args.uri)


def _pairs(values: list[str]) -> Iterator[_input.Item]:
    """``A B`` argument pairs as tab-separated lines, or the lines of standard input."""
    if values:
        lines = [f"{a}\t{b}" for a, b in zip(values[::2], values[1::2], strict=True)]
        yield from _input.from_arguments(lines)
        return
    yield from _input.inputs(None, what="URI pairs (A<TAB>B)")


def _anchored(exc: URIError, line: str, offset: int) -> URIError:
    """``exc`` about the URI at ``offset`` of ``line``, as an error about ``line``."""
    position = None if exc.position is None else exc.position + offset
    return URIError(exc.reason, text=line, position=position, rule=exc.rule)


def _compare(args: argparse.Namespace) -> int:
    if len(args.uri) % 2:
        _output.warn("compare", "give URI references in pairs: A B [A B ...]")
        return _output.EXIT_USAGE
    records = _output.Records(args, "compare")
    steps = _steps(args)

    def rung(line: str) -> tuple[str, str, str | None]:
        a, tab, b = line.partition("\t")
        if not tab or "\t" in b:
            raise URIError(
                "a line holds two URI references separated by one tab",
                text=line,
                position=len(line) if not tab else len(a) + 1 + b.index("\t"),
            )
        offset = 0
        try:
            first = records.parse(a, args.iri)
            offset = len(a) + 1
            second = records.parse(b, args.iri)
        except URIError as exc:
            raise _anchored(exc, line, offset) from None
        return a, b, comparison_rung(first, second, **steps)

    def one(line: str) -> tuple[bool, str]:
        _, _, found = rung(line)
        return found is not None, "different" if found is None else found

    def one_json(line: str) -> tuple[bool, dict[str, Any]]:
        a, b, found = rung(line)
        return found is not None, {
            "a": records.shown(a),
            "b": records.shown(b),
            "equivalent": found is not None,
            "rung": found,
        }

    return records.run(_pairs(args.uri), one, one_json)


def _add_steps(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "protocol-based steps (RFC 3986 §6.2.4)",
        "Each is off unless given; each can make URIs that name different resources "
        "compare equal (see docs/normalization.md).",
    )
    group.add_argument("--drop-fragment", action="store_true", help="remove the fragment")
    group.add_argument(
        "--sort-query", action="store_true", help="sort query parameters by name (stable)"
    )
    group.add_argument("--drop-empty-query", action="store_true", help='remove an empty "?"')
    group.add_argument(
        "--remove-tracking",
        action="store_true",
        help="remove tracking parameters (utm_*, fbclid, gclid, ...)",
    )
    group.add_argument(
        "--remove-param",
        action="append",
        metavar="NAME",
        help="remove query parameter NAME (repeatable; a NAME holding * or ? is a glob, "
        "as in query remove)",
    )
    group.add_argument(
        "--form-query",
        action="store_true",
        help="re-encode the query as application/x-www-form-urlencoded (%%20 and + alike)",
    )
    group.add_argument(
        "--strip-host-dot", action="store_true", help="remove the trailing dot of the host"
    )
    group.add_argument(
        "--idna",
        choices=("a-label", "u-label"),
        help="write the host as IDNA A-labels (xn--) or U-labels (IDNA 2008, UTS 46)",
    )
    group.add_argument(
        "--unicode", choices=("NFC", "NFKC"), help="Unicode normalization of IRI characters"
    )
    parser.add_argument("--iri", action="store_true", help="read IRIs (RFC 3987) rather than URIs")


def register(subparsers: Any) -> None:
    norm = subparsers.add_parser(
        "normalize",
        formatter_class=Formatter,
        help="normalize URIs (syntax- and scheme-based, RFC 3986 §6.2)",
        description="Write the normal form of each URI reference at a rung of the RFC 3986 "
        "§6.2 comparison ladder: syntax (case, percent-encoding, dot-segments) or scheme "
        "(the default: also default and empty ports, empty path as '/', file: and mailto: "
        "rules, IPv6 text per RFC 5952). With --unique, only the first URI of each "
        "equivalence class is written; later equivalent ones produce no output.",
        epilog=examples(
            "$ urikit normalize 'HTTP://Example.COM:80/a/./b/../%7euser'\n"
            "http://example.com/a/~user",
            "$ printf 'http://a/\\nHTTP://A:80/\\n' | urikit normalize --unique\nhttp://a/",
            "$ printf 'HTTP://A:80/b\\nbad uri\\n' | urikit normalize --input - --output - "
            "--output-format csv\n"
            '"input","ok","normalized","error","error_position","error_rule","error_message"\n'
            '"HTTP://A:80/b",true,"http://a/b",,,,\n'
            "...",
        ),
    )
    norm.add_argument("uri", nargs="*", help="URI references (default: one per line on stdin)")
    norm.add_argument(
        "--level", choices=get_args(Level), default="scheme", help="the rung (default: scheme)"
    )
    norm.add_argument(
        "--unique", action="store_true", help="drop URIs equivalent to one already written"
    )
    norm.add_argument(
        "--original",
        action="store_true",
        help="write each input as given, not its normal form (useful with --unique)",
    )
    _output.add_options(norm, json_help="one JSON object per output line", lenient=True)
    _files.add_options(norm)
    _add_steps(norm)
    norm.set_defaults(run=_normalize)

    compare = subparsers.add_parser(
        "compare",
        formatter_class=Formatter,
        help="say at which rung of the comparison ladder two URIs are equivalent",
        description="For each pair A B, print the first rung at which they compare equal: "
        "string (§6.2.1), syntax (§6.2.2), scheme (§6.2.3), or protocol when only the "
        "given protocol-based steps make them equal; 'different' otherwise. Pairs are the "
        "arguments, two by two, or, with none, the lines of standard input, each holding A "
        "and B separated by a tab. One record per pair; exits 1 when any pair is "
        "different or invalid.",
        epilog=examples(
            "$ urikit compare http://a/%7e HTTP://a/~\nsyntax",
            "$ printf 'http://a/\\thttp://a:80/\\nhttp://a/\\thttp://b/\\n' | urikit compare\n"
            "scheme\n"
            "different",
        ),
    )
    compare.add_argument(
        "uri",
        nargs="*",
        metavar="URI",
        help="pairs A B of URI references (default: one pair per line on stdin, A<TAB>B)",
    )
    _output.add_options(compare, json_help="one JSON object per pair", lenient=True)
    _add_steps(compare)
    compare.set_defaults(run=_compare)
