"""Hostile input against clean input of the same length, for audit, extract and lenient.

Each function is run on clean text and on hostile shapes of the same length
(1,000,000 characters by default), and the CPU time of the thread on each hostile
shape is printed as a multiple of the time on clean text.  Passes are taken
round-robin over the shapes, best of N; nothing is asserted.

Clean text, per function:

* ``audit``: a valid URL (``http://example.com/?a=b&a=b&...``); ``audit`` proves it
  quiet with one parse, so the table also gives the time of ``full_audit`` (every
  check run) on the same URL, the cost of the checks themselves;
* ``extract``: prose with a URL every 50 characters; and ``extract(suffix=True)``,
  which looks dotted names up in the Public Suffix List, on the same prose, the
  shapes and text of dotted names;
* ``URI.lenient`` and ``IRI.lenient``: the same valid URL, which is returned as it
  is after one validation, and the URL with one space in the middle (one repair,
  so that the repair is run over the whole text).

``urikit audit --json`` on a 5 MB line is timed as a child process (its CPU time).

Run: ``python bench/bench_hostile.py`` (options: ``--size N``, ``--repeat N``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from urikit import IRI, URI, URIError
from urikit.security.audit import audit, full_audit
from urikit.text import extract


def _shapes(n: int) -> dict[str, str]:
    url = "http://a/"
    return {
        "' a b' repeated": " a b" * (n // 4),
        "U+202E (RLO) run": "\u202e" * n,
        "http://a/ + '%' run": url + "%" * (n - len(url)),
        "unmatched '<'": "<" * n,
        "http://a/ + non-ASCII run": url + "\u00e9" * (n - len(url)),
        "http://a/ + bidi run": url + "\u202e" * (n - len(url)),
        "http://a/ + spaces": url + " " * (n - len(url)) + "x",
        "http://a/ + tabs": url + "\t" * (n - len(url)) + "x",
        "http:// + '@' run": "http://" + "@" * (n - 7),
        "http://a/ + mixed (é, space, RLO, %, <)": url + "\u00e9 \u202e%<" * ((n - len(url)) // 5),
        "http://a/ + '%00' run": url + "%00" * ((n - len(url)) // 3),
        # hosts: a label at a time in Python, so read in part past 1,024 characters
        "http:// + Cyrillic 'а.' labels": "http://" + "\u0430." * ((n - 7) // 2),
        "http:// + 'аa.' labels": "http://" + "\u0430a." * ((n - 7) // 3),
        "http:// + 'é.' labels": "http://" + "\u00e9." * ((n - 7) // 2),
        "http:// + full-width host": "http://" + "\uff45" * (n - 7),
        "http:// + 'a.' host, then ' x'": "http://" + "a." * ((n - 12) // 2) + "a/ x",
        "http:// + '0x000...7f.1' host": "http://0x" + "0" * (n - 15) + "7f.1/",
        "http:// + 'a.bc!' userinfo": "http://" + "a.bc!" * ((n - 10) // 5) + "@x/",
        # findings of one code in every segment or run: at most 100, then one more
        "http://a + '/%2E%2E' segments": "http://a" + "/%2E%2E" * ((n - 8) // 7),
        "http://a/ + '%00a' runs": url + "%00a" * ((n - len(url)) // 4),
        "http://a/ + '\\ta' runs": url + "\ta" * ((n - len(url)) // 2),
        # wrapped URLs: unwrapped to the innermost in one pass
        "'feed:' run + http://127.0.0.1/": "feed:" * ((n - 17) // 5) + "http://127.0.0.1/",
        "'feed:jar:' run + http://127.0.0.1/": "feed:jar:" * ((n - 17) // 9) + "http://127.0.0.1/",
    }


def _name_shapes(n: int) -> dict[str, str]:
    """Text of dotted names, each of which ``extract(suffix=True)`` looks up in the Public
    Suffix List: names that are taken, names that are not, and one name of n characters."""
    return {
        "'a.com ' words": "a.com " * (n // 6),
        "'www.example.co.uk ' words": "www.example.co.uk " * (n // 18),
        "'setup.py ' words (a country code)": "setup.py " * (n // 9),
        "'a.b.c.d ' words (no listed suffix)": "a.b.c.d " * (n // 8),
        "'a.' run, one name": "a." * (n // 2),
    }


def _clean_url(n: int) -> str:
    head = "http://example.com/?"
    return head + "a=b&" * ((n - len(head)) // 4)


def _prose(n: int) -> str:
    unit = "see the page at http://example.com/a/b for more. "
    return unit * (n // len(unit))


def _lenient(cls: type[URI] | type[IRI]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return cls.lenient(text)
        except URIError:
            return None

    return run


def _cpu(action: Callable[[str], object], text: str) -> float:
    start = time.thread_time()
    action(text)
    return time.thread_time() - start


def _table(
    name: str,
    action: Callable[[str], object],
    cleans: dict[str, tuple[Callable[[str], object], str]],
    shapes: dict[str, str],
    repeat: int,
) -> None:
    cases = dict(cleans)
    cases.update({label: (action, text) for label, text in shapes.items()})
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(repeat):
        for label, (work, text) in cases.items():
            best[label] = min(best[label], _cpu(work, text))
    print(f"\n{name}")
    print(f"  {'input':<44} {'CPU s':>8} " + " ".join(f"{'x ' + c[:14]:>16}" for c in cleans))
    for label, seconds in best.items():
        ratios = " ".join(f"{seconds / max(best[c], 1e-6):15.1f}x" for c in cleans)
        print(f"  {label:<44} {seconds:8.4f} {ratios}")


def _cli(size: int) -> None:
    line = "http://a/" + "\u00e9 \u202e%<" * (size // 5)
    clean = _clean_url(size)
    with tempfile.TemporaryDirectory() as folder:
        results = {}
        for label, text in (("clean 5 MB line", clean), ("hostile 5 MB line", line)):
            path = os.path.join(folder, "in.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            with open(path, "rb") as stdin:
                subprocess.run(
                    [sys.executable, "-m", "urikit", "audit", "--json"],
                    stdin=stdin,
                    stdout=subprocess.DEVNULL,
                    check=False,
                )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            results[label] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print("\nurikit audit --json (child process CPU time, interpreter start included)")
    for label, seconds in results.items():
        print(f"  {label:<44} {seconds:8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="characters per input")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per case")
    parser.add_argument("--cli-size", type=int, default=5_000_000, help="0 skips the command")
    args = parser.parse_args()
    n = args.size
    shapes = _shapes(n)
    url = _clean_url(n)
    one_repair = url[: n // 2] + " " + url[n // 2 + 1 :]
    print(f"Python {sys.version.split()[0]}; {n} characters per input; best of {args.repeat}")
    _table(
        "audit",
        audit,
        {"clean URL": (audit, url), "full_audit(clean URL)": (full_audit, url)},
        shapes,
        args.repeat,
    )
    _table(
        "extract",
        lambda t: list(extract(t)),
        {"prose": (lambda t: list(extract(t)), _prose(n))},
        shapes,
        args.repeat,
    )
    _table(
        "extract(suffix=True): suffix references, by the Public Suffix List",
        lambda t: list(extract(t, suffix=True)),
        {"prose": (lambda t: list(extract(t, suffix=True)), _prose(n))},
        {**shapes, **_name_shapes(n)},
        args.repeat,
    )
    for cls in (URI, IRI):
        work = _lenient(cls)
        _table(
            f"{cls.__name__}.lenient",
            work,
            {"valid URL": (work, url), "one repair": (work, one_repair)},
            shapes,
            args.repeat,
        )
    if args.cli_size:
        _cli(args.cli_size)


if __name__ == "__main__":
    main()
