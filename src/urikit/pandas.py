"""The ``uri`` accessor of pandas series, over :mod:`urikit.arrow`.

``import urikit.pandas`` registers it: ``s.uri.host()``, ``s.uri.parse()``.  Each
method is the function of :mod:`urikit.arrow` of the same name, with the same
answers, as a series on the same index with an Arrow dtype (the ``pandas``
extra).  pandas does not hold ``string_view``, so strings come back as
``large_string``, the type of ``string[pyarrow]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd  # type: ignore[import-untyped,unused-ignore]
import pyarrow as pa  # type: ignore[import-untyped]

from . import arrow

__all__ = ["UriAccessor"]


def _pandas_type(type_: pa.DataType) -> pa.DataType:
    """``type_`` with its string views and dictionaries as large strings."""
    if type_ == pa.string_view() or pa.types.is_dictionary(type_):
        return pa.large_string()
    if pa.types.is_struct(type_):
        return pa.struct([field.with_type(_pandas_type(field.type)) for field in type_])
    return type_


class UriAccessor:
    """``.uri``: the column functions of :mod:`urikit.arrow` on a pandas series."""

    def __init__(self, series: pd.Series) -> None:
        self._series = series

    def _apply(self, function: Callable[..., Any], *args: Any, **kw: Any) -> pd.Series:
        s = self._series
        column = (
            pa.array(s.array) if isinstance(s.dtype, pd.ArrowDtype) else pa.array(s, pa.string())
        )
        result = function(column, *args, **kw)
        result = result.cast(_pandas_type(result.type))
        return pd.Series(pd.arrays.ArrowExtensionArray(result), index=s.index, name=s.name)

    def parse(self, **kw: Any) -> pd.Series:
        """A struct of the components, ``valid`` and the error; see :func:`urikit.arrow.parse`."""
        return self._apply(arrow.parse, **kw)

    def scheme(self, **kw: Any) -> pd.Series:
        """The scheme (RFC 3986 §3.1)."""
        return self._apply(arrow.scheme, **kw)

    def authority(self, **kw: Any) -> pd.Series:
        """The authority (RFC 3986 §3.2)."""
        return self._apply(arrow.authority, **kw)

    def userinfo(self, **kw: Any) -> pd.Series:
        """The userinfo (RFC 3986 §3.2.1)."""
        return self._apply(arrow.userinfo, **kw)

    def host(self, **kw: Any) -> pd.Series:
        """The host (RFC 3986 §3.2.2)."""
        return self._apply(arrow.host, **kw)

    def port(self, **kw: Any) -> pd.Series:
        """The port as written (RFC 3986 §3.2.3)."""
        return self._apply(arrow.port, **kw)

    def path(self, **kw: Any) -> pd.Series:
        """The path (RFC 3986 §3.3)."""
        return self._apply(arrow.path, **kw)

    def query(self, **kw: Any) -> pd.Series:
        """The query (RFC 3986 §3.4)."""
        return self._apply(arrow.query, **kw)

    def fragment(self, **kw: Any) -> pd.Series:
        """The fragment (RFC 3986 §3.5)."""
        return self._apply(arrow.fragment, **kw)

    def host_type(self, **kw: Any) -> pd.Series:
        """``"ipv4"``, ``"ipv6"``, ``"ipvfuture"`` or ``"reg-name"`` (RFC 3986 §3.2.2)."""
        return self._apply(arrow.host_type, **kw)

    def port_number(self, **kw: Any) -> pd.Series:
        """The port as an int64."""
        return self._apply(arrow.port_number, **kw)

    def is_valid(self, rule: str = "URI-reference") -> pd.Series:
        """Whether each row matches the ABNF rule ``rule``."""
        return self._apply(arrow.is_valid, rule)

    def normalize(self, **kw: Any) -> pd.Series:
        """The normal form (RFC 3986 §6.2); see :func:`urikit.arrow.normalize`."""
        return self._apply(arrow.normalize, **kw)

    def resolve(self, base: str, **kw: Any) -> pd.Series:
        """Each row resolved against ``base`` (RFC 3986 §5.2)."""
        return self._apply(lambda col, **k: arrow.resolve(base, col, **k), **kw)

    def relativize(self, base: str, **kw: Any) -> pd.Series:
        """The reference from ``base`` to each row."""
        return self._apply(lambda col, **k: arrow.relativize(base, col, **k), **kw)

    def to_uri(self, **kw: Any) -> pd.Series:
        """Each IRI mapped to a URI (RFC 3987 §3.1)."""
        return self._apply(arrow.to_uri, **kw)

    def query_param(self, name: str, **kw: Any) -> pd.Series:
        """The first value of query parameter ``name``."""
        return self._apply(arrow.query_param, name, **kw)

    def audit_codes(self, **kw: Any) -> pd.Series:
        """The codes of the security findings (RFC 3986 §7)."""
        return self._apply(arrow.audit_codes, **kw)


pd.api.extensions.register_series_accessor("uri")(UriAccessor)
