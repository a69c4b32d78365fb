"""Any column at all gets a column of the declared type back, never an exception.

The column law beside the scalar one of ``tests/test_robustness.py``: for any chunking
(empty chunks, chunks of nulls only, a mix of rows the compiled kernel answers and rows
it leaves to the scalar API), any null pattern, string layout (``string``,
``large_string``, ``string_view``), slice offset and row content (any code point, text
near the grammar, octets that are not UTF-8), every function of the column table, on
both kernels, returns a column of its declared type and of the input's length, whose
row is the scalar function's answer where the row is text, and for a row that is not
UTF-8 the answer of an invalid row: null, ``valid`` false with the error of its first
ill-formed octet (RFC 3629 §4), ``is_valid`` false, the codes of its text as a browser
decodes it.  ``tools/sanitize.sh`` runs this file against the C kernel under ASan and
UBSan.
"""

from __future__ import annotations

import array
import itertools
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import grammar_text, iri_references, uri_references
from test_column_functions import BASE, _comparable, _text, expected

pa = pytest.importorskip("pyarrow")

import urikit  # noqa: E402
from urikit import _arrow_kernel as kernels  # noqa: E402
from urikit import arrow as ua  # noqa: E402
from urikit._column_functions import FUNCTIONS, Answer, ColumnFunction, Shape  # noqa: E402


def _utf8(text: str) -> bool:
    return not any("\ud800" <= c <= "\udfff" for c in text)


#: Code points Arrow can hold (UTF-8 has no surrogates).
TEXT = st.one_of(
    st.text(st.characters(exclude_categories=("Cs",)), max_size=30),
    grammar_text().filter(_utf8),
    uri_references(),
    iri_references(),
)
#: Octets that are not UTF-8: ill-formed sequences inside text near the grammar.
OCTETS = st.builds(
    lambda head, bad, tail: head.encode() + bad + tail.encode(),
    grammar_text(max_size=10).filter(_utf8),
    st.sampled_from([b"\xff", b"\x80", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"]),
    grammar_text(max_size=10).filter(_utf8),
)
ROW = st.one_of(st.none(), TEXT, OCTETS)
LAYOUTS = {
    pa.string(): pa.binary(),
    pa.large_string(): pa.large_binary(),
    pa.string_view(): pa.binary_view(),
}
#: A rule that one scan answers and one the scalar API answers, for ``is_valid``.
RULES = ("URI-reference", "absolute-URI", "host", "IRI")


def _octets(row: str | bytes | None) -> bytes | None:
    return row.encode() if isinstance(row, str) else row


@st.composite
def columns(draw: st.DrawFn) -> tuple[list[str | bytes | None], Any]:
    """Rows, and a column holding them: an array (sliced at a drawn offset) or a
    chunked array of drawn chunk lengths, empty chunks included."""
    rows = draw(st.lists(ROW, max_size=12))
    type_ = draw(st.sampled_from(list(LAYOUTS)))
    before = draw(st.lists(ROW, max_size=3))
    after = draw(st.lists(ROW, max_size=3))
    padded = [_octets(row) for row in [*before, *rows, *after]]
    whole = pa.array(padded, LAYOUTS[type_]).view(type_)
    array = whole.slice(len(before), len(rows))
    if draw(st.booleans()):
        return rows, array
    cuts = sorted(draw(st.lists(st.integers(0, len(rows)), max_size=4)))
    bounds = [0, *cuts, len(rows)]
    chunks = [array.slice(a, b - a) for a, b in itertools.pairwise(bounds)]
    return rows, pa.chunked_array(chunks, type_)


def _declared(function: ColumnFunction) -> Any:
    return ua.TYPES[function.result]


def _want(function: ColumnFunction, row: str | bytes | None, text: tuple[Any, ...]) -> Any:
    """The row's answer: the scalar function's for text, an invalid row's for octets."""
    if not isinstance(row, bytes):
        if function.name == "is_valid":
            return None if row is None else urikit.is_valid(row, text[0])
        return expected(function, row)
    if function.result is Answer.PARSE:
        error = kernels.octets_error(row)
        return {"valid": False, "error_position": error.position}
    if function.result is Answer.BOOL:
        return False
    if function.result is Answer.STRING_LIST:
        return [f.code for f in urikit.audit(row.decode("utf-8", "replace"))]
    return None


@pytest.fixture(params=["compiled", "pure"], scope="module")
def kernel(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The kernel to run with, set around each call (it holds no state of its own)."""
    if request.param == "compiled":
        try:
            from urikit import _columns
        except ImportError:
            pytest.skip("urikit._columns is not built")
        yield kernels.CompiledKernel(_columns)
    else:
        yield kernels.PureKernel()


def _with(kernel: Any, call: Any) -> Any:
    saved = kernels.KERNEL
    kernels.KERNEL = kernel
    try:
        return call()
    finally:
        kernels.KERNEL = saved


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), drawn=columns())
def test_every_column_gets_its_declared_type_and_the_scalar_answers(
    kernel: Any, function: ColumnFunction, data: st.DataObject, drawn: Any
) -> None:
    rows, column = drawn
    text = _text(function)
    if function.name == "is_valid":
        text = (data.draw(st.sampled_from(RULES)),)
    head = (BASE,) if function.shape is Shape.BASE_AND_COLUMN else ()
    got = _with(kernel, lambda: getattr(ua, function.name)(*head, column, *text))
    assert isinstance(got, pa.ChunkedArray) == isinstance(column, pa.ChunkedArray)
    assert got.type == _declared(function)
    assert len(got) == len(rows)
    got.validate(full=True)
    answers = [_comparable(function, value) for value in got.to_pylist()]
    assert answers == [_want(function, row, text) for row in rows]


@settings(max_examples=40, deadline=None)
@given(drawn=columns(), bases=st.data())
def test_a_column_of_bases_of_any_shape(kernel: Any, drawn: Any, bases: st.DataObject) -> None:
    """``resolve`` against a column of bases, rows and bases of any content, null or
    not UTF-8 (a base that is not text gives null)."""
    rows, column = drawn
    row_bases = bases.draw(
        st.lists(st.one_of(st.just(BASE), ROW), min_size=len(rows), max_size=len(rows))
    )
    base_column = pa.array([_octets(b) for b in row_bases], pa.binary()).view(pa.string())
    got = _with(kernel, lambda: ua.resolve(base_column, column))
    assert got.type == pa.string_view() and len(got) == len(rows)

    def want(base: str | bytes | None, row: str | bytes | None) -> str | None:
        if not isinstance(base, str) or not isinstance(row, str):
            return None
        try:
            return str(urikit.resolve(base, row))
        except urikit.URIError:
            return None

    assert got.to_pylist() == [want(b, r) for b, r in zip(row_bases, rows, strict=True)]


def _bad_offsets(type_: Any) -> Any:
    if type_ == pa.string_view():
        return _bad_view()
    width = "q" if type_ == pa.large_string() else "i"
    offsets = array.array(width, [0, 900, 2])
    data = pa.py_buffer(b"ab")
    return pa.Array.from_buffers(type_, 2, [None, pa.py_buffer(offsets.tobytes()), data])


def _bad_view() -> Any:
    """A ``string_view`` column whose first view (a row longer than the 12 octets held
    inline) points past the end of its data buffer."""
    good = pa.array(["http://a/a/long/row/x", "b"], pa.string_view())
    validity, views, *data = good.buffers()
    length, prefix, buffer_index, _ = struct.unpack_from("<i4sii", views, 0)
    bad = bytearray(views.to_pybytes())
    struct.pack_into("<i4sii", bad, 0, length, prefix, buffer_index, 10_000)
    return pa.Array.from_buffers(pa.string_view(), 2, [validity, pa.py_buffer(bytes(bad)), *data])


@pytest.mark.parametrize("type_", [pa.string(), pa.large_string(), pa.string_view()], ids=str)
@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_rows_outside_their_data_are_refused_before_any_row_is_read(
    kernel: Any, function: ColumnFunction, type_: Any
) -> None:
    """An array whose offsets or views point outside its data is a bad call, refused
    with a ``ValueError`` by every function on both kernels (RFC-free: Arrow's layout)."""
    head = (BASE,) if function.shape is Shape.BASE_AND_COLUMN else ()
    column = _bad_offsets(type_)
    with pytest.raises(ValueError, match="outside its data"):
        _with(kernel, lambda: getattr(ua, function.name)(*head, column, *_text(function)))


@settings(max_examples=40, deadline=None)
@given(drawn=columns())
def test_the_whatwg_reading_gets_its_declared_type_and_the_scalar_answers(
    kernel: Any, drawn: Any
) -> None:
    """``parse(col, reading="whatwg")``, the other type of ``parse``, under the same law:
    the getters of ``urikit.whatwg.components`` for text, the URL Standard's validation
    error for a failure, and for octets that are not UTF-8 the error of an invalid row."""
    from test_column_functions import _whatwg

    rows, column = drawn
    got = _with(kernel, lambda: ua.parse(column, reading="whatwg"))
    assert isinstance(got, pa.ChunkedArray) == isinstance(column, pa.ChunkedArray)
    assert got.type == ua.WHATWG_TYPE and len(got) == len(rows)
    got.validate(full=True)
    for row, value in zip(rows, got.to_pylist(), strict=True):
        if isinstance(row, bytes):
            error = kernels.octets_error(row)
            assert value["valid"] is False and value["error_rule"] == error.rule
            assert value["error_position"] == error.position
        else:
            assert value == _whatwg(row)
