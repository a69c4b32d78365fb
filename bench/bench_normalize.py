"""Normalize every URL in bench/urls.txt (RFC 3986 §6.2.2 and §6.2.3).

Every case starts from a string, so parsing is part of the measured work:

- ``urikit.normalize(u)``: strict parse, then syntax- and scheme-based normalization;
  invalid lines raise urikit.URIError and are counted as rejected.
- ``rfc3986 normalize``: ``rfc3986.uri_reference(u).normalize()`` (case, percent-encoding
  and dot-segment normalization, RFC 3986 §6.2.2; no validation).
- ``w3lib.url.canonicalize_url(u)``: crawler canonicalization (sorts the query, drops the
  fragment, re-encodes); it does more than RFC 3986 asks and is the usual crawler choice.
- ``ada_url.normalize_url(u)``: WHATWG URL Standard serialization, in C++.

Run: ``python bench/bench_normalize.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

from collections.abc import Sequence

from _harness import (
    URLS,
    Batch,
    Case,
    Target,
    over,
    parse_args,
    print_environment,
    print_table,
    read_lines,
    run,
)

REFERENCE = "urikit.normalize"
RFC3986 = "rfc3986 normalize"
W3LIB = "w3lib.url.canonicalize_url"
ADA_URL = "ada_url.normalize_url"

TARGETS = (
    Target("urikit.normalize >= 20x faster than rfc3986 normalize", RFC3986, 0.05),
    Target("urikit.normalize faster than ada_url.normalize_url", ADA_URL, 1.0),
    Target("urikit.normalize faster than w3lib canonicalize_url", W3LIB, 1.0),
)


def cases(urls: Sequence[str]) -> list[Case]:
    def load_urikit() -> Batch:
        import urikit

        return over(urls, urikit.normalize, urikit.URIError)

    def load_rfc3986() -> Batch:
        import rfc3986
        from rfc3986 import exceptions

        uri_reference = rfc3986.uri_reference

        def normalize(url: str) -> object:
            return uri_reference(url).normalize()

        return over(urls, normalize, exceptions.RFC3986Exception)

    def load_w3lib() -> Batch:
        from w3lib.url import canonicalize_url

        return over(urls, canonicalize_url)

    def load_ada_url() -> Batch:
        import ada_url

        return over(urls, ada_url.normalize_url)

    return [
        Case(REFERENCE, load_urikit, distribution="urikit"),
        Case(RFC3986, load_rfc3986, distribution="rfc3986"),
        Case(W3LIB, load_w3lib, distribution="w3lib"),
        Case(ADA_URL, load_ada_url, distribution="ada-url"),
    ]


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    print_environment()
    results = run(cases(urls), len(urls), args.repeat)
    print_table("Normalize (bench/bench_normalize.py)", results, REFERENCE, len(urls), TARGETS)


if __name__ == "__main__":
    main()
