"""The ``uri`` namespace of polars expressions and series, over :mod:`urikit.arrow`.

``import urikit.polars`` registers it: ``pl.col("url").uri.host()``,
``df["url"].uri.parse()``.  It has a method for each column function of the table
``urikit._column_functions.FUNCTIONS``: the function of :mod:`urikit.arrow` of the
same name, with the same arguments after the column (the base before it, for
``resolve`` and ``relativize``) and the same answers (the ``polars`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow as pa  # type: ignore[import-untyped]

from . import arrow
from ._arrow_kernel import plain_strings
from ._column_functions import FUNCTIONS, ColumnFunction, Shape

__all__ = ["UriNamespace"]


def _series(result: Any, name: str) -> pl.Series:
    if isinstance(result, (pa.Array, pa.ChunkedArray)) and pa.types.is_dictionary(result.type):
        result = result.cast(pa.string())
    series = pl.from_arrow(result)
    assert isinstance(series, pl.Series)
    return series.alias(name)


class UriNamespace:
    """``.uri``: the column functions of :mod:`urikit.arrow` on a polars column."""

    def __init__(self, column: pl.Expr | pl.Series) -> None:
        self._column = column

    def _apply(self, call: Callable[[Any], Any], dtype: Any) -> Any:
        def batch(series: pl.Series) -> pl.Series:
            return _series(call(series), series.name)

        if isinstance(self._column, pl.Series):
            return batch(self._column)
        return self._column.map_batches(batch, return_dtype=dtype)

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Callable[..., Any]:
            """The methods, one per column function, made when the module is imported."""
            raise AttributeError(name)


def _method(function: ColumnFunction) -> Callable[..., Any]:
    """The method of the column function: the arguments are checked, and the answer's
    type found, on an empty column when the method is called."""
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    before = 1 if function.shape is Shape.BASE_AND_COLUMN else 0

    def method(self: UriNamespace, *args: Any, **kw: Any) -> Any:
        head, rest = args[:before], args[before:]
        if head and isinstance(head[0], (pl.Expr, pl.Series)):
            return _against_bases(self._column, head[0], rest, kw)

        def call(col: Any) -> Any:
            return column_function(*head, col, *rest, **kw)

        empty = call(pa.array([], pa.string()))
        dtype = pl.Series(empty.cast(plain_strings(empty.type, pa.string()))).dtype
        return self._apply(call, dtype)

    def _against_bases(column: Any, bases: Any, rest: tuple[Any, ...], kw: Any) -> Any:
        """The function against a column of bases, row by row: a series against a
        series, an expression against an expression."""
        if isinstance(column, pl.Series) != isinstance(bases, pl.Series):
            raise TypeError(
                f"the bases of a {type(column).__name__} are one reference or a"
                f" {type(column).__name__}, not a {type(bases).__name__}"
            )

        def call(base: Any, col: Any) -> Any:
            return column_function(base, col, *rest, **kw)

        empty = pa.array([], pa.string())
        answer = call(empty, empty)
        dtype = pl.Series(answer.cast(plain_strings(answer.type, pa.string()))).dtype
        if isinstance(column, pl.Series):
            return _series(call(bases, column), column.name)

        def batch(series: Sequence[pl.Series]) -> pl.Series:
            return _series(call(series[0], series[1]), series[1].name)

        name = column.meta.output_name(raise_if_undetermined=False)
        together = pl.map_batches([bases, column], batch, return_dtype=dtype)
        return together if name is None else together.alias(name)

    method.__name__ = method.__qualname__ = function.name
    method.__doc__ = function.doc
    return method


for _function in FUNCTIONS:
    setattr(UriNamespace, _function.name, _method(_function))

pl.api.register_expr_namespace("uri")(UriNamespace)
pl.api.register_series_namespace("uri")(UriNamespace)
