"""The kernels under :mod:`urikit.arrow`: one chunk of an Arrow string column at a time.

Two kernels give the same answers.  The compiled one hands the chunk's buffers
(validity, offsets or views, data) to ``urikit._columns``, which scans every row
in C with the scanner of ``urikit._speedups`` and fills new buffers; the pure one
reads each row as a ``str`` and asks :class:`~urikit.URI`.  The pure kernel is the
oracle: ``tests/test_arrow.py`` runs every column function on both.  It is used
when ``urikit._columns`` is not built or ``URIKIT_NO_EXTENSIONS=1``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from . import IRI, URI, URIError
from ._seam import scheme_codes

#: The components of RFC 3986 §3, in the order of the scanner's spans.
COMPONENTS: Final = (
    "scheme",
    "authority",
    "userinfo",
    "host",
    "port",
    "path",
    "query",
    "fragment",
)
#: The values of ``URI.host_type``, in the order of the compiled kernel's codes.
HOST_TYPES: Final = ("ipv4", "ipv6", "ipvfuture", "reg-name")
HOST_TYPE: Final = pa.dictionary(pa.int8(), pa.string())
STRING_TYPES: Final = (pa.string(), pa.large_string(), pa.string_view())
_KINDS: Final = {pa.string(): 0, pa.large_string(): 1, pa.string_view(): 2}
_HOST_TYPE_INDEX: Final = {name: code for code, name in enumerate(HOST_TYPES)}
#: The largest span of data octets one call may view: a view's offset is an int32.
_VIEW_SPAN: Final = 2**31 - 1
_HOST_TYPE_BIT: Final = 8
_PORT_NUMBER_BIT: Final = 9

#: fallback(row, text) -> str | None: the answer of the scalar API for one row.
Fallback = Callable[[int, str], "str | None"]

#: The ranks of ``map`` at which the compiled kernel resolves each URI-reference row
#: against one ASCII absolute URI, ``against``, or against the row of a column of
#: bases, ``bases`` (RFC 3986 §5.2).
RESOLVE: Final = 3
RESOLVE_EACH: Final = 4


@dataclass
class Split:
    """What the scanner says of one chunk of ``n`` rows.

    ``ok`` is true for a reference, false for other text, null for a null row;
    ``invalid`` lists the rows that are not references; ``components`` holds the
    string views asked for (null where undefined); ``host_type`` and
    ``port_number`` likewise; ``overflow`` lists the rows whose port is above
    65535, where ``URI.port_number`` raises (null in ``port_number``).
    """

    n: int
    ok: pa.Array
    invalid: list[int]
    components: dict[str, pa.Array] = field(default_factory=dict)
    host_type: pa.Array | None = None
    port_number: pa.Array | None = None
    overflow: list[int] = field(default_factory=list)


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
        values: dict[str, list[str | None]] = {name: [] for name in wanted}
        host_types: list[str | None] = []
        ports: list[int | None] = []
        overflow: list[int] = []
        for row, text in enumerate(chunk.to_pylist()):
            u = None
            if text is not None:
                try:
                    u = reference(text)
                except URIError:
                    invalid.append(row)
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
        return result

    def map(
        self,
        chunk: pa.Array,
        rank: int,
        registry: Any,
        fallback: Fallback,
        invalid_is_null: bool = False,
        against: str | None = None,
        strict: bool = True,
        bases: pa.Array | None = None,
    ) -> pa.Array:
        del rank, registry, invalid_is_null, against, strict, bases  # the scalar's answers
        answers = [
            None if text is None else fallback(row, text)
            for row, text in enumerate(chunk.to_pylist())
        ]
        return pa.array(answers, pa.string_view())

    def scatter(self, n: int, rows: list[int], values: list[Any], type_: pa.DataType) -> pa.Array:
        """An array of ``n`` nulls but for ``values`` at ``rows`` (ascending), of
        ``type_``, ``pa.int64()`` or ``pa.string()``."""
        if not rows:
            return pa.nulls(n, type_)
        bits = bytearray((n + 7) // 8)
        for row in rows:
            bits[row >> 3] |= 1 << (row & 7)
        mask = pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(bytes(bits))])
        return pc.replace_with_mask(pa.nulls(n, type_), mask, pa.array(values, type_))


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
        extra = set(extras)
        mask = sum(1 << COMPONENTS.index(name) for name in wanted)
        mask |= (1 << _HOST_TYPE_BIT) * ("host_type" in extra)
        mask |= (1 << _PORT_NUMBER_BIT) * ("port_number" in extra)
        parts = []
        start = 0
        for piece, spec, data, base in _pieces(chunk):
            validity, ok, invalid, outputs = self._columns.split(spec, iri, mask, base, _allocate)
            parts.append((start, len(piece), validity, ok, invalid, outputs, data))
            start += len(piece)
        return _joined_split(parts, wanted, len(chunk))

    def map(
        self,
        chunk: pa.Array,
        rank: int,
        registry: Any,
        fallback: Fallback,
        invalid_is_null: bool = False,
        against: str | None = None,
        strict: bool = True,
        bases: pa.Array | None = None,
    ) -> pa.Array:
        """``fallback(row, text)`` of each row, but for the rows the kernel answers at
        ``rank`` (see ``urikit._columns.map``); ``bases`` is aligned with ``chunk``."""
        table = self._scheme_table(registry) if 0 < rank < RESOLVE else ()
        base_text = None if against is None else against.encode("ascii")
        arrays = []
        start = 0
        for piece, spec, data, base in _pieces(chunk):
            offset = start

            def shifted(row: int, text: str, offset: int = offset) -> str | None:
                return fallback(offset + row, text)

            row_bases = None if bases is None else _spec(bases.slice(offset, len(piece)))
            validity, views, extra, _ = self._columns.map(
                spec, rank, table, shifted, base, _allocate, invalid_is_null, base_text, strict,
                row_bases,
            )  # fmt: skip
            buffers = [validity, views, *data, _buffer(extra)]
            arrays.append(pa.Array.from_buffers(pa.string_view(), len(piece), buffers))
            start += len(piece)
        return arrays[0] if len(arrays) == 1 else pa.concat_arrays(arrays)

    def scatter(self, n: int, rows: list[int], values: list[Any], type_: pa.DataType) -> pa.Array:
        """As ``PureKernel.scatter``, the buffers written by ``urikit._columns.scatter``."""
        if not rows:
            return pa.nulls(n, type_)
        buffers = self._columns.scatter(n, rows, values, type_ == pa.string(), _allocate)
        return pa.Array.from_buffers(type_, n, buffers)

    def _scheme_table(self, registry: Any) -> tuple[tuple[bytes, int], ...]:
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
    ``_VIEW_SPAN`` octets of data, so that views into it fit an int32 offset."""
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


def _joined_split(parts: list[tuple[Any, ...]], wanted: list[str], n: int) -> Split:
    oks: list[pa.Array] = []
    invalid: list[int] = []
    overflow: list[int] = []
    columns: dict[str, list[pa.Array]] = {name: [] for name in wanted}
    host_types, ports = [], []
    for start, length, validity, ok, rows, outputs, data in parts:
        oks.append(pa.Array.from_buffers(pa.bool_(), length, [validity, ok]))
        invalid.extend(start + row for row in rows)
        for name in wanted:
            bits, views = outputs[COMPONENTS.index(name)]
            buffers = [bits, views, *data]
            columns[name].append(pa.Array.from_buffers(pa.string_view(), length, buffers))
        if outputs[_HOST_TYPE_BIT] is not None:
            bits, codes = outputs[_HOST_TYPE_BIT]
            indices = pa.Array.from_buffers(pa.int8(), length, [bits, codes])
            host_types.append(pa.DictionaryArray.from_arrays(indices, _host_type_names()))
        if outputs[_PORT_NUMBER_BIT] is not None:
            bits, values, rows = outputs[_PORT_NUMBER_BIT]
            ports.append(pa.Array.from_buffers(pa.int64(), length, [bits, values]))
            overflow.extend(start + r for r in rows)
    result = Split(n, _concat(oks), invalid, overflow=overflow)
    for name in wanted:
        result.components[name] = _concat(columns[name])
    if host_types:
        result.host_type = _concat(host_types)
    if ports:
        result.port_number = _concat(ports)
    return result


@functools.cache
def _host_type_names() -> pa.Array:
    """The dictionary of ``host_type`` columns, made on first use: ``pa.array``
    imports pandas where it is installed, which ``import urikit.arrow`` need not."""
    return pa.array(HOST_TYPES, pa.string())


def _concat(arrays: list[pa.Array]) -> pa.Array:
    return arrays[0] if len(arrays) == 1 else pa.concat_arrays(arrays)


def _load() -> PureKernel | CompiledKernel:
    if os.environ.get("URIKIT_NO_EXTENSIONS") == "1":
        return PureKernel()
    try:
        from . import _columns
    except ImportError:
        return PureKernel()
    return CompiledKernel(_columns)


#: The kernel in use: compiled when ``urikit._columns`` is built.
KERNEL: PureKernel | CompiledKernel = _load()
