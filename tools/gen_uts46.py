"""Generate the UTS #46 data of urikit from the Unicode data files of one pinned version.

Usage::

    python tools/gen_uts46.py            # rewrite the generated files
    python tools/gen_uts46.py --check    # exit 1 if either is out of date

Reads ``tools/data/unicode-17.0/`` (the files and their licence are described in its
``README.md``) and writes two files from the same tables:

* ``src/urikit/_uts46_data.py``: range tables for the readable Python (``urikit.uts46``);
* ``src/urikit/_c/whatwg/uts46_tables.h``: the same tables as C arrays, for the compiled
  WHATWG parser.

The tables hold what UTS #46 processing needs and nothing that Python's own
``unicodedata`` would give for another Unicode version:

* the IDNA Mapping Table (UTS #46 §5), with ``deviation`` folded into ``valid`` (urikit
  runs Nontransitional Processing only, where the two are treated alike);
* Bidi_Class (RFC 5893 §2), Joining_Type (RFC 5892 Appendix A), Canonical_Combining_Class
  (the virama of Appendix A.1 and A.2, canonical ordering) and General_Category=Mark
  (UTS #46 §4.1 criterion 6);
* the canonical decompositions and the primary composites of Normalization Form C
  (UAX #15), with the full composition exclusions derived as UAX #15 derives them.

The output depends only on the input files, so the same files always give the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from _generated import write_or_check

ROOT = Path(__file__).resolve().parent.parent
VERSION = "17.0.0"
DATA = ROOT / "tools" / "data" / "unicode-17.0"
PY_TARGET = ROOT / "src" / "urikit" / "_uts46_data.py"
C_TARGET = ROOT / "src" / "urikit" / "_c" / "whatwg" / "uts46_tables.h"

MAX = 0x110000

#: Status codes of the IDNA Mapping Table as stored (UTS #46 §5).
VALID, MAPPED, IGNORED, DISALLOWED = 0, 1, 2, 3
STATUS = {
    "valid": VALID,
    "deviation": VALID,
    "mapped": MAPPED,
    "ignored": IGNORED,
    "disallowed": DISALLOWED,
}

#: Bidi classes, in the order of their codes in the tables.
BIDI_NAMES = (
    "L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
    "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI",
)  # fmt: skip
#: Joining types (RFC 5892 Appendix A uses L, D, R and T); U is the default.
JOINING_NAMES = ("U", "C", "D", "L", "R", "T")
#: The long value names that ``# @missing`` lines use, by their short names.
LONG_NAMES = {
    "Left_To_Right": "L",
    "Right_To_Left": "R",
    "Arabic_Letter": "AL",
    "European_Terminator": "ET",
    "Non_Joining": "U",
}


# -- reading the files ---------------------------------------------------------------


def _lines(name: str) -> Iterator[list[str]]:
    """The fields of each data line of a UCD-style file, comments removed."""
    with (DATA / name).open(encoding="utf-8") as f:
        for line in f:
            body = line.split("#", 1)[0].strip()
            if body:
                yield [field.strip() for field in body.split(";")]


def _range(field: str) -> range:
    first, _, last = field.partition("..")
    return range(int(first, 16), int(last or first, 16) + 1)


def _missing(name: str) -> Iterator[tuple[range, str]]:
    """The ``# @missing`` defaults of a derived file, in file order."""
    with (DATA / name).open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("# @missing:"):
                fields = [x.strip() for x in line[len("# @missing:") :].split(";")]
                yield _range(fields[0]), LONG_NAMES.get(fields[1], fields[1])


def read_idna() -> tuple[list[int], list[str]]:
    """Per code point: the status code, and the mapping (``""`` unless mapped)."""
    status = [DISALLOWED] * MAX
    mapping = [""] * MAX
    for fields in _lines("IdnaMappingTable.txt"):
        code = STATUS[fields[1]]
        target = ""
        if code == MAPPED:
            target = "".join(chr(int(x, 16)) for x in fields[2].split())
        for cp in _range(fields[0]):
            status[cp] = code
            mapping[cp] = target
    return status, mapping


def read_unicode_data() -> tuple[list[int], list[bool], dict[int, tuple[int, ...]]]:
    """Canonical_Combining_Class, General_Category=Mark, canonical decompositions."""
    ccc = [0] * MAX
    mark = [False] * MAX
    decomposition: dict[int, tuple[int, ...]] = {}
    first = None
    for fields in _lines("UnicodeData.txt"):
        cp = int(fields[0], 16)
        name = fields[1]
        if name.endswith(", First>"):
            first = cp
            continue
        span = range(first, cp + 1) if name.endswith(", Last>") and first is not None else [cp]
        for c in span:
            ccc[c] = int(fields[3])
            mark[c] = fields[2] in ("Mn", "Mc", "Me")
        if fields[5] and not fields[5].startswith("<"):
            decomposition[cp] = tuple(int(x, 16) for x in fields[5].split())
    return ccc, mark, decomposition


def read_property(name: str, names: Sequence[str], default: str) -> list[int]:
    """A derived enumerated property, its ``@missing`` defaults applied first."""
    code = {n: i for i, n in enumerate(names)}
    values = [code[default]] * MAX
    for span, value in _missing(name):
        for cp in span:
            values[cp] = code[value]
    for fields in _lines(name):
        for cp in _range(fields[0]):
            values[cp] = code[fields[1]]
    return values


def compositions(
    ccc: Sequence[int], decomposition: dict[int, tuple[int, ...]]
) -> dict[tuple[int, int], int]:
    """The primary composites: pairs whose composition NFC makes (UAX #15 §3, §5)."""
    excluded = {cp for fields in _lines("CompositionExclusions.txt") for cp in _range(fields[0])}
    out = {}
    for cp, parts in decomposition.items():
        if len(parts) == 1:  # a singleton decomposition
            continue
        if ccc[cp] != 0 or ccc[parts[0]] != 0:  # a non-starter decomposition
            continue
        if cp in excluded:
            continue
        out[(parts[0], parts[1])] = cp
    return out


def ranges(values: Sequence[object]) -> tuple[list[int], list[object]]:
    """Run-length form of a per-code-point list: the start of each run and its value."""
    starts: list[int] = []
    out: list[object] = []
    previous: object = object()
    for cp, value in enumerate(values):
        if value != previous:
            starts.append(cp)
            out.append(value)
            previous = value
    return starts, out


class Tables:
    """Everything both outputs are written from."""

    def __init__(self) -> None:
        status, mapping = read_idna()
        self.mappings: list[str] = sorted({m for m in mapping if m})
        index = {m: i for i, m in enumerate(self.mappings)}
        # One value per code point: the status in the low 2 bits, the mapping's index above.
        idna = [s | (index[m] << 2 if m else 0) for s, m in zip(status, mapping, strict=True)]
        self.idna_starts, self.idna_values = ranges(idna)
        self.ccc, mark, self.decomposition = read_unicode_data()
        self.bidi = read_property("DerivedBidiClass.txt", BIDI_NAMES, "L")
        self.joining = read_property("DerivedJoiningType.txt", JOINING_NAMES, "U")
        self.mark = mark
        self.compose = compositions(self.ccc, self.decomposition)
        # The character properties in one value: bidi (5 bits), joining (3), mark (1), ccc (8).
        props = [
            b | (j << 5) | (int(m) << 8) | (c << 9)
            for b, j, m, c in zip(self.bidi, self.joining, mark, self.ccc, strict=True)
        ]
        self.props = props
        self.prop_starts, self.prop_values = ranges(props)


# -- the Python module ------------------------------------------------------------------


def _ints(values: Iterable[int], fmt: str = "0x{:X}", width: int = 96) -> str:
    """The values, comma-separated, in lines of at most ``width`` characters."""
    lines: list[str] = []
    line = "   "
    for item in (fmt.format(v) for v in values):
        if len(line) + len(item) + 2 > width:
            lines.append(line)
            line = "   "
        line += " " + item + ","
    if line.strip():
        lines.append(line)
    return "\n".join(lines)


def _escaped(s: str) -> str:
    out = []
    for ch in s:
        cp = ord(ch)
        if 0x20 <= cp < 0x7F and ch not in '\\"':
            out.append(ch)
        elif cp <= 0xFFFF:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(f"\\U{cp:08x}")
    return '"' + "".join(out) + '"'


def render_python(t: Tables) -> str:
    decomp = sorted(t.decomposition.items())
    flat_decomp = [x for cp, parts in decomp for x in (cp, len(parts), *parts)]
    flat_compose = [x for (a, b), c in sorted(t.compose.items()) for x in (a, b, c)]
    out = [
        '"""UTS #46 and NFC data for Unicode ' + VERSION + ", generated by tools/gen_uts46.py.",
        "",
        "Do not edit: run ``python tools/gen_uts46.py``.  The IDNA Mapping Table (UTS #46 §5)",
        "and the character properties are run-length tables: ``*_STARTS[i]`` is the first code",
        "point of run ``i`` and ``*_VALUES[i]`` its value.  An IDNA value holds the status in",
        "its low two bits (0 valid or deviation, 1 mapped, 2 ignored, 3 disallowed) and the",
        "index of its mapping in ``MAPPINGS`` above them.  A property value holds the Bidi_Class",
        "(5 bits, an index into ``BIDI_NAMES``), the Joining_Type (3 bits, into",
        "``JOINING_NAMES``), General_Category=Mark (1 bit) and Canonical_Combining_Class",
        "(8 bits), from the lowest bit up.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f'UNICODE_VERSION: Final = "{VERSION}"',
        "",
        "# fmt: off",
        "BIDI_NAMES: Final = (",
        *(f'    "{name}",' for name in BIDI_NAMES),
        ")",
        "JOINING_NAMES: Final = (",
        *(f'    "{name}",' for name in JOINING_NAMES),
        ")",
        "",
        "IDNA_STARTS: Final[tuple[int, ...]] = (",
        _ints(t.idna_starts),
        ")",
        "IDNA_VALUES: Final[tuple[int, ...]] = (",
        _ints(t.idna_values),  # type: ignore[arg-type]
        ")",
        "MAPPINGS: Final[tuple[str, ...]] = (",
        *("    " + _escaped(m) + "," for m in t.mappings),
        ")",
        "",
        "PROP_STARTS: Final[tuple[int, ...]] = (",
        _ints(t.prop_starts),
        ")",
        "PROP_VALUES: Final[tuple[int, ...]] = (",
        _ints(t.prop_values),  # type: ignore[arg-type]
        ")",
        "",
        "#: Canonical decompositions, flat: code point, length, then the parts.",
        "DECOMPOSITIONS: Final[tuple[int, ...]] = (",
        _ints(flat_decomp),
        ")",
        "#: Primary composites, flat: first, second, composite.",
        "COMPOSITIONS: Final[tuple[int, ...]] = (",
        _ints(flat_compose),
        ")",
        "",
    ]
    return "\n".join(out)


# -- the C header ----------------------------------------------------------------------

#: Code points per block of the two-stage tables of the C header.
BLOCK = 128


def _two_stage(values: Sequence[int]) -> tuple[list[int], list[int]]:
    """A block index per BLOCK code points and the distinct blocks, concatenated."""
    blocks: dict[tuple[int, ...], int] = {}
    index = []
    data: list[int] = []
    for start in range(0, MAX, BLOCK):
        block = tuple(values[start : start + BLOCK])
        if block not in blocks:
            blocks[block] = len(blocks)
            data.extend(block)
        index.append(blocks[block])
    return index, data


def _c_array(ctype: str, name: str, values: Sequence[int], per_line: int = 16) -> str:
    items = [str(v) for v in values]
    body = ",\n".join(
        "    " + ", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)
    )
    return f"static const {ctype} {name}[{len(values)}] = {{\n{body}\n}};\n"


def render_c(t: Tables) -> str:
    idna_cp = [0] * MAX
    for i, start in enumerate(t.idna_starts):
        end = t.idna_starts[i + 1] if i + 1 < len(t.idna_starts) else MAX
        for cp in range(start, end):
            idna_cp[cp] = t.idna_values[i]  # type: ignore[assignment]
    idna_index, idna_data = _two_stage(idna_cp)
    prop_index, prop_data = _two_stage(t.props)
    # Mappings as one UTF-32 array: mapping i is map_text[map_offset[i]:map_offset[i + 1]].
    offsets = [0]
    text: list[int] = []
    for m in t.mappings:
        text.extend(ord(c) for c in m)
        offsets.append(len(text))
    decomp = sorted(t.decomposition.items())
    d_offsets = [0]
    d_text: list[int] = []
    for _, parts in decomp:
        d_text.extend(parts)
        d_offsets.append(len(d_text))
    compose = sorted(t.compose.items())
    parts = [
        f"/* UTS #46 and NFC data for Unicode {VERSION}, generated by tools/gen_uts46.py.",
        " * Do not edit: run python tools/gen_uts46.py.",
        " *",
        " * Two-stage tables of BLOCK code points a block: the value of cp is",
        " * DATA[INDEX[cp / BLOCK] * BLOCK + cp % BLOCK].  An IDNA value holds the status in its",
        " * low 2 bits (0 valid or deviation, 1 mapped, 2 ignored, 3 disallowed) and the index of",
        " * its mapping above them; a property value holds Bidi_Class (5 bits), Joining_Type (3),",
        " * General_Category=Mark (1) and Canonical_Combining_Class (8), from the lowest bit up.",
        " */",
        "#ifndef URIKIT_WHATWG_UTS46_TABLES_H",
        "#define URIKIT_WHATWG_UTS46_TABLES_H",
        "#include <stdint.h>",
        "",
        f"#define UTS46_BLOCK {BLOCK}",
        f"#define UTS46_BIDI_COUNT {len(BIDI_NAMES)}",
        *(f"#define UTS46_BIDI_{n} {i}" for i, n in enumerate(BIDI_NAMES)),
        *(f"#define UTS46_JOINING_{n} {i}" for i, n in enumerate(JOINING_NAMES)),
        f"#define UTS46_DECOMPOSITION_COUNT {len(decomp)}",
        f"#define UTS46_COMPOSITION_COUNT {len(compose)}",
        "",
        _c_array("uint16_t", "uts46_idna_index", idna_index),
        _c_array("uint16_t", "uts46_idna_data", idna_data),
        _c_array("uint32_t", "uts46_map_offset", offsets),
        _c_array("uint32_t", "uts46_map_text", text),
        _c_array("uint16_t", "uts46_prop_index", prop_index),
        _c_array("uint32_t", "uts46_prop_data", prop_data),
        "/* Canonical decompositions, sorted by code point. */",
        _c_array("uint32_t", "uts46_decomp_cp", [cp for cp, _ in decomp]),
        _c_array("uint16_t", "uts46_decomp_offset", d_offsets),
        _c_array("uint32_t", "uts46_decomp_text", d_text),
        "/* Primary composites, sorted by (first, second). */",
        _c_array("uint32_t", "uts46_compose_first", [a for (a, _), _ in compose]),
        _c_array("uint32_t", "uts46_compose_second", [b for (_, b), _ in compose]),
        _c_array("uint32_t", "uts46_compose_result", [c for _, c in compose]),
        "#endif",
        "",
    ]
    return "\n".join(parts)


def outputs() -> dict[Path, str]:
    """Each generated file and the text it must hold."""
    t = Tables()
    return {PY_TARGET: render_python(t), C_TARGET: render_c(t)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if out of date")
    args = parser.parse_args(argv)
    return write_or_check(outputs(), check=args.check, tool=__file__)


if __name__ == "__main__":
    sys.exit(main())
