"""``urikit parse`` (RFC 3986, or the URL Standard with ``--whatwg``) and ``urikit validate``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .. import URI, URIError
from ..report import printable
from ..sites import registrable_domain
from ..validate import RULE_NAMES, check
from . import _files, _output
from ._choices import case_insensitive
from ._help import Formatter, examples
from ._operation import Operation

if TYPE_CHECKING:
    from ..whatwg import URL

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
    record["registrable_domain"] = registrable_domain(uri)
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
    "registrable_domain": "string",
}

#: The getters of a URL (URL Standard §6.1), in the order of a ``--whatwg`` record.
URL_GETTERS = (
    "href",
    "origin",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
)
#: The JSON fields of a ``--whatwg`` parse record and their column types.
WHATWG_FIELDS = {**dict.fromkeys(URL_GETTERS, "string"), "registrable_domain": "string"}


def describe_url(url: URL, *, show_password: bool = False) -> dict[str, Any]:
    """The getters of ``url`` as JSON fields, its password masked unless asked, and the
    registrable domain of its host (``None`` for an IP address, an opaque host or none)."""
    record: dict[str, Any] = {name: getattr(url, name) for name in URL_GETTERS}
    if url.password and not show_password:
        # The serialization (§4.5): scheme ":" "//" username ":" password "@" host ...
        start = len(url.protocol) + 2 + len(url.username) + 1
        href = url.href
        record["href"] = href[:start] + "***" + href[start + len(url.password) :]
        record["password"] = "***"
    record["registrable_domain"] = registrable_domain(url.hostname) if url.hostname else None
    return record


def _url_table(shown: str, data: dict[str, Any]) -> str:
    lines = [printable(shown)]
    for name in URL_GETTERS:
        value = data[name]
        lines.append(f"  {name:<10} {printable(repr(value) if value == '' else value)}")
    return "\n".join(lines)


def whatwg_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    """``parse --whatwg``: each input by the URL Standard's basic URL parser (§4.4),
    against ``--base`` when given; a failure is an error record naming the standard's
    validation error."""
    from ..whatwg import URL  # loaded (with the UTS #46 tables) only when asked for

    base = None if args.base is None else URL(args.base)

    def fields(text: str) -> dict[str, Any]:
        return describe_url(URL(text, base), show_password=args.show_password)

    def one(text: str) -> tuple[bool, str]:
        return True, _url_table(records.shown(text), fields(text))

    return Operation(one, lambda text: (True, fields(text)), WHATWG_FIELDS)


def parse_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    if args.whatwg:
        return whatwg_operation(args, records)

    def fields(text: str) -> dict[str, Any]:
        return describe(records.parse(text), show_password=args.show_password)

    def one(text: str) -> tuple[bool, str]:
        data = fields(text)
        return True, _table(records.shown(text), data)

    return Operation(one, lambda text: (True, fields(text)), PARSE_FIELDS)


def _parse(args: argparse.Namespace) -> int:
    if args.whatwg and args.lenient:
        _output.warn("parse", "--lenient is a repair of RFC 3986's reading; --whatwg has its own")
        return _output.EXIT_USAGE
    if args.base is not None and not args.whatwg:
        _output.warn("parse", "--base is for --whatwg (resolve against a base with urikit resolve)")
        return _output.EXIT_USAGE
    if args.base is not None:
        from ..whatwg import URL

        try:
            URL(args.base)
        except URIError as exc:
            _output.warn("parse", f"the base is no URL: {exc.reason} ({exc.rule})")
            return _output.EXIT_USAGE
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
        "Passwords are masked unless --show-password is given. With --whatwg, each input "
        "is read as browsers read it instead, by the WHATWG URL Standard's basic URL parser "
        "(optionally against --base), and the record shows the URL's getters (href, origin, "
        "protocol, username, password, host, hostname, port, pathname, search, hash); a "
        "failure is an error record whose rule is the standard's validation error. --json "
        "records also give the registrable domain of the host (Public Suffix List).",
        epilog=examples(
            "$ urikit parse 'foo://example.com:8042/over/there?name=ferret#nose'\n"
            "foo://example.com:8042/over/there?name=ferret#nose\n"
            "  scheme     foo\n"
            "  authority  example.com:8042\n"
            "...",
            "$ urikit parse --whatwg 'HTTP://Example.COM:80/a/../b'\n"
            "HTTP://Example.COM:80/a/../b\n"
            "  href       http://example.com/b\n"
            "  origin     http://example.com\n"
            "...",
        ),
    )
    parse.add_argument("uri", nargs="*", help="URI references (default: one per line on stdin)")
    parse.add_argument(
        "--whatwg",
        action="store_true",
        help="read each input by the WHATWG URL Standard (as browsers do), not RFC 3986",
    )
    parse.add_argument(
        "--base",
        metavar="URL",
        help="with --whatwg: the base URL each input is parsed against",
    )
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
