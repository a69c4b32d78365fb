"""The syntax of a URI Template (RFC 6570 §2) and the operator table of Appendix A.

A template is read once into its parts: :class:`Literal` runs and
:class:`Expression` objects, each expression an :class:`Operator` and a list of
:class:`VarSpec`.  Every rule of §2 is named as the RFC names it, and a
template outside the grammar raises :class:`TemplateError` at the first
character that cannot belong to it, with the rule that fails there.

The literals follow RFC 6570 erratum 6937 (verified): the apostrophe is a
literal (``%x26-3B``).  The published ABNF left it out, though it is a
reserved character of RFC 3986 §2.2, which §3.1 copies as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..errors import URIError, describe_char
from ..grammar import IPRIVATE, UCSCHAR

__all__ = [
    "OPERATORS",
    "Expression",
    "Literal",
    "Operator",
    "TemplateError",
    "VarSpec",
    "parse",
]


class TemplateError(URIError):
    """A template outside the grammar of RFC 6570 §2, or an expansion or a match the
    RFC refuses.

    As :class:`urikit.URIError` (a ``ValueError``): ``position`` is the index in
    ``text`` (the template) of the first character that cannot belong to it,
    ``rule`` the rule of §2 that fails there, and the message draws a caret.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.reason, self.text, self.position, self.rule))


def _rebuild(
    reason: str, text: str | None, position: int | None, rule: str | None
) -> TemplateError:
    return TemplateError(reason, text=text, position=position, rule=rule)


# --- Appendix A: the operator table -------------------------------------------------


@dataclass(frozen=True)
class Operator:
    """One column of the table of RFC 6570 Appendix A.

    ``first`` is appended before the first defined variable, ``sep`` between the
    expansions of defined variables, ``named`` says whether the expansion holds
    ``name=``, ``ifemp`` is appended to the name of an empty value, and
    ``allow_reserved`` is the allowed set: ``U+R`` when true (reserved characters
    and pct-encoded triplets pass), ``U`` (unreserved only) when false.
    """

    char: str
    first: str
    sep: str
    named: bool
    ifemp: str
    allow_reserved: bool

    @property
    def level(self) -> int:
        """The lowest level that has the operator (RFC 6570 §1.2)."""
        return 1 if not self.char else 2 if self.char in "+#" else 3


#: The operators of RFC 6570 §2.2, keyed by their character ("" is NUL, simple
#: string expansion), with the behaviour of the table of Appendix A.
OPERATORS: Final[dict[str, Operator]] = {
    op.char: op
    for op in (
        #        char first sep  named  ifemp  allow U+R
        Operator("", "", ",", False, "", False),
        Operator("+", "", ",", False, "", True),
        Operator(".", ".", ".", False, "", False),
        Operator("/", "/", "/", False, "", False),
        Operator(";", ";", ";", True, "", False),
        Operator("?", "?", "&", True, "=", False),
        Operator("&", "&", "&", True, "=", False),
        Operator("#", "#", ",", False, "", True),
    )
}

#: op-reserve = "=" / "," / "!" / "@" / "|"  (reserved for future extensions, §2.2)
OP_RESERVE: Final = "=,!@|"


# --- the parts of a template --------------------------------------------------------


@dataclass(frozen=True)
class Literal:
    """A run of literal characters (§2.1): ``text`` as written in the template at
    ``start``, and its ``expansion`` (§3.1), computed once."""

    text: str
    start: int
    expansion: str


@dataclass(frozen=True)
class VarSpec:
    """varspec = varname [ modifier-level4 ] (§2.3, §2.4).

    ``name`` is the varname as written (pct-encoded triplets are part of it and
    never decoded, §2.3); ``prefix`` is the max-length of a prefix modifier
    (§2.4.1) or ``None``; ``explode`` is the explode modifier (§2.4.2);
    ``start`` is the position of the name in the template.
    """

    name: str
    prefix: int | None
    explode: bool
    start: int

    def __str__(self) -> str:
        modifier = "*" if self.explode else "" if self.prefix is None else f":{self.prefix}"
        return self.name + modifier


@dataclass(frozen=True)
class Expression:
    """expression = "{" [ operator ] variable-list "}" (§2.2), at ``start:end``."""

    operator: Operator
    varspecs: tuple[VarSpec, ...]
    start: int
    end: int

    def __str__(self) -> str:
        return "{" + self.operator.char + ",".join(map(str, self.varspecs)) + "}"

    @property
    def level(self) -> int:
        """The lowest level that holds this expression (§1.2, §3.2): 1 for ``{var}``;
        2 for ``+`` and ``#`` with one variable; 3 for more variables or the other
        operators; 4 for a modifier."""
        if any(spec.prefix is not None or spec.explode for spec in self.varspecs):
            return 4
        if len(self.varspecs) > 1:
            return 3
        return self.operator.level


Part = Literal | Expression


# --- §2.1 literals ------------------------------------------------------------------

#: literals = %x21 / %x23-24 / %x26-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A / %x7E
#:          / ucschar / iprivate / pct-encoded        (with erratum 6937: %x26-3B)
LITERAL_CHARS: Final = r"!#$&-;=?-\[\]_a-z~" + UCSCHAR + IPRIVATE
_LITERAL_RUN: Final = re.compile(f"[{LITERAL_CHARS}]+")
_HEXDIG: Final = frozenset("0123456789ABCDEFabcdef")
#: The characters of a literal that §3.1 copies: unreserved / reserved.
_URI_CHARS: Final = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")


def literal_expansion(text: str) -> str:
    """§3.1: a literal character allowed in a URI is copied, any other is written as
    the pct-encoded triplets of its UTF-8 octets (pct-encoded triplets are copied)."""
    if _URI_CHARS.fullmatch(text):
        return text
    return "".join(
        ch if _URI_CHARS.fullmatch(ch) else "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
        for ch in text
    )


# --- §2.3 varchar -------------------------------------------------------------------

_VARCHAR: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_DIGITS: Final = frozenset("0123456789")


class _Reader:
    """The scanner of §2: it walks the template once and raises at the first
    character that cannot belong to a URI-Template."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)

    def fail(self, position: int, rule: str, reason: str) -> TemplateError:
        return TemplateError(reason, text=self.text, position=position, rule=rule)

    def at(self, i: int) -> str:
        return self.text[i] if i < self.n else ""

    # URI-Template = *( literals / expression )
    def template(self) -> tuple[Part, ...]:
        parts: list[Part] = []
        i = 0
        text, n = self.text, self.n
        while i < n:
            if text[i] == "{":
                expression = self.expression(i)
                parts.append(expression)
                i = expression.end
                continue
            start = i
            while i < n and text[i] != "{":
                if text[i] == "%":
                    i = self.pct_encoded(i)
                    continue
                m = _LITERAL_RUN.match(text, i)
                if m is None:
                    raise self.literal_error(i)
                i = m.end()
            parts.append(Literal(text[start:i], start, literal_expansion(text[start:i])))
        return tuple(parts)

    def literal_error(self, i: int) -> TemplateError:
        ch = self.text[i]
        if ch == "}":
            reason = '"}" outside an expression: an expression begins with "{" (RFC 6570 §2.2)'
        else:
            reason = (
                f"{describe_char(self.text, i)} is not allowed in a template: a literal is any "
                'character but CTL, SP, DQUOTE, "%" (aside from pct-encoded), "<", ">", "\\", '
                '"^", "`", "{", "|" and "}" (RFC 6570 §2.1)'
            )
        return self.fail(i, "literals", reason)

    # pct-encoded = "%" HEXDIG HEXDIG
    def pct_encoded(self, i: int) -> int:
        for k in (i + 1, i + 2):
            if self.at(k) not in _HEXDIG:
                raise self.fail(
                    k,
                    "pct-encoded",
                    '"%" must be followed by two hexadecimal digits (RFC 6570 §2.1)',
                )
        return i + 3

    # expression = "{" [ operator ] variable-list "}"
    def expression(self, start: int) -> Expression:
        i = start + 1
        ch = self.at(i)
        operator = OPERATORS[""]
        if ch in OPERATORS and ch:
            operator = OPERATORS[ch]
            i += 1
        elif ch and ch in OP_RESERVE:
            raise self.fail(
                i,
                "op-reserve",
                f'the operator "{ch}" is reserved for future extensions (RFC 6570 §2.2)',
            )
        # variable-list = varspec *( "," varspec )
        varspecs: list[VarSpec] = []
        while True:
            spec, i = self.varspec(i, first=not varspecs, operator_given=i > start + 1)
            varspecs.append(spec)
            ch = self.at(i)
            if ch == ",":
                i += 1
                continue
            if ch == "}":
                return Expression(operator, tuple(varspecs), start, i + 1)
            raise self.fail(i, "expression", self.after_varspec(spec, i))

    def after_varspec(self, spec: VarSpec, i: int) -> str:
        """What could have followed the varspec that ends at ``i``."""
        if spec.explode:
            expected = '"," or "}"'
        elif spec.prefix is not None:
            digits = len(str(spec.prefix))
            expected = '"," or "}"' if digits == 4 else 'a DIGIT, "," or "}"'
        else:
            expected = 'a varchar, ".", ":", "*", "," or "}"'
        if i >= self.n:
            return f"the template ends inside an expression: expected {expected} (RFC 6570 §2.2)"
        return f"expected {expected} (RFC 6570 §2.2-§2.4)"

    # varspec = varname [ modifier-level4 ]
    def varspec(self, i: int, *, first: bool, operator_given: bool) -> tuple[VarSpec, int]:
        start = i
        i = self.varname(i, first=first, operator_given=operator_given)
        name = self.text[start:i]
        ch = self.at(i)
        if ch == "*":  # explode = "*"
            return VarSpec(name, None, True, start), i + 1
        if ch != ":":
            return VarSpec(name, None, False, start), i
        # prefix = ":" max-length ; max-length = %x31-39 0*3DIGIT
        i += 1
        if not "1" <= self.at(i) <= "9":
            raise self.fail(
                i,
                "max-length",
                "expected a max-length, a positive integer below 10000 that does not "
                "begin with 0 (RFC 6570 §2.4.1)",
            )
        digits = i
        i += 1
        while self.at(i) in _DIGITS:
            if i - digits == 4:
                raise self.fail(
                    i, "max-length", "a max-length has at most four digits (RFC 6570 §2.4.1)"
                )
            i += 1
        return VarSpec(name, int(self.text[digits:i]), False, start), i

    # varname = varchar *( ["."] varchar ) ; varchar = ALPHA / DIGIT / "_" / pct-encoded
    def varname(self, i: int, *, first: bool, operator_given: bool) -> int:
        i = self.varchar(i, first=first, operator_given=operator_given)
        while True:
            ch = self.at(i)
            if ch == ".":
                i = self.varchar(i + 1, after_dot=True)
            elif ch and (ch in _VARCHAR or ch == "%"):
                i = self.varchar(i)
            else:
                return i

    def varchar(
        self, i: int, *, first: bool = False, operator_given: bool = True, after_dot: bool = False
    ) -> int:
        ch = self.at(i)
        if ch == "%":
            return self.pct_encoded(i)
        if ch in _VARCHAR:
            return i + 1
        if after_dot:
            reason = 'a "." in a varname must be followed by a varchar (RFC 6570 §2.3)'
        elif first and not operator_given and ch == "}":
            reason = "an expression holds at least one variable (RFC 6570 §2.2)"
        elif first and not operator_given:
            reason = (
                'expected an operator ("+", "#", ".", "/", ";", "?", "&") or a varname: ALPHA, '
                'DIGIT, "_" or pct-encoded (RFC 6570 §2.2, §2.3)'
            )
        else:
            reason = 'expected a varname: ALPHA, DIGIT, "_" or pct-encoded (RFC 6570 §2.3)'
        if not ch:
            reason = "the template ends inside an expression: " + reason
        raise self.fail(i, "varname", reason)


def parse(text: str) -> tuple[Part, ...]:
    """The parts of the template ``text`` (RFC 6570 §2), or :class:`TemplateError`."""
    if not isinstance(text, str):
        raise TypeError(f"a URI Template is a str, not {type(text).__name__}")
    return _Reader(text).template()
