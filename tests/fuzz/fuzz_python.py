"""Coverage-guided fuzzing of urikit's Python API with atheris, one target per function.

Usage::

    python tests/fuzz/fuzz_python.py --list
    python tests/fuzz/fuzz_python.py --seeds DIR [--count N] TARGET
    python tests/fuzz/fuzz_python.py TARGET [libFuzzer options] [CORPUS_DIR | FILE ...]

The first form names the targets (``targets.TARGETS``); the second writes a
seed corpus for a target from ``bench/urls.txt``; the third fuzzes it (given
files rather than directories, it runs just those inputs: that is how a crash
is reproduced).  ``tools/fuzz_python.sh`` runs every target for a bounded time.

The fuzzer's bytes become arguments through ``atheris.FuzzedDataProvider``:
the choices (``pick``, ``flag``) are read from the end of the input, one octet
each, then the rest is read as one string and split on line feeds into the
target's texts (the last text keeps any further line feeds).  A seed is thus
its URIs, one a line, after a selector octet and before one zero octet per
choice.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import atheris

ROOT = Path(__file__).resolve().parents[2]
URLS = ROOT / "bench" / "urls.txt"
sys.path.insert(1, str(ROOT / "tests"))  # the oracles the targets check against

with atheris.instrument_imports(include=["urikit", "targets"]):
    from targets import TARGETS, Draw

T = TypeVar("T")


class FuzzerDraw:
    """Arguments from the fuzzer's bytes: choices from the end, then the texts."""

    def __init__(self, data: bytes) -> None:
        self._provider = atheris.FuzzedDataProvider(data)
        self._read = False

    def pick(self, options: Sequence[T]) -> T:
        assert not self._read, "a target draws its choices before its texts"
        return options[self._provider.ConsumeIntInRange(0, len(options) - 1)]

    def flag(self) -> bool:
        assert not self._read, "a target draws its choices before its texts"
        return self._provider.ConsumeIntInRange(0, 1) == 1  # from the end, as pick

    def texts(self, count: int) -> list[str]:
        self._read = True
        text = self._provider.ConsumeUnicode(self._provider.remaining_bytes())
        parts = text.split("\n", count - 1)
        return parts + [""] * (count - len(parts))

    def octets(self) -> bytes:
        self._read = True
        return bytes(self._provider.ConsumeBytes(self._provider.remaining_bytes()))


class SeedDraw:
    """Given texts and the first option of every choice; counts the choices."""

    def __init__(self, texts: list[str]) -> None:
        self.given = texts
        self.choices = 0
        self.drawn: list[str] = []

    def pick(self, options: Sequence[T]) -> T:
        self.choices += 1
        return options[0]

    def flag(self) -> bool:
        self.choices += 1
        return False

    def texts(self, count: int) -> list[str]:
        self.drawn = self.given[:count] + [""] * (count - len(self.given))
        return self.drawn

    def octets(self) -> bytes:
        text = "\n".join(self.given)
        self.drawn = [text]
        return text.encode("utf-8")


class Recorder:
    """A draw that remembers what it gave out, to check a seed reads as meant."""

    def __init__(self, draw: FuzzerDraw) -> None:
        self._draw = draw
        self.drawn: list[str] = []

    def pick(self, options: Sequence[T]) -> T:
        return self._draw.pick(options)

    def flag(self) -> bool:
        return self._draw.flag()

    def texts(self, count: int) -> list[str]:
        self.drawn = self._draw.texts(count)
        return self.drawn

    def octets(self) -> bytes:
        data = self._draw.octets()
        self.drawn = [data.decode("utf-8")]
        return data


def _encode_seed(texts: list[str], choices: int, raw: bool) -> bytes:
    """The input that ``FuzzerDraw`` reads as ``texts`` with every choice 0."""
    text = "\n".join(texts)
    if raw:
        body = text.encode("utf-8")
    elif text.isascii():
        body = b"\x01" + text.encode("ascii")  # an odd first octet: ASCII
    else:
        body = b"\x00" + text.encode("utf-32-le")  # a first octet of 0 mod 4: UTF-32
    return body + bytes(choices)


def write_seeds(name: str, directory: Path, count: int) -> int:
    """Write up to ``count`` seeds for target ``name`` from bench/urls.txt into ``directory``."""
    target = TARGETS[name]
    lines = URLS.read_text(encoding="utf-8").splitlines()
    step = max(1, len(lines) // count)
    directory.mkdir(parents=True, exist_ok=True)
    written = 0
    for index in range(0, len(lines), step):
        given = [lines[index], lines[(index + 1) % len(lines)], lines[(index + 2) % len(lines)]]
        probe = SeedDraw(given)
        target(probe)
        raw = probe.drawn == ["\n".join(given)]
        seed = _encode_seed(probe.drawn, probe.choices, raw)
        replay = Recorder(FuzzerDraw(seed))
        target(replay)
        assert replay.drawn == probe.drawn, (name, replay.drawn, probe.drawn)
        (directory / f"seed-{index:05d}").write_bytes(seed)
        written += 1
    return written


def fuzz(name: str, argv: list[str]) -> None:
    target: Callable[[Draw], None] = TARGETS[name]

    def test_one_input(data: bytes) -> None:
        target(FuzzerDraw(data))

    atheris.Setup([sys.argv[0], *argv], test_one_input)
    atheris.Fuzz()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in TARGETS:
        fuzz(sys.argv[1], sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print the target names")
    parser.add_argument("--seeds", type=Path, metavar="DIR", help="write seeds into DIR")
    parser.add_argument("--count", type=int, default=300, help="seeds to write (default 300)")
    parser.add_argument("target", nargs="?", choices=sorted(TARGETS))
    args = parser.parse_args()
    if args.list:
        print("\n".join(TARGETS))
    elif args.seeds is not None and args.target is not None:
        write_seeds(args.target, args.seeds, args.count)
    else:
        parser.error("give --list, --seeds DIR TARGET, or TARGET and libFuzzer options")


if __name__ == "__main__":
    main()
