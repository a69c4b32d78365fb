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
from typing import Final

from .components import Groups, compose_authority, recompose, split
from .grammar import IRI_GRAMMAR, UNRESERVED, URI_GRAMMAR
from .host import ip_literal, parse_host
from .protocol_steps import (
    STEP_FUNCTIONS,
    Editable,
    Steps,
    character_normalization,
    check_steps,
)
from .resolution import remove_dot_segments, rooted_path
from .schemes import DEFAULT_REGISTRY, Scheme, SchemeRegistry
from .types import Level

__all__ = [
    "HOST_ONLY_CASE",
    "LEVELS",
    "Components",
    "compose",
    "normal_components",
    "normalize",
    "normalize_percent_encoding",
    "scheme_based",
    "syntax_based",
    "triplet_changes",
]

#: The rungs of the ladder that ``normalize`` can climb to, lowest first (§6.2).
LEVELS: Final[tuple[Level, ...]] = ("string", "syntax", "scheme")

_GRAMMARS: Final = {False: URI_GRAMMAR, True: IRI_GRAMMAR}

#: scheme, userinfo, host, port, path, query, fragment: the components being
#: normalized; the host is None when there is no authority.
Components = tuple[str | None, str | None, str | None, str | None, str, str | None, str | None]


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


def triplet_changes() -> list[str]:
    """The hex pairs whose triplet §6.2.2.1 or §6.2.2.2 rewrites."""
    return [pair for pair, normal in _TRIPLETS.items() if normal != "%" + pair]


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


# RFC 3986 6.2.2. Syntax-Based Normalization
def syntax_based(c: Components) -> Components:
    """The components brought to the syntax rung of the ladder (§6.2.2)."""
    scheme, userinfo, host, port, path, query, fragment = c
    # 6.2.2.1 Case Normalization: the scheme (§3.1) and the host (§3.2.2) are
    # case-insensitive; the hex digits of triplets are upper case (with 6.2.2.2).
    if scheme is not None:
        scheme = scheme.lower()
    if host:
        if host[0] == "[":
            host = _ip_literal_syntax(host)
        elif "%" not in host and host.isascii():
            host = host.lower()
        else:
            host = normalize_percent_encoding(host, fold_case=True)
    # 6.2.2.2 Percent-Encoding Normalization, in every other component.
    if userinfo is not None and "%" in userinfo:
        userinfo = normalize_percent_encoding(userinfo)
    if "%" in path:
        path = normalize_percent_encoding(path)
    if query is not None and "%" in query:
        query = normalize_percent_encoding(query)
    if fragment is not None and "%" in fragment:
        fragment = normalize_percent_encoding(fragment)
    # 6.2.2.3 Path Segment Normalization.  Resolution applies remove_dot_segments
    # to a path after an authority or beginning with "/" whatever the base
    # (§5.2.2), so such a path loses its dot-segments in a relative reference
    # too.  A relative-path reference keeps the ".." that climb above it.  After
    # a scheme, a path with neither is not hierarchical (§1.2.3): its dots are data.
    if ("/." in path or path[:1] == ".") and _has_dot_segment(path):
        if host is not None or path[:1] == "/":
            path = remove_dot_segments(path)
        elif scheme is None:
            path = _relative_path_dot_segments(path)
    return scheme, userinfo, host, port, path, query, fragment


# RFC 3986 6.2.3. Scheme-Based Normalization
def scheme_based(c: Components, registry: SchemeRegistry = DEFAULT_REGISTRY) -> Components:
    """Components at the syntax rung brought to the scheme rung (§6.2.3).

    What a scheme allows comes from ``registry``: its default port, whether an
    empty path means "/", the components it reads without case, and its own
    rules (``mailto``, ``urn``, ``file``).
    """
    scheme, userinfo, host, port, path, query, fragment = c
    spec = None if scheme is None else registry.get(scheme)
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
    c = scheme, userinfo, host, port, path, query, fragment
    if spec is None or (not spec.special_rules and spec.case_insensitive in HOST_ONLY_CASE):
        return c
    p = Editable(c, iri=False)
    for component in spec.case_insensitive:
        value = getattr(p, component)
        if component != "host" and value is not None:
            setattr(p, component, normalize_percent_encoding(value, fold_case=True))
    for rule in spec.special_rules:
        _SPECIAL_RULES[rule](p, spec)
    return p.components()


#: The case rules of a scheme that reads only its host without case (or nothing):
#: the syntax rung already folds the host (§6.2.2.1), so it needs no rule of its own.
HOST_ONLY_CASE: Final[tuple[frozenset[str], ...]] = (frozenset({"host"}), frozenset())


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
    literal = parse_host(host)
    zone = literal.zone
    if zone is not None and "%" in zone:
        zone = normalize_percent_encoding(zone)
    return ip_literal(literal.address.lower(), zone)


# --- §6.2.3: IPv6 text and the registry's special rules --------------------------


def _ipv6_canonical(host: str) -> str:
    """An IPv6 literal in the text form of RFC 5952 §4 (IPv4-mapped per §5)."""
    literal = parse_host(host)
    ip = ipaddress.IPv6Address(literal.address)
    mapped = ip.ipv4_mapped
    return ip_literal(ip.compressed if mapped is None else f"::ffff:{mapped}", literal.zone)


def _mailto_domain(p: Editable, spec: Scheme) -> None:
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


def _urn_nid(p: Editable, spec: Scheme) -> None:
    """RFC 8141 §3.1: the "urn:" prefix (the scheme) and the NID fold case."""
    nid, colon, nss = p.path.partition(":")
    if colon:
        p.path = normalize_percent_encoding(nid, fold_case=True) + colon + nss


def _file_localhost(p: Editable, spec: Scheme) -> None:
    """RFC 8089 §2: "localhost", an empty host and no authority all name the local
    machine; RFC 3986 §6.2.3 makes the empty authority the normal form."""
    if p.host is None:
        if p.path[:1] == "/":
            p.host = ""
    elif p.host == "localhost" and p.userinfo is None and p.port is None:
        p.host = ""


_SPECIAL_RULES: Final[dict[str, Callable[[Editable, Scheme], None]]] = {
    "mailto-domain": _mailto_domain,
    "urn-nid": _urn_nid,
    "file-localhost": _file_localhost,
}


# --- the ladder, and the protocol-based steps on top of it ---------------------------


def normalize(
    parts: Groups,
    *,
    level: Level = "scheme",
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    iri: bool = False,
    steps: Steps | None = None,
) -> str:
    """The text of the reference whose components are ``parts`` (a :class:`Parts`, or
    the groups of a match of ``Grammar.reference``) in the normal form of ``level``
    (RFC 3986 §6.2).

    ``level`` is ``"scheme"`` (§6.2.3, the default), ``"syntax"`` (§6.2.2) or
    ``"string"`` (§6.2.1: no change).  ``iri`` says the reference is an IRI
    (the rules are the same: only ASCII letters fold, RFC 3987 §5.3.2.1).
    ``steps`` switches on protocol-based steps (§6.2.4, ``protocol_steps``);
    with ``idna="u-label"`` the result holds U-labels, so only an IRI can hold it.
    """
    return compose(normal_components(parts, level=level, registry=registry, iri=iri, steps=steps))


def normal_components(
    parts: Groups,
    level: Level = "scheme",
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    iri: bool = False,
    steps: Steps | None = None,
) -> Components:
    """The components of :func:`normalize`'s normal form: scheme, userinfo, host, port,
    path, query and fragment, the host ``None`` without an authority."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    active = check_steps(steps) if steps else None
    scheme, authority, userinfo, host, port, path, query, fragment = parts
    if active and "unicode" in active:
        text = recompose(scheme, authority, path, query, fragment)
        reparsed = split(character_normalization(text, active["unicode"]), _GRAMMARS[iri])
        if reparsed is not None:
            scheme, authority, userinfo, host, port, path, query, fragment = reparsed
    c: Components = (scheme, userinfo, host, port, path, query, fragment)
    if level != "string":
        c = syntax_based(c)
        if level == "scheme":
            c = scheme_based(c, registry)
    if active:
        p = Editable(c, iri=iri or active.get("idna") == "u-label")
        for name, function in STEP_FUNCTIONS.items():
            if name in active:
                function(p, active[name])
        c = p.components()
    return c


def compose(c: Components) -> str:
    """The text of the reference whose components are ``c`` (§5.3), a path after no
    authority written so that it reads back as itself (``resolution.rooted_path``)."""
    scheme, userinfo, host, port, path, query, fragment = c
    if host is not None:
        return recompose(scheme, compose_authority(userinfo, host, port), path, query, fragment)
    return recompose(scheme, None, rooted_path(path), query, fragment)
