"""Resolve, normalize and count the links of crawled pages, in Spark.

    python examples/links_spark.py [OUT] [--input LINKS.parquet]
    spark-submit --py-files dist/urikit-*.whl,examples/linktable.py \\
        examples/links_spark.py s3://bucket/out --input s3://bucket/links.parquet

Reads a Parquet table of links (``page``, ``href``), or writes a small realistic
one into OUT first.  Each href, an IRI or a URI reference, is mapped to a URI
(RFC 3987 §3.1), resolved against its page (RFC 3986 §5.2) and normalized
(§6); rows whose page or href is not a reference go to a side table with their
error.  The links are deduplicated and the distinct targets counted per host.
Writes OUT/links, OUT/invalid and OUT/hosts as Parquet (OUT defaults to a new
temporary directory) and prints the hosts.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from linktable import write_link_table
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from urikit import spark as uri


def pipeline(links: DataFrame) -> tuple[DataFrame, DataFrame, DataFrame]:
    """(links, invalid, hosts) from a table of (page, href)."""
    parsed = links.select(
        "page",
        "href",
        uri.parse("page").alias("page_parse"),
        uri.parse("href", iri=True).alias("href_parse"),
    )
    resolved = parsed.select(
        "*",
        uri.normalize(uri.resolve(F.col("page"), uri.to_uri("href"))).alias("target"),
    ).cache()
    page_bad = ~F.col("page_parse.valid")
    href_bad = ~F.col("href_parse.valid")
    invalid = resolved.where(page_bad | href_bad | F.col("target").isNull()).select(
        "page",
        "href",
        F.when(page_bad, "page").when(href_bad, "href").otherwise("page").alias("column"),
        F.when(page_bad, F.col("page_parse.error_position"))
        .otherwise(F.col("href_parse.error_position"))
        .alias("error_position"),
        F.when(page_bad, F.col("page_parse.error"))
        .when(href_bad, F.col("href_parse.error"))
        .otherwise(F.lit("the page is not an absolute URI"))
        .alias("error"),
    )
    good = (
        resolved.where(F.col("target").isNotNull())
        .select("page", "target")
        .dropDuplicates()
        .select("page", "target", uri.host("target"), uri.audit_codes("target"))
    )
    hosts = (
        good.where(F.col("host").isNotNull())
        .groupBy("host")
        .agg(F.countDistinct("target").alias("targets"))
        .orderBy(F.desc("targets"), "host")
    )
    return good, invalid, hosts


def run(spark: SparkSession, out: Path, source: str | None = None) -> dict[str, int]:
    """Run the pipeline on ``source`` (or a generated table) into ``out``; the row counts."""
    if source is None:
        out.mkdir(parents=True, exist_ok=True)
        source = str(write_link_table(out / "input.parquet"))
    good, invalid, hosts = pipeline(spark.read.parquet(source))
    counts = {}
    for name, frame in (("links", good), ("invalid", invalid), ("hosts", hosts)):
        frame.write.mode("overwrite").parquet(str(out / name))
        counts[name] = spark.read.parquet(str(out / name)).count()
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", help="output directory (default: a new temp dir)")
    parser.add_argument("--input", help="a Parquet table of (page, href); default: generated")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="links-"))
    # On a laptop the Python workers are this interpreter, which has urikit.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.appName("urikit-links").getOrCreate()
    try:
        counts = run(spark, out, args.input)
        spark.read.parquet(str(out / "hosts")).show(20, truncate=False)
    finally:
        spark.stop()
    print(", ".join(f"{n} {name}" for name, n in counts.items()), "written to", out)


if __name__ == "__main__":
    main()
