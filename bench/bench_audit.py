"""The cost of ``urikit.audit`` on real URLs, as a multiple of a strict parse.

Every line of bench/urls.txt is audited (``audit(u)``) and parsed (``URI(u)``), on
the compiled core and as pure Python (a copy of urikit imported with
``URIKIT_NO_EXTENSIONS=1``), in one run: CPU time of the thread, passes taken
round-robin over the four cases, best of N.  The ratios printed are audit's time
over the parse's time on the same path; the target is at most 10 times.
A second table splits the corpus into the URLs that give no finding and the rest.

Run: ``python bench/bench_audit.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

from collections.abc import Sequence

from _harness import (
    URLS,
    Batch,
    Case,
    load_urikit,
    over,
    parse_args,
    print_environment,
    read_lines,
    run,
)

BOUND = 10.0


def cases(urls: Sequence[str], suffix: str = "") -> list[Case]:
    def parse(pure: bool) -> Batch:
        module = load_urikit(pure)
        if not pure and not module.compiled:
            raise ImportError("urikit._speedups is not built")
        return over(urls, module.URI, module.URIError)

    def audit(pure: bool) -> Batch:
        module = load_urikit(pure)
        if not pure and not module.compiled:
            raise ImportError("urikit._speedups is not built")
        return over(urls, module.audit)

    return [
        Case(f"URI(u), compiled{suffix}", lambda: parse(False)),
        Case(f"audit(u), compiled{suffix}", lambda: audit(False)),
        Case(f"URI(u), pure Python{suffix}", lambda: parse(True)),
        Case(f"audit(u), pure Python{suffix}", lambda: audit(True)),
    ]


def report(title: str, urls: Sequence[str], repeat: int) -> None:
    results = {r.label: r for r in run(cases(urls), len(urls), repeat)}
    print(f"\n{title}: {len(urls)} URLs, us per URL, best of {repeat}")
    for path in ("compiled", "pure Python"):
        parse, audit = results[f"URI(u), {path}"], results[f"audit(u), {path}"]
        if parse.per_item_us is None or audit.per_item_us is None:
            print(f"  {path}: skipped ({parse.skipped or audit.skipped})")
            continue
        ratio = audit.per_item_us / parse.per_item_us
        verdict = "met" if ratio <= BOUND else "NOT met"
        print(
            f"  {path:<12} URI {parse.per_item_us:7.3f}  audit {audit.per_item_us:7.3f}"
            f"  ratio {ratio:5.1f}x  (target <= {BOUND:g}x: {verdict})"
        )


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    print_environment()
    report("All lines", urls, args.repeat)
    audit = load_urikit(pure=True).audit
    clean = [u for u in urls if not audit(u)]
    flagged = [u for u in urls if audit(u)]
    report("Lines without findings", clean, args.repeat)
    report("Lines with findings", flagged, args.repeat)


if __name__ == "__main__":
    main()
