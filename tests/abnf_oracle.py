"""An independent oracle: RFC 3986 Appendix A (with RFC 6874 and RFC 3987 §2.2)
transcribed rule by rule into a tiny ABNF combinator language, run as an NFA.

It shares no code with ``urikit.grammar``: it is the literal transcription the
fast regular expressions are checked against.  Besides "does the text match
the rule", the NFA answers "is the text a prefix of some string that matches"
(the set of live states is not empty; every state of the construction lies on
a path to acceptance), which defines the error position of RFC 3986 input:
the length of the longest viable prefix.  :func:`error_position` refines it as
urikit documents (``urikit.diagnose``): when the text's authority holds no "@", no
userinfo reading exists, and the prefix is the one viable without a userinfo.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

Pred = Callable[[str], bool]


@dataclass(frozen=True)
class Node:
    kind: str  # "char", "seq", "alt", "rep"
    parts: tuple[Node, ...] = ()
    pred: Pred | None = None
    lo: int = 0
    hi: int | None = None


def chars(allowed: str | Callable[[str], bool]) -> Node:
    if isinstance(allowed, str):
        members = frozenset(allowed)
        return Node("char", pred=members.__contains__)
    return Node("char", pred=allowed)


def seq(*parts: Node) -> Node:
    return Node("seq", parts)


def alt(*parts: Node) -> Node:
    return Node("alt", parts)


def rep(part: Node, lo: int = 0, hi: int | None = None) -> Node:
    return Node("rep", (part,), lo=lo, hi=hi)


def opt(part: Node) -> Node:
    return rep(part, 0, 1)


def lit(text: str) -> Node:
    """An ABNF quoted string: case-insensitive (RFC 5234 §2.3)."""
    return seq(*(chars(c.lower() + c.upper()) for c in text))


EMPTY = seq()

# RFC 5234 Appendix B.1 core rules
ALPHA = string.ascii_letters
DIGIT = string.digits
HEXDIG = string.digits + "ABCDEFabcdef"

# RFC 3987 §2.2
UCSCHAR_RANGES = [(0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF)] + [
    ((p << 16), (p << 16) | 0xFFFD) for p in range(1, 14)
]
UCSCHAR_RANGES.append((0xE1000, 0xEFFFD))
IPRIVATE_RANGES = [(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]


def in_ranges(ranges: list[tuple[int, int]]) -> Pred:
    def pred(c: str) -> bool:
        o = ord(c)
        return any(lo <= o <= hi for lo, hi in ranges)

    return pred


def grammar(iri: bool = False, userinfo: bool = True) -> dict[str, Node]:
    """The rules of RFC 3986 Appendix A (or RFC 3987 §2.2 when ``iri``), by name; with
    ``userinfo=False`` an authority is ``host [ ":" port ]``."""
    ucs = in_ranges(UCSCHAR_RANGES)
    priv = in_ranges(IPRIVATE_RANGES)
    unreserved_ascii = ALPHA + DIGIT + "-._~"
    sub_delims = "!$&'()*+,;="
    r: dict[str, Node] = {}
    if iri:
        r["unreserved"] = chars(lambda c: c in unreserved_ascii or ucs(c))
    else:
        r["unreserved"] = chars(unreserved_ascii)
    unreserved = r["unreserved"]
    # IP literals stay ASCII in IRIs (RFC 3987 §2.2 reuses IP-literal unchanged)
    ascii_unreserved = chars(unreserved_ascii)
    r["sub-delims"] = chars(sub_delims)
    r["gen-delims"] = chars(":/?#[]@")
    r["reserved"] = alt(r["gen-delims"], r["sub-delims"])
    hexdig = chars(HEXDIG)
    digit = chars(DIGIT)
    r["pct-encoded"] = pct = seq(chars("%"), hexdig, hexdig)
    sub = r["sub-delims"]
    r["pchar"] = pchar = alt(unreserved, pct, sub, chars(":@"))
    r["segment"] = segment = rep(pchar)
    r["segment-nz"] = segment_nz = rep(pchar, 1)
    r["segment-nz-nc"] = segment_nz_nc = rep(alt(unreserved, pct, sub, chars("@")), 1)
    slash_segments = rep(seq(chars("/"), segment))
    r["path-abempty"] = abempty = slash_segments
    r["path-absolute"] = absolute = seq(chars("/"), opt(seq(segment_nz, slash_segments)))
    r["path-noscheme"] = noscheme = seq(segment_nz_nc, slash_segments)
    r["path-rootless"] = rootless = seq(segment_nz, slash_segments)
    r["path-empty"] = EMPTY
    r["path"] = alt(abempty, absolute, noscheme, rootless, EMPTY)
    query_char = alt(pchar, chars("/?"), chars(priv)) if iri else alt(pchar, chars("/?"))
    r["query"] = query = rep(query_char)
    r["fragment"] = fragment = rep(alt(pchar, chars("/?")))
    r["reg-name"] = reg_name = rep(alt(unreserved, pct, sub))
    r["dec-octet"] = dec_octet = alt(
        digit,
        seq(chars("123456789"), digit),
        seq(chars("1"), digit, digit),
        seq(chars("2"), chars("01234"), digit),
        seq(lit("25"), chars("012345")),
    )
    dot = chars(".")
    r["IPv4address"] = ipv4 = seq(dec_octet, dot, dec_octet, dot, dec_octet, dot, dec_octet)
    r["h16"] = h16 = rep(hexdig, 1, 4)
    colon = chars(":")
    r["ls32"] = ls32 = alt(seq(h16, colon, h16), ipv4)
    h16c = seq(h16, colon)
    dcolon = lit("::")

    def before(n: int) -> Node:  # [ *n( h16 ":" ) h16 ]
        return opt(seq(rep(h16c, 0, n), h16))

    r["IPv6address"] = ipv6 = alt(
        seq(rep(h16c, 6, 6), ls32),
        seq(dcolon, rep(h16c, 5, 5), ls32),
        seq(opt(h16), dcolon, rep(h16c, 4, 4), ls32),
        seq(before(1), dcolon, rep(h16c, 3, 3), ls32),
        seq(before(2), dcolon, rep(h16c, 2, 2), ls32),
        seq(before(3), dcolon, h16c, ls32),
        seq(before(4), dcolon, ls32),
        seq(before(5), dcolon, h16),
        seq(before(6), dcolon),
    )
    # RFC 6874 §2
    r["ZoneID"] = zone = rep(alt(ascii_unreserved, pct), 1)
    r["IPv6addrz"] = ipv6z = seq(ipv6, lit("%25"), zone)
    r["IPvFuture"] = future = seq(
        lit("v"), rep(hexdig, 1), dot, rep(alt(ascii_unreserved, sub, colon), 1)
    )
    r["IP-literal"] = ip_literal = seq(chars("["), alt(ipv6, ipv6z, future), chars("]"))
    r["host"] = host = alt(ip_literal, ipv4, reg_name)
    r["port"] = port = rep(digit)
    r["userinfo"] = rep(alt(unreserved, pct, sub, colon))
    at = opt(seq(r["userinfo"], chars("@"))) if userinfo else EMPTY
    r["authority"] = authority = seq(at, host, opt(seq(colon, port)))
    scheme = seq(chars(ALPHA), rep(chars(ALPHA + DIGIT + "+-.")))
    r["scheme"] = scheme
    net = seq(lit("//"), authority, abempty)
    r["hier-part"] = hier = alt(net, absolute, rootless, EMPTY)
    r["relative-part"] = rel = alt(net, absolute, noscheme, EMPTY)
    q = opt(seq(chars("?"), query))
    f = opt(seq(chars("#"), fragment))
    r["URI"] = uri = seq(scheme, colon, hier, q, f)
    r["absolute-URI"] = seq(scheme, colon, hier, q)
    r["relative-ref"] = relative = seq(rel, q, f)
    r["URI-reference"] = alt(uri, relative)
    if iri:
        widened = [
            "hier-part", "relative-part", "relative-ref", "authority", "userinfo", "host",
            "reg-name", "path", "path-abempty", "path-absolute", "path-noscheme",
            "path-rootless", "path-empty", "segment", "segment-nz", "segment-nz-nc", "pchar",
            "query", "fragment", "unreserved",
        ]  # fmt: skip
        renames = {name: "i" + name for name in widened}
        renames.update({"URI": "IRI", "absolute-URI": "absolute-IRI"})
        renames["URI-reference"] = "IRI-reference"
        r = {renames.get(name, name): node for name, node in r.items()}
    return r


class NFA:
    """Thompson's construction over :class:`Node`; every state can reach the end."""

    def __init__(self, node: Node) -> None:
        self.eps: list[list[int]] = []
        self.edges: list[list[tuple[Pred, int]]] = []
        self.start = self._state()
        self.end = self._state()
        self._build(node, self.start, self.end)
        self._closures: dict[int, frozenset[int]] = {}

    def _state(self) -> int:
        self.eps.append([])
        self.edges.append([])
        return len(self.eps) - 1

    def _build(self, node: Node, a: int, b: int) -> None:
        if node.kind == "char":
            assert node.pred is not None
            self.edges[a].append((node.pred, b))
        elif node.kind == "seq":
            cur = a
            for part in node.parts:
                nxt = self._state()
                self._build(part, cur, nxt)
                cur = nxt
            self.eps[cur].append(b)
        elif node.kind == "alt":
            for part in node.parts:
                self._build(part, a, b)
        else:
            (part,) = node.parts
            cur = a
            for _ in range(node.lo):
                nxt = self._state()
                self._build(part, cur, nxt)
                cur = nxt
            if node.hi is None:
                loop = self._state()
                self.eps[cur].append(loop)
                after = self._state()
                self._build(part, loop, after)
                self.eps[after].append(loop)
                self.eps[loop].append(b)
            else:
                for _ in range(node.hi - node.lo):
                    nxt = self._state()
                    self.eps[cur].append(b)
                    self._build(part, cur, nxt)
                    cur = nxt
                self.eps[cur].append(b)

    def closure(self, state: int) -> frozenset[int]:
        done = self._closures.get(state)
        if done is None:
            seen = {state}
            stack = [state]
            while stack:
                for t in self.eps[stack.pop()]:
                    if t not in seen:
                        seen.add(t)
                        stack.append(t)
            done = self._closures[state] = frozenset(seen)
        return done

    def run(self, text: str) -> tuple[int, bool]:
        """(length of the longest viable prefix of ``text``, whether it all matches)."""
        current = set(self.closure(self.start))
        for i, c in enumerate(text):
            nxt: set[int] = set()
            for s in current:
                for pred, t in self.edges[s]:
                    if t not in nxt and pred(c):
                        nxt |= self.closure(t)
            if not nxt:
                return i, False
            current = nxt
        return len(text), self.end in current


@cache
def nfa(rule: str, iri: bool = False, userinfo: bool = True) -> NFA:
    return NFA(grammar(iri, userinfo)[rule])


def authority_without_at(text: str, rule: str) -> bool:
    """Does ``text`` have an authority, as ``rule`` would place it, without "@"?

    The authority is the whole text for (i)authority, else what follows a leading
    "//" or a leading scheme ":" "//"; it ends at the first "/", "?" or "#".
    """
    if rule in ("authority", "iauthority"):
        rest = text
    elif text[:2] == "//":
        rest = text[2:]
    else:
        colon = text.find(":")
        name = text[:colon]
        is_scheme = colon > 0 and name[0] in ALPHA and all(c in ALPHA + DIGIT + "+-." for c in name)
        if not is_scheme or text[colon + 1 : colon + 3] != "//":
            return False
        rest = text[colon + 3 :]
    for c in rest:
        if c in "/?#":
            return True
        if c == "@":
            return False
    return True


def error_position(text: str, rule: str = "URI-reference", iri: bool = False) -> tuple[int, bool]:
    """(where ``text`` fails ``rule`` as urikit reports it, whether it all matches)."""
    return nfa(rule, iri, not authority_without_at(text, rule)).run(text)


def matches(text: str, rule: str = "URI-reference", iri: bool = False) -> bool:
    return nfa(rule, iri).run(text)[1]


def viable_prefix(text: str, rule: str = "URI-reference", iri: bool = False) -> int:
    """The length of the longest prefix of ``text`` that some match of ``rule`` begins with."""
    return nfa(rule, iri).run(text)[0]


URI_RULES = tuple(grammar(False))
IRI_RULES = tuple(grammar(True))
