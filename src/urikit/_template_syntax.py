"""The syntax of a URI Template (RFC 6570 §2), as one regular expression and one search.

Only the grammar: whether a text is a URI Template of some level (§1.2), not
what it expands to.  Each rule below stands beside its ABNF line.

Two rewritings keep the match fast and linear.  A "%" must begin a
pct-encoded triple wherever it stands (in ``literals`` and in ``varchar``
alike), so the pattern takes "%" as one more character of both classes and a
search for a "%" not followed by two HEXDIG refuses the rest; runs of literals
and of varchars are then single character classes.  Literals and expressions
begin with distinct characters, and the literal runs are unrolled
(``L*(?:expression L*)*``), so every text has at most one way to match.
"""

from __future__ import annotations

import re
from typing import Final

from .grammar import ALPHA, DIGIT, HEXDIG, IPRIVATE, UCSCHAR

__all__ = ["URI_TEMPLATE", "is_uri_template"]

#: literals = %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F
#:          / %x61-7A / %x7E / ucschar / iprivate / pct-encoded          (§2.1)
#: ("%" stands for the first octet of pct-encoded; see _BAD_PERCENT)
_LITERAL: Final = (
    "[%\\x21\\x23\\x24\\x26\\x28-\\x3b\\x3d\\x3f-\\x5b\\x5d\\x5f\\x61-\\x7a\\x7e"
    + UCSCHAR
    + IPRIVATE
    + "]"
)
#: varchar = ALPHA / DIGIT / "_" / pct-encoded                              (§2.3)
_VARCHAR: Final = f"[{ALPHA}{DIGIT}_%]"
#: varname = varchar *( ["."] varchar ), written as runs of varchar joined by "."
_VARNAME: Final = f"{_VARCHAR}+(?:\\.{_VARCHAR}+)*"
#: modifier-level4 = prefix / explode; prefix = ":" max-length;
#: max-length = %x31-39 0*3DIGIT; explode = "*"                             (§2.4)
_MODIFIER: Final = "(?::[1-9][0-9]{0,3}|\\*)"
#: varspec = varname [ modifier-level4 ]                                    (§2.3)
_VARSPEC: Final = f"{_VARNAME}{_MODIFIER}?"
#: operator = op-level2 / op-level3 / op-reserve; op-level2 = "+" / "#";
#: op-level3 = "." / "/" / ";" / "?" / "&"                                   (§2.2)
#: The op-reserve characters "=", ",", "!", "@" and "|" are "reserved for future
#: extensions" and belong to no level of §1.2, so no template of any level holds them.
_OPERATOR: Final = "[+#./;?&]"
#: expression = "{" [ operator ] variable-list "}";
#: variable-list = varspec *( "," varspec )                                 (§2.2, §2.3)
_EXPRESSION: Final = f"\\{{{_OPERATOR}?{_VARSPEC}(?:,{_VARSPEC})*\\}}"
#: URI-Template = *( literals / expression )                                (§2)
URI_TEMPLATE: Final = re.compile(f"{_LITERAL}*(?:{_EXPRESSION}{_LITERAL}*)*")
#: pct-encoded = "%" HEXDIG HEXDIG (RFC 3986 §2.1): a "%" that begins no triplet.
_BAD_PERCENT: Final = re.compile(f"%(?![{HEXDIG}]{{2}})")


def is_uri_template(text: str) -> bool:
    """Is ``text`` a URI Template of any level (RFC 6570 §1.2, §2)?

    >>> is_uri_template("http://example.com/dictionary/{term:1}/{term}")
    True
    >>> is_uri_template("http://example.com/dictionary/{term:1}/{term")
    False
    """
    if URI_TEMPLATE.fullmatch(text) is None:
        return False
    return "%" not in text or _BAD_PERCENT.search(text) is None
