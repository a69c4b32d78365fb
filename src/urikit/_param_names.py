"""The one reading of a query parameter name pattern (RFC 3986 §3.4 parameters).

``URI.remove_query_params``, the ``remove_params`` step of normalization (RFC 3986
§6.2.4) and the command's ``query remove`` and ``normalize --remove-param`` all read a
pattern here: a pattern holding ``*`` or ``?`` is a glob on the decoded name
(:func:`fnmatch.fnmatchcase`, case-sensitive, where ``[ab]`` is a class); any other
pattern is one name, brackets and all (``a[1]``, as PHP writes an array's member).
"""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase

__all__ = ["is_glob", "name_pattern"]


def is_glob(pattern: str) -> bool:
    """Whether ``pattern`` is a glob (it holds ``*`` or ``?``) rather than one name."""
    return "*" in pattern or "?" in pattern


def name_pattern(pattern: str) -> Callable[[str], bool]:
    """The predicate on a decoded name that ``pattern`` stands for: a glob matched with
    :func:`fnmatch.fnmatchcase` when it holds ``*`` or ``?``, else equality.

    >>> name_pattern("*id")("fbclid"), name_pattern("a[1]")("a[1]"), name_pattern("a[1]")("a1")
    (True, True, False)
    """
    if is_glob(pattern):
        return lambda name: fnmatchcase(name, pattern)
    return lambda name: name == pattern
