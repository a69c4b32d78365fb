"""Shared timing and reporting for the urikit benchmarks.

Each benchmark is a list of ``Case`` objects. A case's ``load`` imports its library and
returns a ``Batch``: a zero-argument callable that processes the whole input once and
returns how many items the library rejected. Loading happens inside ``run`` so that a peer
that is not installed (or a urikit function that does not exist yet) is reported as
skipped instead of stopping the run.

Timing is the CPU time of this thread (``time.thread_time``, so that other processes on a
busy machine do not count) for one pass, with the cyclic garbage collector off as ``timeit``
turns it off, and the best of ``repeat`` passes, taken round-robin over the cases; a case's
``setup`` (for example clearing a library's LRU caches) runs before every pass, untimed,
so no pass is served from a cache warmed by the previous one.
Every case in a table is measured in the same process and the same run, and ratios are
only ever taken between those numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")

HERE = Path(__file__).resolve().parent
URLS = HERE / "urls.txt"
PAIRS = HERE / "pairs.txt"

Batch = Callable[[], int]
"""Process every input item once; return the number of items rejected."""

Errors = type[BaseException] | tuple[type[BaseException], ...]


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Case:
    """One library call to time. ``load`` may raise ImportError or AttributeError."""

    label: str
    load: Callable[[], Batch]
    setup: Callable[[], object] = _nothing
    distribution: str | None = None


@dataclass(frozen=True)
class Target:
    """A goal stated as: reference time / peer time <= ``max_ratio``."""

    description: str
    peer: str
    max_ratio: float


@dataclass(frozen=True)
class Result:
    label: str
    per_item_us: float | None
    rejected: int = 0
    skipped: str = ""
    version: str = ""


def read_lines(path: Path, limit: int | None = None) -> list[str]:
    """The corpus, one item per line, without line ends."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines[:limit] if limit is not None else lines


def read_pairs(path: Path, limit: int | None = None) -> list[tuple[str, str]]:
    """(base, reference) pairs from a tab-separated file; the reference may be empty."""
    pairs: list[tuple[str, str]] = []
    for line in read_lines(path, limit):
        base, _, reference = line.partition("\t")
        pairs.append((base, reference))
    return pairs


def over(items: Sequence[T], func: Callable[[T], object], errors: Errors = ValueError) -> Batch:
    """A batch that calls ``func(item)`` for each item and counts ``errors`` raised."""

    def batch() -> int:
        rejected = 0
        for item in items:
            try:
                func(item)
            except errors:
                rejected += 1
        return rejected

    return batch


def over_pairs(
    pairs: Sequence[tuple[str, str]],
    func: Callable[[str, str], object],
    errors: Errors = ValueError,
) -> Batch:
    """A batch that calls ``func(base, reference)`` for each pair and counts ``errors``."""

    def batch() -> int:
        rejected = 0
        for base, reference in pairs:
            try:
                func(base, reference)
            except errors:
                rejected += 1
        return rejected

    return batch


def time_pass(batch: Batch, setup: Callable[[], object]) -> float:
    """CPU seconds of this thread for one call of ``batch``, after ``setup`` (not timed)."""
    return timeit.Timer(stmt=batch, setup=setup, timer=time.thread_time).timeit(number=1)


def load_urikit(pure: bool) -> ModuleType:
    """urikit with its compiled core (``pure=False``, as ``import urikit`` gives it when
    the extension is built) or a fresh copy of it as pure Python (``URIKIT_NO_EXTENSIONS``
    set while the copy is imported), so both can be timed in one process."""
    import urikit

    return pure_copy(urikit, "urikit_pure_copy") if pure else urikit


def pure_copy(package: ModuleType, name: str) -> ModuleType:
    """A fresh copy of ``package`` under ``name``, imported with ``URIKIT_NO_EXTENSIONS``
    set (once: a second call gives the same copy)."""
    if name in sys.modules:
        return sys.modules[name]
    assert package.__file__ is not None
    directory = Path(package.__file__).resolve().parent
    saved = os.environ.get("URIKIT_NO_EXTENSIONS")
    os.environ["URIKIT_NO_EXTENSIONS"] = "1"
    try:
        spec = importlib.util.spec_from_file_location(
            name, directory / "__init__.py", submodule_search_locations=[str(directory)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del os.environ["URIKIT_NO_EXTENSIONS"]
        else:
            os.environ["URIKIT_NO_EXTENSIONS"] = saved
    return module


def _version(case: Case) -> str:
    if case.distribution is None:
        return "stdlib"
    try:
        return metadata.version(case.distribution)
    except metadata.PackageNotFoundError:
        return ""


def run(cases: Sequence[Case], items: int, repeat: int) -> list[Result]:
    """Load and time each case; ``items`` is how many inputs one batch processes.

    The timed passes go round-robin over the cases (pass 1 of every case, then pass 2, ...),
    so a burst of load on the machine hits all cases alike; each keeps its best pass.
    """
    loaded: dict[str, tuple[Batch, int]] = {}
    skipped: dict[str, str] = {}
    for case in cases:
        try:
            batch = case.load()
            case.setup()
            loaded[case.label] = (batch, batch())  # warm-up pass; also counts rejections
        except (ImportError, AttributeError) as exc:
            skipped[case.label] = f"{type(exc).__name__}: {exc}"
        except Exception as exc:
            skipped[case.label] = f"failed: {exc!r}"
    best = dict.fromkeys(loaded, float("inf"))
    for _ in range(repeat):
        for case in cases:
            if case.label in loaded:
                seconds = time_pass(loaded[case.label][0], case.setup)
                best[case.label] = min(best[case.label], seconds)
    results: list[Result] = []
    for case in cases:
        if case.label in skipped:
            results.append(Result(case.label, None, skipped=skipped[case.label]))
        else:
            per_item = best[case.label] / items * 1e6
            rejected = loaded[case.label][1]
            results.append(Result(case.label, per_item, rejected, "", _version(case)))
    return results


def print_table(
    title: str,
    results: Sequence[Result],
    reference: str,
    items: int,
    targets: Sequence[Target] = (),
) -> None:
    """Print per-item times, each as a multiple of ``reference``'s time, then the targets."""
    print(f"\n{title}")
    print(f"{items} items; best of N passes; 'x ref' = time / {reference} time (lower is faster)")
    ref = next((r for r in results if r.label == reference and r.per_item_us), None)
    width = max(len(r.label) for r in results)
    print(f"  {'case':<{width}}  {'us/item':>9}  {'x ref':>8}  {'rejected':>8}  version")
    for r in results:
        if r.per_item_us is None:
            print(f"  {r.label:<{width}}  skipped ({r.skipped})")
            continue
        times = f"{r.per_item_us / ref.per_item_us:.2f}x" if ref and ref.per_item_us else "-"
        print(
            f"  {r.label:<{width}}  {r.per_item_us:9.3f}  {times:>8}  {r.rejected:8d}  {r.version}"
        )
    if not targets:
        return
    print("targets (informational, nothing is asserted):")
    by_label = {r.label: r for r in results}
    for target in targets:
        peer = by_label.get(target.peer)
        if ref is None or peer is None or not peer.per_item_us or not ref.per_item_us:
            print(f"  {target.description}: not measured")
            continue
        ratio = ref.per_item_us / peer.per_item_us
        verdict = "met" if ratio <= target.max_ratio else "NOT met"
        print(
            f"  {target.description}: {verdict}; {reference} takes {ratio:.2f}x the time of"
            f" {target.peer} (bound {target.max_ratio:g}x, i.e. {1 / ratio:.2f}x as fast)"
        )


def print_other_targets(
    results: Sequence[Result], targets: Sequence[tuple[str, str, float]]
) -> None:
    """For each ``(label, peer_label, bound)``: whether case ``label`` takes at most
    ``bound`` times the time of case ``peer_label``, and the ratio."""
    by_label = {r.label: r for r in results}
    for label, peer_label, bound in targets:
        case, peer = by_label.get(label), by_label.get(peer_label)
        if case is None or peer is None or not case.per_item_us or not peer.per_item_us:
            print(f"  {label} <= {bound:g}x {peer_label} time: not measured")
            continue
        ratio = case.per_item_us / peer.per_item_us
        verdict = "met" if ratio <= bound else "NOT met"
        print(
            f"  {label} <= {bound:g}x {peer_label} time: {verdict}; {label} takes"
            f" {ratio:.2f}x the time of {peer_label}"
        )


def parse_args(description: str, default_input: Path) -> argparse.Namespace:
    """Command-line options shared by the benchmark scripts."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--input", type=Path, default=default_input, help="corpus file")
    parser.add_argument("--limit", type=int, default=None, help="use the first N items")
    parser.add_argument("--repeat", type=int, default=7, help="timed passes per case")
    return parser.parse_args()


def print_environment() -> None:
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.machine()}; {sys.platform}"
    )
