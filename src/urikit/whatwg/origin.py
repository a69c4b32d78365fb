"""The origin of a URL (URL Standard §4.7) and its serialization (HTML §7.1.1)."""

from __future__ import annotations

from .errors import URLParseError
from .host import host_serializer
from .parser import basic_url_parser
from .record import URLRecord, path_serializer

__all__ = ["origin", "serialize_origin"]


def origin(url: URLRecord) -> tuple[str, str, int | None] | None:
    """The origin of a URL (§4.7): a tuple origin (scheme, host, port), or ``None`` for
    an opaque origin."""
    if url.scheme == "blob":
        try:
            path_url = basic_url_parser(path_serializer(url))
        except URLParseError:
            return None
        if path_url.scheme in ("http", "https", "file"):
            return origin(path_url)
        return None
    if url.scheme in ("ftp", "http", "https", "ws", "wss"):
        assert url.host is not None
        return (url.scheme, host_serializer(url.host), url.port)
    return None


def serialize_origin(value: tuple[str, str, int | None] | None) -> str:
    """The serialization of an origin (HTML §7.1.1): "null" for an opaque origin."""
    if value is None:
        return "null"
    scheme, host, port = value
    return f"{scheme}://{host}" if port is None else f"{scheme}://{host}:{port}"
