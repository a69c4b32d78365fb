"""The scheme registry: what each URI scheme adds to the generic syntax.

RFC 3986 §6.2.3 (scheme-based normalization) leaves to each scheme's own
specification what its URIs mean beyond the generic syntax: the default port
(§3.2.3), whether an authority is used (§3.2), whether an empty path means
"/", and which parts compare without regard to case.  urikit keeps that
knowledge as data, never as branches in the core: one :class:`Scheme` record
per scheme, collected in an immutable :class:`SchemeRegistry`.

Operations that need scheme knowledge take a registry argument whose default is
:data:`DEFAULT_REGISTRY`, built from the table ``tools/schemes.toml`` (generated
into :mod:`urikit._scheme_data`).  Nothing here mutates global state:
:meth:`SchemeRegistry.with_scheme` and :meth:`SchemeRegistry.without` return new
registries, so a user's registry is a value to pass around.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal, NoReturn, TypeVar, cast, overload

from urikit._scheme_data import SCHEMES, SERVICE_PORTS, SchemeRow
from urikit.errors import URIError
from urikit.grammar import URI_GRAMMAR

__all__ = [
    "AUTHORITY_USES",
    "COMPONENTS",
    "DEFAULT_REGISTRY",
    "SPECIAL_RULES",
    "AuthorityUse",
    "Scheme",
    "SchemeRegistry",
]

_T = TypeVar("_T")

#: Whether URIs of a scheme carry an authority ("//" host ...), RFC 3986 §3.2.
AuthorityUse = Literal["required", "optional", "forbidden"]
AUTHORITY_USES: Final = frozenset({"required", "optional", "forbidden"})

#: The generic components a scheme may declare case-insensitive (RFC 3986 §6.2.3).
#: The scheme itself is always case-insensitive (§3.1) and the host is by the
#: generic syntax (§3.2.2), so neither needs a scheme to say so.
COMPONENTS: Final = frozenset({"host", "userinfo", "path", "query", "fragment"})

#: Scheme-specific rules, by name: data names the rule, code implements it.
SPECIAL_RULES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "mailto-domain": (
            "RFC 6068, RFC 5321 §2.4: the domain part of each address is"
            " case-insensitive; the local part is case-sensitive."
        ),
        "urn-nid": (
            'RFC 8141 §3.1: the "urn:" prefix and the namespace identifier (NID)'
            " are case-insensitive; the namespace-specific string is not."
        ),
        "file-localhost": (
            'RFC 8089 §2: the host "localhost" means the same as an empty host'
            " (the machine on which the URI is interpreted), and so does a path"
            ' without an authority ("file:/x").'
        ),
    }
)

_SCHEME_RULE = URI_GRAMMAR.rule("scheme")


@dataclass(frozen=True, slots=True)
class Scheme:
    """What one URI scheme's specification adds to the generic syntax.

    ``name`` is the canonical lower-case scheme name (RFC 3986 §3.1).
    ``default_port`` is the port implied when the authority gives none
    (§3.2.3); a URI that states it, or states an empty port, is equivalent to
    one without (§6.2.3).  ``authority`` says whether the scheme's URIs carry
    one (§3.2); ``host_required``, whether a present authority must name a
    non-empty host (§3.2.2).  ``empty_path_is_root``: with an authority, an
    empty path is equivalent to "/" (§6.2.3, e.g. RFC 9110 §4.2.3 for http).
    ``case_insensitive`` names generic components (:data:`COMPONENTS`) that
    compare without case; ``special_rules`` names rules of
    :data:`SPECIAL_RULES`.  ``well_known`` is false for schemes kept only as a
    historical record, and for user-defined schemes by default.
    ``reference`` names the defining document.  ``wraps_uri`` is None, or,
    for a scheme whose URIs wrap another URL after the ":" (``view-source:``,
    ``jar:``), the text that ends the wrapped URL (``"!/"`` for ``jar:``), ``""``
    when it runs to the end of the URI; security checks look inside it.
    """

    name: str
    default_port: int | None = None
    authority: AuthorityUse = "optional"
    host_required: bool = False
    empty_path_is_root: bool = False
    case_insensitive: frozenset[str] = field(default_factory=frozenset)
    special_rules: frozenset[str] = field(default_factory=frozenset)
    well_known: bool = False
    reference: str = ""
    wraps_uri: str | None = None

    def __post_init__(self) -> None:
        self._check_name()
        if self.authority not in AUTHORITY_USES:
            raise ValueError(
                f"scheme {self.name!r}: authority must be one of"
                f" {sorted(AUTHORITY_USES)}, not {self.authority!r}"
            )
        for label, flag in (
            ("host_required", self.host_required),
            ("empty_path_is_root", self.empty_path_is_root),
            ("well_known", self.well_known),
        ):
            if type(flag) is not bool:
                raise TypeError(f"scheme {self.name!r}: {label} must be a bool, not {flag!r}")
        if not isinstance(self.reference, str):
            raise TypeError(f"scheme {self.name!r}: reference must be a str")
        if self.wraps_uri is not None and not isinstance(self.wraps_uri, str):
            raise TypeError(f"scheme {self.name!r}: wraps_uri must be None or a str")
        port = self.default_port
        if port is not None and (type(port) is not int or not 0 <= port <= 65535):
            raise ValueError(
                f"scheme {self.name!r}: default_port must be None or 0-65535, not {port!r}"
            )
        for label, names, known in (
            ("case_insensitive", self.case_insensitive, COMPONENTS),
            ("special_rules", self.special_rules, SPECIAL_RULES.keys()),
        ):
            if not isinstance(names, frozenset):
                raise TypeError(f"scheme {self.name!r}: {label} must be a frozenset")
            unknown = sorted(names - known)
            if unknown:
                raise ValueError(f"scheme {self.name!r}: unknown {label} {unknown}")
        # Without an authority there is no port to default (§3.2.3), no host
        # (§3.2.2), and an empty path is path-empty, not "/" (§3.3).
        if self.authority == "forbidden" and (
            port is not None
            or self.host_required
            or self.empty_path_is_root
            or self.case_insensitive & {"host", "userinfo"}
        ):
            raise ValueError(
                f"scheme {self.name!r}: a scheme without an authority has no default"
                " port, host or userinfo, and no empty-path rule"
            )

    def _check_name(self) -> None:
        """``scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`` in lower case (§3.1)."""
        name = self.name
        if not isinstance(name, str):
            raise TypeError(f"a scheme name is a str, not {type(name).__name__}")
        if _SCHEME_RULE.fullmatch(name) is None:
            prefix = _SCHEME_RULE.match(name)
            position = 0 if prefix is None else prefix.end()
            raise URIError("not a scheme name", text=name, position=position, rule="scheme")
        if name != name.lower():
            position = next(i for i, ch in enumerate(name) if ch != ch.lower())
            raise URIError(
                "a registered scheme name is written in its canonical lower case",
                text=name,
                position=position,
                rule="scheme",
            )


class SchemeRegistry(Mapping[str, Scheme]):
    """An immutable mapping from scheme name to :class:`Scheme`.

    Lookups ignore the case of the name (RFC 3986 §3.1: schemes are
    case-insensitive; only ASCII letters fold, as the grammar has no others).
    Iteration yields the canonical lower-case names.  ``services`` holds
    (protocol, port) pairs: well-known TCP ports of protocols that are not
    schemes here, used by :meth:`port_owner`.
    """

    __slots__ = ("_by_port", "_schemes", "_services")

    _schemes: Mapping[str, Scheme]
    _services: tuple[tuple[str, int], ...]
    _by_port: Mapping[int, tuple[str, ...]]

    def __init__(
        self, schemes: Iterable[Scheme] = (), services: Iterable[tuple[str, int]] = ()
    ) -> None:
        table: dict[str, Scheme] = {}
        for scheme in schemes:
            if not isinstance(scheme, Scheme):
                raise TypeError(f"expected a Scheme, not {type(scheme).__name__}")
            if scheme.name in table:
                raise ValueError(f"scheme {scheme.name!r} given twice")
            table[scheme.name] = scheme
        pairs: set[tuple[str, int]] = set()
        for name, port in services:
            if not isinstance(name, str) or type(port) is not int or not 0 <= port <= 65535:
                raise ValueError(f"a service is a (name, port 0-65535) pair, not {(name, port)!r}")
            pairs.add((name, port))
        owners: dict[int, set[str]] = {}
        for scheme in table.values():
            if scheme.default_port is not None:
                owners.setdefault(scheme.default_port, set()).add(scheme.name)
        for name, port in pairs:
            owners.setdefault(port, set()).add(name)
        object.__setattr__(self, "_schemes", MappingProxyType(table))
        object.__setattr__(self, "_services", tuple(sorted(pairs, key=lambda p: (p[1], p[0]))))
        object.__setattr__(
            self,
            "_by_port",
            MappingProxyType({port: tuple(sorted(names)) for port, names in owners.items()}),
        )

    # --- lookup (RFC 3986 §3.1: scheme names are case-insensitive) ----------------

    def _lookup(self, name: object) -> Scheme | None:
        if not isinstance(name, str):
            return None
        scheme = self._schemes.get(name)
        if scheme is None and name.isascii():
            scheme = self._schemes.get(name.lower())
        return scheme

    def __getitem__(self, name: str) -> Scheme:
        scheme = self._lookup(name)
        if scheme is None:
            raise KeyError(name)
        return scheme

    @overload
    def get(self, name: str, /) -> Scheme | None: ...
    @overload
    def get(self, name: str, /, default: Scheme | _T) -> Scheme | _T: ...
    def get(self, name: str, /, default: object = None) -> object:
        """The :class:`Scheme` named ``name`` (any case), or ``default``."""
        scheme = self._schemes.get(name) if type(name) is str else None
        if scheme is None:
            scheme = self._lookup(name)  # another case, or not a str
        return default if scheme is None else scheme

    def __contains__(self, name: object) -> bool:
        return self._lookup(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._schemes)

    def __len__(self) -> int:
        return len(self._schemes)

    def default_port(self, name: str) -> int | None:
        """The default port of scheme ``name`` (RFC 3986 §3.2.3), or None.

        None when the scheme is unknown or defines no default port.
        """
        scheme = self._lookup(name)
        return None if scheme is None else scheme.default_port

    @property
    def services(self) -> tuple[tuple[str, int], ...]:
        """(protocol, port) pairs of well-known ports, sorted by port then name."""
        return self._services

    def port_owner(self, port: int) -> list[str]:
        """The schemes and protocols whose default or well-known port is ``port``.

        Sorted by name; empty when the port belongs to none.  A port that is
        the default of another protocol than the URI's own is what RFC 3986 §7.2
        and §7.3 warn of (e.g. ``http://host:25/`` speaks to a mail server).
        """
        return list(self._by_port.get(port, ()))

    # --- new registries ---------------------------------------------------------

    def with_scheme(self, scheme: Scheme) -> SchemeRegistry:
        """A new registry with ``scheme`` added, replacing one of the same name."""
        table = dict(self._schemes)
        table[scheme.name] = scheme
        return SchemeRegistry(table.values(), self._services)

    def without(self, name: str) -> SchemeRegistry:
        """A new registry without the scheme ``name`` (any case); no error if absent."""
        gone = self._lookup(name)
        return SchemeRegistry((s for s in self._schemes.values() if s is not gone), self._services)

    # --- value behaviour --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SchemeRegistry):
            return NotImplemented
        return dict(self._schemes) == dict(other._schemes) and self._services == other._services

    def __hash__(self) -> int:
        return hash((frozenset(self._schemes.items()), self._services))

    def __repr__(self) -> str:
        return (
            f"<SchemeRegistry: {len(self._schemes)} schemes, {len(self._services)} service ports>"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (SchemeRegistry, (tuple(self._schemes.values()), self._services))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"SchemeRegistry is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"SchemeRegistry is immutable; cannot delete {name!r}")


def _scheme_from_row(row: SchemeRow) -> Scheme:
    name, port, authority, host_required, root, insensitive, rules, known, reference, wraps = row
    return Scheme(
        name=name,
        default_port=port,
        # Checked against AUTHORITY_USES by Scheme.__post_init__.
        authority=cast(AuthorityUse, authority),
        host_required=host_required,
        empty_path_is_root=root,
        case_insensitive=frozenset(insensitive),
        special_rules=frozenset(rules),
        well_known=known,
        reference=reference,
        wraps_uri=wraps,
    )


#: The built-in registry: the table in tools/schemes.toml.
DEFAULT_REGISTRY: Final = SchemeRegistry(map(_scheme_from_row, SCHEMES), SERVICE_PORTS)
