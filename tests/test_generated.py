"""Every generated file is what its generator writes today, and each contract holds on
both sides: the readable Python and the compiled core read the numbers, flags and
orders of ``urikit._contracts`` alike.

A generated file that is stale fails here: the generator is run in memory and its
text compared with the file's.  The generators are ``tools/gen_contracts.py`` (the
contracts), ``tools/gen_tables.py`` (the character classes and the locator's automata
of the C) and ``tools/gen_schemes.py`` (the scheme registry's data).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import get_args

import pytest
from generators import load_tool

from urikit import IRI, URI, _contracts, _seam, lenient, types, validate
from urikit._contracts import ColumnOperation, ColumnOutput, Group
from urikit.grammar import IRI_GRAMMAR, URI_GRAMMAR

ROOT = Path(__file__).resolve().parent.parent


def _outputs() -> list[tuple[str, Path, str]]:
    found = []
    for tool in ("gen_contracts", "gen_tables"):
        for path, text in load_tool(tool).outputs().items():
            found.append((tool, path, text))
    return found


OUTPUTS = _outputs()


@pytest.mark.parametrize(
    ("tool", "path", "text"), OUTPUTS, ids=[str(p.relative_to(ROOT)) for _, p, _ in OUTPUTS]
)
def test_generated_file_is_current(tool: str, path: Path, text: str) -> None:
    assert path.read_text(encoding="utf-8") == text, f"stale: run python tools/{tool}.py"


def test_scheme_data_is_current() -> None:
    pytest.importorskip("tomllib")
    gen = load_tool("gen_schemes")
    source = (ROOT / "tools" / "schemes.toml").read_text(encoding="utf-8")
    generated = (ROOT / "src" / "urikit" / "_scheme_data.py").read_text(encoding="utf-8")
    assert gen.render(source) == generated, "stale: run python tools/gen_schemes.py"


#: The generators whose files other test modules hold to them.
CHECKED_ELSEWHERE = {
    "gen_psl": "tests/test_sites_lookup.py",
    "gen_uts46": "tests/test_uts46.py",
    "gen_encoding_data": "tests/test_html_encodings.py",
}


def test_every_generator_is_checked() -> None:
    generators = {path.stem for path in (ROOT / "tools").glob("gen_*.py")}
    assert generators == {"gen_contracts", "gen_tables", "gen_schemes", *CHECKED_ELSEWHERE}
    for tool, test in CHECKED_ELSEWHERE.items():
        assert f"{tool}" in (ROOT / test).read_text(encoding="utf-8")


# --- the contracts, read on both sides -----------------------------------------------


@pytest.mark.parametrize("grammar", [URI_GRAMMAR, IRI_GRAMMAR], ids=["URI", "IRI"])
def test_group_numbers_the_groups_of_the_reference_pattern(grammar: object) -> None:
    # RFC 3986 §3: every component defined, each spelled differently.
    m = grammar.reference.fullmatch("s://u@h:1/p?q#f")  # type: ignore[attr-defined]
    assert m is not None
    assert [m.group(g) for g in Group] == ["s://u@h:1/p?q#f", "s", "u@h:1", "u", "h", "1",
                                           "/p", "q", "f"]  # fmt: skip
    assert [g.name.lower() for g in Group][1:] == list(get_args(types.Component))


@pytest.mark.parametrize("cls", [URI, IRI])
def test_group_numbers_the_spans_of_the_store(cls: type[URI]) -> None:
    u = cls("s://u@h:1/p?q#f")
    assert u._span(Group.TEXT) == (0, 15)
    assert [u._group(g) for g in Group][1:] == [
        getattr(u, name) for name in get_args(types.Component)
    ]
    assert u._span(Group.PORT) == (8, 9) and u._span(Group.FRAGMENT) == (14, 15)


def test_host_types_are_the_literal_type() -> None:
    assert get_args(types.HostType) == _contracts.HOST_TYPES
    hosts = {"ipv4": "http://1.2.3.4/", "ipv6": "http://[::1]/", "ipvfuture": "http://[v1.x]/",
             "reg-name": "http://a.example/"}  # fmt: skip
    assert [URI(hosts[name]).host_type for name in _contracts.HOST_TYPES] == list(hosts)


def _is_valid_str(text: object, rule: str) -> bool:
    return validate.is_valid(str(text), rule)


def test_scanned_rules_are_the_validators() -> None:
    # The compiled validator decides these rules from one scan (UK_SCANNED_RULE_TABLE);
    # every answer must be the grammar's, on either path.
    for rule, (iri, needs_scheme, no_fragment, no_scheme) in _contracts.SCANNED_RULES.items():
        assert validate.is_valid("s:p", rule) == (not no_scheme)
        assert validate.is_valid("p", rule) == (not needs_scheme)
        assert validate.is_valid("s:p#f", rule) == (not no_fragment and not no_scheme)
        assert validate.is_valid("s:\u00e9", rule) == (iri and not no_scheme)
        # The one-argument form of JSON Schema's formats: the same answers from one scan,
        # and anything but a str left to the fallback.
        conforms = _seam.Store._rule_validator(rule, partial(_is_valid_str, rule=rule))
        for text in ("s:p", "p", "s:p#f", "s:\u00e9", "a b"):
            assert conforms(text) == validate.is_valid(text, rule)
        assert conforms(12) == validate.is_valid("12", rule)


def test_lenient_codes_are_the_reports_of_the_repairs() -> None:
    assert _seam._ENCODE_CODES is _contracts.LENIENT_CODES
    assert set(_contracts.LENIENT_CODES) <= set(lenient.SEVERITIES)
    # One body with one repair of each code, in the order of the codes (RFC 3986 §2.1,
    # §3.2.2, §3.5, Appendix C; RFC 3987 §4.1): each report names its code.
    shown = {
        "bidi-formatting": "\u202e",
        "whitespace": " ",
        "control": "\x01",
        "backslash": "\\",
        "non-ascii": "\u00e9",
        "forbidden-character": "^",
        "bare-percent": "%",
        "extra-hash": "#",
        "bracket": "[",
    }
    text = "http://h/p?" + "x".join(shown.values())
    text = text.replace("#", "#y#", 1)  # a first "#" that stays, then the one repaired
    reports = URI.lenient(text).reports
    assert [r.code for r in reports] == list(shown)
    embedded = URI.lenient('"http://h/a b"').reports
    assert [r.code for r in embedded] == ["delimiters", "embedded-whitespace"]


def test_scheme_codes_are_the_layout() -> None:
    from urikit import _seam
    from urikit.schemes import DEFAULT_REGISTRY

    codes = _seam.scheme_codes(DEFAULT_REGISTRY)
    shift = _contracts.SCHEME_PORT_SHIFT
    assert codes["http"] >> shift == 80 + 1
    assert codes["http"] & _contracts.SCHEME_EMPTY_PATH_IS_ROOT
    assert codes["file"] & _contracts.SCHEME_RULE_FLAGS["file-localhost"]
    assert codes["mailto"] & _contracts.SCHEME_RULE_FLAGS["mailto-domain"]
    assert codes["urn"] & _contracts.SCHEME_RULE_FLAGS["urn-nid"]
    flags = [*_contracts.SCHEME_RULE_FLAGS.values(), _contracts.SCHEME_DEFER,
             _contracts.SCHEME_EMPTY_PATH_IS_ROOT]  # fmt: skip
    assert sum(flags) < 1 << shift and len(set(flags)) == len(flags)
    assert all(bin(flag).count("1") == 1 for flag in flags)


def test_column_outputs_and_operations() -> None:
    assert [o.name.lower() for o in ColumnOutput] == [
        *get_args(types.Component),
        *_contracts.COLUMN_EXTRAS,
    ]
    assert [o.value for o in ColumnOperation] == list(range(len(ColumnOperation)))
