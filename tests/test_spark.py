"""urikit.spark answers every row as the scalar API, on a local Spark of two cores.

Starting the JVM is the cost, so one test runs the few coarse jobs in one session:
spread over several tests, pytest-xdist could start a session in each of its
workers.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark")
if shutil.which("java") is None and "JAVA_HOME" not in os.environ:
    pytest.skip("Spark needs Java", allow_module_level=True)

from engine_rows import BASE, FIELDS, PAIRS, ROWS, expected, resolved
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import urikit
from urikit import URI
from urikit import spark as us
from urikit._arrow_kernel import COMPONENTS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    saved = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable  # workers import this urikit
    session = (
        SparkSession.builder.master("local[2]")
        .appName("urikit-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    if saved is None:
        del os.environ["PYSPARK_PYTHON"]
    else:
        os.environ["PYSPARK_PYTHON"] = saved


def plain(value: Any) -> Any:
    """A collected value as Python data: rows as dicts."""
    return value.asDict(recursive=True) if hasattr(value, "asDict") else value


def every_function_answers_as_the_scalar_api(spark: SparkSession) -> None:
    df = spark.createDataFrame(list(enumerate(ROWS)), "id long, url string").repartition(2)
    answers = df.select(
        "id",
        us.parse("url"),
        *(getattr(us, name)("url") for name in COMPONENTS),
        us.host_type("url"),
        us.port_number("url"),
        us.is_valid("url"),
        us.normalize("url"),
        us.to_uri("url"),
        us.query_param("url", "q"),
        us.resolve(URI(BASE), "url"),
        us.relativize(URI(BASE), "url"),
        us.audit_codes("url"),
    )
    assert answers.schema["parse"].dataType == us.PARSE_TYPE
    got = sorted(answers.collect(), key=lambda row: row["id"])
    assert [row["id"] for row in got] == list(range(len(ROWS)))
    for text, row in zip(ROWS, got, strict=True):
        want = expected(text)
        assert {name: plain(row[name]) for name in FIELDS} == want, text
        parts = want["parse"] if want["parse"] is not None and want["parse"]["valid"] else {}
        assert {n: row[n] for n in COMPONENTS} == {n: parts.get(n) for n in COMPONENTS}, text


def resolution_answers_row_by_row(spark: SparkSession) -> None:
    pairs = spark.createDataFrame(list(PAIRS), "base string, ref string")
    answers = pairs.select(us.resolve(F.col("base"), "ref")).collect()
    assert [row["resolve"] for row in answers] == [resolved(b, r) for b, r in PAIRS]
    # a base str is one reference for every row, as in every adapter
    one = pairs.select(us.resolve(BASE, "ref")).collect()
    assert [row["resolve"] for row in one] == [resolved(BASE, r) for _, r in PAIRS]


def the_example_pipeline_runs_end_to_end(spark: SparkSession, tmp_path: Path) -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import links_spark
    finally:
        sys.path.remove(str(EXAMPLES))
    counts = links_spark.run(spark, tmp_path)
    assert counts["links"] > 0 and counts["invalid"] > 0 and counts["hosts"] > 0
    links = spark.read.parquet(str(tmp_path / "links")).collect()
    for row in links:
        assert str(urikit.normalize(row["target"])) == row["target"]
        assert row["host"] == URI(row["target"]).host
    invalid = spark.read.parquet(str(tmp_path / "invalid")).collect()
    for row in invalid:
        text = row["page"] if row["column"] == "page" else row["href"]
        if row["error_position"] is not None:
            with pytest.raises(urikit.URIError) as caught:
                urikit.IRI(text) if row["column"] == "href" else URI(text)
            assert (caught.value.position, caught.value.reason) == (
                row["error_position"],
                row["error"],
            )
    hosts = {
        row["host"]: row["targets"] for row in spark.read.parquet(str(tmp_path / "hosts")).collect()
    }
    assert hosts["example.com"] == len(
        {row["target"] for row in links if row["host"] == "example.com"}
    )


def test_spark_answers_as_the_scalar_api_and_runs_the_example(
    spark: SparkSession, tmp_path: Path
) -> None:
    every_function_answers_as_the_scalar_api(spark)
    resolution_answers_row_by_row(spark)
    the_example_pipeline_runs_end_to_end(spark, tmp_path)
