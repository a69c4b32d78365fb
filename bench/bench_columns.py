"""Columns of URLs: urikit.arrow against regular expressions in the data engines.

1,000,000 URLs made by repeating bench/urls.txt, as one pyarrow ``string`` column.
Each case runs once per pass; the table gives the best CPU time (``time.process_time``,
all threads of the process) of ``--repeat`` passes, taken round-robin, so the engines
that use several threads are charged for all of them.  DuckDB runs with one thread.

The regular expression is RFC 3986 Appendix B, which splits any string and checks
nothing; urikit validates every row.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

import urikit
from urikit import arrow

HERE = Path(__file__).resolve().parent
#: Appendix B with named groups, as pyarrow's extract_regex wants them.
NAMED = (
    r"^(?:(?P<s>[^:/?#]+):)?(?://(?P<a>[^/?#]*))?(?P<p>[^?#]*)(?:\?(?P<q>[^#]*))?(?:#(?P<f>.*))?"
)
APPENDIX_B = r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?"


def cases(column: pa.Array, rows: list[str]) -> list[tuple[str, str, Callable[[], object]]]:
    """(group, name, run) for each case; ratios are taken within a group."""
    out: list[tuple[str, str, Callable[[], object]]] = [
        ("parse", "urikit.arrow.parse (struct, validated)", lambda: arrow.parse(column)),
        ("host+path", "urikit.arrow.host + path", lambda: (arrow.host(column), arrow.path(column))),
        ("host+path", "pyarrow extract_regex (App. B)", lambda: pc.extract_regex(column, NAMED)),
    ]
    try:
        import polars as pl

        series = pl.Series("u", column)
        out.append(
            (
                "host+path",
                "polars str.extract (App. B) x2",
                lambda: (series.str.extract(APPENDIX_B, 4), series.str.extract(APPENDIX_B, 5)),
            )
        )
    except ImportError:
        pass
    try:
        import duckdb

        con = duckdb.connect()
        con.execute("SET threads = 1")
        table = pa.table({"u": column})
        con.register("urls", table)
        pick = ", ".join(f"regexp_extract(u, '{APPENDIX_B}', {group})" for group in (4, 5))
        sql = f"SELECT {pick} FROM urls"
        out.append(
            (
                "host+path",
                "DuckDB regexp_extract (App. B) x2",
                lambda: con.sql(sql).to_arrow_table(),
            )
        )
    except ImportError:
        pass
    loop = rows[: len(rows) // 10]

    def python_loop() -> list[str | None]:
        answers: list[str | None] = []
        for text in loop:
            try:
                answers.append(str(urikit.normalize(text)))
            except urikit.URIError:
                answers.append(None)
        return answers

    out.append(("normalize", "urikit.arrow.normalize", lambda: arrow.normalize(column)))
    out.append(("normalize", "Python loop of urikit.normalize (1/10 of rows, x10)", python_loop))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    urls = (HERE / "urls.txt").read_text(encoding="utf-8").splitlines()
    rows = (urls * (args.rows // len(urls) + 1))[: args.rows]
    column = pa.array(rows, pa.string())
    table = cases(column, rows)
    best = [float("inf")] * len(table)
    for _ in range(args.repeat):
        for k, (_, _, run) in enumerate(table):
            start = time.process_time()
            run()
            best[k] = min(best[k], time.process_time() - start)
    scale = [10.0 if "1/10" in name else 1.0 for _, name, _ in table]
    print(f"{args.rows:,} URLs, CPU seconds, best of {args.repeat}\n")
    print("| group | case | CPU s | URLs/s | ratio to urikit |")
    print("|---|---|---:|---:|---:|")
    first: dict[str, float] = {}
    for (group, name, _), seconds, factor in zip(table, best, scale, strict=True):
        seconds *= factor
        first.setdefault(group, seconds)
        rate = args.rows / seconds
        ratio = seconds / first[group]
        print(f"| {group} | {name} | {seconds:.3f} | {rate / 1e6:.1f} M | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
