"""Generate the tables of the compiled core: its character classes and its error locator.

The classes are read from ``urikit.grammar`` (the single source of truth), where they are
regular-expression class bodies such as ``A-Za-z0-9\\-._~``.  Each body is parsed into
code-point ranges and checked against ``re`` itself at every range boundary.  The header
The classes are written to ``src/urikit/_c/classes.h`` (the flag bits and the
declarations) and ``src/urikit/_c/classes.c`` (the data):

* one 128-entry table of flag bits, one bit per class, for the ASCII code points;
* the non-ASCII ranges of the IRI grammar (RFC 3987 §2.2): ``ucschar`` for the classes
  built on ``iunreserved``, and ``ucschar`` plus ``iprivate`` for ``iquery``, both
  without ``BIDI_FORMATTING`` (RFC 3987 §4.1);
* the ranges of ``BIDI_FORMATTING`` themselves, which the lenient reading reports.

The URI grammar has no non-ASCII members, and the IRI grammar differs from it only in
those ranges; both facts are checked here, so the C code can rely on them.

It also generates src/urikit/_c/locate_tables.h, the automata that locate an error
(``_c/locate.c``, which alone includes it): the complete DFAs of ``urikit.diagnose.Automaton`` for
URI-reference and IRI-reference, each with and without the userinfo of an authority
(the four automata ``diagnose.locate`` walks), built state by state from the reference
code and minimized together (Moore's partition refinement) from a first partition by
what a state says: whether it accepts, and its explanation (rule, reason) for each
kind of failing character (``diagnose.KINDS``).  Two states are merged only when no
input tells them apart by acceptance, by position or by explanation, so the C walk
gives the answers of the Python one.  The header holds the alphabet's classes (an
ASCII table and the intervals above U+007F), the transitions (uint16 per class), each
state's acceptance and explanations, and the explanations' texts.

Run ``python tools/gen_tables.py`` to rewrite the three files, ``--check`` to compare only;
``tests/test_generated.py`` fails when one of them is stale.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from _generated import write_or_check

from urikit import grammar as g

Ranges = list[tuple[int, int]]

ROOT = Path(__file__).resolve().parent.parent
C_DIR = ROOT / "src" / "urikit" / "_c"
HEADER = C_DIR / "classes.h"
SOURCE = C_DIR / "classes.c"
LOCATE_HEADER = C_DIR / "locate_tables.h"

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


def _escape(body: str, i: int) -> tuple[int, int]:
    """The code point of the escape at ``body[i] == "\\"`` and the index after it."""
    if i + 1 >= len(body):
        raise ValueError(f"dangling backslash in class body {body!r}")
    c = body[i + 1]
    widths = {"x": 2, "u": 4, "U": 8}
    if c in widths:
        digits = body[i + 2 : i + 2 + widths[c]]
        if len(digits) != widths[c] or not re.fullmatch("[0-9A-Fa-f]+", digits):
            raise ValueError(f"bad \\{c} escape in class body {body!r}")
        return int(digits, 16), i + 2 + widths[c]
    if c in _SIMPLE_ESCAPES:
        return ord(_SIMPLE_ESCAPES[c]), i + 2
    if c.isalnum():
        # \d, \w, \s and friends are sets, not characters: the grammar does not use them.
        raise ValueError(f"unsupported escape \\{c} in class body {body!r}")
    return ord(c), i + 2


def _atom(body: str, i: int) -> tuple[int, int]:
    if body[i] == "\\":
        return _escape(body, i)
    return ord(body[i]), i + 1


def parse_class(body: str) -> Ranges:
    """The sorted, merged code-point ranges of a regular-expression class body."""
    if body.startswith("^"):
        raise ValueError(f"negated class bodies are not supported: {body!r}")
    ranges: Ranges = []
    i = 0
    while i < len(body):
        if body[i] == "[":
            raise ValueError(f"unescaped '[' in class body {body!r}")
        lo, i = _atom(body, i)
        # A "-" between two atoms is a range; first or last in the body it is itself.
        if i + 1 < len(body) and body[i] == "-":
            hi, i = _atom(body, i + 1)
            if hi < lo:
                raise ValueError(f"reversed range in class body {body!r}")
            ranges.append((lo, hi))
        else:
            ranges.append((lo, lo))
    return merge(ranges)


def merge(ranges: Iterable[tuple[int, int]]) -> Ranges:
    out: Ranges = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def subtract(ranges: Ranges, removed: Ranges) -> Ranges:
    out: Ranges = []
    for lo, hi in ranges:
        pieces = [(lo, hi)]
        for rlo, rhi in removed:
            next_pieces: Ranges = []
            for plo, phi in pieces:
                if rhi < plo or rlo > phi:
                    next_pieces.append((plo, phi))
                    continue
                if plo < rlo:
                    next_pieces.append((plo, rlo - 1))
                if rhi < phi:
                    next_pieces.append((rhi + 1, phi))
            pieces = next_pieces
        out.extend(pieces)
    return merge(out)


def split_ascii(ranges: Ranges) -> tuple[frozenset[int], Ranges]:
    """The ASCII members as a set, and the ranges above U+007F."""
    ascii_members = frozenset(c for lo, hi in ranges for c in range(lo, min(hi, 0x7F) + 1))
    upper = [(max(lo, 0x80), hi) for lo, hi in ranges if hi >= 0x80]
    return ascii_members, upper


def check_against_re(body: str, ranges: Ranges) -> None:
    """Every range boundary (and its neighbours) and all of ASCII agree with ``re``."""
    pattern = re.compile(f"[{body}]")
    probes = set(range(0x80))
    for lo, hi in ranges:
        probes.update({lo - 1, lo, hi, hi + 1})
    for c in probes:
        member = any(lo <= c <= hi for lo, hi in ranges)
        if 0 <= c <= 0x10FFFF and (pattern.fullmatch(chr(c)) is not None) != member:
            raise AssertionError(f"class body {body!r} parsed wrongly at U+{c:04X}")


def sequence_classes(source: str, count: int) -> list[str]:
    """The bodies of the first ``count`` bracketed classes in a rule's source."""
    bodies: list[str] = []
    i = 0
    while len(bodies) < count:
        start = source.index("[", i)
        j = start + 1
        while source[j] != "]":
            j += 2 if source[j] == "\\" else 1
        bodies.append(source[start + 1 : j])
        i = j + 1
    return bodies


# The flag bits, in order; each names the class body it is read from.
def class_bodies(grammar: g.Grammar) -> list[tuple[str, str, str]]:
    """(flag name, ABNF it stands for, class body) for every class the scanner uses."""
    scheme_first, scheme_rest = sequence_classes(grammar.sources["scheme"], 2)
    ipvfuture_tail = sequence_classes(grammar.sources["IPvFuture"], 3)[2]
    return [
        ("ALPHA", "ALPHA", g.ALPHA),
        ("DIGIT", "DIGIT", g.DIGIT),
        ("HEXDIG", "HEXDIG", g.HEXDIG),
        ("SCHEME_FIRST", "scheme = ALPHA ...", scheme_first),
        ("SCHEME", "... *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )", scheme_rest),
        ("UNRESERVED", "unreserved", grammar.unreserved),
        ("USERINFO", "userinfo = *( unreserved / pct-encoded / sub-delims / \":\" )",
         grammar.userinfo_chars),
        ("REG_NAME", "reg-name = *( unreserved / pct-encoded / sub-delims )",
         grammar.reg_name_chars),
        ("PCHAR", "pchar = unreserved / pct-encoded / sub-delims / \":\" / \"@\"",
         grammar.pchar),
        ("PCHAR_NC", "segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / \"@\" )",
         grammar.pchar_nc),
        ("PATH", "path: pchar / \"/\"", grammar.path_chars),
        ("QUERY", "query = *( pchar / \"/\" / \"?\" )", grammar.query_chars),
        ("FRAGMENT", "fragment = *( pchar / \"/\" / \"?\" )", grammar.fragment_chars),
        ("IPVFUTURE", "IPvFuture tail: 1*( unreserved / sub-delims / \":\" )", ipvfuture_tail),
        ("ZONE", "ZoneID = 1*( unreserved / pct-encoded )  (RFC 6874 §2)",
         g.URI_GRAMMAR.unreserved),
    ]  # fmt: skip


def _parsed(body: str) -> Ranges:
    ranges = parse_class(body)
    check_against_re(body, ranges)
    return ranges


def _c_ranges(name: str, comment: str, ranges: Ranges) -> tuple[list[str], list[str]]:
    """The declaration (for the header) and the definition of a table of ranges."""
    count = f"{name.upper()}_COUNT"
    declaration = [f"/* {comment} */", f"#define {count} {len(ranges)}"]
    declaration += [f"extern const uk_range {name}[{count}];", ""]
    definition = [f"const uk_range {name}[{count}] = {{"]
    definition += [f"    {{0x{lo:04X}, 0x{hi:04X}}}," for lo, hi in ranges]
    definition += ["};", ""]
    return declaration, definition


def _flags() -> list[tuple[str, str, frozenset[int]]]:
    """(flag name, ABNF, ASCII members) of each class, checked against both grammars."""
    bidi = _parsed(g.BIDI_FORMATTING)
    ucschar = subtract(_parsed(g.UCSCHAR), bidi)
    iprivate = subtract(_parsed(g.IPRIVATE), bidi)
    uri_classes = class_bodies(g.URI_GRAMMAR)
    iri_classes = class_bodies(g.IRI_GRAMMAR)
    flags: list[tuple[str, str, frozenset[int]]] = []
    for (name, abnf, uri_body), (_, _, iri_body) in zip(uri_classes, iri_classes, strict=True):
        uri_ascii, uri_upper = split_ascii(_parsed(uri_body))
        iri_ascii, iri_upper = split_ascii(subtract(_parsed(iri_body), bidi))
        if uri_upper:
            raise AssertionError(f"the URI class {name} has non-ASCII members")
        if uri_ascii != iri_ascii:
            raise AssertionError(f"the IRI class {name} differs from the URI class in ASCII")
        # RFC 3987 §2.2: only iunreserved (ucschar) and iquery (iprivate) are widened.
        expected: Ranges = []
        if name in {"UNRESERVED", "USERINFO", "REG_NAME", "PCHAR", "PCHAR_NC", "PATH",
                    "FRAGMENT"}:  # fmt: skip
            expected = ucschar
        elif name == "QUERY":
            expected = merge(ucschar + iprivate)
        if iri_upper != expected:
            raise AssertionError(f"the IRI class {name} is not the URI class widened as expected")
        flags.append((name, abnf, uri_ascii))
    if len(flags) > 16:
        raise AssertionError("more classes than bits in uint16_t")
    return flags


def _range_tables() -> list[tuple[list[str], list[str]]]:
    bidi = _parsed(g.BIDI_FORMATTING)
    ucschar = subtract(_parsed(g.UCSCHAR), bidi)
    iprivate = subtract(_parsed(g.IPRIVATE), bidi)
    return [
        _c_ranges(
            "uk_iri_unreserved_ext",
            "RFC 3987 §2.2 ucschar, minus the bidi formatting characters (RFC 3987 §4.1):\n"
            " * the non-ASCII members of iunreserved and every IRI class built on it",
            ucschar,
        ),
        _c_ranges(
            "uk_iri_query_ext",
            "RFC 3987 §2.2 iquery: ucschar and iprivate, minus the bidi formatting characters",
            merge(ucschar + iprivate),
        ),
        _c_ranges(
            "uk_bidi_formatting",
            "RFC 3987 §4.1: the bidi formatting characters, which no IRI may hold",
            bidi,
        ),
    ]


_GENERATED = (
    " * Generated by tools/gen_tables.py from urikit.grammar; tests/test_generated.py\n"
    " * fails when this file is stale. */"
)


def render() -> str:
    """The text of classes.h: the flag bits and the declarations of the tables."""
    flags = _flags()
    out = [
        "/* The character classes of src/urikit/grammar.py for the compiled core.",
        _GENERATED,
        "#ifndef URIKIT_C_CLASSES_H",
        "#define URIKIT_C_CLASSES_H",
        "",
        "#include <stdint.h>",
        "",
        "/* One bit per class, for the code points U+0000-U+007F. */",
    ]
    for bit, (name, abnf, _) in enumerate(flags):
        out.append(f"#define UK_{name} (1u << {bit}) /* {abnf} */")
    out += [
        "",
        "/* The classes of each code point U+0000-U+007F, by their bits. */",
        "extern const uint16_t uk_ascii_class[128];",
        "",
        "typedef struct {",
        "    uint32_t lo, hi; /* inclusive */",
        "} uk_range;",
        "",
    ]
    for declaration, _ in _range_tables():
        out += declaration
    out += ["#endif /* URIKIT_C_CLASSES_H */", ""]
    return "\n".join(out)


def render_source() -> str:
    """The text of classes.c: the tables classes.h declares."""
    flags = _flags()
    out = [
        "/* The tables of the character classes of src/urikit/grammar.py, declared in classes.h.",
        _GENERATED,
        '#include "classes.h"',
        "",
        "const uint16_t uk_ascii_class[128] = {",
    ]
    for c in range(0x80):
        bits = [f"UK_{name}" for name, _, members in flags if c in members]
        shown = repr(chr(c)) if 0x20 <= c < 0x7F else f"U+{c:04X}"
        out.append(f"    /* {shown:>6} */ {' | '.join(bits) if bits else '0'},")
    out += ["};", ""]
    for _, definition in _range_tables():
        out += definition
    return "\n".join(out).rstrip("\n") + "\n"


# --- the automata of the locator -------------------------------------------------------

#: The automata of locate_tables.h, in the order of uk_loc_start[iri][userinfo].
LOCATORS = (
    (g.URI_GRAMMAR, "URI-reference", False),
    (g.URI_GRAMMAR, "URI-reference", True),
    (g.IRI_GRAMMAR, "IRI-reference", False),
    (g.IRI_GRAMMAR, "IRI-reference", True),
)


class Locator:
    """The four automata of :data:`LOCATORS` as one minimized table.

    ``starts[i]`` is the start of automaton ``i``; ``table[s]`` the targets of state
    ``s`` by class (``None``: no transition); ``accepting[s]`` and ``explained[s]``, the
    index in ``explanations`` of its (rule, reason) for each kind of ``diagnose.KINDS``.
    """

    def __init__(self) -> None:
        from urikit import diagnose

        machines = [diagnose.automaton(gr, rule, userinfo=u) for gr, rule, u in LOCATORS]
        self.letters = diagnose.alphabet()
        count = self.letters.count
        nodes: list[tuple[int, diagnose.Row]] = []
        number: dict[int, int] = {}
        for a, machine in enumerate(machines):
            for row in machine.rows():
                number[id(row)] = len(nodes)
                nodes.append((a, row))
        succ = [[number[id(row[chr(k)])] if chr(k) in row else -1 for k in range(count)]
                for _, row in nodes]  # fmt: skip
        self.explanations: list[tuple[str, str]] = []
        seen: dict[tuple[str, str], int] = {}

        def says(a: int, row: diagnose.Row) -> tuple[object, ...]:
            machine = machines[a]
            kinds = range(len(diagnose.KINDS)) if machine.grammar.iri else (0, 1, 0)
            found = [machine.explain_kind(row, kind) for kind in kinds]
            return (machine.accepting(row), *(seen.setdefault(e, len(seen)) for e in found))

        first = [says(a, row) for a, row in nodes]
        self.explanations = list(seen)
        part = _numbered(first)
        while True:  # Moore: split blocks by the blocks their transitions reach
            refined = _numbered(
                [
                    (part[i], *(part[t] if t >= 0 else -1 for t in succ[i]))
                    for i in range(len(nodes))
                ]
            )
            if max(refined) == max(part):
                break
            part = refined
        # Number the blocks breadth-first from the starts, classes in order.
        heads = [number[id(m.start)] for m in machines]
        block_of: dict[int, int] = {}
        member: list[int] = []
        for head in heads:
            if part[head] not in block_of:
                block_of[part[head]] = len(member)
                member.append(head)
        for i in member:  # the list grows while it is walked
            for t in succ[i]:
                if t >= 0 and part[t] not in block_of:
                    block_of[part[t]] = len(member)
                    member.append(t)
        self.starts = [block_of[part[h]] for h in heads]
        self.table = [[block_of[part[t]] if t >= 0 else None for t in succ[i]] for i in member]
        self.accepting = [bool(first[i][0]) for i in member]
        self.explained = [list(first[i][1:]) for i in member]
        self.kinds = machines[2].kinds
        self.non_ascii_reason = diagnose._NON_ASCII_REASON


def _numbered(keys: Sequence[object]) -> list[int]:
    """Each key replaced by the number of its first appearance."""
    numbers: dict[object, int] = {}
    return [numbers.setdefault(key, len(numbers)) for key in keys]


def _c_rows(values: Sequence[str], per_line: int) -> list[str]:
    """``values`` as lines of an array initializer, ``per_line`` to a line."""
    return [f"    {', '.join(values[i : i + per_line])}," for i in range(0, len(values), per_line)]


def _c_string(text: str) -> str:
    """``text`` as a C string literal of its UTF-8 octets."""
    out = []
    for byte in text.encode("utf-8"):
        if byte in (0x22, 0x5C):
            out.append("\\" + chr(byte))
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def render_locate() -> str:
    """The text of locate_tables.h."""
    loc = Locator()
    letters = loc.letters
    count = letters.count
    states = len(loc.table)
    if states >= 0xFFFF or len(loc.explanations) > 0xFF or count > 64:
        raise AssertionError("the locator outgrew its integer types")
    out = [
        "/* The automata that locate an error in a URI-reference or IRI-reference, for",
        " * locate.c, which alone includes it.  Generated by tools/gen_tables.py from",
        " * urikit.diagnose (the complete DFAs of diagnose.Automaton, minimized without",
        " * merging states that differ in any explanation); tests/test_generated.py fails",
        " * when this file is stale. */",
        "#ifndef URIKIT_C_LOCATE_TABLES_H",
        "#define URIKIT_C_LOCATE_TABLES_H",
        "",
        "#include <stdint.h>",
        "",
        f"#define UK_LOC_CLASSES {count}",
        f"#define UK_LOC_STATES {states}",
        f"#define UK_LOC_EXPLANATIONS {len(loc.explanations)}",
        "#define UK_LOC_NONE 0xFFFFu /* no transition */",
        "",
        "/* The class of each code point U+0000-U+007F (diagnose.Alphabet). */",
        "static const uint8_t uk_loc_ascii[128] = {",
    ]
    ascii_ids = [letters.class_of(chr(c)) for c in range(0x80)]
    out += _c_rows([str(k) for k in ascii_ids], 16)
    # The intervals above U+007F: each from its start to the next start.
    bounds = zip(letters.starts, [*letters.starts[1:], 0x110000], letters.ids, strict=True)
    wide = [(max(start, 0x80), k) for start, end, k in bounds if end > 0x80]
    out += [
        "};",
        "",
        "/* The classes above U+007F: code points from uk_loc_wide_start[i] up to the next",
        " * start are of the class uk_loc_wide_class[i]. */",
        f"#define UK_LOC_WIDE {len(wide)}",
        "static const uint32_t uk_loc_wide_start[UK_LOC_WIDE] = {",
    ]
    out += _c_rows([f"0x{start:05X}" for start, _ in wide], 8)
    out += ["};", "static const uint8_t uk_loc_wide_class[UK_LOC_WIDE] = {"]
    out += _c_rows([str(k) for _, k in wide], 16)
    out += [
        "};",
        "",
        "/* What a class can change in an explanation (diagnose.KINDS): 0 any character,",
        " * 1 a colon, 2 a bidi formatting character (RFC 3987 §4.1). */",
        "static const uint8_t uk_loc_kind[UK_LOC_CLASSES] = {",
        f"    {', '.join(map(str, loc.kinds))},",
        "};",
        "",
        "/* The start of each automaton: [iri][userinfo], userinfo 0 for the rule without the",
        ' * userinfo of an authority (an authority without "@", urikit.diagnose). */',
        "static const uint16_t uk_loc_start[2][2] = {",
        f"    {{{loc.starts[0]}, {loc.starts[1]}}},",
        f"    {{{loc.starts[2]}, {loc.starts[3]}}},",
        "};",
        "",
        "/* Whether the input is complete in a state, and its explanation (an index of",
        " * uk_loc_explanation_texts) of a failure there by kind of character. */",
        "typedef struct {",
        "    uint8_t accepting;",
        "    uint8_t explanation[3];",
        "} uk_loc_state;",
        "",
        "static const uk_loc_state uk_loc_states[UK_LOC_STATES] = {",
    ]
    for accepting, explained in zip(loc.accepting, loc.explained, strict=True):
        out.append(f"    {{{int(accepting)}, {{{', '.join(map(str, explained))}}}}},")
    out += [
        "};",
        "",
        "/* The target of each state by class; N: none. */",
        "#define N UK_LOC_NONE",
        "static const uint16_t uk_loc_next[UK_LOC_STATES][UK_LOC_CLASSES] = {",
    ]
    for s, row in enumerate(loc.table):
        cells = ",".join("N" if t is None else str(t) for t in row)
        out.append(f"    /* {s} */ {{{cells}}},")
    out += [
        "};",
        "#undef N",
        "",
        "/* The classes each state reads without leaving it, one bit per class: a walk",
        " * skips a run of them with no load that waits on the state. */",
        "static const uint64_t uk_loc_stay[UK_LOC_STATES] = {",
    ]
    stay = [sum(1 << k for k, t in enumerate(row) if t == s) for s, row in enumerate(loc.table)]
    out += _c_rows([f"0x{m:X}u" for m in stay], 6)
    out += [
        "};",
        "",
        "/* The rule and the reason of each explanation, UTF-8. */",
        "typedef struct {",
        "    const char *rule;",
        "    const char *reason;",
        "} uk_loc_explanation;",
        "",
        "static const uk_loc_explanation uk_loc_explanation_texts[UK_LOC_EXPLANATIONS] = {",
    ]
    for rule, reason in loc.explanations:
        out.append(f"    {{{_c_string(rule)},")
        out.append(f"     {_c_string(reason)}}},")
    out += [
        "};",
        "",
        "/* The reason of a character above U+007F in a URI (RFC 3986 §2). */",
        f"static const char uk_loc_non_ascii_text[] = {_c_string(loc.non_ascii_reason)};",
        "",
        "#endif /* URIKIT_C_LOCATE_TABLES_H */",
        "",
    ]
    return "\n".join(out)


def outputs() -> dict[Path, str]:
    """The text of each file this tool writes."""
    return {HEADER: render(), SOURCE: render_source(), LOCATE_HEADER: render_locate()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a change")
    args = parser.parse_args(argv)
    return write_or_check(outputs(), check=args.check, tool=__file__)


if __name__ == "__main__":
    raise SystemExit(main())
