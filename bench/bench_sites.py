"""The registrable domain of every URL of bench/urls.txt, by the Public Suffix List.

Two tables, each measured in one run:

- from the host: the host of each URL (as ``urikit.URI`` reads it, once, untimed) to its
  registrable domain: ``urikit.sites.registrable_domain(host)`` with the compiled core
  (an ASCII host looked up in C) and as pure Python (a copy of urikit imported with
  ``URIKIT_NO_EXTENSIONS=1``); ``tldextract`` with its bundled snapshot and no network
  (``TLDExtract(suffix_list_urls=(), cache_dir=None)``, warm: built before timing),
  ``.top_domain_under_public_suffix``; ``publicsuffixlist``'s ``privatesuffix(host)``.
- from the URL text: ``registrable_domain(URI(url))``, ``tldextract`` on the URL itself
  (it finds the host), and ``publicsuffixlist`` on ``urlsplit(url).hostname``.

Each library uses the list it ships; the answers differ only where the lists' versions do
and where a host names no domain (urikit answers None for an IP address, tldextract and
publicsuffixlist answer their own reading).  The ``rejected`` column counts the URLs
``urikit.URI`` refuses (their hosts are left out of the first table).

Run: ``python bench/bench_sites.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from _harness import (
    URLS,
    Batch,
    Case,
    Target,
    load_urikit,
    over,
    parse_args,
    print_environment,
    print_table,
    read_lines,
    run,
)

REFERENCE = "urikit (compiled core)"
PURE = "urikit (pure Python)"
TLDEXTRACT = "tldextract"
PSL = "publicsuffixlist"

TARGETS = [
    Target("at least 5x as fast as tldextract", TLDEXTRACT, 0.2),
    Target("faster than publicsuffixlist", PSL, 1.0),
]


def _hosts(urls: Sequence[str]) -> list[str]:
    import urikit

    hosts = []
    for url in urls:
        try:
            host = urikit.URI(url).host
        except urikit.URIError:
            continue
        if host:
            hosts.append(host)
    return hosts


def _urikit(pure: bool, items: Sequence[str], from_url: bool) -> Batch:
    urikit = load_urikit(pure=pure)
    if not pure and not urikit.compiled:
        raise ImportError("urikit._speedups is not built")
    sites: Any = import_module(urikit.__name__ + ".sites")
    registrable_domain = sites.registrable_domain
    registrable_domain("www.example.com")  # the bundled list, loaded before timing
    if not from_url:
        return over(items, registrable_domain)
    URI = urikit.URI
    return over(items, lambda url: registrable_domain(URI(url)), urikit.URIError)


def _tldextract(items: Sequence[str]) -> Batch:
    import tldextract

    extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    extract("www.example.com")
    return over(items, lambda text: extract(text).top_domain_under_public_suffix)


def _psl(items: Sequence[str], from_url: bool) -> Batch:
    from urllib.parse import urlsplit

    import publicsuffixlist

    psl = publicsuffixlist.PublicSuffixList()
    privatesuffix = psl.privatesuffix
    if not from_url:
        return over(items, privatesuffix)
    return over(items, lambda url: privatesuffix(urlsplit(url).hostname or ""))


def cases(items: Sequence[str], from_url: bool) -> list[Case]:
    return [
        Case(REFERENCE, lambda: _urikit(False, items, from_url), distribution="urikit"),
        Case(PURE, lambda: _urikit(True, items, from_url), distribution="urikit"),
        Case(TLDEXTRACT, lambda: _tldextract(items), distribution="tldextract"),
        Case(PSL, lambda: _psl(items, from_url), distribution="publicsuffixlist"),
    ]


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    hosts = _hosts(urls)
    print_environment()
    results = run(cases(hosts, from_url=False), len(hosts), args.repeat)
    print_table("registrable domain of a host", results, REFERENCE, len(hosts), TARGETS)
    results = run(cases(urls, from_url=True), len(urls), args.repeat)
    print_table("registrable domain of a URL", results, REFERENCE, len(urls), TARGETS)


if __name__ == "__main__":
    main()
