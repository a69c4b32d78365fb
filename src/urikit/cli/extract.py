"""``urikit extract`` (URIs in running text) and ``urikit links`` (links of HTML).

A document is read whole, as octets, and decoded with ``--encoding`` (UTF-8 by
default).  Octets that are not text are reported once per file on standard
error, and a URI that contains them, or ends right before them, is an error
record rather than a URI silently cut short.  With more than one FILE, each
text record begins with the file's name and a tab; a JSON record always has
``file``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from .. import URI, URIError, extract, links
from . import _document, _input, _output
from ._help import Formatter, examples


def _reports(reports: Any) -> list[dict[str, Any]]:
    return [report.to_dict() for report in reports]


def _documents(
    records: _output.Records, names: list[str], encoding: str
) -> Iterator[_document.Document]:
    """Each readable document; an unreadable one, or one with octets that are not
    text, is reported on stderr and fails the run."""
    for name in names or ["-"]:
        try:
            document = _document.read(name, encoding)
        except OSError as exc:
            _output.warn(records.command, f"{name}: {exc.strerror or exc}")
            records.failed = True
            continue
        if document.invalid:
            first = document.invalid[0][1].reason
            more = len(document.invalid) - 1
            also = f" (and {more} more)" if more else ""
            _output.warn(records.command, f"{name}: {first}{also}; see --encoding")
            records.failed = True
        yield document


def _cut(
    records: _output.Records, document: _document.Document, text: str, start: int,
    end: int, fields: dict[str, Any], prefix: str,
) -> bool:  # fmt: skip
    """Write an error record when invalid octets touch ``text`` at ``start:end``."""
    found = document.invalid_in(start, end)
    if found is None:
        return False
    index, error = found
    shown = text + ("\ufffd" if index == end else "")
    problem = URIError(error.reason, text=shown, position=index - start, rule=error.rule)
    label = f"{document.name}: offset {start}"
    records.fail(_input.Item(shown, label), problem, fields=fields, prefix=prefix)
    return True


def _idna(uri: URI) -> URI:
    """``uri`` with a host that percent-encodes UTF-8 (an IRI's host mapped by RFC 3987
    §3.1) in IDNA A-labels instead (ToASCII, RFC 3490), the form a resolver reads."""
    host = uri.host
    if not host or "%" not in host or uri.host_type != "reg-name":
        return uri
    mapped = uri.to_iri().to_uri(idna=True).host
    span = uri.span("host")
    if mapped is None or mapped == host or span is None:
        return uri
    text = str(uri)
    return URI(text[: span[0]] + mapped + text[span[1] :])


def _forms(match: Any) -> tuple[str, str]:
    """The URI found (its host in IDNA form) and the IRI found (RFC 3987 §3.2)."""
    try:
        uri = _idna(match.uri)
    except ValueError as exc:  # a host that IDNA refuses
        reason = exc.reason if isinstance(exc, URIError) else str(exc)
        raise URIError(
            f"the host has no IDNA form: {reason}; --iri writes the IRI found",
            rule="ireg-name",
        ) from None
    return str(uri), str(match.uri.to_iri())


def _extract(args: argparse.Namespace) -> int:
    if not _document.check_encoding(args.encoding):
        return _output.EXIT_USAGE
    records = _output.Records(args, "extract")
    records.aligned = False
    several = len(args.file) > 1
    for document in _documents(records, args.file, args.encoding):
        prefix = f"{document.name}\t" if several else ""
        found = extract(document.text, suffix=args.suffix, default_scheme=args.default_scheme)
        for match in found:
            fields = {
                "file": document.name,
                "start": match.start,
                "end": match.end,
                "text": match.text,
            }
            if _cut(records, document, match.text, match.start, match.end, fields, prefix):
                continue
            try:
                uri, iri = _forms(match)
            except URIError as exc:
                if not args.iri:
                    label = f"{document.name}: offset {match.start}"
                    records.fail(_input.Item(match.text, label), exc, fields=fields, prefix=prefix)
                    continue
                uri, iri = "", str(match.uri.to_iri())
            if args.json:
                forms = {"uri": uri or None, "iri": iri}
                records.out.json(
                    {**fields, "ok": True, **forms, "reports": _reports(match.reports)}
                )
            else:
                records.out.write(prefix + (iri if args.iri else uri))
    records.out.close()
    return _output.EXIT_FAILED if records.failed else _output.EXIT_OK


def _links(args: argparse.Namespace) -> int:
    if not _document.check_encoding(args.encoding):
        return _output.EXIT_USAGE
    try:
        base = URI(args.base)
    except URIError as exc:
        _output.warn("links", f"--base: {exc}")
        return _output.EXIT_USAGE
    records = _output.Records(args, "links")
    records.aligned = False
    several = len(args.file) > 1
    for document in _documents(records, args.file, args.encoding):
        prefix = f"{document.name}\t" if several else ""
        try:
            found = links(document.text, base)
        except URIError as exc:
            _output.warn("links", f"--base: {exc}")
            return _output.EXIT_USAGE
        for link in found:
            line, column = link.position
            fields: dict[str, Any] = {
                "file": document.name,
                "tag": link.tag,
                "attribute": link.attribute,
                "raw": link.raw,
            }
            place = {"line": line, "column": column}
            label = f"{document.name}: line {line}"
            if "\ufffd" in link.raw and document.invalid:
                start = document.offset(line, column)
                bad = document.invalid_in(start, len(document.text))
                if bad is not None:
                    error = URIError(
                        bad[1].reason,
                        text=link.raw,
                        position=link.raw.index("\ufffd"),
                        rule=bad[1].rule,
                    )
                    records.fail(
                        _input.Item(link.raw, label),
                        error,
                        fields={**fields, "uri": None, **place},
                        prefix=prefix,
                    )
                    continue
            if link.error is not None or link.uri is None:
                error = link.error or URIError("not a URI reference")
                records.fail(
                    _input.Item(link.raw, label),
                    error,
                    fields={**fields, "uri": None, **place},
                    prefix=prefix,
                )
                continue
            if args.json:
                records.out.json(
                    {
                        **fields,
                        "ok": True,
                        "uri": str(link.uri),
                        **place,
                        "reports": _reports(link.reports),
                    }
                )
            else:
                records.out.write(prefix + str(link.uri))
    records.out.close()
    return _output.EXIT_FAILED if records.failed else _output.EXIT_OK


def _add_document_options(parser: argparse.ArgumentParser, json_help: str) -> None:
    parser.add_argument(
        "--encoding",
        default="utf-8",
        metavar="NAME",
        help="the encoding of the documents (default utf-8), e.g. latin-1, cp1252",
    )
    _output.add_options(parser, json_help=json_help, skip_blank=False)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extract",
        formatter_class=Formatter,
        help="find the URIs in plain text",
        description="Find the URIs in running text (RFC 3986 Appendix C) and print one "
        "per line, as a URI whose host, when it has non-ASCII characters, is in IDNA form "
        "(xn--, RFC 3490) and "
        "whose other non-ASCII characters are percent-encoded (RFC 3987 §3.1), or as an IRI "
        "with --iri. A URI may be delimited by <...> (white space and line breaks inside are "
        'removed), by "..." or by white space; a "URL:" prefix is dropped. Undelimited, only '
        'registered schemes and "scheme://" count, and trailing punctuation and an unbalanced'
        " closing parenthesis are left out. Reads standard input when no FILE is given (or "
        "FILE is -). With several FILEs, each line begins with FILE and a tab. Octets that "
        "are not valid in --encoding are reported on stderr, and a URI they touch is an error"
        " record; the exit status is then 1.",
        epilog=examples(
            "$ printf 'See <http://a.example/x> and (http://b.example/y).' | urikit extract\n"
            "http://a.example/x\n"
            "http://b.example/y",
            "$ printf 'see http://a/caf\\xe9 now' | urikit extract --encoding latin-1\n"
            "http://a/caf%C3%A9",
            "$ echo 'https://例え.jp/パス' | urikit extract\n"
            "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9",
            "$ echo 'https://例え.jp/パス' | urikit extract --iri\nhttps://例え.jp/パス",
        ),
    )
    parser.add_argument("file", nargs="*", metavar="FILE", help="text files (default: stdin)")
    _add_document_options(
        parser,
        "one JSON object per URI: file, start, end (character offsets of the URI text), "
        "text (the URI as written), ok, uri (its host in IDNA form), iri, reports (or error)",
    )
    parser.add_argument(
        "--suffix",
        action="store_true",
        help="also find suffix references such as www.w3.org/Addressing/ (RFC 3986 §4.5)",
    )
    parser.add_argument(
        "--iri",
        action="store_true",
        help="write each URI found as an IRI (RFC 3987 §3.2: its non-ASCII characters as "
        "characters), not as a URI whose host is in IDNA form (xn--) and whose other "
        "non-ASCII characters are percent-encoded",
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
        formatter_class=Formatter,
        help="list the links of HTML documents, resolved",
        description="List the links of HTML documents (a/area/link href, src, srcset, "
        "poster, action, formaction, data, cite, meta refresh) in document order, resolved "
        "against the document's first <base href> or, without one, the --base URI. Prints "
        "one URI per link, or an error record for a value that is not a URI reference; "
        "with several FILEs, each line begins with FILE and a tab. Exits 1 if any link "
        "is invalid.",
        epilog=examples(
            '$ printf \'<a href="x"><img src="/y">\' | urikit links --base http://h/d/\n'
            "http://h/d/x\n"
            "http://h/y"
        ),
    )
    links_parser.add_argument(
        "file", nargs="*", metavar="FILE", help="HTML files (default or -: stdin)"
    )
    links_parser.add_argument(
        "--base", required=True, metavar="URI", help="the retrieval URI of the documents"
    )
    _add_document_options(
        links_parser,
        "one JSON object per link: file, tag, attribute, raw, ok, uri, line, column, "
        "reports or error",
    )
    links_parser.set_defaults(run=_links)
