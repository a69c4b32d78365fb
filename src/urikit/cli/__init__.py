"""The ``urikit`` command.

Each subcommand lives in a module of this package that defines
``register(subparsers)``; :data:`SUBCOMMANDS` lists them in the order of
``--help``.  Every subcommand that takes URIs reads them from its arguments
or, when none are given, one per line from standard input, and writes exactly
one record per input (see ``_input`` and ``_output``).

Exit statuses: 0 when every input succeeded, 1 when any failed, 2 on a usage
error, 3 when the output could not be written, 141 when the reader of the
output closed the pipe, 130 on an interrupt.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from . import (
    audit,
    core,
    data,
    extract,
    inspect,
    iri,
    normalize,
    paths,
    query,
    redirect,
    resolve,
    site,
    template,
)
from ._output import EXIT_FAILED, EXIT_OUTPUT, EXIT_PIPE, EXIT_USAGE, OutputError

__all__ = ["build_parser", "main"]

#: The subcommand modules, in the order of ``--help``.
SUBCOMMANDS: tuple[ModuleType, ...] = (
    core,
    resolve,
    normalize,
    query,
    audit,
    redirect,
    site,
    iri,
    extract,
    paths,
    data,
    template,
    inspect,
)

EPILOG = (
    "exit status: 0 when every input succeeded, 1 when any failed, 2 on a usage error, "
    "3 when the output cannot be written (a full disk), 141 when the reader closes the "
    "pipe early (as `| head` does), 130 on Ctrl-C. See docs/cli.md."
)


class _Parser(argparse.ArgumentParser):
    """A parser whose ``--help`` and ``--version`` report a failed write (``argparse``
    ignores it), so that it gets the exit status of an output error, and that takes no
    abbreviation of an option (``--base`` is not ``--base-column``): every subparser
    is one of these, as ``add_parser`` builds its parent's class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:
            stream = file or sys.stderr
            if stream is not None:
                stream.write(message)


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__, compiled

    parser = _Parser(
        prog="urikit",
        description="Parse, validate, resolve, normalize and audit URI references "
        "(RFC 3986) and IRIs (RFC 3987). With no URI arguments, every subcommand reads "
        "one URI per line from standard input and writes one record per line read.",
        epilog=EPILOG,
    )
    core = "compiled core" if compiled else "pure Python"
    parser.add_argument("--version", action="version", version=f"urikit {__version__} ({core})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in SUBCOMMANDS:
        module.register(subparsers)
    return parser


def _discard_output() -> None:
    """Point standard output at the null device, so that nothing more fails at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def _output_failed(exc: OSError | OutputError) -> int:
    reason = exc.strerror if isinstance(exc, OSError) else str(exc)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(f"urikit: cannot write the output: {reason or exc}", file=sys.stderr)
    _discard_output()
    return EXIT_OUTPUT


def _innermost(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The parser of the subcommand (or of its action, as ``urikit query list``) that
    ``args`` were parsed by."""
    found: Any = parser
    for dest in ("command", "action"):
        actions = [a for a in found._actions if isinstance(a, argparse._SubParsersAction)]
        name = getattr(args, dest, None)
        if not actions or name not in actions[0].choices:
            break
        found = actions[0].choices[name]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    try:
        try:
            args, extra = parser.parse_known_args(argv)
            if extra:  # said by the subcommand, with its own usage line
                _innermost(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
        except SystemExit as exc:  # --help, --version or a usage error
            if sys.stdout is not None:
                sys.stdout.flush()
            return EXIT_USAGE if isinstance(exc.code, str) else exc.code or 0
    except BrokenPipeError:
        _discard_output()
        return EXIT_PIPE
    except OSError as error:  # writing --help or --version
        return _output_failed(error)
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        _discard_output()
        return EXIT_PIPE
    except OutputError as exc:
        return _output_failed(exc)
    except OSError as exc:  # standard input cannot be read
        print(
            f"urikit {args.command}: cannot read the input: {exc.strerror or exc}", file=sys.stderr
        )
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    return status
