"""Columns of URLs: urikit.arrow against the URL functions of ClickHouse (chdb) and
regular expressions in the data engines.

1,000,000 URLs made by repeating bench/urls.txt, as one pyarrow ``string`` column (and
for resolution the (base, reference) pairs of bench/pairs.txt, repeated, as two).
Each case runs once per pass; the table gives the best CPU time (``time.process_time``,
all threads of the process) of ``--repeat`` passes, taken round-robin, so the engines
that use several threads are charged for all of them.  DuckDB and chdb run with one
thread.  chdb reads the same pyarrow table (``Python(table)``) and gives its answer as
a pyarrow table, as urikit does, or as a pandas DataFrame.

ClickHouse's ``domain()`` and ``path()`` find the host and path of a URL without
checking it; the regular expression is RFC 3986 Appendix B, which splits any string
and checks nothing; urikit validates every row.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def scan_only(column: pa.Array) -> Callable[[], object]:
    """The compiled scanner over the column with no output but the validity."""
    from urikit import _arrow_kernel

    ((_, spec, _, base),) = _arrow_kernel._pieces(column)
    columns = _arrow_kernel.KERNEL._columns  # type: ignore[union-attr]
    return lambda: columns.split(spec, False, 0, base, _arrow_kernel._allocate)


def chdb_case(column: pa.Array, output: str) -> Callable[[], object]:
    """ClickHouse's domain() and path() over the column, as a pyarrow table, in chdb."""
    import chdb

    table = pa.table({"u": column})
    sql = "SELECT domain(u) AS host, path(u) AS path FROM Python(urls) SETTINGS max_threads = 1"

    def run() -> object:
        urls = table  # noqa: F841  (chdb finds the table by this name)
        return chdb.query(sql, output)

    return run


#: The rows of each case whose count is not ``--rows``, by its name.
ROWS: dict[str, int] = {}


def invalid_cases(rows: int, share: float) -> list[tuple[str, str, Callable[[], object]]]:
    """``urikit.arrow.parse`` of a column of ``rows`` corpus rows of which ``share`` are
    invalid (``make_corpus.with_invalid_rows``: each a corpus URL with a character the
    grammar refuses put in), against the same column without its invalid rows."""
    from make_corpus import with_invalid_rows

    urls = (HERE / "urls.txt").read_text(encoding="utf-8").splitlines()
    valid = [url for url in urls if urikit.is_valid(url)]
    mixed, invalid = with_invalid_rows(valid, rows, share)
    refused = sum(not urikit.is_valid(text) for text in mixed)
    if refused != sum(invalid):
        raise SystemExit(f"{refused} rows refused, {sum(invalid)} made invalid")
    column = pa.array(mixed, pa.string())
    alone = pa.array([text for text, bad in zip(mixed, invalid, strict=True) if not bad])
    group = f"{share:.0%} invalid"
    alone_name = "urikit.arrow.parse, the valid rows alone"
    mixed_name = "urikit.arrow.parse, with the invalid rows"
    ROWS[alone_name] = len(alone)
    return [
        (group, alone_name, lambda: arrow.parse(alone)),
        (group, mixed_name, lambda: arrow.parse(column)),
    ]


def cases(column: pa.Array, rows: list[str]) -> list[tuple[str, str, Callable[[], object]]]:
    """(group, name, run) for each case; ratios are taken within a group."""
    both = ("host", "path")
    out: list[tuple[str, str, Callable[[], object]]] = [
        ("parse", "urikit.arrow.parse (struct, validated)", lambda: arrow.parse(column)),
    ]
    if urikit.compiled:
        out.append(("parse", "the scan alone (no output)", scan_only(column)))
    out += [
        (
            "host+path",
            "urikit.arrow.parse(fields=[host, path]) (one scan)",
            lambda: arrow.parse(column, fields=both),
        ),
        ("host+path", "urikit.arrow.host + path", lambda: (arrow.host(column), arrow.path(column))),
    ]
    try:
        out.append(
            ("host+path", "chdb domain() + path(), to Arrow", chdb_case(column, "ArrowTable"))
        )
        out.append(
            ("host+path", "chdb domain() + path(), to pandas", chdb_case(column, "DataFrame"))
        )
    except ImportError:
        pass
    out.append(
        ("host+path", "pyarrow extract_regex (App. B)", lambda: pc.extract_regex(column, NAMED))
    )
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

    pairs = [line.split("\t") for line in (HERE / "pairs.txt").read_text("utf-8").splitlines()]
    n = len(column)
    pair_rows = (pairs * (n // len(pairs) + 1))[:n]
    bases = pa.array([base for base, _ in pair_rows], pa.string())
    refs = pa.array([ref for _, ref in pair_rows], pa.string())
    one_base = "http://a/b/c/d;p?q"
    loop_pairs = pair_rows[: n // 10]

    def resolve_loop() -> list[str | None]:
        answers: list[str | None] = []
        for base, ref in loop_pairs:
            try:
                answers.append(str(urikit.resolve(base, ref)))
            except urikit.URIError:
                answers.append(None)
        return answers

    out.append(
        ("resolve", "urikit.arrow.resolve, a column of bases", lambda: arrow.resolve(bases, refs))
    )
    out.append(("resolve", "urikit.arrow.resolve, one base", lambda: arrow.resolve(one_base, refs)))
    out.append(("resolve", "Python loop of urikit.resolve (1/10 of rows, x10)", resolve_loop))
    return out + param_cases(column, rows) + site_cases(column, rows) + template_cases(len(rows))


def site_cases(column: pa.Array, rows: list[str]) -> list[tuple[str, str, Callable[[], object]]]:
    """registrable_domain from the URL text: the column function (one scan for the
    hosts, the list once per distinct host) on the corpus and on a column whose every
    host is distinct, against tldextract (offline, its bundled snapshot) on each URL."""
    from urikit.sites import registrable_domain

    n = len(rows)
    distinct = pa.array(
        [
            f"http://h{k}.{urikit.URI(u).host or 'x.example'}/" if urikit.is_valid(u) else u
            for k, u in enumerate(rows)
        ]
    )
    loop = rows[: n // 10]

    def scalar_loop() -> list[str | None]:
        answers: list[str | None] = []
        for text in loop:
            try:
                answers.append(registrable_domain(urikit.URI(text)))
            except urikit.URIError:
                answers.append(None)
        return answers

    out: list[tuple[str, str, Callable[[], object]]] = [
        ("sites", "urikit.arrow.registrable_domain", lambda: arrow.registrable_domain(column)),
        (
            "sites",
            "urikit.arrow.registrable_domain, every host distinct",
            lambda: arrow.registrable_domain(distinct),
        ),
        ("sites", "Python loop of registrable_domain(URI) (1/10 of rows, x10)", scalar_loop),
    ]
    try:
        import tldextract
    except ImportError:
        return out
    extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    extract("www.example.com")
    out.append(
        (
            "sites",
            "tldextract a URL (1/10 of rows, x10)",
            lambda: [extract(text).top_domain_under_public_suffix for text in loop],
        )
    )
    return out


def template_cases(n: int) -> list[tuple[str, str, Callable[[], object]]]:
    """template_match against a router of 1,000 API templates (bench_template's), on a
    column of ``n`` URIs expanded from them (one in ten matches none), against
    Router.match in a Python loop, and the URL Standard's parse of the corpus."""
    from bench_template import route_templates, route_uris

    from urikit.template import Router

    templates = route_templates(1000)
    uris = route_uris(templates, n)
    column = pa.array(uris, pa.string())
    router = Router(templates)
    loop = uris[: n // 10]
    arrow.template_match(column.slice(0, 10), router)  # the router made before timing
    return [
        (
            "template_match",
            "urikit.arrow.template_match, 1,000 templates",
            lambda: arrow.template_match(column, router),
        ),
        (
            "template_match",
            "Python loop of Router.match (1/10 of rows, x10)",
            lambda: [router.match(text) for text in loop],
        ),
    ]


#: The parameter the query_param cases look up (in about 3% of the corpus's queries).
PARAM = "id"


def param_cases(column: pa.Array, rows: list[str]) -> list[tuple[str, str, Callable[[], object]]]:
    """query_param: the column function, DuckDB's uri_query_param over it, and the
    scalar API a row at a time (in a Python loop, and as a DuckDB UDF of one call a
    row), and the UDF uri_query_param was before it was a kernel operation (a native
    UDF that ran ``arrow.query_param`` on a column of one row, for each row)."""
    loop = rows[: len(rows) // 10]

    def one(text: str) -> str | None:
        try:
            return urikit.URI(text).query_param(PARAM)
        except urikit.URIError:
            return None

    out: list[tuple[str, str, Callable[[], object]]] = [
        ("query_param", "urikit.arrow.query_param", lambda: arrow.query_param(column, PARAM)),
        (
            "query_param",
            "Python loop of URI.query_param (1/10 of rows, x10)",
            lambda: [one(text) for text in loop],
        ),
    ]
    try:
        import duckdb

        import urikit.duckdb
    except ImportError:
        return out
    con = urikit.duckdb.register(duckdb.connect())
    con.execute("SET threads = 1")

    def row_by_row(url: pa.Array, name: pa.Array) -> pa.Array:
        answers = [
            None if a is None or b is None else one(a)
            for a, b in zip(url.to_pylist(), name.to_pylist(), strict=True)
        ]
        return pa.array(answers, pa.string())

    varchar = duckdb.sqltypes.VARCHAR
    create: Any = con.create_function
    create(
        "param_row_by_row",
        row_by_row,
        [varchar, varchar],
        varchar,
        type="arrow",
        null_handling="special",
    )

    def one_row_column(url: str, name: str) -> str | None:
        answer: str | None = arrow.query_param(pa.array([url]), name)[0].as_py()
        return answer

    create(
        "param_one_row_column",
        one_row_column,
        [varchar, varchar],
        varchar,
        null_handling="special",
    )
    con.register("hundredth", pa.table({"u": column.slice(0, len(column) // 100)}))
    con.register("urls", pa.table({"u": column}))
    con.register("tenth", pa.table({"u": column.slice(0, len(column) // 10)}))
    sql = f"SELECT uri_query_param(u, '{PARAM}') FROM urls"
    scalar_sql = f"SELECT param_row_by_row(u, '{PARAM}') FROM tenth"
    out.append(("query_param", "DuckDB uri_query_param", lambda: con.sql(sql).to_arrow_table()))
    out.append(
        (
            "query_param",
            "DuckDB UDF, the scalar a row (1/10 of rows, x10)",
            lambda: con.sql(scalar_sql).to_arrow_table(),
        )
    )
    old_sql = f"SELECT param_one_row_column(u, '{PARAM}') FROM hundredth"
    out.append(
        (
            "query_param",
            "DuckDB uri_query_param as it was, a column of one row a row (1/100 of rows, x100)",
            lambda: con.sql(old_sql).to_arrow_table(),
        )
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--invalid", type=float, default=0.01, help="the share of invalid rows")
    parser.add_argument("--groups", nargs="*", help="only these groups (parse, host+path, ...)")
    args = parser.parse_args()
    urls = (HERE / "urls.txt").read_text(encoding="utf-8").splitlines()
    rows = (urls * (args.rows // len(urls) + 1))[: args.rows]
    column = pa.array(rows, pa.string())
    table = cases(column, rows) + invalid_cases(args.rows, args.invalid)
    if args.groups:
        table = [case for case in table if case[0] in args.groups]
    best = [float("inf")] * len(table)
    for _ in range(args.repeat):
        for k, (_, _, run) in enumerate(table):
            start = time.process_time()
            run()
            best[k] = min(best[k], time.process_time() - start)
    scale = [
        100.0 if "1/100 " in name else 10.0 if "1/10 " in name else 1.0 for _, name, _ in table
    ]
    print(f"{args.rows:,} URLs, CPU seconds, best of {args.repeat}\n")
    print("| group | case | CPU s | URLs/s | ratio to urikit |")
    print("|---|---|---:|---:|---:|")
    first: dict[str, float] = {}
    rates: dict[str, list[float]] = {}
    for (group, name, _), seconds, factor in zip(table, best, scale, strict=True):
        seconds *= factor
        first.setdefault(group, seconds)
        rate = ROWS.get(name, args.rows) / seconds
        rates.setdefault(group, []).append(rate)
        ratio = seconds / first[group]
        print(f"| {group} | {name} | {seconds:.3f} | {rate / 1e6:.1f} M | {ratio:.1f}x |")
    for group, group_rates in rates.items():
        if group.endswith("invalid") and len(group_rates) == 2:
            alone, mixed = group_rates
            verdict = "met" if mixed >= 0.8 * alone else "NOT met"
            print(f"\n{group}: {mixed / alone:.2f}x the rows/s of the valid rows alone", end="")
            print(f" (target >= 0.8x: {verdict})")


if __name__ == "__main__":
    main()
