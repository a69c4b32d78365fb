"""urikit's column functions on Dask series, over :mod:`urikit.arrow`.

Each function takes a Dask ``Series`` of strings and returns one, partition by
partition (``map_partitions``), with its ``meta`` declared: the answers of the
function of :mod:`urikit.arrow` of the same name, as the ``uri`` accessor of
:mod:`urikit.pandas` gives them (Arrow dtypes, strings as ``large_string``, on
the partition's index).  There is one function for each column function of the
table ``urikit._column_functions.FUNCTIONS``, with its options but those of one
process (``errors``, a ``registry``); a base (``resolve``, ``relativize``) is one
reference (a ``str``, ``URI`` or ``IRI``) for every row, as in every adapter, or a
series of references partitioned as the column, row by row (a series in another
number of partitions is refused with a ``ValueError`` before the graph is built).

Nulls in, nulls out; a row that is not a reference gives null, and :func:`parse`
says where and why.  Needs dask[dataframe] (the ``dask`` extra) and urikit on every
worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import dask.dataframe as dd
import pandas as pd  # type: ignore[import-untyped,unused-ignore]
import pyarrow as pa  # type: ignore[import-untyped]

from . import IRI, URI
from ._arrow_kernel import COMPONENTS
from ._column_functions import FUNCTIONS, Answer, Call, ColumnFunction
from .arrow import WHATWG_COMPONENTS
from .pandas import UriAccessor

__all__ = [
    "PARSE_TYPE",
    "TEMPLATE_MATCH_TYPE",
    "WHATWG_TYPE",
    *sorted(function.name for function in FUNCTIONS),
]

#: The columns of :func:`parse`'s answers, and their Arrow types.
PARSE_TYPE: Final = pa.struct(
    [
        *((name, pa.large_string()) for name in COMPONENTS),
        ("valid", pa.bool_()),
        ("error_position", pa.int64()),
        ("error", pa.large_string()),
        ("error_rule", pa.large_string()),
    ]
)
#: The columns of ``parse(col, reading="whatwg")``: the URL Standard's getters,
#: ``valid`` and the error.
WHATWG_TYPE: Final = pa.struct(
    [
        *((name, pa.large_string()) for name in WHATWG_COMPONENTS),
        *list(PARSE_TYPE)[len(COMPONENTS) :],
    ]
)
#: The type of :func:`template_match`: the index of the template and its variables as
#: a JSON object.
TEMPLATE_MATCH_TYPE: Final = pa.struct([("index", pa.int64()), ("variables", pa.large_string())])
#: The Arrow type of each kind of answer, as the ``uri`` accessor gives it.
TYPES: Final = {
    Answer.STRING: pa.large_string(),
    Answer.HOST_TYPE: pa.large_string(),
    Answer.BOOL: pa.bool_(),
    Answer.INT64: pa.int64(),
    Answer.STRING_LIST: pa.list_(pa.string()),
    Answer.PARSE: PARSE_TYPE,
    Answer.WHATWG: WHATWG_TYPE,
    Answer.TEMPLATE_MATCH: TEMPLATE_MATCH_TYPE,
}


def _meta(name: Any, type_: pa.DataType) -> pd.Series:
    return pd.Series([], dtype=pd.ArrowDtype(type_), name=name)


def _method(series: pd.Series, method: str, *args: Any, **kw: Any) -> pd.Series:
    """The ``uri`` accessor's ``method`` on one partition."""
    return getattr(UriAccessor(series), method)(*args, **kw)


def _pairs(base: pd.Series, series: pd.Series, method: str, *args: Any, **kw: Any) -> pd.Series:
    return _method(series, method, pa.array(base, pa.string()), *args, **kw)


def _fields(series: pd.Series, iri: bool, reading: str = "rfc3986") -> pd.DataFrame:
    return UriAccessor(series).parse(iri=iri, reading=reading).struct.explode()


def parse(col: dd.Series, *, iri: bool = False, reading: str = "rfc3986") -> Any:
    """Each row taken apart: a Dask ``DataFrame`` with a column per field of
    :data:`PARSE_TYPE`, the 8 components, ``valid``, and for a row that is not a
    reference ``error_position``, ``error`` and ``error_rule`` (all null for a null
    row); with ``reading="whatwg"``, the fields of :data:`WHATWG_TYPE`, the URL
    Standard's getters; see :func:`urikit.arrow.parse`."""
    _fields(pd.Series([], dtype="string[pyarrow]"), iri, reading)  # a bad call fails now
    type_ = WHATWG_TYPE if reading == "whatwg" else PARSE_TYPE
    meta = pd.DataFrame({f.name: _meta(f.name, f.type) for f in type_})
    partitions: Any = col.map_partitions
    return partitions(_fields, iri, reading, meta=meta)


def _function(function: ColumnFunction) -> Callable[..., Any]:
    """The Dask function of a column function; the options are checked on an empty
    partition when it is called, so that a bad call fails before the graph runs."""
    name = function.name
    type_ = TYPES[function.result]

    def dask_function(call: Call) -> Any:
        text, options, col = call.text, call.options, call.col
        empty = pd.Series([], dtype="string[pyarrow]")
        meta = _meta(col.name, type_)
        if call.base is None or isinstance(call.base, (str, URI, IRI)):
            before = () if call.base is None else (str(call.base),)
            _method(empty, name, *before, *text, **options)
            partitions: Any = col.map_partitions  # dask's API is not typed
            return partitions(_method, name, *before, *text, meta=meta, **options)
        if not isinstance(call.base, dd.Series):
            raise TypeError(
                "base is one reference (a str, URI or IRI) for every row, or a Dask"
                f" Series of them row by row, not {type(call.base).__name__}"
            )
        if call.base.npartitions != col.npartitions:
            raise ValueError(
                f"the bases are in {call.base.npartitions} partitions and the column in"
                f" {col.npartitions}: a Series of bases is read row by row, partition by"
                " partition, so it must be partitioned as the column"
                " (bases.repartition(npartitions=...) or build both from one frame)"
            )
        _pairs(empty, empty, name, *text, **options)
        pairs: Any = dd.map_partitions
        return pairs(_pairs, call.base, col, name, *text, meta=meta, **options)

    return function.adapt(dask_function, local=False)


#: The Dask function of each column function, by name; :func:`parse` gives a frame of
#: the fields.
FUNCTIONS_BY_NAME: Final[dict[str, Callable[..., Any]]] = {
    function.name: parse if function.result is Answer.PARSE else _function(function)
    for function in FUNCTIONS
}
globals().update(FUNCTIONS_BY_NAME)

if TYPE_CHECKING:

    def __getattr__(name: str) -> Callable[..., Any]:
        """The functions, built from the table at import."""
        raise AttributeError(name)
