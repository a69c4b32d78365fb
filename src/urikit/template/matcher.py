"""A template compiled for matching (the rules are ``urikit.template.matching``).

The regions are found by one regular expression whose regions are atomic (a
region, once read, is never read shorter, so no input makes it backtrack).
Where the last expression can hold what follows it (``{+path}/edit``), the
expression covers everything before it, and the last region is what lies
between its end and the fixed literal ending, read from the end of the URI.

The values are read by :func:`urikit.template.matching.bind`, or, where each
variable appears once and none has a prefix modifier, by a reader per
expression: for the common forms (one unexploded variable; named variables
without explode) a reader written for that form, for the others
:func:`~urikit.template.matching.read_expression`.
``tests/test_template_laws.py`` holds the readers to ``bind``.

Whichever reads them, the values stand only where expanding them gives back each
region, up to the equivalences of percent-encoding (RFC 3986 §6.2.2.1, §6.2.2.2;
:func:`~urikit.template.matching.equivalent`): ``Matcher.bind`` expands each
expression that ``read_expression`` reads (the steps of ``urikit.template.fast``)
and compares; the readers written for a form give back only such values by
construction (:func:`_exact`), and ``tests/test_template_laws.py`` holds every
match, whichever reader, to the law on any text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeAlias

from ..errors import URIError
from .fast import Step, compile_steps
from .matching import (
    EMPTY_OR_UNDEFINED,
    UNDEFINED,
    MatchValue,
    NoMatch,
    bind,
    check_matchable,
    decode_u,
    decode_ur,
    equivalent,
    is_unsafe_value,
    read_expression,
)
from .syntax import Expression, Literal

__all__ = ["Matcher"]

Part: TypeAlias = "Literal | Expression"
#: Reads an expression's region into the variables it defines (raises ``NoMatch``).
Reader = Callable[[str, dict[str, MatchValue]], None]


def _u_value(text: str) -> MatchValue:
    """An unexploded value that U wrote: a list where it wrote ",", else a string."""
    if "=" in text:
        raise NoMatch
    if "," in text:
        return [decode_u(member) for member in text.split(",")]
    return decode_u(text)


def _exact(expression: Expression) -> bool:
    """Does :func:`_reader` give ``expression`` a reader written for its form?  Those
    give back only what §3.2.1 writes: one unexploded variable (a U value is
    unreserved characters and triplets, decoded and encoded again as RFC 3986
    §6.2.2.1 and §6.2.2.2 allow, a "," only between list members, never "="; a U+R
    value keeps all but the triplets it would write again), or named variables
    without explode (each once, in the template's order, "name=" or, for ";", the
    bare name for an empty value)."""
    op = expression.operator
    specs = expression.varspecs
    if len(specs) == 1 and not specs[0].explode and not op.named:
        return True
    return op.named and not any(spec.explode for spec in specs)


def _reader(expression: Expression) -> Reader:
    op = expression.operator
    specs = expression.varspecs
    first = op.first
    if _exact(expression) and not op.named:
        name = specs[0].name
        decode = decode_ur if op.allow_reserved else _u_value
        sep = op.sep if op.sep not in ".," else ""

        def one(text: str, out: dict[str, MatchValue]) -> None:
            if first:
                if not text:
                    return
                text = text[1:]
            elif not text:
                out[name] = ""
                return
            if sep and sep in text:
                raise NoMatch
            out[name] = decode(text)

        return one
    if _exact(expression):
        names = tuple(spec.name for spec in specs)
        ifemp, sep = op.ifemp, op.sep

        def named(text: str, out: dict[str, MatchValue]) -> None:
            if not text:
                return
            i, k = 0, len(names)
            for item in text[1:].split(sep):
                name, eq, value = item.partition("=")
                if not eq and ifemp:
                    raise NoMatch
                while i < k and names[i] != name:
                    i += 1
                if i == k:
                    raise NoMatch
                out[name] = [""] if eq and not value and not ifemp else _u_value(value)
                i += 1

        return named

    def general(text: str, out: dict[str, MatchValue]) -> None:
        for spec, reading in read_expression(expression, text):
            if reading is EMPTY_OR_UNDEFINED:
                out[spec.name] = ""
            elif reading is not UNDEFINED:
                out[spec.name] = reading  # type: ignore[assignment]

    return general


class Matcher:
    """A template compiled for matching: its regular expression, its last region and
    literal ending, and its readers (see the module docstring)."""

    __slots__ = (
        "expressions",
        "head",
        "readers",
        "reserved",
        "suffix",
        "tail",
        "template",
        "writers",
    )

    def __init__(self, template: str, parts: Sequence[Part]) -> None:
        regions = check_matchable(template, parts)
        self.template = template
        self.expressions: tuple[Expression, ...] = tuple(
            p for p in parts if isinstance(p, Expression)
        )
        last = max(regions, default=len(parts))
        suffix = "".join(p.expansion for p in parts[last + 1 :] if isinstance(p, Literal))
        if last < len(parts):
            region = regions[last]
            begins = suffix[:1]
            if not begins or (begins not in region.body and begins != region.first):
                last = len(parts)  # the last region ends where the others do: atomic too
        pattern = []
        for j, part in enumerate(parts[:last]):
            if isinstance(part, Literal):
                pattern.append(re.escape(part.expansion))
                continue
            region = regions[j]
            name = f"e{j}"
            run = f"[{region.body_class}]*"
            if region.first:
                f = re.escape(region.first)
                # atomic: the whole run when the first character is there, else nothing
                pattern.append(f"(?:(?=(?P<{name}>{f}{run}))(?P={name})|(?!{f}))")
            else:
                pattern.append(f"(?=(?P<{name}>{run}))(?P={name})")
        self.head = re.compile("".join(pattern))
        # the last region, read from the end of the URI, where it can hold what follows it
        self.tail: re.Pattern[str] | None = None
        self.suffix = ""
        if last < len(parts):
            self.tail = re.compile(regions[last].pattern())
            self.suffix = suffix
        names = [spec.name for e in self.expressions for spec in e.varspecs]
        once = len(names) == len(set(names))
        plain = all(spec.prefix is None for e in self.expressions for spec in e.varspecs)
        self.readers: tuple[Reader, ...] | None = None
        if once and plain:
            self.readers = tuple(_reader(e) for e in self.expressions)
        # each expression alone, expanded: what the law checks a region against; none
        # where a reader written for the form reads it (those give back only values
        # whose expansion is the region, up to §6.2.2.1 and §6.2.2.2: see _reader)
        steps = compile_steps(self.expressions, template)[0]
        exact = (
            [False] * len(steps) if self.readers is None else [_exact(e) for e in self.expressions]
        )
        self.writers: tuple[tuple[Step, int], ...] = tuple(
            (step, k) for k, step in enumerate(steps) if not exact[k]
        )
        self.reserved = frozenset(
            spec.name for e in self.expressions if e.operator.allow_reserved for spec in e.varspecs
        )

    def regions(self, uri: str) -> list[str] | None:
        """The text of each expression's region in ``uri``, or ``None``."""
        if self.tail is None:
            m = self.head.fullmatch(uri)
            return None if m is None else [text or "" for text in m.groups()]
        m = self.head.match(uri)
        if m is None:
            return None
        start, end = m.end(), len(uri) - len(self.suffix)
        if end < start or not uri.endswith(self.suffix, start):
            return None
        if self.tail.fullmatch(uri, start, end) is None:
            return None
        return [*(text or "" for text in m.groups()), uri[start:end]]

    def match(self, uri: str, allow_dot_segments: bool = False) -> dict[str, MatchValue] | None:
        """The variables of ``uri``, or ``None``."""
        found = self.regions(uri)
        if found is None:
            return None
        return self.bind(found, allow_dot_segments)

    def bind(
        self, found: Sequence[str], allow_dot_segments: bool = False
    ) -> dict[str, MatchValue] | None:
        """The variables read from the regions ``found``, or ``None`` where no values
        expand to them (see the module docstring)."""
        if self.readers is None:
            values = bind(self.expressions, found, allow_dot_segments)
            return None if values is None or not self._expand_to(values, found) else values
        out: dict[str, MatchValue] = {}
        try:
            for read, text in zip(self.readers, found, strict=True):
                read(text, out)
        except NoMatch:
            return None
        if not allow_dot_segments:
            reserved = self.reserved
            for name, value in out.items():
                if (
                    type(value) is str
                    and "." not in value
                    and "\x00" not in value
                    and ("%" not in value or name not in reserved)
                ):
                    continue  # no dot-segment, no U+0000, even decoded
                if is_unsafe_value(value, name in reserved):
                    return None
        if self.writers and not self._expand_to(out, found):
            return None
        return out

    def _expand_to(self, values: dict[str, MatchValue], found: Sequence[str]) -> bool:
        """Do ``values`` expand to the regions ``found`` that the law checks?"""
        try:
            for write, k in self.writers:
                if not equivalent(write(values), found[k]):
                    return False
        except URIError:
            return False  # no expansion: a value that cannot be written (§1.6, §2.4.1)
        return True
