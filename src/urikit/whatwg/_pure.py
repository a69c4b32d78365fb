"""The readable store of a WHATWG URL: the URL record itself (URL Standard §4.1).

:class:`RecordStore` is what :class:`~urikit.whatwg.URL` stands on without the compiled
module: it keeps the :class:`~urikit.whatwg.record.URLRecord` that the basic URL parser
returned, and its getters are the standard's getters of §6.1 on that record.  The
compiled store (``urikit._whatwg``) keeps the ``href`` and the offsets of its components
instead, with the same interface: ``_parse``, ``can_parse``, the getters, ``_record``
and ``_assign`` (the setters work on a record), and ``_components``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import URLParseError, ValidationErrors
from .host import host_serializer
from .parser import basic_url_parser
from .record import URLRecord, path_serializer, serialize

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["RecordStore", "api_url_parser", "coerce", "components"]


def _text(value: object, what: str) -> str:
    """The text of an input or base: a ``str``, a URL's ``href``, a ``URI``'s text."""
    if isinstance(value, str):
        return value
    href = getattr(value, "href", None)
    if isinstance(href, str) and hasattr(value, "_record"):  # a URL, on either store
        return href
    from ..uri import IRI, URI

    if isinstance(value, (URI, IRI)):
        return str(value)
    raise TypeError(f"{what} must be a str, URL, URI or IRI, not {type(value).__name__}")


def coerce(text: object, base: object = None) -> tuple[str, str | None]:
    """The texts of an input and a base given as ``str``, ``URL``, ``URI`` or ``IRI``."""
    return _text(text, "input"), None if base is None else _text(base, "base")


def api_url_parser(
    text: str,
    base: str | URLRecord | None = None,
    encoding: str = "utf-8",
    errors: ValidationErrors | None = None,
) -> URLRecord:
    """The API URL parser (§6.1): ``base`` parsed first, when it is a string."""
    parsed_base = basic_url_parser(base) if isinstance(base, str) else base
    return basic_url_parser(text, parsed_base, encoding, errors=errors)


def components(
    text: str, base: str | None = None
) -> tuple[str, str, str, str, str, str, str, str, str, str]:
    """The getters of a parse, in one tuple: href, protocol, username, password, host,
    hostname, port, pathname, search, hash.  Raises :class:`URLParseError`."""
    url = api_url_parser(text, base)
    return (
        serialize(url),
        url.scheme + ":",
        url.username,
        url.password,
        _host(url),
        "" if url.host is None else host_serializer(url.host),
        "" if url.port is None else str(url.port),
        path_serializer(url),
        "" if not url.query else "?" + url.query,
        "" if not url.fragment else "#" + url.fragment,
    )


def _host(url: URLRecord) -> str:
    if url.host is None:
        return ""
    if url.port is None:
        return host_serializer(url.host)
    return f"{host_serializer(url.host)}:{url.port}"


class RecordStore:
    """A URL kept as its URL record."""

    __slots__ = ("_url",)

    _url: URLRecord

    def __new__(cls, input: object, base: object = None, *, encoding: str = "utf-8") -> Self:
        text, base_text = coerce(input, base)
        return cls._parse(text, base_text, encoding)

    @classmethod
    def _parse(
        cls,
        text: str,
        base: str | URLRecord | None = None,
        encoding: str = "utf-8",
        errors: ValidationErrors | None = None,
    ) -> Self:
        """A URL from ``text``, against ``base``; raises :class:`URLParseError`."""
        self = object.__new__(cls)
        self._url = api_url_parser(text, base, encoding, errors)
        return self

    @classmethod
    def _construct_directly(cls) -> None:
        """The compiled store's class call without an argument tuple; here ``cls(...)``
        is already ``__new__`` alone."""

    @staticmethod
    def can_parse(input: object, base: object = None) -> bool:
        """Whether ``URL(input, base)`` would succeed (``URL.canParse()``, §6.1)."""
        text, base_text = coerce(input, base)
        try:
            api_url_parser(text, base_text)
        except URLParseError:
            return False
        return True

    @staticmethod
    def _components(
        text: str, base: str | None = None
    ) -> tuple[str, str, str, str, str, str, str, str, str, str]:
        return components(text, base)

    def _record(self) -> URLRecord:
        """A copy of the URL record, for a setter to change."""
        return self._url.copy()

    def _assign(self, url: URLRecord) -> None:
        """Make ``url`` this URL's record."""
        self._url = url

    def _get_query(self) -> str | None:
        return self._url.query

    @property
    def href(self) -> str:
        """The serialization of the URL (§4.5)."""
        return serialize(self._url)

    @property
    def protocol(self) -> str:
        """The scheme, followed by ":"."""
        return self._url.scheme + ":"

    @property
    def username(self) -> str:
        """The username, percent-encoded."""
        return self._url.username

    @property
    def password(self) -> str:
        """The password, percent-encoded."""
        return self._url.password

    @property
    def host(self) -> str:
        """The host, serialized, and ":" and the port when there is one; or ""."""
        return _host(self._url)

    @property
    def hostname(self) -> str:
        """The host, serialized, or ""."""
        return "" if self._url.host is None else host_serializer(self._url.host)

    @property
    def port(self) -> str:
        """The port in decimal, or "" (also for the scheme's default port)."""
        return "" if self._url.port is None else str(self._url.port)

    @property
    def pathname(self) -> str:
        """The path, serialized (§4.5, the URL path serializer)."""
        return path_serializer(self._url)

    @property
    def search(self) -> str:
        """ "?" and the query, or "" when the query is null or empty."""
        query = self._url.query
        return "" if not query else "?" + query

    @property
    def hash(self) -> str:
        """ "#" and the fragment, or "" when the fragment is null or empty."""
        fragment = self._url.fragment
        return "" if not fragment else "#" + fragment
