"""``urikit normalize`` and ``urikit compare``: the comparison ladder (RFC 3986 §6.2)."""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..compare import comparison_rung
from ..normalize import LEVELS, TRACKING_PARAMS, normalize
from ..uri import IRI, URI
from . import _stream

ORDER = 20


def _steps(args: argparse.Namespace) -> dict[str, Any]:
    """The protocol-based steps switched on by the flags (each off by default)."""
    steps: dict[str, Any] = {}
    for flag in ("drop_fragment", "sort_query", "drop_empty_query", "form_query", "strip_host_dot"):
        if getattr(args, flag):
            steps[flag] = True
    names = list(args.remove_param or ())
    if args.remove_tracking:
        names.extend(TRACKING_PARAMS)
    if names:
        steps["remove_params"] = tuple(names)
    if args.idna:
        steps["idna"] = args.idna
    if args.unicode:
        steps["unicode"] = args.unicode
    return steps


def _parser(args: argparse.Namespace) -> Callable[[str], Any]:
    return IRI if args.iri else URI


def _unique(items: Iterable[str], key: Callable[[str], str]) -> Iterator[str]:
    """The items whose key was not seen before, keeping the first of each.

    Memory grows with the number of distinct keys only: each is kept as a
    16-byte BLAKE2b digest.  Items whose key raises are passed on, so that
    they still produce their error record.
    """
    seen: set[bytes] = set()
    for item in items:
        try:
            digest = hashlib.blake2b(key(item).encode("utf-8", "surrogatepass"), digest_size=16)
        except ValueError:
            yield item
            continue
        value = digest.digest()
        if value not in seen:
            seen.add(value)
            yield item


def _normalize(args: argparse.Namespace) -> int:
    parse = _parser(args)
    steps = _steps(args)
    last: tuple[str, Any] | None = None

    def normal(text: str) -> Any:
        # One-entry memo: with --unique each input is normalized for its key, then
        # written right away.
        nonlocal last
        if last is not None and last[0] == text:
            return last[1]
        result = normalize(parse(text), level=args.level, **steps)
        last = (text, result)
        return result

    def key(text: str) -> str:
        # Equivalent IRIs have equivalent URI forms (RFC 3987 §5.3.2.3).
        result = normal(text)
        if isinstance(result, IRI):
            result = normalize(result.to_uri(), level=args.level)
        return str(result)

    items: Iterable[str] = _stream.inputs(args.uri)
    if args.unique:
        items = _unique(items, key)

    def one(text: str) -> tuple[bool, str]:
        result = str(normal(text))
        return True, text if args.original else result

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, {"input": text, "ok": True, "normalized": str(normal(text))}

    return _stream.run_json(items, one_json) if args.json else _stream.run(items, one)


def _compare(args: argparse.Namespace) -> int:
    parse = _parser(args)
    try:
        a, b = parse(args.a), parse(args.b)
        rung = comparison_rung(a, b, **_steps(args))
    except ValueError as exc:
        item = args.a if not _valid(parse, args.a) else args.b
        if args.json:
            print(_stream.json_line(_stream.error_json(item, exc), _encoding()))
        else:
            print(_stream.error_text(item, exc))
        return 1
    if args.json:
        record = {"a": args.a, "b": args.b, "equivalent": rung is not None, "rung": rung}
        print(_stream.json_line(record, _encoding()))
    else:
        print("different" if rung is None else rung)
    sys.stdout.flush()
    return 0 if rung is not None else 1


def _encoding() -> str:
    return getattr(sys.stdout, "encoding", None) or "utf-8"


def _valid(parse: Callable[[str], Any], text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


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
        help='remove query parameter NAME (repeatable; "prefix*" matches a prefix)',
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
        help="normalize URIs (syntax- and scheme-based, RFC 3986 §6.2)",
        description="Write the normal form of each URI reference at a rung of the RFC 3986 "
        "§6.2 comparison ladder: syntax (case, percent-encoding, dot-segments) or scheme "
        "(the default: also default and empty ports, empty path as '/', file: and mailto: "
        "rules, IPv6 text per RFC 5952). With --unique, only the first URI of each "
        "equivalence class is written; later equivalent ones produce no output.",
    )
    _stream.add_inputs(norm, "URI references")
    norm.add_argument(
        "--level", choices=LEVELS, default="scheme", help="the rung (default: scheme)"
    )
    norm.add_argument(
        "--unique", action="store_true", help="drop URIs equivalent to one already written"
    )
    norm.add_argument(
        "--original",
        action="store_true",
        help="write each input as given, not its normal form (useful with --unique)",
    )
    _stream.add_json(norm, "one JSON object per output line")
    _add_steps(norm)
    norm.set_defaults(run=_normalize)

    compare = subparsers.add_parser(
        "compare",
        help="say at which rung of the comparison ladder two URIs are equivalent",
        description="Print the first rung at which A and B compare equal: string "
        "(§6.2.1), syntax (§6.2.2), scheme (§6.2.3), or protocol when only the given "
        "protocol-based steps make them equal; 'different' otherwise. Exits 0 when they "
        "are equivalent, 1 when they are different or invalid.",
    )
    compare.add_argument("a", help="a URI reference")
    compare.add_argument("b", help="another URI reference")
    _stream.add_json(compare, "a JSON object")
    _add_steps(compare)
    compare.set_defaults(run=_compare)
