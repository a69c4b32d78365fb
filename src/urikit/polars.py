"""The ``uri`` namespace of polars expressions and series, over :mod:`urikit.arrow`.

``import urikit.polars`` registers it: ``pl.col("url").uri.host()``,
``df["url"].uri.parse()``.  Each method is the function of :mod:`urikit.arrow` of
the same name, with the same answers (the ``polars`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl
import pyarrow as pa  # type: ignore[import-untyped]

from . import arrow

__all__ = ["UriNamespace"]


def _polars_type(type_: pa.DataType) -> pa.DataType:
    """``type_`` as polars reads it back: string views as strings."""
    if type_ == pa.string_view():
        return pa.string()
    if pa.types.is_struct(type_):
        return pa.struct([field.with_type(_polars_type(field.type)) for field in type_])
    return type_


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

    def _apply(self, function: Callable[..., Any], dtype: Any, *args: Any, **kw: Any) -> Any:
        def batch(series: pl.Series) -> pl.Series:
            return _series(function(series, *args, **kw), series.name)

        if isinstance(self._column, pl.Series):
            return batch(self._column)
        return self._column.map_batches(batch, return_dtype=dtype)

    def parse(
        self,
        *,
        iri: bool = False,
        errors: arrow.Errors = "null",
        fields: Sequence[str] | None = None,
    ) -> Any:
        """A struct of the components, ``valid`` and the error, or of the ``fields``
        named; see :func:`urikit.arrow.parse`."""
        empty = arrow.parse(pa.array([], pa.string()), fields=fields)  # bad fields fail here
        dtype = pl.Series(empty.cast(_polars_type(empty.type))).dtype
        return self._apply(arrow.parse, dtype, iri=iri, errors=errors, fields=fields)

    def scheme(self, **kw: Any) -> Any:
        """The scheme (RFC 3986 §3.1)."""
        return self._apply(arrow.scheme, pl.String, **kw)

    def authority(self, **kw: Any) -> Any:
        """The authority (RFC 3986 §3.2)."""
        return self._apply(arrow.authority, pl.String, **kw)

    def userinfo(self, **kw: Any) -> Any:
        """The userinfo (RFC 3986 §3.2.1)."""
        return self._apply(arrow.userinfo, pl.String, **kw)

    def host(self, **kw: Any) -> Any:
        """The host (RFC 3986 §3.2.2)."""
        return self._apply(arrow.host, pl.String, **kw)

    def port(self, **kw: Any) -> Any:
        """The port as written (RFC 3986 §3.2.3)."""
        return self._apply(arrow.port, pl.String, **kw)

    def path(self, **kw: Any) -> Any:
        """The path (RFC 3986 §3.3)."""
        return self._apply(arrow.path, pl.String, **kw)

    def query(self, **kw: Any) -> Any:
        """The query (RFC 3986 §3.4)."""
        return self._apply(arrow.query, pl.String, **kw)

    def fragment(self, **kw: Any) -> Any:
        """The fragment (RFC 3986 §3.5)."""
        return self._apply(arrow.fragment, pl.String, **kw)

    def host_type(self, **kw: Any) -> Any:
        """``"ipv4"``, ``"ipv6"``, ``"ipvfuture"`` or ``"reg-name"`` (RFC 3986 §3.2.2)."""
        return self._apply(arrow.host_type, pl.String, **kw)

    def port_number(self, **kw: Any) -> Any:
        """The port as an Int64."""
        return self._apply(arrow.port_number, pl.Int64, **kw)

    def is_valid(self, rule: str = "URI-reference") -> Any:
        """Whether each row matches the ABNF rule ``rule``."""
        return self._apply(arrow.is_valid, pl.Boolean, rule)

    def normalize(self, **kw: Any) -> Any:
        """The normal form (RFC 3986 §6.2); see :func:`urikit.arrow.normalize`."""
        return self._apply(arrow.normalize, pl.String, **kw)

    def resolve(self, base: str, **kw: Any) -> Any:
        """Each row resolved against ``base`` (RFC 3986 §5.2)."""
        return self._apply(lambda col, **k: arrow.resolve(base, col, **k), pl.String, **kw)

    def relativize(self, base: str, **kw: Any) -> Any:
        """The reference from ``base`` to each row."""
        return self._apply(lambda col, **k: arrow.relativize(base, col, **k), pl.String, **kw)

    def to_uri(self, **kw: Any) -> Any:
        """Each IRI mapped to a URI (RFC 3987 §3.1)."""
        return self._apply(arrow.to_uri, pl.String, **kw)

    def query_param(self, name: str, **kw: Any) -> Any:
        """The first value of query parameter ``name``."""
        return self._apply(arrow.query_param, pl.String, name, **kw)

    def audit_codes(self, **kw: Any) -> Any:
        """The codes of the security findings (RFC 3986 §7)."""
        return self._apply(arrow.audit_codes, pl.List(pl.String), **kw)


pl.api.register_expr_namespace("uri")(UriNamespace)
pl.api.register_series_namespace("uri")(UriNamespace)
