"""``urikit template``: expand URI Templates and match URIs against them (RFC 6570).

``expand TEMPLATE NAME=VALUE...`` writes the URI reference the template gives
for the values (``NAME:=JSON`` for a list or an associative array; a NAME given
twice is a list); with no values, each line of standard input is a JSON object
of values and gives one record.  ``match TEMPLATE [URI...]`` writes the
variables of each URI as a JSON object, or an error record where the template
cannot give the URI.  A malformed TEMPLATE, or one that matching finds
ambiguous, is a usage error (exit status 2), as a bad BASE is for ``resolve``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import URIError
from ..template import TemplateError, URITemplate
from . import _input, _output
from ._help import Formatter, examples

#: The rule named by the error of a line of values that is not a JSON object.
JSON_RULE = "JSON-text"


def _template(args: argparse.Namespace) -> URITemplate | None:
    """TEMPLATE, or ``None`` after saying on standard error why it is not one."""
    try:
        template = URITemplate(args.template)
        if args.action == "match":
            template.matcher  # noqa: B018  (raises where matching is ambiguous)
    except TemplateError as exc:
        message = str(exc).replace("\n", "\n  ")
        print(f"urikit template {args.action}: bad template\n  {message}", file=sys.stderr)
        return None
    return template


def _values(arguments: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` (a string) and ``NAME:=JSON`` arguments as values; a NAME given
    twice is a list.  Raises ``ValueError`` for an argument that is neither."""
    values: dict[str, Any] = {}
    for argument in arguments:
        name, eq, text = argument.partition("=")
        if not eq or not name.rstrip(":"):
            raise ValueError(f"expected NAME=VALUE or NAME:=JSON, not {argument!r}")
        value: Any = text
        if name.endswith(":"):
            name = name[:-1]
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{argument!r}: not JSON ({exc.msg})") from None
        if name in values:
            earlier = values[name]
            values[name] = [*earlier, value] if isinstance(earlier, list) else [earlier, value]
        else:
            values[name] = value
    return values


def _line_values(text: str) -> dict[str, Any]:
    """A line of standard input: a JSON object of values (RFC 8259)."""
    try:
        values = json.loads(text)
    except json.JSONDecodeError as exc:
        raise URIError(
            f"a line of values is a JSON object: {exc.msg}",
            text=text,
            position=exc.pos,
            rule=JSON_RULE,
        ) from None
    if not isinstance(values, dict):
        raise URIError(
            f"a line of values is a JSON object, not {type(values).__name__}",
            text=text,
            position=0,
            rule=JSON_RULE,
        )
    return values


def _expanded(template: URITemplate, values: dict[str, Any]) -> str:
    try:
        return template.expand(values)
    except TypeError as exc:  # a JSON value of no accepted form (a nested list)
        raise ValueError(str(exc)) from None


def _expand(args: argparse.Namespace) -> int:
    template = _template(args)
    if template is None:
        return _output.EXIT_USAGE
    records = _output.Records(args, "template expand")
    if args.values:
        try:
            given = _values(args.values)
        except ValueError as exc:
            _output.warn("template expand", str(exc))
            return _output.EXIT_USAGE
        text = json.dumps(given, ensure_ascii=False)
        items: Any = [_input.Item(text, "arguments")]
        read = {text: given}
    else:
        items = _input.inputs(None, what="JSON objects of values")
        read = {}

    def values_of(text: str) -> dict[str, Any]:
        return read[text] if text in read else _line_values(text)

    def one(text: str) -> tuple[bool, str]:
        return True, _expanded(template, values_of(text))

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, {"uri": _expanded(template, values_of(text))}

    return records.run(items, one, one_json)


def _match(args: argparse.Namespace) -> int:
    template = _template(args)
    if template is None:
        return _output.EXIT_USAGE
    records = _output.Records(args, "template match")
    allow = args.allow_dot_segments

    def variables(text: str) -> dict[str, Any]:
        found = template.match(text, allow_dot_segments=allow)
        if found is not None:
            return found
        if not allow and template.match(text, allow_dot_segments=True) is not None:
            raise ValueError(
                "a value decodes to a dot-segment or holds U+0000, which could walk out of "
                "a directory (see --allow-dot-segments)"
            )
        raise ValueError("the template cannot give this URI")

    def one(text: str) -> tuple[bool, str]:
        return True, json.dumps(variables(text), ensure_ascii=False)

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, {"variables": variables(text)}

    return records.run(_input.inputs(args.uri), one, one_json)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "template",
        formatter_class=Formatter,
        help="expand URI Templates, or match URIs against one (RFC 6570)",
        description="Expand a URI Template with values, or match URIs back to the values "
        "of its variables (RFC 6570). Values are given as NAME=VALUE arguments, or as one "
        "JSON object per line on standard input; URIs as arguments, or one per line on "
        "standard input. Each input gives one record. A malformed TEMPLATE, or one whose "
        "matching is ambiguous, exits 2.",
        epilog=examples(
            "$ urikit template expand 'http://example.com/search{?q,lang}' q=cat lang=en\n"
            "http://example.com/search?q=cat&lang=en",
            "$ urikit template match '/users/{id}{?fields}' /users/42?fields=a,b /other\n"
            '{"id": "42", "fields": ["a", "b"]}\n'
            "error: /other\t-\t-\tthe template cannot give this URI",
        ),
    )
    actions = parser.add_subparsers(
        dest="action", metavar="ACTION", required=True, help="expand or match"
    )

    expand = actions.add_parser(
        "expand",
        formatter_class=Formatter,
        help="the URI a template gives for values",
        description="One line: the URI reference TEMPLATE gives for the values (RFC 6570 "
        "§3). NAME=VALUE gives a string; NAME:=JSON a number, true/false, a list or an "
        "object (an associative array); a NAME given twice is a list. With no values, "
        "each line of standard input is a JSON object of values and gives one line. "
        "--json gives uri.",
        epilog=examples(
            "$ urikit template expand '{/path*}{?keys*}' path=a path='b c' 'keys:={\"x\": 1}'\n"
            "/a/b%20c?x=1",
            "$ printf '{\"id\": 7}\\n[1]\\n' | urikit template expand '/users/{id}'\n"
            "/users/7\n"
            "error: [1]\t0\tJSON-text\ta line of values is a JSON object, not list",
        ),
    )
    expand.add_argument("template", metavar="TEMPLATE", help="the URI Template")
    expand.add_argument(
        "values",
        nargs="*",
        metavar="NAME=VALUE",
        help="values (NAME:=JSON for other types; default: a JSON object per line on stdin)",
    )
    _output.add_options(expand, json_help="one JSON object per record (uri)")
    expand.set_defaults(run=_expand)

    match = actions.add_parser(
        "match",
        formatter_class=Formatter,
        help="the values of the variables of URIs",
        description="One line per URI: the variables whose expansion is the URI, as a JSON "
        "object, decoded (a list for an exploded list or a value with ',', an object for "
        "an exploded associative array); an error record where TEMPLATE cannot give the "
        "URI. A value that decodes to '.' or '..', has such a segment, or holds U+0000 is "
        "refused unless --allow-dot-segments. With no URI arguments, URIs are read one per "
        "line from standard input. --json gives variables.",
        epilog=examples(
            "$ urikit template match '/files{/path*}' /files/a/b%20c /files/a/../etc\n"
            '{"path": ["a", "b c"]}\n'
            "error: /files/a/../etc\t-\t-\ta value decodes to a dot-segment or holds U+0000, "
            "which could walk out of a directory (see --allow-dot-segments)",
        ),
    )
    match.add_argument("template", metavar="TEMPLATE", help="the URI Template")
    match.add_argument(
        "uri", nargs="*", metavar="URI", help="URIs (default: one per line on stdin)"
    )
    match.add_argument(
        "--allow-dot-segments",
        action="store_true",
        help="accept values that decode to '.' or '..', have such a segment, or hold U+0000",
    )
    _output.add_options(match, json_help="one JSON object per record (variables)")
    match.set_defaults(run=_match)
