"""URLs on a local cluster: urikit.spark against Spark's parse_url, and Dask on 1 and 2 workers.

1,000,000 URLs made by repeating bench/urls.txt, written as two Parquet files (two
partitions).  Spark runs in one session on ``local[2]``; each Spark case reads the
files, computes its columns and writes them to Spark's ``noop`` sink, so every row is
computed and nothing is collected.  Each Dask case reads the same files on a local
cluster of one or of two worker processes (one thread each), computes host and path,
and returns only the length of each partition.

Work happens in the JVM and in worker processes, so the table gives elapsed time
(``time.perf_counter``), the best of ``--repeat`` passes taken round-robin after one
untimed warm-up pass; on a busy machine it is noisy, and nothing here asserts on it.
Spark's ``try_parse_url`` reads by java.net.URI (RFC 2396), urikit by RFC 3986, so
this compares cost, not answers.
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
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")

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
        ("pandas_udf over urikit.pandas parse, host and path", run(by_pandas.host, by_pandas.path)),
        (
            "Spark try_parse_url HOST + PATH (JVM)",
            run(F.try_parse_url("url", F.lit("HOST")), F.try_parse_url("url", F.lit("PATH"))),
        ),
    ]
    return cases, spark.stop


def dask_case(source: str, workers: int) -> tuple[Callable[[], None], Callable[[], None]]:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    from urikit import dask as ud

    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)

    def run() -> None:
        urls = dd.read_parquet(source, split_row_groups=True).url
        both = dd.concat([ud.host(urls), ud.path(urls).rename("path")], axis=1)
        both.map_partitions(len).compute()

    def stop() -> None:
        client.close()
        cluster.close()

    return run, stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = write_urls(Path(tmp), args.rows)
        results: list[tuple[str, float]] = []
        cases, stop = spark_cases(source)
        results += measure(cases, args.repeat)
        stop()
        for workers in (1, 2):
            run, stop = dask_case(source, workers)
            results += measure(
                [(f"urikit.dask host + path, {workers} worker(s)", run)], args.repeat
            )
            stop()
    print(f"{args.rows:,} URLs, elapsed seconds, best of {args.repeat}, {os.cpu_count()} cores\n")
    print("| case | s | URLs/s |")
    print("|---|---:|---:|")
    for name, seconds in results:
        print(f"| {name} | {seconds:.2f} | {args.rows / seconds / 1e6:.2f} M |")


def measure(cases: list[tuple[str, Callable[[], None]]], repeat: int) -> list[tuple[str, float]]:
    for _, run in cases:
        run()  # warm-up: workers started, urikit imported
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for k, (_, run) in enumerate(cases):
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
    return [(name, seconds) for (name, _), seconds in zip(cases, best, strict=True)]


if __name__ == "__main__":
    main()
