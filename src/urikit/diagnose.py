"""Where and why a string fails a rule of the grammar (RFC 3986 Appendix A, RFC 3987 §2.2).

The fast parse is one regular expression (``grammar.py``).  When it does not
match, :func:`locate` runs the automaton of the same rule, compiled from the
same expressions (:attr:`Grammar.definitions <urikit.grammar.Grammar.definitions>`):

1. :class:`Alphabet`: the code points are cut into classes that no character
   class of the grammar tells apart (a few dozen; every ASCII character is
   looked up in a table);
2. :class:`NFA`: Thompson's construction over the rule's expression, each named
   rule expanded in place, so each state knows the named rules it is inside;
3. :class:`Automaton`: the NFA run as a DFA built on demand (subset
   construction of the states the input reaches, cached), one table lookup
   per character, so a walk is linear in the input.

Every NFA state lies on a path to acceptance, so the walk stops at the first
character that cannot belong to any valid parse: the end of the *longest
viable prefix*, which is the error position (``len(text)`` when the input ends
too early).

**The rule of an error.**  Of the states alive at that position, those that
could read a character say which rules were being matched there.  Each reports
its innermost named rule, except the :data:`PARTS` (character classes, the
pieces of an address, and the alternatives of a host, which the input cannot
tell apart), which report the rule around them.  The state whose reported rule
is nested deepest wins; between equals, a state reached from a reading under
which the input so far is already complete (``http://a`` read as a host rather
than as a userinfo waiting for ``"@"``); then the state whose next character
leaves the fewest to acceptance (``http://`` before a host, not a userinfo); then the state
written first in the grammar.  The reason lists what could have continued there: the one-character
rules and quoted strings of those states' transitions.  A reason depends on the character
that failed only through its :func:`kind <Automaton.kind>`: a colon where a relative
path's first segment stands (RFC 3986 §4.2), a bidi formatting character in an IRI
(RFC 3987 §4.1), or any other character (or the end of the input); a non-ASCII
character in a URI says that it needs an IRI (RFC 3986 §2).

**An authority without "@".**  A userinfo must be followed by "@" before the end of
the authority (RFC 3986 §3.2, §3.2.1: neither may hold "/", "?" or "#").  So when the
input's authority holds no "@", no userinfo reading exists, and the error is where
the host and port reading fails: ``http://example.com:80a/`` fails at the "a" (a
port is digits, §3.2.3), not at the "/" (where "example.com:80a" could still have
been a userinfo).  The input's authority starts at 0 for the rule (i)authority, and
otherwise after a leading "//" or a leading ``scheme ":" "//"``; it ends before the
first "/", "?" or "#" (or at the end of the input).  When it holds no "@", the
automaton of the rule without the userinfo alternative is walked
(:func:`userinfo_possible`).  Both automata accept the same texts, so only the error
position and its explanation change.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, cached_property
from typing import Final, TypeAlias

from .errors import URIError
from .grammar import (
    BIDI_FORMATTING,
    IRI_GRAMMAR,
    IRI_UCSCHAR,
    URI_GRAMMAR,
    Alt,
    Chars,
    Grammar,
    Node,
    Ref,
    Rep,
    Rule,
    Seq,
    class_ranges,
)

__all__ = [
    "KINDS",
    "NFA",
    "PARTS",
    "Alphabet",
    "Automaton",
    "alphabet",
    "automaton",
    "locate",
    "userinfo_possible",
]

#: Rules an error reports as the rule around them: the character classes, the
#: pieces of an IP address, and the alternatives of a host (RFC 3986 §3.2.2:
#: a failing host cannot say whether it was meant as an IPv4address, a reg-name
#: or an IP-literal; inside the brackets the address rules report themselves).
PARTS: Final = frozenset(
    {
        "ALPHA", "DIGIT", "HEXDIG", "pct-encoded", "unreserved", "iunreserved",
        "gen-delims", "sub-delims", "reserved", "ucschar", "iprivate", "pchar", "ipchar",
        "h16", "ls32", "dec-octet", "IPv4address", "reg-name", "ireg-name", "IP-literal",
    }
)  # fmt: skip

_BIDI_REASON: Final = (
    "IRIs MUST NOT contain bidirectional formatting characters (RFC 3987 §4.1); percent-encode it"
)
_NON_ASCII_REASON: Final = (
    "a URI holds only ASCII characters (RFC 3986 §2); for an IRI write IRI(text), "
    "and IRI(text).to_uri() for its URI (RFC 3987 §3.1), or URI.lenient(text) to "
    "percent-encode what the grammar forbids"
)
_PCT_REASON: Final = '"%" must be followed by two hex digits (pct-encoded, RFC 3986 §2.1)'
#: What a failing character can change in an explanation (:meth:`Automaton.kind`).
KINDS: Final = ("other", "colon", "bidi")
#: An authority up to its first "@" (group 1) or its end: after a leading "//" or a
#: leading ``scheme ":" "//"`` (RFC 3986 §3.1, §3.2), or (``_AT``) from the start.
_AUTHORITY_AT: Final = re.compile(r"(?:[A-Za-z][A-Za-z0-9+\-.]*:)?//[^/?#@]*(@)?")
_AT: Final = re.compile(r"[^/?#@]*(@)?")

_COLON_REASON: Final = (
    "a colon in the first segment of a relative-path reference reads as a scheme; "
    'write "./" before the path (RFC 3986 §4.2)'
)


def _bodies(node: Node, rules: Mapping[str, Rule], seen: set[str]) -> Iterator[str]:
    """The class bodies of every character an expression can read."""
    if isinstance(node, Chars):
        yield node.body
    elif isinstance(node, Ref):
        if node.name not in seen:
            seen.add(node.name)
            yield from _bodies(rules[node.name].node, rules, seen)
    elif isinstance(node, Rep):
        yield from _bodies(node.item, rules, seen)
    else:
        for item in node.items:
            yield from _bodies(item, rules, seen)


class Alphabet:
    """The code points cut into classes: two characters in one class are in the same
    character classes of the grammar, so no rule tells them apart.

    A class is named by one character, ``chr(id)``; :meth:`translate` writes a
    text as the names of its characters' classes.
    """

    def __init__(self, bodies: Iterable[str]) -> None:
        sets = [class_ranges(body) for body in dict.fromkeys(bodies)]
        cuts = {0, 0x110000}
        for ranges in sets:
            for lo, hi in ranges:
                cuts.update((lo, hi + 1))
        #: the first code point of each interval
        self.starts = sorted(cuts)[:-1]
        signatures: dict[tuple[int, ...], int] = {}
        #: the class of each interval
        self.ids: list[int] = []
        for start in self.starts:
            signature = tuple(i for i, ranges in enumerate(sets) if _inside(start, ranges))
            self.ids.append(signatures.setdefault(signature, len(signatures)))
        #: how many classes there are
        self.count = len(signatures)
        if self.count >= 0x80:  # pragma: no cover
            raise ValueError("too many character classes to name them with ASCII")
        self._ascii = {c: chr(self.class_of(chr(c))) for c in range(0x80)}
        wide: dict[int, list[tuple[int, int]]] = {}
        bounds = [*self.starts[1:], 0x110000]
        for start, end, k in zip(self.starts, bounds, self.ids, strict=True):
            if end > 0x80:
                wide.setdefault(k, []).append((max(start, 0x80), end - 1))
        self._wide = [
            (re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in spans) + "]"), chr(k))
            for k, spans in wide.items()
        ]

    def class_of(self, ch: str) -> int:
        """The class of the character ``ch``."""
        return self.ids[bisect.bisect_right(self.starts, ord(ch)) - 1]

    def members(self, body: str) -> frozenset[int]:
        """The classes whose characters are in the class body ``body``."""
        ranges = class_ranges(body)
        pairs = zip(self.starts, self.ids, strict=True)
        return frozenset(k for start, k in pairs if _inside(start, ranges))

    def translate(self, text: str) -> str:
        """``text`` with each character replaced by the name of its class."""
        ids = text.translate(self._ascii)
        if not text.isascii():
            for pattern, name in self._wide:
                ids = pattern.sub(name, ids)
        return ids


def _inside(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= code <= hi for lo, hi in ranges)


@cache
def alphabet() -> Alphabet:
    """The alphabet of both grammars (and of the bidi formatting characters, RFC 3987 §4.1)."""
    bodies: list[str] = [BIDI_FORMATTING]
    for grammar in (URI_GRAMMAR, IRI_GRAMMAR):
        for rule in grammar.definitions.values():
            bodies.extend(_bodies(rule.node, grammar.definitions, set()))
    return Alphabet(bodies)


def _is_class(node: Node, rules: Mapping[str, Rule]) -> bool:
    """Does ``node`` always read exactly one character?"""
    if isinstance(node, Ref):
        return _is_class(rules[node.name].node, rules)
    if isinstance(node, Chars):
        return True
    return isinstance(node, Alt) and all(_is_class(item, rules) for item in node.items)


def _is_userinfo(name: str, stack: tuple[str, ...]) -> bool:
    """Is ``name`` the (i)userinfo of an (i)authority?"""
    return name.endswith("userinfo") and stack[-1].endswith("authority")


def _holds_authority(rules: Mapping[str, Rule], rule: str) -> bool:
    """Does ``rule`` read an (i)authority somewhere?"""
    seen: set[str] = set()
    todo = [rules[rule].node]
    while todo:
        node = todo.pop()
        if isinstance(node, Ref):
            if node.name.endswith("authority"):
                return True
            if node.name not in seen:
                seen.add(node.name)
                todo.append(rules[node.name].node)
        elif isinstance(node, Rep):
            todo.append(node.item)
        elif isinstance(node, (Seq, Alt)):
            todo.extend(node.items)
    return rule.endswith("authority")


class NFA:
    """Thompson's construction over the expression of one rule.

    States are numbers.  ``edges[s]`` are the transitions of ``s`` on a
    character, as (classes, target, label); ``eps[s]`` the empty ones;
    ``stack[s]`` the named rules ``s`` is inside, outermost first.  With
    ``userinfo=False`` an authority has no ``[ userinfo "@" ]`` (RFC 3986 §3.2):
    the states of that alternative are built but not entered, so the states are
    numbered alike in both constructions.
    """

    def __init__(
        self, grammar: Grammar, rule: str, letters: Alphabet, *, userinfo: bool = True
    ) -> None:
        self.rules = grammar.definitions
        self.letters = letters
        self.userinfo = userinfo
        self.edges: list[list[tuple[frozenset[int], int, str]]] = []
        self.eps: list[list[int]] = []
        self.stack: list[tuple[str, ...]] = []
        self._classes: dict[str, frozenset[int]] = {}
        top = (rule,)
        self.start = self._state(top)
        self.final = self._state(top)
        self._build(self.rules[rule].node, self.start, self.final, top, None)

    def _state(self, stack: tuple[str, ...]) -> int:
        self.edges.append([])
        self.eps.append([])
        self.stack.append(stack)
        return len(self.stack) - 1

    def _build(self, node: Node, a: int, b: int, stack: tuple[str, ...], label: str | None) -> None:
        """States for ``node`` from ``a`` to ``b``; ``label`` names a one-character rule."""
        if isinstance(node, Chars):
            classes = self._classes.get(node.body)
            if classes is None:
                classes = self._classes[node.body] = self.letters.members(node.body)
            self.edges[a].append((classes, b, label or node.name))
        elif isinstance(node, Ref):
            inner = (*stack, node.name)
            rule = self.rules[node.name].node
            if label is None and _is_class(rule, self.rules):
                label = node.name
            entry, exit_ = self._state(inner), self._state(inner)
            if self.userinfo or not _is_userinfo(node.name, stack):
                self.eps[a].append(entry)
            self.eps[exit_].append(b)
            self._build(rule, entry, exit_, inner, label)
        elif isinstance(node, Seq):
            cur = a
            for item in node.items:
                nxt = self._state(stack)
                self._build(item, cur, nxt, stack, label)
                cur = nxt
            self.eps[cur].append(b)
        elif isinstance(node, Alt):
            for item in node.items:
                self._build(item, a, b, stack, label)
        else:
            cur = a
            for _ in range(node.lo):
                nxt = self._state(stack)
                self._build(node.item, cur, nxt, stack, label)
                cur = nxt
            if node.hi is None:
                loop, again = self._state(stack), self._state(stack)
                self.eps[cur].append(loop)
                self._build(node.item, loop, again, stack, label)
                self.eps[again].append(loop)
                self.eps[loop].append(b)
            else:
                for _ in range(node.hi - node.lo):
                    nxt = self._state(stack)
                    self.eps[cur].append(b)
                    self._build(node.item, cur, nxt, stack, label)
                    cur = nxt
                self.eps[cur].append(b)

    def closure(self, states: Iterable[int]) -> frozenset[int]:
        """The states reachable from ``states`` by empty transitions."""
        seen = set(states)
        todo = list(seen)
        while todo:
            for t in self.eps[todo.pop()]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return frozenset(seen)

    @cached_property
    def distance(self) -> list[int]:
        """For each state, the fewest characters that take it to acceptance."""
        into: list[list[tuple[int, int]]] = [[] for _ in self.stack]
        for a, edges in enumerate(self.edges):
            for _, b, _ in edges:
                into[b].append((a, 1))
        for a, targets in enumerate(self.eps):
            for b in targets:
                into[b].append((a, 0))
        far = len(self.stack) + 1
        distance = [far] * len(self.stack)
        distance[self.final] = 0
        queue: deque[int] = deque([self.final])
        while queue:  # 0-1 breadth-first search from the final state, backwards
            b = queue.popleft()
            for a, cost in into[b]:
                if distance[b] + cost < distance[a]:
                    distance[a] = distance[b] + cost
                    if cost:
                        queue.append(a)
                    else:
                        queue.appendleft(a)
        return distance

    def reported(self, state: int) -> tuple[int, str]:
        """The rule an error in ``state`` reports, and how deep it is nested."""
        stack = self.stack[state]
        for depth in range(len(stack) - 1, 0, -1):
            if stack[depth] not in PARTS:
                return depth, stack[depth]
        return 0, stack[0]


#: A DFA state: its transitions, by the name of a character's class.  A plain
#: dict, so that a walk costs one dict lookup per character.
Row: TypeAlias = "dict[str, Row]"

# Characters translated at a time: the first chunk is small, so an early failure
# reads little; each next one is larger, up to the last size.
_CHUNKS: Final = (64, 1024, 16384, 65536)


class _Info:
    """What a row stands for: ``kernel``, the NFA states the last character reached
    (before empty transitions); ``states``, their closure; ``dead``, the classes
    that lead nowhere; ``failures``, the explained failures by kind."""

    __slots__ = ("dead", "failures", "kernel", "states")

    def __init__(self, kernel: frozenset[int], states: frozenset[int]) -> None:
        self.kernel = kernel
        self.states = states
        self.dead: set[str] = set()
        self.failures: dict[int, tuple[str, str]] = {}


class Automaton:
    """The DFA of one rule, built on demand from its :class:`NFA` (subset construction);
    with ``userinfo=False``, of the rule without the userinfo of an authority."""

    def __init__(self, grammar: Grammar, rule: str, *, userinfo: bool = True) -> None:
        self.grammar = grammar
        self.rule = rule
        self.userinfo = userinfo
        self.letters = alphabet()
        self.nfa = NFA(grammar, rule, self.letters, userinfo=userinfo)
        bidi = self.letters.members(BIDI_FORMATTING) if grammar.iri else frozenset()
        colon = self.letters.class_of(":")
        #: the kind of each class: an index of :data:`KINDS`
        self.kinds = [2 if k in bidi else 1 if k == colon else 0 for k in range(self.letters.count)]
        self._rows: dict[frozenset[int], Row] = {}
        self._info: dict[int, _Info] = {}
        self.start = self._row(frozenset({self.nfa.start}))

    def _row(self, kernel: frozenset[int]) -> Row:
        row = self._rows.get(kernel)
        if row is None:
            row = self._rows[kernel] = {}
            self._info[id(row)] = _Info(kernel, self.nfa.closure(kernel))
        return row

    def info(self, row: Row) -> _Info:
        """The NFA states ``row`` stands for."""
        return self._info[id(row)]

    def _step(self, row: Row, name: str) -> Row | None:
        """The row after reading a character of the class ``name`` (``None``: none)."""
        info = self._info[id(row)]
        if name in info.dead:
            return None
        k = ord(name)
        edges = self.nfa.edges
        kernel = frozenset(t for s in info.states for classes, t, _ in edges[s] if k in classes)
        if not kernel:
            info.dead.add(name)
            return None
        nxt = row[name] = self._row(kernel)
        return nxt

    def walk(self, text: str) -> tuple[int, Row]:
        """How far ``text`` stays viable, and the row reached there."""
        row = self.start
        start, n = 0, len(text)
        for size in _chunk_sizes():
            if start >= n:
                break
            end = min(n, start + size)
            it = iter(self.letters.translate(text[start:end]))
            while True:
                try:
                    for name in it:
                        row = row[name]
                    break
                except KeyError:
                    nxt = self._step(row, name)
                    if nxt is None:
                        # a str iterator knows exactly how many characters it has left
                        return end - operator.length_hint(it) - 1, row
                    row = nxt
            start = end
        return n, row

    def accepts(self, text: str) -> bool:
        """Does ``text`` match the rule?"""
        position, row = self.walk(text)
        return position == len(text) and self.nfa.final in self.info(row).states

    def rows(self) -> list[Row]:
        """Every row, each built: breadth-first from the start, classes in order."""
        order = [self.start]
        seen = {id(self.start)}
        for row in order:
            for k in range(self.letters.count):
                nxt = row.get(chr(k)) or self._step(row, chr(k))
                if nxt is not None and id(nxt) not in seen:
                    seen.add(id(nxt))
                    order.append(nxt)
        return order

    def accepting(self, row: Row) -> bool:
        """Is the input complete in ``row``?"""
        return self.nfa.final in self._info[id(row)].states

    def kind(self, char: str | None) -> int:
        """What ``char`` (``None``: the end of input) can change in an explanation, as an
        index of :data:`KINDS`: 1 a colon, 2 a bidi formatting character in an IRI, else 0."""
        return 0 if char is None else self.kinds[self.letters.class_of(char)]

    def explain(self, row: Row, char: str | None) -> tuple[str, str]:
        """The rule and reason of a failure in ``row`` at ``char`` (``None``: end of input)."""
        found = self.explain_kind(row, self.kind(char))
        if char is not None and char > "\x7f" and not self.grammar.iri:
            return found[0], _NON_ASCII_REASON
        return found

    def explain_kind(self, row: Row, kind: int) -> tuple[str, str]:
        """The rule and reason of a failure in ``row`` at a character of ``kind``."""
        failures = self._info[id(row)].failures
        found = failures.get(kind)
        if found is None:
            found = failures[kind] = self._explain(self._info[id(row)], kind)
        return found

    def _explain(self, row: _Info, kind: int) -> tuple[str, str]:
        nfa = self.nfa
        frontier = sorted(s for s in row.states if nfa.edges[s])
        if not frontier:
            return self.rule, f"nothing may follow a complete {self.rule}"
        complete: set[int] = set()
        for t in row.kernel:
            reach = nfa.closure((t,))
            if nfa.final in reach:
                complete |= reach
        distance = nfa.distance

        def after(s: int) -> int:  # the fewest characters to acceptance past one read in s
            return min(distance[b] for _, b, _ in nfa.edges[s])

        frontier.sort(key=lambda s: (-nfa.reported(s)[0], s not in complete, after(s), s))
        best = frontier[0]
        rule = nfa.reported(best)[1]
        if kind == 2 and self._reads(frontier, IRI_UCSCHAR):
            return "ucschar", _BIDI_REASON
        if kind == 1 and any(r.endswith("path-noscheme") for r in nfa.stack[best]):
            return rule, _COLON_REASON
        if all("pct-encoded" in nfa.stack[s] for s in frontier) and not any(
            label == '"%"' for s in frontier for _, _, label in nfa.edges[s]
        ):
            return rule, _PCT_REASON
        section = self.grammar.definitions[rule].section
        return rule, f"expected {self._expected(frontier)} ({section})"

    def _reads(self, frontier: list[int], body: str) -> bool:
        """Could one of ``frontier`` read a character of the class body ``body``?"""
        wanted = self.letters.members(body)
        return any(classes & wanted for s in frontier for classes, _, _ in self.nfa.edges[s])

    def _expected(self, frontier: list[int]) -> str:
        """What could be read in ``frontier`` (best first), as rules and quoted strings."""
        labels: dict[str, set[int]] = {}
        for s in frontier:
            for classes, _, label in self.nfa.edges[s]:
                labels.setdefault(label, set()).update(classes)
        kept: set[str] = set()
        covered: set[int] = set()
        for label in sorted(labels, key=lambda lab: -len(labels[lab])):
            if not labels[label] <= covered:
                kept.add(label)
                covered |= labels[label]
        shown = [label for label in labels if label in kept]
        return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _chunk_sizes() -> Iterator[int]:
    yield from _CHUNKS
    while True:
        yield _CHUNKS[-1]


_AUTOMATA: dict[tuple[str, str, bool], Automaton] = {}


def automaton(grammar: Grammar, rule: str, *, userinfo: bool = True) -> Automaton:
    """The automaton of ``rule`` in ``grammar``, built on first use and kept; with
    ``userinfo=False``, of the rule without the userinfo of an authority."""
    key = (grammar.name, rule, userinfo)
    found = _AUTOMATA.get(key)
    if found is None:
        if userinfo or _holds_authority(grammar.definitions, rule):
            found = Automaton(grammar, rule, userinfo=userinfo)
        else:  # a rule without an authority has no userinfo to leave out
            found = automaton(grammar, rule)
        _AUTOMATA[key] = found
    return found


def userinfo_possible(text: str, rule: str) -> bool:
    """Could ``text`` hold a userinfo (RFC 3986 §3.2.1) as ``rule`` reads it?

    ``False`` when the input's authority holds no "@" (see the module docstring):
    it starts at 0 for (i)authority, else after a leading "//" or ``scheme ":" "//"``,
    and ends before the first "/", "?" or "#".  ``True`` when there is no authority.
    """
    found = (_AT if rule.endswith("authority") else _AUTHORITY_AT).match(text)
    return found is None or found.group(1) is not None


def locate(text: str, grammar: Grammar, rule: str) -> URIError:
    """The error for ``text``, which does not match ``rule`` of ``grammar``.

    The position is the end of the longest viable prefix, of the rule without
    a userinfo when the input's authority holds no "@"; the rule and the
    reason come from the automaton's states there (see the module docstring).
    """
    machine = automaton(grammar, rule, userinfo=userinfo_possible(text, rule))
    position, row = machine.walk(text)
    if position == len(text) and machine.nfa.final in machine.info(row).states:
        return URIError(f"does not match {rule}", text=text, position=position, rule=rule)
    char = text[position] if position < len(text) else None
    found, reason = machine.explain(row, char)
    return URIError(reason, text=text, position=position, rule=found)
