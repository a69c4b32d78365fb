"""The time ``import urikit`` takes, with the compiled core and as pure Python.

Each sample is a fresh interpreter (``python -c "import urikit"``, and with
``URIKIT_NO_EXTENSIONS=1``; ``import yarl`` and ``import urllib.parse`` as peers, when
installed) against one that imports nothing (``python -c pass``); a
sample's cost is the CPU time (user + system) of that child, read from ``os.wait4``, so
other load on the machine does not count.  The runs are interleaved and each keeps its
best of ``--repeat``; the import time is the difference of the bests.

Run: ``python bench/bench_import.py`` (option: ``--repeat N``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys

CASES = {
    "python -c pass": ("pass", False),
    "import urikit (compiled core)": ("import urikit", False),
    "import urikit (pure Python)": ("import urikit", True),
    "import yarl": ("import yarl", False),
    "import urllib.parse": ("import urllib.parse", False),
}


#: Unset in the children: the path switch is set per case, and every case imports from a
#: warm bytecode cache (the first, untimed run of each case writes it).
_UNSET = ("URIKIT_NO_EXTENSIONS", "PYTHONDONTWRITEBYTECODE")


def cpu_seconds(code: str, pure: bool) -> float:
    """User plus system CPU seconds of one fresh interpreter running ``code``."""
    env = {k: v for k, v in os.environ.items() if k not in _UNSET}
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
    cases = {
        label: (code, pure)
        for label, (code, pure) in CASES.items()
        if not code.startswith("import ") or importlib.util.find_spec(code.split()[1]) is not None
    }
    for code, pure in cases.values():
        cpu_seconds(code, pure)  # writes the bytecode cache
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(args.repeat):
        for label, (code, pure) in cases.items():
            best[label] = min(best[label], cpu_seconds(code, pure))
    base = best["python -c pass"]
    cost = {label: seconds - base for label, seconds in best.items()}
    yarl = cost.get("import yarl")
    print(f"Python {sys.version.split()[0]}; best of {args.repeat} interleaved runs, CPU time")
    for label, seconds in best.items():
        extra = ""
        if not label.startswith("python"):
            extra = f"  (import: {1e3 * cost[label]:.1f} ms"
            if yarl:
                extra += f", {cost[label] / yarl:.2f}x yarl"
            extra += ")"
        print(f"  {label:<32} {1e3 * seconds:7.1f} ms{extra}")
    for label in CASES:
        if label not in cases:
            print(f"  {label:<32} skipped (not installed)")
    if yarl:
        worst = max(cost[label] for label in cases if label.startswith("import urikit"))
        verdict = "met" if worst <= yarl else "NOT met"
        print(f"target: import urikit no slower than import yarl: {verdict}")


if __name__ == "__main__":
    main()
