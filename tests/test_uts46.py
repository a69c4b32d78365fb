"""UTS #46 host processing (urikit.uts46), Punycode (RFC 3492) and NFC on Unicode 17.0.

The conformance vectors (toascii.json, IdnaTestV2.json) run in test_whatwg_wpt.py; here
are the algorithms' own examples, the generated data's staleness, and cross-checks against
independent implementations: Python's punycode codec, ``unicodedata`` NFC on characters
both versions assign, and the ``idna`` package's UTS #46 table.
"""

from __future__ import annotations

import bisect
import pickle
import unicodedata
from pathlib import Path

import pytest
from generators import load_tool
from hypothesis import given
from hypothesis import strategies as st

from urikit import _uts46_data, punycode, uts46
from urikit._nfc import nfc

ROOT = Path(__file__).resolve().parent.parent


def test_generated_files_are_up_to_date() -> None:
    """_uts46_data.py and the C header are what tools/gen_uts46.py writes from the data."""
    for path, text in load_tool("gen_uts46").outputs().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name}: run tools/gen_uts46.py"


def test_pinned_version() -> None:
    assert uts46.UNICODE_VERSION == _uts46_data.UNICODE_VERSION == "17.0.0"
    header = (ROOT / "tools/data/unicode-17.0/IdnaMappingTable.txt").read_text().splitlines()
    assert "# Version: 17.0.0" in header[:10]


# -- RFC 3492 --------------------------------------------------------------------------

# RFC 3492 §7.1, Sample strings (A), (B), (L), (S) and a mixed one.
SAMPLES = [
    ("\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639\u0631"
     "\u0628\u064a\u061f", "egbpdaj6bu4bxfgehfvwxn"),
    ("\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587", "ihqwcrb4cv8a8dqg056pqjye"),
    ("3\u5e74B\u7d44\u91d1\u516b\u5148\u751f", "3B-ww4c5e180e575a65lsy2b"),
    ("-> $1.00 <-", "-> $1.00 <--"),
    ("bücher", "bcher-kva"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "encoded"), SAMPLES)
def test_rfc3492_samples(text: str, encoded: str) -> None:
    assert punycode.encode(text) == encoded
    assert punycode.decode(encoded) == text


@given(st.text(min_size=1, max_size=30))
def test_punycode_agrees_with_python_codec(text: str) -> None:
    """Python's own RFC 3492 codec is an independent implementation."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return
    expected = text.encode("punycode").decode("ascii")
    assert punycode.encode(text) == expected
    assert punycode.decode(expected) == text


@pytest.mark.parametrize("bad", ["ü-a", "a-?", "99999999999", "zzzzzzzzz", "-abc", "a-b9"])
def test_punycode_rejects(bad: str) -> None:
    with pytest.raises(punycode.PunycodeError):
        punycode.decode(bad)


# -- NFC --------------------------------------------------------------------------------

_ASSIGNED_IN_BOTH = st.characters(
    blacklist_categories=("Cs",),
    max_codepoint=0x2FFFF,
).filter(lambda c: unicodedata.category(c) != "Cn" and _age_known(c))


def _age_known(ch: str) -> bool:
    value = _uts46_data.PROP_VALUES[bisect.bisect_right(_uts46_data.PROP_STARTS, ord(ch)) - 1]
    return value is not None


@given(
    st.lists(
        st.one_of(
            _ASSIGNED_IN_BOTH, st.sampled_from("\u0301\u0308\u0323\u1100\u1161\u11a8\uac00e")
        ),
        max_size=12,
    ).map("".join)
)
def test_nfc_agrees_with_unicodedata_where_both_assign(text: str) -> None:
    """Normalization stability: NFC of characters assigned in Python's Unicode (14.0 on
    3.11) is the same in 17.0."""
    assert nfc(text) == unicodedata.normalize("NFC", text)


def test_nfc_examples() -> None:
    assert nfc("e\u0301") == "é"
    assert nfc("\u1100\u1161\u11a8") == "\uac01"  # Unicode §3.12, Hangul
    assert nfc("a\u0323\u0307") == nfc("a\u0307\u0323") == "\u1ea1\u0307"  # ordering
    assert nfc("\u212b") == "Å"  # a singleton: ANGSTROM SIGN
    assert nfc("\u0958") == "\u0915\u093c"  # a composition exclusion


# -- the mapping table against the idna package -----------------------------------------


def test_mapping_table_agrees_with_the_idna_package() -> None:
    """Where both tables give a code point a status other than disallowed, they agree
    (a later table only assigns more code points)."""
    data = pytest.importorskip("idna.uts46data")
    if getattr(data, "__version__", "0") < "17" or not hasattr(data, "uts46_starts"):
        pytest.skip("the idna package's table is older than Unicode 17 or of another shape")
    starts, statuses, replacements = data.uts46_starts, data.uts46_statuses, data.uts46_replacements
    codes = {"V": 0, "D": 0, "M": 1, "I": 2, "X": 3}
    compared = 0
    for cp in range(0x110000):
        i = cp if cp < 256 else bisect.bisect_right(starts, cp) - 1
        theirs = codes[chr(statuses[i])]
        mine, mapping = uts46.idna_status(cp)
        if mine == uts46.DISALLOWED or theirs == uts46.DISALLOWED:
            continue
        compared += 1
        if chr(statuses[i]) == "D":  # a deviation is valid in Nontransitional Processing
            assert (mine, mapping) == (uts46.VALID, ""), hex(cp)
        else:
            assert (mine, mapping) == (theirs, replacements[i] or ""), hex(cp)
    assert compared > 150_000


# -- UTS #46 steps -----------------------------------------------------------------------


def test_domain_to_ascii_examples() -> None:
    assert uts46.domain_to_ascii("i❤.ws") == "xn--i-7iq.ws"
    assert uts46.domain_to_ascii("Faß.DE") == "xn--fa-hia.de"  # nontransitional
    assert uts46.domain_to_ascii("EXAMPLE.com.") == "example.com."
    assert uts46.domain_to_ascii("a\u00adb") == "ab"  # ignored
    assert uts46.domain_to_ascii("xn--a") == "xn--a"  # ASCII is only lowercased
    with pytest.raises(uts46.IDNAError) as e:
        uts46.domain_to_ascii("xn--a.ß")  # "a" decodes to U+0080, which is disallowed
    assert e.value.code == "V7"
    with pytest.raises(uts46.IDNAError) as e:
        uts46.domain_to_ascii("xn--ü.ß")
    assert e.value.code == "P4"
    with pytest.raises(uts46.IDNAError):
        uts46.domain_to_ascii("a_b", be_strict=True)  # UseSTD3ASCIIRules
    assert uts46.domain_to_ascii("a_b") == "a_b"
    with pytest.raises(uts46.IDNAError):
        uts46.domain_to_ascii("-x.com", be_strict=True)  # CheckHyphens
    with pytest.raises(uts46.IDNAError):
        uts46.domain_to_ascii("a" * 64 + ".com", be_strict=True)  # VerifyDnsLength


def test_errors_name_the_criterion_and_pickle() -> None:
    with pytest.raises(uts46.IDNAError) as e:
        uts46.domain_to_ascii("a\u200db.com")
    assert e.value.code == "C2" and isinstance(e.value, ValueError)
    copy = pickle.loads(pickle.dumps(e.value))
    assert (copy.code, copy.codes, str(copy)) == (e.value.code, e.value.codes, str(e.value))


def test_context_j_rfc5892_appendix_a() -> None:
    # A.1: ZWNJ after a virama; between a left-joining and a right-joining character.
    assert uts46.context_j("\u0915\u094d\u200c\u0937") == []
    assert uts46.context_j("\u0628\u200c\u0628") == []
    assert [e.code for e in uts46.context_j("a\u200cb")] == ["C1"]
    # A.2: ZWJ only after a virama.
    assert uts46.context_j("\u0915\u094d\u200d\u0937") == []
    assert [e.code for e in uts46.context_j("\u0628\u200d\u0628")] == ["C2"]


@pytest.mark.parametrize(
    ("label", "codes"),
    [
        ("\u05d0\u05d1", []),  # RTL: R R
        ("\u05d0" + "1", []),  # RTL ending in EN
        ("1\u05d0", ["B1"]),  # starts with EN
        ("\u05d0a", ["B2", "B3"]),  # L in an RTL label, and ends with L
        ("\u0627\u0661" + "1", ["B4"]),  # AN and EN together
        ("a\u05d0", ["B5", "B6"]),  # R in an LTR label
        ("a\u0300", []),  # LTR with a trailing NSM
    ],
)
def test_bidi_rule_rfc5893(label: str, codes: list[str]) -> None:
    assert [e.code for e in uts46.bidi_rule(label)] == codes


def test_bidi_applies_to_every_label_of_a_bidi_domain() -> None:
    with pytest.raises(uts46.IDNAError) as e:
        uts46.domain_to_ascii("1a.\u05d0\u05d1")
    assert e.value.code == "B1"
    assert uts46.domain_to_ascii("1a.com") == "1a.com"


def test_domain_to_unicode() -> None:
    assert uts46.domain_to_unicode("xn--i-7iq.ws") == "i❤.ws"
    assert uts46.domain_to_unicode("xn--fa-hia.de") == "faß.de"
    assert uts46.domain_to_unicode("xn--a.com") == "xn--a.com"  # an error: the input back
    assert uts46.domain_to_unicode("EXAMPLE.COM") == "example.com"


@given(st.text(max_size=20))
def test_domain_to_ascii_raises_only_idna_error(text: str) -> None:
    try:
        result = uts46.domain_to_ascii(text)
    except uts46.IDNAError:
        return
    assert result.isascii() and result != ""
    assert uts46.domain_to_ascii(result) == result
