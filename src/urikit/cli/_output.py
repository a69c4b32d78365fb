"""Records: one per input, in input order, written to standard output.

Each input gives exactly one record, a result or an error, and the exit
status says whether any input failed.  Where an error record goes is chosen
by ``--errors``:

* ``inline`` (the default): on standard output, one line like every record
  (text: ``error: INPUT<TAB>POSITION<TAB>RULE<TAB>REASON``; JSON: an object
  with ``"ok": false`` and ``error``), so output line N belongs to input line N;
* ``stderr``: the error, with its caret, on standard error, and an empty line
  on standard output in text mode, which keeps the lines aligned (in JSON mode
  nothing is written there: every JSON record names its input);
* ``skip``: nothing is written for a failed input, and the exit status is still 1.

A record is flushed as soon as it is written when standard input is a
terminal or ``--line-buffered`` is given, and at the end otherwise.  A write
that fails raises :class:`OutputError`.  Records can also be kept in a
:class:`Buffer`, as the batches of ``--input`` and ``--output`` are (``_files``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol, TextIO

from .. import IRI, URI
from ..report import printable
from . import _display, _input

#: The exit statuses of the command.
EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_OUTPUT: Final = 3
#: After a closed pipe: the status a shell gives a process ended by SIGPIPE (128 + 13).
EXIT_PIPE: Final = 141

ERROR_MODES: Final = ("inline", "stderr", "skip")


class OutputError(Exception):
    """Standard output could not be written (a full disk, a closed descriptor, ...)."""

    def __init__(self, cause: OSError) -> None:
        self.cause = cause
        super().__init__(cause.strerror or str(cause))


class Output:
    """Standard output, written one line at a time."""

    def __init__(self, *, line_buffered: bool = False) -> None:
        stream: TextIO | None = sys.stdout
        if stream is None:  # started with standard output closed
            raise OutputError(OSError(9, "Bad file descriptor"))
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
        self.stream = stream
        self.encoding: str = getattr(stream, "encoding", None) or "utf-8"
        self.flush_each = line_buffered or _input.interactive()

    def write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            if self.flush_each:
                self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc) from None

    def close(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc) from None

    def json(self, record: dict[str, Any]) -> None:
        self.write(_display.json_line(record, self.encoding))


class Sink(Protocol):
    """Where records go: standard output, or a :class:`Buffer`."""

    def write(self, line: str) -> None: ...
    def json(self, record: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


class Buffer:
    """Records kept in memory: text lines, JSON lines in ``encoding``, or, with
    ``keep_json``, the JSON records themselves (for an output table); and the
    messages meant for standard error."""

    def __init__(self, encoding: str = "utf-8", *, keep_json: bool = False) -> None:
        self.encoding = encoding
        self.keep_json = keep_json
        self.records: list[Any] = []
        self.messages: list[str] = []

    def write(self, line: str) -> None:
        self.records.append(line)

    def json(self, record: dict[str, Any]) -> None:
        self.records.append(record if self.keep_json else _display.json_line(record, self.encoding))

    def close(self) -> None:
        pass


def warn(command: str, message: str, *, prefix: bool = True) -> None:
    """A message on standard error (best effort), after ``urikit COMMAND:``."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(f"urikit {command}: {message}" if prefix else message, file=sys.stderr, flush=True)


def add_options(
    parser: argparse.ArgumentParser,
    *,
    json_help: str = "one JSON object per input line",
    lenient: bool = False,
    skip_blank: bool = True,
) -> None:
    """The options that every subcommand reading one input per line shares."""
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument(
        "--errors",
        choices=ERROR_MODES,
        default="inline",
        help="where an error record goes: inline (default: one line on stdout, "
        "'error: INPUT<TAB>POSITION<TAB>RULE<TAB>REASON' in text mode), stderr (the "
        "error and its caret on stderr, an empty line on stdout in text mode to keep the "
        "lines aligned, nothing in JSON mode), or skip (no output; the exit status is "
        "still 1)",
    )
    parser.add_argument(
        "--line-buffered",
        action="store_true",
        help="flush each record as it is written (the default when stdin is a terminal)",
    )
    parser.add_argument(
        "--show-password",
        action="store_true",
        help="do not mask the password of a userinfo where an input is shown (RFC 3986 §7.5)",
    )
    if skip_blank:
        parser.add_argument(
            "--skip-blank",
            action="store_true",
            help="no record for a blank input (empty, or spaces and tabs only), which otherwise "
            "is an input like any other (the empty reference is valid); error messages still "
            "count every line",
        )
    if lenient:
        parser.add_argument(
            "--lenient",
            action="store_true",
            help="repair what can be repaired (white space, delimiters, non-ASCII, a bare "
            "'%%'; RFC 3986 Appendix C) and report each repair (JSON: repairs; text: on "
            "stderr) instead of failing",
        )


#: What to do on the command line with a non-ASCII character, by subcommand.
_IRI_ADVICE: Final = {
    "validate": "check an IRI with --rule IRI-reference (RFC 3987), or map it to a URI "
    "with urikit to-uri",
    "data": "read it as a browser does with --lenient",
}
_WITH_IRI: Final = ("normalize", "compare", "resolve", "relativize")


def advice(command: str) -> str:
    """What to do with a non-ASCII character in the input of ``urikit COMMAND``."""
    if command in _IRI_ADVICE:
        return _IRI_ADVICE[command]
    if command in _WITH_IRI:
        return (
            "read IRIs (RFC 3987) with --iri, or percent-encode what the grammar forbids "
            "with --lenient"
        )
    return (
        "map an IRI to a URI with urikit to-uri (RFC 3987 §3.1), or percent-encode what "
        "the grammar forbids with --lenient"
    )


def blank(text: str) -> bool:
    """Whether an input is blank for ``--skip-blank``: empty, or spaces and tabs only."""
    return not text.strip(" \t")


def repair_fields(repair: Any) -> dict[str, Any]:
    """A repair of a lenient parse as JSON."""
    return {"code": repair.code, "position": repair.position, "message": repair.message}


class Records:
    """Writes one record per input as the options of ``args`` say."""

    def __init__(
        self, args: argparse.Namespace, command: str, *, out: Buffer | None = None
    ) -> None:
        self.command = command
        self.json: bool = getattr(args, "json", False)
        self.errors: str = getattr(args, "errors", "inline")
        self.show_password: bool = getattr(args, "show_password", False)
        self.lenient: bool = getattr(args, "lenient", False)
        self.skip_blank: bool = getattr(args, "skip_blank", False)
        self.buffer = out
        self.out: Sink = (
            out if out is not None else Output(line_buffered=getattr(args, "line_buffered", False))
        )
        #: Whether an error on standard error is JSON (an output table keeps JSON
        #: records, and writes its errors there as text unless ``--json``).
        self.json_errors = self.json
        self.failed = False
        #: How many inputs failed.
        self.failures = 0
        #: The input whose record is being made.
        self.item: _input.Item | None = None
        #: Whether output line N belongs to input line N (not so for extract and links).
        self.aligned = True
        self._repairs: list[Any] = []

    def shown(self, text: str) -> str:
        """``text`` as echoed: its password masked unless ``--show-password``."""
        return text if self.show_password else _display.mask(text)

    def parse(self, text: str, iri: bool = False) -> Any:
        """``text`` as a URI (or IRI), repaired and reported with ``--lenient``."""
        cls = IRI if iri else URI
        if not self.lenient:
            return cls(text)
        repaired = cls.lenient(text)
        self._repairs.extend(repaired.reports)
        return repaired.uri

    def run(
        self,
        items: Iterable[_input.Item],
        one: Callable[[str], tuple[bool, str]],
        one_json: Callable[[str], tuple[bool, dict[str, Any]]],
    ) -> int:
        """Write the record of each item: ``one`` gives text, ``one_json`` JSON fields.

        Each returns ``(ok, result)``; a ``ValueError`` (``URIError`` among them)
        becomes an error record, so that no input is lost.
        """
        for item in items:
            self.record(item, one, one_json)
        self.out.close()
        return EXIT_FAILED if self.failed else EXIT_OK

    def record(
        self,
        item: _input.Item,
        one: Callable[[str], tuple[bool, str]],
        one_json: Callable[[str], tuple[bool, dict[str, Any]]],
    ) -> None:
        self._repairs = []
        self.item = item
        if self.skip_blank and item.error is None and blank(item.text):
            return
        try:
            if item.error is not None:
                raise item.error
            if self.json:
                ok, fields = one_json(item.text)
            else:
                ok, line = one(item.text)
        except ValueError as exc:
            self.fail(item, exc)
            return
        if not ok:
            self.failed = True
            self.failures += 1
        if self.json:
            record = {"input": self.shown(item.text), "ok": ok, **fields}
            if self._repairs:
                record["repairs"] = [repair_fields(r) for r in self._repairs]
            self.out.json(record)
            return
        for repair in self._repairs:
            self.warn(f"{item.label}: repaired at {repair.position}: {printable(repair.message)}")
        self.out.write(line)

    def error(self, exc: ValueError) -> _display.ShownError:
        """``exc`` as shown: its password masked, the advice the command's own."""
        return _display.shown_error(
            exc, show_password=self.show_password, advice=advice(self.command)
        )

    def warn(self, message: str, *, prefix: bool = True) -> None:
        """A message on standard error, or in the buffer's messages."""
        if self.buffer is None:
            warn(self.command, message, prefix=prefix)
        else:
            self.buffer.messages.append(f"urikit {self.command}: {message}" if prefix else message)

    def fail(
        self,
        item: _input.Item,
        exc: ValueError,
        *,
        fields: dict[str, Any] | None = None,
        prefix: str = "",
    ) -> None:
        """Write the error record of ``item``: ``fields`` are its JSON fields other than
        ``ok`` and ``error`` (``{"input": ...}`` by default), ``prefix`` begins its text."""
        self.failed = True
        self.failures += 1
        error = self.error(exc)
        shown = self.shown(item.text)
        if self.errors == "skip":
            return
        record: dict[str, Any] = {"input": shown} if fields is None else dict(fields)
        record.update(ok=False, error=_display.error_fields(error))
        if self.errors == "stderr":
            if self.json and self.json_errors:
                self.warn(_display.json_line(record, "utf-8"), prefix=False)
            else:
                self.warn(f"{item.label}: {prefix}{_display.error_block(shown, error)}")
                if self.aligned and not self.json:
                    self.out.write("")
            return
        if self.json:
            self.out.json(record)
        else:
            self.out.write(prefix + _display.error_line(shown, error))
