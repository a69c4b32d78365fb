"""Generate src/urikit/_speedups_tables.h, the character classes of the compiled scanner.

The classes are read from ``urikit.grammar`` (the single source of truth), where they are
regular-expression class bodies such as ``A-Za-z0-9\\-._~``.  Each body is parsed into
code-point ranges and checked against ``re`` itself at every range boundary.  The header
holds:

* one 128-entry table of flag bits, one bit per class, for the ASCII code points;
* the non-ASCII ranges of the IRI grammar (RFC 3987 §2.2): ``ucschar`` for the classes
  built on ``iunreserved``, and ``ucschar`` plus ``iprivate`` for ``iquery``, both
  without ``BIDI_FORMATTING`` (RFC 3987 §4.1).

The URI grammar has no non-ASCII members, and the IRI grammar differs from it only in
those ranges; both facts are checked here, so the C code can rely on them.

Run ``python tools/gen_tables.py`` to rewrite the header, ``--check`` to compare only.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from urikit import grammar as g

Ranges = list[tuple[int, int]]

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "src" / "urikit" / "_speedups_tables.h"

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


def _c_ranges(name: str, comment: str, ranges: Ranges) -> list[str]:
    lines = [f"/* {comment} */", f"static const uk_range {name}[] = {{"]
    lines += [f"    {{0x{lo:04X}, 0x{hi:04X}}}," for lo, hi in ranges]
    lines += ["};", f"#define {name.upper()}_COUNT {len(ranges)}", ""]
    return lines


def render() -> str:
    """The text of the header."""
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

    out = [
        "/* The character classes of src/urikit/grammar.py for the compiled scanner.",
        " * Generated by tools/gen_tables.py from urikit.grammar; tests/test_speedups.py",
        " * fails when this file and the grammar disagree. */",
        "#ifndef URIKIT_SPEEDUPS_TABLES_H",
        "#define URIKIT_SPEEDUPS_TABLES_H",
        "",
        "#include <stdint.h>",
        "",
        "/* One bit per class, for the code points U+0000-U+007F. */",
    ]
    for bit, (name, abnf, _) in enumerate(flags):
        out.append(f"#define UK_{name} (1u << {bit}) /* {abnf} */")
    out += ["", "static const uint16_t uk_ascii_class[128] = {"]
    for c in range(0x80):
        bits = [f"UK_{name}" for name, _, members in flags if c in members]
        shown = repr(chr(c)) if 0x20 <= c < 0x7F else f"U+{c:04X}"
        out.append(f"    /* {shown:>6} */ {' | '.join(bits) if bits else '0'},")
    out += [
        "};",
        "",
        "typedef struct {",
        "    uint32_t lo, hi; /* inclusive */",
        "} uk_range;",
        "",
    ]
    out += _c_ranges(
        "uk_iri_unreserved_ext",
        "RFC 3987 §2.2 ucschar, minus the bidi formatting characters (RFC 3987 §4.1): the\n"
        " * non-ASCII members of iunreserved and every IRI class built on it",
        ucschar,
    )
    out += _c_ranges(
        "uk_iri_query_ext",
        "RFC 3987 §2.2 iquery: ucschar and iprivate, minus the bidi formatting characters",
        merge(ucschar + iprivate),
    )
    out += ["#endif /* URIKIT_SPEEDUPS_TABLES_H */", ""]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a change")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = HEADER.read_text(encoding="utf-8") if HEADER.exists() else ""
        if current != text:
            print(f"{HEADER} is out of date; run python tools/gen_tables.py", file=sys.stderr)
            return 1
        return 0
    HEADER.write_text(text, encoding="utf-8")
    print(f"wrote {HEADER}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
