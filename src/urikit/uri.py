"""The immutable value: URI and IRI references (RFC 3986 §4.1, RFC 3987 §2.2).

A reference is the input string and the offsets of its components, as
matched by the grammar (``grammar.py``).  Components are read lazily from
those offsets.  A component is ``None`` when its delimiter is absent and
``""`` when it is present but empty (RFC 3986 §5.3 keeps the two apart, and
so do we).  ``str()`` is the input, character for character.

The value contract:

* ``==`` is simple string comparison (§6.2.1): a reference equals another
  reference, URI or IRI, with the same text, and a ``str`` with the same text
  (it *is* that text); ``hash`` is the hash of the text, so it agrees.
  Equivalence beyond the text is :func:`urikit.equivalent`.
* Ordering is the order of the texts, complete (``<``, ``<=``, ``>``, ``>=``)
  against references and strings alike.
* Values are immutable; :meth:`replace` makes a new one.

The operations (§5 resolution, §6 normalization, query and path edits, the
RFC 3987 mappings) are functions on component text one floor below
(``docs/architecture.md``); the methods here are their convenient forms, with
the same parameters.
"""

from __future__ import annotations

import ipaddress
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import ModuleType
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    Generic,
    Literal,
    NamedTuple,
    NoReturn,
    TypeVar,
    cast,
    overload,
)
from urllib.parse import ParseResult, SplitResult

from . import query as _query
from ._store import Store, _store_match, compiled
from .components import Parts, check_structure, compose_authority, encode_data, recompose
from .errors import URIError
from .grammar import IRI_GRAMMAR, URI_GRAMMAR, Grammar
from .percent import percent_decode
from .types import (
    Codec,
    Component,
    DecodeErrors,
    Flavor,
    HostType,
    IdnaForm,
    Kind,
    Level,
    Spec,
    UnicodeForm,
)
from .validate import PORT_MAX, port_shown, port_value

if TYPE_CHECKING:
    from pathlib import PurePath

    from typing_extensions import Self

    from . import _fast, fileuri, legacy, lenient, mapping, paths
    from . import bidi as _bidi
    from . import protocol_steps as _protocol_steps
    from . import schemes as _schemes
    from ._fast import _Tables
    from ._fast import resolved as _resolved
    from ._fast import resolved_against as _resolved_against
    from ._fast import target_text as _target_text
    from .diagnose import locate
    from .normalize import normalize as normalize_parts
    from .protocol_steps import ParamFilter, Steps
    from .query import NameMatcher, QueryValues
    from .report import Report
    from .resolve import check_base, transform_references
    from .resolve import relativize as relativize_parts
    from .schemes import SchemeRegistry

    _default_tables: _Tables
    _match_uri: Callable[[str], re.Match[str] | None]

__all__ = [
    "IRI",
    "URI",
    "AnyURI",
    "Origin",
    "Repaired",
    "from_path",
    "normalize",
    "relativize",
    "resolve",
    "same_origin",
]

_new: Final = object.__new__
_KEEP: Final[Any] = object()  # replace(): "leave this component as it is"
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_R = TypeVar("_R", bound="_Reference")


# -- the operations, loaded on first use ---------------------------------------------------
#
# ``import urikit`` loads the value and what constructing it needs; the operations of
# floor 2 behind its methods (resolution, normalization, the IRI mappings, ...) are
# loaded by the first method that calls one.  Each name below stands for its module
# until then; the first attribute read imports the module and puts it in its place, so
# later calls read the module itself.


class _Deferred:
    """A module of a lower floor, imported by ``load`` when an attribute is first read,
    or (with ``attribute``) a function of it, imported when first called."""

    __slots__ = ("_attribute", "_load", "_name")

    def __init__(self, name: str, load: Callable[[], object], attribute: str | None = None) -> None:
        self._name = name
        self._load = load
        self._attribute = attribute

    def _loaded(self) -> Any:
        module = self._load()
        value = module if self._attribute is None else getattr(module, self._attribute)
        globals()[self._name] = value
        return value

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._loaded(), attribute)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._loaded()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self._name}, loaded on first use>"


def _load_fast() -> ModuleType:
    from . import _fast

    return _fast


def _load_bidi() -> ModuleType:
    from . import bidi

    return bidi


def _load_diagnose() -> ModuleType:
    from . import diagnose

    return diagnose


def _load_fileuri() -> ModuleType:
    from . import fileuri

    return fileuri


def _load_legacy() -> ModuleType:
    from . import legacy

    return legacy


def _load_lenient() -> ModuleType:
    from . import lenient

    return lenient


def _load_mapping() -> ModuleType:
    from . import mapping

    return mapping


def _load_normalize() -> ModuleType:
    # ``from . import normalize`` would give the package's function of that name
    from .normalize import normalize

    return sys.modules[normalize.__module__]


def _load_paths() -> ModuleType:
    from . import paths

    return paths


def _load_protocol_steps() -> ModuleType:
    from . import protocol_steps

    return protocol_steps


def _load_schemes() -> ModuleType:
    from . import schemes

    return schemes


def _load_default_tables() -> object:
    # the fast-path tables of the default registry (``normalize`` reads them in its frame)
    from ._fast import default_tables

    return default_tables()


def _load_match_uri() -> object:
    # ``URI._fullmatch``: the pure path's parse, read when first used (the class
    # compiles the pattern then)
    return URI._fullmatch


def _load_resolve() -> ModuleType:
    # ``from . import resolve`` would give the package's function of that name
    from .resolve import transform_references

    return sys.modules[transform_references.__module__]


if not TYPE_CHECKING:
    _fast = _Deferred("_fast", _load_fast)
    _bidi = _Deferred("_bidi", _load_bidi)
    fileuri = _Deferred("fileuri", _load_fileuri)
    legacy = _Deferred("legacy", _load_legacy)
    lenient = _Deferred("lenient", _load_lenient)
    mapping = _Deferred("mapping", _load_mapping)
    paths = _Deferred("paths", _load_paths)
    _protocol_steps = _Deferred("_protocol_steps", _load_protocol_steps)
    check_base = _Deferred("check_base", _load_resolve, "check_base")
    transform_references = _Deferred("transform_references", _load_resolve, "transform_references")
    relativize_parts = _Deferred("relativize_parts", _load_resolve, "relativize")
    normalize_parts = _Deferred("normalize_parts", _load_normalize, "normalize")
    locate = _Deferred("locate", _load_diagnose, "locate")
    _schemes = _Deferred("_schemes", _load_schemes)
    _resolved = _Deferred("_resolved", _load_fast, "resolved")
    _resolved_against = _Deferred("_resolved_against", _load_fast, "resolved_against")
    _target_text = _Deferred("_target_text", _load_fast, "target_text")
    _match_uri = _Deferred("_match_uri", _load_match_uri)
    _default_tables = _Deferred("_default_tables", _load_default_tables)


class _DefaultRegistry:
    """The default of a ``registry`` parameter: ``urikit.schemes.DEFAULT_REGISTRY``,
    looked up when a call needs it (the registry's tables load on first use)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DEFAULT_REGISTRY"


#: Stands for ``urikit.schemes.DEFAULT_REGISTRY`` as a default value.
_DEFAULT_REGISTRY: Final = cast("SchemeRegistry", _DefaultRegistry())


class Origin(NamedTuple):
    """Where a request goes (RFC 6454 §4): the scheme, the host and the port."""

    scheme: str
    host: str
    port: int | None


_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _host_key(host: str) -> str:
    """A host as origins compare it: lower case, IDNA A-labels for a name that is not ASCII."""
    if host[0] == "[":
        return host.translate(_ASCII_LOWER)
    if "%" in host:
        host = percent_decode(host, errors="surrogateescape")
    if host.isascii():
        return host.translate(_ASCII_LOWER)
    import idna  # loaded only for internationalized names

    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        return host.translate(_ASCII_LOWER)


class Repaired(Generic[_R]):
    """What a lenient parse returns: the reference and every repair made (Appendix C).

    It unpacks like a pair: ``uri, reports = URI.lenient(text)``.  Immutable; equal to
    another with an equal reference and equal reports.
    """

    __slots__ = ("reports", "uri")
    __match_args__ = ("uri", "reports")
    uri: _R
    reports: list[Report]

    def __init__(self, uri: _R, reports: list[Report]) -> None:
        object.__setattr__(self, "uri", uri)
        object.__setattr__(self, "reports", reports)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(uri={self.uri!r}, reports={self.reports!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.uri, self.reports) == (other.uri, other.reports)

    def __hash__(self) -> int:
        return hash((self.uri, self.reports))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), (self.uri, self.reports))

    def __iter__(self) -> Iterator[Any]:
        return iter((self.uri, self.reports))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.uri, self.reports)[index]


class _Pattern:
    """A grammar's reference ``fullmatch``, compiled when a class first reads it.

    On the compiled path construction never reads it, so the pattern is compiled only
    when something needs the regular expression; then the class holds the bound
    ``fullmatch`` itself.
    """

    def __init__(self, grammar: Grammar) -> None:
        self._grammar = grammar

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: object, owner: type) -> Callable[[str], re.Match[str] | None]:
        fullmatch = self._grammar.reference.fullmatch
        type.__setattr__(owner, self._name, fullmatch)
        return fullmatch


class _Reference(Store):
    """What URI and IRI share: one implementation over two grammars.

    The text and the offsets of its components are kept by the store
    (``_store.py``: compiled or pure Python), which also gives the components
    ``scheme`` ... ``fragment`` and the constructors: ``cls(text)`` and
    ``cls._parse(text)`` raise :meth:`_refuse`'s error for an invalid text.
    """

    __slots__ = ()
    _grammar: ClassVar[Grammar] = URI_GRAMMAR
    _rule: ClassVar[str] = "URI-reference"
    _iri: ClassVar[bool] = False
    if TYPE_CHECKING:

        @staticmethod
        def _fullmatch(text: str) -> re.Match[str] | None: ...

    else:
        _fullmatch = _Pattern(URI_GRAMMAR)

    @classmethod
    def _refuse(cls, text: str) -> NoReturn:
        """Raise where and why ``text`` is not a reference of this class (``diagnose``)."""
        raise locate(text, cls._grammar, cls._rule)

    def _same(self, other: URI | IRI | str) -> Self:
        """``other`` read by this reference's grammar (a URI or IRI of this class as it is)."""
        if type(other) is type(self):
            return other
        return type(self)(other)

    # -- the value ------------------------------------------------------------

    def __str__(self) -> str:
        """The reference as written: recomposition (§5.3) gives back the input."""
        return self._text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.redacted()!r})"

    def __format__(self, spec: str) -> str:
        return format(self._text, spec)

    def __eq__(self, other: object) -> bool:
        """Simple string comparison (RFC 3986 §6.2.1); see ``equivalent()`` for more."""
        if isinstance(other, _Reference):
            return self._text == other._text
        if isinstance(other, str):
            return self._text == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __lt__(self, other: object) -> bool:
        text = _text_of(other)
        return NotImplemented if text is None else self._text < text

    def __le__(self, other: object) -> bool:
        text = _text_of(other)
        return NotImplemented if text is None else self._text <= text

    def __gt__(self, other: object) -> bool:
        text = _text_of(other)
        return NotImplemented if text is None else self._text > text

    def __ge__(self, other: object) -> bool:
        text = _text_of(other)
        return NotImplemented if text is None else self._text >= text

    def __hash__(self) -> int:
        return hash(self._text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; use replace()")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (type(self), (self._text,))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self

    @property
    def parts(self) -> Parts:
        """All eight components at once (§3), as the RFC operations read them."""
        return tuple.__new__(Parts, self._groups())

    # -- components (§3): scheme ... fragment are the store's -------------------------

    @property
    def port_number(self) -> int | None:
        """The port as a number, or ``None`` when it is absent or empty (§3.2.3).

        RFC 3986 §3.2.3 sets no bound (``URI("http://h:70000/")`` is valid and keeps
        its text), but a port is the number of a TCP or UDP port, 0 to 65535 (RFC 9293
        §3.1, RFC 768): a larger one raises :class:`URIError` at the port.
        """
        port = self.port
        if not port:
            return None
        number = port_value(port)
        if number is not None:
            return number
        raise URIError(
            f"the port {port_shown(port)} is above {PORT_MAX}, the largest TCP or UDP port number "
            "(RFC 9293 §3.1, RFC 768; RFC 3986 §3.2.3 sets no bound, so the URI itself is valid)",
            text=self._text,
            position=self._span(5)[0],
            rule="port",
        )

    def span(self, component: Component) -> tuple[int, int] | None:
        """Where ``component`` (RFC 3986 §3) stands in the text, or ``None`` when undefined."""
        start, end = self._span(_GROUPS[component])
        return None if start < 0 else (start, end)

    def decoded(
        self,
        component: Component = "path",
        *,
        encoding: str = "utf-8",
        errors: DecodeErrors = "strict",
    ) -> str | None:
        """``component`` with its percent-encodings decoded (§2.1, §2.4).

        Decoding is lossy: a decoded "%2F" in a path is no longer told apart
        from "/".  For an IP-literal host it gives the address with its zone
        ID decoded, ``fe80::1%eth0``, as socket functions take it.
        """
        value: str | None = getattr(self, component) if component in _GROUPS else None
        if component not in _GROUPS:
            raise ValueError(f"unknown component {component!r}")
        if value is None:
            return None
        if component == "host" and value.startswith("["):
            value = value[1:-1].replace("%25", "%", 1) if "%25" in value else value[1:-1]
            address, sep, zone = value.partition("%")
            return address + sep + percent_decode(zone, encoding=encoding, errors=errors)
        return percent_decode(value, encoding=encoding, errors=errors)

    # -- hosts (§3.2.2) -------------------------------------------------------------

    @property
    def host_type(self) -> HostType | None:
        """``"ipv6"``, ``"ipvfuture"``, ``"ipv4"`` or ``"reg-name"``; ``None`` with no host.

        A host that matches IPv4address is IPv4, not a reg-name: first-match-wins
        (§3.2.2).
        """
        host = self.host
        if host is None:
            return None
        if host[:1] == "[":
            return "ipvfuture" if host[1] in "vV" else "ipv6"
        return "ipv4" if URI_GRAMMAR.rule("IPv4address").fullmatch(host) else "reg-name"

    @property
    def zone_id(self) -> str | None:
        """The decoded RFC 6874 zone ID of an IPv6 literal, such as ``"eth0"``."""
        host = self.host
        if host is None or host[:1] != "[" or "%25" not in host:
            return None  # only an IP literal has a zone (RFC 6874 §2); a reg-name's %25 is data
        return percent_decode(host[host.index("%25") + 3 : -1], errors="surrogateescape")

    @property
    def ip(self) -> IPAddress | None:
        """The ``ipaddress`` object of an IPv4 or IPv6 host (§3.2.2), zone ID as scope ID."""
        kind = self.host_type
        host = self.host
        if kind == "ipv4":
            return ipaddress.IPv4Address(host)
        if kind != "ipv6" or host is None:
            return None
        address = host[1:-1].partition("%")[0]
        zone = self.zone_id
        if zone is not None:
            try:
                return ipaddress.IPv6Address(f"{address}%{zone}")
            except ValueError:
                pass
        return ipaddress.IPv6Address(address)

    # -- classification (§4) -------------------------------------------------------

    @property
    def is_absolute(self) -> bool:
        """Is it an absolute-URI (§4.3): a scheme, and no fragment?"""
        return self.scheme is not None and self.fragment is None

    @property
    def is_relative(self) -> bool:
        """Is it a relative-ref (§4.2): no scheme?"""
        return self.scheme is None

    @property
    def kind(self) -> Kind:
        """The form of the reference (§4.1, §4.2).

        ``"uri"`` (it has a scheme), ``"network-path"`` (begins with "//"),
        ``"absolute-path"`` (begins with "/") or ``"relative-path"``.
        """
        if self.scheme is not None:
            return "uri"
        if self.authority is not None:
            return "network-path"
        return "absolute-path" if self.path[:1] == "/" else "relative-path"

    @property
    def is_opaque(self) -> bool:
        """A URI whose path is not hierarchical: a scheme, no authority, and a
        path that does not begin with "/" (``mailto:a@b``, ``urn:x:y``; §1.2.3, §3)."""
        return self.scheme is not None and self.authority is None and self.path[:1] != "/"

    @property
    def is_hierarchical(self) -> bool:
        """Is the path hierarchical (§1.2.3)?  Every reference that is not opaque."""
        return not self.is_opaque

    def is_same_document(self, base: URI | IRI | str | None = None) -> bool:
        """Is this a same-document reference (§4.4)?

        Without a base, the empty reference and fragment-only references are.
        With a base, the reference is same-document when it resolves to the
        base, fragments aside.
        """
        if base is None:
            text = self._text
            return text == "" or text[0] == "#"
        base_ref = self._same(base)
        target = base_ref.resolve(cast("URI | IRI", self))
        return _without_fragment(target) == _without_fragment(base_ref)

    # -- the names urllib.parse uses (docs/migration.md) -------------------------------

    @property
    def netloc(self) -> str:
        """The authority, ``""`` when there is none: ``urllib.parse``'s ``netloc``."""
        authority = self.authority
        return "" if authority is None else authority

    @property
    def hostname(self) -> str | None:
        """The host as ``urllib.parse`` gives it: ASCII letters lower-cased, an IP
        literal without its brackets and with its zone ID as written (RFC 6874
        §2); ``None`` when there is no host or it is empty."""
        host = self.host
        if not host:
            return None
        if host[0] != "[":
            return host.translate(_ASCII_LOWER)
        address, sep, zone = host[1:-1].partition("%25")
        return address.translate(_ASCII_LOWER) + sep + zone

    @property
    def username(self) -> str | None:
        """The userinfo before its first ":" (§3.2.1), as written; ``None`` without userinfo."""
        userinfo = self.userinfo
        return None if userinfo is None else userinfo.partition(":")[0]

    @property
    def password(self) -> str | None:
        """The userinfo after its first ":", as written; ``None`` when there is no ":".

        RFC 3986 §3.2.1 deprecates passwords in URIs; see :meth:`redacted`.
        """
        userinfo = self.userinfo
        if userinfo is None or ":" not in userinfo:
            return None
        return userinfo.partition(":")[2]

    def decode(self, encoding: str = "utf-8", errors: str = "strict") -> NoReturn:
        """Refused: a reference is text, not bytes.

        ``urllib.parse`` calls ``decode()`` on any argument that is not a ``str``;
        this says what to do instead of failing somewhere inside it.
        """
        raise TypeError(
            f"a {type(self).__name__} is text, not bytes: pass str(uri) to urllib.parse, "
            "or use to_urlsplit() (docs/migration.md)"
        )

    def to_urlsplit(self) -> SplitResult:
        """The ``urllib.parse.SplitResult`` of this reference.

        urllib writes an absent component as ``""``, so the difference between
        absent and empty (§5.3) is lost: ``http://h/?`` and ``http://h/`` give
        the same result.
        """
        scheme, authority, _, _, _, path, query, fragment = self.parts
        return SplitResult(scheme or "", authority or "", path, query or "", fragment or "")

    @classmethod
    def from_urlsplit(cls, parts: SplitResult | ParseResult) -> Self:
        """A reference from a ``urllib.parse`` result, validated as :meth:`build` does.

        urllib cannot tell an empty component from an absent one; ``""`` is
        taken as absent, as its ``geturl()`` does, but for an empty ``netloc``
        before a path that begins with "//": without an authority no path may
        (RFC 3986 §3.3), so the authority was there and empty (``////``).
        """
        path = parts.path
        if isinstance(parts, ParseResult) and parts.params:
            path += ";" + parts.params
        return cls.build(
            scheme=parts.scheme or None,
            authority=parts.netloc or ("" if path.startswith("//") else None),
            path=path,
            query=parts.query or None,
            fragment=parts.fragment or None,
        )

    # -- origin ---------------------------------------------------------------------

    @property
    def effective_port(self) -> int | None:
        """The port a client connects to: the port given, else the scheme's default
        port (§3.2.3, §6.2.3; ``urikit.schemes``); ``None`` when neither is known."""
        number = self.port_number
        if number is not None:
            return number
        scheme = self.scheme
        if scheme is None or self.host is None:
            return None
        spec = _schemes.DEFAULT_REGISTRY.get(scheme)
        return None if spec is None else spec.default_port

    @property
    def origin(self) -> Origin | None:
        """The (scheme, host, port) a client talks to, compared as RFC 6454 §4 does.

        The scheme and the host are lower-cased; a host with non-ASCII or
        percent-encoded characters is written with IDNA A-labels (UTS #46), so
        ``http://B\u00fccher.example`` and ``http://xn--bcher-kva.example:80``
        have the same origin; the port is :meth:`effective_port`.  ``None`` for
        a reference without a scheme or a host (its origin is opaque).
        """
        scheme, host = self.scheme, self.host
        if scheme is None or not host:
            return None
        return Origin(scheme.lower(), _host_key(host), self.effective_port)

    # -- display --------------------------------------------------------------------

    def redacted(self, mask: str = "***") -> str:
        """The text with the password of the userinfo masked (RFC 3986 §7.5)."""
        text = self._text
        start, end = self._span(3)
        if start < 0:
            return text
        colon = text.find(":", start, end)
        if colon < 0 or colon + 1 == end:
            return text
        return text[: colon + 1] + mask + text[end:]

    # -- reading real-world input (Appendix C) -------------------------------------

    @classmethod
    def lenient(cls, text: str) -> Repaired[Self]:
        """Parse real-world input, repairing what can be repaired, and say what was.

        Surrounding white space, ``<...>`` or ``"..."`` delimiters and a ``URL:``
        prefix are removed (RFC 3986 Appendix C); characters the grammar
        forbids (space, non-ASCII, ``"<>\\^`{|}``, controls) and a "%" that
        starts no triplet are percent-encoded as UTF-8.  Returns
        ``Repaired(uri, reports)``, one :class:`~urikit.report.Report` per
        repair (a run of like repairs is one), in the order of their spans in
        ``text``; what cannot be repaired raises :class:`URIError`.
        """
        repaired, reports, value = lenient.repair_value(text, cls._grammar.iri, cls._scan)
        return Repaired(cls(repaired) if value is None else value, reports)

    # -- building and editing ----------------------------------------------------

    @classmethod
    def build(
        cls,
        *,
        scheme: str | None = None,
        authority: str | None = None,
        userinfo: str | None = None,
        host: str | None = None,
        port: str | int | None = None,
        path: str = "",
        query: str | None = None,
        fragment: str | None = None,
        encode: bool = False,
    ) -> Self:
        """A reference from its components, recomposed per RFC 3986 §5.3.

        Give either ``authority`` whole or ``userinfo``/``host``/``port``.  With
        ``encode=True`` the components are data: each is percent-encoded for
        its place (a "?" in a path becomes "%3F", and so on), IPv6 addresses
        are bracketed.  Without it they must already be valid, and a component
        that would change the structure (a "#" in a query, say) is an error.
        The combinations the grammar forbids are refused (§3.3, §4.2).
        """
        if authority is not None and (userinfo, host, port) != (None, None, None):
            raise ValueError("give either authority or userinfo/host/port, not both")
        if isinstance(port, bool):
            raise TypeError("port must be a str of digits or an int, not bool")
        if isinstance(port, int):
            if port < 0:
                raise URIError(f"a port cannot be negative: {port}", rule="port")
            port = str(port)
        if host is None and (userinfo is not None or port is not None):
            host = ""
        if encode:
            data = encode_data(
                {
                    "userinfo": userinfo,
                    "host": host,
                    "path": path,
                    "query": query,
                    "fragment": fragment,
                },
                cls._grammar.iri,
            )
            userinfo, host, query, fragment = (
                data["userinfo"],
                data["host"],
                data["query"],
                data["fragment"],
            )
            path = data["path"] or ""
            if scheme is None and host is None and authority is None:
                # §4.2: the first segment of a relative-path reference holds no ":"
                first, sep, rest = path.partition("/")
                path = first.replace(":", "%3A") + sep + rest
        if host is not None:
            authority = compose_authority(userinfo, host, port)
        check_structure(scheme, authority, path)
        text = recompose(scheme, authority, path, query, fragment)
        result = cls(text)
        given: dict[Component, str | None] = {
            "scheme": scheme,
            "authority": authority,
            "path": path,
            "query": query,
            "fragment": fragment,
        }
        if host is not None:
            given["userinfo"], given["host"], given["port"] = userinfo, host, port
        for name, value in given.items():
            if getattr(result, name) != value:
                span = result.span(name)
                raise URIError(
                    f"the {name} {value!r} would not survive recomposition: it holds a "
                    f"delimiter of another component; percent-encode it or pass encode=True",
                    text=text,
                    position=span[1] if span else 0,
                    rule=name,
                )
        return result

    def replace(
        self,
        *,
        scheme: str | None = _KEEP,
        authority: str | None = _KEEP,
        userinfo: str | None = _KEEP,
        host: str | None = _KEEP,
        port: str | int | None = _KEEP,
        path: str = _KEEP,
        query: str | None = _KEEP,
        fragment: str | None = _KEEP,
        encode: bool = False,
    ) -> Self:
        """A new reference with some components changed; ``None`` removes one (RFC 3986 §5.3).

        Changing ``userinfo``, ``host`` or ``port`` keeps the other two.  The
        result is validated as in :meth:`build`, and ``encode=True`` encodes
        only the components given here.
        """
        given: dict[str, Any] = {
            "scheme": scheme,
            "authority": authority,
            "userinfo": userinfo,
            "host": host,
            "port": port,
            "path": path,
            "query": query,
            "fragment": fragment,
        }
        changed = {name: value for name, value in given.items() if value is not _KEEP}
        if encode:
            changed.update(encode_data(changed, self._grammar.iri))
        parts: dict[str, Any] = {
            k: changed.pop(k) for k in ("userinfo", "host", "port") if k in changed
        }
        components = {k: getattr(self, k) for k in ("scheme", "path", "query", "fragment")}
        components.update(changed)
        if parts:
            if "authority" in changed:
                raise ValueError("give either authority or userinfo/host/port, not both")
            current: dict[str, Any] = {
                "userinfo": self.userinfo,
                "host": self.host,
                "port": self.port,
            }
            current.update(parts)
            if current["host"] is None and (current["userinfo"], current["port"]) != (None, None):
                raise ValueError(
                    "without a host there is no authority to hold a userinfo or port; "
                    "remove them too, or pass authority=None"
                )
            if current["host"] is not None:
                components.update(current)
        elif "authority" not in changed:
            components["authority"] = self.authority
        return type(self).build(**components)

    # -- resolution (§5.2) ---------------------------------------------------------

    def resolve(self, ref: URI | IRI | str, *, strict: bool = True, spec: Spec = "rfc3986") -> Self:
        """The target of ``ref`` resolved against this base (RFC 3986 §5.2).

        The base must be an absolute URI (a fragment on it is ignored, §5.1).
        ``ref`` is read by this reference's grammar (URI or IRI), and the result
        is of this class.  ``strict=False`` ignores a scheme in ``ref`` equal to
        the base's (the §5.2.2 loophole: ``http:g`` gives ``http://a/b/c/g``).
        ``spec`` selects the algorithm: ``"rfc3986"``, or the legacy
        ``"rfc2396"`` (RFC 2396 §5.2) or ``"rfc1630"`` (RFC 1630 partial forms).

        >>> str(URI("http://a/b/c/d;p?q").resolve("../g"))
        'http://a/b/g'
        """
        base = self.parts
        check_base(base)
        cls = type(self)
        if spec == "rfc3986":
            if (
                type(ref) is str
                and (cls is URI or cls is IRI)
                and (target := _resolved(cls, self._text, ref, strict)) is not None
            ):
                return self if target._text == self._text else target
            text = transform_references(base, self._same(ref).parts, strict=strict)
        elif spec == "rfc2396":
            text = legacy.resolve_rfc2396(base, self._same(ref).parts, strict=strict)
        elif spec == "rfc1630":
            text = legacy.resolve_rfc1630(base, self._same(ref).parts)
        else:
            raise ValueError(
                f"unknown resolution spec {spec!r}; expected 'rfc3986', 'rfc2396' or 'rfc1630'"
            )
        return self if text == self._text else cls._parse(text)

    def relativize(self, target: URI | IRI | str) -> Self:
        """The shortest reference that resolves against this base to ``target`` (§5.2, §4.2).

        For every absolute ``target`` whose path has no dot-segments,
        ``base.resolve(base.relativize(target)) == target`` exactly.  In general
        the answer is the shortest ``r`` with ``base.resolve(r) ==
        base.resolve(target)``: a relative ``target`` is taken relative to the
        base, and a path with dot-segments (which no reference reaches, since
        resolution removes them) is answered for the path without them.

        >>> str(URI("http://a/b/c/d;p?q").relativize("http://a/b/g"))
        '../g'
        """
        goal = self.resolve(target)
        return type(self)._parse(relativize_parts(self.parts, goal.parts, self._grammar))

    # -- normalization (§6.2) -------------------------------------------------------

    @overload
    def normalize(
        self,
        *,
        level: Level = ...,
        registry: SchemeRegistry = ...,
        unicode: UnicodeForm | None = ...,
        idna: Literal["a-label"] | None = ...,
        strip_host_dot: bool = ...,
        remove_params: ParamFilter | None = ...,
        form_query: bool = ...,
        sort_query: bool = ...,
        drop_empty_query: bool = ...,
        drop_fragment: bool = ...,
    ) -> Self: ...
    @overload
    def normalize(
        self,
        *,
        level: Level = ...,
        registry: SchemeRegistry = ...,
        unicode: UnicodeForm | None = ...,
        idna: Literal["u-label"],
        strip_host_dot: bool = ...,
        remove_params: ParamFilter | None = ...,
        form_query: bool = ...,
        sort_query: bool = ...,
        drop_empty_query: bool = ...,
        drop_fragment: bool = ...,
    ) -> IRI: ...
    def normalize(
        self,
        *,
        level: Level = "scheme",
        registry: SchemeRegistry = _DEFAULT_REGISTRY,
        unicode: UnicodeForm | None = None,
        idna: IdnaForm | None = None,
        strip_host_dot: bool = False,
        remove_params: ParamFilter | None = None,
        form_query: bool = False,
        sort_query: bool = False,
        drop_empty_query: bool = False,
        drop_fragment: bool = False,
    ) -> _Reference:
        """The normal form at ``level`` of the comparison ladder (RFC 3986 §6.2).

        ``level`` is ``"scheme"`` (§6.2.3, the default), ``"syntax"`` (§6.2.2)
        or ``"string"`` (§6.2.1: no change); scheme knowledge comes from
        ``registry``.  The protocol-based steps (§6.2.4) run only when switched
        on: ``unicode="NFC"|"NFKC"``, ``idna="a-label"|"u-label"``,
        ``strip_host_dot``, ``remove_params`` (names, ``"utm_*"`` prefixes or a
        predicate), ``form_query``, ``sort_query``, ``drop_empty_query``,
        ``drop_fragment``; ``docs/normalization.md`` says what each one risks.
        The result has this reference's type, except with ``idna="u-label"``,
        whose display form is always an :class:`IRI` (RFC 3987 §3.2).

        >>> str(URI("eXAMPLE://a/./b/../b/%63/%7bfoo%7d").normalize())
        'example://a/b/c/%7Bfoo%7D'
        """
        steps = _steps(
            unicode,
            idna,
            strip_host_dot,
            remove_params,
            form_query,
            sort_query,
            drop_empty_query,
            drop_fragment,
        )
        if registry is _DEFAULT_REGISTRY:
            registry = _schemes.DEFAULT_REGISTRY
        return self._normalize(level, registry, steps)

    def _normalize(self, level: Level, registry: SchemeRegistry, steps: Steps | None) -> _Reference:
        """:meth:`normalize` with its steps gathered (``None``: no step is on)."""
        text = self._text
        if steps is None:
            if level == "string":
                return self
            if level == "syntax" or level == "scheme":
                quick = _fast.quick_normal_form(text, level, registry)
                if quick is not None:
                    return self if quick is text else type(self)._parse(quick)
        return self._normalize_parts(level, registry, steps)

    def _normalize_parts(
        self, level: Level, registry: SchemeRegistry, steps: Steps | None
    ) -> _Reference:
        """:meth:`_normalize` by the readable algorithm (``normalize.normalize``) alone."""
        normal = normalize_parts(
            self.parts, level=level, registry=registry, iri=self._grammar.iri, steps=steps
        )
        result: type[_Reference] = type(self)
        if steps is not None and steps.get("idna") == "u-label":
            result = IRI
        if normal == self._text and result is type(self):
            return self
        return result._parse(normal)

    # -- the query (§3.4) --------------------------------------------------------------

    def query_params(
        self,
        codec: Codec = "form",
        *,
        errors: DecodeErrors = "strict",
        max_params: int = _query.MAX_PARAMS,
        max_length: int = _query.MAX_QUERY_LENGTH,
    ) -> list[tuple[str, str | None]]:
        """The decoded ``(name, value)`` pairs of the query, in order (§3.4).

        ``codec="form"`` reads "+" as a space (HTML forms); ``"rfc3986"`` does
        not.  A name without "=" has the value ``None``.
        """
        return _query.query_params(
            self.query, codec, errors=errors, max_params=max_params, max_length=max_length
        )

    def query_param(
        self,
        name: str,
        default: str | None = None,
        *,
        codec: Codec = "form",
        errors: DecodeErrors = "strict",
    ) -> str | None:
        """The first value of query parameter ``name`` (§3.4), or ``default``."""
        return _query.query_param(self.query, name, default, codec=codec, errors=errors)

    def query_param_all(
        self, name: str, *, codec: Codec = "form", errors: DecodeErrors = "strict"
    ) -> list[str | None]:
        """Every value of query parameter ``name`` (§3.4), in order."""
        return _query.query_param_all(self.query, name, codec=codec, errors=errors)

    def has_query_param(self, name: str, *, codec: Codec = "form") -> bool:
        """Does the query (§3.4) have a parameter ``name``?"""
        return _query.has_query_param(self.query, name, codec=codec)

    def with_query_params(
        self,
        pairs: Mapping[str, QueryValues] | Iterable[tuple[str, QueryValues]],
        *,
        codec: Codec = "form",
    ) -> Self:
        """A new reference whose query (§3.4) is ``pairs``: a mapping or ``(name, value)`` pairs."""
        query = _query.with_query_params(pairs, codec=codec)
        return self._with_query(query, self.query)

    def add_query_param(self, name: str, value: QueryValues, *, codec: Codec = "form") -> Self:
        """A new reference with ``name=value`` appended to the query (§3.4), the rest kept as is."""
        old = self.query
        return self._with_query(_query.add_query_param(old, name, value, codec=codec), old)

    def set_query_param(self, name: str, value: QueryValues, *, codec: Codec = "form") -> Self:
        """A new reference where parameter ``name`` (§3.4) has this value, at its first place."""
        old = self.query
        query = None
        if old and type(name) is str and type(value) is str and codec in _query.CODECS:
            query = _query._set_as_written(old, name, value)  # the common case, no split
        if query is None:
            query = _query.set_query_param(old, name, value, codec=codec)
        return self._with_query(query, old)

    def remove_query_param(self, name: str, *, codec: Codec = "form") -> Self:
        """A new reference without query parameter ``name`` (§3.4); the rest is kept as is."""
        old = self.query
        return self._with_query(_query.remove_query_param(old, name, codec=codec), old)

    def remove_query_params(self, names: NameMatcher, *, codec: Codec = "form") -> Self:
        """A new reference without the parameters ``names`` matches (§3.4): a glob
        on the decoded name (``"utm_*"``), a collection of exact names, or a
        predicate on the decoded name."""
        old = self.query
        return self._with_query(_query.remove_query_params(old, names, codec=codec), old)

    def _with_query(self, query: str | None, old: str | None) -> Self:
        """This reference with its query text ``old`` replaced by ``query``, the rest kept
        byte for byte."""
        if query == old:
            return self
        made = self._replace_query(query)
        if made is not None or query is None:  # removing the query always leaves a reference
            return made if made is not None else self
        # Not a query of this grammar (§3.4): the parse of the new text says where.
        text = self._text
        start, end = self._span(7)
        if start < 0:
            start = end = self._span(6)[1]
        else:
            start -= 1  # the "?"
        new = f"{text[:start]}?{query}{text[end:]}"
        made = type(self)._parse(new)
        if made.query != query:  # a "#" ends the query and starts a fragment (§3.5)
            raise URIError(
                'a query cannot hold "#", which starts the fragment (§3.4, §3.5); '
                "percent-encode it as %23",
                text=new,
                position=start + 1 + query.index("#"),
                rule="query",
            )
        return made

    # -- the path (§3.3) ---------------------------------------------------------------

    def segments(self, *, errors: DecodeErrors = "strict") -> list[str]:
        """The decoded path segments (§3.3); a rooted path's first "" is left out."""
        return paths.segments(self.path, errors=errors)

    def joinpath(self, *names: str) -> Self:
        """A new reference with data ``names`` appended to the path, each encoded (§3.3).

        "/" and "\\" in a name are encoded, and "." and ".." are refused in
        every spelling: a name never climbs.
        """
        path = paths.joinpath(
            self.path, names, iri=self._grammar.iri, scheme=self.scheme, authority=self.authority
        )
        return self if path == self.path else self.replace(path=path)

    def parent(self) -> Self:
        """The parent collection, resolved as ``".."`` would be (§5.2)."""
        return self._navigate(paths.PARENT_REFERENCE)

    def sibling(self, name: str) -> Self:
        """The sibling resource ``name`` (a data segment), resolved as a relative path (§5.2)."""
        return self._navigate(paths.sibling_reference(name, iri=self._grammar.iri))

    def _navigate(self, reference: str) -> Self:
        """Resolve ``reference`` against this reference, fragment aside (§5.2).

        An absolute-path or network-path reference navigates as it would under
        any scheme; a relative-path reference has no base to navigate from.
        """
        paths.check_navigable(self.scheme, self.authority, self.path)
        base = self if self.fragment is None else self.replace(fragment=None)
        if base.scheme is not None:
            return base.resolve(reference)
        return base.replace(scheme="x").resolve(reference).replace(scheme=None)

    # -- file: URIs (RFC 8089) ---------------------------------------------------------

    def to_path(self, flavor: Flavor | None = None) -> PurePath:
        """The local path of a ``file:`` URI (RFC 8089): a ``PurePosixPath`` or
        ``PureWindowsPath`` by ``flavor`` (default: this machine's)."""
        return fileuri.to_path(self.parts, self._text, flavor)

    @classmethod
    def from_path(cls, path: str | PurePath) -> Self:
        """The ``file:`` URI of a local path (RFC 8089 §2), every octet encoded as data."""
        return cls._parse(fileuri.path_to_uri_text(path))


_GROUPS: Final = {
    "scheme": 1,
    "authority": 2,
    "userinfo": 3,
    "host": 4,
    "port": 5,
    "path": 6,
    "query": 7,
    "fragment": 8,
}


def _text_of(value: object) -> str | None:
    if isinstance(value, _Reference):
        return value._text
    if isinstance(value, str):
        return value
    return None


def _without_fragment(ref: _Reference) -> str:
    text = ref._text
    start = ref._span(8)[0]
    return text if start < 0 else text[: start - 1]


class URI(_Reference):
    """A URI reference (RFC 3986 §4.1): strictly parsed, exact, immutable.

    ``URI(text)`` accepts any URI-reference: a URI with a scheme or a relative
    reference.  Anything outside the grammar of RFC 3986 Appendix A (with the
    zone IDs of RFC 6874) raises :class:`URIError` with the position, the rule
    and the reason.  Where the grammar is ambiguous the first match wins
    (§3.2.2, §4.1).  See :meth:`lenient` for real-world input.

    >>> u = URI("foo://example.com:8042/over/there?name=ferret#nose")
    >>> u.scheme, u.authority, u.path, u.query, u.fragment
    ('foo', 'example.com:8042', '/over/there', 'name=ferret', 'nose')
    """

    __slots__ = ()

    def to_iri(self, *, idna: bool = False) -> IRI:
        """The IRI this URI displays as (RFC 3987 §3.2): octets of UTF-8 decoded
        where the result is allowed, and with ``idna`` A-labels as U-labels."""
        return IRI._parse(mapping.uri_to_iri(self._text, self.parts, idna=idna))


class IRI(_Reference):
    """An IRI reference (RFC 3987 §2.2): strictly parsed, exact, immutable.

    Everything :class:`URI` offers works the same way; the grammar also allows
    ``ucschar`` wherever RFC 3986 allows unreserved characters, and
    ``iprivate`` in the query.  A bidirectional formatting character (U+200E,
    U+200F, U+202A-U+202E, and U+061C, U+2066-U+2069) is refused, as §4.1
    requires, with a :class:`URIError` at its position.

    >>> iri = IRI("http://r\u00e9sum\u00e9.example.org/D\u00fcrst?q=\u00e9")
    >>> iri.host, iri.path
    ('r\u00e9sum\u00e9.example.org', '/D\u00fcrst')
    >>> str(iri.to_uri())
    'http://r%C3%A9sum%C3%A9.example.org/D%C3%BCrst?q=%C3%A9'
    >>> str(iri.to_uri(idna=True))
    'http://xn--rsum-bpad.example.org/D%C3%BCrst?q=%C3%A9'
    """

    __slots__ = ()
    _grammar: ClassVar[Grammar] = IRI_GRAMMAR
    _rule: ClassVar[str] = "IRI-reference"
    _iri: ClassVar[bool] = True

    if not TYPE_CHECKING:
        _fullmatch = _Pattern(IRI_GRAMMAR)

    def to_uri(self, *, idna: bool = False, nfc: bool = False) -> URI:
        """The URI this IRI maps to (RFC 3987 §3.1): non-ASCII characters as
        triplets of their UTF-8 octets; ``idna`` writes a host's labels as
        A-labels, ``nfc`` applies NFC first (§5.3.2.2)."""
        return URI._parse(mapping.iri_to_uri(self._text, self.parts, idna=idna, nfc=nfc))

    def bidi_reports(self) -> list[Report]:
        """The components that break the Bidi IRI structure (RFC 3987 §4.2)."""
        return _bidi.bidi_reports(self.parts, self._text)


# URI(text) and IRI(text) go from the call straight to the compiled store's scan.
URI._construct_directly()
IRI._construct_directly()

#: A URI from a full match of its grammar (bound once for ``normalize``'s fast road).
_uri_from_match: Final = URI._from_match

#: A URI or IRI reference.
AnyURI = URI | IRI


# -- the functional forms ---------------------------------------------------------------


def _as_reference(value: URI | IRI | str) -> URI | IRI:
    return value if isinstance(value, (URI, IRI)) else URI(value)


@overload
def resolve(
    base: str | URI, ref: URI | IRI | str, *, strict: bool = ..., spec: Spec = ...
) -> URI: ...
@overload
def resolve(base: IRI, ref: URI | IRI | str, *, strict: bool = ..., spec: Spec = ...) -> IRI: ...
def resolve(
    base: URI | IRI | str, ref: URI | IRI | str, *, strict: bool = True, spec: Spec = "rfc3986"
) -> URI | IRI:
    """The target of ``ref`` resolved against ``base`` (RFC 3986 §5.2); see :meth:`URI.resolve`.

    A ``str`` base is read as a :class:`URI`.

    >>> str(resolve("http://a/b/c/d;p?q", "../g"))
    'http://a/b/g'
    """
    if type(base) is str and type(ref) is str and spec == "rfc3986":
        if compiled:
            if (target := _resolved(URI, base, ref, strict)) is not None:
                return target
        elif (bm := _match_uri(base)) is not None and bm.start(1) >= 0:
            # These are the lines of ``_fast.resolved_by_match`` for a URI, read here so
            # that the common reference costs no other call than the shortcut's, and the
            # URI is made from the match here as ``_from_match`` makes it.
            if (text := _target_text(base, bm.span, ref)) is not None and (
                m := _match_uri(text)
            ) is not None:
                made = _new(URI)
                _store_match(made, m)
                return made
            if (target := _resolved_against(URI, bm, ref, strict)) is not None:
                return target
            URI._refuse(ref)  # the one case without a target: ref is no URI-reference
    # an error, another spec or a value: the method says which
    return _as_reference(base).resolve(ref, strict=strict, spec=spec)


@overload
def relativize(base: str | URI, target: URI | IRI | str) -> URI: ...
@overload
def relativize(base: IRI, target: URI | IRI | str) -> IRI: ...
def relativize(base: URI | IRI | str, target: URI | IRI | str) -> URI | IRI:
    """The shortest reference that resolves against ``base`` to ``target`` (§5.2, §4.2).

    >>> str(relativize("http://a/b/c/d;p?q", "http://a/b/g"))
    '../g'
    """
    return _as_reference(base).relativize(target)


def normalize(
    uri: URI | IRI | str,
    *,
    level: Level = "scheme",
    registry: SchemeRegistry = _DEFAULT_REGISTRY,
    unicode: UnicodeForm | None = None,
    idna: IdnaForm | None = None,
    strip_host_dot: bool = False,
    remove_params: ParamFilter | None = None,
    form_query: bool = False,
    sort_query: bool = False,
    drop_empty_query: bool = False,
    drop_fragment: bool = False,
) -> URI | IRI:
    """The normal form of ``uri`` at ``level`` (RFC 3986 §6.2); see :meth:`URI.normalize`.

    A ``str`` is read as a :class:`URI`.

    >>> str(normalize("HTTP://Example.COM:80"))
    'http://example.com/'
    """
    if (
        type(uri) is str
        and unicode is None
        and idna is None
        and remove_params is None
        and not (strip_host_dot or form_query or sort_query or drop_empty_query or drop_fragment)
    ):
        if not compiled and level == "scheme" and registry is _DEFAULT_REGISTRY:
            # A string already normal, or close to it, costs one match: that of the answer.
            # These are the lines of ``_fast.normal_match`` for the default registry, read
            # here so that the common call makes no other call than the answer's, and the
            # URI is made from the match here as ``_from_match`` makes it.
            tables = _default_tables
            m = tables.normal(uri)
            if m is None and "%" in uri and tables.changing_triplet(uri) is None:
                m = tables.normal_encoded(uri)
            if m is not None and "/." not in (path := m[6]):
                if path or m[2] is None or m[1] not in tables.rooted:
                    made = _new(URI)
                    _store_match(made, m)
                    return made
                end = m.end(2)  # the empty path, which §6.2.3 makes "/"
                if (m := tables.normal_encoded(uri[:end] + "/" + uri[end:])) is not None:
                    made = _new(URI)
                    _store_match(made, m)
                    return made
        if level == "scheme" or level == "syntax":
            if registry is _DEFAULT_REGISTRY:
                registry = _schemes.DEFAULT_REGISTRY
            if _fast.normal_reference is not None:
                if (target := _fast.normal_reference(URI, uri, level, registry)) is not None:
                    return target
            else:
                if (
                    level == "scheme"
                    and registry is not _schemes.DEFAULT_REGISTRY
                    and (m := _fast.normal_match(uri, registry)) is not None
                ):
                    return _uri_from_match(m)
                quick = _fast.quick_normal_form(uri, level, registry)
                if quick is not None:
                    if (target := URI._scan(quick)) is not None:
                        return target
                elif (m := _match_uri(uri)) is not None:
                    # the quick test is unsure: the readable road, without trying it again
                    parts = tuple.__new__(Parts, m.groups())
                    normal = normalize_parts(parts, level=level, registry=registry)
                    if normal != uri:
                        return URI._parse(normal)
                    made = _new(URI)
                    _store_match(made, m)
                    return made
    if registry is _DEFAULT_REGISTRY:
        registry = _schemes.DEFAULT_REGISTRY
    steps = _steps(
        unicode,
        idna,
        strip_host_dot,
        remove_params,
        form_query,
        sort_query,
        drop_empty_query,
        drop_fragment,
    )
    return cast("URI | IRI", _as_reference(uri)._normalize(level, registry, steps))


def _steps(
    unicode: UnicodeForm | None,
    idna: IdnaForm | None,
    strip_host_dot: bool,
    remove_params: ParamFilter | None,
    form_query: bool,
    sort_query: bool,
    drop_empty_query: bool,
    drop_fragment: bool,
) -> Steps | None:
    """The protocol-based steps (§6.2.4) that are switched on; ``None`` when none is."""
    if (
        unicode is None
        and idna is None
        and remove_params is None
        and not (strip_host_dot or form_query or sort_query or drop_empty_query or drop_fragment)
    ):
        return None
    return _protocol_steps.Steps(
        unicode=unicode,
        idna=idna,
        strip_host_dot=strip_host_dot,
        remove_params=remove_params,
        form_query=form_query,
        sort_query=sort_query,
        drop_empty_query=drop_empty_query,
        drop_fragment=drop_fragment,
    )


def from_path(path: str | PurePath) -> URI:
    """The ``file:`` URI of a local path (RFC 8089 §2); see :meth:`URI.from_path`."""
    return URI.from_path(path)


def same_origin(a: URI | IRI | str, b: URI | IRI | str) -> bool:
    """Do ``a`` and ``b`` have the same origin (RFC 6454 §5)?  Never for opaque origins.

    >>> same_origin("http://Example.com/a", "HTTP://example.com:80/b")
    True
    """
    origin = _as_reference(a).origin
    return origin is not None and origin == _as_reference(b).origin
