"""The ``urikit`` command.

Each subcommand lives in a module of this package that defines ``ORDER`` (its
place in ``--help``) and ``register(subparsers)``; the modules are found when
the command starts.  Every subcommand that takes URIs reads them from its
arguments or, when none are given, one per line from standard input, and
writes exactly one record per input (see ``_stream``).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="urikit",
        description="Parse, validate, resolve, normalize and audit URI references "
        "(RFC 3986) and IRIs (RFC 3987). With no URI arguments, every subcommand reads "
        "one URI per line from standard input and writes one record per line read. "
        "The exit status is 0 when every input succeeded, 1 when any failed, 2 on "
        "a usage error.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"urikit {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = []
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            modules.append(importlib.import_module(f"{__name__}.{info.name}"))
    for module in sorted(modules, key=lambda m: (m.ORDER, m.__name__)):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:
        return 130
    return status
