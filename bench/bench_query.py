"""Edit the query of every URL in bench/urls.txt that has one (RFC 3986 §3.4).

Three edits, each a table of its own, on the URLs with a non-empty query:

- set: the first parameter's name gets the value ``x`` (replacing it in place);
- add: ``page=2`` is appended;
- remove: every parameter with the first parameter's name is removed.

The cases:

- ``urikit``: ``u.set_query_param(name, "x")``, ``u.add_query_param("page", "2")`` and
  ``u.remove_query_params({name})`` on parsed ``urikit.URI`` values, with the compiled
  core and as pure Python (a copy of urikit imported with ``URIKIT_NO_EXTENSIONS=1``);
  the edit keeps every other piece of the query as written and gives a validated URI.
- ``yarl``: ``url.update_query({name: "x"})``, ``url.extend_query({"page": "2"})`` and
  ``url.without_query_params(name)`` on parsed ``yarl.URL`` values (its LRU caches
  cleared before each pass); yarl decodes and re-encodes the whole query.
- ``urllib.parse``: from the string, ``urlsplit``, ``parse_qsl(keep_blank_values=True)``,
  the edit on the list of pairs, ``urlencode`` and ``urlunsplit``: the round trip most
  code writes by hand, which re-encodes every pair.
- ``w3lib``: ``add_or_replace_parameter(u, name, "x")``, ``add_or_replace_parameter(u,
  "page", "2")`` and ``url_query_cleaner(u, [name], remove=True, keep_fragments=True)``
  on the string.

The ``from str`` rows add the parse: ``URI(u).set_query_param(...)`` and
``URL(u).update_query(...)``.  The ``rejected`` column counts URLs the library refused
(urikit: the corpus lines RFC 3986 does not allow).

Run: ``python bench/bench_query.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from _harness import (
    URLS,
    Batch,
    Case,
    Target,
    load_urikit,
    parse_args,
    print_environment,
    print_table,
    read_lines,
    run,
)

REFERENCE = "urikit (compiled core)"
PURE = "urikit (pure Python)"
YARL = "yarl"


def _edits(urls: Sequence[str]) -> list[tuple[str, str]]:
    """(url, name of its first parameter) for each URL whose query has a named parameter."""
    from urllib.parse import unquote_plus

    out = []
    for url in urls:
        query = url.partition("#")[0].partition("?")[2]
        first = query.split("&")[0].partition("=")[0]
        if first:
            out.append((url, unquote_plus(first)))
    return out


def _over(
    items: Sequence[tuple[Any, str]], edit: Callable[[Any, str], object], errors: Any
) -> Batch:
    def batch() -> int:
        rejected = 0
        for item, name in items:
            try:
                edit(item, name)
            except errors:
                rejected += 1
        return rejected

    return batch


def cases(edits: Sequence[tuple[str, str]], operation: str) -> list[Case]:
    def load_urikit_case(pure: bool, from_str: bool) -> Callable[[], Batch]:
        def load() -> Batch:
            urikit = load_urikit(pure=pure)
            if not pure and not urikit.compiled:
                raise ImportError("urikit._speedups is not built")
            URI = urikit.URI
            if from_str:
                items: list[tuple[Any, str]] = list(edits)
            else:
                items = [(URI(url), name) for url, name in edits if urikit.is_valid(url)]
            edit: Callable[[Any, str], object]
            if operation == "set":
                edit = lambda u, name: u.set_query_param(name, "x")  # noqa: E731
            elif operation == "add":
                edit = lambda u, name: u.add_query_param("page", "2")  # noqa: E731
            else:
                edit = lambda u, name: u.remove_query_params({name})  # noqa: E731
            if from_str:
                edit_object = edit
                edit = lambda text, name: edit_object(URI(text), name)  # noqa: E731
            return _over(items, edit, urikit.URIError)

        return load

    def load_yarl_case(from_str: bool) -> Callable[[], Batch]:
        def load() -> Batch:
            import yarl

            URL = yarl.URL
            items: list[tuple[Any, str]] = (
                list(edits) if from_str else [(URL(url), name) for url, name in edits]
            )
            edit: Callable[[Any, str], object]
            if operation == "set":
                edit = lambda u, name: u.update_query({name: "x"})  # noqa: E731
            elif operation == "add":
                edit = lambda u, name: u.extend_query({"page": "2"})  # noqa: E731
            else:
                edit = lambda u, name: u.without_query_params(name)  # noqa: E731
            if from_str:
                edit_object = edit
                edit = lambda text, name: edit_object(URL(text), name)  # noqa: E731
            return _over(items, edit, ValueError)

        return load

    def clear_yarl() -> None:
        import yarl

        yarl.cache_clear()

    def load_urllib() -> Batch:
        from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

        def edit(url: str, name: str) -> str:
            parts = urlsplit(url)
            pairs = parse_qsl(parts.query, keep_blank_values=True)
            if operation == "set":
                out, done = [], False
                for key, value in pairs:
                    if key == name:
                        if not done:
                            out.append((key, "x"))
                            done = True
                    else:
                        out.append((key, value))
                if not done:
                    out.append((name, "x"))
                pairs = out
            elif operation == "add":
                pairs.append(("page", "2"))
            else:
                pairs = [(key, value) for key, value in pairs if key != name]
            return urlunsplit(parts._replace(query=urlencode(pairs)))

        return _over(edits, edit, ValueError)

    def clear_urlsplit() -> None:
        from urllib.parse import urlsplit

        cache_clear = getattr(urlsplit, "cache_clear", None)
        if cache_clear is not None:
            cache_clear()

    def load_w3lib() -> Batch:
        from w3lib.url import add_or_replace_parameter, url_query_cleaner

        edit: Callable[[str, str], object]
        if operation == "set":
            edit = lambda url, name: add_or_replace_parameter(url, name, "x")  # noqa: E731
        elif operation == "add":
            edit = lambda url, name: add_or_replace_parameter(url, "page", "2")  # noqa: E731
        else:

            def edit(url: str, name: str) -> object:
                return url_query_cleaner(url, [name], remove=True, keep_fragments=True)

        return _over(edits, edit, ValueError)

    return [
        Case(REFERENCE, load_urikit_case(pure=False, from_str=False), distribution="urikit"),
        Case(PURE, load_urikit_case(pure=True, from_str=False), distribution="urikit"),
        Case(YARL, load_yarl_case(from_str=False), clear_yarl, distribution="yarl"),
        Case(
            "urikit from str (compiled core)", load_urikit_case(False, True), distribution="urikit"
        ),
        Case("yarl from str", load_yarl_case(from_str=True), clear_yarl, distribution="yarl"),
        Case("urllib.parse round trip", load_urllib, clear_urlsplit),
        Case("w3lib", load_w3lib, distribution="w3lib"),
    ]


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    edits = _edits(read_lines(args.input, args.limit))
    print_environment()
    for operation, peer_call in (
        ("set", "update_query"),
        ("add", "extend_query"),
        ("remove", "without_query_params"),
    ):
        targets: tuple[Target, ...] = ()
        if operation == "set":
            targets = (Target(f"urikit >= 1.5x faster than yarl {peer_call}", YARL, 1 / 1.5),)
        results = run(cases(edits, operation), len(edits), args.repeat)
        print_table(
            f"Query edit: {operation} (bench/bench_query.py)",
            results,
            REFERENCE,
            len(edits),
            targets,
        )


if __name__ == "__main__":
    main()
