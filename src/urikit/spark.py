"""urikit's column functions on Spark columns, over :mod:`urikit.arrow`.

Each function takes Spark ``Column`` s (or column names) and returns a ``Column``
whose type is declared, so Spark never infers a schema.  Rows travel to the
Python workers as Arrow batches (Spark's ``arrow_udf``), and each batch is
answered by the function of :mod:`urikit.arrow` of the same name, with the same
answers as the scalar API: the compiled column kernel when the workers have the
wheel for their platform (``urikit.compiled`` tells), the same answers from
Python otherwise.

Nulls in, nulls out.  A row that is not a reference never fails a job: it gives
null, and :func:`parse` says where and why in ``valid``, ``error_position``,
``error`` and ``error_rule``.  ``docs/distributed.md`` has the schema of every
column and how to ship urikit to a cluster.  Needs pyspark 4.1 or later (the
``spark`` extra) and urikit on every worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final, TypeAlias

import pyarrow as pa  # type: ignore[import-untyped]
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as T
from pyspark.sql.pandas.functions import arrow_udf

from . import URI, arrow
from ._arrow_kernel import COMPONENTS
from .types import Codec, Level, Spec

__all__ = [
    "PARSE_TYPE",
    "audit_codes",
    "authority",
    "fragment",
    "host",
    "host_type",
    "is_valid",
    "normalize",
    "parse",
    "path",
    "port",
    "port_number",
    "query",
    "query_param",
    "relativize",
    "resolve",
    "scheme",
    "to_uri",
    "userinfo",
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


def _spark_type(type_: pa.DataType) -> pa.DataType:
    """``type_`` with its string views and dictionaries as Arrow ``string``."""
    if type_ == pa.string_view() or pa.types.is_dictionary(type_):
        return pa.string()
    if pa.types.is_struct(type_):
        return pa.struct([field.with_type(_spark_type(field.type)) for field in type_])
    return type_


def _as_spark(result: Any) -> Any:
    return result.cast(_spark_type(result.type))


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


def parse(col: ColumnOrName, *, iri: bool = False) -> Column:
    """Each row taken apart, as :data:`PARSE_TYPE`: the 8 components (null where
    undefined, ``""`` where empty), ``valid``, and for a row that is not a
    reference ``error_position`` (in characters), ``error`` and ``error_rule``, as
    :class:`~urikit.URIError` gives them.  A null row gives a null struct.

    The struct is built in Spark from one Arrow UDF per field, so that a query
    that reads some fields (``parse(c).host``) has Spark compute and ship only
    those: its optimizer drops the others.  On a worker the fields of one batch
    come from one :func:`urikit.arrow.parse` of it."""
    column = _column(col)
    fields = [
        _udf(_ParseField(field.name, iri), field.dataType, column, name=field.name)
        for field in PARSE_TYPE
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

    def __init__(self, name: str, iri: bool) -> None:
        self.name = name
        self.iri = iri

    def __call__(self, batch: pa.Array) -> pa.Array:
        key = (
            self.iri,
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
        fields = [name for name in PARSE_TYPE.names if name in wanted]
        return arrow.parse(batch, iri=self.iri, fields=fields)


def _component(name: str, col: ColumnOrName, iri: bool) -> Column:
    function = getattr(arrow, name)
    return _udf(lambda a: function(a, iri=iri), T.StringType(), col, name=name)


def scheme(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The scheme of each row (RFC 3986 §3.1); null for a row that is not a reference."""
    return _component("scheme", col, iri)


def authority(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The authority of each row (RFC 3986 §3.2)."""
    return _component("authority", col, iri)


def userinfo(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The userinfo of each row (RFC 3986 §3.2.1)."""
    return _component("userinfo", col, iri)


def host(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The host of each row (RFC 3986 §3.2.2), IP literals in brackets."""
    return _component("host", col, iri)


def port(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The port of each row as written (RFC 3986 §3.2.3); see :func:`port_number`."""
    return _component("port", col, iri)


def path(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The path of each row (RFC 3986 §3.3), never null for a reference."""
    return _component("path", col, iri)


def query(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The query of each row (RFC 3986 §3.4)."""
    return _component("query", col, iri)


def fragment(col: ColumnOrName, *, iri: bool = False) -> Column:
    """The fragment of each row (RFC 3986 §3.5)."""
    return _component("fragment", col, iri)


def host_type(col: ColumnOrName, *, iri: bool = False) -> Column:
    """``URI.host_type`` of each row: ``"ipv4"``, ``"ipv6"``, ``"ipvfuture"`` or
    ``"reg-name"`` (RFC 3986 §3.2.2), null without a host."""
    return _udf(lambda a: arrow.host_type(a, iri=iri), T.StringType(), col, name="host_type")


def port_number(col: ColumnOrName, *, iri: bool = False) -> Column:
    """``URI.port_number`` of each row as a long: null when absent, empty or above 65535."""
    return _udf(lambda a: arrow.port_number(a, iri=iri), T.LongType(), col, name="port_number")


def is_valid(col: ColumnOrName, rule: str = "URI-reference") -> Column:
    """:func:`urikit.is_valid` of each row against the ABNF rule ``rule``."""
    arrow.is_valid(pa.array([], pa.string()), rule)  # an unknown rule is a bad call
    return _udf(lambda a: arrow.is_valid(a, rule), T.BooleanType(), col, name="is_valid")


# -- operations -------------------------------------------------------------------------


def normalize(
    col: ColumnOrName, *, level: Level = "scheme", iri: bool = False, **steps: Any
) -> Column:
    """:func:`urikit.normalize` of each row (RFC 3986 §6.2); ``steps`` are its
    protocol-based steps."""
    arrow.normalize(pa.array([], pa.string()), level=level, iri=iri, **steps)  # bad options

    def answer(a: pa.Array) -> pa.Array:
        return arrow.normalize(a, level=level, iri=iri, **steps)

    return _udf(answer, T.StringType(), col, name="normalize")


def resolve(
    base: ColumnOrName | URI, col: ColumnOrName, *, strict: bool = True, spec: Spec = "rfc3986"
) -> Column:
    """:func:`urikit.resolve` of each row of ``col`` against ``base`` (RFC 3986
    §5.2): one reference given as a ``URI``, or a column of them, row by row
    (``F.lit(text)`` for one reference as a column; a ``str`` names a column)."""
    options = {"strict": strict, "spec": spec}
    return _with_base(arrow.resolve, base, col, options, "resolve")


def relativize(base: ColumnOrName | URI, col: ColumnOrName) -> Column:
    """:func:`urikit.relativize` of each row of ``col`` against ``base`` (one
    ``URI``, or a column of references); resolving the answer against the base
    gives the row back."""
    return _with_base(arrow.relativize, base, col, {}, "relativize")


def _with_base(
    function: Callable[..., Any],
    base: ColumnOrName | URI,
    col: ColumnOrName,
    options: dict[str, Any],
    name: str,
) -> Column:
    if isinstance(base, URI):
        text = str(base)
        return _udf(lambda a: function(text, a, **options), T.StringType(), col, name=name)
    return _udf(lambda b, a: function(b, a, **options), T.StringType(), base, col, name=name)


def to_uri(col: ColumnOrName, *, idna: bool = False, nfc: bool = False) -> Column:
    """``IRI(row).to_uri()`` of each row (RFC 3987 §3.1)."""
    return _udf(lambda a: arrow.to_uri(a, idna=idna, nfc=nfc), T.StringType(), col, name="to_uri")


def query_param(col: ColumnOrName, name: str, *, codec: Codec = "form") -> Column:
    """``URI(row).query_param(name)`` of each row (RFC 3986 §3.4): the first value,
    decoded, or null."""

    def answer(a: pa.Array) -> pa.Array:
        return arrow.query_param(a, name, codec=codec)

    return _udf(answer, T.StringType(), col, name="query_param")


def audit_codes(col: ColumnOrName) -> Column:
    """The codes of :func:`urikit.audit`'s findings for each row (RFC 3986 §7), an
    array of strings; text that is not a reference gives ``invalid``."""
    return _udf(arrow.audit_codes, T.ArrayType(T.StringType()), col, name="audit_codes")
