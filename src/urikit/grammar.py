"""The grammar of URI and IRI references: the single source of truth.

Every character class and rule of RFC 3986 Appendix A (and RFC 6874's zone
identifier) is written here once, next to its ABNF line.  The IRI grammar of
RFC 3987 §2.2 is *built* from the URI grammar by widening two classes
(``unreserved`` gains ``ucschar``; ``query`` gains ``iprivate``), so nothing
is typed twice.

Character classes are the bodies of regular-expression classes (the text
between ``[`` and ``]``).  Rules are small ABNF expressions (:class:`Chars`,
:class:`Seq`, :class:`Alt`, :class:`Rep` and :class:`Ref` to a named rule),
from which two things are derived:

* the regular-expression sources of the fast parse (:attr:`Grammar.sources`).
  Repetitions of "a class or a percent-encoding" are written *unrolled*
  (``[c]*(?:%XX[c]*)*``): a ``%`` is never in the class, so each input has
  exactly one way to match and a failing match backtracks in linear time;
* the automaton that ``urikit.diagnose`` runs to say where and why a string
  fails a rule (an NFA built from the same expressions).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Final, TypeAlias

__all__ = [
    "ALPHA",
    "BIDI_FORMATTING",
    "DIGIT",
    "GEN_DELIMS",
    "HEXDIG",
    "IPRIVATE",
    "IRI_GRAMMAR",
    "IRI_UCSCHAR",
    "PCT_ENCODED",
    "RESERVED",
    "RULES",
    "SCHEME",
    "SUB_DELIMS",
    "UCSCHAR",
    "UNRESERVED",
    "URI_GRAMMAR",
    "URL_PREFIX",
    "Alt",
    "Chars",
    "Grammar",
    "Node",
    "Ref",
    "Rep",
    "Rule",
    "Seq",
    "chars_in",
    "class_ranges",
]

# --- RFC 5234 core rules ------------------------------------------------------

#: ALPHA = %x41-5A / %x61-7A
ALPHA: Final = "A-Za-z"
#: DIGIT = %x30-39
DIGIT: Final = "0-9"
#: HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"  (ABNF strings are case-insensitive)
HEXDIG: Final = "0-9A-Fa-f"

# --- RFC 3986 §2.2, §2.3 --------------------------------------------------------

#: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED: Final = ALPHA + DIGIT + r"\-._~"
#: gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
GEN_DELIMS: Final = r":/?#\[\]@"
#: sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
SUB_DELIMS: Final = r"!$&'()*+,;="
#: reserved = gen-delims / sub-delims
RESERVED: Final = GEN_DELIMS + SUB_DELIMS

# --- class bodies as code-point ranges ---------------------------------------------

Ranges: TypeAlias = tuple[tuple[int, int], ...]


def class_ranges(body: str) -> Ranges:
    """The sorted, merged code-point ranges of a class body such as ``A-Za-z\\-.``.

    The bodies of this module use only single characters, ``x-y`` ranges and
    ``\\``-escaped characters.
    """
    pairs: list[tuple[int, int]] = []
    i, n = 0, len(body)
    while i < n:
        if body[i] == "\\":
            i += 1
        lo = ord(body[i])
        i += 1
        hi = lo
        if i + 1 < n and body[i] == "-":
            i += 1
            if body[i] == "\\":
                i += 1
            hi = ord(body[i])
            i += 1
        pairs.append((lo, hi))
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(pairs):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return tuple(merged)


def chars_in(text: str, chars: str) -> str:
    """The characters of ``chars`` that ``text`` holds, in the order of ``chars``."""
    return "".join(ch for ch in chars if ch in text)


def _class_char(code: int) -> str:
    """One code point as written in a class body."""
    ch = chr(code)
    return "\\" + ch if ch in "\\]^-[" else ch


def _class_body(ranges: Iterable[tuple[int, int]]) -> str:
    """The class body of ``ranges`` (the inverse of :func:`class_ranges`)."""
    return "".join(
        _class_char(lo) if lo == hi else f"{_class_char(lo)}-{_class_char(hi)}" for lo, hi in ranges
    )


def _minus(body: str, removed: str) -> str:
    """The class body of the characters of ``body`` that are not in ``removed``."""
    out: list[tuple[int, int]] = []
    cuts = class_ranges(removed)
    for lo, hi in class_ranges(body):
        for cut_lo, cut_hi in cuts:
            if cut_hi < lo or cut_lo > hi:
                continue
            if cut_lo > lo:
                out.append((lo, cut_lo - 1))
            lo = cut_hi + 1
            if lo > hi:
                break
        if lo <= hi:
            out.append((lo, hi))
    return _class_body(out)


# --- RFC 3987 §2.2, §4.1 -----------------------------------------------------------

#: ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ... / %xE1000-EFFFD
UCSCHAR: Final = (
    "\xa0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    + "".join(f"{chr(plane << 16)}-{chr((plane << 16) | 0xFFFD)}" for plane in range(1, 14))
    + "\U000e1000-\U000efffd"
)
#: iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
IPRIVATE: Final = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"

#: The bidirectional formatting characters (Unicode Bidi_Control).  They are inside
#: ucschar, but RFC 3987 §4.1 says IRIs MUST NOT contain LRM U+200E, RLM U+200F,
#: LRE U+202A, RLE U+202B, PDF U+202C, LRO U+202D, RLO U+202E; ALM U+061C and the
#: isolates U+2066-U+2069, added to Unicode later, act the same way.
BIDI_FORMATTING: Final = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

#: The ucschar an IRI may hold: ucschar without BIDI_FORMATTING (RFC 3987 §2.2, §4.1).
#: It is the class ``iunreserved`` gains, so every IRI rule refuses those characters.
IRI_UCSCHAR: Final = _minus(UCSCHAR, BIDI_FORMATTING)


# --- the expressions -----------------------------------------------------------------


class _Expression:
    """An expression: immutable, equal to another of the same kind with equal fields."""

    __slots__ = ()

    def _fields(self) -> tuple[object, ...]:
        raise NotImplementedError  # pragma: no cover

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Expression)
            and type(other) is type(self)
            and other._fields() == self._fields()
        )

    def __hash__(self) -> int:
        return hash((type(self), self._fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._fields()!r}"


class Chars(_Expression):
    """One character of the class ``body``; ``name`` is how an error message calls it."""

    __slots__ = ("body", "name")

    def __init__(self, body: str, name: str) -> None:
        self.body = body
        self.name = name

    def _fields(self) -> tuple[object, ...]:
        return (self.body, self.name)


class Seq(_Expression):
    """A concatenation (RFC 5234 §3.1); ``Seq(())`` matches the empty string."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Node, ...]) -> None:
        self.items = items

    def _fields(self) -> tuple[object, ...]:
        return self.items


class Alt(_Expression):
    """Alternatives ``a / b`` (RFC 5234 §3.2)."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Node, ...]) -> None:
        self.items = items

    def _fields(self) -> tuple[object, ...]:
        return self.items


class Rep(_Expression):
    """``lo*hi item`` (RFC 5234 §3.6); ``hi`` is ``None`` when unbounded."""

    __slots__ = ("hi", "item", "lo")

    def __init__(self, item: Node, lo: int = 0, hi: int | None = None) -> None:
        self.item = item
        self.lo = lo
        self.hi = hi

    def _fields(self) -> tuple[object, ...]:
        return (self.item, self.lo, self.hi)


class Ref(_Expression):
    """The named rule ``name`` of the same grammar."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _fields(self) -> tuple[object, ...]:
        return (self.name,)


Node: TypeAlias = "Chars | Seq | Alt | Rep | Ref"


class Rule:
    """A named rule: its expression and the section that defines it."""

    __slots__ = ("node", "section")

    def __init__(self, node: Node, section: str) -> None:
        self.node = node
        self.section = section


def lit(text: str) -> Node:
    """An ABNF quoted string: case-insensitive (RFC 5234 §2.3)."""
    # Each character is named by the rest of the string from it: after "%" of
    # "%25", an error message expects "25".
    items = tuple(
        Chars(_class_char(ord(c.upper())) + _class_char(ord(c.lower())), f'"{text[i:]}"')
        if c.upper() != c.lower()
        else Chars(_class_char(ord(c)), f'"{text[i:]}"')
        for i, c in enumerate(text)
    )
    return items[0] if len(items) == 1 else Seq(items)


def _range(body: str, abnf: str) -> Chars:
    """A numeric range such as ``%x31-39`` (RFC 5234 §2.3)."""
    return Chars(body, abnf)


def seq(*items: Node) -> Seq:
    return Seq(items)


def alt(*items: Node) -> Alt:
    return Alt(items)


def opt(item: Node) -> Rep:
    """``[ item ]`` (RFC 5234 §3.8)."""
    return Rep(item, 0, 1)


def _rules(extra_unreserved: str, extra_query: str) -> dict[str, Rule]:
    """The rules of RFC 3986 Appendix A (with RFC 6874), or of RFC 3987 §2.2.

    With ``extra_unreserved`` (and ``extra_query``) the rules are the IRI rules:
    the same expressions, named with an ``i``, over the widened classes.
    """
    iri = bool(extra_unreserved)
    p = "i" if iri else ""
    word = "IRI" if iri else "URI"
    a3986, a3987 = "RFC 3986", "RFC 3987 §2.2"
    r: dict[str, Rule] = {}

    def rule(name: str, section: str, node: Node) -> Ref:
        if iri and (name[:1] == "i" or "IRI" in name) and not section.startswith(a3987):
            section = f"{a3987}, after {section}"  # an IRI rule made from a URI rule
        r[name] = Rule(node, section)
        return Ref(name)

    # RFC 5234 Appendix B.1
    alpha = rule("ALPHA", "RFC 5234 Appendix B.1", Chars(ALPHA, "ALPHA"))
    digit = rule("DIGIT", "RFC 5234 Appendix B.1", Chars(DIGIT, "DIGIT"))
    hexdig = rule("HEXDIG", "RFC 5234 Appendix B.1", Chars(HEXDIG, "HEXDIG"))
    # pct-encoded = "%" HEXDIG HEXDIG
    pct = rule("pct-encoded", f"{a3986} §2.1", seq(lit("%"), hexdig, hexdig))
    # gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
    gen = rule("gen-delims", f"{a3986} §2.2", alt(*map(lit, ":/?#[]@")))
    # sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
    sub = rule("sub-delims", f"{a3986} §2.2", alt(*map(lit, "!$&'()*+,;=")))
    # reserved = gen-delims / sub-delims
    rule("reserved", f"{a3986} §2.2", alt(gen, sub))
    # unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
    ascii_unreserved = rule("unreserved", f"{a3986} §2.3", alt(alpha, digit, *map(lit, "-._~")))
    unreserved = ascii_unreserved
    query_extra: tuple[Node, ...] = ()
    if iri:
        # ucschar = %xA0-D7FF / ... ; iprivate = %xE000-F8FF / ...
        rule("ucschar", a3987, Chars(UCSCHAR, "ucschar"))
        iprivate = rule("iprivate", a3987, Chars(extra_query, "iprivate"))
        query_extra = (iprivate,)
        # iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
        # (ucschar without the bidi formatting characters: RFC 3987 §4.1)
        ucschar = Chars(extra_unreserved, "ucschar")
        unreserved = rule("iunreserved", f"{a3987}, §4.1", alt(ascii_unreserved, ucschar))

    # scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    rule("scheme", f"{a3986} §3.1", seq(alpha, Rep(alt(alpha, digit, *map(lit, "+-.")))))
    # userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    rule(p + "userinfo", f"{a3986} §3.2.1", Rep(alt(unreserved, pct, sub, lit(":"))))
    # dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
    dec_octet = rule(
        "dec-octet",
        f"{a3986} §3.2.2",
        alt(
            digit,
            seq(_range("1-9", "%x31-39"), digit),
            seq(lit("1"), Rep(digit, 2, 2)),
            seq(lit("2"), _range("0-4", "%x30-34"), digit),
            seq(lit("25"), _range("0-5", "%x30-35")),
        ),
    )
    # IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
    dot = lit(".")
    ipv4 = rule(
        "IPv4address",
        f"{a3986} §3.2.2",
        seq(dec_octet, dot, dec_octet, dot, dec_octet, dot, dec_octet),
    )
    # h16 = 1*4HEXDIG
    h16 = rule("h16", f"{a3986} §3.2.2", Rep(hexdig, 1, 4))
    colon = lit(":")
    # ls32 = ( h16 ":" h16 ) / IPv4address
    ls32 = rule("ls32", f"{a3986} §3.2.2", alt(seq(h16, colon, h16), ipv4))
    h16c = seq(h16, colon)

    def before(n: int) -> Node:
        """``[ *n( h16 ":" ) h16 ]``"""
        return opt(seq(Rep(h16c, 0, n), h16) if n else h16)

    dcolon = lit("::")
    # IPv6address, the nine forms
    ipv6 = rule(
        "IPv6address",
        f"{a3986} §3.2.2",
        alt(
            seq(Rep(h16c, 6, 6), ls32),  # 6( h16 ":" ) ls32
            seq(dcolon, Rep(h16c, 5, 5), ls32),  # "::" 5( h16 ":" ) ls32
            seq(before(0), dcolon, Rep(h16c, 4, 4), ls32),  # [ h16 ] "::" 4( h16 ":" ) ls32
            seq(before(1), dcolon, Rep(h16c, 3, 3), ls32),
            seq(before(2), dcolon, Rep(h16c, 2, 2), ls32),
            seq(before(3), dcolon, h16c, ls32),
            seq(before(4), dcolon, ls32),
            seq(before(5), dcolon, h16),
            seq(before(6), dcolon),
        ),
    )
    # ZoneID = 1*( unreserved / pct-encoded )   (RFC 6874 §2: ASCII in IRIs too)
    zone = rule("ZoneID", "RFC 6874 §2", Rep(alt(ascii_unreserved, pct), 1))
    # IPv6addrz = IPv6address "%25" ZoneID
    ipv6z = rule("IPv6addrz", "RFC 6874 §2", seq(ipv6, lit("%25"), zone))
    # IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    future = rule(
        "IPvFuture",
        f"{a3986} §3.2.2",
        seq(lit("v"), Rep(hexdig, 1), dot, Rep(alt(ascii_unreserved, sub, colon), 1)),
    )
    # IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"   (RFC 6874 §2)
    rule("IP-literal", f"{a3986} §3.2.2", seq(lit("["), alt(ipv6, ipv6z, future), lit("]")))
    # reg-name = *( unreserved / pct-encoded / sub-delims )
    rule(p + "reg-name", f"{a3986} §3.2.2", Rep(alt(unreserved, pct, sub)))
    # host = IP-literal / IPv4address / reg-name
    rule(p + "host", f"{a3986} §3.2.2", alt(Ref("IP-literal"), ipv4, Ref(p + "reg-name")))
    # port = *DIGIT
    rule("port", f"{a3986} §3.2.3", Rep(digit))
    # authority = [ userinfo "@" ] host [ ":" port ]
    authority = rule(
        p + "authority",
        f"{a3986} §3.2",
        seq(
            opt(seq(Ref(p + "userinfo"), lit("@"))),
            Ref(p + "host"),
            opt(seq(colon, Ref("port"))),
        ),
    )

    # pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
    pchar = rule(p + "pchar", f"{a3986} §3.3", alt(unreserved, pct, sub, colon, lit("@")))
    # segment = *pchar ; segment-nz = 1*pchar
    segment = rule(p + "segment", f"{a3986} §3.3", Rep(pchar))
    segment_nz = rule(p + "segment-nz", f"{a3986} §3.3", Rep(pchar, 1))
    # segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
    nc = rule(p + "segment-nz-nc", f"{a3986} §3.3", Rep(alt(unreserved, pct, sub, lit("@")), 1))
    slash_segments = Rep(seq(lit("/"), segment))
    # path-abempty = *( "/" segment )
    abempty = rule(p + "path-abempty", f"{a3986} §3.3", slash_segments)
    # path-absolute = "/" [ segment-nz *( "/" segment ) ]
    absolute = rule(
        p + "path-absolute", f"{a3986} §3.3", seq(lit("/"), opt(seq(segment_nz, slash_segments)))
    )
    # path-noscheme = segment-nz-nc *( "/" segment )
    noscheme = rule(p + "path-noscheme", f"{a3986} §3.3", seq(nc, slash_segments))
    # path-rootless = segment-nz *( "/" segment )
    rootless = rule(p + "path-rootless", f"{a3986} §3.3", seq(segment_nz, slash_segments))
    # path-empty = 0<pchar>
    empty = rule(p + "path-empty", f"{a3986} §3.3", Seq(()))
    # path = path-abempty / path-absolute / path-noscheme / path-rootless / path-empty
    rule(p + "path", f"{a3986} §3.3", alt(abempty, absolute, noscheme, rootless, empty))
    # query = *( pchar / "/" / "?" )          iquery = *( ipchar / iprivate / "/" / "?" )
    query = rule(p + "query", f"{a3986} §3.4", Rep(alt(pchar, *query_extra, lit("/"), lit("?"))))
    # fragment = *( pchar / "/" / "?" )
    fragment = rule(p + "fragment", f"{a3986} §3.5", Rep(alt(pchar, lit("/"), lit("?"))))

    net = seq(lit("//"), authority, abempty)
    # hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
    hier = rule(p + "hier-part", f"{a3986} §3", alt(net, absolute, rootless, empty))
    # relative-part = "//" authority path-abempty / path-absolute / path-noscheme / path-empty
    rel = rule(p + "relative-part", f"{a3986} §4.2", alt(net, absolute, noscheme, empty))
    scheme = Ref("scheme")
    q = opt(seq(lit("?"), query))
    f = opt(seq(lit("#"), fragment))
    # URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
    uri = rule(word, f"{a3986} §3", seq(scheme, colon, hier, q, f))
    # absolute-URI = scheme ":" hier-part [ "?" query ]
    rule(f"absolute-{word}", f"{a3986} §4.3", seq(scheme, colon, hier, q))
    # relative-ref = relative-part [ "?" query ] [ "#" fragment ]
    relative = rule(p + "relative-ref", f"{a3986} §4.2", seq(rel, q, f))
    # URI-reference = URI / relative-ref
    rule(f"{word}-reference", f"{a3986} §4.1", alt(uri, relative))
    return r


# --- regular expressions from the expressions ------------------------------------------

_SPECIAL: Final = frozenset(".^$*+?{}[]\\|()")


class _Regex:
    """Writes the regular-expression source of an expression of one grammar.

    Three identities of regular expressions keep the result linear and fast:
    alternatives that are single characters become one class; ``*( [c] / R )``
    is unrolled to ``[c]*(?:R[c]*)*`` (R, a pct-encoded, never begins with a
    character of the class); and ``*( "/" *X )`` is written ``[ "/" *( "/" / X ) ]``.
    """

    def __init__(self, rules: Mapping[str, Rule]) -> None:
        self.rules = rules
        self._rendered: dict[Node, tuple[str, bool]] = {}

    def deref(self, node: Node) -> Node:
        while isinstance(node, Ref):
            node = self.rules[node.name].node
        return node

    def split(self, node: Node) -> tuple[str, list[Node]]:
        """The alternatives of ``node``: one class body, and the rest."""
        node = self.deref(node)
        if isinstance(node, Chars):
            return node.body, []
        if isinstance(node, Alt):
            body, rest = "", []
            for item in node.items:
                b, r = self.split(item)
                body += b
                rest += r
            return body, rest
        return "", [node]

    def source(self, node: Node) -> str:
        return self.render(node)[0]

    def render(self, node: Node) -> tuple[str, bool]:
        """The source of ``node`` and whether it is one atom (may take a quantifier)."""
        done = self._rendered.get(node)
        if done is None:
            done = self._rendered[node] = self._render(self.deref(node))
        return done

    def _render(self, node: Node) -> tuple[str, bool]:
        if isinstance(node, Chars):
            return _char_source(node.body), True
        if isinstance(node, Seq):
            return self.seq(node.items)
        if isinstance(node, Alt):
            body, rest = self.split(node)
            parts = ([_char_source(body)] if body else []) + [self.source(r) for r in rest]
            if len(parts) == 1:
                return self.render(rest[0]) if rest else (parts[0], True)
            return f"(?:{'|'.join(parts)})", True
        if isinstance(node, Rep):
            return self.rep(node), False
        raise TypeError(node)  # pragma: no cover

    def seq(self, items: tuple[Node, ...]) -> tuple[str, bool]:
        rendered = [self.render(item) for item in items]
        out: list[str] = []
        i = 0
        while i < len(rendered):
            j = i
            while j < len(rendered) and rendered[j] == rendered[i]:
                j += 1
            text, atom = rendered[i]
            if j - i > 1 and atom and text.startswith("["):
                out.append(f"{text}{{{j - i}}}")
            else:
                out.extend([text] * (j - i))
            i = j
        atom = len(rendered) == 1 and rendered[0][1]
        return "".join(out), atom

    def rep(self, node: Rep) -> str:
        item = self.deref(node.item)
        if node.hi is None:
            # *( "/" *X ) = [ "/" *( "/" / X ) ]
            if node.lo == 0 and isinstance(item, Seq) and len(item.items) == 2:
                head, tail = item.items[0], self.deref(item.items[1])
                if (
                    isinstance(self.deref(head), Chars)
                    and isinstance(tail, Rep)
                    and tail == Rep(tail.item)
                ):
                    inner = self.rep(Rep(alt(tail.item, head)))
                    return f"(?:{self.source(head)}{inner})?"
            body, rest = self.split(item)
            if body and rest:
                cls = _char_source(body)
                other = self.source(alt(*rest)) if len(rest) > 1 else self.render(rest[0])[0]
                loop = f"{cls}*(?:{other}{cls}*)*"
                if node.lo == 0:
                    return loop
                if node.lo == 1:
                    return f"(?:{cls}|{other}){loop}"
        text, atom = self.render(item)
        if not atom:
            text = f"(?:{text})"
        return text + _quantifier(node.lo, node.hi)


def _char_source(body: str) -> str:
    """``[body]``, or the character itself when the class holds one (``x`` or ``\\x``)."""
    if len(body) == 1 or (len(body) == 2 and body[0] == "\\"):
        ch = body[-1]
        return "\\" + ch if ch in _SPECIAL else ch
    return f"[{body}]"


def _quantifier(lo: int, hi: int | None) -> str:
    if hi is None:
        return {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
    if (lo, hi) == (0, 1):
        return "?"
    return f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}"


class Grammar:
    """The rules of one grammar: RFC 3986 (URI) or RFC 3987 (IRI).

    The IRI grammar differs only in two classes, passed in as ``extra_unreserved``
    (``ucschar`` without the bidi formatting characters, RFC 3987 §2.2
    ``iunreserved`` and §4.1) and ``extra_query`` (``iprivate``, allowed only in
    ``iquery``).  :attr:`definitions` holds the rules as expressions,
    :attr:`sources` as regular-expression sources derived from them.
    """

    def __init__(self, name: str, extra_unreserved: str = "", extra_query: str = "") -> None:
        self.name = name
        self.iri = bool(extra_unreserved)
        p = "i" if self.iri else ""
        self.prefix = p
        #: (i)unreserved
        self.unreserved = UNRESERVED + extra_unreserved
        #: (i)userinfo class = (i)unreserved / sub-delims / ":"   (plus pct-encoded)
        self.userinfo_chars = self.unreserved + SUB_DELIMS + ":"
        #: (i)reg-name class = (i)unreserved / sub-delims          (plus pct-encoded)
        self.reg_name_chars = self.unreserved + SUB_DELIMS
        #: (i)pchar = (i)unreserved / pct-encoded / sub-delims / ":" / "@"
        self.pchar = self.unreserved + SUB_DELIMS + ":@"
        #: (i)segment-nz-nc class: pchar without ":"
        self.pchar_nc = self.unreserved + SUB_DELIMS + "@"
        #: characters of a path: pchar / "/"
        self.path_chars = self.pchar + "/"
        #: (i)query = *( (i)pchar / iprivate / "/" / "?" )
        self.query_chars = self.pchar + extra_query + "/?"
        #: (i)fragment = *( (i)pchar / "/" / "?" )
        self.fragment_chars = self.pchar + "/?"

        #: Every rule of this grammar by name, as an expression (with its section).
        self.definitions: Mapping[str, Rule] = _rules(extra_unreserved, extra_query)
        self._regex = _Regex(self.definitions)
        self._compiled: dict[str, re.Pattern[str]] = {}

    @cached_property
    def sources(self) -> dict[str, str]:
        """Every rule's regular-expression source, by name; written on first use."""
        p = self.prefix
        regex = self._regex
        names = self.rule_names
        sources = {
            name: regex.source(rule.node)
            for name, rule in self.definitions.items()
            if name in names
        }
        # path = path-abempty / path-absolute / path-noscheme / path-rootless / path-empty
        # has the language of *( pchar / "/" ) (§3.3), which is the faster pattern.
        path_any = regex.source(self.path_node)
        sources[p + "path"] = path_any
        sources[("IRI" if self.iri else "URI") + "-reference"] = self._reference(regex, path_any)
        return sources

    def source(self, name: str) -> str:
        """The source of the rule ``name`` as :attr:`sources` has it, written alone.

        For a rule that :attr:`sources` takes as it is written from its
        definition (not ``path`` or the reference), without writing the others.
        """
        if "sources" in self.__dict__:
            return self.sources[name]
        return self._regex.source(self.definitions[name].node)

    @property
    def path_node(self) -> Node:
        """``*( pchar / "/" )``: the language of the rule path (RFC 3986 §3.3)."""
        return Rep(alt(Ref(self.prefix + "pchar"), lit("/")))

    def _reference(self, regex: _Regex, path_any: str) -> str:
        """The reference pattern, assembled from the rules' sources (RFC 3986 §4.1).

        Groups: 1 scheme, 2 authority, 3 userinfo, 4 host, 5 port, 6 path,
        7 query, 8 fragment.  Paths follow RFC 3986 §4.1: after an authority
        path-abempty; else after a scheme path-absolute/rootless/empty; else
        path-absolute/noscheme/empty.  Two look-aheads make it faster, not
        different: ``(?!//)`` leaves ``//`` to the authority (a path-absolute is
        ``"/"`` and then no ``"/"``), and a userinfo is tried only before an ``"@"``.
        """
        p = self.prefix
        # IPv4address is in reg-name too: the parse tells them apart (§3.2.2).
        host = regex.source(alt(Ref("IP-literal"), Ref(p + "reg-name")))
        userinfo_at = f"(?:(?=[^/?#@]*@)({self.source(p + 'userinfo')})@)?"
        abempty = self.source(p + "path-abempty")
        # path-absolute / path-rootless / path-empty
        after_scheme = f"(?!//){path_any}"
        # path-absolute / path-noscheme / path-empty
        noscheme = f"(?!//)(?:/{path_any}|{self.source(p + 'segment-nz-nc')}(?:/{path_any})?)?"
        query, fragment = self.source(p + "query"), self.source(p + "fragment")
        return (
            rf"(?:({self.source('scheme')}):)?"
            rf"(?://({userinfo_at}({host})(?::({self.source('port')}))?))?"
            rf"((?(2){abempty}|(?(1){after_scheme}|{noscheme})))"
            rf"(?:\?({query}))?(?:#({fragment}))?"
        )

    @cached_property
    def reference(self) -> re.Pattern[str]:
        """The (I)URI-reference pattern with one group per component.

        Groups: 1 scheme, 2 authority, 3 userinfo, 4 host, 5 port, 6 path,
        7 query, 8 fragment.  Compiled on first use (the IRI classes are large).
        """
        return self.rule(f"{'IRI' if self.iri else 'URI'}-reference")

    def rule(self, name: str) -> re.Pattern[str]:
        """The compiled pattern of the ABNF rule ``name`` (use with ``fullmatch``)."""
        pattern = self._compiled.get(name)
        if pattern is None:
            source = self.sources[name]
            pattern = self._compiled[name] = re.compile(source, re.DOTALL)
        return pattern

    @cached_property
    def rule_names(self) -> frozenset[str]:
        """The names of :attr:`sources`: every rule defined, but for the IRI grammar's
        ``unreserved``."""
        names = set(self.definitions)
        if self.iri:
            # RFC 3987 §2.2 names no plain "unreserved": it stays for the zone ID only
            names.discard("unreserved")
        return frozenset(names)

    def __repr__(self) -> str:
        return f"<Grammar {self.name}>"


#: RFC 3986 Appendix A.
URI_GRAMMAR: Final = Grammar("RFC 3986")
#: RFC 3987 §2.2: the URI grammar with ucschar in iunreserved and iprivate in iquery,
#: less the bidi formatting characters (§4.1).
IRI_GRAMMAR: Final = Grammar("RFC 3987", extra_unreserved=IRI_UCSCHAR, extra_query=IPRIVATE)


class _Rules(Mapping[str, Grammar]):
    """Every rule name either grammar knows, mapped to the grammar that defines it.

    The table is made on first use, from the names of the rules (:attr:`Grammar.rule_names`).
    """

    @cached_property
    def _table(self) -> dict[str, Grammar]:
        table: dict[str, Grammar] = {}
        for grammar in (URI_GRAMMAR, IRI_GRAMMAR):
            names = grammar.rule_names
            for name in grammar.definitions:
                if name in names:
                    table.setdefault(name, grammar)
        return table

    def __getitem__(self, name: str) -> Grammar:
        return self._table[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def __repr__(self) -> str:
        return repr(self._table)


#: Every rule name either grammar knows, mapped to the grammar that defines it.
RULES: Final[Mapping[str, Grammar]] = _Rules()

#: pct-encoded = "%" HEXDIG HEXDIG   (RFC 3986 §2.1): the source of one percent triplet.
PCT_ENCODED: Final = URI_GRAMMAR.source("pct-encoded")
#: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )   (RFC 3986 §3.1), as a source.
SCHEME: Final = URI_GRAMMAR.source("scheme")
#: The "URL:" prefix of a URI written in text (RFC 3986 Appendix C), case-insensitive.
URL_PREFIX: Final = _Regex({}).source(lit("URL:"))

if TYPE_CHECKING:
    #: IPv4address alone: first-match-wins tells an IPv4 host from a reg-name (§3.2.2).
    IPV4_ADDRESS: re.Pattern[str]


def __getattr__(name: str) -> object:
    # IPV4_ADDRESS is compiled when first imported, not with the grammar.
    if name == "IPV4_ADDRESS":
        return URI_GRAMMAR.rule("IPv4address")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
