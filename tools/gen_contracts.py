"""Generate the contracts between the readable Python and the compiled core.

A contract is a number, a flag or an order that both sides must read alike.  Each is
taken from its source of truth and written twice, by this tool alone:

* ``src/urikit/_contracts.py``: ``Group`` (the number of each component of a
  reference), the scheme-rule layout of the compiled normalization, the report codes
  of the lenient reading's character repairs, the host types, the reference rules
  the scanner decides, and the outputs and operations of the column kernel;
* ``src/urikit/_c/contracts.h``: the same as C enums and constants.

The sources:

* the components: the names of ``urikit.types.Component``, numbered by the group of
  ``Grammar.reference`` (``urikit.grammar``) that holds each in a full match of
  :data:`EXAMPLE`, RFC 3986 §3;
* the host types: the order of ``urikit.types.HostType`` (RFC 3986 §3.2.2);
* the scheme rules: ``urikit.schemes.SPECIAL_RULES``, of which the compiled
  normalization applies :data:`COMPILED_RULES` (any other defers to the readable
  path), packed as ``(default port + 1) << SCHEME_PORT_SHIFT | flags`` (RFC 3986
  §6.2.3);
* the lenient codes: :data:`LENIENT_CODES`, each a code of ``urikit.character_repairs.SEVERITIES``;
* the reference rules: :data:`SCANNED_RULES`, each a rule of ``urikit.grammar.RULES``;
* the column kernel: its outputs, the components and then :data:`COLUMN_EXTRAS`, and
  its operations, :data:`COLUMN_OPERATIONS`.

Run ``python tools/gen_contracts.py`` to rewrite both files, ``--check`` to compare
only; ``tests/test_generated.py`` fails when either is stale.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

from _generated import write_or_check

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / "src" / "urikit" / "_contracts.py"
HEADER = ROOT / "src" / "urikit" / "_c" / "contracts.h"

#: A reference in which every component is defined and spelled as its name.
EXAMPLE = "scheme://userinfo@host:0/path?query#fragment"
EXAMPLE_TEXT = {
    "scheme": "scheme",
    "authority": "userinfo@host:0",
    "userinfo": "userinfo",
    "host": "host",
    "port": "0",
    "path": "/path",
    "query": "query",
    "fragment": "fragment",
}

#: The special rules of ``urikit.schemes.SPECIAL_RULES`` that the compiled normalization
#: applies itself, each with a flag of its own (RFC 8089 §2, RFC 6068 §2, RFC 8141 §3.1).
COMPILED_RULES = ("file-localhost", "mailto-domain", "urn-nid")
#: The bits of a scheme code below its default port.
SCHEME_PORT_SHIFT = 8

#: The report codes of the character repairs of the lenient reading, in the order of
#: ``urikit.character_repairs._classify`` for a forbidden character, then the repairs
#: that depend on where a character stands (RFC 3986 §2.1, §3.2.2, §3.5, Appendix C;
#: RFC 3987 §4.1).
LENIENT_CODES = (
    "bidi-formatting",
    "whitespace",
    "control",
    "backslash",
    "non-ascii",
    "forbidden-character",
    "bare-percent",
    "extra-hash",
    "bracket",
    "embedded-whitespace",
)

#: The rules the scanner decides from one scan: rule -> (IRI grammar, needs a scheme,
#: refuses a fragment, refuses a scheme); RFC 3986 §4.1-§4.3, RFC 3987 §2.2.
SCANNED_RULES = {
    "URI-reference": (False, False, False, False),
    "URI": (False, True, False, False),
    "absolute-URI": (False, True, True, False),
    "relative-ref": (False, False, False, True),
    "IRI-reference": (True, False, False, False),
    "IRI": (True, True, False, False),
    "absolute-IRI": (True, True, True, False),
    "irelative-ref": (True, False, False, True),
}

#: The outputs of the column kernel's split after the components: the host type, the
#: port number, and the error of a row that is not a reference.
COLUMN_EXTRAS = ("host_type", "port_number", "error")

#: The operations of the column kernel's map, each with what it answers for a row.
COLUMN_OPERATIONS = {
    "scalar": "every row answered by the scalar API (the fallback)",
    "itself": "a row that is a reference is its own answer",
    "normalize_syntax": "the normal form at the syntax rung (RFC 3986 §6.2.2)",
    "normalize_scheme": "the normal form at the scheme rung (RFC 3986 §6.2.3)",
    "resolve": "the target against one absolute URI (RFC 3986 §5.2)",
    "resolve_each": "the target against the row of a column of bases (RFC 3986 §5.2)",
}


def components() -> list[str]:
    """The components in the order of the groups of ``Grammar.reference``."""
    from urikit import grammar, types

    names = list(get_args(types.Component))
    match = grammar.URI_GRAMMAR.reference.fullmatch(EXAMPLE)
    if match is None or match.re.groups != len(names):
        raise AssertionError("Grammar.reference does not have a group per component")
    groups = match.groups()
    numbered = sorted(names, key=lambda name: groups.index(EXAMPLE_TEXT[name]))
    if [groups[k] for k in range(len(names))] != [EXAMPLE_TEXT[n] for n in numbered]:
        raise AssertionError("the groups of Grammar.reference do not spell the example")
    return numbered


def host_types() -> list[str]:
    from urikit import types

    return list(get_args(types.HostType))


def rule_flags() -> dict[str, int]:
    """The flag of each rule the compiled normalization applies, after the two of a
    scheme's own: an empty path is "/" (1), and defer to the readable path (2)."""
    from urikit.schemes import SPECIAL_RULES

    unknown = set(COMPILED_RULES) - set(SPECIAL_RULES)
    if unknown:
        raise AssertionError(f"no such special rules: {sorted(unknown)}")
    flags = {rule: 4 << k for k, rule in enumerate(COMPILED_RULES)}
    if max(flags.values()) >= 1 << SCHEME_PORT_SHIFT:
        raise AssertionError("the rule flags reach into the port")
    return flags


def lenient_codes() -> list[str]:
    from urikit.character_repairs import SEVERITIES

    unknown = set(LENIENT_CODES) - set(SEVERITIES)
    if unknown:
        raise AssertionError(f"no such lenient codes: {sorted(unknown)}")
    return list(LENIENT_CODES)


def scanned_rules() -> dict[str, tuple[bool, bool, bool, bool]]:
    from urikit.grammar import RULES

    unknown = set(SCANNED_RULES) - set(RULES)
    if unknown:
        raise AssertionError(f"no such rules: {sorted(unknown)}")
    return SCANNED_RULES


def _c_name(text: str) -> str:
    return text.upper().replace("-", "_")


def _py(value: object) -> str:
    """``value`` (a str, bool, int or a tuple of them) as ruff formats it."""
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, tuple):
        return "(" + ", ".join(_py(v) for v in value) + ")"
    return repr(value)


def _py_lines(name: str, values: Sequence[object]) -> list[str]:
    """``NAME: Final = (...)``, one value a line."""
    return [f"{name}: Final = (", *(f"    {_py(v)}," for v in values), ")"]


def _py_mapping(name: str, items: dict[str, object]) -> list[str]:
    """``NAME: Final = MappingProxyType({...})``, one item a line."""
    lines = [f"{name}: Final = MappingProxyType(", "    {"]
    lines += [f"        {_py(key)}: {_py(value)}," for key, value in items.items()]
    return [*lines, "    }", ")"]


_NOTE = "Generated by tools/gen_contracts.py; tests/test_generated.py fails when it is stale."


def render_python() -> str:
    """The text of ``_contracts.py``."""
    names = components()
    out = [
        '"""The numbers, flags and orders the readable Python and the compiled core share.',
        "",
        "``Group`` numbers the components of a reference: the group of each component in",
        "``Grammar.reference`` (RFC 3986 Appendix B numbers the same components in another",
        "order); the compiled core keeps the end of component ``g`` in slot ``g - 1``.",
        "The rest are the layouts and orders the C reads in ``_c/contracts.h``.",
        "",
        _NOTE,
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from enum import IntEnum",
        "from types import MappingProxyType",
        "from typing import Final",
        "",
        "__all__ = [",
        '    "COLUMN_EXTRAS",',
        '    "HOST_TYPES",',
        '    "LENIENT_CODES",',
        '    "SCANNED_RULES",',
        '    "SCHEME_DEFER",',
        '    "SCHEME_EMPTY_PATH_IS_ROOT",',
        '    "SCHEME_PORT_SHIFT",',
        '    "SCHEME_RULE_FLAGS",',
        '    "ColumnOperation",',
        '    "ColumnOutput",',
        '    "Group",',
        "]",
        "",
        "",
        "class Group(IntEnum):",
        '    """A component\'s number (0 is the whole text), RFC 3986 §3."""',
        "",
        "    TEXT = 0",
    ]
    out += [f"    {name.upper()} = {k + 1}" for k, name in enumerate(names)]
    out += [
        "",
        "",
        "#: The values of ``URI.host_type`` (RFC 3986 §3.2.2), in the order of the C codes.",
        *_py_lines("HOST_TYPES", host_types()),
        "",
        "#: A scheme code of the compiled normalization (RFC 3986 §6.2.3) is",
        "#: ``(default port + 1) << SCHEME_PORT_SHIFT`` (0 for none) with these flags.",
        f"SCHEME_PORT_SHIFT: Final = {SCHEME_PORT_SHIFT}",
        '#: The scheme\'s empty path after an authority is "/".',
        "SCHEME_EMPTY_PATH_IS_ROOT: Final = 1",
        "#: Only the readable path applies the scheme's rules.",
        "SCHEME_DEFER: Final = 2",
        "#: The flag of each special rule the compiled normalization applies itself.",
        *_py_mapping("SCHEME_RULE_FLAGS", dict(rule_flags())),
        "",
        "#: The report codes of the lenient reading's character repairs, by their C numbers.",
        *_py_lines("LENIENT_CODES", lenient_codes()),
        "",
        "#: rule -> (IRI grammar, needs a scheme, refuses a fragment, refuses a scheme) for",
        "#: the rules the scanner decides from one scan (RFC 3986 §4.1-§4.3).",
        *_py_mapping("SCANNED_RULES", dict(scanned_rules())),
        "",
        "#: The outputs of the column kernel's split after the components.",
        *_py_lines("COLUMN_EXTRAS", COLUMN_EXTRAS),
        "",
        "",
        "class ColumnOutput(IntEnum):",
        '    """The bit of each output of the column kernel\'s split: the components in',
        '    the order of ``Group``, then ``COLUMN_EXTRAS``."""',
        "",
    ]
    outputs = [*names, *COLUMN_EXTRAS]
    out += [f"    {name.upper()} = {k}" for k, name in enumerate(outputs)]
    out += [
        "",
        "",
        "class ColumnOperation(IntEnum):",
        '    """What the column kernel\'s map answers for a row itself."""',
        "",
    ]
    for k, (name, meaning) in enumerate(COLUMN_OPERATIONS.items()):
        out += [f"    #: {meaning}", f"    {name.upper()} = {k}"]
    out.append("")
    return "\n".join(out)


def render_header() -> str:
    """The text of ``_c/contracts.h``."""
    names = components()
    out = [
        "/* The numbers, flags and orders the compiled core shares with the readable Python",
        " * (urikit._contracts).",
        f" * {_NOTE} */",
        "#ifndef URIKIT_C_CONTRACTS_H",
        "#define URIKIT_C_CONTRACTS_H",
        "",
        "/* The components of a reference (RFC 3986 §3); component k is Group k + 1. */",
        "enum {",
    ]
    out += [f"    UK_C_{name.upper()} = {k}," for k, name in enumerate(names)]
    out += [
        f"    UK_COMPONENTS = {len(names)}",
        "};",
        "",
        "/* A scan's spans: component k from spans[2k] to spans[2k + 1], -1, -1 when it is",
        " * undefined (RFC 3986 §5.3). */",
        "enum {",
    ]
    out += [f"    UK_G_{name.upper()} = {2 * k}," for k, name in enumerate(names)]
    out += [
        f"    UK_SPANS = {2 * len(names)}",
        "};",
        "",
        "/* The values of URI.host_type (RFC 3986 §3.2.2). */",
        "enum {",
    ]
    out += [f"    UK_HOST_{_c_name(name)} = {k}," for k, name in enumerate(host_types())]
    out += [
        f"    UK_HOST_TYPES = {len(host_types())}",
        "};",
        "",
        "/* A scheme code (RFC 3986 §6.2.3): (default port + 1) << UK_SCHEME_PORT_SHIFT, 0 for",
        ' * none, with the flags: an empty path after an authority is "/", defer to the',
        " * readable path, and the special rule the compiled normalization applies. */",
        f"#define UK_SCHEME_PORT_SHIFT {SCHEME_PORT_SHIFT}",
        "enum {",
        "    UK_SCHEME_EMPTY_PATH_IS_ROOT = 1,",
        "    UK_SCHEME_DEFER = 2,",
    ]
    flags = rule_flags()
    out += [f"    UK_SCHEME_{_c_name(rule)} = {flag}," for rule, flag in flags.items()]
    out += [
        f"    UK_SCHEME_RULES = {(1 << SCHEME_PORT_SHIFT) - 4} /* the bits of the rules */",
        "};",
        "",
        "/* The report codes of the lenient reading's character repairs. */",
        "enum {",
    ]
    out += [f"    UK_L_{_c_name(code)} = {k}," for k, code in enumerate(lenient_codes())]
    out += [
        f"    UK_L_CODES = {len(LENIENT_CODES)}",
        "};",
        "",
        "/* The rules the scanner decides from one scan (RFC 3986 §4.1-§4.3). */",
        "typedef struct {",
        "    const char *name;",
        "    int iri, needs_scheme, no_fragment, no_scheme;",
        "} uk_scanned_rule;",
        f"#define UK_SCANNED_RULES {len(SCANNED_RULES)}",
        "#define UK_SCANNED_RULE_TABLE \\",
    ]
    rows = [
        f'    {{"{rule}", {", ".join(str(int(f)) for f in flags)}}}'
        for rule, flags in scanned_rules().items()
    ]
    out += [row + ", \\" for row in rows[:-1]] + [rows[-1], ""]
    out += [
        "/* The outputs of the column kernel's split: the components, then the rest. */",
        "enum {",
    ]
    outputs = [*names, *COLUMN_EXTRAS]
    out += [f"    UK_OUT_{_c_name(name)} = {k}," for k, name in enumerate(outputs)]
    out += [
        f"    UK_OUTPUTS = {len(outputs)}",
        "};",
        "",
        "/* The operations of the column kernel's map. */",
        "enum {",
    ]
    for k, (name, meaning) in enumerate(COLUMN_OPERATIONS.items()):
        out.append(f"    UK_OP_{_c_name(name)} = {k}, /* {meaning} */")
    out += [
        f"    UK_OPERATIONS = {len(COLUMN_OPERATIONS)}",
        "};",
        "",
        "#endif /* URIKIT_C_CONTRACTS_H */",
        "",
    ]
    return "\n".join(out)


def outputs() -> dict[Path, str]:
    """The text of each file this tool writes."""
    return {PYTHON: render_python(), HEADER: render_header()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a change")
    args = parser.parse_args(argv)
    return write_or_check(outputs(), check=args.check, tool=__file__)


if __name__ == "__main__":
    raise SystemExit(main())
