"""The functional forms of the value's methods: ``urikit.resolve``, ``relativize``,
``normalize``, ``from_path`` and ``same_origin``.

Each takes a :class:`~urikit.URI`, an :class:`~urikit.IRI` or a ``str`` (read as a
URI) and answers as the method of the same name, with the same parameters
(``tests/test_signatures.py`` compares them).  A ``str`` that the seam can answer
from its text alone (``urikit._seam``: one call into the compiled core) is not made
into a value first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast, overload

from . import _seam
from ._defaults import DEFAULT_REGISTRY
from .uri import IRI, URI

if TYPE_CHECKING:
    from pathlib import PurePath

    from typing_extensions import Unpack

    from .protocol_steps import Steps
    from .schemes import SchemeRegistry
    from .types import Level, Spec

__all__ = ["from_path", "normalize", "relativize", "resolve", "same_origin"]


def _as_reference(value: URI | IRI | str) -> URI | IRI:
    return value if isinstance(value, (URI, IRI)) else URI(value)


@overload
def resolve(
    base: str | URI, ref: URI | IRI | str, *, strict: bool = ..., spec: Spec = ...
) -> URI: ...
@overload
def resolve(base: IRI, ref: URI | IRI | str, *, strict: bool = ..., spec: Spec = ...) -> IRI: ...
def resolve(
    base: URI | IRI | str, ref: URI | IRI | str, *, strict: bool = True, spec: Spec = "rfc3986"
) -> URI | IRI:
    """The target of ``ref`` resolved against ``base`` (RFC 3986 §5.2); see :meth:`URI.resolve`.

    A ``str`` base is read as a :class:`URI`.

    >>> str(resolve("http://a/b/c/d;p?q", "../g"))
    'http://a/b/g'
    """
    if type(base) is str and type(ref) is str and spec == "rfc3986":
        target = _seam.resolved(URI, base, ref, strict)
        if target is not None:
            return target
    # an error, another spec or a value: the method says which
    return _as_reference(base).resolve(ref, strict=strict, spec=spec)


@overload
def relativize(base: str | URI, target: URI | IRI | str) -> URI: ...
@overload
def relativize(base: IRI, target: URI | IRI | str) -> IRI: ...
def relativize(base: URI | IRI | str, target: URI | IRI | str) -> URI | IRI:
    """The shortest reference that resolves against ``base`` to ``target`` (§5.2, §4.2).

    >>> str(relativize("http://a/b/c/d;p?q", "http://a/b/g"))
    '../g'
    """
    return _as_reference(base).relativize(target)


def normalize(
    uri: URI | IRI | str,
    *,
    level: Level = "scheme",
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    **steps: Unpack[Steps],
) -> URI | IRI:
    """The normal form of ``uri`` at ``level`` (RFC 3986 §6.2); see :meth:`URI.normalize`.

    A ``str`` is read as a :class:`URI`.

    >>> str(normalize("HTTP://Example.COM:80"))
    'http://example.com/'
    """
    if type(uri) is str and not steps and (level == "scheme" or level == "syntax"):
        given = None if registry is DEFAULT_REGISTRY else registry
        made = _seam.normalized(URI, uri, level, given)
        if made is not None:
            return made
    # an error, a step, another level, a value or a scheme only the readable road knows
    return cast("URI | IRI", _as_reference(uri)._normalized(level, registry, steps))


def from_path(path: str | PurePath) -> URI:
    """The ``file:`` URI of a local path (RFC 8089 §2); see :meth:`URI.from_path`."""
    return URI.from_path(path)


def same_origin(a: URI | IRI | str, b: URI | IRI | str) -> bool:
    """Do ``a`` and ``b`` have the same origin (RFC 6454 §5)?  Never for opaque origins.

    >>> same_origin("http://Example.com/a", "HTTP://example.com:80/b")
    True
    """
    origin = _as_reference(a).origin
    return origin is not None and origin == _as_reference(b).origin
