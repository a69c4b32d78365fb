"""Every row of the table of column functions is a function of every column adapter, with
the same parameters and the same meaning: its answer for each row is the row's scalar
function's (null where that raises ``URIError``).

The adapters are ``urikit.arrow`` (on both kernels), polars, pandas, DuckDB, Dask and
Spark; Spark's functions are checked here for their parameters (its answers, on a
local cluster, in ``tests/test_spark.py``).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")

from urikit import URI, URIError  # noqa: E402
from urikit import _arrow_kernel as kernels  # noqa: E402
from urikit import arrow as ua  # noqa: E402
from urikit._column_functions import FUNCTIONS, Answer, ColumnFunction, Shape  # noqa: E402

BASE = "http://a/b/c/d;p?q"
ROWS: list[str | None] = [
    "http://User@Example.COM:80/a/./b/../c?q=1&q=2#f",
    None,
    "https://[2001:DB8::1]:0443/%7e",
    "mailto:A@B.COM",
    "g/h?q=x%20y",
    "../g",
    "bad uri",
    "http://résumé.example/ü?q=ü",
    "http://h:99999/",
    "",
    "javascript:alert(1)",
    "//h/p#",
]
#: The text argument given to a function of :attr:`Shape.COLUMN_AND_TEXT` without a default.
TEXTS = {"name": "q"}


@pytest.fixture(params=["compiled", "pure"])
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "compiled":
        try:
            from urikit import _columns
        except ImportError:
            pytest.skip("urikit._columns is not built")
        monkeypatch.setattr(kernels, "KERNEL", kernels.CompiledKernel(_columns))
    else:
        monkeypatch.setattr(kernels, "KERNEL", kernels.PureKernel())
    yield request.param


def _text(function: ColumnFunction) -> tuple[Any, ...]:
    if function.text is None:
        return ()
    name, default = function.text
    return (TEXTS[name] if default is None else default,)


def _plain(value: Any) -> Any:
    """An answer as Python data: nulls as None, structs as dicts, lists as lists."""
    if value is None or repr(value) in ("<NA>", "nan", "NaT"):
        return None
    if hasattr(value, "as_py"):
        return value.as_py()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def expected(function: ColumnFunction, text: str | None) -> Any:
    """The row's answer by the function's scalar function, with its default options."""
    if text is None:
        return None
    options = {k: v for k, v in function.defaults.items() if k not in ("errors", "fields")}
    head = (BASE,) if function.shape is Shape.BASE_AND_COLUMN else ()
    try:
        value = function.scalar(*head, text, *_text(function), **options)
    except URIError as error:
        if function.result is not Answer.PARSE:
            return None
        return {"valid": False, "error_position": error.position}
    if function.result is Answer.PARSE:
        return {"valid": True, **{name: getattr(value, name) for name in kernels.COMPONENTS}}
    return value


def _comparable(function: ColumnFunction, answer: Any) -> Any:
    """``parse``'s struct reduced to what :func:`expected` says of it."""
    answer = _plain(answer)
    if function.result is not Answer.PARSE or answer is None:
        return answer
    if not answer["valid"]:
        return {"valid": False, "error_position": answer["error_position"]}
    return {"valid": True, **{name: answer[name] for name in kernels.COMPONENTS}}


def _call(function: ColumnFunction, adapter: Any, column: Any) -> Any:
    head = (BASE,) if function.shape is Shape.BASE_AND_COLUMN else ()
    return getattr(adapter, function.name)(*head, column, *_text(function))


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_the_scalar_function_has_the_defaults_of_the_options(function: ColumnFunction) -> None:
    """The options left at their defaults are not passed to the scalar function."""
    parameters = inspect.signature(function.scalar).parameters
    for name, default in function.defaults.items():
        if name in parameters:
            assert parameters[name].default == default, (function.name, name)
        elif name not in ("errors", "fields"):
            assert any(p.kind is p.VAR_KEYWORD for p in parameters.values()), name
    assert not any(
        p.default is not p.empty for p in parameters.values() if p.name not in function.defaults
    )


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_arrow_builds_every_row(kernel: str, function: ColumnFunction) -> None:
    built = getattr(ua, function.name)
    assert function.name in ua.__all__
    assert inspect.signature(built) == function.signature()
    assert built.__doc__ == function.doc
    got = _call(function, ua, pa.array(ROWS, pa.string()))
    assert got.type == ua.TYPES[function.result] or pa.types.is_dictionary(got.type)
    want = [expected(function, text) for text in ROWS]
    assert [_comparable(function, v) for v in got.to_pylist()] == want


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_polars_builds_every_row(function: ColumnFunction) -> None:
    pl = pytest.importorskip("polars")
    import urikit.polars  # noqa: F401

    series = pl.Series("url", ROWS, dtype=pl.String)
    head = (BASE,) if function.shape is Shape.BASE_AND_COLUMN else ()
    from_series = getattr(series.uri, function.name)(*head, *_text(function)).to_list()
    frame = pl.DataFrame({"url": ROWS}, schema={"url": pl.String})
    expression = getattr(pl.col("url").uri, function.name)(*head, *_text(function))
    from_expression = frame.select(expression.alias("x"))["x"].to_list()
    want = [expected(function, text) for text in ROWS]
    assert [_comparable(function, v) for v in from_series] == want
    assert [_comparable(function, v) for v in from_expression] == want


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_pandas_builds_every_row(function: ColumnFunction) -> None:
    pd = pytest.importorskip("pandas")
    import urikit.pandas  # noqa: F401

    series = pd.Series(ROWS, dtype="string[pyarrow]", index=range(5, 5 + len(ROWS)))
    head = (BASE,) if function.shape is Shape.BASE_AND_COLUMN else ()
    got = getattr(series.uri, function.name)(*head, *_text(function))
    assert list(got.index) == list(series.index)
    want = [expected(function, text) for text in ROWS]
    assert [_comparable(function, v) for v in got.tolist()] == want


def test_duckdb_builds_every_row() -> None:
    duckdb = pytest.importorskip("duckdb")
    import urikit.duckdb

    assert tuple(sorted(f"uri_{f.name}" for f in FUNCTIONS)) == urikit.duckdb.FUNCTIONS
    con = urikit.duckdb.register(duckdb.connect())
    try:
        urls = pa.table({"url": pa.array(ROWS, pa.string())})  # noqa: F841
        for function in FUNCTIONS:
            arguments = ["url"]
            if function.shape is Shape.BASE_AND_COLUMN:
                arguments.insert(0, f"'{BASE}'")
            if function.text is not None and function.text[1] is None:
                arguments.append(f"'{TEXTS[function.text[0]]}'")
            sql = f"SELECT uri_{function.name}({', '.join(arguments)}) FROM urls"
            got = [_comparable(function, row) for (row,) in con.sql(sql).fetchall()]
            assert got == [expected(function, text) for text in ROWS], function.name
    finally:
        con.close()


def test_dask_builds_every_row() -> None:
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import urikit.dask as ud

    series = dd.from_pandas(pd.Series(ROWS, dtype="string[pyarrow]", name="url"), npartitions=3)
    for function in FUNCTIONS:
        built = getattr(ud, function.name)
        assert function.name in ud.__all__
        if function.result is Answer.PARSE:
            got = built(series).compute(scheduler="sync")
            answers = [
                None if text is None else {f: got[f].iloc[i] for f in got.columns}
                for i, text in enumerate(ROWS)
            ]
        else:
            assert inspect.signature(built) == function.signature(local=False)
            head = (URI(BASE),) if function.shape is Shape.BASE_AND_COLUMN else ()
            got = built(*head, series, *_text(function)).compute(scheduler="sync")
            answers = got.tolist()
        want = [expected(function, text) for text in ROWS]
        assert [_comparable(function, v) for v in answers] == want, function.name


def test_spark_builds_every_row() -> None:
    pytest.importorskip("pyspark")
    import urikit.spark as us

    for function in FUNCTIONS:
        built = getattr(us, function.name)
        assert function.name in us.__all__
        assert us.TYPES[function.result] is not None
        if function.result is not Answer.PARSE:
            assert inspect.signature(built) == function.signature(local=False)
