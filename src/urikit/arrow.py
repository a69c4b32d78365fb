"""Columns of URI references: the scalar API over Arrow columns of strings.

Each function takes a column of ``string``, ``large_string`` or ``string_view``
values through the Arrow PyCapsule interface (a pyarrow ``Array`` or
``ChunkedArray``, a polars ``Series``, a pandas ``Series`` with an Arrow dtype, a
DuckDB relation of one column; a list of ``str`` and ``None`` also serves) and
answers every row exactly as the scalar API answers it (``docs/columns.md`` has
the table).  An ``Array`` gives an ``Array``; anything else a ``ChunkedArray``.

Nulls in, nulls out.  A row that is not a reference never stops a batch: it gives
null (and, in :func:`parse`, the position, rule and reason of its error), unless
``errors="raise"``, which raises the row's :class:`~urikit.URIError` with "row N:"
before its reason.

:func:`parse`, the component functions, :func:`is_valid` for the reference
rules, :func:`host_type` and :func:`port_number` are compiled: C scans the
column's buffers with the GIL released, and components are ``string_view``
values that point into the input's data, with no ``str`` made per row.
:func:`to_uri` answers in C for rows that are already URIs, :func:`normalize`
for rows whose normal form C writes itself (``docs/columns.md`` says which), and
both ask the scalar API for the others; :func:`resolve`, :func:`relativize`, :func:`query_param`,
:func:`audit_codes` and the other rules of :func:`is_valid` ask it for every row.
Needs pyarrow (the ``arrow`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, TypeAlias

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from . import IRI, URI, SchemeRegistry, URIError, _arrow_kernel, audit
from . import is_valid as _is_valid_text
from . import normalize as _normalize_text
from . import relativize as _relativize_text
from . import resolve as _resolve_text
from ._arrow_kernel import COMPONENTS, STRING_TYPES, Split
from .schemes import DEFAULT_REGISTRY
from .types import Codec, Level, Spec
from .validate import RULE_NAMES

__all__ = [
    "audit_codes",
    "authority",
    "fragment",
    "host",
    "host_type",
    "is_valid",
    "normalize",
    "parse",
    "path",
    "port",
    "port_number",
    "query",
    "query_param",
    "relativize",
    "resolve",
    "scheme",
    "to_uri",
    "userinfo",
]

#: What to do with a row that is not a reference: give null, or raise.
Errors: TypeAlias = Literal["null", "raise"]
Column: TypeAlias = Any
Result: TypeAlias = Any  # pa.Array | pa.ChunkedArray

#: The rules :func:`is_valid` answers in C: (IRI grammar, the test on the parse).
_COMPILED_RULES: Final = {
    "URI-reference": (False, "reference"),
    "URI": (False, "absolute"),
    "absolute-URI": (False, "no-fragment"),
    "relative-ref": (False, "relative"),
    "IRI-reference": (True, "reference"),
    "IRI": (True, "absolute"),
    "absolute-IRI": (True, "no-fragment"),
    "irelative-ref": (True, "relative"),
}
_LEVEL_RANK: Final = {"string": 0, "syntax": 1, "scheme": 2}
_NO_STEPS: Final = {
    "unicode": None,
    "idna": None,
    "strip_host_dot": False,
    "remove_params": None,
    "remove_tracking": False,
    "form_query": False,
    "sort_query": False,
    "drop_empty_query": False,
    "drop_fragment": False,
}
PARSE_TYPE: Final = pa.struct(
    [
        *((name, pa.string_view()) for name in COMPONENTS),
        ("valid", pa.bool_()),
        ("error_position", pa.int64()),
        ("error", pa.string()),
        ("error_rule", pa.string()),
    ]
)


# -- columns in and out -----------------------------------------------------------------


def _as_arrow(col: Column) -> pa.Array | pa.ChunkedArray:
    """``col`` as a pyarrow array of strings (the Arrow PyCapsule interface)."""
    if isinstance(col, (pa.Array, pa.ChunkedArray)):
        arrow = col
    elif hasattr(col, "__arrow_c_stream__"):
        arrow = pa.chunked_array(col)
    elif hasattr(col, "__arrow_c_array__"):
        arrow = pa.array(col)
    elif isinstance(col, Sequence) and not isinstance(col, (str, bytes)):
        arrow = pa.array(col, pa.string())
    else:
        raise TypeError(f"expected a column of strings, not {type(col).__name__}")
    if pa.types.is_struct(arrow.type) and arrow.type.num_fields == 1:
        # a table of one column, as a DuckDB relation exports itself
        if isinstance(arrow, pa.ChunkedArray):
            arrow = pa.chunked_array([c.field(0) for c in arrow.chunks], arrow.type.field(0).type)
        else:
            arrow = arrow.field(0)
    if arrow.type not in STRING_TYPES:
        raise TypeError(
            f"expected a column of string, large_string or string_view, not {arrow.type}"
        )
    return arrow


def _each_chunk(col: Column, answer: Callable[[pa.Array, int], pa.Array]) -> Result:
    """``answer(chunk, first_row)`` for each chunk of ``col``, in the shape of ``col``."""
    arrow = _as_arrow(col)
    if isinstance(arrow, pa.Array):
        return answer(arrow, 0)
    chunks, start = [], 0
    for chunk in arrow.chunks:
        chunks.append(answer(chunk, start))
        start += len(chunk)
    if not chunks:
        return pa.chunked_array([], answer(pa.array([], arrow.type), 0).type)
    return pa.chunked_array(chunks)


def _kernel() -> _arrow_kernel.PureKernel | _arrow_kernel.CompiledKernel:
    return _arrow_kernel.KERNEL


def _row_error(row: int, error: URIError) -> URIError:
    return URIError(
        f"row {row}: {error.reason}", text=error.text, position=error.position, rule=error.rule
    )


def _error_of(text: str, iri: bool) -> URIError:
    """The scalar API's error for a row the scanner refused."""
    try:
        (IRI if iri else URI)(text)
    except URIError as error:
        return error
    raise AssertionError(f"the column kernel refused a reference the scalar API reads: {text!r}")


def _errors_of(
    chunk: pa.Array, split: Split, iri: bool, errors: Errors, start: int
) -> list[URIError]:
    """The error of each row the scanner refused, in order; the scalar API explains
    each distinct text once."""
    found = []
    known: dict[str, URIError] = {}
    for row in split.invalid:
        text = chunk[row].as_py()
        error = known.get(text)
        if error is None:
            error = known[text] = _error_of(text, iri)
        if errors == "raise":
            raise _row_error(start + row, error) from error
        found.append(error)
    return found


def _check_errors(errors: str) -> None:
    if errors not in ("null", "raise"):
        raise ValueError(f"errors must be 'null' or 'raise', not {errors!r}")


# -- parsing (RFC 3986 §3, §4.1; RFC 3987 §2.2) -------------------------------------------


def parse(
    col: Column,
    *,
    iri: bool = False,
    errors: Errors = "null",
    fields: Sequence[str] | None = None,
) -> Result:
    """Each row taken apart: a struct of the 8 components (null where undefined,
    ``""`` where empty, as :class:`~urikit.URI` gives them), ``valid``, and for a
    row that is not a reference ``error_position`` (in characters, as
    ``URIError.position``), ``error`` (``URIError.reason``) and ``error_rule``.
    A null row gives a null struct.  ``iri=True`` reads IRIs (RFC 3987 §2.2).

    ``fields`` names the fields to build, in the order wanted (``("host",
    "path")``): the others cost nothing, and every row is still scanned and
    validated once.
    """
    _check_errors(errors)
    names = list(PARSE_TYPE.names) if fields is None else list(fields)
    unknown = [name for name in names if name not in PARSE_TYPE.names]
    if unknown or len(set(names)) != len(names) or not names:
        raise ValueError(
            f"fields must name distinct fields of {list(PARSE_TYPE.names)}, not {names!r}"
        )
    wanted = [name for name in COMPONENTS if name in names]
    explained = any(name in _ERROR_FIELDS for name in names)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(chunk, iri, wanted)
        n = len(chunk)
        values: dict[str, pa.Array] = dict(split.components)
        values["valid"] = split.ok
        if explained or errors == "raise":
            found = _errors_of(chunk, split, iri, errors, start)
            for name, (attribute, type_) in _ERROR_FIELDS.items():
                if name in names:
                    answers = [getattr(e, attribute) for e in found]
                    values[name] = _kernel().scatter(n, split.invalid, answers, type_)
        mask = chunk.is_null() if chunk.null_count else None
        return pa.StructArray.from_arrays(
            [values[name] for name in names],
            fields=[PARSE_TYPE.field(name) for name in names],
            mask=mask,
        )

    return _each_chunk(col, answer)


#: The fields of :func:`parse` that explain a row that is not a reference:
#: the attribute of its ``URIError`` and the type.
_ERROR_FIELDS: Final = {
    "error_position": ("position", pa.int64()),
    "error": ("reason", pa.string()),
    "error_rule": ("rule", pa.string()),
}


def _component(col: Column, name: str, iri: bool, errors: Errors) -> Result:
    _check_errors(errors)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(chunk, iri, (name,))
        _errors_of(chunk, split, iri, errors, start)
        return split.components[name]

    return _each_chunk(col, answer)


def scheme(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The scheme of each row (RFC 3986 §3.1) as ``string_view``; see :func:`parse`."""
    return _component(col, "scheme", iri, errors)


def authority(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The authority of each row (RFC 3986 §3.2); see :func:`parse`."""
    return _component(col, "authority", iri, errors)


def userinfo(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The userinfo of each row (RFC 3986 §3.2.1); see :func:`parse`."""
    return _component(col, "userinfo", iri, errors)


def host(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The host of each row (RFC 3986 §3.2.2), IP literals in brackets; see :func:`parse`."""
    return _component(col, "host", iri, errors)


def port(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The port of each row as written (RFC 3986 §3.2.3); see :func:`port_number`."""
    return _component(col, "port", iri, errors)


def path(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The path of each row (RFC 3986 §3.3), never null for a reference."""
    return _component(col, "path", iri, errors)


def query(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The query of each row (RFC 3986 §3.4); see :func:`parse`."""
    return _component(col, "query", iri, errors)


def fragment(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """The fragment of each row (RFC 3986 §3.5); see :func:`parse`."""
    return _component(col, "fragment", iri, errors)


def host_type(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """``URI.host_type`` of each row: ``"ipv4"``, ``"ipv6"``, ``"ipvfuture"`` or
    ``"reg-name"`` (RFC 3986 §3.2.2), null without a host; dictionary-encoded."""
    _check_errors(errors)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(chunk, iri, (), ("host_type",))
        _errors_of(chunk, split, iri, errors, start)
        return split.host_type

    return _each_chunk(col, answer)


def port_number(col: Column, *, iri: bool = False, errors: Errors = "null") -> Result:
    """``URI.port_number`` of each row as int64: null when the port is absent or
    empty, and null (or with ``errors="raise"`` the scalar error) for a port
    above 65535, the largest TCP or UDP port."""
    _check_errors(errors)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(chunk, iri, (), ("port_number",))
        _errors_of(chunk, split, iri, errors, start)
        if errors == "raise":
            for row in split.overflow:  # above 65535: the scalar error names the port
                try:
                    (IRI if iri else URI)(chunk[row].as_py()).port_number  # noqa: B018
                except URIError as error:
                    raise _row_error(start + row, error) from error
        return split.port_number

    return _each_chunk(col, answer)


def is_valid(col: Column, rule: str = "URI-reference") -> Result:
    """:func:`urikit.is_valid` of each row against the ABNF rule ``rule``: a
    boolean column, null for a null row.  Answered in C for ``URI-reference``,
    ``URI``, ``absolute-URI``, ``relative-ref`` and their IRI rules."""
    if rule not in RULE_NAMES:
        _is_valid_text("", rule)  # raises ValueError naming the known rules
    compiled = _COMPILED_RULES.get(rule)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        if compiled is None:
            texts = chunk.to_pylist()
            return pa.array([None if t is None else _is_valid_text(t, rule) for t in texts])
        iri, test = compiled
        wanted = () if test == "reference" else ("scheme", "fragment")
        split = _kernel().split(chunk, iri, wanted)
        if test == "reference":
            return split.ok
        has_scheme = split.components["scheme"].is_valid()
        if test == "relative":
            return pc.and_(split.ok, pc.invert(has_scheme))
        if test == "absolute":
            return pc.and_(split.ok, has_scheme)
        return pc.and_(pc.and_(split.ok, has_scheme), split.components["fragment"].is_null())

    return _each_chunk(col, answer)


# -- operations, by the scalar API where the fast test is unsure -----------------------------


def _mapped(
    col: Column,
    rank: int,
    registry: SchemeRegistry,
    scalar: Callable[[int, str], str | None],
    errors: Errors,
    uri_only: bool = False,
    against: str | None = None,
    strict: bool = True,
    bases: pa.Array | None = None,
) -> Result:
    """``scalar(row, text)`` of each row, but for the rows the kernel answers
    itself (``rank``, see ``_columns.map``; ``against`` and ``strict`` at rank
    ``RESOLVE``, ``bases``, one array as long as ``col``, and ``strict`` at rank
    ``RESOLVE_EACH``).  ``uri_only`` says that ``scalar`` raises ``URIError`` for
    every row that is not an URI-reference, so with ``errors="null"`` the kernel
    gives those null without asking."""
    _check_errors(errors)
    invalid_is_null = uri_only and errors == "null"

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        def fallback(row: int, text: str) -> str | None:
            try:
                return scalar(start + row, text)
            except URIError as error:
                if errors == "raise":
                    raise _row_error(start + row, error) from error
                return None

        rows = None if bases is None else bases.slice(start, len(chunk))
        return _kernel().map(
            chunk, rank, registry, fallback, invalid_is_null, against, strict, rows
        )

    return _each_chunk(col, answer)


def normalize(
    col: Column,
    *,
    level: Level = "scheme",
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    iri: bool = False,
    errors: Errors = "null",
    **steps: Any,
) -> Result:
    """:func:`urikit.normalize` of each row (RFC 3986 §6.2), as ``string_view``;
    ``steps`` are its protocol-based steps.  Without steps and for URIs, an ASCII row
    is normalized in C by the compiled core's normal form (a row already normal is a
    view of the input); a relative-path reference with dot-segments, and every row
    with steps or for IRIs, by the scalar API."""
    unknown = set(steps) - set(_NO_STEPS)
    if unknown:
        raise TypeError(f"normalize() got unexpected keyword arguments {sorted(unknown)}")
    if level not in _LEVEL_RANK:
        raise ValueError(f"level must be one of {sorted(_LEVEL_RANK)}, not {level!r}")
    plain = all(steps.get(name, default) == default for name, default in _NO_STEPS.items())
    rank = _LEVEL_RANK[level] if plain and not iri else -1

    def scalar(row: int, text: str) -> str:
        if iri:
            return str(IRI(text).normalize(level=level, registry=registry, **steps))
        return str(_normalize_text(text, level=level, registry=registry, **steps))

    return _mapped(col, rank, registry, scalar, errors, uri_only=not iri)


def _bases(base: Any, col: Column) -> Callable[[int], Any]:
    """The base of each row: one reference, or the rows of a column of them."""
    if isinstance(base, (str, URI, IRI)):
        if isinstance(base, str):
            URI(base)  # a bad base is a bad call, not a bad row
        return lambda row: base
    bases = _as_arrow(base)
    if len(bases) != len(_as_arrow(col)):
        raise ValueError(f"{len(bases)} bases for {len(_as_arrow(col))} references")
    # Each base is read when its row needs it (the kernel answers most rows without),
    # and the whole column once many rows have.
    values: list[Any] = []
    asked = [0]

    def base_of(row: int) -> Any:
        if values:
            return values[row]
        asked[0] += 1
        if asked[0] > _ONE_BY_ONE:
            values.extend(bases.to_pylist())
            return values[row]
        return bases[row].as_py()

    return base_of


_ONE_BY_ONE: Final = 64


def resolve(
    base: Any,
    col: Column,
    *,
    strict: bool = True,
    spec: Spec = "rfc3986",
    errors: Errors = "null",
) -> Result:
    """:func:`urikit.resolve` of each row against ``base`` (one reference, or a
    column of them, row by row), RFC 3986 §5.2.  Where the base is an ASCII URI
    with a scheme and the row a URI reference, the row is resolved in C; the
    other rows (relative, invalid or IRI bases; with ``errors="raise"``, rows that
    are not URI references; any row with another ``spec``) by the scalar API."""
    one = isinstance(base, (str, URI, IRI))
    if not one:  # one array, read once, that the kernel slices as it slices col
        base = _as_arrow(base)
        if isinstance(base, pa.ChunkedArray):
            base = pa.concat_arrays(base.chunks) if base.num_chunks else pa.array([], base.type)
    base_of = _bases(base, col)

    def scalar(row: int, text: str) -> str | None:
        b = base_of(row)
        return None if b is None else str(_resolve_text(b, text, strict=strict, spec=spec))

    if spec != "rfc3986":
        return _mapped(col, -1, DEFAULT_REGISTRY, scalar, errors)
    if one:
        against = _one_absolute_uri(base)
        if against is None:
            return _mapped(col, -1, DEFAULT_REGISTRY, scalar, errors)
        return _mapped(
            col, _arrow_kernel.RESOLVE, DEFAULT_REGISTRY, scalar, errors, uri_only=True,
            against=against, strict=strict,
        )  # fmt: skip
    if base.type not in _arrow_kernel.STRING_TYPES:
        return _mapped(col, -1, DEFAULT_REGISTRY, scalar, errors)
    return _mapped(
        col, _arrow_kernel.RESOLVE_EACH, DEFAULT_REGISTRY, scalar, errors, uri_only=True,
        strict=strict, bases=base,
    )  # fmt: skip


def _one_absolute_uri(base: Any) -> str | None:
    """The text of ``base`` when it is a ``str`` or ``URI`` that is an ASCII URI with
    a scheme (RFC 3986 §3; a fragment plays no part in resolution), which
    ``urikit.resolve`` reads as a URI; else ``None``."""
    if type(base) is str or type(base) is URI:
        text = str(base)
        if text.isascii() and URI(text).scheme is not None:
            return text
    return None


def relativize(base: Any, col: Column, *, errors: Errors = "null") -> Result:
    """:func:`urikit.relativize` of each row against ``base`` (one reference, or a
    column of them); by the scalar API."""
    base_of = _bases(base, col)

    def scalar(row: int, text: str) -> str | None:
        b = base_of(row)
        return None if b is None else str(_relativize_text(b, text))

    return _mapped(col, -1, DEFAULT_REGISTRY, scalar, errors)


def to_uri(
    col: Column, *, idna: bool = False, nfc: bool = False, errors: Errors = "null"
) -> Result:
    """``IRI(row).to_uri()`` of each row (RFC 3987 §3.1).  A row that is already a
    URI is its own answer, found in C (without ``idna``); the others by the
    scalar API."""

    def scalar(row: int, text: str) -> str:
        return str(IRI(text).to_uri(idna=idna, nfc=nfc))

    return _mapped(col, -1 if idna else 0, DEFAULT_REGISTRY, scalar, errors)


def query_param(
    col: Column, name: str, *, codec: Codec = "form", iri: bool = False, errors: Errors = "null"
) -> Result:
    """``URI(row).query_param(name)`` of each row (RFC 3986 §3.4): the first value,
    decoded, or null; by the scalar API."""
    reference = IRI if iri else URI

    def scalar(row: int, text: str) -> str | None:
        return reference(text).query_param(name, codec=codec)

    return _mapped(col, -1, DEFAULT_REGISTRY, scalar, errors)


def audit_codes(col: Column, *, registry: SchemeRegistry = DEFAULT_REGISTRY) -> Result:
    """The codes of :func:`urikit.audit`'s findings for each row (RFC 3986 §7), a
    list of strings; by the scalar API.  Text that is not a reference gives an
    ``invalid`` finding, never an error."""

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        codes = [
            None if text is None else [f.code for f in audit(text, registry=registry)]
            for text in chunk.to_pylist()
        ]
        return pa.array(codes, pa.list_(pa.string()))

    return _each_chunk(col, answer)
