"""The ``URL`` class of the URL Standard (§6.1), in Python's spelling.

A :class:`URL` is what the basic URL parser made of its input: ``href`` and the other
getters are the standard's, and so is each setter, which runs the basic URL parser with
a state override on the URL's record and leaves the URL unchanged where the standard
does (``docs/whatwg.md`` lists those cases).  Equality and hashing are by ``href``
(URL equivalence, §4.6); pickling keeps the ``href``.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import TYPE_CHECKING, Final, NamedTuple, Union

from .._seam import whatwg_core
from ..report import Report, Severity
from ._pure import RecordStore, api_url_parser, coerce
from .encoding import USERINFO, utf8_percent_encode
from .errors import VALIDATION_ERRORS, URLParseError, ValidationErrors
from .origin import origin, serialize_origin
from .parser import State, basic_url_parser
from .record import URLRecord, serialize
from .search_params import URLSearchParams

if TYPE_CHECKING:
    from typing_extensions import Self

    from ..uri import IRI, URI

__all__ = ["URL", "Checked", "compiled"]

_COMPILED: Final = whatwg_core()

#: The query object of each URL that has one alive, by the URL's id (§6.1 "query object").
_QUERY_OBJECTS: weakref.WeakValueDictionary[int, URLSearchParams] = weakref.WeakValueDictionary()

#: Whether the compiled WHATWG parser (``urikit._whatwg``) stores the URLs.
compiled: Final[bool] = _COMPILED is not None

if TYPE_CHECKING:
    _Store = RecordStore
else:
    _Store = _COMPILED.Store if _COMPILED is not None else RecordStore

Input = Union[str, "URL", "URI", "IRI"]


class Checked(NamedTuple):
    """A URL and the validation errors its parse met (``URL.checked``)."""

    url: URL
    reports: list[Report]


def _reports(errors: ValidationErrors, text: str) -> list[Report]:
    reports = []
    for name, at in errors:
        end = min(at + 1, len(text)) if at < len(text) else at
        message = VALIDATION_ERRORS.get(name, name)
        reports.append(Report(name, message, Severity.LOW, (at, end)))
    return reports


class URL(_Store):
    """A URL, read as the URL Standard reads it (the basic URL parser, §4.4).

    ``URL(input, base=None)`` parses ``input`` (a ``str``, or a ``URI``/``IRI``, read by
    its text) against ``base`` (the same, or a ``URL``), as ``new URL(input, base)`` does
    in a browser; failure raises :class:`~urikit.whatwg.URLParseError` (a
    :class:`~urikit.URIError`) naming the validation error.  ``encoding`` is the
    document's encoding, used for the query of a special URL (§4.4, query state).

    >>> u = URL("HTTPS://user@Example.COM:443/a/./b/../c?q=1 2#f")
    >>> u.href
    'https://user@example.com/a/c?q=1%202#f'
    >>> u.hostname, u.port, u.pathname, u.search, u.origin
    ('example.com', '', '/a/c', '?q=1%202', 'https://example.com')
    >>> URL("../d", "http://h/a/b/c").href
    'http://h/a/d'
    """

    __slots__ = ()

    if TYPE_CHECKING:

        def __new__(
            cls, input: Input, base: Input | None = None, *, encoding: str = "utf-8"
        ) -> Self: ...

    @classmethod
    def checked(cls, input: Input, base: Input | None = None) -> Checked:
        """Parse as ``URL(input, base)`` does, and return ``Checked(url, reports)``: one
        :class:`~urikit.report.Report` per non-fatal validation error met (its ``code``
        the standard's name, such as ``"invalid-credentials"``), spans into ``input``."""
        text, base_text = coerce(input, base)
        parsed_base = None if base_text is None else basic_url_parser(base_text)
        errors: ValidationErrors = []
        record = api_url_parser(text, parsed_base, errors=errors)
        url = cls._parse(serialize(record)) if compiled else cls._parse(text, parsed_base)
        return Checked(url, _reports(errors, text))

    # -- equality, hashing, pickling, text -------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URL):
            return NotImplemented
        return self.href == other.href

    def __hash__(self) -> int:
        return hash(self.href)

    def __str__(self) -> str:
        return self.href

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.href!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.href,))

    def __copy__(self) -> Self:
        return type(self)(self.href)

    def __deepcopy__(self, memo: object) -> Self:
        return type(self)(self.href)

    def to_json(self) -> str:
        """The ``href`` (``toJSON()``)."""
        return self.href

    # -- the setters (§6.1) ---------------------------------------------------------------

    def _state_override(self, text: str, record: URLRecord, state: State) -> None:
        """Basic URL parse ``text`` with ``record`` as url and ``state`` as state override;
        a failure leaves whatever the parser had already changed, as the standard does."""
        try:
            basic_url_parser(text, url=record, state_override=state)
        finally:
            self._assign(record)

    def _set_href(self, value: str) -> None:
        """href setter: the URL is replaced by the parse of ``value``, or
        :class:`URLParseError` is raised and the URL is unchanged."""
        self._assign(basic_url_parser(coerce(value)[0]))

    def _set_protocol(self, value: str) -> None:
        """protocol setter: basic URL parse ``value + ":"`` in scheme start state."""
        record = self._record()
        with contextlib.suppress(URLParseError):
            self._state_override(value + ":", record, State.SCHEME_START)

    def _set_username(self, value: str) -> None:
        """username setter: percent-encoded, unless the URL cannot have a username."""
        record = self._record()
        if record.cannot_have_username_password_port:
            return
        record.username = utf8_percent_encode(_scalar(value), USERINFO)
        self._assign(record)

    def _set_password(self, value: str) -> None:
        """password setter: percent-encoded, unless the URL cannot have a password."""
        record = self._record()
        if record.cannot_have_username_password_port:
            return
        record.password = utf8_percent_encode(_scalar(value), USERINFO)
        self._assign(record)

    def _set_host(self, value: str) -> None:
        """host setter: ignored for a URL with an opaque path; else host state."""
        record = self._record()
        if record.has_opaque_path:
            return
        with contextlib.suppress(URLParseError):
            self._state_override(value, record, State.HOST)

    def _set_hostname(self, value: str) -> None:
        """hostname setter: ignored for a URL with an opaque path; else hostname state."""
        record = self._record()
        if record.has_opaque_path:
            return
        with contextlib.suppress(URLParseError):
            self._state_override(value, record, State.HOSTNAME)

    def _set_port(self, value: str) -> None:
        """port setter: ignored where the URL cannot have a port; "" removes it."""
        record = self._record()
        if record.cannot_have_username_password_port:
            return
        if value == "":
            record.port = None
            self._assign(record)
            return
        with contextlib.suppress(URLParseError):
            self._state_override(value, record, State.PORT)

    def _set_pathname(self, value: str) -> None:
        """pathname setter: ignored for a URL with an opaque path; else path start state."""
        record = self._record()
        if record.has_opaque_path:
            return
        record.path = []
        self._state_override(value, record, State.PATH_START)

    def _set_search(self, value: str) -> None:
        """search setter: "" removes the query; else query state, without a leading "?"."""
        record = self._record()
        if value == "":
            record.query = None
            self._assign(record)
            return
        record.query = ""
        self._state_override(value[1:] if value.startswith("?") else value, record, State.QUERY)

    def _set_hash(self, value: str) -> None:
        """hash setter: "" removes the fragment; else fragment state, without a leading "#"."""
        record = self._record()
        if value == "":
            record.fragment = None
            self._assign(record)
            return
        record.fragment = ""
        text = value[1:] if value.startswith("#") else value
        self._state_override(text, record, State.FRAGMENT)

    if TYPE_CHECKING:
        href: str
        protocol: str
        username: str
        password: str
        host: str
        hostname: str
        port: str
        pathname: str
        search: str
        hash: str
    else:
        href = property(_Store.href.__get__, _set_href, doc="The serialization of the URL (§4.5).")
        protocol = property(_Store.protocol.__get__, _set_protocol, doc='The scheme and ":".')
        username = property(_Store.username.__get__, _set_username, doc="The username.")
        password = property(_Store.password.__get__, _set_password, doc="The password.")
        host = property(_Store.host.__get__, _set_host, doc='The host, and ":" and the port.')
        hostname = property(_Store.hostname.__get__, _set_hostname, doc="The host, serialized.")
        port = property(_Store.port.__get__, _set_port, doc='The port, or "".')
        pathname = property(_Store.pathname.__get__, _set_pathname, doc="The path, serialized.")
        search = property(_Store.search.__get__, _set_search, doc='"?" and the query, or "".')
        hash = property(_Store.hash.__get__, _set_hash, doc='"#" and the fragment, or "".')

    # -- the rest of the API ------------------------------------------------------------------

    @property
    def origin(self) -> str:
        """The serialization of the URL's origin (§4.7; "null" for an opaque origin)."""
        return serialize_origin(origin(self._record()))

    @property
    def search_params(self) -> URLSearchParams:
        """The query object: the query as name-value pairs, live both ways (§6.2).

        The same object while it lives; it holds its URL, the URL does not hold it (the
        object is found again by the URL's identity), so neither is in a cycle.
        """
        params = _QUERY_OBJECTS.get(id(self))
        if params is None or params._url is not self:
            params = URLSearchParams._of(self)
            _QUERY_OBJECTS[id(self)] = params
        return params

    def _set_query(self, query: str | None) -> None:
        record = self._record()
        record.query = query
        self._assign(record)

    @classmethod
    def parse(cls, input: Input, base: Input | None = None) -> Self | None:
        """``URL(input, base)``, or ``None`` where it would fail (``URL.parse()``)."""
        try:
            return cls(input, base)
        except URLParseError:
            return None

    def to_uri(self, *, lenient: bool = False) -> URI:
        """The :class:`~urikit.URI` of the ``href``.

        An ``href`` is not always an RFC 3986 URI reference (a ``|``, ``^`` or ``{`` in a
        path or query, a ``%`` that starts no triplet, a non-ASCII opaque path are left as
        they are by the URL Standard): then :class:`~urikit.URIError` is raised, or, with
        ``lenient=True``, the repair of ``URI.lenient`` is returned.
        """
        from ..uri import URI

        if lenient:
            return URI.lenient(self.href).uri
        return URI(self.href)


def _scalar(value: str) -> str:
    from .parser import scalar_value_string

    return scalar_value_string(value)


URL._construct_directly()
