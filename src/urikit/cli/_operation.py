"""What a subcommand does to one input, in the two forms the command runs it.

Line by line, a subcommand gives each input's record from two functions of its
text: ``one`` (the text record) and ``one_json`` (the JSON fields), each
returning ``(ok, result)``.  Over a batch of ``--input`` rows, a subcommand whose
operation has a column kernel (``urikit.arrow``) also gives ``column``: the
kernel's answers for a whole Arrow column, and ``answer``, which makes a
row's record from them.  A row the kernel leaves unanswered (an invalid
reference, an operation that failed) is given to ``one`` and ``one_json``, so
that every record, errors included, is the one the line mode writes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import _output

#: Makes the text record of an input: ``(ok, record)``.
One = Callable[[str], tuple[bool, str]]
#: Makes the JSON fields of an input's record: ``(ok, fields)``.
OneJson = Callable[[str], tuple[bool, dict[str, Any]]]
#: The column kernel: an Arrow column of strings to ``(answered, fields)``, a
#: boolean column (true where the kernel answered the row) and the JSON fields
#: of the answered rows as columns (null elsewhere).
Column = Callable[[Any], tuple[Any, dict[str, Any]]]
#: The text record of an answered row, from its input and its fields.
Answer = Callable[[str, dict[str, Any]], str]


@dataclass(frozen=True)
class Operation:
    """A subcommand's operation on one input (see the module docstring).

    ``fields`` names the JSON fields of a successful record and the type of
    each as an output table stores it: ``string``, ``int``, ``bool``,
    ``strings`` (a list), ``pairs`` (a list of [name, value]), ``findings``.
    ``key``, when the subcommand keeps only the first of equal records
    (``normalize --unique``), gives the key of a successful record's fields.
    """

    one: One
    one_json: OneJson
    fields: dict[str, str]
    column: Column | None = None
    answer: Answer | None = None
    key: Callable[[dict[str, Any]], str] | None = None


#: Builds the operation of a subcommand from its arguments and its records.
Factory = Callable[[argparse.Namespace, _output.Records], Operation]
