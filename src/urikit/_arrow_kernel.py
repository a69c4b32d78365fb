"""The kernels under :mod:`urikit.arrow`: one chunk of an Arrow string column at a time.

Two kernels give the same answers.  The compiled one hands the chunk's buffers
(validity, offsets or views, data) to ``urikit._columns``, which scans every row
in C with the scanner of the compiled core, explains the rows that are not
references with its error locator, and fills new buffers; the pure one reads each
row as a ``str`` and asks :class:`~urikit.URI`.  The pure kernel is the oracle:
``tests/test_arrow.py`` runs every column function on both.  The compiled kernel
is used when the seam gives ``urikit._columns`` (``urikit._seam.column_core``: the
compiled core is used and the module is built).

Both offer ``split`` (the outputs of one scan: components, the extras of
``urikit._contracts.COLUMN_EXTRAS``) and ``map`` (an answer a row by a compiled
operation of ``urikit._contracts.ColumnOperation``, or a fallback).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final, get_args

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from . import IRI, URI, URIError, _seam
from ._contracts import HOST_TYPES, ColumnOperation, ColumnOutput
from ._seam import scheme_codes
from .schemes import DEFAULT_REGISTRY, SchemeRegistry
from .types import Component

__all__ = [
    "COMPONENTS",
    "HOST_TYPES",
    "KERNEL",
    "CompiledKernel",
    "PureKernel",
    "Request",
    "Split",
    "checked",
    "error_of",
    "octets_error",
    "plain_strings",
    "row_error",
    "rows",
]

#: The components of RFC 3986 §3, in the order of the scanner's spans.
COMPONENTS: Final[tuple[str, ...]] = get_args(Component)
HOST_TYPE: Final = pa.dictionary(pa.int8(), pa.string())
STRING_TYPES: Final = (pa.string(), pa.large_string(), pa.string_view())
_KINDS: Final = {pa.string(): 0, pa.large_string(): 1, pa.string_view(): 2}
_HOST_TYPE_INDEX: Final = {name: code for code, name in enumerate(HOST_TYPES)}
#: The largest span of data octets one call may view: a view's offset is an int32.
_VIEW_SPAN: Final = 2**31 - 1
#: The most rows of one call: the texts of their errors fit int32 offsets.
_ROWS_SPAN: Final = 2**23

#: The rule an error names for octets that are not UTF-8 (RFC 3629 §4), as the command's.
UTF8_RULE: Final = "UTF8-char"
#: The type of the same octets read as binary, for each type of strings.
_BINARY: Final = {
    pa.string(): pa.binary(),
    pa.large_string(): pa.large_binary(),
    pa.string_view(): pa.binary_view(),
}

#: fallback(row, text) -> str | None: the answer of the scalar API for one row; ``text``
#: is the row's octets (``bytes``) when they are not UTF-8.
Fallback = Callable[[int, "str | bytes"], "str | None"]


@dataclass
class Split:
    """What the scanner says of one chunk of ``n`` rows.

    ``ok`` is true for a reference, false for other text, null for a null row;
    ``invalid`` lists the rows that are not references; ``components`` holds the
    string views asked for (null where undefined); ``host_type`` and
    ``port_number`` likewise; ``overflow`` lists the rows whose port is above
    65535, where ``URI.port_number`` raises (null in ``port_number``);
    ``errors`` holds, when asked for, the position, reason and rule of the
    ``URIError`` of each row that is not a reference (null elsewhere).
    """

    n: int
    ok: pa.Array
    invalid: list[int]
    components: dict[str, pa.Array] = field(default_factory=dict)
    host_type: pa.Array | None = None
    port_number: pa.Array | None = None
    overflow: list[int] = field(default_factory=list)
    errors: tuple[pa.Array, pa.Array, pa.Array] | None = None


@dataclass(frozen=True)
class Request:
    """What ``map`` answers for each row of a chunk: by the compiled ``operation`` where
    the kernel can (with the scheme rules of ``registry``; the base ``against``, or the
    row of ``bases``, aligned with the chunk; ``strict`` as in ``urikit.resolve``),
    null for a row that is not an URI-reference when ``invalid_is_null``, and else
    ``fallback(row, text)``."""

    operation: ColumnOperation
    fallback: Fallback
    registry: SchemeRegistry = DEFAULT_REGISTRY
    invalid_is_null: bool = False
    against: str | None = None
    strict: bool = True
    bases: pa.Array | None = None


def plain_strings(type_: pa.DataType, string: pa.DataType) -> pa.DataType:
    """``type_`` with its string views and dictionaries (of host types) as ``string``,
    a type of strings that every engine reads."""
    if type_ == pa.string_view() or pa.types.is_dictionary(type_):
        return string
    if pa.types.is_struct(type_):
        return pa.struct([field.with_type(plain_strings(field.type, string)) for field in type_])
    return type_


def checked(array: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """``array`` after checking that every row lies within its data (offsets, views and
    lengths), the one check made before any path reads a row; ``ValueError`` if not.
    The octets are not checked: a row that is not UTF-8 is an invalid row."""
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    try:
        for chunk in chunks:
            chunk.view(_BINARY[array.type]).validate(full=True)
    except (pa.ArrowInvalid, pa.ArrowIndexError) as error:
        # Arrow words a view outside its buffers as an index error, bad offsets as invalid.
        raise ValueError(f"the column's rows point outside its data: {error}") from None
    return array


def rows(chunk: pa.Array) -> list[str | bytes | None]:
    """The rows of ``chunk`` as Python values: ``str``, ``None`` for a null row, and the
    octets (``bytes``) of a row that is not UTF-8."""
    try:
        return chunk.to_pylist()  # type: ignore[no-any-return]
    except UnicodeDecodeError:
        octets = chunk.view(_BINARY[chunk.type]).to_pylist()
        return [_text_or_octets(data) for data in octets]


def _text_or_octets(data: bytes | None) -> str | bytes | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def octets_error(data: bytes) -> URIError:
    """The error of a row whose octets are not UTF-8 (RFC 3629 §4), as the command words
    it: the first ill-formed octets and their byte; the position counts the characters
    before them."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.end]
        names = " ".join(f"0x{octet:02X}" for octet in bad)
        plural = "s" if len(bad) > 1 else ""
        return URIError(
            f"invalid UTF-8 octet{plural} {names} at byte {error.start}",
            text=data.decode("utf-8", "replace"),
            position=len(data[: error.start].decode("utf-8")),
            rule=UTF8_RULE,
        )
    raise ValueError("the octets are UTF-8")


def error_of(text: str | bytes, iri: bool) -> URIError:
    """The scalar API's error for a row that is not a reference; for octets that are not
    UTF-8, :func:`octets_error`."""
    return octets_error(text) if isinstance(text, bytes) else _error_of(text, iri)


def row_error(chunk: pa.Array, row: int, iri: bool) -> URIError:
    """The error of the row ``row`` of ``chunk``, which is not a reference."""
    text = rows(chunk.slice(row, 1))[0]
    assert text is not None
    return error_of(text, iri)


def _error_of(text: str, iri: bool) -> URIError:
    """The scalar API's error for a text that is not a reference."""
    try:
        (IRI if iri else URI)(text)
    except URIError as error:
        return error
    raise AssertionError(f"the column kernel refused a reference the scalar API reads: {text!r}")


def _error_columns(
    n: int, rows: list[int], errors: list[URIError]
) -> tuple[pa.Array, pa.Array, pa.Array]:
    """The position, reason and rule of each error at its row, null elsewhere."""
    fields: list[list[Any]] = [[None] * n, [None] * n, [None] * n]
    for row, error in zip(rows, errors, strict=True):
        fields[0][row], fields[1][row], fields[2][row] = error.position, error.reason, error.rule
    return (
        pa.array(fields[0], pa.int64()),
        pa.array(fields[1], pa.string()),
        pa.array(fields[2], pa.string()),
    )


class PureKernel:
    """Each row read by the scalar API: the oracle for the compiled kernel."""

    name = "pure"

    def split(
        self, chunk: pa.Array, iri: bool, components: Iterable[str], extras: Iterable[str] = ()
    ) -> Split:
        wanted = list(components)
        extra = set(extras)
        reference: type[URI | IRI] = IRI if iri else URI
        ok: list[bool | None] = []
        invalid: list[int] = []
        errors: list[URIError] = []
        values: dict[str, list[str | None]] = {name: [] for name in wanted}
        host_types: list[str | None] = []
        ports: list[int | None] = []
        overflow: list[int] = []
        for row, text in enumerate(rows(chunk)):
            u = None
            if isinstance(text, bytes):
                invalid.append(row)
                errors.append(octets_error(text))
            elif text is not None:
                try:
                    u = reference(text)
                except URIError as error:
                    invalid.append(row)
                    errors.append(error)
            ok.append(None if text is None else u is not None)
            for name in wanted:
                values[name].append(None if u is None else getattr(u, name))
            host_types.append(None if u is None else u.host_type)
            port = None
            if u is not None and "port_number" in extra:
                try:
                    port = u.port_number
                except URIError:  # above 65535
                    overflow.append(row)
            ports.append(port)
        result = Split(len(chunk), pa.array(ok, pa.bool_()), invalid, overflow=overflow)
        for name in wanted:
            result.components[name] = pa.array(values[name], pa.string_view())
        if "host_type" in extra:
            codes = [None if t is None else _HOST_TYPE_INDEX[t] for t in host_types]
            result.host_type = pa.DictionaryArray.from_arrays(
                pa.array(codes, pa.int8()), _host_type_names()
            )
        if "port_number" in extra:
            result.port_number = pa.array(ports, pa.int64())
        if "error" in extra:
            result.errors = _error_columns(len(chunk), invalid, errors)
        return result

    def map(self, chunk: pa.Array, request: Request) -> pa.Array:
        fallback = request.fallback  # the scalar's answers, whatever the operation
        answers = [
            None if text is None else fallback(row, text) for row, text in enumerate(rows(chunk))
        ]
        return pa.array(answers, pa.string_view())


class CompiledKernel:
    """The rows scanned in C by ``urikit._columns`` over the chunk's own buffers."""

    name = "compiled"

    def __init__(self, module: ModuleType) -> None:
        self._columns = module
        self._schemes: dict[int, tuple[Any, tuple[tuple[bytes, int], ...]]] = {}

    def split(
        self, chunk: pa.Array, iri: bool, components: Iterable[str], extras: Iterable[str] = ()
    ) -> Split:
        wanted = list(components)
        mask = sum(1 << ColumnOutput[name.upper()] for name in [*wanted, *extras])
        parts = []
        start = 0
        for piece, spec, data, base in _pieces(chunk):
            validity, ok, invalid, outputs = self._columns.split(spec, iri, mask, base, _allocate)
            parts.append((start, piece, validity, ok, invalid, outputs, data))
            start += len(piece)
        return _joined_split(parts, wanted, mask, len(chunk), iri)

    def map(self, chunk: pa.Array, request: Request) -> pa.Array:
        """The answers of ``request`` (see ``urikit._columns.map``)."""
        operation = request.operation
        normalizing = operation in (
            ColumnOperation.NORMALIZE_SYNTAX,
            ColumnOperation.NORMALIZE_SCHEME,
        )
        table = self._scheme_table(request.registry) if normalizing else ()
        against = None if request.against is None else request.against.encode("ascii")
        fallback, bases = request.fallback, request.bases
        arrays = []
        start = 0
        for piece, spec, data, base in _pieces(chunk):
            offset = start

            def shifted(row: int, text: str, offset: int = offset) -> str | None:
                return fallback(offset + row, text)

            row_bases = None if bases is None else _spec(bases.slice(offset, len(piece)))
            validity, views, extra, _ = self._columns.map(
                spec,
                operation,
                shifted,
                base,
                _allocate,
                schemes=table,
                invalid_is_null=request.invalid_is_null,
                against=against,
                strict=request.strict,
                bases=row_bases,
            )
            buffers = [validity, views, *data, _buffer(extra)]
            arrays.append(pa.Array.from_buffers(pa.string_view(), len(piece), buffers))
            start += len(piece)
        return _concat(arrays) if arrays else pa.array([], pa.string_view())

    def _scheme_table(self, registry: SchemeRegistry) -> tuple[tuple[bytes, int], ...]:
        """The schemes of ``registry`` as the C kernel reads them: (lower-case name,
        code), sorted by name, with the code of ``urikit._seam.scheme_codes`` (what
        RFC 3986 §6.2.3 normalization needs of the scheme), for the schemes whose
        code is not 0, the code of a scheme the registry does not know."""
        cached = self._schemes.get(id(registry))
        if cached is not None and cached[0] is registry:
            return cached[1]
        codes = scheme_codes(registry)
        table = tuple(sorted((name.encode("ascii"), code) for name, code in codes.items() if code))
        self._schemes[id(registry)] = (registry, table)
        return table


def _allocate(size: int) -> pa.Buffer:
    """A new writable buffer for the C kernel to fill, from the system allocator:
    the outputs of a large chunk are large and short-lived, which the system
    allocator serves (and takes back) at the lowest cost in page faults."""
    return pa.allocate_buffer(size, memory_pool=_POOL)


_POOL: Final = pa.system_memory_pool()


def _buffer(data: bytes) -> pa.Buffer:
    return pa.py_buffer(data)


def _spec(array: pa.Array) -> tuple[Any, ...]:
    """The whole of a string array as the C kernel reads it (a column spec)."""
    kind = _KINDS[array.type]
    buffers = array.buffers()
    validity = buffers[0] if array.null_count else None
    data = [b if b is not None else pa.py_buffer(b"") for b in buffers[2:]]
    return (kind, len(array), array.offset, validity, buffers[1], tuple(data))


def _pieces(chunk: pa.Array) -> list[tuple[pa.Array, tuple[Any, ...], list[pa.Buffer], int]]:
    """The chunk as the C kernel takes it: (piece, column spec, output data
    buffers, base) for consecutive pieces of rows, each with at most
    ``_VIEW_SPAN`` octets of data, so that views into it fit an int32 offset, and
    at most ``_ROWS_SPAN`` rows."""
    if len(chunk) > _ROWS_SPAN:
        half = len(chunk) // 2
        return _pieces(chunk.slice(0, half)) + _pieces(chunk.slice(half))
    spec = _spec(chunk)
    kind, data = spec[0], list(spec[5])
    if kind == 2:
        return [(chunk, spec, data, 0)]
    offsets = memoryview(spec[4]).cast("i" if kind == 0 else "q")
    first, last = offsets[chunk.offset], offsets[chunk.offset + len(chunk)]
    if last - first > _VIEW_SPAN and len(chunk) > 1:
        half = len(chunk) // 2
        return _pieces(chunk.slice(0, half)) + _pieces(chunk.slice(half))
    return [(chunk, spec, [data[0].slice(first)], first)]


def _explained(
    piece: pa.Array, output: tuple[Any, ...] | None, iri: bool
) -> tuple[pa.Array, pa.Array, pa.Array]:
    """The error columns of one piece from the kernel's error output (``None`` for a
    piece without an invalid row); the rows it could not explain (not UTF-8) are
    explained by the scalar API."""
    n = len(piece)
    if output is None:
        return pa.nulls(n, pa.int64()), pa.nulls(n, pa.string()), pa.nulls(n, pa.string())
    bits, positions, reason_offsets, reasons, rule_offsets, rules, unexplained = output
    columns = (
        pa.Array.from_buffers(pa.int64(), n, [bits, positions]),
        pa.Array.from_buffers(pa.string(), n, [bits, reason_offsets, reasons]),
        pa.Array.from_buffers(pa.string(), n, [bits, rule_offsets, rules]),
    )
    if not unexplained:
        return columns
    found = [row_error(piece, row, iri) for row in unexplained]
    patch = _error_columns(n, unexplained, found)
    position, reason, rule = (
        pc.coalesce(got, more) for got, more in zip(columns, patch, strict=True)
    )
    return position, reason, rule


def _joined_split(
    parts: list[tuple[Any, ...]], wanted: list[str], mask: int, n: int, iri: bool
) -> Split:
    oks: list[pa.Array] = []
    invalid: list[int] = []
    overflow: list[int] = []
    columns: dict[str, list[pa.Array]] = {name: [] for name in wanted}
    host_types, ports = [], []
    errors: list[tuple[pa.Array, pa.Array, pa.Array]] = []
    for start, piece, validity, ok, rows, outputs, data in parts:
        length = len(piece)
        oks.append(pa.Array.from_buffers(pa.bool_(), length, [validity, ok]))
        invalid.extend(start + row for row in rows)
        for name in wanted:
            bits, views = outputs[ColumnOutput[name.upper()]]
            buffers = [bits, views, *data]
            columns[name].append(pa.Array.from_buffers(pa.string_view(), length, buffers))
        if outputs[ColumnOutput.HOST_TYPE] is not None:
            bits, codes = outputs[ColumnOutput.HOST_TYPE]
            indices = pa.Array.from_buffers(pa.int8(), length, [bits, codes])
            host_types.append(pa.DictionaryArray.from_arrays(indices, _host_type_names()))
        if outputs[ColumnOutput.PORT_NUMBER] is not None:
            bits, values, rows = outputs[ColumnOutput.PORT_NUMBER]
            ports.append(pa.Array.from_buffers(pa.int64(), length, [bits, values]))
            overflow.extend(start + r for r in rows)
        if mask >> ColumnOutput.ERROR & 1:
            errors.append(_explained(piece, outputs[ColumnOutput.ERROR], iri))
    result = Split(n, _concat(oks), invalid, overflow=overflow)
    for name in wanted:
        result.components[name] = _concat(columns[name])
    if host_types:
        result.host_type = _concat(host_types)
    if ports:
        result.port_number = _concat(ports)
    if errors:
        result.errors = _error_columns_joined(errors)
    return result


def _error_columns_joined(
    parts: list[tuple[pa.Array, pa.Array, pa.Array]],
) -> tuple[pa.Array, pa.Array, pa.Array]:
    position, reason, rule = (_concat([part[k] for part in parts]) for k in range(3))
    return position, reason, rule


@functools.cache
def _host_type_names() -> pa.Array:
    """The dictionary of ``host_type`` columns, made on first use: ``pa.array``
    imports pandas where it is installed, which ``import urikit.arrow`` need not."""
    return pa.array(HOST_TYPES, pa.string())


def _concat(arrays: list[pa.Array]) -> pa.Array:
    return arrays[0] if len(arrays) == 1 else pa.concat_arrays(arrays)


def _load() -> PureKernel | CompiledKernel:
    columns = _seam.column_core()
    return PureKernel() if columns is None else CompiledKernel(columns)


#: The kernel in use: compiled when the compiled core is used and ``urikit._columns``
#: is built.
KERNEL: PureKernel | CompiledKernel = _load()
