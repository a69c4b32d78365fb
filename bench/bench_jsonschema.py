"""The JSON Schema format checks of urikit.jsonschema against those jsonschema uses.

For each format of JSON Schema 2020-12 Validation §7.3.5 and §7.3.6, on the same
input, in the same run:

- ``urikit``: the function of ``urikit.jsonschema.FORMATS`` (with the compiled core
  one C call each: ``Store._rule_validator`` for the four URI and IRI rules,
  ``urikit._template.conforms`` for ``uri-template``); and, as pure Python, the same
  function of a copy of urikit imported with ``URIKIT_NO_EXTENSIONS=1``.
- ``jsonschema``: the checker ``jsonschema.FormatChecker()`` holds for the format, as
  jsonschema chooses it when its optional packages are installed: ``rfc3987.parse``
  (GPL) for the four URI and IRI formats, ``uri_template.validate`` for templates.
- ``rfc3986_validator``: what jsonschema uses for ``uri`` and ``uri-reference`` when
  ``rfc3987`` is not installed.
- ``... via FormatChecker.conforms``: the same checks through jsonschema's own
  dispatch, as a validator calls them.

The input is ``bench/urls.txt`` (5,000 real URLs, 50 characters on average) for the
URI and IRI formats, and for ``uri-template`` each URL made a template: its last
path segment replaced by ``{name}`` and its query and fragment by ``{?q,page}``.  A
second, smaller table times long values, where the peers' regular expressions
backtrack: the first 200 URLs, each with its path written again and again until
it is at least 1,000 characters long, and their templates.  The ratios are a peer's
time over urikit's (larger is faster for urikit).

Run: ``python bench/bench_jsonschema.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from _harness import (
    URLS,
    Batch,
    Case,
    Result,
    load_urikit,
    parse_args,
    print_environment,
    print_table,
    read_lines,
    run,
)

FORMATS = ("uri", "uri-reference", "iri", "iri-reference", "uri-template")
REFERENCE = "urikit"
GOAL = 50.0


def template_of(url: str) -> str:
    """A URI Template made from ``url``: the last path segment and the query as expressions."""
    head = url.partition("#")[0].partition("?")[0]
    parts = head.split("/")
    if len(parts) > 3:
        parts[-1] = "{name}"
    return "/".join(parts) + "{?q,page}"


def lengthened(url: str, size: int = 1000) -> str:
    """``url`` with its path repeated until the whole is at least ``size`` characters."""
    head, sep, tail = url.partition("?")
    path = head.partition("//")[2].partition("/")[2] or "a"
    while len(head) < size:
        head += "/" + path
    return head + sep + tail


def counting(
    items: Sequence[str], check: Callable[[str], object], raises: tuple[type, ...]
) -> Batch:
    """A batch that runs ``check`` on each item and counts the items it refuses."""

    def batch() -> int:
        refused = 0
        for item in items:
            try:
                if not check(item):
                    refused += 1
            except raises:
                refused += 1
        return refused

    return batch


def cases(name: str, items: Sequence[str]) -> list[Case]:
    def load_urikit_check() -> Batch:
        from urikit.jsonschema import FORMATS as checks

        return counting(items, checks[name], ())

    def load_pure() -> Batch:
        import importlib

        pure = load_urikit(pure=True)
        checks = importlib.import_module(f"{pure.__name__}.jsonschema").FORMATS
        return counting(items, checks[name], ())

    def load_jsonschema() -> Batch:
        import jsonschema

        check, raises = jsonschema.FormatChecker().checkers[name]
        return counting(items, check, tuple(raises) if isinstance(raises, tuple) else (raises,))

    def load_rfc3986_validator() -> Batch:
        if name not in ("uri", "uri-reference"):
            raise ImportError(f"rfc3986_validator has no {name}")
        from rfc3986_validator import validate_rfc3986

        rule = "URI" if name == "uri" else "URI_reference"
        return counting(items, lambda text: validate_rfc3986(text, rule=rule), ())

    def via_conforms(checker: Callable[[], object]) -> Callable[[], Batch]:
        def load() -> Batch:
            conforms = checker().conforms  # type: ignore[attr-defined]
            return counting(items, lambda text: conforms(text, name), ())

        return load

    def urikit_checker() -> object:
        from urikit.jsonschema import format_checker

        return format_checker

    def jsonschema_checker() -> object:
        import jsonschema

        return jsonschema.FormatChecker()

    return [
        Case(REFERENCE, load_urikit_check, distribution="urikit"),
        Case("urikit (pure Python)", load_pure, distribution="urikit"),
        Case("jsonschema", load_jsonschema, distribution="jsonschema"),
        Case("rfc3986_validator", load_rfc3986_validator, distribution="rfc3986-validator"),
        Case(
            "urikit via FormatChecker.conforms", via_conforms(urikit_checker), distribution="urikit"
        ),
        Case(
            "jsonschema via FormatChecker.conforms",
            via_conforms(jsonschema_checker),
            distribution="jsonschema",
        ),
    ]


def peer_of(name: str) -> str:
    import jsonschema

    check = jsonschema.FormatChecker().checkers[name][0]
    return f"{check.__module__}.{check.__qualname__}"


def ratios(name: str, results: Sequence[Result]) -> list[str]:
    by_label = {r.label: r.per_item_us for r in results}
    lines = []
    for ours, theirs in (
        (REFERENCE, "jsonschema"),
        (REFERENCE, "rfc3986_validator"),
        ("urikit via FormatChecker.conforms", "jsonschema via FormatChecker.conforms"),
        ("urikit (pure Python)", "jsonschema"),
    ):
        a, b = by_label.get(ours), by_label.get(theirs)
        if a and b:
            verdict = (
                ""
                if ours != REFERENCE
                else (" (goal 50x: met)" if b / a >= GOAL else " (goal 50x: NOT met)")
            )
            lines.append(f"  {name}: {ours} is {b / a:.1f}x as fast as {theirs}{verdict}")
    return lines


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    longs = [lengthened(url) for url in urls[:200]]
    print_environment()
    for corpus, values in ((args.input.name, urls), ("long values", longs)):
        templates = [template_of(url) for url in values]
        summary: list[str] = []
        for name in FORMATS:
            items = templates if name == "uri-template" else values
            results = run(cases(name, items), len(items), args.repeat)
            try:
                peer = peer_of(name)
            except (ImportError, KeyError):
                peer = "not installed"
            title = f"{corpus}, format {name!r} (jsonschema's checker: {peer})"
            print_table(title, results, REFERENCE, len(items))
            summary += ratios(name, results)
        print(f"\nratios on {corpus} (CPU time, same run):")
        print("\n".join(summary))


if __name__ == "__main__":
    main()
