"""``urikit site``: the registrable domain and public suffix of each URL (urikit.sites)."""

from __future__ import annotations

import argparse
from typing import Any

from .. import __version__
from ..report import printable
from ..sites import SuffixList, SuffixMatch, default_list
from . import _input, _output
from ._help import Formatter, examples


def _suffix_list(args: argparse.Namespace) -> SuffixList | None:
    """The bundled list, or the one of ``--list``; None after saying why it cannot be read."""
    if args.list is None:
        return default_list()
    try:
        return SuffixList.from_file(args.list)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        _output.warn("site", f"cannot read the list {args.list}: {reason}")
        return None


def _list_version(args: argparse.Namespace, suffixes: SuffixList) -> int:
    source = args.list or f"bundled with urikit {__version__}"
    out = _output.Output()
    if args.json:
        out.json({"version": suffixes.version, "commit": suffixes.commit, "list": source})
    else:
        out.write(f"version {suffixes.version or '-'}, commit {suffixes.commit or '-'} ({source})")
    out.close()
    return _output.EXIT_OK


def _fields(match: SuffixMatch | None) -> dict[str, Any]:
    if match is None:
        return dict.fromkeys(("registrable_domain", "public_suffix", "rule", "section"), None)
    return {
        "registrable_domain": match.registrable_domain,
        "public_suffix": match.public_suffix,
        "rule": match.rule,
        "section": match.section,
    }


def _run(args: argparse.Namespace) -> int:
    suffixes = _suffix_list(args)
    if suffixes is None:
        return _output.EXIT_USAGE
    if args.list_version:
        return _list_version(args, suffixes)
    records = _output.Records(args, "site")
    private = not args.icann_only

    def fields(text: str) -> dict[str, Any]:
        host = text if args.host else records.parse(text, iri=True).host
        match = None if host is None else suffixes.lookup(host, private=private)
        return {"host": host, **_fields(match)}

    def one(text: str) -> tuple[bool, str]:
        found = fields(text)
        columns = (found["registrable_domain"], found["public_suffix"], found["section"])
        return True, "\t".join("-" if value is None else printable(value) for value in columns)

    def one_json(text: str) -> tuple[bool, dict[str, Any]]:
        return True, fields(text)

    what = "hosts" if args.host else "URLs"
    return records.run(_input.inputs(args.uri, what=what), one, one_json)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "site",
        formatter_class=Formatter,
        help="the registrable domain and public suffix of URLs (Public Suffix List)",
        description="For each URL (an IRI reference, from the arguments or one per line on "
        "standard input), the site its host is on by the Public Suffix List that ships with "
        "urikit: a record 'REGISTRABLE-DOMAIN<TAB>PUBLIC-SUFFIX<TAB>SECTION', the section "
        "(icann or private) of the rule that decided, '-' for what there is not (a host "
        "that is a public suffix has no registrable domain; an IP address, or a URL without "
        "a host, has neither; a top-level domain the list does not name is a public suffix "
        "of no section). --json gives host, registrable_domain, public_suffix, rule and "
        "section. Exits 1 when any input is not a URL. Nothing is fetched: --list-version "
        "says which list it is, and --list reads a newer one.",
        epilog=examples(
            "$ urikit site https://www.example.co.uk/a https://user.github.io/ "
            "http://192.0.2.1/ https://example.zz/\n"
            "example.co.uk\tco.uk\ticann\n"
            "user.github.io\tgithub.io\tprivate\n"
            "-\t-\t-\n"
            "example.zz\tzz\t-",
            "$ urikit site --icann-only https://user.github.io/\ngithub.io\tio\ticann",
            "$ urikit site --json https://www.city.kobe.jp/\n"
            '{"input": "https://www.city.kobe.jp/", "ok": true, "host": "www.city.kobe.jp", '
            '"registrable_domain": "city.kobe.jp", "public_suffix": "kobe.jp", '
            '"rule": "!city.kobe.jp", "section": "icann"}',
        ),
    )
    parser.add_argument("uri", nargs="*", help="URLs (default: one per line on stdin)")
    parser.add_argument(
        "--host",
        action="store_true",
        help="each input is a host (example.co.uk, 192.0.2.1), not a URL",
    )
    parser.add_argument(
        "--icann-only",
        action="store_true",
        help="only the rules of the list's ICANN section, not those of its private section "
        "(github.io, blogspot.com, ...), which browsers also read",
    )
    parser.add_argument(
        "--list",
        metavar="FILE",
        help="read this public_suffix_list.dat instead of the bundled one (exit 2 when it "
        "cannot be read)",
    )
    parser.add_argument(
        "--list-version",
        action="store_true",
        help="print the version and commit of the list (its header) and exit",
    )
    _output.add_options(parser, lenient=True)
    parser.set_defaults(run=_run)
