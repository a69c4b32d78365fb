"""Where inputs come from, a batch at a time, in memory that does not grow with the input.

Plain lines are read by a line reader.  A table's column of URIs (and its base
column, and the other columns kept beside the records) is read:

* from Parquet with ``ParquetFile.iter_batches``, pages streamed through a
  buffer of :data:`BUFFER_SIZE` octets, whatever the size of a row group;
* from CSV and JSON lines a chunk of whole records at a time: octets are read in
  blocks of :data:`BLOCK_SIZE`, cut after the last complete record once about a
  batch of rows is held (a line end outside double quotes for CSV, RFC 4180
  §2), and each chunk is parsed by ``pyarrow.csv.read_csv`` or
  ``pyarrow.json.read_json`` on this thread.  A process never holds more than
  a chunk and its columns.

Every cell of a CSV file is text as written, in the kept columns too.  A JSON
lines file's columns are the keys of its first chunk, with the types pyarrow
infers there (a column of nulls there is text); later chunks are read with
those types.  A chunk that does not fit them is read row by row: a row whose
URI is not text (a number, an object), or a line that is not a JSON object,
gets an error record of its own, and a kept value that does not fit its column
is written as null, said once per column on standard error.  Blank lines are
no rows (as pyarrow reads JSON lines).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Iterator
from typing import IO, Any, Final

from . import _batches, _input, _output
from ._batches import Batch
from ._formats import NAMES, STDIO, UsageError, format_of, need_pyarrow

#: Octets read from a CSV or JSON-lines file at a time.
BLOCK_SIZE: Final = 1 << 20
#: Octets of a Parquet file buffered while its pages are read.
BUFFER_SIZE: Final = 1 << 20


class Source:
    """Batches of inputs, and what is known of the input's size for the progress line."""

    total_rows: int | None = None
    total_bytes: int | None = None
    #: The other columns of a table kept beside the records: an Arrow schema.
    kept: Any = None

    def batches(self) -> Iterator[Batch]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class Arguments(Source):
    def __init__(self, values: list[str], size: int) -> None:
        self.values, self.size = values, size
        self.total_rows = len(values)

    def batches(self) -> Iterator[Batch]:
        for start in range(0, len(self.values), self.size):
            chunk = self.values[start : start + self.size]
            yield Batch(start, _batches.ARGUMENT, chunk, position=start + len(chunk))


class Lines(Source):
    """The lines of a stream, read as octets (or as text from a text stream)."""

    def __init__(self, stream: IO[Any], size: int, *, owned: bool) -> None:
        self.stream, self.size, self.owned = stream, size, owned
        self.total_bytes = _file_size(stream)

    def batches(self) -> Iterator[Batch]:
        chunk: list[Any] = []
        start = position = 0
        for line in self.stream:
            chunk.append(line)
            position += len(line)
            if len(chunk) == self.size:
                yield Batch(start, _batches.LINE, chunk, position=position)
                start += len(chunk)
                chunk = []
        if chunk:
            yield Batch(start, _batches.LINE, chunk, position=position)

    def close(self) -> None:
        if self.owned:
            self.stream.close()


# -- tables -----------------------------------------------------------------------------------


class Table(Source):
    """The rows of one column of a table, its base column, and the columns kept."""

    #: Whether the file's schema types its columns (a JSON-lines file's column of URIs
    #: is read as text whatever the first chunk holds).
    typed = True

    def __init__(self, args: argparse.Namespace, path: str, kind: str) -> None:
        import pyarrow as pa  # type: ignore[import-untyped]

        self.args, self.path, self.kind = args, path, kind
        self.size: int = args.batch_size
        self.file: IO[bytes] | None = None
        try:
            self._columns(pa)
        except BaseException:
            self.close()
            raise

    def _columns(self, pa: Any) -> None:
        """Read the schema; choose the column of URIs, the base column and those kept."""
        args, path, kind = self.args, self.path, self.kind
        try:
            schema = self._schema()
        except (OSError, pa.ArrowException) as exc:
            raise UsageError(f"cannot read {path} as {NAMES[kind]}: {_reason(exc)}") from None
        names = list(schema.names)
        self.column = _choose(names, args.column, path)
        self.base: str | None = args.base_column
        if self.base is not None and self.base not in names:
            raise UsageError(f"{path} has no column {self.base!r}; its columns: {_list(names)}")
        for name in (self.column, self.base):
            if name is not None and self.typed:
                _check_text(schema.field(name).type, name)
        used = {self.column, self.base}
        keep: list[str] | None = getattr(args, "keep", None)
        if getattr(args, "keep_none", False):
            keep = []
        if keep is None:
            keep = [name for name in names if name not in used]
        for name in keep:
            if name not in names:
                raise UsageError(f"{path} has no column {name!r} to keep; its columns: "
                                 f"{_list(names)}")  # fmt: skip
        kept = [name for name in dict.fromkeys(keep) if name not in used]
        self.kept = pa.schema([schema.field(name) for name in kept])
        self.wanted = (
            [self.column] if self.base in (None, self.column) else [self.column, self.base]
        )

    def _schema(self) -> Any:
        raise NotImplementedError

    def _tables(self) -> Iterator[tuple[Any, dict[int, str] | None, int]]:
        """Each chunk of rows as an Arrow table or record batch of the wanted and kept
        columns, the reasons of its rows that hold no text, and the octets read."""
        raise NotImplementedError

    def batches(self) -> Iterator[Batch]:
        import pyarrow as pa

        start = 0
        tables = self._tables()
        while True:
            # A file damaged past its first chunk fails here: one line saying where,
            # and exit status 2; the output is left as it was.
            try:
                found = next(tables, None)
            except (OSError, pa.ArrowException) as exc:
                raise UsageError(
                    f"cannot read {self.path} as {NAMES[self.kind]} past row {start}: "
                    f"{_reason(exc)}"
                ) from None
            if found is None:
                return
            table, problems, read = found
            for at in range(0, max(table.num_rows, 1), self.size):
                part = table.slice(at, self.size)
                n = part.num_rows
                if n == 0:
                    break
                values = _texts(_column(part, self.column), self.column)
                bases = None
                if self.base is not None:
                    bases = _base_texts(_column(part, self.base), self.base)
                others = None
                if len(self.kept):
                    others = pa.RecordBatch.from_arrays(
                        [_column(part, name) for name in self.kept.names], schema=self.kept
                    )
                where = None
                if problems:
                    where = {row - at: why for row, why in problems.items() if at <= row < at + n}
                position = start + n if self.total_rows is not None else read
                yield Batch(start, _batches.ROW, values, bases, position, others, where or None)
                start += n

    def _open(self) -> IO[bytes]:
        if self.path == STDIO:
            return _input.stdin()  # type: ignore[return-value]
        self.file = open(self.path, "rb")  # noqa: SIM115
        self.total_bytes = _file_size(self.file)
        return self.file

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class Parquet(Table):
    """A Parquet file, its pages streamed (``ParquetFile.iter_batches``)."""

    def _schema(self) -> Any:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        if self.path == STDIO:
            raise UsageError("Parquet is read from its end: give a file, not standard input")
        self.parquet = pq.ParquetFile(self.path, buffer_size=BUFFER_SIZE, pre_buffer=False)
        self.total_rows = self.parquet.metadata.num_rows
        return self.parquet.schema_arrow

    def _tables(self) -> Iterator[tuple[Any, dict[int, str] | None, int]]:
        columns = [*self.wanted, *self.kept.names]
        for batch in self.parquet.iter_batches(
            batch_size=self.size, columns=columns, use_threads=False
        ):
            yield batch, None, 0

    def close(self) -> None:
        parquet = getattr(self, "parquet", None)
        if parquet is not None:
            parquet.close()


class Csv(Table):
    """A CSV file (RFC 4180) with a header line, every cell read as text."""

    def _schema(self) -> Any:
        import pyarrow as pa

        self.chunks = _chunks(self._open(), self.size, quoted=True)
        self.header = next(self.chunks, (b"", 0))[0]
        first = next(self.chunks, None)
        if not self.header:
            raise UsageError(f"cannot read {self.path} as CSV: the file is empty")
        self.first = first
        names = self._read(self.header, None).column_names
        return pa.schema([(name, pa.string()) for name in names])

    def _read(self, chunk: bytes, columns: list[str] | None) -> Any:
        import pyarrow as pa
        import pyarrow.csv as pacsv  # type: ignore[import-untyped]

        convert = pacsv.ConvertOptions(
            column_types=None if columns is None else dict.fromkeys(columns, pa.string()),
            include_columns=columns,
            strings_can_be_null=False,
        )
        read = pacsv.ReadOptions(use_threads=False, block_size=max(len(chunk), BLOCK_SIZE))
        parse = pacsv.ParseOptions(newlines_in_values=True)
        return pacsv.read_csv(
            pa.BufferReader(chunk), read_options=read, parse_options=parse, convert_options=convert
        )

    def _tables(self) -> Iterator[tuple[Any, dict[int, str] | None, int]]:
        columns = [*self.wanted, *self.kept.names]
        chunk = self.first
        while chunk is not None:
            yield self._read(self.header + chunk[0], columns), None, chunk[1]
            chunk = next(self.chunks, None)


class JsonLines(Table):
    """A file of JSON objects, one a line; its columns are the keys of the first chunk."""

    typed = False

    def _schema(self) -> Any:
        import pyarrow as pa

        self.chunks = _chunks(self._open(), self.size, quoted=False)
        self.first = next(self.chunks, None)
        self.said: set[str] = set()
        if self.first is None:
            return pa.schema([])
        try:
            inferred = self._arrow(self.first[0], None).schema
        except pa.ArrowException:
            inferred = self._python(self.first[0], None)[0].schema
        # A column of nulls in the first chunk is text; the URI and base columns are
        # read as text, and a row where they hold anything else is an error record.
        return pa.schema(
            [(f.name, pa.string()) if pa.types.is_null(f.type) else f for f in inferred]
        )

    def _arrow(self, chunk: bytes, schema: Any) -> Any:
        import pyarrow as pa
        import pyarrow.json as pajson  # type: ignore[import-untyped]

        behaviour = "infer" if schema is None else "ignore"
        parse = pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior=behaviour)
        read = pajson.ReadOptions(use_threads=False, block_size=max(len(chunk), BLOCK_SIZE))
        return pajson.read_json(pa.BufferReader(chunk), read_options=read, parse_options=parse)

    def _python(self, chunk: bytes, schema: Any) -> tuple[Any, dict[int, str]]:
        """``chunk`` read row by row: its table (of ``schema``, or inferred) and the
        reasons of its rows that hold no URI."""
        import pyarrow as pa

        rows: list[dict[str, Any]] = []
        problems: dict[int, str] = {}
        text_columns = set(self.wanted) if schema is not None else set()
        for line in chunk.split(b"\n"):
            if not line.strip():
                continue
            row, problem = _json_row(line.removesuffix(b"\r"), text_columns)
            if problem is not None:
                problems[len(rows)] = problem
            rows.append(row)
        if schema is None:
            names = list(dict.fromkeys(name for row in rows for name in row))
            return pa.table(
                {name: _inferred([row.get(name) for row in rows]) for name in names}
            ), {}
        columns = []
        for f in schema:
            values = [row.get(f.name) for row in rows]
            columns.append(self._fitted(values, f))
        return pa.table(columns, schema=schema), problems

    def _fitted(self, values: list[Any], f: Any) -> Any:
        """``values`` as a column of ``f``'s type, a value that does not fit as null."""
        import pyarrow as pa

        try:
            return pa.array(values, f.type)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            pass
        fitted = []
        for value in values:
            try:
                pa.array([value], f.type)
            except (pa.ArrowException, TypeError, ValueError, OverflowError):
                value = None
                if f.name not in self.said:
                    self.said.add(f.name)
                    _output.warn(self.args.command, f"{self.path}: column {f.name!r} holds values "
                                 f"that are not {f.type}; they are written as null")  # fmt: skip
            fitted.append(value)
        return pa.array(fitted, f.type)

    def _tables(self) -> Iterator[tuple[Any, dict[int, str] | None, int]]:
        import pyarrow as pa

        texts = [pa.field(name, pa.string()) for name in self.wanted]
        schema = pa.schema([*texts, *self.kept])
        chunk = self.first
        while chunk is not None:
            data, read = chunk
            problems: dict[int, str] | None = None
            try:
                table = self._arrow(data, schema)
            except pa.ArrowInvalid:
                table, problems = self._python(data, schema)
            yield table, problems, read
            chunk = next(self.chunks, None)


def _json_row(line: bytes, text_columns: set[str]) -> tuple[dict[str, Any], str | None]:
    """A line of JSON lines as a row, and why it holds no URI (or ``None``)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {}, _input.octets_reason(line[exc.start : exc.end], exc.start)
    try:
        row = json.loads(text)
    except ValueError as exc:
        return {}, f"the line is not JSON: {exc}"
    if not isinstance(row, dict):
        return {}, f"the line holds a JSON {_json_kind(row)}, not an object"
    for name in text_columns:
        value = row.get(name)
        if value is not None and not isinstance(value, str):
            row[name] = None
            return row, f"{name!r} holds a JSON {_json_kind(value)}, not text"
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                row[name] = None
                return row, f"{name!r} holds a lone surrogate (\\u escape), not text"
    return row, None


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "string" if isinstance(value, str) else "null"


def _inferred(values: list[Any]) -> Any:
    """A column of Python ``values`` as pyarrow infers it, text when it cannot."""
    import pyarrow as pa

    try:
        return pa.array(values)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        texts = [v if v is None or isinstance(v, str) else json.dumps(v) for v in values]
        return pa.array(texts, pa.string())


def _chunks(stream: IO[bytes], rows: int, *, quoted: bool) -> Iterator[tuple[bytes, int]]:
    """Whole records of ``stream``, about ``rows`` at a time (the first chunk of a CSV
    file, ``quoted``, is its header line alone), and the octets read after each.

    A record ends at a line end; with ``quoted``, not at one inside double quotes
    (RFC 4180 §2: a quote inside a quoted field is written twice, so a line end
    is outside quotes when the quotes before it are even in number).
    """
    parts: list[bytes] = []
    lines = 0
    read = 0
    want = 1 if quoted else rows
    while True:
        data = stream.read(BLOCK_SIZE)
        if not data:
            break
        read += len(data)
        parts.append(data)
        lines += data.count(b"\n")
        if lines < want:
            continue
        joined = b"".join(parts)
        cut = _record_end(joined, quoted, first=want == 1)
        if cut == 0:
            parts, lines = [joined], 0
            continue
        yield joined[:cut], read - (len(joined) - cut)
        rest = joined[cut:]
        parts, lines, want = ([rest] if rest else []), rest.count(b"\n"), rows
        # What remains may already hold a chunk of rows (after the header).
        while lines >= want:
            cut = _record_end(rest, quoted, first=False)
            if cut == 0:
                break
            yield rest[:cut], read - (len(rest) - cut)
            rest = rest[cut:]
            parts, lines = ([rest] if rest else []), rest.count(b"\n")
    joined = b"".join(parts)
    if joined:
        yield joined, read


def _record_end(data: bytes, quoted: bool, *, first: bool) -> int:
    """Where the last (or with ``first``, the first) whole record of ``data`` ends: just
    after its line end, or 0 when ``data`` holds none."""
    if not quoted:
        return data.rfind(b"\n") + 1
    if first:
        at, quotes = 0, 0
        while (end := data.find(b"\n", at)) >= 0:
            quotes += data.count(b'"', at, end)
            if quotes % 2 == 0:
                return end + 1
            at = end + 1
        return 0
    end = data.rfind(b"\n")
    after = 0
    total = data.count(b'"')
    upto = len(data)
    while end >= 0:
        after += data.count(b'"', end, upto)
        if (total - after) % 2 == 0:
            return end + 1
        upto = end
        end = data.rfind(b"\n", 0, end)
    return 0


# -- columns -----------------------------------------------------------------------------------


def _column(table: Any, name: str) -> Any:
    column = table.column(name)
    return column.combine_chunks() if hasattr(column, "combine_chunks") else column


def _check_text(type_: Any, name: str) -> None:
    """A column of URIs holds text or octets (or only nulls); anything else is refused here,
    before any output is touched."""
    import pyarrow as pa

    if pa.types.is_dictionary(type_):
        type_ = type_.value_type
    if (
        pa.types.is_string(type_)
        or pa.types.is_large_string(type_)
        or pa.types.is_string_view(type_)
        or pa.types.is_binary(type_)
        or pa.types.is_large_binary(type_)
        or pa.types.is_null(type_)
    ):
        return
    raise UsageError(f"column {name!r} holds {type_}, not text")


def _texts(column: Any, name: str) -> Any:
    """A column of URIs as a batch holds it: strings, or octets for a binary column."""
    import pyarrow as pa

    type_ = column.type
    if pa.types.is_dictionary(type_):
        column = column.dictionary_decode()
        type_ = column.type
    if pa.types.is_string(type_) or pa.types.is_large_string(type_):
        return column
    if pa.types.is_string_view(type_):
        return column.cast(pa.string())
    if pa.types.is_null(type_):
        return pa.nulls(len(column), pa.string())
    if pa.types.is_binary(type_) or pa.types.is_large_binary(type_):
        return column.to_pylist()
    raise UsageError(f"column {name!r} holds {type_}, not text")


def _base_texts(column: Any, name: str) -> list[str | None]:
    values = _texts(column, name)
    texts: list[Any] = values if isinstance(values, list) else values.to_pylist()
    return [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in texts]


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _list(names: list[str]) -> str:
    return ", ".join(repr(name) for name in names) or "none"


def _choose(names: list[str], column: str | None, path: str) -> str:
    """The column of URIs: the one named, or the only one."""
    if column is not None:
        if column not in names:
            raise UsageError(f"{path} has no column {column!r}; its columns: {_list(names)}")
        return column
    if len(names) != 1:
        raise UsageError(
            f"{path} has {len(names)} columns: choose one with --column NAME ({_list(names)})"
        )
    return names[0]


def _file_size(stream: IO[Any]) -> int | None:
    """The size of a regular file, for the progress line."""
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


TABLES: Final = {"parquet": Parquet, "csv": Csv, "jsonl": JsonLines}


def open_source(args: argparse.Namespace, values: list[str], what: str) -> Source:
    """The inputs: ``--input``, the arguments, or the lines of standard input.  A table's
    columns are checked here, before any output is touched."""
    size = args.batch_size
    if args.input is None:
        if values:
            return Arguments(values, size)
        if _input.interactive():
            print(f"urikit: {_input.NOTE_AWAITING.replace('URIs', what)}", file=sys.stderr)
        return Lines(_input.stdin(), size, owned=False)
    kind = format_of(args.input, args.input_format)
    if kind == "lines":
        for option in ("column", "base_column", "keep", "keep_none"):
            if getattr(args, option, None):
                name = option.replace("_", "-")
                raise UsageError(f"plain lines have no columns: --{name} needs a table")
        if args.input == STDIO:
            return Lines(_input.stdin(), size, owned=False)
        try:
            stream = open(args.input, "rb")  # noqa: SIM115
        except OSError as exc:
            raise UsageError(f"cannot read {args.input}: {_reason(exc)}") from None
        return Lines(stream, size, owned=True)
    need_pyarrow(f"reading {NAMES[kind]}")
    return TABLES[kind](args, args.input, kind)
