"""urikit's column functions on Dask series, over :mod:`urikit.arrow`.

Each function takes a Dask ``Series`` of strings and returns one, partition by
partition (``map_partitions``), with its ``meta`` declared: the answers of the
function of :mod:`urikit.arrow` of the same name, as the ``uri`` accessor of
:mod:`urikit.pandas` gives them (Arrow dtypes, strings as ``large_string``, on
the partition's index).  Nulls in, nulls out; a row that is not a reference
gives null, and :func:`parse` says where and why.  Needs dask[dataframe] (the
``dask`` extra) and urikit on every worker.
"""

from __future__ import annotations

from typing import Any, Final

import dask.dataframe as dd
import pandas as pd  # type: ignore[import-untyped,unused-ignore]
import pyarrow as pa  # type: ignore[import-untyped]

from . import URI
from ._arrow_kernel import COMPONENTS
from .pandas import UriAccessor
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
_STRING: Final = pa.large_string()


def _meta(name: Any, type_: pa.DataType) -> pd.Series:
    return pd.Series([], dtype=pd.ArrowDtype(type_), name=name)


def _method(series: pd.Series, method: str, *args: Any, **kw: Any) -> pd.Series:
    """The ``uri`` accessor's ``method`` on one partition."""
    return getattr(UriAccessor(series), method)(*args, **kw)


def _mapped(col: dd.Series, type_: pa.DataType, method: str, *args: Any, **kw: Any) -> Any:
    partitions: Any = col.map_partitions  # dask's API is not typed
    return partitions(_method, method, *args, meta=_meta(col.name, type_), **kw)


def _fields(series: pd.Series, iri: bool) -> pd.DataFrame:
    return UriAccessor(series).parse(iri=iri).struct.explode()


def parse(col: dd.Series, *, iri: bool = False) -> Any:
    """Each row taken apart: a Dask ``DataFrame`` with a column per field of
    :data:`PARSE_TYPE`, the 8 components, ``valid``, and for a row that is not a
    reference ``error_position``, ``error`` and ``error_rule`` (all null for a null
    row); see :func:`urikit.arrow.parse`."""
    meta = pd.DataFrame({f.name: _meta(f.name, f.type) for f in PARSE_TYPE})
    partitions: Any = col.map_partitions
    return partitions(_fields, iri, meta=meta)


def scheme(col: dd.Series, *, iri: bool = False) -> Any:
    """The scheme of each row (RFC 3986 §3.1)."""
    return _mapped(col, _STRING, "scheme", iri=iri)


def authority(col: dd.Series, *, iri: bool = False) -> Any:
    """The authority of each row (RFC 3986 §3.2)."""
    return _mapped(col, _STRING, "authority", iri=iri)


def userinfo(col: dd.Series, *, iri: bool = False) -> Any:
    """The userinfo of each row (RFC 3986 §3.2.1)."""
    return _mapped(col, _STRING, "userinfo", iri=iri)


def host(col: dd.Series, *, iri: bool = False) -> Any:
    """The host of each row (RFC 3986 §3.2.2), IP literals in brackets."""
    return _mapped(col, _STRING, "host", iri=iri)


def port(col: dd.Series, *, iri: bool = False) -> Any:
    """The port of each row as written (RFC 3986 §3.2.3)."""
    return _mapped(col, _STRING, "port", iri=iri)


def path(col: dd.Series, *, iri: bool = False) -> Any:
    """The path of each row (RFC 3986 §3.3)."""
    return _mapped(col, _STRING, "path", iri=iri)


def query(col: dd.Series, *, iri: bool = False) -> Any:
    """The query of each row (RFC 3986 §3.4)."""
    return _mapped(col, _STRING, "query", iri=iri)


def fragment(col: dd.Series, *, iri: bool = False) -> Any:
    """The fragment of each row (RFC 3986 §3.5)."""
    return _mapped(col, _STRING, "fragment", iri=iri)


def host_type(col: dd.Series, *, iri: bool = False) -> Any:
    """``URI.host_type`` of each row (RFC 3986 §3.2.2), null without a host."""
    return _mapped(col, _STRING, "host_type", iri=iri)


def port_number(col: dd.Series, *, iri: bool = False) -> Any:
    """``URI.port_number`` of each row as int64, null when absent, empty or above 65535."""
    return _mapped(col, pa.int64(), "port_number", iri=iri)


def is_valid(col: dd.Series, rule: str = "URI-reference") -> Any:
    """:func:`urikit.is_valid` of each row against the ABNF rule ``rule``."""
    _method(pd.Series([], dtype="string[pyarrow]"), "is_valid", rule)  # a bad call fails here
    return _mapped(col, pa.bool_(), "is_valid", rule)


def normalize(col: dd.Series, *, level: Level = "scheme", iri: bool = False, **steps: Any) -> Any:
    """:func:`urikit.normalize` of each row (RFC 3986 §6.2), with its protocol-based
    ``steps``."""
    _method(pd.Series([], dtype="string[pyarrow]"), "normalize", level=level, iri=iri, **steps)
    return _mapped(col, _STRING, "normalize", level=level, iri=iri, **steps)


def _pairs(base: pd.Series, series: pd.Series, method: str, **kw: Any) -> pd.Series:
    return _method(series, method, pa.array(base, pa.string()), **kw)


def _with_base(base: dd.Series | URI, col: dd.Series, method: str, **kw: Any) -> Any:
    if isinstance(base, URI):
        return _mapped(col, _STRING, method, str(base), **kw)
    meta = _meta(col.name, _STRING)
    partitions: Any = dd.map_partitions
    return partitions(_pairs, base, col, method, meta=meta, **kw)


def resolve(
    base: dd.Series | URI, col: dd.Series, *, strict: bool = True, spec: Spec = "rfc3986"
) -> Any:
    """:func:`urikit.resolve` of each row of ``col`` against ``base`` (RFC 3986 §5.2):
    one ``URI``, or a series of references partitioned as ``col``, row by row."""
    return _with_base(base, col, "resolve", strict=strict, spec=spec)


def relativize(base: dd.Series | URI, col: dd.Series) -> Any:
    """:func:`urikit.relativize` of each row of ``col`` against ``base`` (one ``URI``,
    or a series of references partitioned as ``col``)."""
    return _with_base(base, col, "relativize")


def to_uri(col: dd.Series, *, idna: bool = False, nfc: bool = False) -> Any:
    """``IRI(row).to_uri()`` of each row (RFC 3987 §3.1)."""
    return _mapped(col, _STRING, "to_uri", idna=idna, nfc=nfc)


def query_param(col: dd.Series, name: str, *, codec: Codec = "form") -> Any:
    """``URI(row).query_param(name)`` of each row (RFC 3986 §3.4): the first value,
    decoded, or null."""
    return _mapped(col, _STRING, "query_param", name, codec=codec)


def audit_codes(col: dd.Series) -> Any:
    """The codes of :func:`urikit.audit`'s findings for each row (RFC 3986 §7)."""
    return _mapped(col, pa.list_(pa.string()), "audit_codes")
