"""The formats of files, and where records go.

A file's format is named by its extension unless ``--input-format`` or
``--output-format`` names it; every format but plain lines needs pyarrow, the
``arrow`` extra.  Sources are in ``_sources``.  Sinks write a batch of records at
a time: text or JSON lines, CSV (``pyarrow.csv.CSVWriter``) and Parquet
(``pyarrow.parquet.ParquetWriter``, a row group per batch).  An output file is
written to a temporary file beside it and put in its place when the run
completes (``_target``); standard output is written as the records come.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import IO, Any, Final

from . import _batches, _output, _target
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


# -- sinks ----------------------------------------------------------------------------------


class Sink:
    """Where the records of each batch go; :meth:`commit` when the run completed,
    :meth:`close` in any case (an output file not committed is discarded)."""

    target: _target.Target | None = None

    def write(self, done: _batches.Done, batch: Batch, keep: list[bool] | None) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        """Flush and close what is written."""

    def commit(self) -> None:
        self.finish()
        if self.target is not None:
            self.target.commit()

    def close(self) -> None:
        if self.target is not None:
            self.target.discard()


class Text(Sink):
    """Text or JSON records, one after the other: standard output or a file."""

    def __init__(self, path: str | None, *, line_buffered: bool = False) -> None:
        self.file: IO[str] | None = None
        if path is None or path == STDIO:
            self.output = _output.Output(line_buffered=line_buffered)
            self.stream: IO[str] = self.output.stream
            self.encoding = self.output.encoding
        else:
            self.target = _target.Target(path)
            try:
                self.file = open(  # noqa: SIM115
                    self.target.writing, "w", encoding="utf-8", errors="backslashreplace",
                    newline="",
                )  # fmt: skip
            except OSError as exc:
                self.target.discard()
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

    def finish(self) -> None:
        try:
            if self.file is not None:
                file, self.file = self.file, None
                file.close()
            else:
                self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _output.OutputError(exc) from None

    def close(self) -> None:
        if self.file is not None:
            file, self.file = self.file, None
            with contextlib.suppress(OSError):
                file.close()
        super().close()


class Rows(Sink):
    """An output table: Parquet (a row group per batch) or CSV.  Its columns are those of
    the records (``schema``), then the input's columns kept (``kept``)."""

    def __init__(self, path: str, kind: str, schema: Any, kept: Any = None) -> None:
        import pyarrow as pa

        from . import _tables

        self.csv = kind == "csv"
        self.writer: Any = None
        if kept is not None and len(kept):
            schema = pa.schema([*schema, *kept])
        if self.csv:
            schema = _tables.csv_schema(schema)
        self.schema = schema
        target: Any = sys.stdout.buffer
        if path != STDIO:
            self.target = _target.Target(path)
            target = self.target.writing
        try:
            if kind == "parquet":
                import pyarrow.parquet as pq  # type: ignore[import-untyped]

                self.writer = pq.ParquetWriter(target, schema)
            else:
                import pyarrow.csv as pacsv  # type: ignore[import-untyped]

                self.writer = pacsv.CSVWriter(target, schema)
        except (OSError, pa.ArrowException) as exc:
            self.close()
            raise _output.OutputError(_as_os_error(exc)) from None

    def write(self, done: _batches.Done, batch: Batch, keep: list[bool] | None) -> None:
        import pyarrow as pa

        from . import _tables

        table = _batches.complete(done, batch)
        if keep is not None:
            table = table.filter(pa.array(keep, pa.bool_()))
        if self.csv:
            table = _tables.for_csv(table)
        try:
            self.writer.write_batch(table)
        except BrokenPipeError:
            raise
        except (OSError, pa.ArrowException) as exc:
            raise _output.OutputError(_as_os_error(exc)) from None

    def finish(self) -> None:
        import pyarrow as pa

        writer, self.writer = self.writer, None
        if writer is None:
            return
        try:
            writer.close()
        except BrokenPipeError:
            raise
        except (OSError, pa.ArrowException) as exc:
            raise _output.OutputError(_as_os_error(exc)) from None

    def close(self) -> None:
        if self.writer is not None:
            writer, self.writer = self.writer, None
            with contextlib.suppress(Exception):
                writer.close()
        super().close()


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
