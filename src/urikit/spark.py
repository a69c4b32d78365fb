"""urikit's column functions on Spark columns, over :mod:`urikit.arrow`.

Each function takes Spark ``Column`` s (or column names) and returns a ``Column``
whose type is declared, so Spark never infers a schema.  Rows travel to the
Python workers as Arrow batches (Spark's ``arrow_udf``), and each batch is
answered by the function of :mod:`urikit.arrow` of the same name, with the same
answers as the scalar API: the compiled column kernel when the workers have the
wheel for their platform (``urikit.compiled`` tells), the same answers from
Python otherwise.  There is one function for each column function of the table
``urikit._column_functions.FUNCTIONS``, with its options but those of one process
(``errors``, a ``registry``); a base (``resolve``, ``relativize``) is one reference
(a ``str``, ``URI`` or ``IRI``) for every row, as in every adapter, or a ``Column``
of references, row by row (``F.col(name)``: a base ``str`` is a reference, never a
column's name); the text argument of ``is_valid`` and ``query_param`` is one value
for every row.

Nulls in, nulls out.  A row that is not a reference never fails a job: it gives
null, and :func:`parse` says where and why in ``valid``, ``error_position``,
``error`` and ``error_rule``.  ``docs/distributed.md`` has the schema of every
column and how to ship urikit to a cluster.  Needs pyspark 4.1 or later (the
``spark`` extra) and urikit on every worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeAlias

import pyarrow as pa  # type: ignore[import-untyped]
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as T
from pyspark.sql.pandas.functions import arrow_udf

from . import IRI, URI, arrow
from ._arrow_kernel import COMPONENTS, plain_strings
from ._column_functions import FUNCTIONS, Answer, Call, ColumnFunction
from .arrow import WHATWG_COMPONENTS

__all__ = [
    "PARSE_TYPE",
    "TEMPLATE_MATCH_TYPE",
    "WHATWG_TYPE",
    *sorted(function.name for function in FUNCTIONS),
]

ColumnOrName: TypeAlias = "Column | str"

#: The type of :func:`parse`: the 8 components, ``valid`` and the error of a bad row.
PARSE_TYPE: Final = T.StructType(
    [
        *(T.StructField(name, T.StringType()) for name in COMPONENTS),
        T.StructField("valid", T.BooleanType()),
        T.StructField("error_position", T.LongType()),
        T.StructField("error", T.StringType()),
        T.StructField("error_rule", T.StringType()),
    ]
)
#: The type of ``parse(col, reading="whatwg")``: the URL Standard's getters, ``valid``
#: and the error of input its parser fails on (``error_rule``: the validation error).
WHATWG_TYPE: Final = T.StructType(
    [
        *(T.StructField(name, T.StringType()) for name in WHATWG_COMPONENTS),
        *PARSE_TYPE.fields[len(COMPONENTS) :],
    ]
)
#: The type of :func:`template_match`: the index of the template and its variables as
#: a JSON object.
TEMPLATE_MATCH_TYPE: Final = T.StructType(
    [T.StructField("index", T.LongType()), T.StructField("variables", T.StringType())]
)
#: The Spark type of each kind of answer.
TYPES: Final = {
    Answer.STRING: T.StringType(),
    Answer.HOST_TYPE: T.StringType(),
    Answer.BOOL: T.BooleanType(),
    Answer.INT64: T.LongType(),
    Answer.STRING_LIST: T.ArrayType(T.StringType()),
    Answer.PARSE: PARSE_TYPE,
    Answer.WHATWG: WHATWG_TYPE,
    Answer.TEMPLATE_MATCH: TEMPLATE_MATCH_TYPE,
}


def _as_spark(result: Any) -> Any:
    return result.cast(plain_strings(result.type, pa.string()))


def _column(col: ColumnOrName) -> Column:
    return F.col(col) if isinstance(col, str) else col


def _udf(
    function: Callable[..., Any], returns: T.DataType, *cols: ColumnOrName, name: str
) -> Column:
    """``function`` of Arrow arrays applied to ``cols``, batch by batch."""

    def batch(*arrays: pa.Array) -> pa.Array:
        return _as_spark(function(*arrays))

    batch.__name__ = f"uri_{name}"
    udf = arrow_udf(batch, returns)  # type: ignore[call-overload]
    column: Column = udf(*map(_column, cols))
    return column.alias(name)


# -- parsing (RFC 3986 §3, §4.1; RFC 3987 §2.2) -------------------------------------------


def parse(col: ColumnOrName, *, iri: bool = False, reading: str = "rfc3986") -> Column:
    """Each row taken apart, as :data:`PARSE_TYPE`: the 8 components (null where
    undefined, ``""`` where empty), ``valid``, and for a row that is not a
    reference ``error_position`` (in characters), ``error`` and ``error_rule``, as
    :class:`~urikit.URIError` gives them.  A null row gives a null struct.  With
    ``reading="whatwg"``, the URL Standard's getters as :data:`WHATWG_TYPE`.

    The struct is built in Spark from one Arrow UDF per field, so that a query
    that reads some fields (``parse(c).host``) has Spark compute and ship only
    those: its optimizer drops the others.  On a worker the fields of one batch
    come from one :func:`urikit.arrow.parse` of it."""
    column = _column(col)
    empty = pa.array([], pa.string())
    arrow.parse(empty, iri=iri, reading=reading)  # a bad call fails before a job runs
    type_ = WHATWG_TYPE if reading == "whatwg" else PARSE_TYPE
    fields = [
        _udf(_ParseField(field.name, iri, reading), field.dataType, column, name=field.name)
        for field in type_
    ]
    whole = F.when(column.isNull(), F.lit(None)).otherwise(F.struct(*fields))
    return whole.alias("parse")


class _ParseField:
    """One field of :func:`urikit.arrow.parse` of a batch, for the UDF of that field.

    The UDFs of the fields a query reads are called one after the other on each
    batch, so the parse of the last batch is kept: the UDFs of the other fields
    take theirs from it.  A new batch is parsed for the fields the one before it
    was asked for (and a field asked for later is added), so a worker parses each
    batch once for the fields its query reads.  The batch is kept with its parse,
    so that its buffers, which identify it, cannot be reused by another batch
    meanwhile."""

    _last: ClassVar[tuple[tuple[Any, ...], Any, Any] | None] = None
    _asked: ClassVar[set[str]] = set()

    def __init__(self, name: str, iri: bool, reading: str = "rfc3986") -> None:
        self.name = name
        self.iri = iri
        self.reading = reading

    def __call__(self, batch: pa.Array) -> pa.Array:
        key = (
            self.iri,
            self.reading,
            batch.type,
            batch.offset,
            len(batch),
            *(0 if b is None else b.address for b in batch.buffers()),
        )
        cls = _ParseField
        last = cls._last
        if last is None or last[0] != key:
            wanted = cls._asked | {self.name}
            cls._asked = set()
            last = cls._last = (key, batch, self._parse(batch, wanted))
        cls._asked.add(self.name)
        if self.name not in last[2].type.names:
            last = cls._last = (key, batch, self._parse(batch, cls._asked))
        return last[2].field(self.name)

    def _parse(self, batch: pa.Array, wanted: set[str]) -> pa.Array:
        type_ = WHATWG_TYPE if self.reading == "whatwg" else PARSE_TYPE
        fields = [name for name in type_.names if name in wanted]
        return arrow.parse(batch, iri=self.iri, fields=fields, reading=self.reading)


def _function(function: ColumnFunction) -> Callable[..., Column]:
    """The Spark function of a column function; the options are checked on an empty
    batch when it is called, so that a bad call fails before a job runs."""
    column_function = arrow.FUNCTIONS_BY_NAME[function.name]
    returns = TYPES[function.result]

    def spark_function(call: Call) -> Column:
        text, options, base = call.text, call.options, call.base
        one = base is None or isinstance(base, (str, URI, IRI))
        if not one and not isinstance(base, Column):
            raise TypeError(
                "base is one reference (a str, URI or IRI) for every row, or a Column of"
                f" them row by row (F.col(name)), not {type(base).__name__}"
            )
        before: tuple[Any, ...] = () if base is None else (str(base),) if one else ()
        empty = pa.array([], pa.string())
        column_function(*(before if one else (empty,)), empty, *text, **options)
        if one:

            def batch(a: pa.Array) -> pa.Array:
                return column_function(*before, a, *text, **options)

            return _udf(batch, returns, call.col, name=function.name)

        def pairs(b: pa.Array, a: pa.Array) -> pa.Array:
            return column_function(b, a, *text, **options)

        return _udf(pairs, returns, base, call.col, name=function.name)

    return function.adapt(spark_function, local=False)


#: The Spark function of each column function, by name; :func:`parse` builds its struct
#: from one UDF per field.
FUNCTIONS_BY_NAME: Final[dict[str, Callable[..., Column]]] = {
    function.name: parse if function.result is Answer.PARSE else _function(function)
    for function in FUNCTIONS
}
globals().update(FUNCTIONS_BY_NAME)

if TYPE_CHECKING:

    def __getattr__(name: str) -> Callable[..., Column]:
        """The functions, built from the table at import."""
        raise AttributeError(name)
