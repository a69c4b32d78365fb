"""``urikit parse`` and ``urikit validate``."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from ..errors import URIError
from ..paths import segments
from ..query import query_params
from ..uri import URI
from ..validate import RULE_NAMES, check
from . import _stream

ORDER = 0
COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def describe(uri: URI, *, show_password: bool = False) -> dict[str, Any]:
    """The components of ``uri`` as a JSON-ready dict (``None`` is undefined)."""
    shown = uri if show_password else URI(uri.redacted())
    record: dict[str, Any] = {"input": str(uri), "ok": True}
    record.update({name: getattr(shown, name) for name in COMPONENTS})
    record.update(
        port_number=uri.port_number,
        host_type=uri.host_type,
        kind=uri.kind,
        is_absolute=uri.is_absolute,
        is_opaque=uri.is_opaque,
    )
    if not show_password:
        record["input"] = shown.redacted()
    try:
        params = query_params(uri.query, errors="replace")
    except URIError:  # over urikit.query.MAX_PARAMS or MAX_QUERY_LENGTH
        record["query_params"] = None
    else:
        record["query_params"] = [[name, value] for name, value in params]
    record["segments"] = segments(uri.path, errors="replace")
    return record


def _table(uri: URI, show_password: bool) -> str:
    data = describe(uri, show_password=show_password)
    lines = [data["input"]]
    for name in COMPONENTS:
        value = data[name]
        text = "(undefined)" if value is None else repr(value) if value == "" else value
        if name == "host" and value is not None:
            text += f"  ({data['host_type']})"
        lines.append(f"  {name:<10} {text}")
    lines.append(f"  {'kind':<10} {data['kind']}")
    return "\n".join(lines)


def _parse(args: argparse.Namespace) -> int:
    items = _stream.inputs(args.uri)
    if args.json:
        return _stream.run_json(
            items, lambda text: (True, describe(URI(text), show_password=args.show_password))
        )
    return _stream.run(items, lambda text: (True, _table(URI(text), args.show_password)))


def _validate(args: argparse.Namespace) -> int:
    rule = args.rule

    def one(text: str) -> tuple[bool, str]:
        check(text, rule)
        return True, f"valid: {text}"

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        check(text, rule)
        return True, {"input": text, "ok": True, "rule": rule}

    items = _stream.inputs(args.uri)
    return _stream.run_json(items, one_json) if args.json else _stream.run(items, one)


class _RuleListFormatter(argparse.HelpFormatter):
    """Help that keeps rule names such as ``path-abempty`` whole when wrapping."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def register(subparsers: Any) -> None:
    parse = subparsers.add_parser(
        "parse",
        help="show the components of URI references",
        description="Parse each URI reference strictly (RFC 3986) and show its components: "
        "scheme, authority, userinfo, host (with its type), port, path, query, fragment. "
        "An undefined component is shown as (undefined), an empty one as ''. Passwords "
        "are masked unless --show-password is given.",
    )
    _stream.add_inputs(parse, "URI references")
    _stream.add_json(parse)
    parse.add_argument(
        "--show-password", action="store_true", help="do not mask the password in the userinfo"
    )
    parse.set_defaults(run=_parse)

    validate = subparsers.add_parser(
        "validate",
        formatter_class=_RuleListFormatter,
        help="check inputs against an ABNF rule",
        description="Check each input against an ABNF rule of RFC 3986 Appendix A (or RFC "
        "3987 for IRI rules). Invalid inputs are shown with a caret under the first character "
        "that cannot belong to a valid parse, the rule, and the reason. Exits 1 if any input "
        "is invalid.",
    )
    _stream.add_inputs(validate, "inputs")
    validate.add_argument(
        "--rule",
        default="URI-reference",
        choices=sorted(RULE_NAMES),
        metavar="RULE",
        help="the ABNF rule (default URI-reference), one of: %(choices)s",
    )
    _stream.add_json(validate)
    validate.set_defaults(run=_validate)
