"""urikit's column functions as DuckDB SQL functions, over :mod:`urikit.arrow`.

``urikit.duckdb.register(con)`` adds to the connection a SQL function ``uri_NAME``
for each column function of the table ``urikit._column_functions.FUNCTIONS``:
``uri_parse(url)``, the components ``uri_scheme(url)`` ... ``uri_fragment(url)``,
``uri_host_type``, ``uri_port_number``, ``uri_is_valid(url)``, ``uri_normalize(url)``,
``uri_to_uri(url)``, ``uri_resolve(base, url)``, ``uri_relativize(base, url)``,
``uri_query_param(url, name)`` and ``uri_audit_codes(url)``: vectorized Python UDFs
that receive and return Arrow batches, with the answers of the functions of
:mod:`urikit.arrow` of the same names and their default options (the ``duckdb``
extra).  A text argument with a default (the rule of ``is_valid``) takes it; one
without (the name of ``query_param``) is a column.  A row that is not a reference
gives NULL; ``uri_parse`` says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]

from . import URIError, arrow
from ._column_functions import FUNCTIONS as TABLE
from ._column_functions import Answer, ColumnFunction, Shape

__all__ = ["FUNCTIONS", "register"]


def _sql(result: pa.Array | pa.ChunkedArray) -> Any:
    """An answer as DuckDB reads it back: dictionaries as strings."""
    return result.cast(pa.string()) if pa.types.is_dictionary(result.type) else result


def _udf(function: ColumnFunction) -> tuple[Callable[..., Any], list[str]]:
    """The UDF of a column function and the names of its parameters (DuckDB counts
    the parameters of the Python function)."""
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    if function.shape is Shape.BASE_AND_COLUMN:

        def two(base: Any, url: Any) -> Any:
            return _sql(column_function(base, url))

        return two, ["base", "url"]
    if function.text is None or function.text[1] is not None:

        def one(url: Any) -> Any:
            return _sql(column_function(url))

        return one, ["url"]

    def row_by_row(url: Any, text: Any) -> Any:
        answers = []
        for a, b in zip(url.to_pylist(), text.to_pylist(), strict=True):
            try:
                answers.append(None if a is None or b is None else function.scalar(a, b))
            except URIError:
                answers.append(None)
        return pa.array(answers, pa.string())

    return row_by_row, ["url", function.text[0]]


def _types() -> dict[Answer, Any]:
    sql = duckdb.sqltypes
    parse = duckdb.struct_type(
        {
            field.name: sql.BIGINT
            if field.type == pa.int64()
            else sql.BOOLEAN
            if field.type == pa.bool_()
            else sql.VARCHAR
            for field in arrow.PARSE_TYPE
        }
    )
    return {
        Answer.STRING: sql.VARCHAR,
        Answer.HOST_TYPE: sql.VARCHAR,
        Answer.BOOL: sql.BOOLEAN,
        Answer.INT64: sql.BIGINT,
        Answer.STRING_LIST: duckdb.list_type(sql.VARCHAR),
        Answer.PARSE: parse,
    }


def _functions() -> dict[str, tuple[Callable[..., Any], list[str], Any]]:
    types = _types()
    table = {}
    for function in TABLE:
        udf, parameters = _udf(function)
        table[f"uri_{function.name}"] = (udf, parameters, types[function.result])
    return table


#: The names of the SQL functions :func:`register` adds.
FUNCTIONS: tuple[str, ...] = tuple(sorted(_functions()))


def register(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Add urikit's SQL functions to the connection ``con``, and return it."""
    # The stubs of some DuckDB versions take only enum members for these options;
    # every version takes the strings.
    create: Any = con.create_function
    for name, (function, parameters, returns) in _functions().items():
        create(
            name,
            function,
            [duckdb.sqltypes.VARCHAR] * len(parameters),
            returns,
            type="arrow",
            null_handling="special",
        )
    return con
