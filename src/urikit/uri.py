"""The immutable URI value: parse, validate, recompose, classify, edit.

A :class:`URI` is the input string and the offsets of its components, as
matched by the RFC 3986 Appendix A grammar (``grammar.py``).  Components are
read lazily from those offsets.  A component is ``None`` when its delimiter
is absent and ``""`` when it is present but empty (RFC 3986 §5.3 keeps the
two apart, and so do we).  ``str()`` is the input, character for character.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from .diagnose import locate
from .errors import URIError
from .grammar import IPV4_ADDRESS, URI_GRAMMAR, Grammar
from .percent import percent_decode, percent_encode

if TYPE_CHECKING:
    from typing_extensions import Self

    from .iri import IRI
    from .lenient import Violation

__all__ = ["URI", "Repaired", "recompose"]

_new: Final = object.__new__
_KEEP: Final[Any] = object()  # replace(): "leave this component as it is"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def recompose(
    scheme: str | None,
    authority: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
) -> str:
    """Component recomposition, RFC 3986 §5.3."""
    result = path
    if authority is not None:
        result = "//" + authority + result
    if scheme is not None:
        result = scheme + ":" + result
    if query is not None:
        result += "?" + query
    if fragment is not None:
        result += "#" + fragment
    return result


def compose_authority(userinfo: str | None, host: str, port: str | None) -> str:
    """authority = [ userinfo "@" ] host [ ":" port ]   (RFC 3986 §3.2)."""
    authority = host
    if userinfo is not None:
        authority = userinfo + "@" + authority
    if port is not None:
        authority += ":" + port
    return authority


class Repaired(NamedTuple):
    """What a lenient parse returns: the reference and every repair it made (Appendix C)."""

    uri: Any
    violations: list[Violation]


class _Reference:
    """What URI and IRI share: one implementation over two grammars."""

    __slots__ = ("_m",)
    _m: re.Match[str]
    _grammar: ClassVar[Grammar] = URI_GRAMMAR
    _rule: ClassVar[str] = "URI-reference"
    if TYPE_CHECKING:

        @staticmethod
        def _fullmatch(text: str) -> re.Match[str] | None: ...

    else:
        _fullmatch = URI_GRAMMAR.reference.fullmatch

    def __new__(cls, text: str | _Reference) -> Self:
        if type(text) is not str:
            if isinstance(text, _Reference):
                text = text._m.string
            elif isinstance(text, str):
                text = str.__str__(text)
            else:
                raise TypeError(f"{cls.__name__}() takes a str, not {type(text).__name__}")
        m = cls._fullmatch(text)
        if m is None:
            raise locate(text, cls._grammar, cls._rule)
        self = _new(cls)
        _store_match(self, m)
        return self

    @classmethod
    def _from_match(cls, m: re.Match[str]) -> Self:
        """A reference from a full match of ``cls._fullmatch``, with no other check.

        For the callers that already matched the text (resolution builds its
        result text and matches it once).
        """
        self = _new(cls)
        _store_match(self, m)
        return self

    @classmethod
    def _coerce(cls, value: _Reference | str) -> _Reference:
        """``value`` if it is already a URI or IRI, else ``cls(value)`` (which checks the type)."""
        return value if isinstance(value, _Reference) else cls(value)

    # -- the value ------------------------------------------------------------

    def __str__(self) -> str:
        """The reference as written: recomposition (§5.3) gives back the input."""
        return self._m.string

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.redacted()!r})"

    def __eq__(self, other: object) -> bool:
        """Simple string comparison (RFC 3986 §6.2.1); see ``equivalent()`` for more."""
        if isinstance(other, _Reference):
            return self._m.string == other._m.string
        if isinstance(other, str):
            return self._m.string == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __lt__(self, other: object) -> bool:
        if isinstance(other, _Reference):
            return self._m.string < other._m.string
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._m.string)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; use replace()")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (type(self), (self._m.string,))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self

    # -- components (§3) ----------------------------------------------------------

    @property
    def scheme(self) -> str | None:
        """scheme (§3.1), as written (schemes compare case-insensitively)."""
        return self._m.group(1)

    @property
    def authority(self) -> str | None:
        """authority (§3.2): ``None`` when there is no "//"."""
        return self._m.group(2)

    @property
    def userinfo(self) -> str | None:
        """userinfo (§3.2.1): ``None`` when the authority has no "@"."""
        return self._m.group(3)

    @property
    def host(self) -> str | None:
        """host (§3.2.2) as written; an IP literal keeps its brackets."""
        return self._m.group(4)

    @property
    def port(self) -> str | None:
        """port (§3.2.3), the exact digits: ``""`` for ``http://h:/``, ``None`` with no ":"."""
        return self._m.group(5)

    @property
    def path(self) -> str:
        """path (§3.3): always a string, possibly empty."""
        return self._m.group(6)

    @property
    def query(self) -> str | None:
        """query (§3.4): ``None`` when there is no "?"."""
        return self._m.group(7)

    @property
    def fragment(self) -> str | None:
        """fragment (§3.5): ``None`` when there is no "#"."""
        return self._m.group(8)

    @property
    def port_number(self) -> int | None:
        """The port as a number, or ``None`` when it is absent or empty (§3.2.3)."""
        port = self._m.group(5)
        if not port:
            return None
        digits = port.lstrip("0")
        if len(digits) > 20:  # far beyond any port; int() refuses very long digit strings
            raise URIError(
                f"a port of {len(port)} digits has no number",
                text=self._m.string,
                position=self._m.start(5),
                rule="port",
            )
        return int(digits or "0")

    def span(self, component: str) -> tuple[int, int] | None:
        """Where ``component`` (RFC 3986 §3) stands in the text, or ``None`` when undefined."""
        start, end = self._m.span(_GROUPS[component])
        return None if start < 0 else (start, end)

    def decode(
        self, component: str = "path", *, encoding: str = "utf-8", errors: str = "strict"
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
    def host_type(self) -> str | None:
        """``"ipv6"``, ``"ipvfuture"``, ``"ipv4"`` or ``"reg-name"``; ``None`` with no host.

        A host that matches IPv4address is IPv4, not a reg-name: first-match-wins
        (§3.2.2).
        """
        host = self._m.group(4)
        if host is None:
            return None
        if host[:1] == "[":
            return "ipvfuture" if host[1] in "vV" else "ipv6"
        return "ipv4" if IPV4_ADDRESS.fullmatch(host) else "reg-name"

    @property
    def zone_id(self) -> str | None:
        """The decoded RFC 6874 zone ID of an IPv6 literal, such as ``"eth0"``."""
        host = self._m.group(4)
        if host is None or "%25" not in host:
            return None
        return percent_decode(host[host.index("%25") + 3 : -1], errors="surrogateescape")

    @property
    def ip(self) -> IPAddress | None:
        """The ``ipaddress`` object of an IPv4 or IPv6 host (§3.2.2), zone ID as scope ID."""
        kind = self.host_type
        host = self._m.group(4)
        if kind == "ipv4":
            return ipaddress.IPv4Address(host)
        if kind != "ipv6":
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
        return self._m.start(1) >= 0 and self._m.start(8) < 0

    @property
    def is_relative(self) -> bool:
        """Is it a relative-ref (§4.2): no scheme?"""
        return self._m.start(1) < 0

    @property
    def kind(self) -> str:
        """The form of the reference (§4.1, §4.2).

        ``"uri"`` (it has a scheme), ``"network-path"`` (begins with "//"),
        ``"absolute-path"`` (begins with "/") or ``"relative-path"``.
        """
        if self._m.start(1) >= 0:
            return "uri"
        if self._m.start(2) >= 0:
            return "network-path"
        return "absolute-path" if self._m.group(6)[:1] == "/" else "relative-path"

    @property
    def is_opaque(self) -> bool:
        """A URI whose path is not hierarchical: a scheme, no authority, and a
        path that does not begin with "/" (``mailto:a@b``, ``urn:x:y``; §1.2.3, §3)."""
        m = self._m
        return m.start(1) >= 0 and m.start(2) < 0 and m.group(6)[:1] != "/"

    @property
    def is_hierarchical(self) -> bool:
        """Is the path hierarchical (§1.2.3)?  Every reference that is not opaque."""
        return not self.is_opaque

    def is_same_document(self, base: _Reference | str | None = None) -> bool:
        """Is this a same-document reference (§4.4)?

        Without a base, the empty reference and fragment-only references are.
        With a base, the reference is same-document when it resolves to the
        base, fragments aside.
        """
        if base is None:
            text = self._m.string
            return text == "" or text[0] == "#"
        from .resolve import resolve

        target = resolve(base, self)
        base_ref = base if isinstance(base, _Reference) else type(self)(base)
        return _without_fragment(target) == _without_fragment(base_ref)

    # -- display --------------------------------------------------------------------

    def redacted(self, mask: str = "***") -> str:
        """The text with the password of the userinfo masked (RFC 3986 §7.5)."""
        m = self._m
        start, end = m.span(3)
        if start < 0:
            return m.string
        colon = m.string.find(":", start, end)
        if colon < 0 or colon + 1 == end:
            return m.string
        return m.string[: colon + 1] + mask + m.string[end:]

    @classmethod
    def lenient(cls, text: str) -> Repaired:
        """Parse real-world input, repairing what can be repaired, and say what was.

        Surrounding white space, ``<...>`` or ``"..."`` delimiters and a ``URL:``
        prefix are removed (RFC 3986 Appendix C); characters the grammar
        forbids (space, non-ASCII, ``"<>\\^`{|}``, controls) and a "%" that
        starts no triplet are percent-encoded as UTF-8.  Returns
        ``Repaired(uri, violations)``; what cannot be repaired raises
        :class:`URIError`.
        """
        from .lenient import repair

        return repair(cls, text)

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
            data = _encode_data(
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
        _check_structure(scheme, authority, path)
        text = recompose(scheme, authority, path, query, fragment)
        result = cls(text)
        given: dict[str, str | None] = {
            "scheme": scheme,
            "authority": authority,
            "path": path,
            "query": query,
            "fragment": fragment,
        }
        if host is not None:
            given.update(userinfo=userinfo, host=host, port=port)
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
            changed.update(_encode_data(changed, self._grammar.iri))
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

    # -- operations that live in their own modules ----------------------------------

    def resolve(self, ref: _Reference | str, *, strict: bool = True, spec: str = "rfc3986") -> Self:
        """Resolve ``ref`` against this base URI (RFC 3986 §5.2); see ``urikit.resolve``."""
        from .resolve import resolve

        return resolve(self, ref, strict=strict, spec=spec)

    def relativize(self, target: _Reference | str) -> Self:
        """The shortest reference that resolves against this base to ``target`` (§5.2, §4.2)."""
        from .resolve import relativize

        return relativize(self, target)

    def normalize(self, *, level: str = "scheme", **steps: Any) -> Self:
        """The normal form at ``level`` of the §6.2 ladder; see ``urikit.normalize``."""
        from .normalize import normalize

        return normalize(self, level=level, **steps)

    def query_params(self, codec: str = "form") -> list[tuple[str, str | None]]:
        """The decoded ``(name, value)`` pairs of the query, in order; see ``urikit.query``."""
        from .query import query_params

        return query_params(self, codec=codec)

    def query_param(
        self, name: str, default: str | None = None, *, codec: str = "form"
    ) -> str | None:
        """The first value of query parameter ``name`` (§3.4), or ``default``."""
        from .query import query_param

        return query_param(self, name, default, codec=codec)

    def query_param_all(self, name: str, *, codec: str = "form") -> list[str | None]:
        """Every value of query parameter ``name`` (§3.4), in order."""
        from .query import query_param_all

        return query_param_all(self, name, codec=codec)

    def has_query_param(self, name: str, *, codec: str = "form") -> bool:
        """Does the query (§3.4) have a parameter ``name``?"""
        from .query import has_query_param

        return has_query_param(self, name, codec=codec)

    def with_query_params(self, pairs: Any, *, codec: str = "form") -> Self:
        """A new reference whose query (§3.4) is ``pairs``: a mapping or ``(name, value)`` pairs."""
        from .query import with_query_params

        return with_query_params(self, pairs, codec=codec)

    def add_query_param(self, name: str, value: str | None, *, codec: str = "form") -> Self:
        """A new reference with ``name=value`` appended to the query (§3.4), the rest kept as is."""
        from .query import add_query_param

        return add_query_param(self, name, value, codec=codec)

    def set_query_param(self, name: str, value: str | None, *, codec: str = "form") -> Self:
        """A new reference where parameter ``name`` (§3.4) has one value, at its first place."""
        from .query import set_query_param

        return set_query_param(self, name, value, codec=codec)

    def remove_query_param(self, name: str, *, codec: str = "form") -> Self:
        """A new reference without query parameter ``name`` (§3.4); the rest is kept as is."""
        from .query import remove_query_param

        return remove_query_param(self, name, codec=codec)

    @property
    def segments(self) -> list[str]:
        """The decoded path segments (§3.3); see ``urikit.paths``."""
        from .paths import segments

        return segments(self)

    def joinpath(self, *segments: str) -> Self:
        """A new reference with data ``segments`` appended to the path, each encoded (§3.3)."""
        from .paths import joinpath

        return joinpath(self, *segments)

    def parent(self) -> Self:
        """The parent collection, resolved as ``".."`` would be (§5.2)."""
        from .paths import parent

        return parent(self)

    def sibling(self, name: str) -> Self:
        """The sibling resource ``name`` (a data segment), resolved as a relative path (§5.2)."""
        from .paths import sibling

        return sibling(self, name)

    def to_path(self, flavor: str | None = None) -> Any:
        """The local path of a ``file:`` URI (RFC 8089); see ``urikit.fileuri``."""
        from .fileuri import to_path

        return to_path(self, flavor=flavor)


# The slot's own setter: the one way past __setattr__, which refuses every change,
# and the cheapest way to fill a new reference.
_store_match: Final = _Reference.__dict__["_m"].__set__

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


def _without_fragment(ref: _Reference) -> str:
    text = ref._m.string
    start = ref._m.start(8)
    return text if start < 0 else text[: start - 1]


def _encode_data(components: dict[str, Any], iri: bool) -> dict[str, Any]:
    """Percent-encode the data components among ``components`` for their places."""
    encoded = dict(components)
    for name in ("userinfo", "path", "query", "fragment"):
        value = components.get(name)
        if value is not None:
            encoded[name] = percent_encode(value, name, iri=iri)
    if components.get("host") is not None:
        encoded["host"] = _encode_host(components["host"], iri)
    return encoded


def _encode_host(host: str, iri: bool) -> str:
    if host.startswith("["):
        return host
    if ":" in host:
        try:
            ipaddress.IPv6Address(host.partition("%")[0])
        except ValueError:
            pass
        else:
            address, sep, zone = host.partition("%")
            return f"[{address}{'%25' + percent_encode(zone, 'unreserved') if sep else ''}]"
    return percent_encode(host, "host", iri=iri)


def _check_structure(scheme: str | None, authority: str | None, path: str) -> None:
    """The combinations of components that the grammar forbids (§3, §3.3, §4.2)."""
    if authority is not None:
        if path and path[0] != "/":
            raise URIError(
                'with an authority, the path must be empty or begin with "/" (§3.3)',
                text=path,
                position=0,
                rule="path-abempty",
            )
    elif path.startswith("//"):
        raise URIError(
            'without an authority, a path cannot begin with "//" (§3.3)',
            text=path,
            position=1,
            rule="path-absolute",
        )
    elif scheme is None:
        first = path.split("/", 1)[0]
        if ":" in first:
            raise URIError(
                "a colon in the first segment of a relative-path reference would read as a "
                'scheme; begin the path with "./" (§4.2)',
                text=path,
                position=first.index(":"),
                rule="path-noscheme",
            )


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
        """Convert to an IRI (RFC 3987 §3.2); see ``urikit.iri``."""
        from .iri import uri_to_iri

        return uri_to_iri(self, idna=idna)
