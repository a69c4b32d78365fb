"""Files in and out, on every core: ``--input``, ``--output`` and ``--jobs``.

Without these options a subcommand runs line by line (``_input``, ``_output``).
With any of them, its inputs (the rows of ``--input``, the arguments, or the
lines of standard input) are read in batches (``_formats``), each batch is made
into its records (``_batches``) by one of ``--jobs`` processes, and the
records are written in input order: a few batches per process are held at
most, so memory stays bounded whatever the size of the input.  The command's
own process reads, writes, and makes the records of a batch whenever the
workers have enough queued; ``--jobs 1`` makes them all there.  A progress
line is drawn on standard error when it is a terminal (``_progress``).

Every input gives exactly one record, as in line mode, and the exit status is
1 when any failed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Final

from . import _batches, _display, _formats, _input, _output, _progress, _sources
from ._operation import Factory

#: Rows in a batch by default.
BATCH_SIZE: Final = 32768
#: Batches queued per worker process, and held per process.
IN_FLIGHT: Final = 2


def cores() -> int:
    """The cores this process may run on."""
    count: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if count is None and hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return (count or os.cpu_count)() or 1


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def add_options(parser: argparse.ArgumentParser, *, base_column: bool = False) -> None:
    """The options of files in and out, and of worker processes (see docs/cli.md)."""
    group = parser.add_argument_group(
        "files and cores",
        "Any of --input, --output and --jobs reads the inputs in batches and makes their "
        "records on --jobs cores, in input order, in bounded memory. CSV, JSON lines and "
        "Parquet need pyarrow (pip install 'urikit[arrow]').",
    )
    group.add_argument(
        "--input",
        metavar="PATH",
        help="read the inputs from PATH ('-': standard input): plain lines, or a column "
        "of a CSV, JSON-lines or Parquet file, by its extension (.csv, .jsonl, .ndjson, "
        ".json, .parquet, .pq) unless --input-format is given",
    )
    group.add_argument(
        "--input-format",
        choices=_formats.INPUT_FORMATS,
        help="the format of --input, whatever its extension",
    )
    group.add_argument(
        "--column",
        metavar="NAME",
        help="the column of URIs in a table (needed when it has more than one column)",
    )
    if base_column:
        group.add_argument(
            "--base-column",
            metavar="NAME",
            help="resolve each row against the base URI in column NAME of the table; a row "
            "whose base is null or empty against BASE, when given",
        )
    keep = group.add_mutually_exclusive_group()
    keep.add_argument(
        "--keep",
        action="append",
        metavar="NAME",
        help="in a table written from a table, keep only column NAME of the input beside "
        "the records (repeatable; by default every column but --column and --base-column)",
    )
    keep.add_argument(
        "--keep-none",
        action="store_true",
        help="in a table written from a table, keep none of the input's other columns",
    )
    group.add_argument(
        "--output",
        metavar="PATH",
        help="write the records to PATH ('-': standard output): text or JSON lines, or a "
        "CSV or Parquet table with a column per JSON key (error, error_position, "
        "error_rule, error_message for a failed input) and the input's other columns, by "
        "its extension unless --output-format is given; PATH is replaced only when the "
        "run completes",
    )
    group.add_argument(
        "--output-format",
        choices=_formats.OUTPUT_FORMATS,
        help="the format of --output, whatever its extension (lines: text records, or JSON "
        "with --json)",
    )
    group.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="make the records on N cores: this process and N-1 worker processes (default "
        "with --input or --output: every core; 1: this process alone)",
    )
    group.add_argument(
        "--batch-size",
        type=_positive,
        default=BATCH_SIZE,
        metavar="ROWS",
        help=f"inputs per batch (default {BATCH_SIZE})",
    )
    group.add_argument(
        "--quiet",
        action="store_true",
        help="no progress line on standard error (drawn only when it is a terminal)",
    )


def _usage(args: argparse.Namespace, values: list[str]) -> str | None:
    """What is wrong with the file options, if anything."""
    if args.input is not None and values:
        return "give inputs as arguments or with --input, not both"
    for option in ("input_format", "column", "base_column"):
        if getattr(args, option, None) is not None and args.input is None:
            return f"--{option.replace('_', '-')} needs --input"
    if args.output_format is not None and args.output is None:
        return "--output-format needs --output"
    if (args.keep or args.keep_none) and _formats.output_format(args) not in ("csv", "parquet"):
        return "--keep and --keep-none need a table output (--output PATH.csv or PATH.parquet)"
    return None


def batched(args: argparse.Namespace) -> bool:
    """Whether the inputs are read in batches (any of --input, --output, --jobs)."""
    return args.input is not None or args.output is not None or args.jobs is not None


def run(
    args: argparse.Namespace,
    command: str,
    factory: Factory,
    values: list[str],
    *,
    what: str = "URIs",
) -> int:
    """Run a subcommand: line by line, or in batches when a file option is given."""
    if not hasattr(args, "base_column"):
        args.base_column = None
    problem = _usage(args, values)
    if problem is not None:
        _output.warn(command, problem)
        return _output.EXIT_USAGE
    if batched(args):
        return _run_batches(args, command, factory, values, what)
    records = _output.Records(args, command)
    operation = factory(args, records)
    items: Iterable[_input.Item] = _input.inputs(values, what=what)
    key = operation.key
    if key is not None:
        items = unique(items, lambda text: key(operation.one_json(text)[1]))
    return records.run(items, operation.one, operation.one_json)


def unique(items: Iterable[_input.Item], key: Callable[[str], str]) -> Iterator[_input.Item]:
    """The items whose key was not seen before, keeping the first of each.

    Memory grows with the number of distinct keys only: each is kept as a
    16-byte BLAKE2b digest.  Items whose key raises are passed on, so that
    they still produce their error record.
    """
    seen: set[bytes] = set()
    for item in items:
        if item.error is not None:
            yield item
            continue
        try:
            value = _batches.digest(key(item.text))
        except ValueError:
            yield item
            continue
        if value not in seen:
            seen.add(value)
            yield item


# -- in batches --------------------------------------------------------------------------------


def _run_batches(
    args: argparse.Namespace, command: str, factory: Factory, values: list[str], what: str
) -> int:
    """Check every option and the input's columns, then start the workers, then write:
    a usage error touches no output and leaves no process behind."""
    kind = _formats.output_format(args)
    table = kind in ("csv", "parquet")
    to_stdout = args.output is None or args.output == _formats.STDIO
    # Colour is for a terminal only, and is decided here, not in the workers.
    args.color = to_stdout and not table and _display.use_color()
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8") if to_stdout else "utf-8"
    plan = _batches.Plan(args, command, factory, table, kind == "csv", kind == "jsonl", encoding)
    jobs = args.jobs if args.jobs is not None else cores()
    with contextlib.ExitStack() as stack:
        try:
            if table:
                _formats.need_pyarrow(f"writing {_formats.NAMES[kind]}")
            source = _sources.open_source(args, values, what)
            stack.callback(source.close)
            job = _batches.Job(plan)
            if table and source.kept is not None:
                _check_names(job.schema, source.kept)
        except _formats.UsageError as exc:
            _output.warn(command, str(exc))
            return _output.EXIT_USAGE
        sink: _formats.Sink
        if table:
            sink = _formats.Rows(args.output or _formats.STDIO, kind, job.schema, source.kept)
        else:
            sink = _formats.Text(args.output, line_buffered=args.line_buffered)
        stack.callback(sink.close)
        pool = _workers(plan, jobs - 1)
        if pool is not None:
            stack.callback(_stop, pool)
        try:
            status = _write(args, source, sink, job, pool)
        except _formats.UsageError as exc:
            _output.warn(command, str(exc))
            return _output.EXIT_USAGE
        sink.commit()
        return status


def _check_names(schema: Any, kept: Any) -> None:
    """The input's columns kept beside the records must not take a record's column name."""
    taken = set(schema.names)
    clash = [name for name in kept.names if name in taken]
    if clash:
        names = ", ".join(repr(name) for name in clash)
        raise _formats.UsageError(
            f"the input's column {names} has the name of a column of the records: choose "
            "the columns to keep with --keep NAME, or --keep-none"
        )


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the workers and wait for them, so that none writes after the command ends."""
    pool.shutdown(wait=True, cancel_futures=True)


def _workers(plan: _batches.Plan, count: int) -> ProcessPoolExecutor | None:
    """``count`` worker processes, started now.

    On Linux they are forks of this process, made before it runs any thread of
    its own, with pyarrow and the column kernel already imported, so that a worker
    costs neither a new interpreter nor the imports; elsewhere (or when this
    process already runs other threads) they start afresh (``spawn``).  The sources
    read on this thread only (``use_threads=False``), so a fork copies no thread
    pool at work."""
    if count < 1:
        return None
    method = "spawn"
    if sys.platform == "linux" and threading.active_count() == 1:
        method = "fork"
        _batches.preload()
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(
        count, mp_context=context, initializer=_batches.start_worker, initargs=(plan,)
    )
    pool.submit(int)  # starts the workers
    return pool


def _write(
    args: argparse.Namespace,
    source: _sources.Source,
    sink: _formats.Sink,
    job: _batches.Job,
    pool: ProcessPoolExecutor | None,
) -> int:
    """Write the records of every batch of ``source`` to ``sink``, in order."""
    shown = _progress.terminal(sys.stderr) and not args.quiet and args.input is not None
    progress = _progress.Progress(
        shown=shown, total_rows=source.total_rows, total_bytes=source.total_bytes
    )
    seen: set[bytes] = set()
    failed = False
    try:
        for batch, done in _ordered(job, source.batches(), pool, args.jobs or cores()):
            for message in done.messages:
                progress.message(message)
            keep = None
            if done.keys is not None:
                keep = [_first(key, seen) for key in done.keys]
            sink.write(done, batch, keep)
            failed = failed or done.failed > 0
            progress.update(done.rows, done.failed, done.position)
    finally:
        progress.close()
    return _output.EXIT_FAILED if failed else _output.EXIT_OK


def _first(key: bytes | None, seen: set[bytes]) -> bool:
    """Whether a record is written with ``--unique``: an error always, else the first
    of its key."""
    if key is None:
        return True
    if key in seen:
        return False
    seen.add(key)
    return True


def _ordered(
    job: _batches.Job,
    batches: Iterator[_batches.Batch],
    pool: ProcessPoolExecutor | None,
    jobs: int,
) -> Iterator[tuple[_batches.Batch, _batches.Done]]:
    """Each batch and its records, in input order, made by ``jobs`` processes: this
    one and the ``jobs - 1`` workers of ``pool``.

    A batch goes to the workers while fewer than ``IN_FLIGHT`` per worker are
    queued there, and is made here otherwise, so that no process waits while
    another has work.  At most ``IN_FLIGHT`` batches per process are held.
    """
    if pool is None:
        for batch in batches:
            yield batch, job(batch)
        return
    pending: deque[tuple[_batches.Batch, Future[_batches.Done] | _batches.Done]] = deque()
    queued = 0

    def head(wait: bool) -> tuple[_batches.Batch, _batches.Done] | None:
        nonlocal queued
        batch, made = pending[0]
        if isinstance(made, Future):
            if not wait and not made.done():
                return None
            made = made.result()
            queued -= 1
        pending.popleft()
        return batch, made

    for batch in batches:
        if queued < IN_FLIGHT * (jobs - 1):
            # The kept columns stay here, with the writer: a worker needs the inputs only.
            sent = batch if batch.others is None else dataclasses.replace(batch, others=None)
            pending.append((batch, pool.submit(_batches.work, sent)))
            queued += 1
        else:
            pending.append((batch, job(batch)))
        while pending and (ready := head(len(pending) > IN_FLIGHT * jobs)) is not None:
            yield ready
    while pending:
        ready = head(True)
        assert ready is not None
        yield ready
