"""Rules compiled into a lookup: a trie of labels, each node holding its answers.

The formal algorithm of the Public Suffix List (publicsuffix.org/list/) matches a
domain against every rule, then takes the *prevailing* rule:

1. Match the domain against all rules and take note of the matching ones.
2. If no rules match, the prevailing rule is "*".
3. If more than one rule matches, the prevailing rule is the one which is an
   exception rule.
4. If there is no matching exception rule, the prevailing rule is the one with the
   most labels.
5. If the prevailing rule is an exception rule, modify it by removing the leftmost label.
6. The public suffix is the set of labels from the domain which match the labels of
   the prevailing rule, using the matching algorithm above.
7. The registrable domain is the public suffix plus one additional label.

A rule matches a domain when the domain has at least as many labels and, from the
right, each label of the rule is the domain's label or ``*``.  So the rules a domain
matches depend on its labels read from the right, and the answer of steps 2-6 (how many
labels the public suffix has) can be computed once for every path of labels that some
rule spells.  This module does that: it builds the trie of the rules' labels, read from
the right, and gives each node two answers:

* ``end``: for a domain whose labels are exactly the node's path;
* ``more``: for a domain with a further label to the left that no edge of the node
  spells (that label can still match a wildcard rule ``*.<path>``).

A lookup walks the domain's labels from the right along the edges and takes ``end`` when
the labels run out, ``more`` when a label has no edge: one dictionary lookup a label,
whatever the size of the list.  Since a ``*`` is only ever the leftmost label of a rule
(``_rules`` refuses the rest), a wildcard never needs a node of its own.

Where several rules of the most labels match, the answer names one of the ICANN section
before one of the private section, and a rule without ``*`` before one with it; the
number of labels is the same.  Among exception rules (steps 3 and 5), the one with the
most labels prevails.  Each node carries the answers twice: with every rule, and with
the ICANN section's rules only.

A wildcard rule ``*.X`` also stands for the rule ``X``, as browsers, libpsl and the
list's own linter read it: the list names ``*.kobe.jp`` and ``!city.kobe.jp`` but not
``kobe.jp``, and its tests take ``kobe.jp`` for the public suffix of ``city.kobe.jp``.
Read literally, the algorithm would make ``kobe.jp`` itself a registrable domain
(``docs/deviations.md``).

The table is plain data, so that code in another language can read it as well:

* nodes are numbered breadth-first from the root, 0; every edge leads to a node of a
  higher number;
* the edges of node ``i`` are ``edge_start[i]`` up to ``edge_start[i + 1]``, sorted by
  label in code point order (the order of their UTF-8 octets); ``edge_labels[e]`` is a
  label in lower case and ``edge_targets[e]`` the node it leads to.  A label written in
  Unicode on the list (a U-label) has two edges to the same node: one with the U-label,
  one with its A-label (``xn--`` and its Punycode, RFC 3492), so that a host written
  either way is read without conversion;
* ``values[4 * i : 4 * i + 4]`` are node ``i``'s answers ``end`` and ``more`` with every
  rule, then ``end`` and ``more`` with the ICANN rules.  An answer is a 16-bit number:
  bits 0-7 hold how many labels the public suffix has, bits 8-10 the kind of the
  prevailing rule (:data:`KINDS`), bit 11 its section (0 ICANN, 1 private).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from ._rules import WILDCARD, Kind, Rule, RuleList, Section

#: The kinds of prevailing rule, by their number in an answer.
KINDS: Final = (
    "implicit", "normal", "wildcard", "exception", "wildcard exception", "wildcard parent"
)  # fmt: skip
IMPLICIT, NORMAL, WILD, EXCEPTION, WILD_EXCEPTION, PARENT = range(6)

COUNT_MASK: Final = 0xFF
KIND_SHIFT: Final = 8
KIND_MASK: Final = 0x7
SECTION_SHIFT: Final = 11
SECTIONS: Final[tuple[Section, Section]] = ("icann", "private")

#: The answer of the implicit rule "*" (step 2): one label.
IMPLICIT_ANSWER: Final = 1


@dataclass(frozen=True, slots=True)
class Table:
    """A compiled list: see the module's description of the arrays."""

    edge_start: tuple[int, ...]
    edge_labels: tuple[str, ...]
    edge_targets: tuple[int, ...]
    values: tuple[int, ...]
    version: str | None = None
    commit: str | None = None


def label_forms(label: str) -> tuple[str, ...]:
    """The spellings of a label the rules are matched in: its A-label first, then its U-label.

    A label that is not ASCII is a U-label; its A-label is ``xn--`` and the Punycode of
    it (RFC 3492).  An ``xn--`` label whose Punycode decodes, and encodes back to the
    same label, also has that U-label.
    """
    if not label.isascii():
        try:
            return ("xn--" + label.encode("punycode").decode("ascii"), label)
        except UnicodeError:
            return (label,)
    if label.startswith("xn--"):
        try:
            decoded = label[4:].encode("ascii").decode("punycode")
        except UnicodeError:
            return (label,)
        if not decoded.isascii() and decoded.encode("punycode").decode("ascii") == label[4:]:
            return (label, decoded.lower()) if decoded == decoded.lower() else (label,)
    return (label,)


@dataclass(eq=False)
class _Node:
    """A node of the trie while it is built: the rules that end at it."""

    depth: int
    children: dict[str, _Node] = field(default_factory=dict)
    #: the rules whose labels are the node's path (normal and exception rules), and
    #: the rules ``*.<path>``, which match one more label of any spelling: one of each
    #: kind and section, the first written (the others are the same rule again)
    spelled: dict[tuple[Kind, Section], Rule] = field(default_factory=dict)
    wild: dict[tuple[Kind, Section], Rule] = field(default_factory=dict)
    #: the spellings of the label of the edge that leads here
    forms: tuple[str, ...] = ()

    @property
    def rules(self) -> list[Rule]:
        return list(self.spelled.values())

    @property
    def wildcards(self) -> list[Rule]:
        return list(self.wild.values())


def _trie(rules: Iterable[Rule]) -> _Node:
    root = _Node(0)
    for rule in rules:
        labels = rule.labels[1:] if rule.labels[0] == WILDCARD else rule.labels
        node = root
        for label in reversed(labels):
            forms = label_forms(label)
            child = node.children.get(forms[0])
            if child is None:
                child = node.children[forms[0]] = _Node(node.depth + 1, forms=forms)
            node = child
        kept = node.wild if rule.labels[0] == WILDCARD else node.spelled
        kept.setdefault((rule.kind, rule.section), rule)
    return root


# -- the prevailing rule (steps 2-5) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Prevailing:
    """The prevailing rule among those matched so far on a path of labels."""

    #: the longest rule that is not an exception (step 4), as (labels, rank, answer)
    longest: tuple[int, int, int]
    #: the longest exception rule, if any (step 3), likewise
    exception: tuple[int, int, int] | None = None

    def answer(self) -> int:
        return (self.exception or self.longest)[2]


_IMPLICIT: Final = _Prevailing((1, -1, IMPLICIT_ANSWER))  # step 2


def _answer(count: int, kind: int, rule: Rule) -> int:
    section = SECTIONS.index(rule.section)
    return count | kind << KIND_SHIFT | section << SECTION_SHIFT


def _matched(
    prevailing: _Prevailing, rules: Iterable[Rule], icann: bool, *, parents: bool = False
) -> _Prevailing:
    """``prevailing`` once ``rules``, which match the path too, are noted (steps 1, 3, 4).

    With ``parents``, ``rules`` are wildcard rules ``*.X`` and what is noted is the rule
    ``X`` each stands for (see the module's description); exceptions stand for nothing.
    """
    longest, exception = prevailing.longest, prevailing.exception
    for rule in rules:
        if icann and rule.section != "icann":
            continue
        wildcard = rule.labels[0] == WILDCARD
        size = len(rule.labels)
        if parents:
            if rule.kind == "exception" or size < 2:
                continue
            size -= 1
        # At the same length: ICANN before private, then a rule as written before one
        # with a "*", before one a wildcard stands for.
        rank = (rule.section == "icann") * 4 + (0 if parents else 1 if wildcard else 2)
        if rule.kind == "exception":
            kind = WILD_EXCEPTION if wildcard else EXCEPTION
            candidate = (size, rank, _answer(size - 1, kind, rule))  # step 5
            if exception is None or candidate[:2] > exception[:2]:
                exception = candidate
        else:
            kind = PARENT if parents else WILD if wildcard else NORMAL
            candidate = (size, rank, _answer(size, kind, rule))
            if candidate[:2] > longest[:2]:
                longest = candidate
    return _Prevailing(longest, exception)


def compile_rules(rule_list: RuleList) -> Table:
    """The lookup table of ``rule_list`` (see the module's description)."""
    root = _trie(rule_list.rules)
    order: list[_Node] = [root]
    # The rules matched on the path to each node, for every rule and for ICANN's.
    matched: dict[int, tuple[_Prevailing, _Prevailing]] = {id(root): (_IMPLICIT, _IMPLICIT)}
    values: list[int] = []
    edge_start: list[int] = []
    edge_labels: list[str] = []
    edge_targets: list[int] = []
    for node in order:  # breadth first: ``order`` grows as it is read
        answers = []
        for icann, here in zip((False, True), matched[id(node)], strict=True):
            answers += [here.answer(), _matched(here, node.wildcards, icann).answer()]
        values += answers
        edges = []
        for child in node.children.values():
            number = len(order)
            order.append(child)
            # The child's label matches the child's rules, the node's wildcards, and
            # the rules the child's wildcards stand for.
            spelled = [*child.rules, *node.wildcards]
            every, icann_only = matched[id(node)]
            matched[id(child)] = (
                _matched(_matched(every, spelled, False), child.wildcards, False, parents=True),
                _matched(_matched(icann_only, spelled, True), child.wildcards, True, parents=True),
            )
            edges += [(form, number) for form in child.forms]
        edge_start.append(len(edge_labels))
        for label, target in sorted(edges):
            edge_labels.append(label)
            edge_targets.append(target)
    edge_start.append(len(edge_labels))
    return Table(
        tuple(edge_start),
        tuple(edge_labels),
        tuple(edge_targets),
        tuple(values),
        rule_list.version,
        rule_list.commit,
    )


def answer_parts(answer: int) -> tuple[int, str, Section | None]:
    """An answer's (labels of the public suffix, kind of rule, section or None)."""
    kind = KINDS[answer >> KIND_SHIFT & KIND_MASK]
    section = None if kind == "implicit" else SECTIONS[answer >> SECTION_SHIFT & 1]
    return answer & COUNT_MASK, kind, section


# -- the table as text, for a generated module ------------------------------------------


def _hex(numbers: Iterable[int], width: int) -> str:
    return "".join(f"{number:0{width}x}" for number in numbers)


def _numbers(text: str, width: int) -> tuple[int, ...]:
    data = bytes.fromhex(text)
    code = {4: "H", 8: "I"}[width]
    return struct.unpack(f">{len(data) * 2 // width}{code}", data)


def table_text(table: Table) -> dict[str, str]:
    """``table`` as the strings of a generated module (read back by :func:`table_from_text`).

    Numbers are written in hexadecimal, 4 digits each when every index fits in 16
    bits, else 8 (``index_width``); each node's four answers are one of the distinct
    quadruples ``answer_sets``, named by its index in ``node_answers``.
    """
    quadruples = sorted({table.values[i : i + 4] for i in range(0, len(table.values), 4)})
    number = {quadruple: index for index, quadruple in enumerate(quadruples)}
    nodes = [number[table.values[i : i + 4]] for i in range(0, len(table.values), 4)]
    largest = max(len(table.edge_labels), len(table.edge_start), len(quadruples))
    width = 4 if largest < 1 << 16 else 8
    return {
        "index_width": str(width),
        "edge_start": _hex(table.edge_start, width),
        "edge_labels": "\n".join(table.edge_labels),
        "edge_targets": _hex(table.edge_targets, width),
        "answer_sets": _hex((value for quadruple in quadruples for value in quadruple), 4),
        "node_answers": _hex(nodes, width),
    }


def table_from_text(
    fields: dict[str, str], version: str | None = None, commit: str | None = None
) -> Table:
    """The table that :func:`table_text` wrote as ``fields``."""
    width = int(fields["index_width"])
    sets = _numbers(fields["answer_sets"], 4)
    values: list[int] = []
    for index in _numbers(fields["node_answers"], width):
        values += sets[4 * index : 4 * index + 4]
    labels = fields["edge_labels"]
    return Table(
        _numbers(fields["edge_start"], width),
        tuple(labels.split("\n")) if labels else (),
        _numbers(fields["edge_targets"], width),
        tuple(values),
        version,
        commit,
    )
