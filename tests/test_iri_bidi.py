"""Bidi IRIs: RFC 3987 §4.2 (structure, reported) and §4.4 (examples).

§4.4 writes right-to-left letters as upper-case ASCII; here "A" to "V" become the
22 Hebrew letters alef to tav, and lower-case letters stay left-to-right.
"""

from __future__ import annotations

import pytest

from urikit import IRI, URIError
from urikit.bidi import bidi_reports, find_bidi_formatting
from urikit.bidi import check_bidi as check_parts
from urikit.components import Parts
from urikit.report import Report, Severity


def _parts(ref: IRI) -> Parts:
    return Parts(*(getattr(ref, name) for name in Parts._fields))


def bidi_violations(text: str | IRI) -> list[Report]:
    iri = IRI(text)
    return bidi_reports(_parts(iri), str(iri))


def check_bidi(text: str | IRI) -> None:
    iri = IRI(text)
    check_parts(_parts(iri), str(iri))


# alef to tav without the final forms
HEBREW = "".join(
    chr(c) for c in range(0x05D0, 0x05EB) if c not in (0x05DA, 0x05DD, 0x05DF, 0x05E3, 0x05E5)
)
RTL = str.maketrans("ABCDEFGHIJKLMNOPQRSTUV", HEBREW)


def bidi(logical: str) -> str:
    """A §4.4 example in Bidi Notation, with real right-to-left letters."""
    return logical.translate(RTL)


ALLOWED = {
    "Example 1": "http://ab.CDEFGH.ij/kl/mn/op.html",
    "Example 2": "http://ab.CDE.FGH/ij/kl/mn/op.html",
    "Example 3": "http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV",
    "Example 4": "http://AB.CD.ef/gh/IJ/KL.html",
    "Example 5": "http://ab.cd.EF/GH/ij/kl.html",
    "Example 6": "http://ab.CD.EF/GH/IJ/kl.html",
    "Example 7": "http://ab.CDE123FGH.ij/kl/mn/op.html",
    "Example 10": "http://ab.CDEFGH.123/kl/mn/op.html",
}

NOT_ALLOWED = {
    # (logical representation, positions of the violations)
    "Example 8": ("http://ab.cd.ef/GH1/2IJ/KL.html", [18, 20]),
    "Example 9": ("http://ab.cd.ef/GH%31/%32IJ/KL.html", [20, 22]),
}


@pytest.mark.parametrize("name", ALLOWED)
def test_4_4_allowed_examples(name: str) -> None:
    iri = IRI(bidi(ALLOWED[name]))
    assert bidi_violations(iri) == []
    assert iri.bidi_reports() == []
    check_bidi(iri)


@pytest.mark.parametrize("name", NOT_ALLOWED)
def test_4_4_examples_not_allowed(name: str) -> None:
    logical, positions = NOT_ALLOWED[name]
    violations = bidi_violations(bidi(logical))
    assert [v.position for v in violations] == positions
    assert {v.code for v in violations} == {"bidi-rtl-boundary"}
    with pytest.raises(URIError) as info:
        check_bidi(bidi(logical))
    assert info.value.position == positions[0]
    assert info.value.rule == "isegment"


def test_4_2_restriction_1_mixed_directions() -> None:
    text = bidi("http://example.org/ABcdE")
    (violation,) = bidi_violations(text)
    assert violation == Report(
        "bidi-mixed-direction", violation.message, Severity.LOW, (21, 22), False, "path"
    )
    assert text[slice(*violation.span)] == "c"
    assert "restriction 1" in violation.message


def test_4_2_restriction_2_start_and_end() -> None:
    text = bidi("http://example.org/?q=1AB&r=AB-")
    codes = [(v.code, v.position, text[slice(*v.span)]) for v in bidi_violations(text)]
    assert codes == [("bidi-rtl-boundary", 22, "1"), ("bidi-rtl-boundary", 30, "-")]


def test_4_2_components() -> None:
    # iuserinfo (each ":" part), ireg-name (each label), isegment, iquery, ifragment
    for logical, rule in [
        ("http://ABc@example.org/", "iuserinfo"),
        ("http://AB.cD/", "ireg-name"),
        ("http://a/Ab", "isegment"),
        ("http://a/?Ab", "iquery"),
        ("http://a/#A-b", "ifragment"),
    ]:
        with pytest.raises(URIError) as info:
            check_bidi(bidi(logical))
        assert info.value.rule == rule
    assert bidi_violations(bidi("http://AB:CD@a/")) == []


def test_4_2_ascii_and_ltr_iris_have_no_violations() -> None:
    assert bidi_violations("http://example.org/a/b?c=d#e") == []
    assert bidi_violations("http://r\u00e9sum\u00e9.example.org/\u00fc") == []
    assert bidi_violations(IRI("http://[::1]/")) == []


def test_arguments_are_parts_and_text() -> None:
    parts = _parts(IRI("http://a/"))
    with pytest.raises(TypeError):
        bidi_reports(parts, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_parts(tuple(parts), "http://a/")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        find_bidi_formatting(b"\xe2")  # type: ignore[arg-type]


def test_reports_say_which_component() -> None:
    text = bidi("http://ABc@AB.cD/Ab?Ab#A-b")
    components = list(dict.fromkeys(v.component for v in bidi_violations(text)))
    assert components == ["userinfo", "host", "path", "query", "fragment"]
    assert all(not v.repaired and v.severity == "low" for v in bidi_violations(text))


def test_4_1_find_bidi_formatting() -> None:
    assert find_bidi_formatting("http://a/") is None
    assert find_bidi_formatting("http://a/\u00e9") is None
    assert find_bidi_formatting("http://a/\u202e") == 9
    assert find_bidi_formatting("\u2069") == 0
