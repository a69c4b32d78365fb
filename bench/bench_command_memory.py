"""Peak memory of ``urikit normalize --input`` for each input format, against the row count.

Writes ``bench/urls.txt`` repeated to each row count (1,000,000 and 10,000,000 by
default; each row made distinct by its number in the fragment) as plain lines, CSV,
JSON lines and Parquet (the tables with a column ``id`` beside ``url``, Parquet in
row groups of 1,048,576 rows, as ``pq.write_table`` makes them) in a folder under
/tmp, then runs

    urikit normalize --input urls.FORMAT --column url --output out.parquet --jobs N

for ``--jobs 1`` and ``--jobs 2``.  While a run lasts, the resident set of every
process of its tree (the command and its workers) is read from /proc every 20 ms;
the table gives the largest single process (``ru_maxrss``, exact) and the
peak of the tree's sum (sampled; pages the workers share with the command, which
they are forks of, count in each).  Peak memory should not depend on the row count:
the last column is the ratio of the largest row count's peak to the smallest's.

    python bench/bench_command_memory.py [--rows 1000000 10000000] [--formats ...]
        [--jobs 1 2] [--output parquet|csv|lines]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FORMATS = ("lines", "csv", "jsonl", "parquet")
SUFFIX = {"lines": ".txt", "csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}
#: Rows written at a time while the inputs are made.
CHUNK = 100_000
#: Rows in a row group of the Parquet input: pyarrow's default (pq.write_table).
ROW_GROUP = 1 << 20


def urls() -> list[str]:
    return (HERE / "urls.txt").read_text(encoding="utf-8").splitlines()


def _distinct(corpus: list[str], start: int, n: int) -> list[str]:
    """Rows ``start`` ... of the corpus repeated, each made distinct by its number in the
    fragment, so that no table is smaller for repeating itself (a Parquet dictionary)."""
    rows = []
    for i in range(start, start + n):
        url = corpus[i % len(corpus)]
        rows.append(f"{url}{'' if '#' in url else '#'}{i}")
    return rows


def write_input(path: Path, kind: str, rows: int) -> None:
    """``rows`` distinct rows of the corpus as ``kind``."""
    corpus = urls()
    if kind in ("lines", "jsonl"):
        with path.open("w", encoding="utf-8") as out:
            for done in range(0, rows, CHUNK):
                chunk = _distinct(corpus, done, min(CHUNK, rows - done))
                if kind == "lines":
                    out.write("".join(f"{url}\n" for url in chunk))
                else:
                    out.write("".join(json.dumps({"id": done + i, "url": url}) + "\n"
                                      for i, url in enumerate(chunk)))  # fmt: skip
        return
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    schema = pa.schema([("id", pa.int64()), ("url", pa.string())])
    writer = pq.ParquetWriter(path, schema) if kind == "parquet" else pacsv.CSVWriter(path, schema)
    with writer:
        # Parquet in row groups of pyarrow's default size, as pq.write_table makes them.
        group = ROW_GROUP if kind == "parquet" else CHUNK
        for start in range(0, rows, group):
            parts = []
            for done in range(start, min(start + group, rows), CHUNK):
                n = min(CHUNK, start + group - done, rows - done)
                ids = pa.array(range(done, done + n), pa.int64())
                chunk = pa.array(_distinct(corpus, done, n))
                parts.append(pa.table({"id": ids, "url": chunk}, schema=schema))
            writer.write_table(pa.concat_tables(parts))


def _children(pid: int) -> list[int]:
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as file:
                found.extend(int(child) for child in file.read().split())
        except OSError:
            pass
    return found


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_kib(pid: int) -> int:
    """The sum of the resident sets of ``pid`` and its descendants."""
    total, stack = 0, [pid]
    while stack:
        process = stack.pop()
        total += _rss_kib(process)
        stack.extend(_children(process))
    return total


#: Runs argv[1:] and prints the peak resident set of it and its descendants in KiB
#: (``ru_maxrss``): started from this small process, the command does not count the
#: pages of the large one that made the inputs, as a fork of it would.
HELPER = """
import resource, subprocess, sys
status = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)
"""


def measure(argv: list[str]) -> dict[str, float]:
    """Run ``urikit ARGV``: its status, wall time, largest process and tree peak (KiB)."""
    started = time.perf_counter()
    helper = subprocess.Popen(
        [sys.executable, "-c", HELPER, sys.executable, "-m", "urikit", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            tree = sum(tree_rss_kib(child) for child in _children(helper.pid))
            peak = max(peak, tree)
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = helper.communicate()
    done.set()
    sampler.join()
    largest, status = (int(word) for word in out.split())
    if status not in (0, 1):
        raise SystemExit(f"urikit {' '.join(argv)}: {err}")
    return {
        "status": status,
        "wall": time.perf_counter() - started,
        "largest": largest,
        "tree": peak,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--formats", nargs="+", choices=FORMATS, default=list(FORMATS))
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--output", choices=("parquet", "csv", "lines"), default="parquet")
    parser.add_argument("--keep", action="store_true", help="keep the inputs in the folder")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="urikit-memory-", dir="/tmp"))
    target = folder / f"out{SUFFIX[args.output] if args.output != 'lines' else '.txt'}"
    one, five, _ = os.getloadavg()
    print(
        f"urikit normalize --input urls.FORMAT --output {target.name}; "
        f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"
    )
    found: dict[tuple[str, int, int], dict[str, float]] = {}
    try:
        for kind in args.formats:
            for rows in args.rows:
                source = folder / f"urls{SUFFIX[kind]}"
                write_input(source, kind, rows)
                for jobs in args.jobs:
                    argv = ["normalize", "--input", str(source), "--output", str(target),
                            "--jobs", str(jobs), "--quiet"]  # fmt: skip
                    if kind != "lines":
                        argv += ["--column", "url"]
                    found[kind, rows, jobs] = result = measure(argv)
                    print(
                        f"  {kind} {rows:,} rows --jobs {jobs}: largest "
                        f"{result['largest'] / 1024:.0f} MiB, tree {result['tree'] / 1024:.0f} "
                        f"MiB, {result['wall']:.0f} s",
                        flush=True,
                    )
                if not args.keep:
                    source.unlink()
    finally:
        if not args.keep:
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()
    print()
    head = " | ".join(f"--jobs {j}: largest / tree" for j in args.jobs)
    print(f"| input | rows | {head} |")
    print("|---|---:|" + "---:|" * len(args.jobs))
    for kind in args.formats:
        for rows in args.rows:
            cells = []
            for jobs in args.jobs:
                r = found[kind, rows, jobs]
                cells.append(f"{r['largest'] / 1024:.0f} / {r['tree'] / 1024:.0f} MiB")
            print(f"| {kind} | {rows:,} | " + " | ".join(cells) + " |")
    small, large = min(args.rows), max(args.rows)
    print()
    print(f"peak at {large:,} rows / peak at {small:,} rows (largest process, tree):")
    print()
    print("| input | " + " | ".join(f"--jobs {j}" for j in args.jobs) + " |")
    print("|---|" + "---:|" * len(args.jobs))
    for kind in args.formats:
        cells = []
        for jobs in args.jobs:
            a, b = found[kind, small, jobs], found[kind, large, jobs]
            cells.append(f"{b['largest'] / a['largest']:.2f} / {b['tree'] / a['tree']:.2f}")
        print(f"| {kind} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
