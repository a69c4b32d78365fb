"""HTML bytes decoded as browsers decode them: the WHATWG Encoding Standard's decoders
and indexes (issue 27.9), held to its examples, to Python's codecs on valid input, and,
with the ``endec`` package installed (``encoding_rs``, Firefox's implementation of the
Standard), to the Standard itself on any bytes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from generators import load_tool
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit.text import decoders, links
from urikit.text._encoding_data import INDEX_DIFFERENCES, SINGLE_BYTE_DIFFERENCES
from urikit.text.encoding import _LABELS, _decode, decode_html, encoding_for_label
from urikit.text.indexes import SINGLE_BYTE_CODECS, gb18030_ranges_code_point, index

try:
    import endec
except ImportError:  # the test extra installs it
    endec = None

needs_endec = pytest.mark.skipif(endec is None, reason="endec is not installed")
ROOT = Path(__file__).resolve().parent.parent
ENCODINGS = list(_LABELS)

# --- the reproduction of the issue ------------------------------------------------------


def test_an_invalid_iso_2022_jp_escape_swallows_nothing() -> None:
    document = (
        b'<meta charset="iso-2022-jp">\x1b$<a X href="javascript:alert(document.domain)">click</a>'
    )
    (link,) = links(document, "https://example.com/")
    assert str(link.uri) == "javascript:alert(document.domain)"
    # Python's codec reads the escape and the next bytes, "<a X" among them, as one U+FFFD
    assert "<a" not in document.decode("iso2022_jp", errors="replace")


# --- the Encoding Standard's examples and steps, by section -------------------------------

EXAMPLES = [
    # §12.2.1 ISO-2022-JP: escapes to ASCII, JIS X 0201 Roman, katakana, JIS X 0208
    ("iso-2022-jp", b"\x1b$B0!\x1b(B!", "\u4e9c!"),
    ("iso-2022-jp", b"\x1b(J\\~", "\u00a5\u203e"),
    ("iso-2022-jp", b"\x1b(I!_", "\uff61\uff9f"),
    ("iso-2022-jp", b"\x1b$@0!", "\u4e9c"),
    ("iso-2022-jp", b"\x1b$<a", "\ufffd$<a"),  # an escape that designates nothing
    ("iso-2022-jp", b"\x1b(", "\ufffd("),
    ("iso-2022-jp", b"\x1b", "\ufffd"),
    ("iso-2022-jp", b"\x1b(B\x1b(Ba", "\ufffda"),  # two escapes in a row: the output flag
    ("iso-2022-jp", b"a\x0eb\x0fc", "a\ufffdb\ufffdc"),  # SO and SI are errors
    ("iso-2022-jp", b"\x1b$B0", "\ufffd"),  # the end of the stream in the trail byte state
    ("iso-2022-jp", b"\x1b$B0\x1b(Ba", "\ufffda"),  # ESC in the trail byte state
    ("iso-2022-jp", b"\x80", "\ufffd"),
    # §10.2.1 gb18030: one byte, two bytes, four bytes
    ("gb18030", b"\x80", "\u20ac"),
    ("gb18030", b"\xb0\xa1", "\u554a"),
    ("gb18030", b"\xa6\xd9", "\ufe10"),  # GB18030-2022 (Python's codec: U+E78D)
    ("gb18030", b"\x81\x30\x81\x30", "\u0080"),
    ("gb18030", b"\x84\x31\xa4\x39", "\uffff"),
    ("gb18030", b"\x90\x30\x81\x30", "\U00010000"),
    ("gb18030", b"\xe3\x32\x9a\x35", "\U0010ffff"),
    ("gb18030", b"\xe3\x32\x9a\x36", "\ufffd"),  # past the last pointer
    ("gb18030", b"\x81\x30\x81 ", "\ufffd0\ufffd "),  # 3.1: second, third and byte again
    ("gb18030", b"\x81\x30a", "\ufffd0a"),  # 4.2
    ("gb18030", b"\x81 ", "\ufffd "),  # 5.9: an ASCII byte is given back
    ("gb18030", b"\xff", "\ufffd"),
    ("gbk", b"\x80\xb0\xa1", "\u20ac\u554a"),  # GBK's decoder is gb18030's (§10.1)
    # §11.1.1 Big5: two code points for four pointers, HKSCS-2008
    (
        "big5",
        b"\x88\x62\x88\x64\x88\xa3\x88\xa5",
        "\u00ca\u0304\u00ca\u030c\u00ea\u0304\u00ea\u030c",
    ),
    ("big5", b"\xa4\x40", "\u4e00"),
    ("big5", b"\x87\x7a", "\u3875"),  # not in Python's big5hkscs
    ("big5", b"\xa4 ", "\ufffd "),
    # §12.1.1 EUC-JP: half-width katakana, JIS X 0212, JIS X 0208
    ("euc-jp", b"\x8e\xa1", "\uff61"),
    ("euc-jp", b"\xb0\xa1", "\u4e9c"),
    ("euc-jp", b"\x8f\xa2\xb7", "\uff5e"),  # the one pointer where Python's codec differs
    ("euc-jp", b"\xb0a", "\ufffda"),
    ("euc-jp", b"\x8f\xa2", "\ufffd"),
    # §12.3.1 Shift_JIS: 0x80, half-width katakana, the user-defined area
    ("shift_jis", b"\x80\xa1", "\u0080\uff61"),
    ("shift_jis", b"\x88\x9f", "\u4e9c"),
    ("shift_jis", b"\xf0\x40", "\ue000"),
    ("shift_jis", b"\x81 ", "\ufffd "),
    ("shift_jis", b"\xa0\xfd", "\ufffd\ufffd"),
    # §13.1.1 EUC-KR
    ("euc-kr", b"\xb0\xa1", "\uac00"),
    ("euc-kr", b"\x81\x41", "\uac02"),
    ("euc-kr", b"\xb0 ", "\ufffd "),
    ("euc-kr", b"\xfe\xfe", "\ufffd"),
    # §9.1 single-byte encodings: their indexes
    ("windows-1252", b"\x80\x81", "\u20ac\u0081"),
    ("windows-1255", b"\xca", "\u05ba"),
    ("windows-874", b"\xdb", "\ufffd"),
    ("koi8-u", b"\xae\xbe", "\u045e\u040e"),
    ("iso-8859-8-i", b"\xe0", "\u05d0"),
    # §14.5.1 x-user-defined, §14.2 UTF-16
    ("x-user-defined", b"a\x80\xff", "a\uf780\uf7ff"),
    ("utf-16le", b"a\x00\x00\xd8b\x00c", "a\ufffdb\ufffd"),
    ("utf-16be", b"\xd8\x00\xdc\x00", "\U00010000"),
    ("utf-8", b"\xf0\x9f\x98", "\ufffd"),
    ("replacement", b"abc", "\ufffd"),
    ("replacement", b"", ""),
]


@pytest.mark.parametrize(("encoding", "data", "text"), EXAMPLES)
def test_the_encoding_standard(encoding: str, data: bytes, text: str) -> None:
    assert _decode(data, encoding) == text


def test_gb18030_ranges() -> None:
    # §5 "index gb18030 ranges code point"
    assert gb18030_ranges_code_point(0) == "\u0080"
    assert gb18030_ranges_code_point(7457) == "\ue7c7"
    assert gb18030_ranges_code_point(39419) == "\uffff"
    assert gb18030_ranges_code_point(39420) is None
    assert gb18030_ranges_code_point(189000) == "\U00010000"
    assert gb18030_ranges_code_point(1237575) == "\U0010ffff"
    assert gb18030_ranges_code_point(1237576) is None


@pytest.mark.parametrize(
    ("document", "text"),
    [
        (b"\xff\xfea\x00<\x00", "a<"),  # a byte order mark decides (HTML §13.2.3.2)
        (b"\xfe\xff\x00a", "a"),
        (b"\xef\xbb\xbf<meta charset=koi8-r>\xc3\xa9", "<meta charset=koi8-r>\u00e9"),
        (b"<meta charset=utf-16le>\xc3\xa9", "<meta charset=utf-16le>\u00e9"),  # UTF-8
        (b"<meta charset=x-user-defined>\x80", "<meta charset=x-user-defined>\u20ac"),
        (b"<meta charset=sjis>\x88\x9f", "<meta charset=sjis>\u4e9c"),
        (b"<meta charset=gb2312>\x80", "<meta charset=gb2312>\u20ac"),
        (b"\x80", "\u20ac"),  # windows-1252 when nothing else says
    ],
)
def test_decode_html(document: bytes, text: str) -> None:
    assert decode_html(document) == text


def test_labels_name_encodings() -> None:
    assert encoding_for_label("Shift_JIS") == "shift_jis"
    assert encoding_for_label("x-sjis") == "shift_jis"
    assert encoding_for_label("gb2312") == "gbk"
    assert encoding_for_label("csiso2022jp") == "iso-2022-jp"
    assert encoding_for_label("logical") == "iso-8859-8-i"


# --- Python's codecs, on valid input -------------------------------------------------------

#: Each multi-byte decoder, and the Python codec of the same name, with the bytes of a
#: pointer of its index.
_PYTHON = {
    "shift_jis": ("cp932", "jis0208"),
    "euc-jp": ("euc_jp", "jis0208"),
    "euc-kr": ("cp949", "euc-kr"),
    "gb18030": ("gb18030", "gb18030"),
    "big5": ("big5hkscs", "big5"),
}


@pytest.mark.parametrize("encoding", list(_PYTHON))
def test_valid_text_reads_as_pythons_codec_reads_it(encoding: str) -> None:
    codec, name = _PYTHON[encoding]
    rng = random.Random(encoding)
    differing = {chr(c) for c in INDEX_DIFFERENCES[name].values() if c is not None}
    entries = [ch for ch in index(name) if ch is not None and len(ch) == 1]
    for _ in range(200):
        text = "".join(rng.choice(entries) + rng.choice(" a<>é") for _ in range(40))
        try:
            data = text.encode(codec)
        except UnicodeEncodeError:
            continue
        if differing.intersection(text):
            continue
        assert _decode(data, encoding) == data.decode(codec) == text


@pytest.mark.parametrize("encoding", list(SINGLE_BYTE_CODECS))
def test_single_byte_encodings_read_as_pythons_codecs_but_where_listed(encoding: str) -> None:
    codec = SINGLE_BYTE_CODECS[encoding]
    listed = SINGLE_BYTE_DIFFERENCES.get(encoding, {})
    for byte in range(256):
        try:
            expected = bytes([byte]).decode(codec)
        except UnicodeDecodeError:
            expected = "\ufffd"
        if byte in listed:
            code_point = listed[byte]
            expected = "\ufffd" if code_point is None else chr(code_point)
        assert _decode(bytes([byte]), encoding) == expected


def test_iso_2022_jp_reads_valid_text_as_pythons_codec() -> None:
    text = "日本語のテキストとｶﾀｶﾅ, ASCII and ¥‾ too"
    for codec in ("iso2022_jp", "iso2022_jp_ext"):
        try:
            data = text.encode(codec)
        except UnicodeEncodeError:
            continue
        assert _decode(data, "iso-2022-jp") == data.decode(codec)


# --- linear: each byte is read a bounded number of times -----------------------------------


class _CountingStream(decoders._Stream):
    reads = 0

    def read(self) -> int | None:
        _CountingStream.reads += 1
        return super().read()


@pytest.mark.parametrize("encoding", list(decoders.DECODERS))
@pytest.mark.parametrize(
    "shape",
    [b"\x81a", b"\x1b$a", b"\x81\x30\x81a", b"\x1b(B", b"\x8f\xa1a", b"\xa1", b"\x81\x30a"],
)
def test_each_byte_is_read_a_bounded_number_of_times(
    encoding: str, shape: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decoders, "_Stream", _CountingStream)
    data = shape * 20_000
    _CountingStream.reads = 0
    decoders.DECODERS[encoding](data)
    assert _CountingStream.reads <= 4 * len(data) + 1


# --- the Encoding Standard itself (encoding_rs) --------------------------------------------


@needs_endec
@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(ENCODINGS),
    st.lists(
        st.one_of(
            st.integers(0, 255),
            st.sampled_from([0x1B, 0x24, 0x28, 0x42, 0x49, 0x4A, 0x0E, 0x0F, 0x80, 0x8E, 0x8F]),
        ),
        max_size=40,
    ),
)
def test_every_decoder_is_the_encoding_standards(encoding: str, octets: list[int]) -> None:
    data = bytes(octets)
    label = _LABELS[encoding].split()[0]
    assert _decode(data, encoding) == endec.decode(data, label, "replace", bom="ignore")


@needs_endec
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_decoder_on_encoded_text_with_errors(encoding: str) -> None:
    label = _LABELS[encoding].split()[0]
    rng = random.Random(encoding)
    text = "日本語ｶﾀｶﾅ中文简体繁體 한국어 €£¥ éà ÄÖß Ελληνικά Русский עברית ไทย <a href=x>"
    data = endec.encode(text, label, "xmlcharrefreplace")
    for _ in range(300):
        broken = bytearray(data * 2)
        for _ in range(rng.randint(1, 4)):
            broken[rng.randrange(len(broken))] = rng.randrange(256)
        got = _decode(bytes(broken), encoding)
        assert got == endec.decode(bytes(broken), label, "replace", bom="ignore")


@needs_endec
def test_the_generated_differences_are_up_to_date() -> None:
    gen_encoding_data = load_tool("gen_encoding_data")
    generated = ROOT / "src" / "urikit" / "text" / "_encoding_data.py"
    assert gen_encoding_data.render() == generated.read_text(encoding="utf-8")
