"""urikit's column functions as DuckDB SQL functions, over :mod:`urikit.arrow`.

``urikit.duckdb.register(con)`` adds to the connection a SQL function ``uri_NAME``
for each column function of the table ``urikit._column_functions.FUNCTIONS``:
``uri_parse(url)``, the components ``uri_scheme(url)`` ... ``uri_fragment(url)``,
``uri_host_type``, ``uri_port_number``, ``uri_is_valid(url)``, ``uri_normalize(url)``,
``uri_to_uri(url)``, ``uri_resolve(base, url)``, ``uri_relativize(base, url)``,
``uri_query_param(url, name)``, ``uri_audit_codes(url)``, ``uri_registrable_domain``,
``uri_public_suffix`` and ``uri_template_match(url, templates)`` (a ``VARCHAR[]`` of
templates), and ``uri_parse_whatwg(url)`` for the URL Standard's reading (the value
``whatwg`` of ``parse``'s ``reading``, whose answer has another type): vectorized Python UDFs
that receive and return Arrow batches, with the answers of the functions of
:mod:`urikit.arrow` of the same names and their default options (the ``duckdb``
extra).  A text argument with a default (the rule of ``is_valid``) takes it; one
without (the name of ``query_param``) is a column.  A row that is not a reference
gives NULL; ``uri_parse`` says why.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from . import arrow
from ._arrow_kernel import plain_strings
from ._column_functions import FUNCTIONS as TABLE
from ._column_functions import Answer, ColumnFunction, Shape

__all__ = ["FUNCTIONS", "register"]


def _sql(result: pa.Array | pa.ChunkedArray) -> Any:
    """An answer as DuckDB reads it back: dictionaries as strings."""
    return result.cast(pa.string()) if pa.types.is_dictionary(result.type) else result


def _by_text(function: ColumnFunction, url: Any, text: Any) -> Any:
    """``column_function(url, t)`` for the rows of each distinct value ``t`` of the column
    ``text`` (a constant in SQL is a column of one value: one call); null where ``text``
    is null."""
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    text = text.combine_chunks() if isinstance(text, pa.ChunkedArray) else text
    url = url.combine_chunks() if isinstance(url, pa.ChunkedArray) else url
    values = pc.unique(text)
    if len(values) == 1 and not text.null_count:  # a constant: one call
        return column_function(url, values[0].as_py())
    answer = pa.nulls(len(url), plain_strings(arrow.TYPES[function.result], pa.string()))
    for value in values.drop_null().to_pylist():
        one = column_function(url, value)
        answer = pc.if_else(pc.equal(text, value), one.cast(answer.type), answer)
    return answer


def _by_value(function: ColumnFunction, url: Any, value: Any) -> Any:
    """``column_function(url, v)`` for the rows of each distinct list ``v`` of the column
    ``value`` (a constant list in SQL: one call); null where ``value`` is null."""
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    value = value.combine_chunks() if isinstance(value, pa.ChunkedArray) else value
    url = url.combine_chunks() if isinstance(url, pa.ChunkedArray) else url
    lists = value.to_pylist()
    distinct = {tuple(v) for v in lists if v is not None}
    if len(distinct) == 1 and not value.null_count:  # a constant: one call
        return column_function(url, list(distinct.pop()))
    type_ = plain_strings(arrow.TYPES[function.result], pa.string())
    answer = pa.nulls(len(url), type_)
    for one in distinct:
        rows = pa.array([v is not None and tuple(v) == one for v in lists], pa.bool_())
        answer = pc.if_else(rows, column_function(url, list(one)).cast(type_), answer)
    return answer


def _udf(
    function: ColumnFunction, options: dict[str, Any] | None = None
) -> tuple[Callable[..., Any], list[str]]:
    """The UDF of a column function (with ``options``, a value of its variant) and the
    names of its parameters (DuckDB counts the parameters of the Python function)."""
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    if options:
        column_function = functools.partial(column_function, **options)
    if function.shape is Shape.COLUMN_AND_VALUE:
        assert function.text is not None

        def with_value(url: Any, value: Any) -> Any:
            return _sql(_by_value(function, url, value))

        return with_value, ["url", function.text[0]]
    if function.shape is Shape.BASE_AND_COLUMN:

        def two(base: Any, url: Any) -> Any:
            return _sql(column_function(base, url))

        return two, ["base", "url"]
    if function.text is None:

        def one(url: Any) -> Any:
            return _sql(column_function(url))

        return one, ["url"]

    def with_text(url: Any, text: Any) -> Any:
        return _sql(_by_text(function, url, text))

    return with_text, ["url", function.text[0]]


def _types() -> dict[Answer, Any]:
    sql = duckdb.sqltypes

    def struct(type_: pa.StructType) -> Any:
        return duckdb.struct_type(
            {
                field.name: sql.BIGINT
                if field.type == pa.int64()
                else sql.BOOLEAN
                if field.type == pa.bool_()
                else sql.VARCHAR
                for field in type_
            }
        )

    return {
        Answer.STRING: sql.VARCHAR,
        Answer.HOST_TYPE: sql.VARCHAR,
        Answer.BOOL: sql.BOOLEAN,
        Answer.INT64: sql.BIGINT,
        Answer.STRING_LIST: duckdb.list_type(sql.VARCHAR),
        Answer.PARSE: struct(arrow.PARSE_TYPE),
        Answer.WHATWG: struct(arrow.WHATWG_TYPE),
        Answer.TEMPLATE_MATCH: struct(arrow.TEMPLATE_MATCH_TYPE),
    }


def _variants(function: ColumnFunction) -> list[tuple[str, dict[str, Any], Answer]]:
    """The SQL names of a function and the options and answer of each: ``uri_NAME``
    with the default options, and ``uri_NAME_VALUE`` for each other value of its
    variant (``uri_parse_whatwg``)."""
    found: list[tuple[str, dict[str, Any], Answer]] = [(_udf_name(function), {}, function.result)]
    if function.variant is not None:
        option, answers = function.variant
        for value, answer in answers.items():
            if value != function.defaults[option]:
                found.append((f"uri_{function.name}_{value}", {option: value}, answer))
    return found


def _functions() -> dict[str, tuple[Callable[..., Any], list[Any], Any]]:
    types = _types()
    sql = duckdb.sqltypes
    table = {}
    for function in TABLE:
        for name, options, answer in _variants(function):
            udf, parameters = _udf(function, options)
            kinds: list[Any] = [sql.VARCHAR] * len(parameters)
            if function.shape is Shape.COLUMN_AND_VALUE:
                kinds[-1] = duckdb.list_type(sql.VARCHAR)
            table[name] = (udf, kinds, types[answer])
    return table


def _udf_name(function: ColumnFunction) -> str:
    """The name of a function's UDF: ``uri_NAME``, but for a function whose text has a
    default, which a macro of that name calls with or without it."""
    if function.text is not None and function.text[1] is not None:
        return f"__urikit_{function.name}"
    return f"uri_{function.name}"


def _macros() -> dict[str, str]:
    """The macros of the functions whose text has a default: ``uri_is_valid(url)`` and
    ``uri_is_valid(url, rule)`` (a DuckDB function takes one arity, a macro several)."""
    macros = {}
    for function in TABLE:
        if function.text is not None and function.text[1] is not None:
            name, default = function.text
            udf = _udf_name(function)
            macros[f"uri_{function.name}"] = (
                f"(url) AS {udf}(url, '{default}'), (url, {name}) AS {udf}(url, {name})"
            )
    return macros


#: The names of the SQL functions :func:`register` adds.
FUNCTIONS: tuple[str, ...] = tuple(
    sorted(
        f"uri_{function.name}" if name.startswith("__") else name
        for function in TABLE
        for name, _, _ in _variants(function)
    )
)


def register(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Add urikit's SQL functions to the connection ``con`` (again: a second call
    replaces them), and return it.  The macros are temporary, so that a database file
    keeps none of them."""
    # The stubs of some DuckDB versions take only enum members for these options;
    # every version takes the strings.
    create: Any = con.create_function
    for name, (function, parameters, returns) in _functions().items():
        with contextlib.suppress(duckdb.InvalidInputException):  # not registered yet
            con.remove_function(name)
        create(
            name,
            function,
            parameters,
            returns,
            type="arrow",
            null_handling="special",
        )
    for name, overloads in _macros().items():
        con.execute(f"CREATE OR REPLACE TEMP MACRO {name}{overloads}")
    return con
