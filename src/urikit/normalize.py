"""Normalization: the rungs of the comparison ladder (RFC 3986 §6.2).

``normalize(ref, level=...)`` rewrites a reference into the normal form of a
rung: ``"syntax"`` (§6.2.2: case, percent-encoding and path segment
normalization), ``"scheme"`` (§6.2.3, the default: the syntax rules plus what
the scheme registry knows) or ``"string"`` (§6.2.1: nothing).  On top of a
level, protocol-based steps (§6.2.4) run only when asked for by keyword; each
can make two references that identify different resources compare equal, and
``docs/normalization.md`` says what each one risks.

Invariants: the result has the type of the input (``URI`` or ``IRI``), it
re-parses, normalizing it again changes nothing, and at the levels it
identifies what the input identifies.  One implementation serves URIs and
IRIs: only ASCII letters are ever case-folded (RFC 3987 §5.3.2.1) and only
octets of ASCII unreserved characters are decoded (RFC 3987 §5.3.2.3).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any, Final, TypeVar, overload

from .grammar import UNRESERVED, URI_GRAMMAR
from .iri import IRI
from .protocol_steps import (
    STEP_FUNCTIONS,
    STEPS,
    TRACKING_PARAMS,
    Components,
    Parts,
    character_normalization,
    check_steps,
)
from .resolve import remove_dot_segments, rooted_path
from .schemes import DEFAULT_REGISTRY, Scheme, SchemeRegistry
from .uri import URI, _Reference, compose_authority, recompose

__all__ = ["LEVELS", "STEPS", "TRACKING_PARAMS", "normalize"]

_R = TypeVar("_R", bound=_Reference)

#: The rungs of the ladder that ``normalize`` can climb to, lowest first (§6.2).
LEVELS: Final = ("string", "syntax", "scheme")
_RANK: Final = {name: rank for rank, name in enumerate(LEVELS)}

# --- character data, from the grammar module ----------------------------------

_UNRESERVED_RE: Final = re.compile(f"[{UNRESERVED}]")
_HEX: Final = "0123456789ABCDEFabcdef"
_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _triplet_table(fold: bool) -> dict[str, str]:
    """Hex pair (any case) -> its normal text: the unreserved character it
    encodes (§6.2.2.2), else the triplet with upper-case hex (§6.2.2.1).
    With ``fold``, decoded letters are lower-cased (for case-insensitive data)."""
    table: dict[str, str] = {}
    for hi in _HEX:
        for lo in _HEX:
            octet = int(hi + lo, 16)
            char = chr(octet)
            if octet < 128 and _UNRESERVED_RE.fullmatch(char):
                table[hi + lo] = char.lower() if fold else char
            else:
                table[hi + lo] = "%" + (hi + lo).upper()
    return table


_TRIPLETS: Final = _triplet_table(fold=False)
_TRIPLETS_FOLDED: Final = _triplet_table(fold=True)


def normalize_percent_encoding(text: str, *, fold_case: bool = False) -> str:
    """Percent-encoding normalization (RFC 3986 §6.2.2.2) with hex in upper case (§6.2.2.1).

    Only octets of unreserved characters are decoded; "%2F", "%3F", "%23",
    "%40" and every other encoded reserved or non-ASCII octet stay encoded.
    With ``fold_case``, ASCII letters (decoded ones included) are lower-cased,
    as in a case-insensitive component.  ``text`` must be valid (every "%"
    starts a triplet), as the components of a parsed reference are.
    """
    if fold_case:
        text = text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
    if "%" not in text:
        return text
    table = _TRIPLETS_FOLDED if fold_case else _TRIPLETS
    parts = text.split("%")
    out = [parts[0]]
    for part in parts[1:]:
        out.append(table[part[:2]])
        out.append(part[2:])
    return "".join(out)


def _recompose(components: Components) -> str:
    """Component recomposition (RFC 3986 §5.3)."""
    scheme, userinfo, host, port, path, query, fragment = components
    if host is not None:
        return recompose(scheme, compose_authority(userinfo, host, port), path, query, fragment)
    return recompose(scheme, None, rooted_path(path), query, fragment)


_HOST_ONLY: Final[tuple[frozenset[str], ...]] = (frozenset({"host"}), frozenset())


def _at_level(
    groups: tuple[Any, ...], rank: int, registry: SchemeRegistry, iri: bool
) -> Components:
    """The components of a parsed reference (its match groups) normalized to ``rank``."""
    scheme, _, userinfo, host, port, path, query, fragment = groups
    if rank == 0:
        return scheme, userinfo, host, port, path, query, fragment

    # §6.2.2 syntax-based normalization.
    # §6.2.2.1: the scheme (§3.1) and the host (§3.2.2) are case-insensitive.
    if scheme is not None:
        scheme = scheme.lower()
    if userinfo is not None and "%" in userinfo:
        userinfo = normalize_percent_encoding(userinfo)
    if host:
        if host[0] == "[":
            host = _ip_literal_syntax(host)
        elif "%" not in host and host.isascii():
            host = host.lower()
        else:
            host = normalize_percent_encoding(host, fold_case=True)
    # §6.2.2.2 everywhere else.
    if "%" in path:
        path = normalize_percent_encoding(path)
    if query is not None and "%" in query:
        query = normalize_percent_encoding(query)
    if fragment is not None and "%" in fragment:
        fragment = normalize_percent_encoding(fragment)
    # §6.2.2.3.  Resolution applies remove_dot_segments to a path after an
    # authority or beginning with "/" whatever the base (§5.2.2), so such a
    # path loses its dot-segments in a relative reference too.  A relative-path
    # reference keeps the ".." that climb above it.  After a scheme, a path with
    # neither is not hierarchical (§1.2.3): its dots are data.
    if "." in path and _has_dot_segment(path):
        if host is not None or path[:1] == "/":
            path = remove_dot_segments(path)
        elif scheme is None:
            path = _relative_path_dot_segments(path)
    if rank == 1:
        return scheme, userinfo, host, port, path, query, fragment

    # §6.2.3 scheme-based normalization, from the registry's data.
    tables = _tables(registry)
    spec = None if scheme is None else tables.schemes.get(scheme)
    if host is not None:
        if port is not None:
            # §3.2.3: an empty port, or the scheme's default, is omitted; the port
            # is a decimal number, so leading zeros are not significant.
            if port[:1] == "0":
                port = port.lstrip("0") or "0"
            if port == "" or (
                spec is not None
                and spec.default_port is not None
                and port == str(spec.default_port)
            ):
                port = None
        if host[:1] == "[" and host[1] not in "vV":
            host = _ipv6_canonical(host)
        if path == "" and spec is not None and spec.empty_path_is_root:
            path = "/"
    components = scheme, userinfo, host, port, path, query, fragment
    if spec is not None and scheme in tables.special:
        p = Parts(components, iri)
        for component in spec.case_insensitive:
            value = getattr(p, component)
            if component != "host" and value is not None:
                setattr(p, component, normalize_percent_encoding(value, fold_case=True))
        for rule in spec.special_rules:
            _SPECIAL_RULES[rule](p, spec)
        components = p.components()
    return components


def _has_dot_segment(path: str) -> bool:
    """Does ``path`` hold a complete "." or ".." segment (§3.3)?"""
    if path[:1] != "." and "/." not in path:
        return False
    return any(segment == "." or segment == ".." for segment in path.split("/"))


def _relative_path_dot_segments(path: str) -> str:
    """The path of a relative-path reference (§4.2) with its dot-segments
    removed, except the leading ".." segments, so that it resolves to the same
    target against every base (§5.2.2, §5.2.4).

    The result is never empty ("a/.." gives "./", not the same-document
    reference), and "./" goes before a first segment that holds ":" (§4.2) or
    is empty (it would read as "/" or "//").

    >>> _relative_path_dot_segments("mid/content=5/../6")
    'mid/6'
    >>> _relative_path_dot_segments("./a/../../b/.")
    '../b/'
    """
    segments = path.split("/")
    kept: list[str] = []
    climbs = 0
    for segment in segments:
        if segment == "..":
            if kept:
                kept.pop()
            else:
                climbs += 1
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")  # the target is a directory: keep its final "/"
    if climbs:
        return "../" * climbs + "/".join(kept)
    if not kept[0] or ":" in kept[0]:
        kept.insert(0, ".")
    return "/".join(kept)


def _ip_literal_syntax(host: str) -> str:
    """§6.2.2.1 for an IP-literal: hex digits and the "v" of IPvFuture fold; an
    RFC 6874 zone ID names an interface and keeps its case."""
    address, sep, zone = host[1:-1].partition("%25")
    if sep and "%" in zone:
        zone = normalize_percent_encoding(zone)
    return "[" + address.lower() + sep + zone + "]"


# --- what normalize precomputes from a registry ---------------------------------------

# These patterns are sufficient tests for "nothing to rewrite" on text that is
# parsed as well; they are not grammar rules.  Each matches the start of a URL
# with a lower-case scheme (group 1) and, when there is an authority, a host
# with no upper-case letter, IP literal or "%".  _PLAIN_START, the common case,
# tried first: no userinfo and no port, and group 2 matches when the path is
# empty; or no authority at all.  _AUTHORITY_START: any authority like that,
# with its port (group 2) if it has one without leading zeros; the path
# follows at ``end()``.
_SCHEME_START: Final = r"([a-z][a-z0-9+.\-]*):"
_HOST_START: Final = r"[^A-Z\[:/?#%@]*"
_PLAIN_START: Final = rf"{_SCHEME_START}(?://{_HOST_START}(?:/|()(?=[?#]|\Z))|(?!//))"
_AUTHORITY_START: Final = re.compile(
    rf"{_SCHEME_START}//(?:[^/?#@]*@)?{_HOST_START}(?::([1-9][0-9]*))?(?=[/?#]|\Z)"
)


def _normal_reference(triplets: bool) -> str:
    """A pattern for the common URI that is valid and already in normal form,
    but for the "/" that an empty path may need at the scheme level (§6.2.3),
    when it holds no "/." and no triplet that :data:`_CHANGING_TRIPLET` finds:
    a lower-case scheme (the special schemes are excluded separately), no
    userinfo or port, a lower-case reg-name host without "%" and a path that is
    empty or rooted after it.  Path, query and fragment hold triplets only
    with ``triplets``; the pattern without them is the faster one.

    Its language is a subset of URI-reference and its groups are those of
    :attr:`Grammar.reference <urikit.grammar.Grammar.reference>`, so a match
    stands in for the full parse; the userinfo and port groups (3 and 5) are
    there only to keep the numbering and never take part.
    """
    g = URI_GRAMMAR
    if triplets:
        path, query, fragment = g.sources["path"], g.sources["query"], g.sources["fragment"]
    else:
        path, query, fragment = (
            f"[{chars}]*" for chars in (g.path_chars, g.query_chars, g.fragment_chars)
        )
    host = g.reg_name_chars.replace("A-Z", "")
    never = "(?:(?!)())?"
    return (
        rf"{_SCHEME_START}(?://({never}([{host}]*){never})(?=[/?#]|\Z)|(?!//))"
        rf"({path})(?:\?({query}))?(?:#({fragment}))?"
    )


def _changing_triplet_pattern() -> re.Pattern[str]:
    """A pattern that finds a triplet that §6.2.2.1 or §6.2.2.2 would rewrite."""
    changing: dict[str, str] = {}
    for pair, normal in _TRIPLETS.items():
        if normal != "%" + pair:
            changing[pair[0]] = changing.get(pair[0], "") + pair[1]
    return re.compile("%(?:" + "|".join(f"{hi}[{lo}]" for hi, lo in changing.items()) + ")")


_CHANGING_TRIPLET: Final = _changing_triplet_pattern()
# A complete "." or ".." segment (§3.3) of a path that begins with "/"; it may
# also find one in the query or fragment, which only sends the text the long way.
_DOT_SEGMENT: Final = re.compile(r"/\.\.?(?=[/?#]|\Z)")


class _Tables:
    """What normalization needs of one registry, computed once.

    ``schemes`` maps each lower-case name to its :class:`Scheme`; ``special``
    holds the names of the schemes with case rules of their own, which only
    the full path applies; for every other scheme, ``plain`` matches
    :data:`_PLAIN_START`, and ``normal`` and ``normal_encoded`` fully match
    the patterns of :func:`_normal_reference` without and with triplets;
    ``rooted`` holds the names of the schemes whose empty path is "/".
    """

    __slots__ = ("normal", "normal_encoded", "plain", "registry", "rooted", "schemes", "special")

    def __init__(self, registry: SchemeRegistry) -> None:
        self.registry = registry
        self.schemes: dict[str, Scheme] = dict(registry.items())
        self.special = frozenset(
            name
            for name, spec in self.schemes.items()
            if spec.special_rules or spec.case_insensitive not in _HOST_ONLY
        )
        names = "|".join(re.escape(name) for name in sorted(self.special))
        exclude = f"(?!(?:{names}):)" if names else ""
        self.plain: Callable[[str], re.Match[str] | None] = re.compile(exclude + _PLAIN_START).match
        self.normal, self.normal_encoded = (
            re.compile(exclude + _normal_reference(triplets)).fullmatch
            for triplets in (False, True)
        )
        self.rooted = frozenset(
            name for name, spec in self.schemes.items() if spec.empty_path_is_root
        )

    def quick_normal_form(self, text: str, rank: int) -> str | None:
        """The normal form of ``text`` at ``rank`` (1 or 2) found without taking
        it apart, or ``None`` when this quick test is unsure.

        ``text`` itself when it is already normal: no triplet to rewrite, no
        dot-segment, and a start that needs nothing.  With "/" after the
        authority when only its empty path needs one (§6.2.3).  The full path
        is the oracle: tests check that both agree.
        """
        if "%" in text and _CHANGING_TRIPLET.search(text):
            return None
        if "/." in text and _DOT_SEGMENT.search(text):
            return None
        start = self.plain(text)
        if start is not None:
            if start.lastindex == 1 or rank == 1:
                return text
        else:
            start = _AUTHORITY_START.match(text)
            if start is None or start[1] in self.special:
                return None
            if rank == 1:
                return text
            port = start[2]
            if port is not None:
                spec = self.schemes.get(start[1])
                if spec is not None and port.lstrip("0") == str(spec.default_port):
                    return None
        return self.with_root_path(text, start[1], start.end())

    def with_root_path(self, text: str, scheme: str, end: int) -> str:
        """``text`` with "/" at ``end``, just after the authority, when the
        path there is empty and ``scheme`` says that means "/" (§6.2.3)."""
        if scheme not in self.rooted or text[end : end + 1] == "/":
            return text
        return text[:end] + "/" + text[end:]


_DEFAULT_TABLES: Final = _Tables(DEFAULT_REGISTRY)
_tables_cache: _Tables = _DEFAULT_TABLES


def _tables(registry: SchemeRegistry) -> _Tables:
    """The tables of ``registry``, computed once for the registry last used."""
    global _tables_cache
    if registry is DEFAULT_REGISTRY:
        return _DEFAULT_TABLES
    if _tables_cache.registry is not registry:
        _tables_cache = _Tables(registry)
    return _tables_cache


# --- §6.2.3: IPv6 text and the registry's special rules --------------------------


def _ipv6_canonical(host: str) -> str:
    """An IPv6 literal in the text form of RFC 5952 §4 (IPv4-mapped per §5)."""
    address, sep, zone = host[1:-1].partition("%25")
    ip = ipaddress.IPv6Address(address)
    mapped = ip.ipv4_mapped
    text = ip.compressed if mapped is None else f"::ffff:{mapped}"
    return "[" + text + sep + zone + "]"


def _mailto_domain(p: Parts, spec: Scheme) -> None:
    """RFC 6068 §2, RFC 5321 §2.4: the domain of each address folds case, the local part not."""
    if "@" not in p.path:
        return
    addresses = []
    for address in p.path.split(","):
        local, at, domain = address.rpartition("@")
        if at:
            address = local + at + normalize_percent_encoding(domain, fold_case=True)
        addresses.append(address)
    p.path = ",".join(addresses)


def _urn_nid(p: Parts, spec: Scheme) -> None:
    """RFC 8141 §3.1: the "urn:" prefix (the scheme) and the NID fold case."""
    nid, colon, nss = p.path.partition(":")
    if colon:
        p.path = normalize_percent_encoding(nid, fold_case=True) + colon + nss


def _file_localhost(p: Parts, spec: Scheme) -> None:
    """RFC 8089 §2: "localhost", an empty host and no authority all name the local
    machine; RFC 3986 §6.2.3 makes the empty authority the normal form."""
    if p.host is None:
        if p.path[:1] == "/":
            p.host = ""
    elif p.host == "localhost" and p.userinfo is None and p.port is None:
        p.host = ""


_SPECIAL_RULES: Final[dict[str, Callable[[Parts, Scheme], None]]] = {
    "mailto-domain": _mailto_domain,
    "urn-nid": _urn_nid,
    "file-localhost": _file_localhost,
}


# --- the entry point ------------------------------------------------------------------

# The parse that URI(text) makes, and the URI made from its match.
_match_uri: Final = URI._fullmatch
_uri_from_match: Final = URI._from_match


@overload
def normalize(
    uri: str, *, level: str = ..., registry: SchemeRegistry = ..., **steps: Any
) -> URI: ...
@overload
def normalize(uri: _R, *, level: str = ..., registry: SchemeRegistry = ..., **steps: Any) -> _R: ...
def normalize(
    uri: _Reference | str,
    *,
    level: str = "scheme",
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    **steps: Any,
) -> _Reference:
    """The normal form of ``uri`` at ``level`` of the comparison ladder (RFC 3986 §6.2).

    ``level`` is ``"scheme"`` (§6.2.3, the default), ``"syntax"`` (§6.2.2) or
    ``"string"`` (§6.2.1: no change).  A ``str`` is parsed as a :class:`URI`; a
    URI or IRI gives back its own type, except with ``idna="u-label"``, whose
    display form is always an :class:`~urikit.iri.IRI`.  Scheme knowledge comes from
    ``registry``.  Protocol-based steps (§6.2.4) run only when switched on:
    ``unicode="NFC"|"NFKC"``, ``idna="a-label"|"u-label"``,
    ``strip_host_dot=True``, ``remove_params=names or predicate``,
    ``form_query=True``, ``sort_query=True``, ``drop_empty_query=True``,
    ``drop_fragment=True``.

    >>> str(normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d"))
    'example://a/b/c/%7Bfoo%7D'
    >>> str(normalize("HTTP://Example.COM:80"))
    'http://example.com/'
    """
    if type(uri) is str and level == "scheme" and not steps:
        # The call that dominates real use: a string that is already normal,
        # but for the "/" of an empty path, costs one match of a simpler pattern.
        tables = _DEFAULT_TABLES if registry is DEFAULT_REGISTRY else _tables(registry)
        if "/." not in uri:
            if "%" not in uri:
                m = tables.normal(uri)
            elif _CHANGING_TRIPLET.search(uri) is None:
                m = tables.normal_encoded(uri)
            else:
                m = None
            if m is not None:
                if m[6] or m[2] is None or m[1] not in tables.rooted:
                    return _uri_from_match(m)
                m = tables.normal_encoded(tables.with_root_path(uri, m[1], m.end(2)))
                if m is not None:
                    return _uri_from_match(m)
    rank = 2 if level == "scheme" else _RANK.get(level)
    if rank is None:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    tables = _DEFAULT_TABLES if registry is DEFAULT_REGISTRY else _tables(registry)
    if type(uri) is str:
        if rank and not steps:
            quick = tables.quick_normal_form(uri, rank)
            if quick is not None:
                # When the text does not match, the input is invalid too:
                # parsing it below reports where.
                m = _match_uri(quick)
                if m is not None:
                    return _uri_from_match(m)
        ref: _Reference = URI(uri)
    else:
        ref = uri if isinstance(uri, _Reference) else URI(uri)
        if rank and not steps:
            text = ref._m.string
            quick = tables.quick_normal_form(text, rank)
            if quick is not None:
                return ref if quick is text else type(ref)(quick)
    result: type[_Reference] = type(ref)
    if not steps:
        components = _at_level(ref._m.groups(), rank, registry, result._grammar.iri)
    else:
        active = check_steps(steps)
        if "unicode" in active:
            ref = character_normalization(ref, active["unicode"])
        if active.get("idna") == "u-label":
            # U-labels are for display, and the display form of a URI is an IRI
            # (RFC 3987 §3.2): only an IRI can hold them as characters.
            result = IRI
        iri = result._grammar.iri
        p = Parts(_at_level(ref._m.groups(), rank, registry, iri), iri)
        for name, function in STEP_FUNCTIONS.items():
            if name in active:
                function(p, active[name])
        components = p.components()
    text = _recompose(components)
    if text == ref._m.string and result is type(ref):
        return ref
    m = result._fullmatch(text)
    return result(text) if m is None else result._from_match(m)
