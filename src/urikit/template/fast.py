"""The fast path of expansion: a template compiled into steps, one per expression.

Each step writes the literal before its expression, then the expression, with
the operator's row of Appendix A bound in: a ``str`` or ``int`` value of a
variable without a prefix modifier, and a list or an associative array of
strings, directly; any other value by
:func:`urikit.template.expansion.expand_varspec`, the readable §3.2.1; what
raises (a lone surrogate, a prefix of a composite value) is expanded again by
:func:`~urikit.template.expansion.expand_expression`, which says why.
``tests/test_template_laws.py`` holds the two to the same answers on generated
templates and values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import URIError
from .expansion import encode_u, encode_ur, expand_expression, expand_varspec, value_form
from .syntax import Expression, Literal, Operator, VarSpec

__all__ = ["Step", "compile_steps"]

#: A step: the values in, the text of a literal and the expression after it out.
Step = Callable[[Mapping[str, object]], str]


Writer = Callable[[Any], str]


def _writers(op: Operator, spec: VarSpec, enc: Callable[[str], str]) -> tuple[Writer, Writer]:
    """Write a list, and the items of an associative array, whose members are all
    ``str``, as :func:`~urikit.template.expansion.expand_varspec` does (§3.2.1); a
    member of any other kind raises ``AttributeError`` or ``TypeError``."""
    name, sep, ifemp = spec.name, op.sep, op.ifemp
    if not spec.explode:
        lead = name + "=" if op.named else ""

        def members(value: Any) -> str:
            return lead + ",".join([enc(m) for m in value])

        def pairs(items: Any) -> str:
            return lead + ",".join([enc(k) + "," + enc(v) for k, v in items])

        return members, pairs
    if op.named:

        def named_members(value: Any) -> str:
            out = []
            for m in value:
                if type(m) is not str:
                    raise TypeError(m)
                out.append(name + "=" + enc(m) if m else name + ifemp)
            return sep.join(out)

        members = named_members
    else:

        def unnamed_members(value: Any) -> str:
            return sep.join([enc(m) for m in value])

        members = unnamed_members

    def exploded_pairs(items: Any) -> str:
        out = []
        for k, v in items:
            if type(v) is not str:
                raise TypeError(v)
            out.append(enc(k) + ("=" + enc(v) if v else ifemp))
        return sep.join(out)

    return members, exploded_pairs


def _step(literal: str, expression: Expression, template: str) -> Step:
    op = expression.operator
    names = tuple(spec.name for spec in expression.varspecs)

    def general(values: Mapping[str, object]) -> str:
        forms = {}
        for name in names:
            value = values.get(name)
            forms[name] = None if value is None else value_form(value, name)
        return literal + expand_expression(expression, forms, template)

    enc = encode_ur if op.allow_reserved else encode_u
    first, sep, named = literal + op.first, op.sep, op.named
    # per varspec: its name, "name=" and "name" + ifemp when named, whether it has no
    # prefix modifier, and its writers of lists and associative arrays of strings
    specs = tuple(
        (
            spec,
            spec.name,
            spec.name + "=" if named else "",
            spec.name + op.ifemp if named else "",
            spec.prefix is None,
            *_writers(op, spec, enc),
        )
        for spec in expression.varspecs
    )

    def composite(
        value: object, spec: VarSpec, plain: bool, members: Writer, pairs: Writer
    ) -> str | None:
        """The expansion of a defined variable whose value is not a str or an int, or
        None where the value is undefined."""
        kind = type(value)
        if plain and (kind is list or kind is tuple or kind is dict):
            if not value:
                return None
            try:
                if kind is dict:
                    return pairs(value.items())  # type: ignore[attr-defined]
                return members(value)
            except (AttributeError, TypeError):
                pass  # a member that is not a str: value_form reads it
        form = value_form(value, spec.name)
        return None if form is None else expand_varspec(op, spec, form, template)

    if len(specs) == 1:
        spec, name, lead, empty, plain, members, pairs = specs[0]

        def single(values: Mapping[str, object]) -> str:
            value = values.get(name)
            if value is None:
                return literal
            kind = type(value)
            try:
                if kind is str or kind is int:
                    text: str = value if kind is str else int.__repr__(value)  # type: ignore[assignment]
                    if plain:
                        if not named:
                            return first + enc(text)
                        return first + (lead + enc(text) if text else empty)
                found = composite(value, spec, plain, members, pairs)
            except (URIError, UnicodeEncodeError, ValueError):
                return general(values)  # raises the TemplateError that says why
            return literal if found is None else first + found

        return single

    def step(values: Mapping[str, object]) -> str:
        pieces = []
        try:
            for spec, name, lead, empty, plain, members, pairs in specs:
                value = values.get(name)
                if value is None:
                    continue
                kind = type(value)
                if (kind is str or kind is int) and plain:
                    text: str = value if kind is str else int.__repr__(value)  # type: ignore[assignment]
                    if not named:
                        pieces.append(enc(text))
                    else:
                        pieces.append(lead + enc(text) if text else empty)
                    continue
                found = composite(value, spec, plain, members, pairs)
                if found is not None:
                    pieces.append(found)
        except (URIError, UnicodeEncodeError, ValueError):
            return general(values)  # raises the TemplateError that says why
        return first + sep.join(pieces) if pieces else literal

    return step


def compile_steps(
    parts: Sequence[Literal | Expression], template: str
) -> tuple[tuple[Step, ...], str]:
    """The steps of a template and the literal text after its last expression."""
    steps: list[Step] = []
    literal = ""
    for part in parts:
        if isinstance(part, Literal):
            literal += part.expansion
        else:
            steps.append(_step(literal, part, template))
            literal = ""
    return tuple(steps), literal
