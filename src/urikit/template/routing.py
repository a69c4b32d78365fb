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

Where the compiled core is built, the walk and the regions of the candidates are
those of ``urikit._template.Router``, made from :meth:`Router.compiled` (chosen in
``urikit.template.backend``); the values are read from the regions here, in both cases,
but by :meth:`Router.match_rows` for a column, where the C writes them as JSON for
plain templates and values and leaves every other row to :meth:`Router.match`.

**The most specific template wins**: the one with the most literal
characters (counted in their expansion, §3.1); among equals, the one added
first.

The compiled form, :meth:`Router.compiled`, is plain data (tuples, dicts and
strings): the tree and each template's tokens, for code that matches without
these objects (a column function, or C).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from .backend import RouteCore, route_core
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


class _Node:
    """A node of the tree: its literal edges (a radix tree), region edges, last edges
    and the templates that end here; ``walk`` is what matching reads, made from them
    by :meth:`freeze`."""

    __slots__ = ("edges", "ends", "regions", "tails", "walk_regions", "walk_tails")

    def __init__(self) -> None:
        self.edges: dict[str, tuple[str, _Node]] = {}
        self.regions: dict[Shape, _Node] = {}
        self.tails: dict[tuple[Shape, str], list[int]] = {}
        self.ends: list[int] = []
        # (first character, the match of a run of body characters, child)
        self.walk_regions: tuple[
            tuple[str, Callable[[str, int], re.Match[str] | None], _Node], ...
        ] = ()
        # (literal ending, its length, the fullmatch of the region, templates)
        self.walk_tails: tuple[
            tuple[str, int, Callable[[str, int, int], object], tuple[int, ...]], ...
        ] = ()

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

    def freeze(self, readers: dict[Shape, _ShapeReader]) -> None:
        """Make the tuples that matching walks, here and below."""
        pending = [self]
        while pending:
            node = pending.pop()
            node.walk_regions = tuple(
                (shape[0], readers[shape].run.match, child) for shape, child in node.regions.items()
            )
            node.walk_tails = tuple(
                (suffix, len(suffix), readers[shape].whole.fullmatch, tuple(indexes))
                for (shape, suffix), indexes in node.tails.items()
            )
            pending.extend(child for _, child in node.edges.values())
            pending.extend(node.regions.values())


class _ShapeReader:
    """A region of a shape as regular expressions: a run of its body characters, and
    the whole region."""

    __slots__ = ("run", "whole")

    def __init__(self, shape: Shape) -> None:
        first, body = shape
        region = Region(first, frozenset(body))
        self.run = re.compile(f"[{region.body_class}]*")
        self.whole = re.compile(region.pattern())


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
        self._core: RouteCore | None = None
        self._dirty = True
        for template in templates:
            self.add(template)

    def __len__(self) -> int:
        return len(self._templates)

    def __reduce__(self) -> tuple[object, ...]:
        """A router pickles as its templates and ``allow_dot_segments`` (its compiled
        router is made again where it is unpickled, as on a Spark or Dask worker)."""
        texts = tuple(str(template) for template in self._templates)
        return (_rebuilt, (texts, self.allow_dot_segments))

    @property
    def templates(self) -> tuple[URITemplate, ...]:
        """The templates, in the order added."""
        return tuple(self._templates)

    def add(self, template: str | URITemplate) -> int:
        """Add ``template``; return its index.  Raises :class:`TemplateError` where
        the template is malformed or matching it would be ambiguous."""
        if not isinstance(template, URITemplate):
            template = URITemplate(template)
        template.matcher  # noqa: B018  (raises where matching is ambiguous)
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
            ending = "".join(p.expansion for p in parts[last + 1 :] if isinstance(p, Literal))
            key = (self._shape(last_expression), ending)
            node.tails.setdefault(key, []).append(index)
        else:
            node.ends.append(index)
        literal_chars = sum(len(p.expansion) for p in parts if isinstance(p, Literal))
        self._dirty = True
        self._templates.append(template)
        self._rank.append((-literal_chars, index))
        return index

    def _shape(self, expression: Expression) -> Shape:
        shape = _shape(region_of(expression))
        if shape not in self._readers:
            self._readers[shape] = _ShapeReader(shape)
        return shape

    def _freeze(self) -> None:
        """Make what matching reads: the walk of the tree, and the compiled router."""
        self._root.freeze(self._readers)
        self._core = route_core(self.compiled())
        self._dirty = False

    def candidates(self, uri: str) -> list[int]:
        """The templates whose path through the tree ``uri`` follows, best first."""
        if self._dirty:
            self._freeze()
        n = len(uri)
        found: list[int] = []
        stack = [(self._root, 0)]
        pop, push = stack.pop, stack.append
        while stack:
            node, pos = pop()
            if pos < n:
                edge = node.edges.get(uri[pos])
                if edge is not None and uri.startswith(edge[0], pos):
                    push((edge[1], pos + len(edge[0])))
            elif node.ends:
                found.extend(node.ends)
            for first, run, child in node.walk_regions:
                if not first:
                    push((child, run(uri, pos).end()))  # type: ignore[union-attr]
                elif uri.startswith(first, pos):
                    push((child, run(uri, pos + 1).end()))  # type: ignore[union-attr]
                else:
                    push((child, pos))
            for suffix, size, whole, indexes in node.walk_tails:
                stop = n - size
                if stop >= pos and uri.endswith(suffix, pos) and whole(uri, pos, stop):
                    found.extend(indexes)
        if len(found) > 1:
            found.sort(key=self._rank.__getitem__)
        return found

    def match(self, uri: str) -> RouteMatch | None:
        """The most specific template that matches ``uri``, with its variables; or
        ``None`` when none does."""
        if not isinstance(uri, str):
            raise TypeError(f"match() takes the URI as a str, not {type(uri).__name__}")
        if self._dirty:
            self._freeze()
        core = self._core
        if core is not None:
            after = -1
            while (found := core.match(uri, after)) is not None:
                index, after, regions = found
                template = self._templates[index]
                variables = template.matcher.bind(regions, self.allow_dot_segments)
                if variables is not None:
                    return RouteMatch(index, template, variables)
            return None
        for index in self.candidates(uri):
            template = self._templates[index]
            variables = template.matcher.match(uri, self.allow_dot_segments)
            if variables is not None:
                return RouteMatch(index, template, variables)
        return None

    def match_rows(
        self, texts: list[object]
    ) -> tuple[list[int | None], list[str | None], list[int]]:
        """The matches of a column's rows, for ``urikit.arrow.template_match``:
        ``(indexes, variables, rest)``.  For each row that the compiled core answers,
        the index of the template :meth:`match` gives and its variables as the JSON
        object ``urikit.arrow`` writes (None for both where none matches, or for a null
        row); ``rest`` lists the other rows (not a ``str``, or values the core leaves
        to ``Matcher.bind``), left None, which the caller matches with :meth:`match`.
        On the readable path ``rest`` is every row."""
        if self._dirty:
            self._freeze()
        if self._core is None:
            n = len(texts)
            return [None] * n, [None] * n, list(range(n))
        return self._core.match_json(texts, self.allow_dot_segments)

    def compiled(self) -> CompiledRouter:
        """The router as plain data: :class:`CompiledRouter`."""
        shapes = list(self._readers)
        shape_index = {shape: k for k, shape in enumerate(shapes)}
        numbers: dict[int, int] = {}
        order: list[_Node] = []
        pending = [self._root]
        while pending:  # number the nodes, the root first
            node = pending.pop()
            numbers[id(node)] = len(order)
            order.append(node)
            pending.extend(child for _, child in node.edges.values())
            pending.extend(node.regions.values())
        nodes: list[Node] = [
            (
                {ch: (label, numbers[id(child)]) for ch, (label, child) in node.edges.items()},
                tuple((shape_index[s], numbers[id(child)]) for s, child in node.regions.items()),
                tuple(
                    (shape_index[s], suffix, tuple(indexes))
                    for (s, suffix), indexes in node.tails.items()
                ),
                tuple(node.ends),
            )
            for node in order
        ]
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
        best_first = tuple(sorted(range(len(self._templates)), key=self._rank.__getitem__))
        return CompiledRouter(
            tuple(nodes),
            tuple(shapes),
            tuple(tokens),
            best_first,
            tuple(str(t) for t in self._templates),
        )


def _rebuilt(templates: tuple[str, ...], allow_dot_segments: bool) -> Router:
    return Router(templates, allow_dot_segments=allow_dot_segments)
