"""The shortcuts of pure Python that the benchmarks need, each held to its readable function.

A shortcut answers a common input without the readable function's steps, and only
where it is sure (else ``None``, and the caller takes the readable road).  Each is here
because a measurement showed a target of ``bench/`` is missed without it, and each has
a test that holds it to the readable function it stands in for
(``docs/architecture.md`` lists them):

* :func:`set_as_written`: ``URI.set_query_param`` at least 1.5 times as fast as yarl's
  ``update_query`` (``bench/bench_query.py``); held to ``query.set_query_param`` by
  ``tests/test_query.py::test_set_fast_path_agrees_with_pieces`` and the corpus.
"""

from __future__ import annotations

from .query import MAX_PARAMS, MAX_QUERY_LENGTH

__all__ = ["set_as_written"]


def set_as_written(query: str, name: str, value: str) -> str | None:
    """``query.set_query_param(query, name, value)`` for a non-empty ``query`` in the
    common case where the answer needs no split, or ``None`` when it does.

    That is when ``name`` and ``value`` are ASCII letters, digits and "_" (unreserved,
    RFC 3986 §2.3: both codecs write them as they are, and only a name with a "%" can
    decode to such a name, "+" decoding to a space or a plus sign), the query has no
    "%" (so a piece is ``name``'s just when its name is written ``name``), no piece but
    the first is ``name``'s (no "&" is followed by ``name``), and the query and the
    answer are short enough to be within both limits.
    """
    if not (
        len(query) < 2 * MAX_PARAMS  # at most MAX_PARAMS pieces, and within MAX_QUERY_LENGTH
        and name.isascii()
        and value.isascii()
        and (name.isalnum() or name.isidentifier())
        and (value.isalnum() or value.isidentifier())
        and "%" not in query
        and "&" + name not in query
    ):
        return None
    first, amp, rest = query.partition("&")
    if first.partition("=")[0] == name:
        edited = f"{name}={value}{amp}{rest}"  # replaced in its place
    else:
        edited = f"{query}&{name}={value}"  # appended
    return edited if len(edited) <= MAX_QUERY_LENGTH else None
