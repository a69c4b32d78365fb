"""Parse every URL in bench/urls.txt with urikit and with peer libraries.

What each case does, and how faithful it is as a "parse" of RFC 3986:

- ``urikit.URI(u)``: strict parse and full RFC 3986 validation; invalid lines raise
  urikit.URIError and are counted as rejected.  Timed with the compiled core (as
  ``import urikit`` gives it when ``urikit._speedups`` is built) and as pure Python (a
  copy of urikit imported with ``URIKIT_NO_EXTENSIONS=1``), in the same run.
- ``urikit.is_valid(u)``: the same validation without building a URI value.
- ``urllib.parse.urlsplit``: splits without validating (RFC 3986 Appendix B plus legacy
  rules). It is LRU-cached on CPython >= 3.11; the cache is cleared before each pass.
- ``uritools.urisplit``: Appendix B regular expression, no validation.
- ``rfc3986 parse+validate``: ``rfc3986.uri_reference(u)`` then
  ``rfc3986.validators.Validator().check_validity_of(<all seven components>).validate(ref)``,
  the non-deprecated way to parse and validate in rfc3986 2.x
  (``URIReference.is_valid()`` still exists but warns that it is deprecated).
- ``yarl.URL``: WHATWG-flavoured parse with percent-encoding of the input; LRU caches
  cleared before each pass.
- ``ada_url.URL``, ``can_ada.parse``: WHATWG URL Standard parsers in C++;
  ``can_ada.can_parse`` (a bool, no URL object) is the peer of ``urikit.is_valid``.
- ``hyperlink.URL.from_text``: hyperlink's own RFC 3986-based parse, no full validation.

A second table times ``URI(u)`` and ``urikit.validate.check(u)`` on the valid lines and
on the rejected ones apart, on both paths: a rejected input also pays for finding where,
which rule and why (``diagnose.locate`` on the pure path, its generated automata in C on
the compiled one), and for raising the ``URIError``.  Target: a rejected input at most
3x the time of a valid one (compiled ``URI``).

Run: ``python bench/bench_parse.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from _harness import (
    URLS,
    Batch,
    Case,
    Target,
    load_urikit,
    over,
    parse_args,
    print_environment,
    print_other_targets,
    print_table,
    read_lines,
    run,
)

REFERENCE = "urikit.URI"
PURE = "urikit.URI (pure Python)"
URITOOLS = "uritools.urisplit"
RFC3986 = "rfc3986 parse+validate"
CAN_ADA = "can_ada.parse"
IS_VALID = "urikit.is_valid"
CAN_PARSE = "can_ada.can_parse"

TARGETS = (
    Target("urikit strict parse <= 1.5x uritools.urisplit time", URITOOLS, 1.5),
    Target("urikit >= 10x faster than rfc3986 parse+validate", RFC3986, 0.1),
    Target("urikit.URI <= 0.5x can_ada.parse time (stretch 0.3x)", CAN_ADA, 0.5),
)
#: (case, peer, bound): targets whose reference is not urikit.URI.
OTHER_TARGETS = ((IS_VALID, CAN_PARSE, 0.5),)


def cases(urls: Sequence[str]) -> list[Case]:
    def load_compiled() -> Batch:
        urikit = load_urikit(pure=False)
        if not urikit.compiled:
            raise ImportError("urikit._speedups is not built")
        return over(urls, urikit.URI, urikit.URIError)

    def load_pure() -> Batch:
        urikit = load_urikit(pure=True)
        return over(urls, urikit.URI, urikit.URIError)

    def load_urikit_is_valid() -> Batch:
        import urikit

        is_valid = urikit.is_valid

        def batch() -> int:
            rejected = 0
            for url in urls:
                if not is_valid(url):
                    rejected += 1
            return rejected

        return batch

    def load_urlsplit() -> Batch:
        from urllib.parse import urlsplit

        return over(urls, urlsplit)

    def clear_urlsplit() -> None:
        from urllib.parse import urlsplit

        cache_clear = getattr(urlsplit, "cache_clear", None)
        if cache_clear is not None:
            cache_clear()

    def load_uritools() -> Batch:
        import uritools

        return over(urls, uritools.urisplit)

    def load_rfc3986() -> Batch:
        import rfc3986
        from rfc3986 import exceptions, validators

        validator = validators.Validator().check_validity_of(
            "scheme", "userinfo", "host", "port", "path", "query", "fragment"
        )
        uri_reference = rfc3986.uri_reference

        def parse_and_validate(url: str) -> None:
            validator.validate(uri_reference(url))

        return over(urls, parse_and_validate, exceptions.RFC3986Exception)

    def load_yarl() -> Batch:
        import yarl

        return over(urls, yarl.URL)

    def clear_yarl() -> None:
        import yarl

        yarl.cache_clear()

    def load_ada_url() -> Batch:
        import ada_url

        return over(urls, ada_url.URL)

    def load_can_ada() -> Batch:
        import can_ada

        return over(urls, can_ada.parse)

    def load_can_parse() -> Batch:
        import can_ada

        can_parse = can_ada.can_parse

        def batch() -> int:
            rejected = 0
            for url in urls:
                if not can_parse(url):
                    rejected += 1
            return rejected

        return batch

    def load_hyperlink() -> Batch:
        import hyperlink

        return over(urls, hyperlink.URL.from_text)

    return [
        Case(REFERENCE, load_compiled, distribution="urikit"),
        Case(PURE, load_pure, distribution="urikit"),
        Case(IS_VALID, load_urikit_is_valid, distribution="urikit"),
        Case("urllib.parse.urlsplit", load_urlsplit, clear_urlsplit),
        Case(URITOOLS, load_uritools, distribution="uritools"),
        Case(RFC3986, load_rfc3986, distribution="rfc3986"),
        Case("yarl.URL", load_yarl, clear_yarl, distribution="yarl"),
        Case("ada_url.URL", load_ada_url, distribution="ada-url"),
        Case(CAN_ADA, load_can_ada, distribution="can_ada"),
        Case(CAN_PARSE, load_can_parse, distribution="can_ada"),
        Case("hyperlink.URL.from_text", load_hyperlink, distribution="hyperlink"),
    ]


def valid_and_rejected(urls: Sequence[str], repeat: int) -> None:
    """``URI(u)`` per valid and per rejected line, compiled and pure, in one run."""
    compiled, pure = load_urikit(pure=False), load_urikit(pure=True)
    valid = [url for url in urls if pure.is_valid(url)]
    rejected = [url for url in urls if not pure.is_valid(url)]
    if not rejected:
        return
    # The rejected lines are few: repeat them so that one pass takes a measurable time.
    rejected = rejected * max(1, len(valid) // (10 * len(rejected)))
    table = []
    for label, module in (("compiled", compiled), ("pure Python", pure)):
        if label == "compiled" and not module.compiled:
            continue
        check = importlib.import_module(f"{module.__name__}.validate").check
        for lines, kind in ((valid, "valid"), (rejected, "rejected")):
            table += [
                Case(
                    f"URI, {kind} lines ({label})",
                    lambda m=module, lines=lines: over(lines, m.URI, m.URIError),
                ),
                Case(
                    f"check, {kind} lines ({label})",
                    lambda m=module, lines=lines, c=check: over(lines, c, m.URIError),
                ),
            ]
    results = run(table, 1, repeat)
    sizes = {case.label: len(valid if " valid" in case.label else rejected) for case in table}
    per_url = {
        result.label: result.per_item_us / sizes[result.label]
        for result in results
        if result.per_item_us is not None
    }
    print("\nValid and rejected input (bench/bench_parse.py): us per URL")
    for label, us in per_url.items():
        print(f"  {label:<38} {us:8.3f}  ({sizes[label]} URLs)")
    for label in ("compiled", "pure Python"):
        good, bad = (per_url.get(f"URI, {kind} lines ({label})") for kind in ("valid", "rejected"))
        if good and bad:
            met = "met" if label != "compiled" or bad <= 3 * good else "NOT met"
            target = " (target: at most 3x)" if label == "compiled" else ""
            print(f"  rejected / valid, URI ({label}): {bad / good:.2f}x{target} {met}")


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    print_environment()
    results = run(cases(urls), len(urls), args.repeat)
    print_table("Parse (bench/bench_parse.py)", results, REFERENCE, len(urls), TARGETS)
    print_other_targets(results, OTHER_TARGETS)
    valid_and_rejected(urls, args.repeat)


if __name__ == "__main__":
    main()
