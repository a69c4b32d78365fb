"""``urikit parse`` and ``urikit validate``."""

from __future__ import annotations

import argparse
from typing import Any

from .. import URI, URIError
from ..report import printable
from ..validate import RULE_NAMES, check
from . import _files, _output
from ._choices import case_insensitive
from ._help import Formatter, examples
from ._operation import Operation

COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def _segments(uri: URI) -> list[str]:
    """The decoded path segments, whether ``segments`` is a property or a method."""
    value: Any = uri.segments
    return list(value() if callable(value) else value)


def describe(uri: URI, *, show_password: bool = False) -> dict[str, Any]:
    """The components of ``uri`` as JSON fields (``None`` is undefined).

    ``query_params`` and ``segments`` are ``None`` when their percent-encoded
    octets are not UTF-8 (or the query is over urikit's limits).
    """
    shown = uri if show_password else URI(uri.redacted())
    record: dict[str, Any] = {name: getattr(shown, name) for name in COMPONENTS}
    try:
        port_number = uri.port_number
    except URIError:  # a port above 65535: valid text, but no TCP or UDP port
        port_number = None
    record.update(
        port_number=port_number,
        host_type=uri.host_type,
        kind=uri.kind,
        is_absolute=uri.is_absolute,
        is_opaque=uri.is_opaque,
    )
    try:
        record["query_params"] = [[name, value] for name, value in uri.query_params()]
    except URIError:
        record["query_params"] = None
    try:
        record["segments"] = _segments(uri)
    except URIError:
        record["segments"] = None
    return record


def _table(shown: str, data: dict[str, Any]) -> str:
    lines = [printable(shown)]
    for name in COMPONENTS:
        value = data[name]
        text = "(undefined)" if value is None else repr(value) if value == "" else value
        if name == "host" and value is not None:
            text += f"  ({data['host_type']})"
        lines.append(f"  {name:<10} {printable(text)}")
    lines.append(f"  {'kind':<10} {data['kind']}")
    return "\n".join(lines)


#: The JSON fields of a parse record and their column types.
PARSE_FIELDS = {
    **dict.fromkeys(COMPONENTS, "string"),
    "port_number": "int",
    "host_type": "string",
    "kind": "string",
    "is_absolute": "bool",
    "is_opaque": "bool",
    "query_params": "pairs",
    "segments": "strings",
}


def parse_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    def fields(text: str) -> dict[str, Any]:
        return describe(records.parse(text), show_password=args.show_password)

    def one(text: str) -> tuple[bool, str]:
        data = fields(text)
        return True, _table(records.shown(text), data)

    return Operation(one, lambda text: (True, fields(text)), PARSE_FIELDS)


def _parse(args: argparse.Namespace) -> int:
    return _files.run(args, "parse", parse_operation, args.uri)


def validate_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    rule = args.rule

    ports = not args.any_port

    def one(text: str) -> tuple[bool, str]:
        check(text, rule, ports=ports)
        return True, f"valid: {printable(records.shown(text))}"

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        check(text, rule, ports=ports)
        return True, {"rule": rule}

    def column(values: Any) -> tuple[Any, dict[str, Any]]:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        from ..arrow import is_valid, port

        answered = pc.fill_null(is_valid(values, rule), False)
        if ports:
            # A port of five digits or more may be above 65535: such rows are checked
            # one at a time, as in the line mode.
            digits = pc.utf8_length(pc.cast(port(values), pa.string()))
            long_port = pc.fill_null(pc.greater_equal(digits, 5), False)
            answered = pc.and_(answered, pc.invert(long_port))
        return answered, {"rule": pc.if_else(answered, pa.scalar(rule), None)}

    def answer(text: str, fields: dict[str, Any]) -> str:
        return f"valid: {printable(records.shown(text))}"

    return Operation(one, one_json, {"rule": "string"}, column, answer)


def _validate(args: argparse.Namespace) -> int:
    return _files.run(args, "validate", validate_operation, args.uri, what="inputs")


def register(subparsers: Any) -> None:
    parse = subparsers.add_parser(
        "parse",
        formatter_class=Formatter,
        help="show the components of URI references",
        description="Parse each URI reference strictly (RFC 3986) and show its components: "
        "scheme, authority, userinfo, host (with its type), port, path, query, fragment. "
        "An undefined component is shown as (undefined), an empty one as ''. A record is "
        "the input then one indented line per component; an error record is one line. "
        "Passwords are masked unless --show-password is given.",
        epilog=examples(
            "$ urikit parse 'foo://example.com:8042/over/there?name=ferret#nose'\n"
            "foo://example.com:8042/over/there?name=ferret#nose\n"
            "  scheme     foo\n"
            "  authority  example.com:8042\n"
            "..."
        ),
    )
    parse.add_argument("uri", nargs="*", help="URI references (default: one per line on stdin)")
    _output.add_options(parse, lenient=True)
    _files.add_options(parse)
    parse.set_defaults(run=_parse)

    validate = subparsers.add_parser(
        "validate",
        formatter_class=Formatter,
        help="check inputs against an ABNF rule",
        description="Check each input against an ABNF rule of RFC 3986 Appendix A (or RFC "
        "3987 for IRI rules). A valid input gives 'valid: INPUT'; an invalid one an error "
        "record with the position of the first character that cannot belong to a valid "
        "parse, the rule, and the reason. A port above 65535 is refused where the scheme "
        "has a default port (a TCP or UDP service) unless --any-port is given. Exits 1 if "
        "any input is invalid.",
        epilog=examples(
            "$ urikit validate --rule ipv6address '::ffff:192.0.2.128'\nvalid: ::ffff:192.0.2.128",
            "$ urikit validate 'http://a b/'\n"
            'error: http://a b/\t8\thost\texpected unreserved, sub-delims, "%", ":", "/", '
            '"?" or "#" (RFC 3986 §3.2.2)',
        ),
    )
    validate.add_argument("uri", nargs="*", help="inputs (default: one per line on stdin)")
    validate.add_argument(
        "--rule",
        default="URI-reference",
        type=case_insensitive(RULE_NAMES),
        choices=RULE_NAMES,
        metavar="RULE",
        help="the ABNF rule (default URI-reference; case does not matter, RFC 5234 §2.1), "
        "one of: %(choices)s",
    )
    validate.add_argument(
        "--any-port",
        action="store_true",
        help="accept a port above 65535 whatever the scheme (RFC 3986 §3.2.3 sets no bound)",
    )
    _output.add_options(validate)
    _files.add_options(validate)
    validate.set_defaults(run=_validate)
