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

from collections.abc import Callable, Mapping, Sequence

from ..errors import URIError
from .expansion import encode_u, encode_ur, expand_expression, expand_varspec, value_form
from .syntax import Expression, Literal

__all__ = ["Step", "compile_steps"]

#: A step: the values in, the text of a literal and the expression after it out.
Step = Callable[[Mapping[str, object]], str]


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

    if len(specs) == 1 and specs[0][4]:
        # one variable without a prefix modifier: the most common expression
        spec, name, lead, empty, _ = specs[0]

        def single(values: Mapping[str, object]) -> str:
            value = values.get(name)
            if value is None:
                return literal
            kind = type(value)
            try:
                if kind is str:
                    text: str = value  # type: ignore[assignment]
                elif kind is int:
                    text = int.__repr__(value)
                else:
                    form = value_form(value, name)
                    if form is None:
                        return literal
                    return first + expand_varspec(op, spec, form, template)
                if not named:
                    return first + enc(text)
                return first + (lead + enc(text) if text else empty)
            except (URIError, UnicodeEncodeError, ValueError):
                return general(values)  # raises the TemplateError that says why

        return single

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
