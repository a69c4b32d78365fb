"""The time ``import urikit`` takes, with the compiled core and as pure Python.

Each sample is a fresh interpreter (``python -c "import urikit"``, and with
``URIKIT_NO_EXTENSIONS=1``) against one that imports nothing (``python -c pass``); a
sample's cost is the CPU time (user + system) of that child, read from ``os.wait4``, so
other load on the machine does not count.  The runs are interleaved and each keeps its
best of ``--repeat``; the import time is the difference of the bests.

Run: ``python bench/bench_import.py`` (option: ``--repeat N``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CASES = {
    "python -c pass": ("pass", False),
    "import urikit (compiled core)": ("import urikit", False),
    "import urikit (pure Python)": ("import urikit", True),
}


def cpu_seconds(code: str, pure: bool) -> float:
    """User plus system CPU seconds of one fresh interpreter running ``code``."""
    env = {k: v for k, v in os.environ.items() if k != "URIKIT_NO_EXTENSIONS"}
    if pure:
        env["URIKIT_NO_EXTENSIONS"] = "1"
    child = subprocess.Popen([sys.executable, "-c", code], env=env)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{code!r} failed with status {child.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="interpreters per case")
    args = parser.parse_args()
    best = dict.fromkeys(CASES, float("inf"))
    for _ in range(args.repeat):
        for label, (code, pure) in CASES.items():
            best[label] = min(best[label], cpu_seconds(code, pure))
    base = best["python -c pass"]
    print(f"Python {sys.version.split()[0]}; best of {args.repeat} interleaved runs, CPU time")
    for label, seconds in best.items():
        extra = "" if label.startswith("python") else f"  (import: {1e3 * (seconds - base):.1f} ms)"
        print(f"  {label:<32} {1e3 * seconds:7.1f} ms{extra}")


if __name__ == "__main__":
    main()
