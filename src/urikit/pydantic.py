"""Pydantic v2 field types for URIs and IRIs (the optional extra ``urikit[pydantic]``).

A field is ``Annotated[URI, URIConstraints(...)]`` or ``Annotated[IRI, ...]``;
the ready-made aliases cover the usual needs:

* ``URIReference`` / ``IRIReference``: any URI-reference (RFC 3986 §4.1) or
  IRI-reference (RFC 3987 §2.2);
* ``AbsoluteURI`` / ``AbsoluteIRI``: an absolute-URI (RFC 3986 §4.3): a scheme
  and no fragment;
* ``HttpURL``: an ``http`` or ``https`` URI with a host (RFC 9110 §4.2);
* ``PublicHttpURL``: an ``HttpURL`` whose host is a public DNS name or a
  public IP address (``urikit.security.check_host``), without userinfo, with
  a port a client can connect to;
* ``PostgresDsn`` / ``MultiHostDsn``: a libpq or MongoDB connection string with
  several hosts, as a ``urikit.dsn.DSN``.

Input is parsed strictly: a ``str`` (and, in Python mode, a ``URI`` or ``IRI``);
JSON input must be a string.  Every error's ``type`` starts with ``uri_`` and
its ``ctx`` holds the ``position``, the ABNF ``rule`` and the ``reason``.  The
value serializes to its exact text in both modes, and the JSON Schema
``format`` is ``uri``, ``uri-reference``, ``iri`` or ``iri-reference``.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(HttpURL).validate_python("https://example.com/%7euser")
URI('https://example.com/%7euser')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeAlias, get_args

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.errors import PydanticSchemaGenerationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from . import IRI, URI, URIError, is_valid
from ._pydantic_dsn import DSNConstraints, MultiHostDsn, PostgresDsn
from ._pydantic_text import text_schema
from .types import Level

if TYPE_CHECKING:
    from .sites import Site

__all__ = [
    "AbsoluteIRI",
    "AbsoluteURI",
    "DSNConstraints",
    "HttpURL",
    "IRIReference",
    "MultiHostDsn",
    "PostgresDsn",
    "PublicHttpURL",
    "URIConstraints",
    "URIReference",
]

_KEY: Final = "urikit.constraints"  # where a field's schema keeps its type and constraints


class URIConstraints:
    """What a ``URI`` or ``IRI`` field accepts, for ``Annotated[URI, URIConstraints(...)]``.

    ``schemes``: the schemes allowed, compared case-insensitively (RFC 3986
    §3.1); given, they also refuse relative references unless
    ``relative=True``.  ``host_required``: an authority with a non-empty host
    (§3.2.2).  ``relative``: ``False`` refuses relative references (§4.2),
    ``True`` accepts them alongside ``schemes``; by default they are accepted
    unless ``schemes`` or ``absolute`` ask for a scheme.  ``absolute``: an
    absolute-URI (§4.3), a scheme and no fragment.  ``normalize``: the level
    of the comparison ladder (§6.2) to which the value is normalized once it
    passes the checks; by default it is kept exactly as written.

    The host and what surrounds it, when there is a host (``host_required``
    asks for one): ``dns_host``: a reg-name must be a DNS host name
    (``urikit.security.is_dns_name``; an IPv4address or IPv6 literal passes);
    ``public_host``: the host is a public DNS name or a public IP address in
    any spelling (``urikit.security.check_host``); ``userinfo``: ``False``
    refuses a userinfo (§3.2.1); ``ports``: the ports allowed, compared with
    the port a client connects to (the port given, else the scheme's default,
    §3.2.3), so ``ports={443}`` takes ``https://h/`` and refuses ``http://h/``.
    ``sites``: the sites allowed (``urikit.sites.named_site``): a registrable domain
    (``"example.co.uk"``: each host of the site, on any scheme), an IP address, or a
    URL whose site is taken with its scheme; a value is on a site when
    ``urikit.sites.same_site`` says so, and a value without a scheme or a host,
    which has no site, is refused.

    Several annotations on one field combine: each narrows what the others
    accept, and the last ``normalize`` given wins.
    """

    __slots__ = (
        "absolute",
        "dns_host",
        "host_required",
        "normalize",
        "ports",
        "public_host",
        "relative",
        "schemes",
        "sites",
        "userinfo",
    )

    schemes: frozenset[str] | None
    host_required: bool
    relative: bool | None
    absolute: bool
    normalize: Level | None
    dns_host: bool
    public_host: bool
    userinfo: bool
    ports: range | frozenset[int] | None
    sites: frozenset[Site] | None

    def __init__(
        self,
        *,
        schemes: Iterable[str] | None = None,
        host_required: bool = False,
        relative: bool | None = None,
        absolute: bool = False,
        normalize: Level | None = None,
        dns_host: bool = False,
        public_host: bool = False,
        userinfo: bool = True,
        ports: Collection[int] | None = None,
        sites: Iterable[str | URI | IRI] | None = None,
    ) -> None:
        if schemes is not None:
            if isinstance(schemes, str):
                raise TypeError("schemes takes a collection of scheme names, not one str")
            schemes = frozenset(_scheme_name(name) for name in schemes)
            if not schemes:
                raise ValueError("schemes is empty: no reference could match")
        if absolute and relative:
            raise ValueError("absolute=True refuses the relative references relative=True accepts")
        if normalize is not None and normalize not in get_args(Level):
            levels = ", ".join(get_args(Level))
            raise ValueError(f"unknown level {normalize!r}; the levels are {levels}")
        set_ = object.__setattr__
        set_(self, "schemes", schemes)
        set_(self, "host_required", host_required)
        set_(self, "relative", relative)
        set_(self, "absolute", absolute)
        set_(self, "normalize", normalize)
        set_(self, "dns_host", dns_host)
        set_(self, "public_host", public_host)
        set_(self, "userinfo", userinfo)
        set_(self, "ports", None if ports is None else _port_set(ports))
        set_(self, "sites", None if sites is None else _site_set(sites))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("URIConstraints is immutable")

    def _fields(self) -> tuple[object, ...]:
        schemes = None if self.schemes is None else tuple(sorted(self.schemes))
        return (
            schemes,
            self.host_required,
            self.relative,
            self.absolute,
            self.normalize,
            self.dns_host,
            self.public_host,
            self.userinfo,
            self.ports,
            None if self.sites is None else tuple(sorted(map(_site_text, self.sites))),
        )

    def __repr__(self) -> str:
        names = (
            "schemes",
            "host_required",
            "relative",
            "absolute",
            "normalize",
            "dns_host",
            "public_host",
            "userinfo",
            "ports",
            "sites",
        )
        defaults = (None, False, None, False, None, False, False, True, None, None)
        shown = [
            f"{name}={value!r}"
            for name, value, default in zip(names, self._fields(), defaults, strict=True)
            if value != default
        ]
        return f"URIConstraints({', '.join(shown)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URIConstraints):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    @property
    def requires_scheme(self) -> bool:
        """Are relative references refused?"""
        if self.relative is None:
            return self.absolute or self.schemes is not None
        return not self.relative

    def _narrowed(self, other: URIConstraints) -> URIConstraints:
        """What both accept, normalized at ``other``'s level if it has one, else at ours."""
        if self.schemes is None or other.schemes is None:
            schemes = self.schemes if other.schemes is None else other.schemes
        else:
            schemes = self.schemes & other.schemes
            if not schemes:
                raise ValueError(f"{self!r} and {other!r} allow no scheme in common")
        if self.relative is False or other.relative is False:
            relative: bool | None = False
        elif self.relative or other.relative:
            relative = True
        else:
            relative = None
        narrowed = URIConstraints(
            schemes=schemes,
            host_required=self.host_required or other.host_required,
            relative=relative,
            absolute=self.absolute or other.absolute,
            normalize=self.normalize if other.normalize is None else other.normalize,
            dns_host=self.dns_host or other.dns_host,
            public_host=self.public_host or other.public_host,
            userinfo=self.userinfo and other.userinfo,
            ports=_common_ports(self.ports, other.ports),
        )
        object.__setattr__(narrowed, "sites", _common_sites(self.sites, other.sites))
        return narrowed

    # -- pydantic ---------------------------------------------------------------------

    def __get_pydantic_core_schema__(
        self, source: type[Any], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        if source is not URI and source is not IRI:
            raise TypeError(f"URIConstraints annotates URI or IRI, not {source!r}")
        constraints = self
        try:
            inner = handler(source)
        except PydanticSchemaGenerationError:
            inner = None  # this is the first annotation on the field
        if inner is not None:
            earlier = inner.get("metadata", {}).get(_KEY)
            if earlier is not None:
                constraints = earlier[1]._narrowed(self)
        return _Field(source, constraints).core_schema()

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        kind, constraints = schema.get("metadata", {}).get(_KEY, (URI, self))
        json_schema = handler(schema)
        prefix = "iri" if kind is IRI else "uri"
        json_schema["format"] = prefix if constraints.requires_scheme else prefix + "-reference"
        return json_schema


def _scheme_name(name: str) -> str:
    """``name`` in lower case, the canonical form of a scheme (RFC 3986 §3.1)."""
    if not isinstance(name, str) or not is_valid(name, "scheme"):
        raise ValueError(f"{name!r} is not a scheme name (RFC 3986 §3.1)")
    return name.lower()


def _port_set(ports: Collection[int]) -> range | frozenset[int]:
    """``ports`` as a range (kept as one when its step is 1) or a frozenset of ints."""
    if isinstance(ports, (str, bytes)) or not isinstance(ports, Iterable):
        raise TypeError("ports takes a collection of port numbers: {443}, range(1, 65536)")
    if isinstance(ports, range) and ports.step == 1:
        if ports.start < 0 or ports.stop > 65536:
            raise ValueError(f"{ports!r} goes beyond the port numbers 0 to 65535")
        chosen: range | frozenset[int] = ports
    else:
        chosen = frozenset(ports)
        wrong = [p for p in chosen if type(p) is not int or not 0 <= p <= 65535]
        if wrong:
            raise ValueError(f"{wrong[0]!r} is not a port number (0 to 65535, RFC 9293 §3.1)")
    if not chosen:
        raise ValueError("ports is empty: no reference could match")
    return chosen


def _common_ports(
    a: range | frozenset[int] | None, b: range | frozenset[int] | None
) -> range | frozenset[int] | None:
    if a is None or b is None:
        return a if b is None else b
    if isinstance(a, range) and isinstance(b, range):
        common: range | frozenset[int] = range(max(a.start, b.start), min(a.stop, b.stop))
    else:
        small, large = (a, b) if len(a) <= len(b) else (b, a)
        common = frozenset(p for p in small if p in large)
    if not common:
        raise ValueError(f"the ports {a!r} and {b!r} have none in common")
    return common


def _site_set(sites: Iterable[str | URI | IRI]) -> frozenset[Site]:
    """The sites ``sites`` names (``urikit.sites.named_site``); a bad one raises."""
    if isinstance(sites, (str, URI, IRI)) or not isinstance(sites, Iterable):
        raise TypeError("sites takes a collection of sites: {'example.com'}")
    from .sites import named_site

    named = frozenset(named_site(site) for site in sites)
    if not named:
        raise ValueError("sites is empty: no reference could match")
    return named


def _common_sites(a: frozenset[Site] | None, b: frozenset[Site] | None) -> frozenset[Site] | None:
    """The sites on both ``a`` and ``b``: a schemeless site and a site of the same host
    with a scheme have the latter in common."""
    if a is None or b is None:
        return a if b is None else b
    common = frozenset(
        y if x.scheme is None else x
        for x in a
        for y in b
        if x.host == y.host and (x.scheme is None or y.scheme is None or x.scheme == y.scheme)
    )
    if not common:
        raise ValueError(f"the sites {sorted(a)!r} and {sorted(b)!r} have none in common")
    return common


def _site_text(site: Site) -> str:
    """A site as it is named: its host alone, or its scheme and host (``https://example.com``)."""
    return site.host if site.scheme is None else f"{site.scheme}://{site.host}"


def _shown_ports(ports: range | frozenset[int]) -> str:
    if isinstance(ports, range):
        return f"{ports.start} to {ports.stop - 1}"
    return _quoted(str(p) for p in sorted(ports)).replace("'", "")


def _error(kind: str, reason: str, position: int, rule: str, **ctx: Any) -> PydanticCustomError:
    return PydanticCustomError(
        kind, reason, {"position": position, "rule": rule, "reason": reason, **ctx}
    )


def _syntax_error(error: URIError) -> PydanticCustomError:
    # The message is the first line of the URIError: where, in which rule, why.
    # The caret drawing under it is left out; the input is in the error already.
    head = str(error).split("\n", 1)[0]
    return PydanticCustomError(
        "uri_syntax",
        head,
        {"position": error.position, "rule": error.rule, "reason": error.reason},
    )


def _quoted(names: Iterable[str]) -> str:
    quoted = [repr(name) for name in sorted(names)]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


class _Field:
    """The validation of one field: the parse, the checks, the normalization."""

    __slots__ = ("constraints", "kind")

    def __init__(self, kind: type[URI] | type[IRI], constraints: URIConstraints) -> None:
        self.kind = kind
        self.constraints = constraints

    def core_schema(self) -> CoreSchema:
        return text_schema(
            self.from_text, self.from_python, str, {_KEY: (self.kind, self.constraints)}
        )

    def from_python(self, value: object) -> URI | IRI:
        if type(value) is self.kind:
            return self.checked(value)
        if isinstance(value, (str, URI, IRI)):
            return self.from_text(value)
        raise PydanticCustomError(
            "uri_type", f"Input should be a string or {'an IRI' if self.kind is IRI else 'a URI'}"
        )

    def from_text(self, text: str | URI | IRI) -> URI | IRI:
        try:
            ref = self.kind(text)
        except URIError as error:
            raise _syntax_error(error) from None
        return self.checked(ref)

    def checked(self, ref: URI | IRI) -> URI | IRI:
        c = self.constraints
        name = self.kind.__name__
        if ref.scheme is None:
            if c.requires_scheme:
                if c.absolute:
                    wanted, rule = f"an absolute {name} (RFC 3986 §4.3)", "absolute-" + name
                else:
                    wanted, rule = f"a {name} with a scheme (RFC 3986 §3)", name
                raise _error(
                    "uri_relative", f"{wanted} is required, not a relative reference", 0, rule
                )
        elif c.schemes is not None and ref.scheme.lower() not in c.schemes:
            raise _error(
                "uri_scheme",
                f"the scheme should be {_quoted(c.schemes)}, not {ref.scheme!r}",
                0,
                "scheme",
                expected_schemes=sorted(c.schemes),
            )
        if c.absolute and ref.fragment is not None:
            fragment = ref.span("fragment")
            assert fragment is not None
            raise _error(
                "uri_fragment",
                f"an absolute {name} has no fragment (RFC 3986 §4.3)",
                fragment[0] - 1,
                "absolute-" + name,
            )
        if c.host_required and not ref.host:
            host = ref.span("host")
            if host is None:
                path = ref.span("path")
                assert path is not None  # the path is always defined, maybe empty (§3.3)
                position, rule, what = path[0], "authority", "no authority"
            else:
                position, rule, what = host[0], "host", "an empty host"
            raise _error("uri_host", f"a host is required, and there is {what}", position, rule)
        if ref.authority is not None or c.sites is not None:
            _check_authority(ref, c)
        if c.normalize is not None:
            return ref.normalize(level=c.normalize)
        return ref


def _check_authority(ref: URI | IRI, c: URIConstraints) -> None:
    """The userinfo, host and port rules of ``c`` (RFC 3986 §3.2)."""
    if not c.userinfo and ref.userinfo is not None:
        span = ref.span("userinfo")
        assert span is not None
        raise _error(
            "uri_userinfo", "a userinfo is not allowed here (RFC 3986 §3.2.1)", span[0], "userinfo"
        )
    host = ref.host
    if host and (c.public_host or c.dns_host):
        from .security.names import HostError, check_host

        try:
            check_host(host, public=c.public_host)
        except HostError as error:
            span = ref.span("host")
            assert span is not None and error.position is not None
            extra = {} if error.address is None else {"address": str(error.address)}
            raise _error(
                "uri_" + error.code.replace("-", "_"),
                error.reason,
                span[0] + error.position,
                error.rule or "host",
                code=error.code,
                **extra,
            ) from None
    if c.ports is not None:
        _check_port(ref, c.ports)
    if c.sites is not None:
        _check_site(ref, c.sites)


def _check_site(ref: URI | IRI, sites: frozenset[Site]) -> None:
    """Is ``ref`` on one of ``sites``: ``urikit.sites.same_site`` with an entry, schemeful
    for a site named by a URL, schemeless for one named alone (HTML Standard §7.1.1.1)?"""
    from .sites import site

    found = site(ref)
    span = ref.span("host") or ref.span("path") or (0, 0)
    allowed = sorted(_site_text(entry) for entry in sites)
    if found is None:
        reason = "a reference without a scheme and a host is on no site (RFC 6454 §4)"
    elif any(entry.includes(found) for entry in sites):
        return
    else:
        reason = (
            f"the host {ref.host!r} is on the site {_site_text(found)!r}, which is not "
            f"allowed ({_quoted(allowed)})"
        )
    raise _error("uri_site", reason, span[0], "host", allowed=allowed)


def _check_port(ref: URI | IRI, ports: range | frozenset[int]) -> None:
    span = ref.span("port") or ref.span("host") or (0, 0)
    try:
        port = ref.effective_port
    except URIError:
        raise _error(
            "uri_port", "the port is above 65535 (RFC 9293 §3.1)", span[0], "port"
        ) from None
    if port is None:
        reason = "no port is given, and the scheme has no default port (RFC 3986 §3.2.3)"
    elif port in ports:
        return
    elif ref.port_number is None:
        reason = f"the default port {port} of the scheme is not allowed ({_shown_ports(ports)})"
    else:
        reason = f"the port {port} is not allowed ({_shown_ports(ports)})"
    raise _error("uri_port", reason, span[0], "port", allowed=_shown_ports(ports))


#: Any URI-reference (RFC 3986 §4.1): a URI or a relative reference.
URIReference: TypeAlias = Annotated[URI, URIConstraints()]
#: An absolute-URI (RFC 3986 §4.3): a scheme, and no fragment.
AbsoluteURI: TypeAlias = Annotated[URI, URIConstraints(absolute=True)]
#: An ``http`` or ``https`` URI with a non-empty host (RFC 9110 §4.2.1, §4.2.2).
HttpURL: TypeAlias = Annotated[URI, URIConstraints(schemes=("http", "https"), host_required=True)]
#: An ``http`` or ``https`` URI whose host is a public DNS name or a public IP address
#: in any spelling (``urikit.security.check_host``), without userinfo, on a port from
#: 1 to 65535.  Narrow it further with ``URIConstraints`` (``ports={443}``).
PublicHttpURL: TypeAlias = Annotated[
    URI,
    URIConstraints(
        schemes=("http", "https"),
        host_required=True,
        public_host=True,
        userinfo=False,
        ports=range(1, 65536),
    ),
]
#: Any IRI-reference (RFC 3987 §2.2).
IRIReference: TypeAlias = Annotated[IRI, URIConstraints()]
#: An absolute-IRI (RFC 3987 §2.2): a scheme, and no fragment.
AbsoluteIRI: TypeAlias = Annotated[IRI, URIConstraints(absolute=True)]


# --- URI Templates (RFC 6570) ---------------------------------------------------------------
#
# A field holding a parsed urikit.template.URITemplate: a str (or, in Python mode, a
# URITemplate) in, its exact text out, JSON Schema format "uri-template".

from .template import TemplateError, URITemplate  # noqa: E402

__all__ += ["MatchableURITemplate", "URITemplateConstraints", "URITemplateField"]


class URITemplateConstraints:
    """What a URI Template field accepts, for ``Annotated[URITemplate, URITemplateConstraints()]``.

    ``max_level``: the highest level of RFC 6570 §1.2 (1 to 4) the template may
    use.  ``matchable``: the template must be one that ``URITemplate.match`` and
    ``Router`` accept, with no ambiguity (``urikit.template``).  Errors have the
    types ``uri_template_syntax`` (with the ``position``, ``rule`` and ``reason``
    of the :class:`~urikit.template.TemplateError`), ``uri_template_ambiguous``,
    ``uri_template_level`` and ``uri_template_type``.
    """

    __slots__ = ("matchable", "max_level")

    def __init__(self, *, max_level: int = 4, matchable: bool = False) -> None:
        if max_level not in (1, 2, 3, 4):
            raise ValueError(f"max_level is a level of RFC 6570 §1.2, 1 to 4, not {max_level!r}")
        object.__setattr__(self, "max_level", max_level)
        object.__setattr__(self, "matchable", matchable)

    max_level: int
    matchable: bool

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("URITemplateConstraints is immutable")

    def __repr__(self) -> str:
        return f"URITemplateConstraints(max_level={self.max_level}, matchable={self.matchable})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URITemplateConstraints):
            return NotImplemented
        return (self.max_level, self.matchable) == (other.max_level, other.matchable)

    def __hash__(self) -> int:
        return hash((self.max_level, self.matchable))

    def __get_pydantic_core_schema__(
        self, source: type[Any], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        if source is not URITemplate:
            raise TypeError(f"URITemplateConstraints annotates URITemplate, not {source!r}")
        return text_schema(self._from_text, self._from_python, str)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema["format"] = "uri-template"
        return json_schema

    def _from_python(self, value: object) -> URITemplate:
        if isinstance(value, URITemplate):
            return self._checked(value)
        if isinstance(value, str):
            return self._from_text(value)
        raise PydanticCustomError("uri_template_type", "Input should be a string or a URITemplate")

    def _from_text(self, text: str) -> URITemplate:
        try:
            template = URITemplate(text)
        except TemplateError as error:
            raise _template_error("uri_template_syntax", error) from None
        return self._checked(template)

    def _checked(self, template: URITemplate) -> URITemplate:
        if template.level > self.max_level:
            raise PydanticCustomError(
                "uri_template_level",
                "the template is of level {level}, above {max_level} (RFC 6570 §1.2)",
                {"level": template.level, "max_level": self.max_level},
            )
        if self.matchable:
            try:
                template.matcher  # noqa: B018  (raises where matching is ambiguous)
            except TemplateError as error:
                raise _template_error("uri_template_ambiguous", error) from None
        return template


def _template_error(kind: str, error: TemplateError) -> PydanticCustomError:
    # pydantic puts each context value into the message in the order of the context, with
    # no escape for braces: the reason, which quotes the template's expressions, comes last.
    return PydanticCustomError(
        kind,
        "at position {position} in {rule}: {reason}",
        {"position": error.position, "rule": error.rule, "reason": error.reason},
    )


#: A URI Template (RFC 6570), parsed; JSON Schema ``format: uri-template``.
URITemplateField: TypeAlias = Annotated[URITemplate, URITemplateConstraints()]
#: A URI Template that ``match`` and ``Router`` accept: a route.
MatchableURITemplate: TypeAlias = Annotated[URITemplate, URITemplateConstraints(matchable=True)]
