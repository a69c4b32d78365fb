"""Routing: one URI matched against many templates at once.

A :class:`Router` keeps its templates in a prefix tree.  Each template is a
path of tokens from the root: its literal text (shared between templates as
a radix tree: an edge holds the longest text its templates share), the
region of each expression but the last (shared by every template whose
expression at that point has the same ``first`` character and body, whatever
its variables), and a last edge: the region of the last expression with the
fixed literal ending, or the end of the URI.  Matching walks the tree once:
each node is reached at most once (the text before it decides where it
starts), so the cost follows the URI and the branches it can take, not the
number of templates.  The templates whose leaf the walk reaches are then
matched one by one, best first, by their own matchers.

**The most specific template wins**: the one with the most literal
characters (counted in their expansion, §3.1); among equals, the one added
first.

The compiled form, :meth:`Router.compiled`, is plain data (tuples, dicts and
strings): the tree and each template's tokens, for code that matches without
these objects (a column function, or C).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple, TypeAlias

from .matching import MatchValue, Region, region_of
from .syntax import Expression, Literal
from .value import URITemplate

__all__ = ["CompiledRouter", "RouteMatch", "Router"]


@dataclass(frozen=True)
class RouteMatch:
    """The template a router matched: its ``index`` (in the order added), the
    ``template`` and the ``variables`` it gives."""

    index: int
    template: URITemplate
    variables: dict[str, MatchValue]


#: A region as plain data: the operator's first character ("" for none) and the
#: characters of its body, sorted.
Shape: TypeAlias = tuple[str, str]

#: A template's tokens: ("literal", text) or ("expression", operator character,
#: ((name, prefix or None, explode), ...), index of its shape in ``shapes``).
Token: TypeAlias = (
    "tuple[str, str] | tuple[str, str, tuple[tuple[str, int | None, bool], ...], int]"
)

#: A node: ({first character: (label, child)}, ((shape, child), ...),
#: ((shape, literal ending, templates), ...), templates that end here).
Node: TypeAlias = tuple[
    dict[str, tuple[str, int]],
    tuple[tuple[int, int], ...],
    tuple[tuple[int, str, tuple[int, ...]], ...],
    tuple[int, ...],
]


class CompiledRouter(NamedTuple):
    """A router as plain data.

    ``nodes[0]`` is the root of the prefix tree.  A node is a tuple of four:
    its literal edges (first character → (label, child node)); its region
    edges ((shape, child node), ...); its last edges ((shape, literal ending,
    templates), ...), taken when the rest of the URI is that region followed by
    that ending; and the templates that end at the node.  ``shapes`` are the
    regions, (first character, body characters).  ``tokens`` are each
    template's literals and expressions (with the shape of each expression's
    region), ``order`` the templates from the most specific, and ``templates``
    their texts.
    """

    nodes: tuple[Node, ...]
    shapes: tuple[Shape, ...]
    tokens: tuple[tuple[Token, ...], ...]
    order: tuple[int, ...]
    templates: tuple[str, ...]


@dataclass(eq=False)
class _Node:
    edges: dict[str, tuple[str, _Node]] = field(default_factory=dict)
    regions: dict[Shape, _Node] = field(default_factory=dict)
    tails: dict[tuple[Shape, str], list[int]] = field(default_factory=dict)
    ends: list[int] = field(default_factory=list)

    def literal(self, text: str) -> _Node:
        """The node after ``text`` from here, made (and an edge split) where needed."""
        node = self
        while text:
            edge = node.edges.get(text[0])
            if edge is None:
                child = _Node()
                node.edges[text[0]] = (text, child)
                return child
            label, child = edge
            common = 1
            while common < min(len(label), len(text)) and label[common] == text[common]:
                common += 1
            if common < len(label):
                middle = _Node()
                middle.edges[label[common]] = (label[common:], child)
                node.edges[text[0]] = (label[:common], middle)
                child = middle
            node, text = child, text[common:]
        return node


class _ShapeReader:
    """How far a region of a shape runs from a position, and whether a span is one."""

    __slots__ = ("first", "run", "whole")

    def __init__(self, shape: Shape) -> None:
        first, body = shape
        region = Region(first, frozenset(body))
        self.first = first
        self.run = re.compile(f"[{region.body_class}]*")
        self.whole = re.compile(region.pattern())

    def end(self, uri: str, pos: int) -> int:
        if self.first:
            if not uri.startswith(self.first, pos):
                return pos
            pos += 1
        m = self.run.match(uri, pos)
        assert m is not None  # a run of zero or more always matches
        return m.end()


def _shape(region: Region) -> Shape:
    return (region.first, "".join(sorted(region.body)))


class Router:
    """Match a URI against many templates; the most specific template wins.

    ``Router(templates)`` adds each template (a ``str`` or a :class:`URITemplate`)
    in order; :meth:`add` adds one more.  A template that matching would find
    ambiguous is refused when added, with its :class:`TemplateError`.
    ``allow_dot_segments`` is passed to each template's matching.

    >>> router = Router(["/users/{id}", "/users/me", "/files{/path*}"])
    >>> router.match("/users/me").template
    URITemplate('/users/me')
    >>> router.match("/users/42").variables
    {'id': '42'}
    """

    def __init__(
        self, templates: Iterable[str | URITemplate] = (), *, allow_dot_segments: bool = False
    ) -> None:
        self.allow_dot_segments = allow_dot_segments
        self._templates: list[URITemplate] = []
        self._rank: list[tuple[int, int]] = []
        self._root = _Node()
        self._readers: dict[Shape, _ShapeReader] = {}
        for template in templates:
            self.add(template)

    def __len__(self) -> int:
        return len(self._templates)

    @property
    def templates(self) -> tuple[URITemplate, ...]:
        """The templates, in the order added."""
        return tuple(self._templates)

    def add(self, template: str | URITemplate) -> int:
        """Add ``template``; return its index.  Raises :class:`TemplateError` where
        the template is malformed or matching it would be ambiguous."""
        if not isinstance(template, URITemplate):
            template = URITemplate(template)
        matcher = template.matcher  # raises where matching is ambiguous
        index = len(self._templates)
        parts = template.parts
        expressions = [j for j, part in enumerate(parts) if isinstance(part, Expression)]
        last = expressions[-1] if expressions else len(parts)
        node = self._root
        for part in parts[:last]:
            if isinstance(part, Literal):
                node = node.literal(part.expansion)
            else:
                node = node.regions.setdefault(self._shape(part), _Node())
        if expressions:
            last_expression = parts[last]
            assert isinstance(last_expression, Expression)
            key = (self._shape(last_expression), matcher.suffix)
            node.tails.setdefault(key, []).append(index)
        else:
            node.ends.append(index)
        literal_chars = sum(len(p.expansion) for p in parts if isinstance(p, Literal))
        self._templates.append(template)
        self._rank.append((-literal_chars, index))
        return index

    def _shape(self, expression: Expression) -> Shape:
        shape = _shape(region_of(expression))
        if shape not in self._readers:
            self._readers[shape] = _ShapeReader(shape)
        return shape

    def candidates(self, uri: str) -> list[int]:
        """The templates whose path through the tree ``uri`` follows, best first."""
        n = len(uri)
        found: list[int] = []
        readers = self._readers
        stack = [(self._root, 0)]
        while stack:
            node, pos = stack.pop()
            if node.ends and pos == n:
                found.extend(node.ends)
            if pos < n:
                edge = node.edges.get(uri[pos])
                if edge is not None and uri.startswith(edge[0], pos):
                    stack.append((edge[1], pos + len(edge[0])))
            for shape, child in node.regions.items():
                stack.append((child, readers[shape].end(uri, pos)))
            for (shape, suffix), indexes in node.tails.items():
                stop = n - len(suffix)
                if (
                    stop >= pos
                    and uri.endswith(suffix, pos)
                    and readers[shape].whole.fullmatch(uri, pos, stop) is not None
                ):
                    found.extend(indexes)
        rank = self._rank
        found.sort(key=rank.__getitem__)
        return found

    def match(self, uri: str) -> RouteMatch | None:
        """The most specific template that matches ``uri``, with its variables; or
        ``None`` when none does."""
        if not isinstance(uri, str):
            raise TypeError(f"match() takes the URI as a str, not {type(uri).__name__}")
        for index in self.candidates(uri):
            template = self._templates[index]
            variables = template.matcher.match(uri, self.allow_dot_segments)
            if variables is not None:
                return RouteMatch(index, template, variables)
        return None

    def compiled(self) -> CompiledRouter:
        """The router as plain data: :class:`CompiledRouter`."""
        shapes = list(self._readers)
        shape_index = {shape: k for k, shape in enumerate(shapes)}
        nodes: list[Node] = []

        def number(node: _Node) -> int:
            k = len(nodes)
            nodes.append(({}, (), (), ()))
            edges = {ch: (label, number(child)) for ch, (label, child) in node.edges.items()}
            regions = tuple((shape_index[s], number(child)) for s, child in node.regions.items())
            tails = tuple(
                (shape_index[s], suffix, tuple(indexes))
                for (s, suffix), indexes in node.tails.items()
            )
            nodes[k] = (edges, regions, tails, tuple(node.ends))
            return k

        number(self._root)
        tokens = []
        for template in self._templates:
            row: list[Token] = []
            for part in template.parts:
                if isinstance(part, Literal):
                    row.append(("literal", part.expansion))
                else:
                    specs = tuple((s.name, s.prefix, s.explode) for s in part.varspecs)
                    shape = _shape(region_of(part))
                    row.append(("expression", part.operator.char, specs, shape_index[shape]))
            tokens.append(tuple(row))
        order = tuple(sorted(range(len(self._templates)), key=self._rank.__getitem__))
        return CompiledRouter(
            tuple(nodes),
            tuple(shapes),
            tuple(tokens),
            order,
            tuple(str(t) for t in self._templates),
        )
