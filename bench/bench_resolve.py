"""Resolve every (base, reference) pair in bench/pairs.txt (RFC 3986 §5.2).

Every case starts from two strings, so parsing both is part of the measured work:

- ``urikit.resolve(base, ref)``: strict; an invalid base or reference raises
  urikit.URIError and is counted as rejected.
- ``uritools.urijoin(base, ref)``: RFC 3986 §5.2 on unvalidated components.
- ``rfc3986 resolve_with``: ``rfc3986.uri_reference(ref).resolve_with(base)``. rfc3986
  2.x calls its deprecated ``is_valid()`` on the base inside ``resolve_with``; the
  DeprecationWarning it raises each time is silenced (the warning machinery still runs,
  as it does for any caller).
- ``urllib.parse.urljoin(base, ref)``: RFC 3986 with legacy rules; urlsplit's LRU cache
  is cleared before each pass.
- ``yarl URL(base).join(URL(ref))``: yarl caches cleared before each pass.
- ``ada_url.join_url(base, ref)``: WHATWG URL Standard, in C++.
- ``hyperlink URL.from_text(base).click(ref)``: raises NotImplementedError for some
  references (counted as rejected).

Run: ``python bench/bench_resolve.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from _harness import (
    PAIRS,
    Batch,
    Case,
    Target,
    over_pairs,
    parse_args,
    print_environment,
    print_table,
    read_pairs,
    run,
)

REFERENCE = "urikit.resolve"
URITOOLS = "uritools.urijoin"
RFC3986 = "rfc3986 resolve_with"
ADA_URL = "ada_url.join_url"

TARGETS = (
    Target("urikit.resolve at most 0.5x the time of uritools.urijoin", URITOOLS, 0.5),
    Target("urikit.resolve faster than ada_url.join_url", ADA_URL, 1.0),
    Target("urikit.resolve >= 5x faster than rfc3986 resolve_with", RFC3986, 0.2),
)


def cases(pairs: Sequence[tuple[str, str]]) -> list[Case]:
    def load_urikit() -> Batch:
        import urikit

        return over_pairs(pairs, urikit.resolve, urikit.URIError)

    def load_uritools() -> Batch:
        import uritools

        return over_pairs(pairs, uritools.urijoin)

    def load_rfc3986() -> Batch:
        import rfc3986
        from rfc3986 import exceptions

        warnings.filterwarnings("ignore", category=DeprecationWarning, module="rfc3986")
        uri_reference = rfc3986.uri_reference

        def resolve(base: str, reference: str) -> object:
            return uri_reference(reference).resolve_with(base)

        return over_pairs(pairs, resolve, exceptions.RFC3986Exception)

    def load_urljoin() -> Batch:
        from urllib.parse import urljoin

        return over_pairs(pairs, urljoin)

    def clear_urlsplit() -> None:
        from urllib.parse import urlsplit

        cache_clear = getattr(urlsplit, "cache_clear", None)
        if cache_clear is not None:
            cache_clear()

    def load_yarl() -> Batch:
        import yarl

        url = yarl.URL

        def join(base: str, reference: str) -> object:
            return url(base).join(url(reference))

        return over_pairs(pairs, join)

    def clear_yarl() -> None:
        import yarl

        yarl.cache_clear()

    def load_ada_url() -> Batch:
        import ada_url

        return over_pairs(pairs, ada_url.join_url)

    def load_hyperlink() -> Batch:
        import hyperlink

        from_text = hyperlink.URL.from_text

        def click(base: str, reference: str) -> object:
            return from_text(base).click(reference)

        return over_pairs(pairs, click, (ValueError, NotImplementedError))

    return [
        Case(REFERENCE, load_urikit, distribution="urikit"),
        Case(URITOOLS, load_uritools, distribution="uritools"),
        Case(RFC3986, load_rfc3986, distribution="rfc3986"),
        Case("urllib.parse.urljoin", load_urljoin, clear_urlsplit),
        Case("yarl URL(base).join(URL(ref))", load_yarl, clear_yarl, distribution="yarl"),
        Case(ADA_URL, load_ada_url, distribution="ada-url"),
        Case("hyperlink from_text(base).click", load_hyperlink, distribution="hyperlink"),
    ]


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], PAIRS)
    pairs = read_pairs(args.input, args.limit)
    print_environment()
    results = run(cases(pairs), len(pairs), args.repeat)
    print_table("Resolve (bench/bench_resolve.py)", results, REFERENCE, len(pairs), TARGETS)


if __name__ == "__main__":
    main()
