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
RFC 3987 mappings) are functions on component text on the floors below
(``docs/architecture.md``); the methods here are their convenient forms, with
the same parameters, and reach a concept with a compiled twin through the seam
(``urikit._seam``).  The modules of the operations load on the first call that
needs one (a function-level import), so that ``import urikit`` loads the value
and what constructing it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, NoReturn, cast, overload
from urllib.parse import ParseResult, SplitResult

from . import _seam
from . import query as _query
from ._contracts import Group
from ._defaults import DEFAULT_REGISTRY, KEEP, registry_of
from ._seam import Store
from ._shortcuts import set_as_written
from ._store import ReferencePattern
from .components import Parts, check_recomposed, compose, from_split_result, redacted, with_changes
from .grammar import IRI_GRAMMAR, URI_GRAMMAR, Grammar
from .host import IPAddress, Origin, effective_port, hostname, origin_key, parse_host
from .types import Codec, Component, DecodeErrors, Flavor, HostType, Kind, Level, Spec
from .validate import port_number

if TYPE_CHECKING:
    from pathlib import PurePath

    from typing_extensions import Self, Unpack

    from .lenient import Repaired
    from .protocol_steps import SameTypeSteps, Steps, ToIRISteps
    from .query import NameMatcher, Pairs, QueryValues
    from .report import Report
    from .schemes import SchemeRegistry

__all__ = ["IRI", "URI", "AnyURI"]


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
    if not TYPE_CHECKING:
        _fullmatch = ReferencePattern(URI_GRAMMAR)

    @classmethod
    def _refuse(cls, text: str) -> NoReturn:
        """Raise where and why ``text`` is not a reference of this class (``diagnose``)."""
        from .diagnose import locate  # the walk that says where: loaded on the first error

        raise locate(text, cls._grammar, cls._rule)

    def _same(self, other: URI | IRI | str) -> Self:
        """``other`` read by this reference's grammar (a URI or IRI of this class as it is)."""
        return other if type(other) is type(self) else type(self)(other)

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
        text = _text_of(other)
        return NotImplemented if text is None else self._text == text

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
        return port_number(self.port, self._text, self._span(Group.PORT)[0])

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
        if component not in _GROUPS:
            raise ValueError(f"unknown component {component!r}")
        value: str | None = getattr(self, component)
        if value is None:
            return None
        if component == "host" and value[:1] == "[":
            literal = parse_host(value)
            if literal.zone is None:
                return literal.address
            zone = _seam.percent_decode(literal.zone, encoding=encoding, errors=errors)
            return f"{literal.address}%{zone}"
        return _seam.percent_decode(value, encoding=encoding, errors=errors)

    # -- hosts (§3.2.2): read by urikit.host ----------------------------------------

    @property
    def host_type(self) -> HostType | None:
        """``"ipv6"``, ``"ipvfuture"``, ``"ipv4"`` or ``"reg-name"``; ``None`` with no host.

        A host that matches IPv4address is IPv4, not a reg-name: first-match-wins
        (§3.2.2).
        """
        host = self.host
        return None if host is None else parse_host(host).kind

    @property
    def zone_id(self) -> str | None:
        """The decoded RFC 6874 zone ID of an IPv6 literal, such as ``"eth0"``."""
        host = self.host
        return None if host is None else parse_host(host).zone_id

    @property
    def ip(self) -> IPAddress | None:
        """The ``ipaddress`` object of an IPv4 or IPv6 host (§3.2.2), zone ID as scope ID."""
        host = self.host
        return None if host is None else parse_host(host).ip()

    # -- classification (§4) -------------------------------------------------------

    @property
    def has_scheme(self) -> bool:
        """Does it begin with a scheme (§3.1, §4.1): a URI, not a relative reference?

        This is what yarl's and rfc3986's ``is_absolute`` answer;
        :attr:`is_absolute` is RFC 3986's absolute-URI, which has no fragment.
        """
        return self.scheme is not None

    @property
    def is_absolute(self) -> bool:
        """Is it an absolute-URI (RFC 3986 §4.3): a scheme, and no fragment?

        ``http://h/#f`` has a scheme but is not absolute: RFC 3986 calls it a
        URI, and only a URI without a fragment may be a base (§5.1).  "Has a
        scheme" is :attr:`has_scheme`.
        """
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
            return self._text[:1] in ("", "#")
        base_ref = self._same(base)
        target = base_ref.resolve(cast("URI | IRI", self))
        return target.parts._replace(fragment=None) == base_ref.parts._replace(fragment=None)

    # -- the names urllib.parse uses (docs/migration.md) -------------------------------

    @property
    def netloc(self) -> str:
        """The authority, ``""`` when there is none: ``urllib.parse``'s ``netloc``."""
        return self.authority or ""

    @property
    def hostname(self) -> str | None:
        """The host as ``urllib.parse`` gives it: ASCII letters lower-cased, an IP
        literal without its brackets and with its zone ID as written (RFC 6874
        §2); ``None`` when there is no host or it is empty."""
        host = self.host
        return hostname(host) if host else None

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
        _, colon, password = (self.userinfo or "").partition(":")
        return password if colon else None

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
        return cls.build(**from_split_result(parts))

    # -- origin ---------------------------------------------------------------------

    @property
    def effective_port(self) -> int | None:
        """The port a client connects to: the port given, else the scheme's default
        port (§3.2.3, §6.2.3; ``urikit.schemes``); ``None`` when neither is known."""
        return effective_port(self.scheme, self.host, self.port_number)

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
        return Origin(scheme.lower(), origin_key(host), self.effective_port)

    # -- display --------------------------------------------------------------------

    def redacted(self, mask: str = "***") -> str:
        """The text with the password of the userinfo masked (RFC 3986 §7.5)."""
        return redacted(self._text, self._span(Group.USERINFO), mask)

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
        from .lenient import Repaired, repair_value

        repaired, reports, value = repair_value(text, cls._grammar.iri, cls._scan)
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
        components = (scheme, authority, userinfo, host, port, path, query, fragment)
        text, given = compose(*components, encode=encode, iri=cls._grammar.iri)
        result = cls(text)
        check_recomposed(result.parts, given)
        return result

    def replace(
        self,
        *,
        scheme: str | None = KEEP,
        authority: str | None = KEEP,
        userinfo: str | None = KEEP,
        host: str | None = KEEP,
        port: str | int | None = KEEP,
        path: str = KEEP,
        query: str | None = KEEP,
        fragment: str | None = KEEP,
        encode: bool = False,
    ) -> Self:
        """A new reference with some components changed; ``None`` removes one (RFC 3986 §5.3).

        Changing ``userinfo``, ``host`` or ``port`` keeps the other two.  The
        result is validated as in :meth:`build`, and ``encode=True`` encodes
        only the components given here.  A reference with an authority always
        has a host, maybe empty (§3.2.2), so ``host=None`` on one raises
        :class:`URIError`: ``authority=None`` removes the authority, and
        ``host=""`` empties the host.
        """
        given = (scheme, authority, userinfo, host, port, path, query, fragment)
        changed = {k: v for k, v in zip(Parts._fields, given, strict=True) if v is not KEEP}
        components = with_changes(self.parts, changed, encode=encode, iri=self._grammar.iri)
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
        cls = type(self)
        if spec == "rfc3986" and (cls is URI or cls is IRI):
            # a str, or a value of this very class, is read by the compiled core as text
            text = ref if type(ref) is str else ref._text if type(ref) is cls else None
            target = None if text is None else _seam.resolved(cls, self._text, text, strict)
            if target is not None:
                return self if target._text == self._text else target
        from .legacy import resolve_by

        text = resolve_by(spec, self.parts, lambda: self._same(ref).parts, strict=strict)
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
        from .resolution import relativize

        goal = self.resolve(target)
        return type(self)._parse(relativize(self.parts, goal.parts, self._grammar))

    # -- normalization (§6.2) -------------------------------------------------------

    @overload
    def normalize(
        self, *, level: Level = ..., registry: SchemeRegistry = ..., **steps: Unpack[ToIRISteps]
    ) -> IRI: ...
    @overload
    def normalize(
        self, *, level: Level = ..., registry: SchemeRegistry = ..., **steps: Unpack[SameTypeSteps]
    ) -> Self: ...
    def normalize(
        self,
        *,
        level: Level = "scheme",
        registry: SchemeRegistry = DEFAULT_REGISTRY,
        **steps: Unpack[Steps],
    ) -> _Reference:
        """The normal form at ``level`` of the comparison ladder (RFC 3986 §6.2).

        ``level`` is ``"scheme"`` (§6.2.3, the default), ``"syntax"`` (§6.2.2)
        or ``"string"`` (§6.2.1: no change); scheme knowledge comes from
        ``registry``.  The protocol-based steps (§6.2.4,
        :class:`~urikit.protocol_steps.Steps`) run only when switched on by
        keyword: ``unicode="NFC"|"NFKC"``, ``idna="a-label"|"u-label"``,
        ``strip_host_dot``, ``remove_params`` (names, ``"utm_*"`` prefixes or a
        predicate), ``remove_tracking`` (the names of
        :data:`~urikit.protocol_steps.TRACKING_PARAMS`, as the command's
        ``--remove-tracking``), ``form_query``, ``sort_query``, ``drop_empty_query``,
        ``drop_fragment``; ``docs/normalization.md`` says what each one risks.
        The result has this reference's type, except with ``idna="u-label"``,
        whose display form is always an :class:`IRI` (RFC 3987 §3.2).

        >>> str(URI("eXAMPLE://a/./b/../b/%63/%7bfoo%7d").normalize())
        'example://a/b/c/%7Bfoo%7D'
        """
        return self._normalized(level, registry, steps)

    def _normalized(self, level: Level, registry: SchemeRegistry, steps: Steps) -> _Reference:
        """:meth:`normalize` with its steps gathered: the seam answers when no step is on,
        the readable algorithm (``normalization.normalize``) otherwise."""
        if not steps:
            if level == "scheme" or level == "syntax":
                given = None if registry is DEFAULT_REGISTRY else registry
                made = _seam.normalized(type(self), self._text, level, given)
                if made is not None:
                    return self if made._text == self._text else made
            elif level == "string":
                return self
        from .normalization import normalize  # the readable algorithm

        registry = registry_of(registry)
        normal = normalize(self.parts, level=level, registry=registry, iri=self._iri, steps=steps)
        result: type[_Reference] = IRI if steps.get("idna") == "u-label" else type(self)
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
        self, pairs: Pairs = (), /, *, codec: Codec = "form", **params: QueryValues
    ) -> Self:
        """A new reference whose query (§3.4) is ``pairs`` and then ``params``.

        ``pairs`` is a mapping or ``(name, value)`` pairs, ``params`` more by
        keyword (``with_query_params(page=2)``), as yarl's ``with_query``; no
        pairs remove the query.  :meth:`update_query_params` keeps the rest.
        """
        query = _query.with_query_params(_query.param_list(pairs, params), codec=codec)
        return self._with_query(query, self.query)

    def update_query_params(
        self, pairs: Pairs = (), /, *, codec: Codec = "form", **params: QueryValues
    ) -> Self:
        """A new reference where each name of ``pairs`` and ``params`` has the values
        given, each set as :meth:`set_query_param` sets it (§3.4), the rest kept as is."""
        old = self.query
        query = _query.update_query_params(old, _query.param_list(pairs, params), codec=codec)
        return self._with_query(query, old)

    def add_query_param(self, name: str, value: QueryValues, *, codec: Codec = "form") -> Self:
        """A new reference with ``name=value`` appended to the query (§3.4), the rest kept as is."""
        old = self.query
        return self._with_query(_query.add_query_param(old, name, value, codec=codec), old)

    def set_query_param(self, name: str, value: QueryValues, *, codec: Codec = "form") -> Self:
        """A new reference where parameter ``name`` (§3.4) has this value, at its first place."""
        old = self.query
        query = None
        if old and type(name) is str and type(value) is str and codec in _query.CODECS:
            query = set_as_written(old, name, value)  # the common case, no split
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
        span, path_end = self._span(Group.QUERY), self._span(Group.PATH)[1]
        return _query.splice_query(self._text, span, path_end, query, type(self)._parse)

    # -- the path (§3.3) ---------------------------------------------------------------

    def segments(self, *, errors: DecodeErrors = "strict") -> list[str]:
        """The decoded path segments (§3.3); a rooted path's first "" is left out."""
        from .paths import segments

        return segments(self.path, errors=errors)

    def joinpath(self, *names: str) -> Self:
        """A new reference with data ``names`` appended to the path, each encoded (§3.3).

        "/" and "\\" in a name are encoded.  A name that a server decoding it
        could read as structure raises :class:`URIError` at the character: "."
        and ".." in every spelling, a part between "/" or "\\" that is one
        ("../x": RFC 3986 §5.2.4 removes dot-segments only before decoding, and
        a decoded "%2F" climbs, §7.3), and a control character.  A name never
        climbs, and nothing joined draws a finding of :func:`urikit.audit`.
        ``u / name`` is ``u.joinpath(name)``.
        """
        from .paths import joinpath

        path = joinpath(
            self.path, names, iri=self._iri, scheme=self.scheme, authority=self.authority
        )
        return self if path == self.path else self.replace(path=path)

    def __truediv__(self, name: str) -> Self:
        """``self / name``: :meth:`joinpath` of the one data segment ``name`` (§3.3)."""
        return self.joinpath(name) if isinstance(name, str) else NotImplemented

    def parent(self) -> Self:
        """The parent collection, resolved as ``".."`` would be (§5.2)."""
        from .paths import PARENT_REFERENCE

        return self._navigate(PARENT_REFERENCE)

    def sibling(self, name: str) -> Self:
        """The sibling resource ``name`` (a data segment), resolved as a relative path (§5.2)."""
        from .paths import sibling_reference

        return self._navigate(sibling_reference(name, iri=self._grammar.iri))

    def _navigate(self, reference: str) -> Self:
        """Resolve ``reference`` against this reference, fragment aside (§5.2).

        An absolute-path or network-path reference navigates as it would under
        any scheme; a relative-path reference has no base to navigate from.
        """
        from .paths import check_navigable

        check_navigable(self.scheme, self.authority, self.path)
        base = self if self.fragment is None else self.replace(fragment=None)
        if base.scheme is not None:
            return base.resolve(reference)
        return base.replace(scheme="x").resolve(reference).replace(scheme=None)

    # -- file: URIs (RFC 8089) ---------------------------------------------------------

    def to_path(self, flavor: Flavor | None = None) -> PurePath:
        """The local path of a ``file:`` URI (RFC 8089): a ``PurePosixPath`` or
        ``PureWindowsPath`` by ``flavor`` (default: this machine's)."""
        from .fileuri import to_path

        return to_path(self.parts, self._text, flavor)

    @classmethod
    def from_path(cls, path: str | PurePath) -> Self:
        """The ``file:`` URI of a local path (RFC 8089 §2), every octet encoded as data."""
        from .fileuri import path_to_uri_text

        return cls._parse(path_to_uri_text(path))


#: A component's name (RFC 3986 §3) -> its number.
_GROUPS: Final[dict[str, Group]] = {group.name.lower(): group for group in Group if group}


def _text_of(value: object) -> str | None:
    if isinstance(value, _Reference):
        return value._text
    if isinstance(value, str):
        return value
    return None


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
        from .mapping import uri_to_iri

        return IRI._parse(uri_to_iri(self._text, self.parts, idna=idna))


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
        _fullmatch = ReferencePattern(IRI_GRAMMAR)

    def to_uri(self, *, idna: bool = False, nfc: bool = False) -> URI:
        """The URI this IRI maps to (RFC 3987 §3.1): non-ASCII characters as
        triplets of their UTF-8 octets; ``idna`` writes a host's labels as
        A-labels, ``nfc`` applies NFC first (§5.3.2.2)."""
        from .mapping import iri_to_uri

        return URI._parse(iri_to_uri(self._text, self.parts, idna=idna, nfc=nfc))

    def bidi_reports(self) -> list[Report]:
        """The components that break the Bidi IRI structure (RFC 3987 §4.2)."""
        from .bidi import bidi_reports

        return bidi_reports(self.parts, self._text)


# URI(text) and IRI(text) go from the call straight to the compiled store's scan.
URI._construct_directly()
IRI._construct_directly()

#: A URI or IRI reference.
AnyURI = URI | IRI
