"""Columns of URI references: the scalar API over Arrow columns of strings.

Each function takes a column of ``string``, ``large_string`` or ``string_view``
values through the Arrow PyCapsule interface (a pyarrow ``Array`` or
``ChunkedArray``, a polars ``Series``, a pandas ``Series`` with an Arrow dtype, a
DuckDB relation of one column; a list of ``str`` and ``None`` also serves) and
answers every row exactly as the scalar API answers it (``docs/columns.md`` has
the table).  An ``Array`` gives an ``Array``; anything else a ``ChunkedArray``.

The functions are those of the table ``urikit._column_functions.FUNCTIONS``, one
built from each row: :func:`parse`, the component functions (:func:`scheme` ...
:func:`fragment`), :func:`host_type`, :func:`port_number`, :func:`is_valid`,
:func:`normalize`, :func:`resolve`, :func:`relativize`, :func:`to_uri`,
:func:`query_param` and :func:`audit_codes`.  Their options are keyword-only.

Nulls in, nulls out.  A row that is not a reference never stops a batch: it gives
null (and, in :func:`parse`, the position, rule and reason of its error), unless
``errors="raise"``, which raises the row's :class:`~urikit.URIError` with "row N:"
before its reason.

:func:`parse`, the component functions, :func:`is_valid` for the reference
rules, :func:`host_type` and :func:`port_number` are compiled: C scans the
column's buffers with the GIL released, explains the rows that are not
references with the compiled error locator, and components are ``string_view``
values that point into the input's data, with no ``str`` made per row.
:func:`to_uri` answers in C for rows that are already URIs, :func:`normalize`
for rows whose normal form C writes itself (``docs/columns.md`` says which), and
:func:`resolve` for URI references against an ASCII absolute base; they ask the
scalar API for the others, and :func:`relativize`, :func:`query_param` and
:func:`audit_codes` ask it for every row.  Needs pyarrow (the ``arrow`` extra).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from . import IRI, URI, URIError, _arrow_kernel
from . import is_valid as _is_valid_text
from ._arrow_kernel import COMPONENTS, STRING_TYPES, Split, checked, error_of, row_error, rows
from ._column_functions import (
    FUNCTIONS,
    Answer,
    Call,
    ColumnFunction,
    Operation,
    Shape,
    router,
    variables_json,
)
from ._contracts import SCANNED_RULES, ColumnOperation
from .schemes import DEFAULT_REGISTRY
from .validate import RULE_NAMES

__all__ = sorted(function.name for function in FUNCTIONS)

#: What to do with a row that is not a reference: give null, or raise.
Errors: TypeAlias = Literal["null", "raise"]
Column: TypeAlias = Any
Result: TypeAlias = Any  # pa.Array | pa.ChunkedArray

PARSE_TYPE: Final = pa.struct(
    [
        *((name, pa.string_view()) for name in COMPONENTS),
        ("valid", pa.bool_()),
        ("error_position", pa.int64()),
        ("error", pa.string()),
        ("error_rule", pa.string()),
    ]
)
#: The getters of the URL Standard's URL (§6.1), in the order of
#: ``urikit.whatwg.components``.
WHATWG_COMPONENTS: Final = (
    "href",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
)
#: The type of ``parse(col, reading="whatwg")``: the getters, ``valid`` and the error
#: of input the basic URL parser fails on (``error_rule`` its validation error).
WHATWG_TYPE: Final = pa.struct(
    [
        *((name, pa.string_view()) for name in WHATWG_COMPONENTS),
        ("valid", pa.bool_()),
        ("error_position", pa.int64()),
        ("error", pa.string()),
        ("error_rule", pa.string()),
    ]
)
#: The type of :func:`template_match`: the index of the template in ``templates`` and
#: its variables as a JSON object (a list for an exploded list, an object for an
#: exploded associative array), a type every engine carries.
TEMPLATE_MATCH_TYPE: Final = pa.struct([("index", pa.int64()), ("variables", pa.string())])
#: The Arrow type of each kind of answer.
TYPES: Final[Mapping[Answer, pa.DataType]] = {
    Answer.STRING: pa.string_view(),
    Answer.BOOL: pa.bool_(),
    Answer.INT64: pa.int64(),
    Answer.HOST_TYPE: _arrow_kernel.HOST_TYPE,
    Answer.STRING_LIST: pa.list_(pa.string()),
    Answer.PARSE: PARSE_TYPE,
    Answer.WHATWG: WHATWG_TYPE,
    Answer.TEMPLATE_MATCH: TEMPLATE_MATCH_TYPE,
}
#: The fields of :func:`parse` that explain a row that is not a reference.
_ERROR_FIELDS: Final = ("error_position", "error", "error_rule")


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
    return checked(arrow)


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


def _raise_first(chunk: pa.Array, split: Split, iri: bool, start: int) -> None:
    """Raise the error of the first row the scanner refused, naming the row."""
    if split.invalid:
        row = split.invalid[0]
        error = row_error(chunk, row, iri)
        raise _row_error(start + row, error) from error


def _check_errors(errors: str) -> None:
    if errors not in ("null", "raise"):
        raise ValueError(f"errors must be 'null' or 'raise', not {errors!r}")


# -- the operations of the kernel ---------------------------------------------------------


def _parse(function: ColumnFunction, call: Call) -> Result:
    """One scan: the fields named (all of :data:`PARSE_TYPE` by default), RFC 3986 §3,
    §4.1; RFC 3987 §2.2 with ``iri``."""
    col, options = call.col, call.options
    iri, errors, fields = options["iri"], options["errors"], options["fields"]
    _check_errors(errors)
    type_ = TYPES[function.answer(options)]
    names = list(type_.names) if fields is None else list(fields)
    unknown = [name for name in names if name not in type_.names]
    if unknown or len(set(names)) != len(names) or not names:
        raise ValueError(f"fields must name distinct fields of {list(type_.names)}, not {names!r}")
    if type_ is WHATWG_TYPE:
        if iri:
            raise ValueError('reading="whatwg" reads URLs: iri=True belongs to RFC 3987')
        return _parse_whatwg(col, errors, names)
    wanted = [name for name in COMPONENTS if name in names]
    explained = any(name in _ERROR_FIELDS for name in names)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(chunk, iri, wanted, ("error",) if explained else ())
        if errors == "raise":
            _raise_first(chunk, split, iri, start)
        values: dict[str, pa.Array] = dict(split.components)
        values["valid"] = split.ok
        if split.errors is not None:
            values.update(zip(_ERROR_FIELDS, split.errors, strict=True))
        mask = chunk.is_null() if chunk.null_count else None
        return pa.StructArray.from_arrays(
            [values[name] for name in names],
            fields=[PARSE_TYPE.field(name) for name in names],
            mask=mask,
        )

    return _each_chunk(col, answer)


def _parse_whatwg(col: Column, errors: str, names: list[str]) -> Result:
    """The URL Standard's basic URL parser (§4.4) for each row, by
    ``urikit.whatwg.components`` (in C where it is built): its getters, or for a
    failure ``valid`` false and the validation error, its position and its reason."""
    from .whatwg import components

    n_components = len(WHATWG_COMPONENTS)
    nulls: tuple[None, ...] = (None,) * n_components

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        columns: list[list[Any]] = [[] for _ in WHATWG_TYPE.names]
        for row, text in enumerate(rows(chunk)):
            values: tuple[Any, ...]
            if text is None:
                values = (*nulls, None, None, None, None)
            else:
                try:
                    if isinstance(text, bytes):
                        raise error_of(text, False)
                    values = (*components(text), True, None, None, None)
                except URIError as error:
                    if errors == "raise":
                        raise _row_error(start + row, error) from error
                    values = (*nulls, False, error.position, error.reason, error.rule)
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        by_name = dict(zip(WHATWG_TYPE.names, columns, strict=True))
        mask = chunk.is_null() if chunk.null_count else None
        return pa.StructArray.from_arrays(
            [pa.array(by_name[name], WHATWG_TYPE.field(name).type) for name in names],
            fields=[WHATWG_TYPE.field(name) for name in names],
            mask=mask,
        )

    return _each_chunk(col, answer)


def _host(function: ColumnFunction, call: Call) -> Result:
    """One scan for each row's host (RFC 3986 §3.2.2); the function's answers for the
    distinct hosts of a chunk (:attr:`ColumnFunction.host`), each asked once."""
    col, options = call.col, call.options
    iri, errors = options["iri"], options["errors"]
    _check_errors(errors)
    kw = {k: v for k, v in options.items() if k not in ("errors", "iri")}
    of_host = function.host
    assert of_host is not None
    of_host([], **kw)  # a bad option is a bad call

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(chunk, iri, ("host",))
        if errors == "raise":
            _raise_first(chunk, split, iri, start)
        hosts = split.components["host"].dictionary_encode()
        found = of_host(hosts.dictionary.to_pylist(), **kw)
        answers = pa.array(found, pa.string()).take(hosts.indices)
        return answers.cast(pa.string_view())

    return _each_chunk(col, answer)


def _route(function: ColumnFunction, call: Call) -> Result:
    """One router for the column (``urikit.template.Router``, matching in C where it is
    built), each row matched as written: the most specific template (RFC 6570).  The
    rows that ``Router.match_rows`` leaves are matched by ``Router.match``."""
    col, errors, (templates,) = call.col, call.options["errors"], call.text
    _check_errors(errors)
    routes = router(templates)  # a malformed template is a bad call
    match = routes.match

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        texts = rows(chunk)
        # the rows the compiled core answers, then the others as Router.match answers
        indexes, variables, rest = routes.match_rows(texts)
        for row in rest:
            text = texts[row]
            if isinstance(text, str):
                found = match(text)
                if found is not None:
                    indexes[row] = found.index
                    variables[row] = variables_json(found.variables)
            elif isinstance(text, bytes) and errors == "raise":
                raise _row_error(start + row, error_of(text, False))
        index_array = pa.array(indexes, pa.int64())
        return pa.StructArray.from_arrays(
            [index_array, pa.array(variables, pa.string())],
            fields=list(TEMPLATE_MATCH_TYPE),
            mask=index_array.is_null(),
        )

    return _each_chunk(col, answer)


def _split(function: ColumnFunction, call: Call) -> Result:
    """One scan: the output of the split named as the function."""
    col, options = call.col, call.options
    name, iri, errors = function.name, options["iri"], options["errors"]
    _check_errors(errors)
    component = name in COMPONENTS

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        split = _kernel().split(
            chunk, iri, (name,) if component else (), () if component else (name,)
        )
        if errors == "raise":
            _raise_first(chunk, split, iri, start)
            for row in split.overflow:  # a port above 65535: the scalar error names it
                try:
                    function.scalar(rows(chunk.slice(row, 1))[0], iri=iri)
                except URIError as error:
                    raise _row_error(start + row, error) from error
        if component:
            return split.components[name]
        return getattr(split, name)

    return _each_chunk(col, answer)


def _rule(function: ColumnFunction, call: Call) -> Result:
    """One scan for the reference rules (RFC 3986 §4.1-§4.3), the scalar elsewhere."""
    col, (rule,) = call.col, call.text
    if rule not in RULE_NAMES:
        _is_valid_text("", rule)  # raises ValueError naming the known rules
    scanned = SCANNED_RULES.get(rule)

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        if scanned is None:  # octets that are not UTF-8 match no rule
            return pa.array(
                [
                    None if t is None else isinstance(t, str) and function.scalar(t, rule)
                    for t in rows(chunk)
                ],
                pa.bool_(),
            )
        iri, needs_scheme, no_fragment, no_scheme = scanned
        wanted = ("scheme", "fragment") if needs_scheme or no_scheme else ()
        split = _kernel().split(chunk, iri, wanted)
        valid = split.ok
        if wanted:
            has_scheme = split.components["scheme"].is_valid()
            valid = pc.and_(valid, pc.invert(has_scheme) if no_scheme else has_scheme)
            if no_fragment:
                valid = pc.and_(valid, split.components["fragment"].is_null())
        return valid

    return _each_chunk(col, answer)


#: A query piece (RFC 3986 §3.4; pieces split on "&") whose name is the name given as
#: written, or holds a "%" or a "+", so that its decoded name may be any name.
_MAYBE_NAMED: Final = r"(?:^|&)(?:{name}(?:=|&|$)|[^&=]*[%+])"


def _param(function: ColumnFunction, call: Call) -> Result:
    """One scan for each row's query; the scalar function for the rows whose query may
    hold the parameter ``name`` (RFC 3986 §3.4): a piece's name decodes to ``name``
    only if it is ``name`` as written or holds "%" or "+".  The other rows have no such
    parameter (null).  The search is one linear-time RE2 pass (no backtracking)."""
    col, options, (name,) = call.col, call.options, call.text
    errors, iri = options["errors"], options["iri"]
    _check_errors(errors)
    kw = {k: v for k, v in options.items() if k != "errors" and v is not function.defaults[k]}
    function.scalar("", name, **kw)  # a bad name or codec is a bad call
    if errors == "raise":  # every row's error, an over-long query's too
        return _map(function, call)
    pattern = _MAYBE_NAMED.format(name=re.escape(name))

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        query = _kernel().split(chunk, iri, ("query",)).components["query"]
        query = query.cast(pa.large_string())  # the type Arrow's string search takes
        maybe = pc.match_substring_regex(query, pattern)
        found = pc.indices_nonzero(pc.fill_null(maybe, False)).to_pylist()
        values: list[str | None] = [None] * len(chunk)
        if len(found) * 8 > len(chunk):
            every = rows(chunk)
            texts = [every[row] for row in found]
        else:  # a string_view array cannot be taken from
            texts = [rows(chunk.slice(row, 1))[0] for row in found]
        for row, text in zip(found, texts, strict=True):
            with contextlib.suppress(URIError):  # the row's answer is null
                values[row] = function.scalar(text, name, **kw)
        return pa.array(values, pa.string_view())

    return _each_chunk(col, answer)


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
            values.extend(rows(bases))
            return values[row]
        return rows(bases.slice(row, 1))[0]

    return base_of


_ONE_BY_ONE: Final = 64


def _base_column(base: Any) -> pa.Array | pa.ChunkedArray:
    """``base`` as a column of bases, or a ``TypeError`` saying what a base is."""
    try:
        return _as_arrow(base)
    except TypeError:
        raise TypeError(
            "base is one reference (a str, URI or IRI) for every row, or a column of"
            f" them row by row, not {type(base).__name__}"
        ) from None


def _one_absolute_uri(base: Any) -> str | None:
    """The text of ``base`` when it is a ``str`` or ``URI`` that is an ASCII URI with
    a scheme (RFC 3986 §3; a fragment plays no part in resolution), which
    ``urikit.resolve`` reads as a URI; else ``None``."""
    if type(base) is str or type(base) is URI:
        text = str(base)
        if text.isascii() and URI(text).scheme is not None:
            return text
    return None


def _map(function: ColumnFunction, call: Call) -> Result:
    """The operation the row's plan chooses for each row the kernel answers (the
    scalar function for every row with :attr:`Operation.SCALAR`), the scalar
    function for the others."""
    col, options, args = call.col, call.options, list(call.text)
    errors = options.get("errors", "null")
    _check_errors(errors)
    # the options given, to the scalar function, whose defaults are the table's
    kw = {
        name: value
        for name, value in options.items()
        if name not in ("errors", "fields") and value is not function.defaults[name]
    }
    operation = ColumnOperation.SCALAR
    if function.plan is not None and function.operation is Operation.MAP:
        operation = function.plan(options)
    against, bases = None, None
    base_of: Callable[[int], Any] | None = None
    if function.shape is Shape.BASE_AND_COLUMN:
        base = call.base
        if not isinstance(base, (str, URI, IRI)):  # one array, sliced as col is
            base = _base_column(base)
            if isinstance(base, pa.ChunkedArray):
                chunks = base.chunks
                base = pa.concat_arrays(chunks) if chunks else pa.array([], base.type)
        base_of = _bases(base, col)
        if operation is ColumnOperation.RESOLVE:
            if isinstance(base, (str, URI, IRI)):
                against = _one_absolute_uri(base)
                operation = ColumnOperation.SCALAR if against is None else operation
            elif base.type in STRING_TYPES:
                operation, bases = ColumnOperation.RESOLVE_EACH, base
            else:
                operation = ColumnOperation.SCALAR
    if function.result is not Answer.STRING:
        return _scalar_rows(function, col, args, kw, base_of, errors)
    invalid_is_null = (
        function.uri_only and errors == "null" and operation is not ColumnOperation.SCALAR
    )

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        def fallback(row: int, text: str | bytes) -> str | None:
            try:
                if isinstance(text, bytes):
                    raise error_of(text, options.get("iri", False))
                if base_of is None:
                    return function.scalar(text, *args, **kw)  # type: ignore[no-any-return]
                b = base_of(start + row)
                if isinstance(b, bytes):
                    raise error_of(b, False)
                return None if b is None else function.scalar(b, text, *args, **kw)
            except URIError as error:
                if errors == "raise":
                    raise _row_error(start + row, error) from error
                return None

        request = _arrow_kernel.Request(
            operation,
            fallback,
            registry=options.get("registry", DEFAULT_REGISTRY),
            invalid_is_null=invalid_is_null,
            against=against,
            strict=options.get("strict", True),
            bases=None if bases is None else bases.slice(start, len(chunk)),
        )
        return _kernel().map(chunk, request)

    return _each_chunk(col, answer)


def _scalar_rows(
    function: ColumnFunction,
    col: Column,
    args: list[Any],
    kw: dict[str, Any],
    base_of: Callable[[int], Any] | None,
    errors: str,
) -> Result:
    """The scalar function of each row, for an answer that is not a string."""
    type_ = TYPES[function.result]

    def answer(chunk: pa.Array, start: int) -> pa.Array:
        values = []
        for row, text in enumerate(rows(chunk)):
            value = None
            if text is not None:
                head = [] if base_of is None else [base_of(start + row)]
                try:
                    if isinstance(text, bytes) and not function.reads_octets:
                        raise error_of(text, False)
                    for b in head:
                        if isinstance(b, bytes):
                            raise error_of(b, False)
                    value = None if head == [None] else function.scalar(*head, text, *args, **kw)
                except URIError as error:
                    if errors == "raise":
                        raise _row_error(start + row, error) from error
            values.append(value)
        return pa.array(values, type_)

    return _each_chunk(col, answer)


_IMPLEMENTATIONS: Final[Mapping[Operation, Callable[[ColumnFunction, Call], Result]]] = {
    Operation.PARSE: _parse,
    Operation.SPLIT: _split,
    Operation.RULE: _rule,
    Operation.MAP: _map,
    Operation.PARAM: _param,
    Operation.HOST: _host,
    Operation.ROUTE: _route,
    Operation.SCALAR: _map,
}


def _column_function(function: ColumnFunction) -> Callable[..., Result]:
    """The function of Arrow columns of one row of the table."""
    implementation = _IMPLEMENTATIONS[function.operation]
    column_function = function.adapt(lambda call: implementation(function, call))
    column_function.__module__ = __name__
    return column_function


#: The function of each row of the table, by name.
FUNCTIONS_BY_NAME: Final[Mapping[str, Callable[..., Result]]] = {
    function.name: _column_function(function) for function in FUNCTIONS
}
globals().update(FUNCTIONS_BY_NAME)

if TYPE_CHECKING:

    def __getattr__(name: str) -> Callable[..., Result]:
        """The column functions, built from the table at import."""
        raise AttributeError(name)
