"""The polars, pandas and DuckDB adapters answer as the scalar API, on both kernels."""

from __future__ import annotations

from typing import Any

import pytest
from test_arrow import ROWS, kernel, port_number, scalar  # noqa: F401

import urikit
from urikit import URI, normalize
from urikit._arrow_kernel import COMPONENTS

pa = pytest.importorskip("pyarrow")


def expected(text: str | None) -> dict[str, Any]:
    """The row as the adapters give it: components, host type, port number, normal form."""
    want = scalar(text)
    ok = isinstance(want, URI)
    row: dict[str, Any] = {name: getattr(want, name) if ok else None for name in COMPONENTS}
    row["host_type"] = want.host_type if ok else None
    row["port_number"] = port_number(want) if ok else None
    row["normal"] = str(normalize(want)) if ok else None
    row["valid"] = None if text is None else ok
    return row


WANT = [expected(text) for text in ROWS]
NAMES = [*COMPONENTS, "host_type", "port_number", "normal", "valid"]


def test_polars_namespace() -> None:
    pl = pytest.importorskip("polars")
    import urikit.polars  # noqa: F401

    df = pl.DataFrame({"url": ROWS}, schema={"url": pl.String})
    u = pl.col("url").uri
    got = df.select(
        *(getattr(u, name)().alias(name) for name in [*COMPONENTS, "host_type", "port_number"]),
        u.normalize().alias("normal"),
        u.is_valid().alias("valid"),
    ).to_dicts()
    assert got == WANT
    parsed = df["url"].uri.parse().to_list()
    assert [None if p is None else p["host"] for p in parsed] == [w["host"] for w in WANT]
    picked = df.select(u.parse(fields=["path", "valid"]).alias("p"))["p"].to_list()
    assert picked == [
        None if w["valid"] is None else {"path": w["path"], "valid": w["valid"]} for w in WANT
    ]


def test_pandas_accessor() -> None:
    pd = pytest.importorskip("pandas")
    import urikit.pandas  # noqa: F401

    s = pd.Series(ROWS, dtype="string[pyarrow]", index=range(10, 10 + len(ROWS)))
    for name in NAMES:
        method = "normalize" if name == "normal" else "is_valid" if name == "valid" else name
        result = getattr(s.uri, method)()
        assert list(result.index) == list(s.index)
        values = [None if v is pd.NA else v for v in result.tolist()]
        assert values == [w[name] for w in WANT], name


def test_duckdb_functions() -> None:
    duckdb = pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    import urikit.duckdb

    con = urikit.duckdb.register(duckdb.connect())
    try:
        urls = pa.table({"url": pa.array(ROWS, pa.string())})  # noqa: F841
        columns = ", ".join(
            f"uri_{'normalize' if n == 'normal' else 'is_valid' if n == 'valid' else n}(url)"
            for n in NAMES
        )
        rows = con.sql(f"SELECT {columns} FROM urls").fetchall()
        assert [dict(zip(NAMES, row, strict=True)) for row in rows] == WANT
        parsed = con.sql("SELECT uri_parse(url) FROM urls").fetchall()
        assert [p and p["error_position"] for (p,) in parsed] == [
            getattr(scalar(t), "position", None) if t is not None else None for t in ROWS
        ]
    finally:
        con.close()


# -- one meaning in every adapter (a base, a text argument, octets) --------------------

BASES = ["http://a/b/c/d;p?q", "http://x/y/", None, "bad uri"]
REFS = ["../g", "z?q=1", "g", "g"]


def _resolved(base: str | None, ref: str) -> str | None:
    if base is None:
        return None
    try:
        return str(urikit.resolve(base, ref))
    except urikit.URIError:
        return None


ONE = [_resolved(BASES[0], ref) for ref in REFS]
EACH = [_resolved(base, ref) for base, ref in zip(BASES, REFS, strict=True)]
NOT_A_BASE = "base is one reference"


def test_arrow_reads_a_str_as_one_base_and_a_column_row_by_row() -> None:
    from urikit import arrow as ua

    refs = pa.array(REFS)
    assert ua.resolve(BASES[0], refs).to_pylist() == ONE
    assert ua.resolve(URI(BASES[0]), refs).to_pylist() == ONE
    assert ua.resolve(pa.array(BASES), refs).to_pylist() == EACH
    with pytest.raises(TypeError, match=NOT_A_BASE):
        ua.resolve(5, refs)


def test_polars_resolves_against_one_base_or_a_column_of_bases() -> None:
    pl = pytest.importorskip("polars")
    import urikit.polars  # noqa: F401

    df = pl.DataFrame({"page": BASES, "href": REFS})
    got = df.select(
        pl.col("href").uri.resolve(BASES[0]).alias("one"),
        pl.col("href").uri.resolve(pl.col("page")).alias("each"),
        pl.col("href").uri.relativize(pl.col("page")).alias("back"),
    )
    assert got["one"].to_list() == ONE
    assert got["each"].to_list() == EACH
    assert df["href"].uri.resolve(df["page"]).to_list() == EACH
    # resolving the relativized target against its base gives the target back
    targets = df.select(pl.col("href").uri.resolve(pl.col("page")).alias("t"), "page")
    back = targets.select(pl.col("t").uri.relativize(pl.col("page")).alias("r"), "page")
    again = back.select(pl.col("r").uri.resolve(pl.col("page")))["r"].to_list()
    assert again == EACH
    with pytest.raises(TypeError, match="not a Expr"):
        df["href"].uri.resolve(pl.col("page"))


def test_dask_reads_a_str_as_one_base() -> None:
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import urikit.dask as ud

    refs = dd.from_pandas(pd.Series(REFS, dtype="string[pyarrow]"), npartitions=2)
    bases = dd.from_pandas(pd.Series(BASES, dtype="string[pyarrow]"), npartitions=2)
    plain = [None if v is pd.NA else v for v in ud.resolve(BASES[0], refs).compute().tolist()]
    assert plain == ONE
    each = [None if v is pd.NA else v for v in ud.resolve(bases, refs).compute().tolist()]
    assert each == EACH
    with pytest.raises(TypeError, match=NOT_A_BASE):
        ud.resolve(list(BASES), refs)


def test_dask_refuses_bases_partitioned_unlike_the_column() -> None:
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import urikit.dask as ud

    refs = dd.from_pandas(pd.Series(REFS, dtype="string[pyarrow]"), npartitions=2)
    bases = dd.from_pandas(pd.Series(BASES, dtype="string[pyarrow]"), npartitions=3)
    assert bases.npartitions == 3
    for function in (ud.resolve, ud.relativize):
        with pytest.raises(ValueError, match=r"in 3 partitions and the column in 2.*repartition"):
            function(bases, refs)
    again = bases.repartition(npartitions=2)
    assert again.npartitions == 2
    got = [None if v is pd.NA else v for v in ud.resolve(again, refs).compute().tolist()]
    assert got == EACH


def test_spark_refuses_what_is_not_a_base_before_a_job() -> None:
    pytest.importorskip("pyspark")
    import urikit.spark as us

    with pytest.raises(TypeError, match=NOT_A_BASE):
        us.resolve(5, "href")
    with pytest.raises(urikit.URIError):  # a bad base is a bad call, before any job
        us.resolve("bad uri", "href")


def test_duckdb_takes_a_rule_and_a_name_as_columns_or_constants() -> None:
    duckdb = pytest.importorskip("duckdb")
    import urikit.duckdb

    con = urikit.duckdb.register(duckdb.connect())
    urikit.duckdb.register(con)  # a second time replaces the functions
    try:
        urls = pa.table(
            {
                "url": ["http://a/?q=1&x=%41", "bad uri", None, "h", "http://h/?x"],
                "rule": ["URI", "host", "URI", None, "absolute-URI"],
                "name": ["x", "x", "x", "x", None],
            }
        )
        rows = con.sql(
            "SELECT uri_is_valid(url), uri_is_valid(url, 'host'), uri_is_valid(url, rule),"
            " uri_query_param(url, 'x'), uri_query_param(url, name) FROM urls"
        ).fetchall()
        texts = urls["url"].to_pylist()

        def param(text: str | None, name: str | None) -> str | None:
            if text is None or name is None or not urikit.is_valid(text):
                return None
            return URI(text).query_param(name)

        assert [row[0] for row in rows] == [t and urikit.is_valid(t) for t in texts]
        assert [row[1] for row in rows] == [t and urikit.is_valid(t, "host") for t in texts]
        rules = urls["rule"].to_pylist()
        assert [row[2] for row in rows] == [
            None if t is None or r is None else urikit.is_valid(t, r)
            for t, r in zip(texts, rules, strict=True)
        ]
        assert [row[3] for row in rows] == [param(t, "x") for t in texts]
        names = urls["name"].to_pylist()
        assert [row[4] for row in rows] == [param(t, n) for t, n in zip(texts, names, strict=True)]
        with pytest.raises(duckdb.Error, match="unknown rule 'nope'"):
            con.sql("SELECT uri_is_valid(url, 'nope') FROM urls").fetchall()
    finally:
        con.close()


def _octet_rows() -> Any:
    """A column of three rows, the first not UTF-8."""
    import array

    offsets = array.array("i", [0, 12, 21, 21])
    data = pa.py_buffer(b"http://a/\xff?xhttp://b/")
    return pa.Array.from_buffers(pa.string(), 3, [None, pa.py_buffer(offsets.tobytes()), data])


def test_rows_that_are_not_utf8_are_invalid_rows_in_pandas_and_dask() -> None:
    pd = pytest.importorskip("pandas")
    import urikit.pandas  # noqa: F401

    s = pd.Series(pd.arrays.ArrowExtensionArray(_octet_rows()))
    parsed = s.uri.parse().tolist()
    assert parsed[0]["valid"] is False and parsed[0]["error_rule"] == "UTF8-char"
    assert parsed[0]["error"] == "invalid UTF-8 octet 0xFF at byte 9"
    assert parsed[1]["host"] == "b" and parsed[2]["path"] == ""
    assert [None if v is pd.NA else v for v in s.uri.host().tolist()] == [None, "b", None]
    assert s.uri.is_valid().tolist() == [False, True, True]
    dd = pytest.importorskip("dask.dataframe")
    import urikit.dask as ud

    hosts = ud.host(dd.from_pandas(s, npartitions=2)).compute().tolist()
    assert [None if v is pd.NA else v for v in hosts] == [None, "b", None]


@pytest.mark.parametrize("name", ["q", "a.b", "a b", "a+b", "é", "(x", "", "a&b", "id"])
def test_query_param_answers_as_the_scalar_api_for_any_name(name: str) -> None:
    """The rows the column function leaves out hold no piece whose name decodes to
    ``name`` (RFC 3986 §3.4), whatever the name holds."""
    from urikit import arrow as ua

    texts = [
        "http://h/?q=1&a.b=2&axb=3&a+b=4&a%20b=5",
        "http://h/?%C3%A9=6&%28x=7&=8&a%26b=9",
        "http://h/?uid=1&id&id=2",
        "http://h/?aab=1&ab=2&qq=3",
        "bad uri",
        None,
    ]

    def want(text: str | None) -> str | None:
        if text is None or not urikit.is_valid(text):
            return None
        return URI(text).query_param(name)

    assert ua.query_param(pa.array(texts), name).to_pylist() == [want(t) for t in texts]
