"""The fast path of expansion: a template compiled into steps, one per expression.

Each step writes the literal before its expression, then the expression, with
the operator's row of Appendix A bound in: a ``str`` or ``int`` value of a
variable without a prefix modifier directly, any other value by
:func:`urikit.template.expansion.expand_varspec`, the readable §3.2.1; what
raises (a lone surrogate, a prefix of a composite value) is expanded again by
:func:`~urikit.template.expansion.expand_expression`, which says why.
``tests/test_template_laws.py`` holds the two to the same answers on generated
templates and values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from ..errors import URIError
from ..percent import percent_encode
from .expansion import encode, expand_expression, expand_varspec, value_form
from .syntax import Expression, Literal

__all__ = ["Step", "compile_steps"]

#: A step: the values in, the text of a literal and the expression after it out.
Step = Callable[[Mapping[str, object]], str]

_ONLY_U: Final = re.compile(r"[A-Za-z0-9\-._~]*")
_ONLY_UR: Final = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]*")


def _encode_u(value: str) -> str:
    """U (§3.2.1), for text that is most often unreserved already."""
    if (value.isalnum() and value.isascii()) or _ONLY_U.fullmatch(value):
        return value
    return percent_encode(value, "unreserved")


def _encode_ur(value: str) -> str:
    """U+R (§3.2.3), for text that is most often allowed already."""
    if _ONLY_UR.fullmatch(value):
        return value
    return encode(value, True)


def _step(literal: str, expression: Expression, template: str) -> Step:
    op = expression.operator
    names = tuple(spec.name for spec in expression.varspecs)

    def general(values: Mapping[str, object]) -> str:
        forms = {}
        for name in names:
            value = values.get(name)
            forms[name] = None if value is None else value_form(value, name)
        return literal + expand_expression(expression, forms, template)

    enc = _encode_ur if op.allow_reserved else _encode_u
    first, sep, named = literal + op.first, op.sep, op.named
    # per varspec: its name, "name=" and "name" + ifemp when named, and whether a
    # str or int value of it is written here rather than by expand_varspec
    specs = tuple(
        (
            spec,
            spec.name,
            spec.name + "=" if named else "",
            spec.name + op.ifemp if named else "",
            spec.prefix is None,
        )
        for spec in expression.varspecs
    )

    def step(values: Mapping[str, object]) -> str:
        pieces = []
        try:
            for spec, name, lead, empty, plain in specs:
                value = values.get(name)
                if value is None:
                    continue
                kind = type(value)
                if kind is int:
                    value = int.__repr__(value)
                    kind = str
                text: str = value  # type: ignore[assignment]
                if kind is str and plain:
                    if not named:
                        pieces.append(enc(text))
                    elif text:
                        pieces.append(lead + enc(text))
                    else:
                        pieces.append(empty)
                    continue
                form = value_form(value, name)
                if form is not None:
                    pieces.append(expand_varspec(op, spec, form, template))
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
