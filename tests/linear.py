"""Linear time, checked by CPU time and never by the wall clock.

``assert_linear(make, action)`` runs ``action`` on ``make(n // 8)`` and on
``make(n)``.  A linear algorithm takes about 8 times as long on the larger
input and a quadratic one about 64 times; the bound is 30 times.  Time is the
CPU time of this thread (``time.thread_time``), which other processes on a
busy machine do not inflate, with the cyclic garbage collector paused (its full
collections walk every object alive in the process), and a failing ratio is measured
again (up to three times) before it counts, so a stray pause cannot fail a run.

Under ``tools/sanitize.sh`` (``URIKIT_SANITIZED=1``) every allocation is
AddressSanitizer's, whose ``realloc`` always copies and whose ``free`` holds
memory in quarantine: CPU time there says nothing of an algorithm's order
(``str.translate`` growing its output, for one, turns quadratic).  There the
action runs once, on an input of ``size // 64``, for the sanitizer's checks of
the hostile shape, and the ratio is not asserted.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable

FACTOR = 8
BOUND = 30
FLOOR = 0.002  # seconds of CPU time: below this, timings are noise
ATTEMPTS = 3
SANITIZED = os.environ.get("URIKIT_SANITIZED") == "1"


def cpu_seconds(action: Callable[[], object]) -> float:
    """The CPU time of this thread spent in ``action()``, without the cyclic garbage
    collector: a full collection walks every object alive in the process (in a test
    worker, those of every test before), so one that happens to fall in the larger
    run alone would make a linear action look quadratic."""
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        action()
        return time.thread_time() - start
    finally:
        gc.enable()


def ratio(make: Callable[[int], str], action: Callable[[str], object], size: int) -> float:
    """CPU time on ``make(size)`` over CPU time on ``make(size // FACTOR)`` (floored)."""
    small, big = make(size // FACTOR), make(size)
    t_small = min(cpu_seconds(lambda: action(small)) for _ in range(2))
    t_big = min(cpu_seconds(lambda: action(big)) for _ in range(2))
    return t_big / max(t_small, FLOOR)


def assert_linear(
    make: Callable[[int], str], action: Callable[[str], object], size: int = 300_000
) -> None:
    """Fail when ``action`` grows clearly faster than linearly on ``make``'s inputs."""
    if SANITIZED:
        action(make(size // (FACTOR * FACTOR)))
        return
    ratios = []
    for _ in range(ATTEMPTS):
        ratios.append(ratio(make, action, size))
        if ratios[-1] < BOUND:
            return
    raise AssertionError(f"CPU time grew {min(ratios):.0f}x for {FACTOR}x the input: {ratios}")
