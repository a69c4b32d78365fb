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
from collections.abc import Iterable
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
    each row (``--base-column``), as a list of ``str`` and ``None``; ``others``
    the columns of a table kept beside the records (an Arrow record batch, held
    by the command's process only); ``problems`` why a null row holds no text,
    by its index in the batch, where the source says more than that it is null.
    """

    start: int
    unit: str
    values: Any
    bases: list[str | None] | None = None
    position: int = 0
    others: Any = None
    problems: dict[int, str] | None = None


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
    #: A table made by the kernel has no ``input`` column (the batch has it): the
    #: rows whose input is shown otherwise (its password masked), and which rows
    #: the table kept (``None``: all).
    masked: list[tuple[int, str]] | None = None
    kept: Any = None


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
        from_kernel = self.plan.table and self.operation.column is not None
        if from_kernel and self.operation.key is None and _is_arrow(batch.values):
            return self._by_columns(batch)
        self.buffer.records, self.buffer.messages = [], []
        self.records.failures = 0
        keys, written = self._each(batch)
        rows = len(written)
        done = Done(rows, self.records.failures, batch.position, messages=self.buffer.messages)
        if self.plan.table:
            import pyarrow as pa  # type: ignore[import-untyped]

            from . import _tables

            done.table = _tables.from_records(self.buffer.records, self.schema)
            if self.plan.csv:
                done.table = _tables.for_csv(done.table)
            done.keys = keys
            if not all(written):  # the rows of the kept columns that have a record
                done.kept = pa.array(written, pa.bool_())
        elif keys is not None:
            done.records, done.keys = self.buffer.records, keys
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

    def _each(self, batch: Batch) -> tuple[list[bytes | None] | None, list[bool]]:
        """Each input's record made one by one (after the kernel, where there is one):
        the ``--unique`` keys of the records written, and whether each input has one."""
        items = self._items(batch)
        records, op, buffer = self.records, self.operation, self.buffer
        answered, fields = self._kernel(batch, items)
        keys: list[bytes | None] | None = [] if op.key is not None else None
        flags: list[bool] = []
        for row, item in enumerate(items):
            written, failures = len(buffer.records), records.failures
            key: bytes | None = None
            if item is None:
                label = f"{batch.unit} {batch.start + row + 1}"
                reason = URIError(_null_reason(batch, row))
                records.fail(_input.Item("", label), reason, fields={"input": None})
            elif answered is not None and answered[row]:
                known = {name: values[row] for name, values in fields.items()}
                if op.key is not None:
                    key = digest(op.key(known))
                text = op.answer(item.text, known) if op.answer is not None else ""
                records.record(item, *_answered(text, known))
            else:
                if op.key is not None and item.error is None:
                    key = self._key_of(item)
                records.record(item, op.one, op.one_json)
            flags.append(len(buffer.records) > written)
            if keys is not None and flags[-1]:
                keys.append(None if records.failures > failures else key)
        return keys, flags

    def _key_of(self, item: _input.Item) -> bytes | None:
        """The ``--unique`` key of an input, ``None`` when it fails (its record is kept)."""
        op = self.operation
        assert op.key is not None
        self.records.item = item
        try:
            ok, fields = op.one_json(item.text)
            return digest(op.key(fields)) if ok else None
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
            import pyarrow as pa
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

    def _by_columns(self, batch: Batch) -> Done:
        """The rows of ``batch`` from the kernel's columns, but for the rows it left,
        made one by one.  The ``input`` column is left to :func:`complete`."""
        import pyarrow as pa
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        from . import _tables

        self.buffer.records, self.buffer.messages = [], []
        self.records.failures = 0
        op, values = self.operation, batch.values
        assert op.column is not None
        n = len(values)
        try:
            answered, fields = op.column(values)
        except ValueError:  # the kernel refused the batch: each row is made alone
            answered, fields = pa.array([False] * n), {}
        answered = pc.fill_null(answered, False)
        if self.records.skip_blank:  # a blank row has no record
            answered = pc.and_(answered, pc.invert(_blank(values)))
        # The rows the kernel left, made as the line mode makes them.
        made: dict[int, dict[str, Any]] = {}
        others = pc.indices_nonzero(pc.invert(answered))
        for at, text in zip(others.to_pylist(), values.take(others).to_pylist(), strict=True):
            written, label = len(self.buffer.records), f"row {batch.start + at + 1}"
            if text is None:
                self.records.fail(_input.Item("", label), URIError(_null_reason(batch, at)),
                                  fields={"input": None})  # fmt: skip
            else:
                self.records.record(_input.Item(text, label), op.one, op.one_json)
            if len(self.buffer.records) > written:
                made[at] = _tables.flat(self.buffer.records[-1])
        schema = self.schema.remove(self.schema.get_field_index("input"))
        columns: dict[str, Any] = {"ok": answered}
        for name, kind in op.fields.items():
            found = fields.get(name)
            columns[name] = pa.nulls(n, _tables.TYPES[kind]) if found is None else found
        if any(record["ok"] for record in made.values()):
            columns = _merged(columns, made, schema, n)
        elif made:  # errors: the kernel's columns are null there, and ok false
            mask = _flags(n, made)
            for name, type_ in _tables.ERROR_COLUMNS:
                values_at = pa.array([made[row].get(name) for row in sorted(made)], type_)
                columns[name] = pc.replace_with_mask(pa.nulls(n, type_), mask, values_at)
        table = pa.RecordBatch.from_arrays(
            [_as_type(columns.get(f.name), f.type, n) for f in schema], schema=schema
        )
        done = Done(n, self.records.failures, batch.position, messages=self.buffer.messages)
        if len(made) < len(others):  # --errors skip or stderr: no row for an error
            done.kept = pc.or_(answered, _flags(n, made))
            table = table.filter(done.kept)
        done.table = _tables.for_csv(table) if self.plan.csv else table
        done.masked = self._masked(values, made)
        return done

    def _masked(self, values: Any, made: dict[int, dict[str, Any]]) -> list[tuple[int, str]]:
        """``(row, shown)`` for each kept row whose password is masked (RFC 3986 §7.5)."""
        import pyarrow.compute as pc

        if self.records.show_password:
            return []
        at = pc.indices_nonzero(pc.fill_null(pc.match_substring(values, "@"), False))
        found = []
        for row, text in zip(at.to_pylist(), values.take(at).to_pylist(), strict=True):
            shown = made[row]["input"] if row in made else _display.mask(text)
            if shown != text:
                found.append((row, shown))
        return found


def complete(done: Done, batch: Batch) -> Any:
    """The table of ``done`` with its ``input`` column (the batch's values, shown, when
    the kernel made it) and the columns of the input kept beside the records."""
    import pyarrow as pa
    import pyarrow.compute as pc

    table = done.table
    if done.masked is not None:
        texts = batch.values.cast(pa.string())
        if done.masked:
            rows = dict(done.masked)
            shown = pa.array([rows[row] for row in sorted(rows)], pa.string())
            texts = pc.replace_with_mask(texts, _flags(len(texts), rows), shown)
        if done.kept is not None:
            texts = texts.filter(done.kept)
        table = table.add_column(0, "input", texts)
    if batch.others is not None:
        others = batch.others if done.kept is None else batch.others.filter(done.kept)
        for f, column in zip(others.schema, others.columns, strict=True):
            table = table.append_column(f, column)
    return table


def _null_reason(batch: Batch, row: int) -> str:
    """Why the null row ``row`` of ``batch`` holds no URI reference."""
    if batch.problems is not None and row in batch.problems:
        return f"the row holds no URI reference: {batch.problems[row]}"
    return NULL_REASON


def _blank(values: Any) -> Any:
    """Which rows of a column of strings are blank (empty, or spaces and tabs only)."""
    import pyarrow.compute as pc

    return pc.fill_null(pc.match_substring_regex(values, "^[ \\t]*$"), False)


def _flags(n: int, rows: Iterable[int]) -> Any:
    """A boolean column of ``n`` rows, true at ``rows``."""
    import pyarrow as pa

    bits = bytearray((n + 7) // 8)
    for row in rows:
        bits[row >> 3] |= 1 << (row & 7)
    return pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(bytes(bits))])


def _merged(
    columns: dict[str, Any], made: dict[int, dict[str, Any]], schema: Any, n: int
) -> dict[str, Any]:
    """``columns`` with the values of the ``made`` rows put in their places."""
    import pyarrow as pa
    import pyarrow.compute as pc

    mask = _flags(n, made)
    merged = {}
    for f in schema:
        column = _as_type(columns.get(f.name), f.type, n)
        values = pa.array([made[row].get(f.name) for row in sorted(made)], f.type)
        merged[f.name] = pc.replace_with_mask(column, mask, values)
    return merged


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


def digest(key: str) -> bytes:
    """A 16-byte BLAKE2b digest of a ``--unique`` key: memory grows with the number of
    distinct keys only."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()


# -- in a worker process ------------------------------------------------------------------

_job: Job | None = None


def preload() -> None:
    """Import what jobs use (pyarrow, its readers and writers, the column kernel), so
    that workers forked from this process have it."""
    try:
        import pyarrow.compute
        import pyarrow.csv  # type: ignore[import-untyped]
        import pyarrow.json  # type: ignore[import-untyped]
        import pyarrow.parquet  # type: ignore[import-untyped]  # noqa: F401

        from ..arrow import normalize  # noqa: F401
        from . import _tables  # noqa: F401
    except ImportError:
        pass


def start_worker(plan: Plan) -> None:
    """Make the worker's job; Ctrl-C is the command's to handle, not the workers'."""
    global _job
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _job = Job(plan)


def work(batch: Batch) -> Done:
    assert _job is not None
    return _job(batch)
