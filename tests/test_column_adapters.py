"""The polars, pandas and DuckDB adapters answer as the scalar API, on both kernels."""

from __future__ import annotations

from typing import Any

import pytest
from test_arrow import ROWS, kernel, port_number, scalar  # noqa: F401

from urikit import URI, normalize
from urikit._arrow_kernel import COMPONENTS

pytest.importorskip("pyarrow")


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
