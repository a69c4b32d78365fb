"""Hypothesis strategies for URI and IRI references, built from the grammar.

Each component is drawn from its ABNF rule (RFC 3986 Appendix A, RFC 6874,
RFC 3987 §2.2): the character classes come from ``urikit.grammar``, and the
structure (which path form goes with which prefix, §3.3 and §4.2; the nine
IPv6address forms of §3.2.2) is written out here.  Strategies yield the text
together with the components it must parse into, so tests can check both.

Exports:

* ``components(iri=False, scheme=None, fragment=True)``: dicts of the seven
  keyword arguments of ``URI.build`` (scheme, userinfo, host, port, path,
  query, fragment), consistent with the grammar;
* ``parsed_references(...)``: ``(text, expected)`` where ``expected`` has all
  eight components plus ``host_type``;
* ``uri_references()``, ``absolute_uris()``, ``relative_refs()``,
  ``iri_references()``: the texts alone;
* ``hosts()``, ``ipv6_addresses()``, ``ipv4_addresses()``, ``reg_names()``,
  ``ip_vfutures()``, ``schemes()``, ``segments()``, ``queries()``,
  ``fragments()``, ``userinfos()``, ``ports()``, ``pct_encoded()``;
* ``recompose(c)`` and ``authority_of(c)``: RFC 3986 §5.3 over such dicts;
* ``grammar_text()``: arbitrary text biased towards the grammar's delimiters;
  ``authority_text()``: near-valid authorities and IP literals.
"""

from __future__ import annotations

import ipaddress
import re
from functools import cache
from typing import Any

from hypothesis import strategies as st

from urikit import grammar as g

Components = dict[str, Any]

__all__ = [
    "absolute_uris",
    "authority_of",
    "authority_text",
    "components",
    "fragments",
    "grammar_text",
    "hosts",
    "ip_vfutures",
    "ipv4_addresses",
    "ipv6_addresses",
    "iri_references",
    "known_scheme_references",
    "parsed_references",
    "pct_encoded",
    "ports",
    "queries",
    "recompose",
    "reg_names",
    "relative_refs",
    "schemes",
    "segments",
    "uri_references",
    "userinfos",
]


# --- character classes from the grammar module ------------------------------------


@cache
def _ascii_members(cls: str) -> str:
    """The ASCII characters of a class body of ``urikit.grammar``."""
    pattern = re.compile(f"[{cls}]")
    return "".join(c for c in map(chr, range(128)) if pattern.fullmatch(c))


def _class_chars(cls: str, iri: bool) -> st.SearchStrategy[str]:
    """One character of class body ``cls``: ASCII members, or (IRI) a non-ASCII one."""
    ascii_chars = st.sampled_from(_ascii_members(cls))
    if not iri:
        return ascii_chars
    pattern = re.compile(f"[{cls}]")
    # RFC 3987 §4.1 forbids the bidi formatting characters that ucschar holds
    bidi = re.compile(f"[{g.BIDI_FORMATTING}]")
    wide = st.characters(min_codepoint=0xA0).filter(
        lambda c: pattern.fullmatch(c) is not None and bidi.fullmatch(c) is None
    )
    return st.one_of(ascii_chars, ascii_chars, wide)


def pct_encoded() -> st.SearchStrategy[str]:
    """pct-encoded = "%" HEXDIG HEXDIG   (§2.1), either case."""
    hexdig = st.sampled_from(_ascii_members(g.HEXDIG))
    return st.tuples(hexdig, hexdig).map(lambda t: "%" + "".join(t))


def _star(cls: str, iri: bool, *, min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[str]:
    """``*( [cls] / pct-encoded )`` (or ``1*`` with ``min_size=1``)."""
    unit = st.one_of(_class_chars(cls, iri), _class_chars(cls, iri), pct_encoded())
    return st.lists(unit, min_size=min_size, max_size=max_size).map("".join)


def _grammar(iri: bool) -> g.Grammar:
    return g.IRI_GRAMMAR if iri else g.URI_GRAMMAR


# --- components -----------------------------------------------------------------------


def schemes() -> st.SearchStrategy[str]:
    """scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )   (§3.1)."""
    first = st.sampled_from(_ascii_members(g.ALPHA))
    rest = st.text(st.sampled_from(_ascii_members(g.ALPHA + g.DIGIT + r"+\-.")), max_size=8)
    return st.builds(lambda a, b: a + b, first, rest)


def userinfos(iri: bool = False) -> st.SearchStrategy[str]:
    """userinfo = *( unreserved / pct-encoded / sub-delims / ":" )   (§3.2.1)."""
    return _star(_grammar(iri).userinfo_chars, iri)


def ports() -> st.SearchStrategy[str]:
    """port = *DIGIT   (§3.2.3): empty, leading zeros and large numbers included."""
    return st.one_of(
        st.text(st.sampled_from(_ascii_members(g.DIGIT)), max_size=7),
        st.integers(0, 65535).map(str),
    )


def _h16(value: int) -> st.SearchStrategy[str]:
    """h16 = 1*4HEXDIG   (§3.2.2) for ``value``: any case, optional leading zeros."""
    digits = f"{value:x}"
    return st.tuples(st.integers(len(digits), 4), st.booleans()).map(
        lambda t: digits.rjust(t[0], "0").upper() if t[1] else digits.rjust(t[0], "0")
    )


def _dotted(value: int) -> str:
    return ".".join(str(b) for b in value.to_bytes(4, "big"))


@st.composite
def ipv6_addresses(draw: st.DrawFn) -> tuple[str, ipaddress.IPv6Address]:
    """An IPv6address in any of the nine forms of §3.2.2, and its value.

    "::" stands for one or more zero groups anywhere (not only the longest
    run); the last 32 bits may be written as an IPv4address (ls32).
    """
    groups = draw(
        st.lists(
            st.sampled_from([0, 0, 1, 0xFFFF]) | st.integers(0, 0xFFFF), min_size=8, max_size=8
        )
    )
    compress = draw(st.none() | st.tuples(st.integers(0, 7), st.integers(1, 8)))
    run: tuple[int, int] | None = None
    if compress is not None:
        start, length = compress
        run = (start, min(8, start + length))
        for k in range(*run):
            groups[k] = 0
    v4_allowed = run is None or run[1] <= 6
    use_v4 = v4_allowed and draw(st.booleans())
    texts = [draw(_h16(x)) for x in groups]
    if use_v4:
        texts[6:8] = [_dotted((groups[6] << 16) | groups[7])]
    if run is None:
        text = ":".join(texts)
    else:
        a, b = run
        # with ls32 as an IPv4address, texts[6] holds the last two groups (b <= 6)
        text = ":".join(texts[:a]) + "::" + ":".join(texts[b:])
    value = 0
    for x in groups:
        value = (value << 16) | x
    return text, ipaddress.IPv6Address(value)


def ipv4_addresses() -> st.SearchStrategy[str]:
    """IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet   (§3.2.2)."""
    return st.integers(0, 2**32 - 1).map(_dotted)


def _zone_ids() -> st.SearchStrategy[str]:
    """ZoneID = 1*( unreserved / pct-encoded )   (RFC 6874 §2)."""
    return _star(g.UNRESERVED, False, min_size=1, max_size=6)


def ip_vfutures() -> st.SearchStrategy[str]:
    """IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )   (§3.2.2)."""
    hexdig = st.text(st.sampled_from(_ascii_members(g.HEXDIG)), min_size=1, max_size=3)
    body = st.text(
        st.sampled_from(_ascii_members(g.UNRESERVED + g.SUB_DELIMS + ":")), min_size=1, max_size=8
    )
    return st.builds(lambda v, h, b: f"{v}{h}.{b}", st.sampled_from("vV"), hexdig, body)


def is_ipv4_text(text: str) -> bool:
    """Does ``text`` match IPv4address (dotted decimal, no leading zeros, §3.2.2)?"""
    parts = text.split(".")
    return len(parts) == 4 and all(
        p.isascii() and p.isdigit() and len(p) <= 3 and (p == "0" or p[0] != "0") and int(p) < 256
        for p in parts
    )


def reg_names(iri: bool = False) -> st.SearchStrategy[str]:
    """reg-name = *( unreserved / pct-encoded / sub-delims )   (§3.2.2), names included."""
    labels = st.text(st.sampled_from("abcxyz0129-"), min_size=1, max_size=6)
    names = st.lists(labels, min_size=1, max_size=4).map(".".join)
    return st.one_of(names, _star(_grammar(iri).reg_name_chars, iri))


@st.composite
def hosts(draw: st.DrawFn, iri: bool = False) -> tuple[str, str]:
    """``(host, host_type)`` for every kind of host (§3.2.2, RFC 6874)."""
    kind = draw(st.sampled_from(["reg-name", "ipv4", "ipv6", "ipv6z", "ipvfuture"]))
    if kind == "ipv4":
        return draw(ipv4_addresses()), "ipv4"
    if kind == "ipv6":
        return f"[{draw(ipv6_addresses())[0]}]", "ipv6"
    if kind == "ipv6z":
        return f"[{draw(ipv6_addresses())[0]}%25{draw(_zone_ids())}]", "ipv6"
    if kind == "ipvfuture":
        return f"[{draw(ip_vfutures())}]", "ipvfuture"
    name = draw(reg_names(iri))
    # first-match-wins: a reg-name that is also an IPv4address is IPv4 (§3.2.2)
    return name, "ipv4" if is_ipv4_text(name) else "reg-name"


def segments(iri: bool = False, *, nz: bool = False, nc: bool = False) -> st.SearchStrategy[str]:
    """segment / segment-nz / segment-nz-nc   (§3.3)."""
    gr = _grammar(iri)
    return _star(gr.pchar_nc if nc else gr.pchar, iri, min_size=1 if nz else 0, max_size=6)


def _slash_segments(iri: bool) -> st.SearchStrategy[str]:
    """*( "/" segment )."""
    return st.lists(segments(iri), max_size=4).map(lambda ss: "".join("/" + s for s in ss))


def _path(iri: bool, form: str) -> st.SearchStrategy[str]:
    """The path forms of §3.3."""
    rest = _slash_segments(iri)
    if form == "path-abempty":
        return rest
    if form == "path-absolute":
        tail = st.one_of(st.just(""), st.builds(lambda a, b: a + b, segments(iri, nz=True), rest))
        return tail.map(lambda t: "/" + t)
    if form == "path-noscheme":
        return st.builds(lambda a, b: a + b, segments(iri, nz=True, nc=True), rest)
    if form == "path-rootless":
        return st.builds(lambda a, b: a + b, segments(iri, nz=True), rest)
    return st.just("")


def queries(iri: bool = False) -> st.SearchStrategy[str]:
    """query = *( pchar / "/" / "?" )   (§3.4; RFC 3987 adds iprivate)."""
    return _star(_grammar(iri).query_chars, iri)


def fragments(iri: bool = False) -> st.SearchStrategy[str]:
    """fragment = *( pchar / "/" / "?" )   (§3.5)."""
    return _star(_grammar(iri).fragment_chars, iri)


@st.composite
def _components_with_type(
    draw: st.DrawFn, iri: bool = False, scheme: bool | None = None, fragment: bool = True
) -> tuple[Components, str | None]:
    has_scheme = draw(st.booleans()) if scheme is None else scheme
    c: Components = {"scheme": draw(schemes()) if has_scheme else None}
    host_type = None
    if draw(st.booleans()):
        host, host_type = draw(hosts(iri))
        c["userinfo"] = draw(st.none() | userinfos(iri))
        c["host"] = host
        c["port"] = draw(st.none() | ports())
        c["path"] = draw(_path(iri, "path-abempty"))
    else:
        c["userinfo"] = c["host"] = c["port"] = None
        # §4.1/§4.2: after a scheme path-rootless, else path-noscheme
        second = "path-rootless" if has_scheme else "path-noscheme"
        form = draw(st.sampled_from(["path-absolute", second, "path-empty"]))
        c["path"] = draw(_path(iri, form))
    c["query"] = draw(st.none() | queries(iri))
    c["fragment"] = draw(st.none() | fragments(iri)) if fragment else None
    return c, host_type


def components(
    iri: bool = False, scheme: bool | None = None, fragment: bool = True
) -> st.SearchStrategy[Components]:
    """Components of a valid reference, as keyword arguments of ``URI.build``.

    ``scheme``: True (a URI), False (a relative-ref) or None (either);
    ``fragment=False`` never draws a fragment (absolute-URI, §4.3).
    """
    return _components_with_type(iri, scheme, fragment).map(lambda t: t[0])


def authority_of(c: Components) -> str | None:
    """authority = [ userinfo "@" ] host [ ":" port ]   (§3.2)."""
    if c.get("host") is None:
        return None
    authority = c["host"]
    if c.get("userinfo") is not None:
        authority = c["userinfo"] + "@" + authority
    if c.get("port") is not None:
        authority += ":" + c["port"]
    return str(authority)


def recompose(c: Components) -> str:
    """RFC 3986 §5.3 Component Recomposition."""
    result = ""
    if c.get("scheme") is not None:
        result += c["scheme"] + ":"
    authority = authority_of(c)
    if authority is not None:
        result += "//" + authority
    result += c["path"]
    if c.get("query") is not None:
        result += "?" + c["query"]
    if c.get("fragment") is not None:
        result += "#" + c["fragment"]
    return result


def parsed_references(
    iri: bool = False, scheme: bool | None = None, fragment: bool = True
) -> st.SearchStrategy[tuple[str, Components]]:
    """``(text, expected)``: ``expected`` holds all eight components and ``host_type``."""

    def finish(t: tuple[Components, str | None]) -> tuple[str, Components]:
        c, host_type = t
        expected = dict(c, authority=authority_of(c), host_type=host_type)
        return recompose(c), expected

    return _components_with_type(iri, scheme, fragment).map(finish)


def uri_references() -> st.SearchStrategy[str]:
    """URI-reference = URI / relative-ref   (§4.1)."""
    return parsed_references().map(lambda t: t[0])


def absolute_uris() -> st.SearchStrategy[str]:
    """absolute-URI = scheme ":" hier-part [ "?" query ]   (§4.3)."""
    return parsed_references(scheme=True, fragment=False).map(lambda t: t[0])


def relative_refs() -> st.SearchStrategy[str]:
    """relative-ref = relative-part [ "?" query ] [ "#" fragment ]   (§4.2)."""
    return parsed_references(scheme=False).map(lambda t: t[0])


def iri_references() -> st.SearchStrategy[str]:
    """IRI-reference (RFC 3987 §2.2): ucschar in the unreserved places, iprivate in queries."""
    return parsed_references(iri=True).map(lambda t: t[0])


# --- arbitrary text, biased towards the grammar ----------------------------------------

_PIECES = [
    "//", "::", "%", "%2", "%25", "%4", "%41", "[", "]", "@", ":", "?", "#", "/", ".",
    "v1.", "1.2.3.4", "255", "256", "0", "ff", "http:", "a", "-", "+", "~", "!", "=",
]  # fmt: skip


def grammar_text(max_size: int = 24) -> st.SearchStrategy[str]:
    """Arbitrary text: mostly the grammar's delimiters and pieces, some anything at all."""
    piece = st.one_of(
        st.sampled_from(_PIECES),
        st.sampled_from(_ascii_members(g.UNRESERVED + g.RESERVED) + '% \t"<>\\^`{|}'),
        st.characters(exclude_categories=()),
    )
    return st.lists(piece, max_size=max_size).map("".join)


_IP_PIECES = [
    "0", "1", "a", "ff", "FFFF", "12345", ":", ":", "::", "::", ".", "1.2.3.4", "255", "256",
    "01", "%25", "%", "%2", "%41", "v", "V", "]", "e", "x", "@", "~",
]  # fmt: skip
_AUTHORITY_PIECES = [
    "a", "@", "@", ":", ":", "1", "80", "%41", "%", "%4", "[", "]", "[::1]", "/", "?", "#", " ",
    "1.2.3.4", "!",
]  # fmt: skip


def authority_text(max_size: int = 16) -> st.SearchStrategy[str]:
    """Near-valid authorities and IP literals: "//" or "s://" (and "[") then grammar pieces."""
    ip = st.lists(st.sampled_from(_IP_PIECES), max_size=max_size).map(lambda p: "[" + "".join(p))
    other = st.lists(st.sampled_from(_AUTHORITY_PIECES), max_size=max_size).map("".join)
    return st.builds(lambda a, b, c: a + b + c, st.sampled_from(["//", "s://"]), ip | other, other)


_KNOWN_SCHEMES = st.sampled_from(["http", "HTTPS", "file", "mailto", "urn", "ftp", "foo", "ws"])


@st.composite
def known_scheme_references(draw: st.DrawFn) -> str:
    """References of every shape, often with a scheme that the registry knows."""
    c = draw(components())
    if c["scheme"] is not None and draw(st.booleans()):
        c["scheme"] = draw(_KNOWN_SCHEMES)
    return recompose(c)
