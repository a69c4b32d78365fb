"""urikit's column functions as DuckDB SQL functions, over :mod:`urikit.arrow`.

``urikit.duckdb.register(con)`` adds to the connection ``uri_parse(url)``, the
components ``uri_scheme(url)`` ... ``uri_fragment(url)``, ``uri_host_type``,
``uri_port_number``, ``uri_is_valid(url)``, ``uri_normalize(url)``,
``uri_to_uri(url)``, ``uri_resolve(base, url)``, ``uri_relativize(base, url)``,
``uri_query_param(url, name)`` and ``uri_audit_codes(url)``: vectorized Python
UDFs that receive and return Arrow batches, with the answers of the functions of
:mod:`urikit.arrow` of the same names (the ``duckdb`` extra).  A row that is not
a reference gives NULL; ``uri_parse`` says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]

from . import arrow
from ._arrow_kernel import COMPONENTS

__all__ = ["FUNCTIONS", "register"]


def _one(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A one-column UDF (DuckDB counts the parameters of the Python function)."""

    def one(url: Any) -> Any:
        result = function(url)
        return result.cast(pa.string()) if pa.types.is_dictionary(result.type) else result

    return one


def _pairs(function: Callable[[str, str], Any]) -> Callable[[Any, Any], Any]:
    """A two-column UDF from a function of two texts, row by row."""

    def pairs(first: Any, second: Any) -> Any:
        answers = [
            None if a is None or b is None else function(a, b)
            for a, b in zip(first.to_pylist(), second.to_pylist(), strict=True)
        ]
        return pa.array(answers, pa.string())

    return pairs


def _query_param(url: str, name: str) -> Any:
    return arrow.query_param(pa.array([url]), name)[0].as_py()


def _resolve(base: str, url: str) -> Any:
    return arrow.resolve(pa.array([base]), pa.array([url]))[0].as_py()


def _relativize(base: str, url: str) -> Any:
    return arrow.relativize(pa.array([base]), pa.array([url]))[0].as_py()


def _functions() -> dict[str, tuple[Callable[..., Any], list[str], Any]]:
    sql = duckdb.sqltypes
    parse_type = duckdb.struct_type(
        {
            **{name: sql.VARCHAR for name in COMPONENTS},
            "valid": sql.BOOLEAN,
            "error_position": sql.BIGINT,
            "error": sql.VARCHAR,
            "error_rule": sql.VARCHAR,
        }
    )
    one = ["url"]
    table: dict[str, tuple[Callable[..., Any], list[str], Any]] = {
        "uri_parse": (_one(arrow.parse), one, parse_type),
        "uri_host_type": (_one(arrow.host_type), one, sql.VARCHAR),
        "uri_port_number": (_one(arrow.port_number), one, sql.BIGINT),
        "uri_is_valid": (_one(arrow.is_valid), one, sql.BOOLEAN),
        "uri_normalize": (_one(arrow.normalize), one, sql.VARCHAR),
        "uri_to_uri": (_one(arrow.to_uri), one, sql.VARCHAR),
        "uri_audit_codes": (_one(arrow.audit_codes), one, duckdb.list_type(sql.VARCHAR)),
        "uri_resolve": (_pairs(_resolve), ["base", "url"], sql.VARCHAR),
        "uri_relativize": (_pairs(_relativize), ["base", "url"], sql.VARCHAR),
        "uri_query_param": (_pairs(_query_param), ["url", "name"], sql.VARCHAR),
    }
    for name in COMPONENTS:
        table[f"uri_{name}"] = (_one(getattr(arrow, name)), one, sql.VARCHAR)
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
