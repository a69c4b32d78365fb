"""The layout of ``--help``: prose is wrapped, examples are kept as written.

An example is a line that begins with ``$ ``: a shell command that runs as
pasted (its URIs quoted), followed by the lines it prints, unwrapped.  A line
``...`` stands for more lines of output.
"""

from __future__ import annotations

import argparse
import textwrap


class Formatter(argparse.HelpFormatter):
    """Help whose examples stay as written and whose names such as ``path-abempty``
    are never broken at their hyphen."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines: list[str] = []
        verbatim = False
        for line in text.split("\n"):
            if line.startswith("$ "):
                verbatim = True
            if verbatim:
                lines.append(indent + "  " + line)
            else:
                lines.append(
                    textwrap.fill(
                        " ".join(line.split()),
                        width,
                        initial_indent=indent,
                        subsequent_indent=indent,
                        break_on_hyphens=False,
                    )
                )
        return "\n".join(lines)


def examples(*runs: str) -> str:
    """An epilog of examples: each run is ``"$ command\\noutput..."``."""
    return "examples:\n" + "\n".join(runs)
