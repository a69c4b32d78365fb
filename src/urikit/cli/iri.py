"""``urikit to-uri`` and ``urikit to-iri``: RFC 3987 §3.1 and §3.2."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..components import Parts
from ..mapping import uri_to_iri
from ..uri import IRI
from . import _stream

ORDER = 50


def _convert(args: argparse.Namespace, convert: Callable[[str], str], key: str) -> int:
    items = _stream.inputs(args.reference)
    if args.json:
        return _stream.run_json(
            items, lambda text: (True, {"input": text, "ok": True, key: convert(text)})
        )
    return _stream.run(items, lambda text: (True, convert(text)))


def _to_uri(args: argparse.Namespace) -> int:
    return _convert(args, lambda text: str(IRI(text).to_uri(idna=args.idna, nfc=args.nfc)), "uri")


def _iri_of(text: str, idna: bool) -> str:
    """``text`` (a URI or IRI reference) converted to an IRI reference (RFC 3987 §3.2)."""
    ref = IRI(text)
    parts = Parts(*(getattr(ref, name) for name in Parts._fields))
    return str(IRI(uri_to_iri(str(ref), parts, idna=idna)))


def _to_iri(args: argparse.Namespace) -> int:
    return _convert(args, lambda text: _iri_of(text, args.idna), "iri")


def register(subparsers: Any) -> None:
    to_uri = subparsers.add_parser(
        "to-uri",
        help="map IRIs to URIs (RFC 3987 §3.1)",
        description="Map each IRI reference to a URI reference (RFC 3987 §3.1): every "
        "non-ASCII character becomes the percent-encoding of its UTF-8 octets; existing "
        "percent-encodings and ASCII input are kept as they are. One output line per input "
        "line; exits 1 if any input is not a valid IRI reference.",
    )
    _stream.add_inputs(to_uri, "IRI references", "reference")
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
    _stream.add_json(to_uri)
    to_uri.set_defaults(run=_to_uri)

    to_iri = subparsers.add_parser(
        "to-iri",
        help="convert URIs to IRIs (RFC 3987 §3.2)",
        description="Convert each URI reference to an IRI reference (RFC 3987 §3.2): "
        "percent-encoded UTF-8 becomes characters wherever an IRI allows them; ASCII, "
        "invalid UTF-8, bidirectional formatting and other unsuitable characters stay "
        "percent-encoded. One output line per input line; exits 1 if any input is invalid.",
    )
    _stream.add_inputs(to_iri, "URI references", "reference")
    to_iri.add_argument(
        "--idna",
        action="store_true",
        help="convert xn-- labels of the host name to Unicode (ToUnicode) when valid",
    )
    _stream.add_json(to_iri)
    to_iri.set_defaults(run=_to_iri)
