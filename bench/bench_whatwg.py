"""Parse every URL in bench/urls.txt by the WHATWG URL Standard, with urikit and its peers.

The cases, all in one run:

- ``urikit.whatwg.URL(u)``: the basic URL parser (URL Standard §4.4) and a URL object,
  with the compiled parser (``urikit._whatwg``) and as pure Python (a copy of
  ``urikit.whatwg`` imported with ``URIKIT_NO_EXTENSIONS=1``);
- ``urikit.whatwg.URL.can_parse(u)``: the same parse, a bool and no object;
- ``can_ada.parse``, ``can_ada.can_parse``, ``ada_url.URL``: ada, the WHATWG parser in
  C++, through its two Python bindings.

Targets: ``URL(u)`` at most 1.0x the time of ``can_ada.parse``, ``can_parse`` at most
1.0x ``can_ada.can_parse``.  Then the memory one ``URL`` object holds: the growth of the
memory ``tracemalloc`` traces while every URL of the corpus is kept alive, per object,
the input strings not counted (the href is the input itself where the input is its own
serialization); target at most 100 bytes.  ada's objects live in C++ memory that
``tracemalloc`` does not see, so no peer is measured there (``bench/bench_memory.py``
measures resident memory across libraries).

Last, hosts of one long label (the URL Standard sets no length limit): n ideographs in no
order, as an A-label behind a label that is not ASCII (``http://é.xn--.../``, so ToASCII
decodes it and encodes it again) and as Unicode (``http://.../``, encoded), for several n,
with ``punycode.decode`` and ``encode`` on their own: the CPU time of one call, and how
much longer the call on the largest n takes than on the one before, a quarter of it (4x for
a linear procedure, 16x for a quadratic one).

Run: ``python bench/bench_whatwg.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

import gc
import importlib
import sys
import tracemalloc
from collections.abc import Sequence
from types import ModuleType

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

REFERENCE = "urikit.whatwg.URL"
CAN_PARSE = "urikit.whatwg.URL.can_parse"
CAN_ADA = "can_ada.parse"
CAN_ADA_CAN_PARSE = "can_ada.can_parse"

TARGETS = (Target("urikit.whatwg.URL <= 1.0x can_ada.parse time", CAN_ADA, 1.0),)
#: (case, peer, bound): targets whose reference is not urikit.whatwg.URL.
OTHER_TARGETS = ((CAN_PARSE, CAN_ADA_CAN_PARSE, 1.0),)
MEMORY_TARGET = 100


def load_whatwg(pure: bool) -> ModuleType:
    """``urikit.whatwg``, or that of a copy of urikit on the readable Python
    (``pure=True``: the seam of the copy chooses the readable parser)."""
    import urikit.whatwg

    if not pure:
        return urikit.whatwg
    copy = load_urikit(pure=True)
    return importlib.import_module(f"{copy.__name__}.whatwg")


def _bools(urls: Sequence[str], check: object) -> Batch:
    def batch() -> int:
        rejected = 0
        for url in urls:
            if not check(url):  # type: ignore[operator]
                rejected += 1
        return rejected

    return batch


def cases(urls: Sequence[str]) -> list[Case]:
    def load_compiled() -> Batch:
        whatwg = load_whatwg(pure=False)
        if not whatwg.compiled:
            raise ImportError("urikit._whatwg is not built")
        return over(urls, whatwg.URL, whatwg.URLParseError)

    def load_pure() -> Batch:
        whatwg = load_whatwg(pure=True)
        return over(urls, whatwg.URL, whatwg.URLParseError)

    def load_can_parse() -> Batch:
        whatwg = load_whatwg(pure=False)
        if not whatwg.compiled:
            raise ImportError("urikit._whatwg is not built")
        return _bools(urls, whatwg.URL.can_parse)

    def load_can_ada() -> Batch:
        import can_ada

        return over(urls, can_ada.parse)

    def load_can_ada_can_parse() -> Batch:
        import can_ada

        return _bools(urls, can_ada.can_parse)

    def load_ada_url() -> Batch:
        import ada_url

        return over(urls, ada_url.URL)

    return [
        Case(REFERENCE, load_compiled, distribution="urikit"),
        Case("urikit.whatwg.URL (pure Python)", load_pure, distribution="urikit"),
        Case(CAN_PARSE, load_can_parse, distribution="urikit"),
        Case(CAN_ADA, load_can_ada, distribution="can_ada"),
        Case(CAN_ADA_CAN_PARSE, load_can_ada_can_parse, distribution="can_ada"),
        Case("ada_url.URL", load_ada_url, distribution="ada-url"),
    ]


def memory(urls: Sequence[str]) -> None:
    """The traced bytes one URL object holds, kept alive with all the others."""
    print("\nMemory of one URL object (tracemalloc, inputs not counted)")
    for label, pure in (("compiled", False), ("pure Python", True)):
        whatwg = load_whatwg(pure)
        if not pure and not whatwg.compiled:
            print(f"  {label}: skipped (urikit._whatwg is not built)")
            continue
        keep = []
        inputs = []
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for url in urls:
            try:
                keep.append(whatwg.URL(url))
            except whatwg.URLParseError:
                continue
            inputs.append(url)
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        per_object = (after - before - sys.getsizeof(keep) - sys.getsizeof(inputs)) / len(keep)
        same = sum(1 for url, u in zip(inputs, keep, strict=True) if u.href is url)
        verdict = "" if pure else (" met" if per_object <= MEMORY_TARGET else " NOT met")
        target = f" (target at most {MEMORY_TARGET}){verdict}" if not pure else ""
        print(f"  {label:<12} {per_object:7.1f} bytes per URL{target}")
        if not pure:
            print(f"  {'':<12} {same} of {len(keep)} hrefs are their input string itself")


def _scrambled(n: int) -> str:
    """n ideographs in no order: each decoded code point is inserted anywhere."""
    import random

    rng = random.Random(n)
    return "".join(chr(0x4E00 + rng.randrange(20_000)) for _ in range(n))


def _cpu(call: object, text: str) -> float | None:
    """The best of three CPU times of ``call(text)``, or None when it raises."""
    import time

    best = None
    for _ in range(3):
        start = time.thread_time()
        try:
            call(text)  # type: ignore[operator]
        except ValueError:
            return None
        elapsed = time.thread_time() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def long_labels(sizes: Sequence[int] = (5_000, 20_000, 80_000)) -> None:
    """The CPU time of one call on a host of one long label, and its growth."""
    from urikit import punycode

    compiled, pure = load_whatwg(pure=False), load_whatwg(pure=True)
    rows: list[tuple[str, object, str]] = [
        ("punycode.decode", punycode.decode, "ace"),
        ("punycode.encode", punycode.encode, "label"),
        ("pure URL, A-label", pure.URL, "url-ace"),
        ("pure URL, Unicode", pure.URL, "url-label"),
    ]
    if compiled.compiled:
        rows[2:2] = [("compiled URL, A-label", compiled.URL, "url-ace"),
                     ("compiled URL, Unicode", compiled.URL, "url-label")]  # fmt: skip
    try:
        import ada_url

        rows.append(("ada_url.URL, A-label", ada_url.URL, "url-ace"))
    except ImportError:
        pass
    texts = {}
    for n in sizes:
        label = _scrambled(n)
        ace = punycode.encode(label)
        texts[n] = {"label": label, "ace": ace, "url-ace": f"http://\u00e9.xn--{ace}/",
                    "url-label": f"http://{label}/"}  # fmt: skip
    print("\nOne label of n ideographs in no order (characters of Punycode: "
          + ", ".join(f"{len(texts[n]['ace']):,} for n = {n:,}" for n in sizes) + ")")  # fmt: skip
    print(f"  {'call':<24}" + "".join(f"{f'n = {n:,}':>14}" for n in sizes) + "    growth")
    for name, call, kind in rows:
        times = [_cpu(call, texts[n][kind]) for n in sizes]
        cells = "".join(f"{'refused':>14}" if t is None else f"{t * 1000:>11.2f} ms" for t in times)
        growth = "" if None in times[-2:] else f"{times[-1] / max(times[-2], 1e-6):8.1f}x"  # type: ignore[operator]
        print(f"  {name:<24}{cells}{growth}")


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], URLS)
    urls = read_lines(args.input, args.limit)
    print_environment()
    results = run(cases(urls), len(urls), args.repeat)
    print_table("WHATWG parse (bench/bench_whatwg.py)", results, REFERENCE, len(urls), TARGETS)
    print_other_targets(results, OTHER_TARGETS)
    memory(urls)
    long_labels()


if __name__ == "__main__":
    main()
