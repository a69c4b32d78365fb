"""The grammar of URI and IRI references: the single source of truth.

Every character class and rule of RFC 3986 Appendix A (and RFC 6874's zone
identifier) is written here once, next to its ABNF line.  The IRI grammar of
RFC 3987 §2.2 is *built* from the URI grammar by widening two classes
(``unreserved`` gains ``ucschar``; ``query`` gains ``iprivate``), so nothing
is typed twice.

Character classes are the bodies of regular-expression classes (the text
between ``[`` and ``]``).  Rules are regular-expression sources composed from
those classes.  Repetitions of "a class or a percent-encoding" are written
*unrolled* (``[c]*(?:%XX[c]*)*``): a ``%`` is never in the class, so each
input has exactly one way to match and a failing match backtracks in linear
time (no nested quantifier can be ambiguous).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from typing import Final

__all__ = [
    "ALPHA",
    "BIDI_FORMATTING",
    "DIGIT",
    "GEN_DELIMS",
    "HEXDIG",
    "IPRIVATE",
    "IRI_GRAMMAR",
    "RESERVED",
    "RULES",
    "SUB_DELIMS",
    "UCSCHAR",
    "UNRESERVED",
    "URI_GRAMMAR",
    "Grammar",
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

# --- RFC 3987 §2.2 ----------------------------------------------------------------

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

#: pct-encoded = "%" HEXDIG HEXDIG
PCT_ENCODED: Final = f"%[{HEXDIG}]{{2}}"


def _star(cls: str) -> str:
    """``*( [cls] / pct-encoded )``, unrolled so that it cannot backtrack badly."""
    return f"[{cls}]*(?:{PCT_ENCODED}[{cls}]*)*"


def _plus(cls: str) -> str:
    """``1*( [cls] / pct-encoded )``."""
    return f"(?:[{cls}]|{PCT_ENCODED}){_star(cls)}"


# dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
_DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
# IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
_IPV4 = rf"{_DEC_OCTET}\.{_DEC_OCTET}\.{_DEC_OCTET}\.{_DEC_OCTET}"
# h16 = 1*4HEXDIG
_H16 = f"[{HEXDIG}]{{1,4}}"
# ls32 = ( h16 ":" h16 ) / IPv4address
_LS32 = f"(?:{_H16}:{_H16}|{_IPV4})"


def _h16_colon(n: str) -> str:
    return f"(?:{_H16}:){n}"


# IPv6address: RFC 3986 §3.2.2, the nine forms.
_IPV6 = (
    "(?:"
    + "|".join(
        [
            f"{_h16_colon('{6}')}{_LS32}",  # 6( h16 ":" ) ls32
            f"::{_h16_colon('{5}')}{_LS32}",  # "::" 5( h16 ":" ) ls32
            f"(?:{_H16})?::{_h16_colon('{4}')}{_LS32}",  # [ h16 ] "::" 4( h16 ":" ) ls32
            f"(?:{_h16_colon('{0,1}')}{_H16})?::{_h16_colon('{3}')}{_LS32}",
            f"(?:{_h16_colon('{0,2}')}{_H16})?::{_h16_colon('{2}')}{_LS32}",
            f"(?:{_h16_colon('{0,3}')}{_H16})?::{_H16}:{_LS32}",
            f"(?:{_h16_colon('{0,4}')}{_H16})?::{_LS32}",
            f"(?:{_h16_colon('{0,5}')}{_H16})?::{_H16}",
            f"(?:{_h16_colon('{0,6}')}{_H16})?::",
        ]
    )
    + ")"
)
# ZoneID = 1*( unreserved / pct-encoded )        (RFC 6874 §2)
_ZONE_ID = _plus(UNRESERVED)
# IPv6addrz = IPv6address "%25" ZoneID           (RFC 6874 §2)
_IPV6ADDRZ = f"{_IPV6}%25{_ZONE_ID}"
# IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
_IPVFUTURE = rf"[vV][{HEXDIG}]+\.[{UNRESERVED}{SUB_DELIMS}:]+"
# IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"   (RFC 6874 §2)
_IP_LITERAL = rf"\[(?:{_IPV6}(?:%25{_ZONE_ID})?|{_IPVFUTURE})\]"
# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
_SCHEME = rf"[{ALPHA}][{ALPHA}{DIGIT}+\-.]*"
# port = *DIGIT
_PORT = f"[{DIGIT}]*"


class Grammar:
    """The rules of one grammar: RFC 3986 (URI) or RFC 3987 (IRI).

    The IRI grammar differs only in two classes, passed in as ``extra_unreserved``
    (``ucschar``, RFC 3987 §2.2 ``iunreserved``) and ``extra_query`` (``iprivate``,
    allowed only in ``iquery``).
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

        userinfo = _star(self.userinfo_chars)
        # The look-ahead for "@" spares a failing userinfo its backtracking.
        userinfo_at = f"(?:(?=[^/?#@]*@)({userinfo})@)?"
        reg_name = _star(self.reg_name_chars)
        host = f"(?:{_IP_LITERAL}|{reg_name})"
        path_any = _star(self.path_chars)
        # path-abempty = *( "/" segment )
        abempty = f"(?:/{path_any})?"
        # path-absolute / path-rootless / path-empty: anything but a leading "//"
        after_scheme = f"(?!//){path_any}"
        # path-absolute / path-noscheme / path-empty
        noscheme = f"(?!//)(?:/{path_any}|{_plus(self.pchar_nc)}(?:/{path_any})?)?"
        query = _star(self.query_chars)
        fragment = _star(self.fragment_chars)
        authority = f"(?:{userinfo}@)?{host}(?::{_PORT})?"
        hier_part = f"(?://{authority}{abempty}|{after_scheme})"
        relative_part = f"(?://{authority}{abempty}|{noscheme})"
        tail = rf"(?:\?{query})?(?:#{fragment})?"

        # The reference pattern, with groups 1 scheme, 2 authority, 3 userinfo,
        # 4 host, 5 port, 6 path, 7 query, 8 fragment.  Paths follow RFC 3986
        # §4.1: after an authority path-abempty; else after a scheme
        # path-absolute/rootless/empty; else path-absolute/noscheme/empty.
        self._reference_source = (
            rf"(?:({_SCHEME}):)?"
            rf"(?://({userinfo_at}({host})(?::({_PORT}))?))?"
            rf"((?(2){abempty}|(?(1){after_scheme}|{noscheme})))"
            rf"(?:\?({query}))?(?:#({fragment}))?"
        )

        self.sources: dict[str, str] = {
            "ALPHA": f"[{ALPHA}]",
            "DIGIT": f"[{DIGIT}]",
            "HEXDIG": f"[{HEXDIG}]",
            "pct-encoded": PCT_ENCODED,
            "unreserved": f"[{self.unreserved}]",
            "reserved": f"[{RESERVED}]",
            "gen-delims": f"[{GEN_DELIMS}]",
            "sub-delims": f"[{SUB_DELIMS}]",
            "scheme": _SCHEME,
            p + "userinfo": userinfo,
            p + "host": host,
            p + "reg-name": reg_name,
            "port": _PORT,
            p + "authority": authority,
            "IP-literal": _IP_LITERAL,
            "IPv4address": _IPV4,
            "IPv6address": _IPV6,
            "IPv6addrz": _IPV6ADDRZ,
            "ZoneID": _ZONE_ID,
            "IPvFuture": _IPVFUTURE,
            "dec-octet": _DEC_OCTET,
            "h16": _H16,
            "ls32": _LS32,
            p + "path": path_any,
            p + "path-abempty": abempty,
            p + "path-absolute": f"/(?:{_plus(self.pchar)}(?:/{path_any})?)?",
            p + "path-noscheme": f"{_plus(self.pchar_nc)}(?:/{path_any})?",
            p + "path-rootless": f"{_plus(self.pchar)}(?:/{path_any})?",
            p + "path-empty": "",
            p + "segment": _star(self.pchar),
            p + "segment-nz": _plus(self.pchar),
            p + "segment-nz-nc": _plus(self.pchar_nc),
            p + "pchar": f"(?:[{self.pchar}]|{PCT_ENCODED})",
            p + "query": query,
            p + "fragment": fragment,
            p + "hier-part": hier_part,
            p + "relative-part": relative_part,
        }
        word = "IRI" if self.iri else "URI"
        self.sources[word] = rf"{_SCHEME}:{hier_part}{tail}"
        self.sources[f"absolute-{word}"] = rf"{_SCHEME}:{hier_part}(?:\?{query})?"
        self.sources[f"{p}relative-ref"] = rf"{relative_part}{tail}"
        self.sources[f"{word}-reference"] = self._reference_source
        if self.iri:
            self.sources["ucschar"] = f"[{UCSCHAR}]"
            self.sources["iprivate"] = f"[{IPRIVATE}]"
            self.sources["iunreserved"] = self.sources.pop("unreserved")
        self._compiled: dict[str, re.Pattern[str]] = {}

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
        return frozenset(self.sources)

    def __repr__(self) -> str:
        return f"<Grammar {self.name}>"


#: RFC 3986 Appendix A.
URI_GRAMMAR: Final = Grammar("RFC 3986")
#: RFC 3987 §2.2: the URI grammar with ucschar in iunreserved and iprivate in iquery.
IRI_GRAMMAR: Final = Grammar("RFC 3987", extra_unreserved=UCSCHAR, extra_query=IPRIVATE)

#: Every rule name either grammar knows, mapped to the grammar that defines it.
RULES: Final[Mapping[str, Grammar]] = {
    **{name: URI_GRAMMAR for name in URI_GRAMMAR.sources},
    **{name: IRI_GRAMMAR for name in IRI_GRAMMAR.sources if name not in URI_GRAMMAR.sources},
}

#: IPv4address alone: first-match-wins tells an IPv4 host from a reg-name (§3.2.2).
IPV4_ADDRESS: Final = URI_GRAMMAR.rule("IPv4address")
