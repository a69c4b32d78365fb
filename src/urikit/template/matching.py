"""Matching a URI against a URI Template: expansion read backwards.

RFC 6570 §1.4: "Variable matching only works well if the template expressions
are delimited by the beginning or end of the URI or by characters that cannot
be part of the expansion."  A template is matched in three steps:

1. **Regions.**  Each expression's expansion is a *region* of the URI: the
   operator's ``first`` character (when it has one, §3.2.1), then characters
   of its *body*, the characters its expansion can hold (:func:`region_of`).
   Where the characters that can follow an expression cannot occur in its
   body, its region is the longest run of body characters, found without
   backtracking; the last expression may overlap what follows it, since a
   fixed literal ending is read from the end of the URI.  Anything else is
   ambiguous, and :func:`check_matchable` raises :class:`TemplateError` naming
   the expression.  ``urikit.template.matcher`` compiles the regions into one
   regular expression.
2. **Values.**  Each region is read back into its variables
   (:func:`read_expression`): split at the operator's ``sep``, unnamed values
   taken in order and named ones by name, then decoded (§3.2.1 in reverse).
   A variable that appears more than once must read the same value everywhere.

3. **The law.**  A match stands only where its values, expanded again, give
   back each region, up to the equivalences of percent-encoding (RFC 3986
   §6.2.2.1, §6.2.2.2; :func:`equivalent`): the readers refuse what §3.2.1
   never writes, and the check makes a reading that expansion would write
   otherwise no match.

What matching chooses where expansion loses information is listed in
docs/deviations.md and docs/templates.md: the first variables of an
expression are the defined ones; a value holds no separator of its
expression; an unexploded value with a "," is a list; an exploded one with a
"=" is an associative array; an empty expansion of an expression without a
``first`` character gives its first variable the empty string.

**Safety** (next to RFC 6570 §3.2.3, reserved expansion): a matched value
that decodes to "." or "..", that has such a segment between "/" or "\\", or
that holds U+0000 is refused (the URI does not match) unless
``allow_dot_segments=True``: a value joined into a file path cannot then walk
out of its directory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from ..errors import URIError
from ..normalization import normalize_percent_encoding
from ..percent import percent_decode
from .expansion import encode, prefix_of
from .syntax import Expression, Literal, Operator, TemplateError, VarSpec

__all__ = [
    "EMPTY_OR_UNDEFINED",
    "UNDEFINED",
    "MatchValue",
    "NoMatch",
    "Region",
    "bind",
    "check_matchable",
    "decode_u",
    "decode_ur",
    "equivalent",
    "is_unsafe",
    "is_unsafe_value",
    "read_expression",
    "region_of",
]

#: A matched value: a string, a list (exploded, or with ","), or an associative array.
MatchValue: TypeAlias = "str | list[str] | dict[str, str]"

#: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"  (RFC 3986 §2.3)
UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
#: reserved = gen-delims / sub-delims  (RFC 3986 §2.2)
RESERVED: Final = frozenset(":/?#[]@!$&'()*+,;=")


class _Undefined:
    """A variable the URI leaves undefined."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDEFINED"


class _EmptyOrUndefined:
    """The empty expansion of an expression with no ``first``: "" or undefined alike."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "EMPTY_OR_UNDEFINED"


UNDEFINED: Final = _Undefined()
EMPTY_OR_UNDEFINED: Final = _EmptyOrUndefined()

Reading: TypeAlias = "MatchValue | _Undefined | _EmptyOrUndefined"


# --- 1. regions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """Where an expression's expansion stands in a URI: ``first`` (the operator's
    first character, or "") and then any number of ``body`` characters."""

    first: str
    body: frozenset[str]

    @property
    def body_class(self) -> str:
        """The body as the inside of a regular-expression character class."""
        return "".join(re.escape(ch) for ch in sorted(self.body))

    def pattern(self) -> str:
        """The region as a regular expression: ``(?:F[body]*)?`` or ``[body]*``."""
        run = f"[{self.body_class}]*"
        return f"(?:{re.escape(self.first)}{run})?" if self.first else run


def region_of(expression: Expression) -> Region:
    """The region of ``expression``: what §3.2.1 can write for its operator.

    U operators write unreserved characters and triplets ("%"), "," between list
    members and pairs, "=" in pairs (exploded, or named), and ``sep`` between
    values when there can be more than one; U+R operators (``+``, ``#``) write
    any unreserved or reserved character and triplets.
    """
    op = expression.operator
    if op.allow_reserved:
        body = UNRESERVED | RESERVED | {"%"}
    else:
        several = len(expression.varspecs) > 1 or any(s.explode for s in expression.varspecs)
        body = UNRESERVED | {"%", ","}
        if op.named or any(s.explode for s in expression.varspecs):
            body |= {"="}
        if several:
            body |= {op.sep}
    return Region(op.first, frozenset(body))


Part: TypeAlias = "Literal | Expression"
_END: Final = ""  # stands for the end of the URI in a set of following characters


def _following(parts: Sequence[Part], j: int, regions: dict[int, Region]) -> set[str]:
    """The characters that can begin the URI from part ``j`` on (``_END`` for its end)."""
    out: set[str] = set()
    while j < len(parts):
        part = parts[j]
        if isinstance(part, Literal):
            out.add(part.expansion[0])
            return out
        region = regions[j]
        out |= {region.first} if region.first else region.body
        j += 1
    out.add(_END)
    return out


def _ambiguous(template: str, expression: Expression, reason: str) -> TemplateError:
    return TemplateError(
        reason + " (RFC 6570 §1.4)",
        text=template,
        position=expression.start,
        rule="expression",
    )


def check_matchable(template: str, parts: Sequence[Part]) -> dict[int, Region]:
    """The regions of the expressions of ``parts``, or :class:`TemplateError` where
    matching would have to guess.

    Refused: a variable that appears only with a prefix modifier (a prefix does
    not give the value back, §2.4.1); an exploded variable before another in an
    unnamed expression, or two exploded variables in a named one (their members
    run together); and, but for the last expression, an expression whose body
    can hold a character that can begin what follows it, or whose ``first``
    character can begin a literal after it or an expression after it with the same
    ``first`` (where its text ends, or whether it is defined, cannot be told).
    """
    regions = {j: region_of(p) for j, p in enumerate(parts) if isinstance(p, Expression)}
    plain = {
        spec.name
        for p in parts
        if isinstance(p, Expression)
        for spec in p.varspecs
        if spec.prefix is None
    }
    last = max(regions, default=-1)
    for j, region in regions.items():
        expression = parts[j]
        assert isinstance(expression, Expression)
        _check_varspecs(template, expression, plain)
        if j == last:
            continue  # the fixed literal ending is read from the end of the URI
        following = _following(parts, j + 1, regions)
        clash = region.body & following
        if clash:
            after = parts[j + 1]
            begins = regions.get(j + 1, region).first
            if isinstance(after, Expression) and begins in region.body:
                raise _ambiguous(
                    template,
                    expression,
                    f"{expression} can hold {begins!r}, with which {after} begins: where one "
                    "ends and the other begins cannot be told",
                )
            if isinstance(after, Expression):
                raise _ambiguous(
                    template,
                    expression,
                    f"{expression} and {after} stand side by side with no literal between "
                    "them: where one ends and the other begins cannot be told",
                )
            ch = min(clash, key=lambda c: (not c.isalnum(), c))
            raise _ambiguous(
                template,
                expression,
                f"the expansion of {expression} can hold {ch!r}, which can also begin what "
                "follows it: where it ends cannot be told; follow it with a literal character "
                "its expansion cannot hold",
            )
        if region.first and region.first in following:
            _check_first(template, parts, j, regions)
    return regions


def _check_varspecs(template: str, expression: Expression, plain: set[str]) -> None:
    specs = expression.varspecs
    for k, spec in enumerate(specs):
        if spec.prefix is not None and spec.name not in plain:
            raise TemplateError(
                f"{spec.name!r} appears only with a prefix modifier, and a prefix of a value "
                "does not give the value back (RFC 6570 §2.4.1)",
                text=template,
                position=spec.start + len(spec.name),
                rule="prefix",
            )
        if spec.explode and not expression.operator.named and k < len(specs) - 1:
            raise TemplateError(
                f"the members of the exploded {spec.name!r} cannot be told from the values "
                f"after it in {expression}: put it last (RFC 6570 §2.4.2)",
                text=template,
                position=spec.start + len(spec.name),
                rule="explode",
            )
    exploded = [spec for spec in specs if spec.explode]
    if expression.operator.named and len(exploded) > 1:
        second = exploded[1]
        raise TemplateError(
            f"the pairs of two exploded variables of {expression} cannot be told apart "
            "(RFC 6570 §2.4.2)",
            text=template,
            position=second.start + len(second.name),
            rule="explode",
        )


def _check_first(template: str, parts: Sequence[Part], j: int, regions: dict[int, Region]) -> None:
    """An expression's ``first`` character can begin what follows it: never acceptable,
    since whether the expression is defined, or which of two expressions the
    character begins, cannot be told (``{/a}{/b}`` writes "/1" for a or b alike)."""
    expression = parts[j]
    assert isinstance(expression, Expression)
    first = regions[j].first
    for k in range(j + 1, len(parts)):
        part = parts[k]
        if isinstance(part, Literal):
            if part.expansion[0] == first:
                raise _ambiguous(
                    template,
                    expression,
                    f"{expression} begins with {first!r}, and so does the literal after it: "
                    "whether the expression is defined cannot be told",
                )
            return
        if regions[k].first == first:
            raise _ambiguous(
                template,
                expression,
                f"{expression} and {part} both begin with {first!r}: which of them a "
                f"{first!r} begins cannot be told",
            )


# --- 2. values ----------------------------------------------------------------------

_BAD_PERCENT: Final = re.compile("%(?![0-9A-Fa-f]{2})")
_UTF8_SEQUENCE: Final = re.compile(
    r"%[0-7][0-9A-Fa-f]"
    r"|%[CDcd][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]"
    r"|%[Ee][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){2}"
    r"|%[Ff][0-7](?:%[89ABab][0-9A-Fa-f]){3}"
    r"|%[0-9A-Fa-f]{2}"
)
_KEPT_IN_UR: Final = UNRESERVED | RESERVED | {"%"}


class NoMatch(Exception):
    """The URI cannot be an expansion of the template."""


def decode_u(text: str) -> str:
    """A value that U encoded (§3.2.1): every triplet decoded, as UTF-8."""
    if "%" not in text:
        return text
    try:
        return percent_decode(text)
    except URIError:
        raise NoMatch from None


def decode_ur(text: str) -> str:
    """A value that U+R encoded (§3.2.3): the triplets it would have written are
    decoded, those of a character outside unreserved / reserved, in upper case
    (RFC 3986 §2.1).  Any other triplet passed through from the value as it was,
    and stays: so the value, expanded again, gives the same text."""
    if "%" not in text:
        return text
    if _BAD_PERCENT.search(text):
        raise NoMatch

    def one(m: re.Match[str]) -> str:
        triplets = m.group()
        if triplets != triplets.upper():
            return triplets
        try:
            ch = bytes.fromhex(triplets.replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:
            return triplets
        return triplets if ch in _KEPT_IN_UR else ch

    return _UTF8_SEQUENCE.sub(one, text)


def _unexploded(op: Operator, item: str) -> MatchValue:
    """One unexploded value: a string, or a list where U wrote its "," (§3.2.1)."""
    if op.allow_reserved:
        return decode_ur(item)
    if "=" in item:
        raise NoMatch  # U writes "=" of a value as %3D
    if "," in item:
        return [decode_u(member) for member in item.split(",")]
    return decode_u(item)


def _pairs(op: Operator, items: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """The pairs of an exploded associative array, each ``(name, "=" or "", value)``
    as U wrote it (§3.2.1): a name once, and, where its value is empty, the name
    followed by ``ifemp`` ("name=" for "?" and "&", the bare name for the others)."""
    pairs: dict[str, str] = {}
    for name, eq, value in items:
        if not value and eq != op.ifemp:
            raise NoMatch
        key = decode_u(name)
        if key in pairs:
            raise NoMatch  # each name of an associative array is written once
        pairs[key] = decode_u(value)
    return pairs


def _exploded(op: Operator, members: list[str]) -> MatchValue:
    """The members of an exploded unnamed variable: a list, or, where U wrote "=",
    an associative array (a pair with an empty value is written as its name)."""
    if op.allow_reserved:
        return [decode_ur(member) for member in members]
    if any("," in member for member in members):
        raise NoMatch  # U writes "," of a member, name or value as %2C
    if not any("=" in member for member in members):
        return [decode_u(member) for member in members]
    items = [member.partition("=") for member in members]
    if any("=" in value for _, _, value in items):
        raise NoMatch
    return _pairs(op, items)


def _read_unnamed(
    op: Operator, specs: tuple[VarSpec, ...], content: str
) -> list[tuple[VarSpec, Reading]]:
    k = len(specs)
    if specs[-1].explode:
        items = content.split(op.sep)
        # the first variables take the first values, up to a pair, which only the
        # exploded variable can hold (U writes "=" of a value as %3D)
        head = min(k - 1, len(items))
        if not op.allow_reserved:
            head = next((j for j in range(head) if "=" in items[j]), head)
        out: list[tuple[VarSpec, Reading]] = [
            (spec, _unexploded(op, item)) for spec, item in zip(specs, items[:head], strict=False)
        ]
        out += [(spec, UNDEFINED) for spec in specs[head : k - 1]]
        members = items[head:]
        out.append((specs[-1], _exploded(op, members) if members else UNDEFINED))
        return out
    # the first variables take the values; the last takes what remains
    items = content.split(op.sep, k - 1)
    if op.sep != "." and op.sep != "," and op.sep in items[-1]:
        raise NoMatch
    got: list[tuple[VarSpec, Reading]] = [
        (spec, _unexploded(op, item)) for spec, item in zip(specs, items, strict=False)
    ]
    return got + [(spec, UNDEFINED) for spec in specs[len(items) :]]


def _named_value(op: Operator, eq: str, value: str) -> MatchValue:
    """The value of an unexploded named variable written as ``name`` ``eq`` ``value``."""
    if eq and not value and not op.ifemp:
        return [""]  # ";name=": a list of one empty member
    return _unexploded(op, value)


def _bind_in_order(
    op: Operator,
    specs: Sequence[tuple[int, VarSpec]],
    items: list[tuple[str, str, str]],
    readings: dict[int, Reading],
) -> int:
    """Bind the unexploded ``specs`` to ``items`` by name, in order, each at most
    once, skipping the undefined ones; return how many items they took."""
    taken = 0
    k = 0
    for name, eq, value in items:
        while k < len(specs) and specs[k][1].name != name:
            k += 1  # this variable is undefined
        if k == len(specs):
            break
        readings[specs[k][0]] = _named_value(op, eq, value)
        k += 1
        taken += 1
    return taken


def _read_named(
    op: Operator, specs: tuple[VarSpec, ...], content: str
) -> list[tuple[VarSpec, Reading]]:
    items = []
    for item in content.split(op.sep):
        name, eq, value = item.partition("=")
        if "=" in value:
            raise NoMatch
        if not eq and op.ifemp:
            raise NoMatch  # "?" and "&" write "name=" for an empty value
        items.append((name, eq, value))
    readings: dict[int, Reading] = {}
    exploded = next((k for k, spec in enumerate(specs) if spec.explode), None)
    if exploded is None:
        if _bind_in_order(op, list(enumerate(specs)), items, readings) < len(items):
            raise NoMatch
        return [(spec, readings.get(k, UNDEFINED)) for k, spec in enumerate(specs)]
    # The variables before the exploded one take the first items, those after it
    # the last items (read from the end); the exploded variable has what is between.
    front = _bind_in_order(op, list(enumerate(specs[:exploded])), items, readings)
    after = list(enumerate(specs))[exploded + 1 :]
    back = _bind_in_order(op, after[::-1], items[front:][::-1], readings)
    members = items[front : len(items) - back]
    spec = specs[exploded]
    if members:
        if any("," in name or "," in value for name, _, value in members):
            raise NoMatch  # U writes "," of a member, name or value as %2C
        if all(name == spec.name for name, _, _ in members):
            if any(eq and not value and not op.ifemp for _, eq, value in members):
                raise NoMatch  # ";" writes a bare name for an empty member
            readings[exploded] = [decode_u(value) for _, _, value in members]
        else:
            readings[exploded] = _pairs(op, members)
    return [(spec, readings.get(k, UNDEFINED)) for k, spec in enumerate(specs)]


def read_expression(expression: Expression, text: str) -> list[tuple[VarSpec, Reading]]:
    """The variables that the region ``text`` gives back, each varspec with its
    reading (raises :class:`NoMatch` where expansion cannot write ``text``)."""
    op = expression.operator
    specs = expression.varspecs
    if op.first:
        if not text:
            return [(spec, UNDEFINED) for spec in specs]
        content = text[1:]
    elif not text:
        # no first character: "" is the expansion of an empty first variable and of
        # undefined variables alike
        return [(specs[0], EMPTY_OR_UNDEFINED)] + [(spec, UNDEFINED) for spec in specs[1:]]
    else:
        content = text
    if op.named:
        return _read_named(op, specs, content)
    return _read_unnamed(op, specs, content)


def equivalent(expansion: str, text: str) -> bool:
    """Is ``text`` the ``expansion`` of an expression, up to the equivalences of
    percent-encoding: the case of hex digits (RFC 3986 §6.2.2.1) and triplets of
    unreserved characters (§6.2.2.2)?  What :class:`~urikit.template.matcher.Matcher`
    asks of every match: its values, expanded again, give back the URI."""
    if expansion == text:
        return True
    if "%" not in text and "%" not in expansion:
        return False
    if _BAD_PERCENT.search(text) or _BAD_PERCENT.search(expansion):
        return False
    return normalize_percent_encoding(expansion) == normalize_percent_encoding(text)


# --- the values of the whole template -------------------------------------------------


def _merge(values: dict[str, Reading], name: str, reading: Reading) -> None:
    """A variable read again: it must have the same value everywhere (§3.2.1)."""
    if name not in values:
        values[name] = reading
        return
    old = values[name]
    if old == reading:
        return
    if old is EMPTY_OR_UNDEFINED and (reading is UNDEFINED or reading == ""):
        values[name] = reading
    elif not (reading is EMPTY_OR_UNDEFINED and (old is UNDEFINED or old == "")):
        raise NoMatch


def _prefix_agrees(op: Operator, spec: VarSpec, observed: Reading, full: Reading) -> bool:
    """The expansion of ``spec`` (with its prefix) from the value read elsewhere is
    the one read here."""
    if full is UNDEFINED or full is EMPTY_OR_UNDEFINED:
        return observed is UNDEFINED or observed is EMPTY_OR_UNDEFINED
    if not isinstance(full, str):
        return False  # a prefix of a composite value is an error (§2.4.1)
    assert spec.prefix is not None
    expected = prefix_of(full, spec.prefix, op.allow_reserved)
    if observed is EMPTY_OR_UNDEFINED:
        return expected == ""
    if not isinstance(observed, str):
        return False
    decode = decode_ur if op.allow_reserved else decode_u
    return decode(encode(expected, op.allow_reserved)) == observed


_SEGMENT_SPLIT: Final = re.compile(r"[/\\]")


def is_unsafe(value: str, allow_reserved: bool = False) -> bool:
    """Is ``value`` (decoded, or its triplets decoded where U+R kept them) ".", "..",
    or has it such a segment between "/" or "\\", or a U+0000?"""
    if allow_reserved and "%" in value:
        value = percent_decode(value, errors="surrogateescape")
    if "\x00" in value:
        return True
    if "." not in value:
        return False
    return any(seg == "." or seg == ".." for seg in _SEGMENT_SPLIT.split(value))


def is_unsafe_value(reading: MatchValue, allow_reserved: bool) -> bool:
    """:func:`is_unsafe` for a string, each member of a list, each name and value of pairs."""
    if isinstance(reading, str):
        return is_unsafe(reading, allow_reserved)
    if isinstance(reading, list):
        return any(is_unsafe(member, allow_reserved) for member in reading)
    return any(is_unsafe(k) or is_unsafe(v) for k, v in reading.items())


def bind(
    expressions: Sequence[Expression], found: Sequence[str], allow_dot_segments: bool = False
) -> dict[str, MatchValue] | None:
    """The variables read from the regions ``found`` of ``expressions``, or ``None``:
    each expression read (:func:`read_expression`), each variable the same value
    everywhere, each prefix the prefix of its value, and, unless
    ``allow_dot_segments``, no value that :func:`is_unsafe` refuses."""
    values: dict[str, Reading] = {}
    prefixed: list[tuple[Operator, VarSpec, Reading]] = []
    reserved: set[str] = set()
    try:
        for expression, text in zip(expressions, found, strict=True):
            op = expression.operator
            for spec, reading in read_expression(expression, text):
                if spec.prefix is not None:
                    prefixed.append((op, spec, reading))
                    continue
                if op.allow_reserved:
                    reserved.add(spec.name)
                _merge(values, spec.name, reading)
    except NoMatch:
        return None
    for op, spec, observed in prefixed:
        full = values.get(spec.name, UNDEFINED)
        if not _prefix_agrees(op, spec, observed, full):
            return None
        if full is EMPTY_OR_UNDEFINED and observed is UNDEFINED:
            values[spec.name] = UNDEFINED  # {a,a:1} reads "" as a undefined, not ""
    out: dict[str, MatchValue] = {}
    for name, reading in values.items():
        if reading is UNDEFINED:
            continue
        if reading is EMPTY_OR_UNDEFINED:
            reading = ""
        assert not isinstance(reading, (_Undefined, _EmptyOrUndefined))
        if not allow_dot_segments and is_unsafe_value(reading, name in reserved):
            return None
        out[name] = reading
    return out
