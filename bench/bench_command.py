"""The command on a large Parquet file: ``urikit normalize --input x.parquet --jobs N``.

Writes ``bench/urls.txt`` repeated to 1,000,000 rows (and 4,000,000 for memory) as
Parquet, then runs ``urikit normalize --input x.parquet --output y.parquet`` with
``--jobs 1`` and ``--jobs 2``, interleaved, ``--repeat`` times each, and also with
text records to /dev/null.  Each run is started from a small helper process, which
reports the run's wall time, the CPU time (user + system) of the command and of its
worker processes (they are its children), and the peak resident set of the largest
of them (``ru_maxrss``; started from a small process, it does not inherit this
one's).

On a shared machine the wall time depends on the other load (the load average is
printed); the CPU time does not, much.  ``2 x CPU(jobs 1) / CPU(jobs 2)`` is the
rate of two workers against one when both cores are free: the cost of the second
process (its start, moving batches between processes) is what keeps it under 2.

    python bench/bench_command.py [--rows 1000000] [--memory-rows 4000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Runs argv[1:] and prints its wall time, the CPU time of it and its children, and
#: their peak resident set in KiB (Linux), as JSON.
HELPER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
with open(sys.argv[1], "w") as out:
    status = subprocess.call(sys.argv[2:], stdout=out)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak": usage.ru_maxrss, "status": status}))
"""


def write_parquet(path: Path, rows: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    urls = (HERE / "urls.txt").read_text(encoding="utf-8").splitlines()
    chunk = pa.array(urls * 20)  # 100,000 rows
    with pq.ParquetWriter(path, pa.schema([("url", pa.string())])) as writer:
        done = 0
        while done < rows:
            part = chunk.slice(0, min(len(chunk), rows - done))
            writer.write_table(pa.table({"url": part}))
            done += len(part)


def run(argv: list[str], stdout: str) -> dict[str, float]:
    command = [sys.executable, "-c", HELPER, stdout, sys.executable, "-m", "urikit", *argv]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    found: dict[str, float] = json.loads(result.stdout)
    if found["status"] not in (0, 1):
        raise SystemExit(f"urikit {' '.join(argv)} failed: {result.stderr}")
    return found


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def table(found: dict[str, list[dict[str, float]]], rows: dict[str, int]) -> None:
    print("| case | wall s (best / median) | rows/s (best wall) | CPU s (best / median) |")
    print("|---|---:|---:|---:|")
    for name, runs in found.items():
        walls = [r["wall"] for r in runs]
        cpus = [r["cpu"] for r in runs]
        print(
            f"| {name} | {min(walls):.2f} / {statistics.median(walls):.2f} "
            f"| {rows[name] / min(walls):,.0f} "
            f"| {min(cpus):.2f} / {statistics.median(cpus):.2f} |"
        )


def best(runs: list[dict[str, float]], key: str) -> float:
    return min(r[key] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--memory-rows", type=int, default=4_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        source, big, target = tmp / "x.parquet", tmp / "x4.parquet", tmp / "y.parquet"
        write_parquet(source, args.rows)
        write_parquet(big, args.memory_rows)
        print(f"urikit normalize --input x.parquet; {load()}")
        cases: dict[str, tuple[int, str, Path, int]] = {}
        for output in ("Parquet out", "text to /dev/null"):
            for jobs in (1, 2):
                cases[f"{args.rows:,} rows, {output}, --jobs {jobs}"] = (
                    jobs,
                    output,
                    source,
                    args.rows,
                )
        for jobs in (1, 2):
            cases[f"{args.memory_rows:,} rows, Parquet out, --jobs {jobs}"] = (
                jobs,
                "Parquet out",
                big,
                args.memory_rows,
            )
        found: dict[str, list[dict[str, float]]] = {name: [] for name in cases}
        for _ in range(args.repeat):
            for name, (jobs, output, path, _rows) in cases.items():
                argv = ["normalize", "--input", str(path), "--jobs", str(jobs), "--quiet"]
                if output == "Parquet out":
                    argv += ["--output", str(target)]
                found[name].append(run(argv, os.devnull))
        print(f"after the runs: {load()}")
        print()
        table(found, {name: case[3] for name, case in cases.items()})
        print()
        for output in ("Parquet out", "text to /dev/null"):
            one = found[f"{args.rows:,} rows, {output}, --jobs 1"]
            two = found[f"{args.rows:,} rows, {output}, --jobs 2"]
            print(
                f"{args.rows:,} rows, {output}: --jobs 2 against --jobs 1: "
                f"{2 * best(one, 'cpu') / best(two, 'cpu'):.2f}x by CPU time "
                f"(2 x CPU 1 / CPU 2), {best(one, 'wall') / best(two, 'wall'):.2f}x by wall time"
            )
        small = [found[f"{args.rows:,} rows, Parquet out, --jobs {j}"] for j in (1, 2)]
        large = [found[f"{args.memory_rows:,} rows, Parquet out, --jobs {j}"] for j in (1, 2)]
        extra = [best(large[j], "cpu") - best(small[j], "cpu") for j in (0, 1)]
        print(
            f"the {args.memory_rows - args.rows:,} rows more, Parquet out (no start-up): "
            f"{2 * extra[0] / extra[1]:.2f}x by CPU time"
        )
        print()
        print("| peak resident set (largest process) | --jobs 1 | --jobs 2 |")
        print("|---|---:|---:|")
        for rows, runs in ((args.rows, small), (args.memory_rows, large)):
            peaks = [max(r["peak"] for r in runs[j]) / 1024 for j in (0, 1)]
            print(f"| {rows:,} rows | {peaks[0]:.0f} MiB | {peaks[1]:.0f} MiB |")


if __name__ == "__main__":
    main()
