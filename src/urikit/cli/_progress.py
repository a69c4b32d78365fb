"""A progress line on standard error while ``--input`` is processed.

Shown only when standard error is a terminal and ``--quiet`` is not given:
rows done, rows per second, errors so far, and, when the size of the input is
known (the row count of a Parquet file, the size of any other file), the part
done and the time left.  The line is redrawn in place (a carriage return and
"erase to the end of the line"), at most ten times a second, and ended by a
line end when the run ends.  Messages for standard error clear it first.
"""

from __future__ import annotations

import sys
import time
from typing import Final, TextIO

#: The least time between two drawings, in seconds.
INTERVAL: Final = 0.1
WIDTH: Final = 20
CLEAR: Final = "\r\x1b[K"


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """The progress of a run of ``total_rows`` rows, or ``total_bytes`` octets of
    input (either may be unknown), drawn on ``stream`` when ``shown``."""

    def __init__(
        self,
        *,
        shown: bool,
        total_rows: int | None = None,
        total_bytes: int | None = None,
        stream: TextIO | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.shown = shown
        self.total_rows = total_rows
        self.total_bytes = total_bytes
        self.rows = 0
        self.errors = 0
        self.position = 0
        self.started = time.monotonic()
        self.drawn_at: float | None = None
        self.visible = False

    def fraction(self) -> float | None:
        """The part of the input done, when its size is known."""
        if self.total_rows:
            return min(self.rows / self.total_rows, 1.0)
        if self.total_bytes:
            return min(self.position / self.total_bytes, 1.0)
        if self.total_rows == 0 or self.total_bytes == 0:
            return 1.0
        return None

    def line(self, now: float) -> str:
        """The progress line at time ``now``."""
        elapsed = max(now - self.started, 1e-9)
        rate = self.rows / elapsed
        parts = [f"{self.rows:,} rows", f"{rate:,.0f} rows/s", f"{self.errors:,} errors"]
        fraction = self.fraction()
        if fraction is not None:
            filled = int(fraction * WIDTH)
            bar = "#" * filled + "-" * (WIDTH - filled)
            parts.insert(0, f"[{bar}] {fraction * 100:5.1f}%")
            if 0 < fraction < 1:
                parts.append(f"{_duration(elapsed * (1 - fraction) / fraction)} left")
        return "  ".join(parts)

    def update(self, rows: int, errors: int, position: int) -> None:
        """Count ``rows`` more rows done, ``errors`` more failed; the input is read up
        to ``position``."""
        self.rows += rows
        self.errors += errors
        self.position = max(self.position, position)
        if not self.shown:
            return
        now = time.monotonic()
        if self.drawn_at is None or now - self.drawn_at >= INTERVAL:
            self.draw(now)

    def draw(self, now: float) -> None:
        self.drawn_at = now
        try:
            self.stream.write(CLEAR + self.line(now))
            self.stream.flush()
            self.visible = True
        except (OSError, ValueError):
            self.shown = False

    def message(self, text: str) -> None:
        """``text`` on its own line, under nothing half drawn."""
        try:
            if self.visible:
                self.stream.write(CLEAR)
                self.visible = False
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        """The final line, ended, when the line was shown."""
        if self.shown:
            self.draw(time.monotonic())
            try:
                self.stream.write("\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass
