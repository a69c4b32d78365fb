"""The ``uri`` accessor of pandas series, over :mod:`urikit.arrow`.

``import urikit.pandas`` registers it: ``s.uri.host()``, ``s.uri.parse()``.  It has
a method for each column function of the table ``urikit._column_functions.FUNCTIONS``:
the function of :mod:`urikit.arrow` of the same name, with the same arguments after
the column (the base before it, for ``resolve`` and ``relativize``) and the same
answers, as a series on the same index with an Arrow dtype (the ``pandas`` extra).
pandas does not hold ``string_view``, so strings come back as ``large_string``, the
type of ``string[pyarrow]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd  # type: ignore[import-untyped,unused-ignore]
import pyarrow as pa  # type: ignore[import-untyped]

from . import arrow
from ._arrow_kernel import plain_strings
from ._column_functions import FUNCTIONS, ColumnFunction, Shape

__all__ = ["UriAccessor"]


class UriAccessor:
    """``.uri``: the column functions of :mod:`urikit.arrow` on a pandas series."""

    def __init__(self, series: pd.Series) -> None:
        self._series = series

    def _apply(self, call: Callable[[Any], Any]) -> pd.Series:
        s = self._series
        column = (
            pa.array(s.array) if isinstance(s.dtype, pd.ArrowDtype) else pa.array(s, pa.string())
        )
        result = call(column)
        result = result.cast(plain_strings(result.type, pa.large_string()))
        return pd.Series(pd.arrays.ArrowExtensionArray(result), index=s.index, name=s.name)

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Callable[..., pd.Series]:
            """The methods, one per column function, made when the module is imported."""
            raise AttributeError(name)


def _method(function: ColumnFunction) -> Callable[..., pd.Series]:
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    before = 1 if function.shape is Shape.BASE_AND_COLUMN else 0

    def method(self: UriAccessor, *args: Any, **kw: Any) -> pd.Series:
        return self._apply(lambda col: column_function(*args[:before], col, *args[before:], **kw))

    method.__name__ = method.__qualname__ = function.name
    method.__doc__ = function.doc
    return method


for _function in FUNCTIONS:
    setattr(UriAccessor, _function.name, _method(_function))

pd.api.extensions.register_series_accessor("uri")(UriAccessor)
