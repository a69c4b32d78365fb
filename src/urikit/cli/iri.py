"""``urikit to-uri`` and ``urikit to-iri``: RFC 3987 §3.1 and §3.2."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..report import printable
from . import _files, _input, _output
from ._help import Formatter, examples
from ._operation import Operation


def _convert(args: argparse.Namespace, records: _output.Records,
             convert: Callable[[str], str], key: str) -> int:  # fmt: skip
    return records.run(
        _input.inputs(args.reference),
        lambda text: (True, printable(convert(text))),
        lambda text: (True, {key: convert(text)}),
    )


def to_uri_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    def convert(text: str) -> str:
        return str(records.parse(text, iri=True).to_uri(idna=args.idna, nfc=args.nfc))

    def column(values: Any) -> tuple[Any, dict[str, Any]]:
        from ..arrow import to_uri

        uris = to_uri(values, idna=args.idna, nfc=args.nfc)
        return uris.is_valid(), {"uri": uris}

    return Operation(
        lambda text: (True, printable(convert(text))),
        lambda text: (True, {"uri": convert(text)}),
        {"uri": "string"},
        None if args.lenient else column,
        lambda text, fields: printable(fields["uri"]),
    )


def _to_uri(args: argparse.Namespace) -> int:
    return _files.run(args, "to-uri", to_uri_operation, args.reference)


def _to_iri(args: argparse.Namespace) -> int:
    records = _output.Records(args, "to-iri")

    def convert(text: str) -> str:
        return str(records.parse(text).to_iri(idna=args.idna))

    return _convert(args, records, convert, "iri")


def register(subparsers: Any) -> None:
    to_uri = subparsers.add_parser(
        "to-uri",
        formatter_class=Formatter,
        help="map IRIs to URIs (RFC 3987 §3.1)",
        description="Map each IRI reference to a URI reference (RFC 3987 §3.1): every "
        "non-ASCII character becomes the percent-encoding of its UTF-8 octets; existing "
        "percent-encodings and ASCII input are kept as they are. One output line per input "
        "line; exits 1 if any input is not a valid IRI reference.",
        epilog=examples(
            "$ urikit to-uri --idna 'http://r\u00e9sum\u00e9.example.org/caf\u00e9'\n"
            "http://xn--rsum-bpad.example.org/caf%C3%A9"
        ),
    )
    to_uri.add_argument(
        "reference", nargs="*", help="IRI references (default: one per line on stdin)"
    )
    to_uri.add_argument(
        "--idna",
        action="store_true",
        help="convert a non-ASCII host name to A-labels (ToASCII, RFC 3490) instead of "
        "percent-encoding it, e.g. xn--rsum-bpad.example.org",
    )
    to_uri.add_argument(
        "--nfc",
        action="store_true",
        help="put each component in Unicode Normalization Form C first (§3.1 step 1)",
    )
    _output.add_options(to_uri, lenient=True)
    _files.add_options(to_uri)
    to_uri.set_defaults(run=_to_uri)

    to_iri = subparsers.add_parser(
        "to-iri",
        formatter_class=Formatter,
        help="convert URIs to IRIs (RFC 3987 §3.2)",
        description="Convert each URI reference to an IRI reference (RFC 3987 §3.2): "
        "percent-encoded UTF-8 becomes characters wherever an IRI allows them; ASCII, "
        "invalid UTF-8, bidirectional formatting and other unsuitable characters stay "
        "percent-encoded. One output line per input line; exits 1 if any input is invalid.",
        epilog=examples(
            "$ urikit to-iri http://www.example.org/D%C3%BCrst http://www.example.org/D%FCrst\n"
            "http://www.example.org/D\u00fcrst\n"
            "http://www.example.org/D%FCrst"
        ),
    )
    to_iri.add_argument(
        "reference", nargs="*", help="URI references (default: one per line on stdin)"
    )
    to_iri.add_argument(
        "--idna",
        action="store_true",
        help="convert xn-- labels of the host name to Unicode (ToUnicode) when valid",
    )
    _output.add_options(to_iri, lenient=True)
    to_iri.set_defaults(run=_to_iri)
