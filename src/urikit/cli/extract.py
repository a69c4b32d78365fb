"""``urikit extract`` (URIs in running text) and ``urikit links`` (links of HTML)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import URIError
from ..report import Report
from ..text.extract import extract
from ..text.html import Link, links
from . import _stream

ORDER = 60


def _read(path: str | None) -> str:
    """A whole document, decoded as UTF-8 (undecodable bytes become U+FFFD).

    Line ends are kept as they are, so that offsets count the characters of
    the document.
    """
    if path is None or path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as stream:
            data = stream.read()
    return data.decode("utf-8", errors="replace")


def _violations(violations: tuple[Report, ...]) -> list[dict[str, Any]]:
    return [{"code": v.code, "position": v.position, "message": v.message} for v in violations]


def _documents(paths: list[str]) -> Iterator[tuple[str, str | None]]:
    """(name, text) of each document; text None when it cannot be read."""
    for path in paths or ["-"]:
        try:
            yield path, _read(path)
        except OSError as exc:
            print(f"urikit extract: {path}: {exc.strerror or exc}", file=sys.stderr)
            yield path, None


def _extract(args: argparse.Namespace) -> int:
    _stream._prepare_stdout()
    out = sys.stdout
    encoding = getattr(out, "encoding", None) or "utf-8"
    failed = False
    for name, text in _documents(args.file):
        if text is None:
            failed = True
            continue
        for match in extract(text, suffix=args.suffix, default_scheme=args.default_scheme):
            if args.json:
                record = {
                    "file": name,
                    "start": match.start,
                    "end": match.end,
                    "uri": str(match.uri),
                    "text": match.text,
                    "violations": _violations(match.reports),
                }
                out.write(_stream.json_line(record, encoding) + "\n")
            else:
                out.write(str(match.uri) + "\n")
    out.flush()
    return 1 if failed else 0


def _link_json(link: Link) -> dict[str, Any]:
    line, column = link.position
    record: dict[str, Any] = {
        "tag": link.tag,
        "attribute": link.attribute,
        "raw": link.raw,
        "ok": link.uri is not None,
        "uri": None if link.uri is None else str(link.uri),
        "line": line,
        "column": column,
        "violations": _violations(link.reports),
    }
    if link.error is not None:
        record["error"] = _stream.error_json(link.raw, link.error)["error"]
    return record


def _links(args: argparse.Namespace) -> int:
    try:
        text = _read(args.file)
    except OSError as exc:
        print(f"urikit links: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        found = links(text, args.base)
    except URIError as exc:
        print(f"urikit links: --base: {exc}", file=sys.stderr)
        return 2

    _stream._prepare_stdout()
    out = sys.stdout
    encoding = getattr(out, "encoding", None) or "utf-8"
    failed = False
    for link in found:
        failed = failed or link.uri is None
        if args.json:
            out.write(_stream.json_line(_link_json(link), encoding) + "\n")
        elif link.error is not None:
            out.write(_stream.error_text(link.raw, link.error) + "\n")
        else:
            out.write(f"{link.uri}\n")
    out.flush()
    return 1 if failed else 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="find the URIs in plain text",
        description="Find the URIs in running text (RFC 3986 Appendix C) and print one per "
        "line. A URI may be delimited by <...> (white space and line breaks inside are "
        'removed), by "..." or by white space; a "URL:" prefix is dropped. Undelimited, '
        'only registered schemes and "scheme://" count, and trailing punctuation and an '
        "unbalanced closing parenthesis are left out. Reads standard input when no FILE "
        "is given (or FILE is -).",
    )
    parser.add_argument("file", nargs="*", metavar="FILE", help="text files (default: stdin)")
    _stream.add_json(
        parser,
        "one JSON object per URI: file, start, end (character offsets of the URI text), "
        "uri, text (the URI as written), violations",
    )
    parser.add_argument(
        "--suffix",
        action="store_true",
        help="also find suffix references such as www.w3.org/Addressing/ (RFC 3986 §4.5)",
    )
    parser.add_argument(
        "--default-scheme",
        default="http",
        metavar="SCHEME",
        help="the scheme that completes a suffix reference (default http)",
    )
    parser.set_defaults(run=_extract)

    links_parser = subparsers.add_parser(
        "links",
        help="list the links of an HTML document, resolved",
        description="List the links of an HTML document (a/area/link href, src, srcset, "
        "poster, action, formaction, data, cite, meta refresh) in document order, resolved "
        "against the first <base href> or, without one, the --base URI. Prints one URI per "
        "link, or an error record for a value that is not a URI reference; exits 1 if any "
        "link is invalid.",
    )
    links_parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="the HTML file (default or -: stdin)"
    )
    links_parser.add_argument(
        "--base", required=True, metavar="URI", help="the retrieval URI of the document"
    )
    _stream.add_json(
        links_parser,
        "one JSON object per link: tag, attribute, raw, ok, uri, line, column, violations, error",
    )
    links_parser.set_defaults(run=_links)
