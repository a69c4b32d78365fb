"""Scan every URL in bench/urls.txt with the compiled scanner and with the grammar's pattern.

What each case does:

- ``_speedups.scan(u, False)``: the compiled one-pass scanner; a tuple of the 16 span
  bounds of the 8 components, or ``None``.
- ``URI_GRAMMAR.reference.fullmatch(u)``: the pattern the scanner must agree with
  (grammar.py); a match object (its spans are read lazily) or ``None``.
- ``... + spans``: the same match followed by reading the 8 spans, which is what the
  scanner's tuple already holds.
- the same three for the IRI grammar (RFC 3987 §2.2);
- ``len(u)``: the loop and one call of a builtin, the floor under every case.

Unlike the other scripts, time here is the CPU time of this thread
(``time.thread_time``), not wall time: the passes are a few milliseconds each, and CPU
time is not inflated by other processes on a shared machine.  Passes go round-robin over
the cases with the garbage collector off, and each case keeps its best pass.

Run: ``python bench/bench_scan.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence

from _harness import (
    URLS,
    Batch,
    Case,
    Result,
    parse_args,
    print_environment,
    print_table,
    read_lines,
)

REFERENCE = "_speedups.scan (URI)"


def _count_none(urls: Sequence[str], func: Callable[[str], object]) -> Batch:
    def batch() -> int:
        rejected = 0
        for url in urls:
            if func(url) is None:
                rejected += 1
        return rejected

    return batch


def cases(urls: Sequence[str]) -> list[Case]:
    def load_scan(iri: bool) -> Callable[[], Batch]:
        def load() -> Batch:
            from urikit import _speedups

            scan = _speedups.scan

            def batch() -> int:
                rejected = 0
                for url in urls:
                    if scan(url, iri) is None:
                        rejected += 1
                return rejected

            return batch

        return load

    def load_fullmatch(iri: bool, spans: bool) -> Callable[[], Batch]:
        def load() -> Batch:
            from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR

            fullmatch = (IRI_GRAMMAR if iri else URI_GRAMMAR).reference.fullmatch
            if not spans:
                return _count_none(urls, fullmatch)

            def fullmatch_spans(url: str) -> object:
                match = fullmatch(url)
                if match is None:
                    return None
                return [match.span(group) for group in range(1, 9)]

            return _count_none(urls, fullmatch_spans)

        return load

    def load_len() -> Batch:
        return _count_none(urls, len)

    return [
        Case(REFERENCE, load_scan(False), distribution="urikit"),
        Case("URI_GRAMMAR.reference.fullmatch", load_fullmatch(False, False)),
        Case("URI_GRAMMAR.reference.fullmatch + spans", load_fullmatch(False, True)),
        Case("_speedups.scan (IRI)", load_scan(True), distribution="urikit"),
        Case("IRI_GRAMMAR.reference.fullmatch", load_fullmatch(True, False)),
        Case("IRI_GRAMMAR.reference.fullmatch + spans", load_fullmatch(True, True)),
        Case("len(u): the loop and one call", load_len),
    ]


def cpu_pass(batch: Batch) -> float:
    """CPU seconds of this thread for one call of ``batch``, with the collector off."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.thread_time()
        batch()
        return time.thread_time() - start
    finally:
        if enabled:
            gc.enable()


def run_cpu(cases: Sequence[Case], items: int, repeat: int) -> list[Result]:
    """Like ``_harness.run``, timed in CPU time of this thread: best of ``repeat``."""
    loaded: dict[str, tuple[Batch, int]] = {}
    skipped: dict[str, str] = {}
    for case in cases:
        try:
            batch = case.load()
            loaded[case.label] = (batch, batch())  # warm-up pass; also counts rejections
        except (ImportError, AttributeError) as exc:
            skipped[case.label] = f"{type(exc).__name__}: {exc}"
    best = dict.fromkeys(loaded, float("inf"))
    for _ in range(repeat):
        for label, (batch, _rejected) in loaded.items():
            best[label] = min(best[label], cpu_pass(batch))
    results: list[Result] = []
    for case in cases:
        if case.label in skipped:
            results.append(Result(case.label, None, skipped=skipped[case.label]))
        else:
            per_item = best[case.label] / items * 1e6
            results.append(Result(case.label, per_item, loaded[case.label][1], "", "urikit"))
    return results


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    print_environment()
    results = run_cpu(cases(urls), len(urls), max(args.repeat, 25))
    print_table("Scan (bench/bench_scan.py; CPU time)", results, REFERENCE, len(urls))


if __name__ == "__main__":
    main()
