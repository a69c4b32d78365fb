"""The one place where the template package chooses the compiled core or the readable
Python: the syntax check of a template (RFC 6570 §2) and a router's matching.

``_seam.template_core()`` gives ``urikit._template`` (the C of
``src/urikit/_c/template/``), or ``None`` on the readable path; it is asked once, here.
The C answers what the readable code answers (``tests/test_template_compiled.py`` holds
them together on generated templates and URIs):

* :func:`is_template` and :func:`error_position`: ``_template.check`` or
  ``syntax.parse``, the same first character outside the grammar;
* :data:`template_format`: ``_template.conforms`` or :func:`is_template` for a
  ``str``, and ``True`` for anything else (JSON Schema's ``uri-template``);
* :func:`route_core`: ``_template.Router`` over :meth:`Router.compiled
  <urikit.template.routing.Router.compiled>`, which walks the prefix tree and finds
  each candidate's regions as ``Router.candidates`` and ``Matcher.regions`` do; the
  values are read from the regions by the readable ``Matcher.bind``, but for a column
  (``match_json``), where the C writes them as JSON for the templates and values whose
  reading it shares with ``Matcher.bind``'s plain readers and leaves the rest to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from .._seam import template_core
from .syntax import TemplateError, parse

__all__ = [
    "RouteCore",
    "compiled",
    "error_position",
    "is_template",
    "route_core",
    "template_format",
]

_CORE: Final = template_core()

#: Whether the compiled core answers (``urikit._template`` is built and not switched off).
compiled: Final = _CORE is not None


class RouteCore(Protocol):
    """A router in C (``urikit._template.Router``)."""

    def match(self, uri: str, after: int = -1, /) -> tuple[int, int, tuple[str, ...]] | None:
        """(index, rank, regions) of the first template, the most specific first and
        ranked after ``after``, whose regions ``uri`` has; ``None`` when none."""

    def spans(self, uri: str, after: int = -1, /) -> tuple[int, int, tuple[int, ...]] | None:
        """As :meth:`match`, with the regions as (start, end, start, end, ...)."""

    def match_json(
        self, texts: list[object], allow_dot_segments: bool = False, /
    ) -> tuple[list[int | None], list[str | None], list[int]]:
        """For each row, the template :meth:`match` finds and its variables as JSON
        where ``bind.c`` gives what ``Matcher.bind`` gives; the other rows listed."""


def error_position(text: str) -> int | None:
    """Where the first character of ``text`` that cannot belong to a URI Template stands
    (RFC 6570 §2), the ``position`` of the :class:`TemplateError` that
    ``URITemplate(text)`` raises; ``None`` when ``text`` is a template."""
    if _CORE is not None:
        position: int = _CORE.check(text)
        return None if position < 0 else position
    try:
        parse(text)
    except TemplateError as error:
        return error.position
    return None


def is_template(text: str) -> bool:
    """Is ``text`` a URI Template of any level (RFC 6570 §1.2, §2, with erratum 6937)?

    What ``URITemplate(text)`` accepts, without building the template (the compiled
    check where it is built).  A ``str`` only: anything else is a ``TypeError``.

    >>> is_template("/users/{id}{?fields*}"), is_template("/users/{id")
    (True, False)
    """
    if _CORE is not None:
        return bool(_CORE.check(text) < 0)
    try:
        parse(text)
    except TemplateError:
        return False
    return True


def _template_format(instance: object) -> bool:
    """Is a string instance a URI Template (RFC 6570 §2)?"""
    # not a string: no string format applies (JSON Schema Validation §7.1)
    return is_template(instance) if isinstance(instance, str) else True


#: The format ``uri-template`` of JSON Schema 2020-12 Validation §7.3.6 for any instance:
#: whether a ``str`` is a URI Template (:func:`is_template`), ``True`` for anything else
#: (§7.1).  With the compiled core it is ``_template.conforms``, one C call.
template_format: Final[Callable[[object], bool]] = (
    _template_format if _CORE is None else _CORE.conforms
)


def route_core(router: tuple[object, ...]) -> RouteCore | None:
    """The compiled router of ``router``, a ``routing.CompiledRouter``
    (``urikit._template.Router``), or ``None`` on the readable path."""
    if _CORE is None:
        return None
    core: RouteCore = _CORE.Router(router)
    return core
