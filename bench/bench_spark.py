"""URLs on a local cluster: urikit.spark against Spark's parse_url, and Dask on 1 and 2 workers.

1,000,000 URLs made by repeating bench/urls.txt, written as two Parquet files (two
partitions).  Spark runs in one session on ``local[2]``; each Spark case reads the
files, computes its columns and writes them to Spark's ``noop`` sink, so every row is
computed and nothing is collected.  Each Dask case reads the same files on a local
cluster of one or of two worker processes (one thread each), computes host and path,
and returns only the length of each partition.

Work happens in the JVM and in worker processes, so the table gives elapsed time
(``time.perf_counter``), the best of ``--repeat`` passes taken round-robin after one
untimed warm-up pass, and beside it the CPU time of every process of the run (this
one and its descendants: the JVM, Spark's Python workers, Dask's scheduler and
workers), read from /proc, which a busy machine disturbs less; nothing here
asserts on either.  The identity Arrow UDF gives its input back: it is what any
Python UDF pays to move the column from the JVM to Python and back.  Spark's
``try_parse_url`` reads by java.net.URI (RFC 2396), urikit by RFC 3986, so this
compares cost, not answers.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent


def write_urls(directory: Path, rows: int) -> str:
    """``rows`` URLs of bench/urls.txt, repeated, as two Parquet files in ``directory``."""
    urls = (HERE / "urls.txt").read_text(encoding="utf-8").splitlines()
    column = (urls * (rows // len(urls) + 1))[:rows]
    half = rows // 2
    for part, chunk in enumerate((column[:half], column[half:])):
        pq.write_table(
            pa.table({"url": pa.array(chunk, pa.string())}), directory / f"{part}.parquet"
        )
    return str(directory)


def _tree_cpu() -> float | None:
    """CPU seconds of this process and all its descendants (Linux /proc), or None."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return None
    stats: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state, ppid, ... utime (12), stime (13), cutime, cstime
        cpu = sum(int(value) for value in fields[11:15]) / tick
        stats[int(entry.name)] = (int(fields[1]), cpu)
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, (parent, _) in stats.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return sum(stats[pid][1] for pid in mine if pid in stats)


def spark_cases(source: str) -> tuple[list[tuple[str, Callable[[], None]]], Callable[[], None]]:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.functions import pandas_udf

    from urikit import spark as us

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        # Arrow batches of 100,000 rows to the Python workers: the parquet reader's
        # batches bound them too (docs/distributed.md)
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000")
        .config("spark.sql.parquet.columnarReaderBatchSize", "100000")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")

    from pyspark.sql import types as T
    from pyspark.sql.pandas.functions import arrow_udf

    @arrow_udf(T.StringType())  # type: ignore[call-overload]
    def identity(a):  # type: ignore[no-untyped-def]
        return a

    @pandas_udf(us.PARSE_TYPE)  # type: ignore[call-overload]
    def pandas_parse(s):  # type: ignore[no-untyped-def]
        import urikit.pandas  # noqa: F401  (the uri accessor, in the worker)

        return s.astype("string[pyarrow]").uri.parse().struct.explode()

    def run(*columns: object) -> Callable[[], None]:
        return lambda: (
            spark.read.parquet(source)
            .select(*columns)
            .write.format("noop")
            .mode("overwrite")
            .save()
        )

    parsed = us.parse("url")
    by_pandas = pandas_parse("url")
    cases = [
        ("urikit.spark.parse, then host and path", run(parsed.host, parsed.path)),
        ("urikit.spark.parse (the whole struct)", run(parsed)),
        ("urikit.spark.host + urikit.spark.path", run(us.host("url"), us.path("url"))),
        ("identity arrow_udf (the round trip alone)", run(identity("url"))),
        ("pandas_udf over urikit.pandas parse, host and path", run(by_pandas.host, by_pandas.path)),
        (
            "Spark try_parse_url HOST + PATH (JVM)",
            run(F.try_parse_url("url", F.lit("HOST")), F.try_parse_url("url", F.lit("PATH"))),
        ),
    ]
    return cases, spark.stop


def dask_cases(
    source: str, workers: int
) -> tuple[list[tuple[str, Callable[[], None]]], Callable[[], None]]:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    from urikit import URI
    from urikit import dask as ud

    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    base = URI("https://example.com/a/b")

    def host_path() -> None:
        urls = dd.read_parquet(source, split_row_groups=True).url
        both = dd.concat([ud.host(urls), ud.path(urls).rename("path")], axis=1)
        both.map_partitions(len).compute()

    def parse_normalize() -> None:
        urls = dd.read_parquet(source, split_row_groups=True).url
        both = dd.concat([ud.parse(urls), ud.normalize(urls).rename("normal")], axis=1)
        both.map_partitions(len).compute()

    def resolve_normalize() -> None:
        urls = dd.read_parquet(source, split_row_groups=True).url
        ud.normalize(ud.resolve(base, urls)).map_partitions(len).compute()

    def stop() -> None:
        client.close()
        cluster.close()

    label = f"{workers} worker{'s' if workers > 1 else ''}"
    return [
        (f"urikit.dask host + path, {label}", host_path),
        (f"urikit.dask parse + normalize, {label}", parse_normalize),
        (f"urikit.dask resolve against one base + normalize, {label}", resolve_normalize),
    ], stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = write_urls(Path(tmp), args.rows)
        results: list[tuple[str, float, float | None]] = []
        cases, stop = spark_cases(source)
        results += measure(cases, args.repeat)
        stop()
        for workers in (1, 2):
            cases, stop = dask_cases(source, workers)
            results += measure(cases, args.repeat)
            stop()
    print(f"{args.rows:,} URLs, elapsed seconds, best of {args.repeat}, {os.cpu_count()} cores\n")
    print("| case | s | URLs/s | CPU s, all processes |")
    print("|---|---:|---:|---:|")
    for name, seconds, cpu in results:
        spent = "-" if cpu is None else f"{cpu:.2f}"
        print(f"| {name} | {seconds:.2f} | {args.rows / seconds / 1e6:.2f} M | {spent} |")
    elapsed = {name: seconds for name, seconds, _ in results}
    print()
    for name, seconds in elapsed.items():
        if name.endswith(", 1 worker"):
            two = elapsed.get(name.replace(", 1 worker", ", 2 workers"))
            if two:
                print(f"{name[: -len(', 1 worker')]}: 2 workers {seconds / two:.2f}x one")


def measure(
    cases: list[tuple[str, Callable[[], None]]], repeat: int
) -> list[tuple[str, float, float | None]]:
    for _, run in cases:
        run()  # warm-up: workers started, urikit imported
    best = [float("inf")] * len(cases)
    cpu: list[float | None] = [float("inf")] * len(cases)
    for _ in range(repeat):
        for k, (_, run) in enumerate(cases):
            before = _tree_cpu()
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
            after = _tree_cpu()
            spent = cpu[k]
            if before is None or after is None or spent is None:
                cpu[k] = None
            else:
                cpu[k] = min(spent, after - before)
    return [
        (name, seconds, spent) for (name, _), seconds, spent in zip(cases, best, cpu, strict=True)
    ]


if __name__ == "__main__":
    main()
