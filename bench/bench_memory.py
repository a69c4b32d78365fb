"""Memory held by one parsed URI object, for urikit and peer libraries.

Each case runs in a fresh interpreter (this script re-invokes itself with ``--one``), so
memory freed by one library is not reused by the next. In that process the input strings
are loaded first and are not counted; every valid URL is then parsed ``--copies`` times and
the resulting objects are kept alive in a list. Two numbers are reported per object:

- ``traced``: growth of memory traced by ``tracemalloc`` (the Python allocators), minus the
  list that holds the objects. Memory that a C or C++ extension takes from ``malloc`` or
  ``new`` directly (ada_url, can_ada) is invisible here.
- ``rss``: growth of the resident set size (Linux ``/proc/self/statm``) over a separate,
  untraced pass; it sees every allocator but includes allocator slack.

Library LRU caches are cleared before the objects are counted, so cache contents are not
charged to the objects. Run: ``python bench/bench_memory.py``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from _harness import URLS, read_lines

REFERENCE = "urikit.URI"
Parse = Callable[[str], object]
Errors = tuple[type[BaseException], ...]


@dataclass(frozen=True)
class MemoryCase:
    label: str
    load: Callable[[], tuple[Parse, Errors]]
    clear: Callable[[], object] = lambda: None


def _load_urikit() -> tuple[Parse, Errors]:
    import urikit

    if not urikit.compiled:
        raise ImportError("urikit._speedups is not built")
    return urikit.URI, (urikit.URIError,)


def _load_urikit_pure() -> tuple[Parse, Errors]:
    os.environ["URIKIT_NO_EXTENSIONS"] = "1"  # this is a fresh process: urikit loads now
    import urikit

    return urikit.URI, (urikit.URIError,)


def _load_urlsplit() -> tuple[Parse, Errors]:
    from urllib.parse import urlsplit

    return urlsplit, (ValueError,)


def _clear_urlsplit() -> None:
    from urllib.parse import urlsplit

    cache_clear = getattr(urlsplit, "cache_clear", None)
    if cache_clear is not None:
        cache_clear()


def _load_uritools() -> tuple[Parse, Errors]:
    import uritools

    return uritools.urisplit, (ValueError,)


def _load_rfc3986() -> tuple[Parse, Errors]:
    import rfc3986
    from rfc3986 import exceptions

    return rfc3986.uri_reference, (exceptions.RFC3986Exception,)


def _load_yarl() -> tuple[Parse, Errors]:
    import yarl

    return yarl.URL, (ValueError,)


def _clear_yarl() -> None:
    import yarl

    yarl.cache_clear()


def _load_ada_url() -> tuple[Parse, Errors]:
    import ada_url

    return ada_url.URL, (ValueError,)


def _load_can_ada() -> tuple[Parse, Errors]:
    import can_ada

    return can_ada.parse, (ValueError,)


def _load_hyperlink() -> tuple[Parse, Errors]:
    import hyperlink

    return hyperlink.URL.from_text, (ValueError,)


CASES = (
    MemoryCase(REFERENCE, _load_urikit),
    MemoryCase("urikit.URI (pure Python)", _load_urikit_pure),
    MemoryCase("urllib.parse.urlsplit", _load_urlsplit, _clear_urlsplit),
    MemoryCase("uritools.urisplit", _load_uritools),
    MemoryCase("rfc3986.uri_reference", _load_rfc3986),
    MemoryCase("yarl.URL", _load_yarl, _clear_yarl),
    MemoryCase("ada_url.URL", _load_ada_url),
    MemoryCase("can_ada.parse", _load_can_ada),
    MemoryCase("hyperlink.URL.from_text", _load_hyperlink),
)


def _rss_bytes() -> int | None:
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _build(parse: Parse, urls: Sequence[str], copies: int) -> list[object]:
    objects: list[object] = []
    for _ in range(copies):
        objects.extend(parse(url) for url in urls)
    return objects


def measure(case: MemoryCase, urls: Sequence[str], copies: int) -> dict[str, float | int | None]:
    """Bytes per object for one case; run in a fresh process."""
    parse, errors = case.load()
    valid: list[str] = []
    for url in urls:
        try:
            parse(url)
        except errors:
            continue
        valid.append(url)
    case.clear()
    gc.collect()

    before = _rss_bytes()
    objects = _build(parse, valid, copies)
    case.clear()
    gc.collect()
    after = _rss_bytes()
    count = len(objects)
    rss = None
    if before is not None and after is not None:
        rss = (after - before - sys.getsizeof(objects)) / count
    del objects
    gc.collect()

    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    objects = _build(parse, valid, copies)
    case.clear()
    gc.collect()
    traced = (tracemalloc.get_traced_memory()[0] - start - sys.getsizeof(objects)) / count
    tracemalloc.stop()
    return {"objects": count, "rejected": len(urls) - len(valid), "traced": traced, "rss": rss}


def _child(label: str, args: argparse.Namespace) -> dict[str, float | int | None] | str:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--one",
        label,
        "--input",
        str(args.input),
        "--copies",
        str(args.copies),
    ]
    if args.limit is not None:
        command += ["--limit", str(args.limit)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return lines[-1] if lines else f"exit status {done.returncode}"
    result: dict[str, float | int | None] = json.loads(done.stdout)
    return result


def _fmt(value: float | int | None, width: int) -> str:
    return f"{value:{width}.0f}" if value is not None else f"{'-':>{width}}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, default=URLS, help="corpus file")
    parser.add_argument("--limit", type=int, default=None, help="use the first N URLs")
    parser.add_argument("--copies", type=int, default=4, help="objects per URL")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    by_label = {case.label: case for case in CASES}

    if args.one is not None:
        urls = read_lines(args.input, args.limit)
        print(json.dumps(measure(by_label[args.one], urls, args.copies)))
        return

    print(f"Python {sys.version.split()[0]}; {args.copies} objects per valid URL in {args.input}")
    results = {case.label: _child(case.label, args) for case in CASES}
    ref = results.get(REFERENCE)
    ref_traced = ref.get("traced") if isinstance(ref, dict) else None
    ref_rss = ref.get("rss") if isinstance(ref, dict) else None
    width = max(len(label) for label in results)
    print(f"\nMemory per parsed object (bytes; ratio = peer / {REFERENCE})")
    print(f"  {'case':<{width}}  {'traced':>7}  {'ratio':>6}  {'rss':>7}  {'ratio':>6}  objects")
    for label, result in results.items():
        if isinstance(result, str):
            print(f"  {label:<{width}}  skipped ({result})")
            continue
        traced, rss = result["traced"], result["rss"]
        traced_ratio = f"{traced / ref_traced:.2f}x" if traced and ref_traced else "-"
        rss_ratio = f"{rss / ref_rss:.2f}x" if rss and ref_rss else "-"
        print(
            f"  {label:<{width}}  {_fmt(traced, 7)}  {traced_ratio:>6}  {_fmt(rss, 7)}"
            f"  {rss_ratio:>6}  {result['objects']}"
        )
    print("traced misses memory that C/C++ extensions allocate outside Python (ada_url, can_ada).")


if __name__ == "__main__":
    main()
