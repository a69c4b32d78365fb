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
#: The text argument given to a function of :attr:`Shape.COLUMN_AND_TEXT` or
#: :attr:`Shape.COLUMN_AND_VALUE` without a default.
TEXTS: dict[str, Any] = {
    "name": "q",
    "templates": [
        "http://{host}{/path*}{?q*}",
        "mailto:{to}",
        "//h/{p}#",
        "{scheme}:{+rest}",
        "g/{h}{?q}",
    ],
}


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

    variants = [
        f"uri_{f.name}_{value}"
        for f in FUNCTIONS
        if f.variant is not None
        for value in f.variant[1]
        if value != f.defaults[f.variant[0]]
    ]
    assert variants == ["uri_parse_whatwg"]
    names = sorted([*(f"uri_{f.name}" for f in FUNCTIONS), *variants])
    assert tuple(names) == urikit.duckdb.FUNCTIONS
    con = urikit.duckdb.register(duckdb.connect())
    try:
        urls = pa.table({"url": pa.array(ROWS, pa.string())})  # noqa: F841
        for function in FUNCTIONS:
            arguments = ["url"]
            if function.shape is Shape.BASE_AND_COLUMN:
                arguments.insert(0, f"'{BASE}'")
            if function.shape is Shape.COLUMN_AND_VALUE:
                assert function.text is not None
                texts = ", ".join(f"'{t}'" for t in TEXTS[function.text[0]])
                arguments.append(f"[{texts}]")
            elif function.text is not None and function.text[1] is None:
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


def _whatwg(text: str | None) -> Any:
    """The struct of ``parse(col, reading="whatwg")`` for ``text``, from the scalar API."""
    from urikit import whatwg

    if text is None:
        return None
    try:
        values = whatwg.components(text)
    except URIError as error:
        return {
            **dict.fromkeys(ua.WHATWG_COMPONENTS),
            "valid": False,
            "error_position": error.position,
            "error": error.reason,
            "error_rule": error.rule,
        }
    return {
        **dict(zip(ua.WHATWG_COMPONENTS, values, strict=True)),
        "valid": True,
        **dict.fromkeys(("error_position", "error", "error_rule")),
    }


def test_the_whatwg_reading_of_parse_in_every_adapter(kernel: str) -> None:
    """``reading="whatwg"``: the URL Standard's getters (§6.1) for each row, its
    validation error for input its basic URL parser fails on (§4.4), never mixed
    with RFC 3986's reading."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    import urikit.duckdb
    import urikit.pandas
    import urikit.polars

    want = [_whatwg(text) for text in ROWS]
    got = ua.parse(pa.array(ROWS, pa.string()), reading="whatwg")
    assert got.type == ua.WHATWG_TYPE
    assert got.to_pylist() == want
    assert want[2] is not None and want[2]["host"] == "[2001:db8::1]"  # https default port, §4.4
    assert want[6] is not None and want[6]["error_rule"] == "missing-scheme-non-relative-URL"
    fields = ua.parse(pa.array(ROWS), reading="whatwg", fields=["hostname", "error_rule"])
    assert fields.to_pylist() == [
        None if w is None else {"hostname": w["hostname"], "error_rule": w["error_rule"]}
        for w in want
    ]
    with pytest.raises(URIError, match="row 4: the input has no scheme"):
        ua.parse(pa.array(ROWS), reading="whatwg", errors="raise")
    with pytest.raises(ValueError, match="reading must be one of"):
        ua.parse(pa.array(ROWS), reading="html")
    with pytest.raises(ValueError, match="RFC 3987"):
        ua.parse(pa.array(ROWS), reading="whatwg", iri=True)
    with pytest.raises(ValueError, match="fields must name"):
        ua.parse(pa.array(ROWS), reading="whatwg", fields=["scheme"])
    series = pl.Series("url", ROWS, dtype=pl.String)
    assert [_plain(v) for v in series.uri.parse(reading="whatwg").to_list()] == want
    frame = pl.DataFrame({"url": ROWS}, schema={"url": pl.String})
    expression = pl.col("url").uri.parse(reading="whatwg").alias("x")
    assert frame.select(expression)["x"].to_list() == want
    s = pd.Series(ROWS, dtype="string[pyarrow]")
    assert [_plain(v) for v in s.uri.parse(reading="whatwg").tolist()] == want
    con = urikit.duckdb.register(duckdb.connect())
    try:
        urls = pa.table({"url": pa.array(ROWS, pa.string())})  # noqa: F841
        rows = con.sql("SELECT uri_parse_whatwg(url) FROM urls").fetchall()
        assert [row for (row,) in rows] == want
    finally:
        con.close()


def test_template_match_takes_a_router_and_refuses_a_bad_template(kernel: str) -> None:
    """A ``Router`` is used as given (its ``allow_dot_segments`` too); a malformed
    template is a bad call (RFC 6570 §2), not a bad row."""
    from urikit.template import Router, TemplateError

    column = pa.array(["/files/..", "/files/a", None, "/other"])
    plain = ua.template_match(column, ["/files/{name}"])
    assert plain.to_pylist() == [None, {"index": 0, "variables": '{"name":"a"}'}, None, None]
    router = Router(["/other", "/files/{name}"], allow_dot_segments=True)
    assert ua.template_match(column, router).to_pylist() == [
        {"index": 1, "variables": '{"name":".."}'},
        {"index": 1, "variables": '{"name":"a"}'},
        None,
        {"index": 0, "variables": "{}"},
    ]
    with pytest.raises(TemplateError):
        ua.template_match(column, ["/files/{name"])
    with pytest.raises(TypeError, match="sequence of templates"):
        ua.template_match(column, "/files/{name}")
    octets = pa.array([b"/files/\xff"], pa.binary()).view(pa.string())
    assert ua.template_match(octets, ["{+x}"]).to_pylist() == [None]
    with pytest.raises(URIError, match="row 0: invalid UTF-8"):
        ua.template_match(octets, ["{+x}"], errors="raise")


def test_sites_of_the_hosts_of_rows(kernel: str) -> None:
    """The host of each row, read by the scanner (RFC 3986 §3.2.2), then the Public
    Suffix List: a row without a host, an IP address or a bare suffix gives null."""
    column = pa.array(
        [
            "https://www.Example.CO.UK/a",
            "http://a.github.io/",
            "http://192.0.2.1/",
            "http://[::1]/",
            "mailto:x@y.example",
            "http://co.uk/",
            "http://%65xample.com/",
            "bad uri",
            None,
        ]
    )
    assert ua.registrable_domain(column).to_pylist() == [
        "example.co.uk", "a.github.io", None, None, None, None, "example.com", None, None,
    ]  # fmt: skip
    assert ua.registrable_domain(column, private=False).to_pylist()[1] == "github.io"
    assert ua.public_suffix(column).to_pylist() == [
        "co.uk", "github.io", None, None, None, "co.uk", "com", None, None,
    ]  # fmt: skip
    with pytest.raises(URIError, match="row 7: "):
        ua.public_suffix(column, errors="raise")
