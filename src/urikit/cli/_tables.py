"""Records as the rows of an output table (Parquet or CSV).

A table has a column per key of the JSON records: ``input`` and ``ok``, the
subcommand's fields, then the error, flattened into ``error`` (its reason, as
``urikit.arrow.parse`` names it), ``error_position``, ``error_rule`` and
``error_message`` (with the caret), and, with ``--lenient``, ``repairs``.  A
key that a record lacks is null in its row (a successful record has no error,
a failed one no fields).  CSV has no lists: a list is written there as its JSON
text.  Needs pyarrow.
"""

from __future__ import annotations

import json
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]

#: The column type of each kind of JSON field (``_operation.Operation.fields``).
TYPES: Final = {
    "string": pa.string(),
    "int": pa.int64(),
    "bool": pa.bool_(),
    "strings": pa.list_(pa.string()),
    "pairs": pa.list_(pa.list_(pa.string())),
    "findings": pa.list_(
        pa.struct(
            [
                ("code", pa.string()),
                ("severity", pa.string()),
                ("component", pa.string()),
                ("span", pa.list_(pa.int64())),
                ("repaired", pa.bool_()),
                ("message", pa.string()),
            ]
        )
    ),
}
ERROR_COLUMNS: Final = (
    ("error", pa.string()),
    ("error_position", pa.int64()),
    ("error_rule", pa.string()),
    ("error_message", pa.string()),
)
REPAIRS: Final = pa.list_(
    pa.struct([("code", pa.string()), ("position", pa.int64()), ("message", pa.string())])
)


def schema(fields: dict[str, str], *, lenient: bool = False) -> pa.Schema:
    """The columns of a table of records with ``fields``."""
    columns = [("input", pa.string()), ("ok", pa.bool_())]
    columns.extend((name, TYPES[kind]) for name, kind in fields.items())
    columns.extend(ERROR_COLUMNS)
    if lenient:
        columns.append(("repairs", REPAIRS))
    return pa.schema(columns)


def flat(record: dict[str, Any]) -> dict[str, Any]:
    """A JSON record as a row: its ``error`` object spread over the error columns."""
    row = dict(record)
    error = row.pop("error", None)
    if error is not None:
        row["error"] = error["reason"]
        row["error_position"] = error["position"]
        row["error_rule"] = error["rule"]
        row["error_message"] = error["message"]
    return row


INT64_MAX: Final = 2**63 - 1


def from_records(records: list[dict[str, Any]], table_schema: pa.Schema) -> pa.RecordBatch:
    """The rows of JSON ``records``."""
    rows = [flat(r) for r in records]
    for f in table_schema:
        if f.type == pa.int64():
            for row in rows:
                value = row.get(f.name)
                if value is not None and not -INT64_MAX - 1 <= value <= INT64_MAX:
                    row[f.name] = None
    return pa.RecordBatch.from_pylist(rows, schema=table_schema)


def _as_text(type_: pa.DataType) -> bool:
    """Whether CSV writes a column of ``type_`` as text made here: nested values (lists,
    structs, maps) as their JSON, octets as UTF-8 (invalid octets as ``\\xHH``)."""
    return bool(
        pa.types.is_nested(type_) or pa.types.is_binary(type_) or pa.types.is_large_binary(type_)
        or pa.types.is_fixed_size_binary(type_) or pa.types.is_binary_view(type_)
    )  # fmt: skip


def csv_schema(table_schema: pa.Schema) -> pa.Schema:
    """``table_schema`` with each column CSV cannot write as text (see :func:`_as_text`)."""
    return pa.schema(
        [pa.field(f.name, pa.string()) if _as_text(f.type) else f for f in table_schema]
    )


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return json.dumps(value, ensure_ascii=False, default=str)


def for_csv(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``batch`` with each list (and other nested value) written as its JSON text, and
    octets as text, as CSV holds neither."""
    if not any(_as_text(f.type) for f in batch.schema):
        return batch
    columns = []
    for f, column in zip(batch.schema, batch.columns, strict=True):
        if _as_text(f.type):
            column = pa.array([_text(v) for v in column.to_pylist()], pa.string())
        columns.append(column)
    return pa.RecordBatch.from_arrays(columns, schema=csv_schema(batch.schema))
