"""Where inputs come from and records go, in bounded memory.

Sources read a batch at a time: plain lines (a line reader), CSV
(``pyarrow.csv.open_csv``), JSON lines (``pyarrow.json.open_json``) and Parquet
(``pyarrow.parquet.ParquetFile.iter_batches``).  Sinks write a batch of records
at a time: text or JSON lines, CSV (``pyarrow.csv.CSVWriter``) and Parquet
(``pyarrow.parquet.ParquetWriter``, a row group per batch).  Every format but
plain lines needs pyarrow, the ``arrow`` extra.  A file's format is named by its
extension unless ``--input-format`` or ``--output-format`` names it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

from . import _batches, _input, _output
from ._batches import Batch

INPUT_FORMATS: Final = ("lines", "csv", "jsonl", "parquet")
OUTPUT_FORMATS: Final = ("lines", "jsonl", "csv", "parquet")
EXTENSIONS: Final = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
}
NAMES: Final = {"csv": "CSV", "jsonl": "JSON lines", "parquet": "Parquet"}
#: Octets of CSV or JSON that pyarrow reads at once.
BLOCK_SIZE: Final = 4 << 20
STDIO: Final = "-"


class UsageError(Exception):
    """The files or columns asked for cannot be used (exit status 2)."""


def format_of(path: str, named: str | None) -> str:
    """The format of ``path``: ``named``, or the one of its extension, or plain lines."""
    if named is not None:
        return named
    return EXTENSIONS.get(Path(path).suffix.lower(), "lines")


def need_pyarrow(what: str) -> None:
    try:
        import pyarrow  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise UsageError(
            f"{what} needs pyarrow: pip install 'urikit[arrow]' (plain lines need nothing)"
        ) from None


# -- sources --------------------------------------------------------------------------------


class Source:
    """Batches of inputs, and what is known of the input's size for the progress line."""

    total_rows: int | None = None
    total_bytes: int | None = None

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


class Table(Source):
    """The rows of one column (and a base column) of CSV, JSON lines or Parquet."""

    def __init__(self, args: argparse.Namespace, path: str, kind: str) -> None:
        import pyarrow as pa

        self.args, self.path, self.kind = args, path, kind
        self.size = args.batch_size
        self.file: Any = None
        if path == STDIO and kind == "parquet":
            raise UsageError("Parquet is read from its end: give a file, not standard input")
        try:
            names = self._names()
        except (OSError, pa.ArrowException) as exc:
            raise UsageError(f"cannot read {path} as {NAMES[kind]}: {_reason(exc)}") from None
        self.column = _choose(names, args.column, path)
        self.base = args.base_column
        if self.base is not None and self.base not in names:
            raise UsageError(f"{path} has no column {self.base!r}; its columns: {_list(names)}")
        self.wanted = [self.column]
        if self.base is not None and self.base != self.column:
            self.wanted.append(self.base)

    def _open(self) -> IO[bytes]:
        if self.path == STDIO:
            return sys.stdin.buffer
        file = open(self.path, "rb")  # noqa: SIM115
        self.file = file
        self.total_bytes = _file_size(file)
        return file

    def _names(self) -> list[str]:
        if self.kind == "parquet":
            import pyarrow.parquet as pq  # type: ignore[import-untyped]

            self.parquet = pq.ParquetFile(self.path)
            self.total_rows = self.parquet.metadata.num_rows
            return list(self.parquet.schema_arrow.names)
        if self.path == STDIO:
            # Standard input is read once: its first block names the columns.
            self.reader = self._reader(sys.stdin.buffer, None)
            return list(self.reader.schema.names)
        self.reader = None
        with open(self.path, "rb") as file:
            return list(self._reader(file, None).schema.names)

    def _reader(self, stream: IO[bytes], wanted: list[str] | None) -> Any:
        import pyarrow as pa

        if self.kind == "csv":
            import pyarrow.csv as pacsv  # type: ignore[import-untyped]

            convert = pacsv.ConvertOptions(
                column_types=None if wanted is None else dict.fromkeys(wanted, pa.string()),
                include_columns=wanted,
                strings_can_be_null=False,
            )
            read = pacsv.ReadOptions(block_size=BLOCK_SIZE)
            return pacsv.open_csv(stream, read_options=read, convert_options=convert)
        import pyarrow.json as pajson  # type: ignore[import-untyped]

        schema = None if wanted is None else pa.schema([(name, pa.string()) for name in wanted])
        options = pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
        read = pajson.ReadOptions(block_size=BLOCK_SIZE)
        return pajson.open_json(stream, read_options=read, parse_options=options)

    def _record_batches(self) -> Iterator[Any]:
        if self.kind == "parquet":
            yield from self.parquet.iter_batches(batch_size=self.size, columns=self.wanted)
            return
        reader = self.reader if self.reader is not None else self._reader(self._open(), self.wanted)
        for batch in reader:
            for start in range(0, batch.num_rows, self.size):
                yield batch.slice(start, self.size)

    def batches(self) -> Iterator[Batch]:
        import pyarrow as pa

        start = 0
        record_batches = self._record_batches()
        while True:
            # A file damaged past its first block fails here, after the records of the
            # rows before it are written: one line saying where, and exit status 2.
            try:
                record_batch = next(record_batches, None)
            except (OSError, pa.ArrowException) as exc:
                raise UsageError(
                    f"cannot read {self.path} as {NAMES[self.kind]} past row {start}: "
                    f"{_reason(exc)}"
                ) from None
            if record_batch is None:
                return
            values = _texts(record_batch.column(self.column), self.column)
            bases = None
            if self.base is not None:
                bases = _base_texts(record_batch.column(self.base), self.base)
            n = record_batch.num_rows
            start += n
            position = start if self.total_rows is not None else self._tell()
            yield Batch(start - n, _batches.ROW, values, bases, position)

    def _tell(self) -> int:
        try:
            return self.file.tell() if self.file is not None else 0
        except (OSError, ValueError):
            return 0

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


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


def _file_size(stream: IO[Any]) -> int | None:
    """The size of a regular file, for the progress line."""
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    import stat

    return status.st_size if stat.S_ISREG(status.st_mode) else None


def open_source(args: argparse.Namespace, values: list[str], what: str) -> Source:
    """The inputs: ``--input``, the arguments, or the lines of standard input."""
    size = args.batch_size
    if args.input is None:
        if values:
            return Arguments(values, size)
        if _input.interactive():
            print(f"urikit: {_input.NOTE_AWAITING.replace('URIs', what)}", file=sys.stderr)
        return Lines(_input.stdin(), size, owned=False)
    kind = format_of(args.input, args.input_format)
    if kind == "lines":
        if args.column is not None or args.base_column is not None:
            raise UsageError("plain lines have no columns: --column and --base-column need a table")
        if args.input == STDIO:
            return Lines(_input.stdin(), size, owned=False)
        try:
            stream = open(args.input, "rb")  # noqa: SIM115
        except OSError as exc:
            raise UsageError(f"cannot read {args.input}: {_reason(exc)}") from None
        return Lines(stream, size, owned=True)
    need_pyarrow(f"reading {NAMES[kind]}")
    return Table(args, args.input, kind)


# -- sinks ----------------------------------------------------------------------------------


class Sink:
    """Where the records of each batch go."""

    def write(self, done: _batches.Done, batch: Batch, keep: list[bool] | None) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class Text(Sink):
    """Text or JSON records, one after the other: standard output or a file."""

    def __init__(self, path: str | None, *, line_buffered: bool = False) -> None:
        if path is None or path == STDIO:
            self.output = _output.Output(line_buffered=line_buffered)
            self.stream = self.output.stream
            self.file = None
            self.encoding = self.output.encoding
        else:
            try:
                self.file = open(  # noqa: SIM115
                    path, "w", encoding="utf-8", errors="backslashreplace", newline=""
                )
            except OSError as exc:
                raise _output.OutputError(exc) from None
            self.stream = self.file
            self.encoding = "utf-8"
        self.flush_each = line_buffered

    def write(self, done: _batches.Done, batch: Batch, keep: list[bool] | None) -> None:
        if done.records is not None:
            lines = done.records
            if keep is not None:
                lines = [line for line, kept in zip(lines, keep, strict=True) if kept]
            text = "".join(line + "\n" for line in lines)
        else:
            text = done.text
        try:
            self.stream.write(text)
            if self.flush_each:
                self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _output.OutputError(exc) from None

    def close(self) -> None:
        try:
            if self.file is not None:
                self.file.close()
            else:
                self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _output.OutputError(exc) from None


class Rows(Sink):
    """An output table: Parquet (a row group per batch) or CSV."""

    def __init__(self, path: str, kind: str, schema: Any) -> None:
        import pyarrow as pa

        target: Any = sys.stdout.buffer if path == STDIO else path
        try:
            if kind == "parquet":
                import pyarrow.parquet as pq

                self.writer = pq.ParquetWriter(target, schema)
            else:
                import pyarrow.csv as pacsv

                from . import _tables

                self.writer = pacsv.CSVWriter(target, _tables.csv_schema(schema))
        except (OSError, pa.ArrowException) as exc:
            raise _output.OutputError(_as_os_error(exc)) from None

    def write(self, done: _batches.Done, batch: Batch, keep: list[bool] | None) -> None:
        import pyarrow as pa

        table = _batches.complete(done, batch)
        if keep is not None:
            table = table.filter(pa.array(keep, pa.bool_()))
        try:
            self.writer.write_batch(table)
        except BrokenPipeError:
            raise
        except (OSError, pa.ArrowException) as exc:
            raise _output.OutputError(_as_os_error(exc)) from None

    def close(self) -> None:
        import pyarrow as pa

        try:
            self.writer.close()
        except BrokenPipeError:
            raise
        except (OSError, pa.ArrowException) as exc:
            raise _output.OutputError(_as_os_error(exc)) from None


def _as_os_error(exc: Exception) -> OSError:
    return exc if isinstance(exc, OSError) else OSError(str(exc))


def output_format(args: argparse.Namespace) -> str:
    """The format of the records: plain text or JSON lines without ``--output``."""
    if args.output is None:
        return "jsonl" if args.json else "lines"
    kind = format_of(args.output, args.output_format)
    if kind == "lines" and args.json:
        return "jsonl"
    return kind
