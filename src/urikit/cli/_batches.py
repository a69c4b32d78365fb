"""One batch of inputs made into its records, in a worker process or in the command's own.

A :class:`Batch` holds consecutive inputs: lines (octets, as read), arguments,
or the rows of a table column (an Arrow array of strings, or octets for a
binary column).  :class:`Job` makes the record of each input exactly as the
line mode does (``_output.Records``), into a :class:`Done`: the records' text
(JSON lines or text records) or, for an output table, their rows.

Where the subcommand's operation has a column kernel (``_operation``), the
batch goes through it first and only the rows it leaves unanswered are made
one by one.  A table column in and a table out never make a Python object per
answered row: the input column is shown with its passwords masked (only rows
holding "@" are looked at), and the kernel's columns are the fields.

A null row (a table's missing value) holds no URI reference: its record is an
error, whose ``input`` is null.
"""

from __future__ import annotations

import argparse
import hashlib
import signal
from dataclasses import dataclass, field
from typing import Any, Final

from .. import URIError
from . import _display, _input, _output
from ._operation import Factory, One, OneJson, Operation

NULL_REASON: Final = "the row is null: it holds no URI reference"

#: ``Batch.unit``: where the inputs came from, as their labels name it.
LINE: Final = "line"
ARGUMENT: Final = "argument"
ROW: Final = "row"


@dataclass
class Batch:
    """Inputs ``start + 1`` ... of a source, and how far the source is read after them.

    ``values`` are raw lines with their ends (``bytes``, or ``str`` from a text
    stream) for ``LINE``, ``str`` for ``ARGUMENT``, and for ``ROW`` an Arrow
    array of strings or a list of ``bytes`` and ``None``; ``bases`` the base of
    each row (``--base-column``), as a list of ``str`` and ``None``.
    """

    start: int
    unit: str
    values: Any
    bases: list[str | None] | None = None
    position: int = 0


@dataclass
class Done:
    """The records of a batch: ``text`` (each record and its line end), or with
    ``--unique`` ``records`` and their ``keys`` (``None`` for an error, which is
    always written), or a ``table``; the ``messages`` for standard error."""

    rows: int
    failed: int
    position: int
    text: str = ""
    records: list[str] | None = None
    keys: list[bytes | None] | None = None
    table: Any = None
    messages: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Plan:
    """What every worker needs to make records: the subcommand, its arguments and
    operation, and the form of the output (``table``: rows for Parquet or CSV;
    ``json``: JSON lines; else text records), in ``encoding``."""

    args: argparse.Namespace
    command: str
    factory: Factory
    table: bool = False
    csv: bool = False
    json: bool = False
    encoding: str = "utf-8"


class Job:
    """Makes the records of batches, as :attr:`plan` says."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.buffer = _output.Buffer(plan.encoding, keep_json=plan.table)
        self.records = _output.Records(plan.args, plan.command, out=self.buffer)
        self.records.json = plan.table or plan.json
        self.records.json_errors = plan.json
        self.operation: Operation = plan.factory(plan.args, self.records)
        self.schema: Any = None
        if plan.table:
            from . import _tables

            self.schema = _tables.schema(self.operation.fields, lenient=self.records.lenient)

    def __call__(self, batch: Batch) -> Done:
        self.buffer.records = []
        self.buffer.messages = []
        self.records.failures = 0
        op = self.operation
        keys: list[bytes | None] | None = None
        by_columns = op.column is not None and op.key is None
        if self.plan.table and by_columns and _is_arrow(batch.values):
            table, rows = self._table(batch)
        else:
            keys, rows = self._each(batch)
            table = None
            if self.plan.table:
                from . import _tables

                table = _tables.from_records(self.buffer.records, self.schema)
        if table is not None and self.plan.csv:
            from . import _tables

            table = _tables.for_csv(table)
        done = Done(rows, self.records.failures, batch.position, messages=self.buffer.messages)
        if table is not None:
            done.table = table
            done.keys = keys
        elif keys is not None:
            done.records = self.buffer.records
            done.keys = keys
        else:
            done.text = "".join(line + "\n" for line in self.buffer.records)
        return done

    # -- one record per input -------------------------------------------------------------

    def _items(self, batch: Batch) -> list[_input.Item | None]:
        """The inputs of ``batch`` as the line mode reads them; ``None`` for a null row."""
        start, values = batch.start, batch.values
        if batch.unit == ARGUMENT:
            numbered = enumerate(values, start + 1)
            return [_input.decode(v.encode("utf-8", "surrogateescape"), f"argument {n}")
                    for n, v in numbered]  # fmt: skip
        if batch.unit == LINE:
            items: list[_input.Item | None] = []
            for number, line in enumerate(values, start + 1):
                label = f"line {number}"
                if isinstance(line, str):
                    items.append(_input.Item(line.removesuffix("\n").removesuffix("\r"), label))
                else:
                    items.append(_input.decode(line.removesuffix(b"\n").removesuffix(b"\r"), label))
            return items
        texts = values.to_pylist() if _is_arrow(values) else values
        bases = batch.bases or [None] * len(texts)
        items = []
        for number, (text, base) in enumerate(zip(texts, bases, strict=True), start + 1):
            label = f"row {number}"
            if text is None:
                items.append(None)
            elif isinstance(text, bytes):
                item = _input.decode(text, label)
                items.append(_input.Item(item.text, label, item.error, base))
            else:
                items.append(_input.Item(text, label, None, base))
        return items

    def _each(self, batch: Batch) -> tuple[list[bytes | None] | None, int]:
        """Each input's record made one by one (after the kernel, where there is one)."""
        items = self._items(batch)
        records, op, buffer = self.records, self.operation, self.buffer
        answered, fields = self._kernel(batch, items)
        keys: list[bytes | None] | None = [] if op.key is not None else None
        for row, item in enumerate(items):
            written, failures = len(buffer.records), records.failures
            key: bytes | None = None
            if item is None:
                records.fail(_input.Item("", f"{batch.unit} {batch.start + row + 1}"),
                             URIError(NULL_REASON), fields={"input": None})  # fmt: skip
            elif answered is not None and answered[row]:
                known = {name: values[row] for name, values in fields.items()}
                if op.key is not None:
                    key = _digest(op.key(known))
                text = op.answer(item.text, known) if op.answer is not None else ""
                records.record(item, *_answered(text, known))
            else:
                if op.key is not None and item.error is None:
                    key = self._key_of(item)
                records.record(item, op.one, op.one_json)
            if keys is not None and len(buffer.records) > written:
                keys.append(None if records.failures > failures else key)
        return keys, len(items)

    def _key_of(self, item: _input.Item) -> bytes | None:
        """The ``--unique`` key of an input, ``None`` when it fails (its record is kept)."""
        op = self.operation
        assert op.key is not None
        self.records.item = item
        try:
            ok, fields = op.one_json(item.text)
            return _digest(op.key(fields)) if ok else None
        except ValueError:
            return None

    def _kernel(
        self, batch: Batch, items: list[_input.Item | None]
    ) -> tuple[list[bool] | None, dict[str, list[Any]]]:
        """The column kernel's answers for ``items``: whether each row is answered, and
        its fields; ``None`` without a kernel (or pyarrow)."""
        column = self.operation.column
        if column is None:
            return None, {}
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
        except ImportError:
            return None, {}
        values = batch.values
        if not _is_arrow(values) or batch.unit != ROW:
            texts = [None if i is None or i.error is not None else i.text for i in items]
            values = pa.array(texts, pa.string())
        try:
            answered, fields = column(values)
        except ValueError:  # the kernel refused the batch: each row is asked alone
            return None, {}
        return answered.to_pylist(), {name: f.to_pylist() for name, f in fields.items()}

    # -- a table in and a table out, by columns -------------------------------------------

    def _table(self, batch: Batch) -> tuple[Any, int]:
        import pyarrow as pa
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        from . import _tables

        op = self.operation
        assert op.column is not None
        values = batch.values
        n = len(values)
        try:
            answered, fields = op.column(values)
        except ValueError:
            answered, fields = pa.array([False] * n), {}
        answered = pc.fill_null(answered, False)
        columns: dict[str, Any] = {"input": self._shown(values), "ok": answered}
        for name, kind in op.fields.items():
            found = fields.get(name)
            columns[name] = pa.nulls(n, _tables.TYPES[kind]) if found is None else found
        others = pc.indices_nonzero(pc.invert(answered)).to_pylist()
        answered_table = pa.RecordBatch.from_arrays(
            [_as_type(columns.get(f.name), f.type, n) for f in self.schema], schema=self.schema
        )
        if not others:
            return answered_table, n
        # The rows the kernel left: made one by one, then put back in their places.
        order: list[int] = []
        texts = values.take(pa.array(others, pa.uint64())).to_pylist()
        for at, text in zip(others, texts, strict=True):
            written, label = len(self.buffer.records), f"row {batch.start + at + 1}"
            if text is None:
                self.records.fail(_input.Item("", label), URIError(NULL_REASON),
                                  fields={"input": None})  # fmt: skip
            else:
                self.records.record(_input.Item(text, label), op.one, op.one_json)
            if len(self.buffer.records) > written:
                order.append(at)
        made = _tables.from_records(self.buffer.records, self.schema)
        rows_of = pa.concat_arrays([pc.indices_nonzero(answered), pa.array(order, pa.uint64())])
        combined = pa.Table.from_batches([answered_table.filter(answered), made], self.schema)
        ordered = combined.take(pc.sort_indices(rows_of))
        arrays = [column.combine_chunks() for column in ordered.columns]
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema), n

    def _shown(self, values: Any) -> Any:
        """``values`` as records show inputs: each password masked (RFC 3986 §7.5)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        texts = values.cast(pa.string())
        if self.records.show_password:
            return texts
        at = pc.fill_null(pc.match_substring(texts, "@"), False)
        rows = pc.indices_nonzero(at).to_pylist()
        if not rows:
            return texts
        masked = [_display.mask(texts[row].as_py()) for row in rows]
        return pc.replace_with_mask(texts, at, pa.array(masked, pa.string()))


def _answered(text: str, fields: dict[str, Any]) -> tuple[One, OneJson]:
    """The record functions of a row the kernel answered: its text and its fields."""

    def one(_: str) -> tuple[bool, str]:
        return True, text

    def one_json(_: str) -> tuple[bool, dict[str, Any]]:
        return True, fields

    return one, one_json


def _is_arrow(values: Any) -> bool:
    return hasattr(values, "__arrow_c_array__") and not isinstance(values, list)


def _as_type(column: Any, type_: Any, n: int) -> Any:
    import pyarrow as pa

    if column is None:
        return pa.nulls(n, type_)
    return column if column.type == type_ else column.cast(type_)


def _digest(key: str) -> bytes:
    """A 16-byte BLAKE2b digest of a ``--unique`` key: memory grows with the number of
    distinct keys only."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()


# -- in a worker process ------------------------------------------------------------------

_job: Job | None = None


def start_worker(plan: Plan) -> None:
    """Make the worker's job; Ctrl-C is the command's to handle, not the workers'."""
    global _job
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _job = Job(plan)


def work(batch: Batch) -> Done:
    assert _job is not None
    return _job(batch)
