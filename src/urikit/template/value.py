"""The URI Template value: a template read once (RFC 6570 §2), expanded (§3),
partly expanded, and matched against URIs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .expansion import Form, expand_expression, value_form
from .fast import compile_steps
from .matcher import Matcher
from .matching import MatchValue
from .syntax import OPERATORS, Expression, Literal, Operator, TemplateError, VarSpec, parse

__all__ = ["URITemplate"]

#: The operator that continues an expression once one of its variables has been
#: expanded: its ``first`` is the original's ``sep`` ("?" goes on as "&").  The
#: operators whose ``sep`` is "," (NUL, "+", "#") have none.
_CONTINUATION: Final[dict[str, Operator]] = {
    char: OPERATORS[op.sep]
    for char, op in OPERATORS.items()
    if op.sep in OPERATORS and OPERATORS[op.sep].first == op.sep
}


class URITemplate:
    """A URI Template (RFC 6570), read once.

    ``URITemplate(text)`` parses ``text`` (§2) and raises :class:`TemplateError`
    (a :class:`urikit.URIError`) at the first character outside the grammar,
    with the rule that fails there.  Two templates are equal when their texts
    are, and a template equals (and hashes as) its text.

    >>> t = URITemplate("http://example.com/search{?q,lang}")
    >>> t.expand(q="cat", lang="en")
    'http://example.com/search?q=cat&lang=en'
    >>> t.match("http://example.com/search?q=chien&lang=fr")
    {'q': 'chien', 'lang': 'fr'}
    """

    __slots__ = ("_failure", "_matcher", "_parts", "_steps", "_text", "_variables")

    def __init__(self, text: str) -> None:
        if isinstance(text, URITemplate):
            text = text._text
        self._parts = parse(text)
        self._text = text
        names: dict[str, None] = {}
        for part in self._parts:
            if isinstance(part, Expression):
                names.update((spec.name, None) for spec in part.varspecs)
        self._variables = tuple(names)
        self._steps = compile_steps(self._parts, text)
        self._matcher: Matcher | None = None
        self._failure: TemplateError | None = None

    # -- the value ----------------------------------------------------------------

    @property
    def variables(self) -> tuple[str, ...]:
        """The variable names, in the order they first appear (§2.3)."""
        return self._variables

    @property
    def level(self) -> int:
        """The lowest level of §1.2 that holds the template: 1 to 4."""
        return max((p.level for p in self._parts if isinstance(p, Expression)), default=1)

    @property
    def parts(self) -> tuple[Literal | Expression, ...]:
        """The literals and expressions of the template, in order (§2)."""
        return self._parts

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"URITemplate({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URITemplate):
            return self._text == other._text
        if isinstance(other, str):
            return self._text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._text)

    def __reduce__(self) -> tuple[object, ...]:
        return (URITemplate, (self._text,))

    # -- §3 expansion ---------------------------------------------------------------

    def _forms(
        self, values: Mapping[str, object] | None, kw: dict[str, object]
    ) -> dict[str, Form | None]:
        if values is None:
            values = kw
        elif not isinstance(values, Mapping):
            raise TypeError(
                f"the values are a mapping of variable names, not {type(values).__name__}"
            )
        elif kw:
            values = {**values, **kw}
        forms: dict[str, Form | None] = {}
        for name in self._variables:
            value = values.get(name)
            if value is None:
                continue
            forms[name] = value if type(value) is str else value_form(value, name)
        return forms

    def expand(self, values: Mapping[str, object] | None = None, /, **kw: object) -> str:
        """The URI reference the template gives for ``values`` (RFC 6570 §3).

        Values are given as a mapping, as keywords, or both (keywords win).  A
        value is a ``str``, ``int``, ``float`` or ``bool`` (``true``/``false``); a
        sequence of them (a list, §2.4.2); or a mapping of them (an associative
        array, in its order).  ``None``, an empty list or an empty mapping is
        undefined (§2.3), and so is a variable not given.  A prefix modifier on a
        composite value raises :class:`TemplateError` (§2.4.1), as does a lone
        surrogate (no UTF-8 form, §1.6); any other type raises ``TypeError``.

        >>> URITemplate("{/list*}{?keys*}").expand(list=["a", "b"], keys={"x": 1})
        '/a/b?x=1'
        """
        if kw:
            if values is not None and not isinstance(values, Mapping):
                raise TypeError(
                    f"the values are a mapping of variable names, not {type(values).__name__}"
                )
            values = {**values, **kw} if values else kw
        elif values is None:
            values = {}
        elif type(values) is not dict and not isinstance(values, Mapping):
            raise TypeError(
                f"the values are a mapping of variable names, not {type(values).__name__}"
            )
        steps, tail = self._steps
        if len(steps) == 1:
            return steps[0](values) + tail
        return "".join([step(values) for step in steps]) + tail

    def _expand_plainly(self, values: Mapping[str, object] | None = None, /, **kw: object) -> str:
        """:meth:`expand` by the readable §3.2.1 alone, without the fast path
        (``urikit.template.fast``); tests hold the two to the same answers."""
        forms = self._forms(values, kw)
        text = self._text
        return "".join(
            part.expansion if isinstance(part, Literal) else expand_expression(part, forms, text)
            for part in self._parts
        )

    def partial(self, values: Mapping[str, object] | None = None, /, **kw: object) -> URITemplate:
        """The template with the variables given expanded and the others kept.

        An expression whose variables are all given is expanded; one with none
        given is kept as it is; one with its first variables given is expanded
        for them and continued by an expression of the rest, whose operator
        begins with the original's separator: ``{?a,b}`` with ``a`` gives
        ``?a=1{&b}``.  ``None`` gives a variable as undefined.  Where no template
        can say what remains (a variable given after one that is not, or the
        rest of a ``{x,y}``, ``{+x,y}`` or ``{#x,y}`` whose first variables
        expand to text: no operator begins with ","), :class:`TemplateError`
        names the variable.  Expanding the result with the other values gives
        what expanding this template with all of them gives.

        >>> URITemplate("/search{?a,b}").partial(a=1)
        URITemplate('/search?a=1{&b}')
        """
        if values is None:
            given: Mapping[str, object] = kw
        elif not isinstance(values, Mapping):
            raise TypeError(
                f"the values are a mapping of variable names, not {type(values).__name__}"
            )
        else:
            given = {**values, **kw}
        forms = self._forms(values, kw)
        pieces = []
        for part in self._parts:
            if isinstance(part, Literal):
                pieces.append(part.text)
            else:
                pieces.append(self._partial_expression(part, given, forms))
        return URITemplate("".join(pieces))

    def _partial_expression(
        self, expression: Expression, given: Mapping[str, object], forms: dict[str, Form | None]
    ) -> str:
        specs = expression.varspecs
        lead = 0
        while lead < len(specs) and specs[lead].name in given:
            lead += 1
        if lead == 0:
            later = next((s for s in specs if s.name in given), None)
            if later is None:
                return self._text[expression.start : expression.end]
            raise self._cannot_split(expression, later, "it comes after a variable not given")
        if lead == len(specs):
            return expand_expression(expression, forms, self._text)
        rest = specs[lead:]
        later = next((s for s in rest if s.name in given), None)
        if later is not None:
            raise self._cannot_split(expression, later, "it comes after a variable not given")
        op = expression.operator
        done = Expression(op, specs[:lead], expression.start, expression.end)
        expanded = expand_expression(done, forms, self._text)
        if all(forms.get(spec.name) is None for spec in specs[:lead]):
            # all undefined: the rest begins the expression, with its own "first"
            return "{" + op.char + ",".join(map(str, rest)) + "}"
        continuation = _CONTINUATION.get(op.char)
        if continuation is None:
            raise self._cannot_split(
                expression,
                rest[0],
                f"no operator continues a list that {expression} separates with "
                f"{op.sep!r}: give all of its variables or none",
            )
        return expanded + "{" + continuation.char + ",".join(map(str, rest)) + "}"

    def _cannot_split(self, expression: Expression, spec: VarSpec, why: str) -> TemplateError:
        return TemplateError(
            f"{expression} cannot be expanded for only some of its variables at "
            f"{spec.name!r}: {why}",
            text=self._text,
            position=spec.start,
            rule="variable-list",
        )

    # -- matching -----------------------------------------------------------------------

    @property
    def matcher(self) -> Matcher:
        """The template compiled for matching (``urikit.template.matcher``); raises
        :class:`TemplateError` where matching it would be ambiguous."""
        if self._matcher is None:
            if self._failure is not None:
                failure = self._failure
                raise TemplateError(
                    failure.reason,
                    text=failure.text,
                    position=failure.position,
                    rule=failure.rule,
                )
            try:
                self._matcher = Matcher(self._text, self._parts)
            except TemplateError as error:
                self._failure = error
                raise
        return self._matcher

    def match(self, uri: str, *, allow_dot_segments: bool = False) -> dict[str, MatchValue] | None:
        """The variables whose expansion is ``uri``, decoded; ``None`` when the
        template cannot give ``uri``.

        The inverse of :meth:`expand`: a list where an exploded list or a ","
        stands, a dict where an exploded associative array stands, and a variable
        that appears twice must have the same value.  Where matching would have to
        guess (two expressions with nothing between them that tells where one ends,
        a variable seen only through a prefix modifier), :class:`TemplateError`
        says so, whatever the URI.  A value that decodes to "." or "..", has such
        a segment, or holds U+0000 is refused (``None``) unless
        ``allow_dot_segments=True``.  docs/templates.md has the rules.

        >>> URITemplate("/files{/path*}").match("/files/a/b%20c")
        {'path': ['a', 'b c']}
        >>> URITemplate("/files{/path*}").match("/files/a/../etc") is None
        True
        """
        if not isinstance(uri, str):
            raise TypeError(f"match() takes the URI as a str, not {type(uri).__name__}")
        return self.matcher.match(uri, allow_dot_segments)
