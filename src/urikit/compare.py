"""Comparison: equivalence on the rungs of the ladder (RFC 3986 §6.1, §6.2).

Equality of :class:`~urikit.URI` values is simple string comparison
(§6.2.1).  :func:`equivalent` compares normal forms at a chosen rung, and
:func:`comparison_rung` says at which rung two references first compare equal.
The methods are designed to avoid false positives (§6.1): references that are
not equivalent at a level never compare equal there.

IRIs take part through the URIs they map to (RFC 3987 §5.3.2.3: "converting
both IRIs to URIs ... eliminating escape differences"), so ``http://a/é`` and
``http://a/%C3%A9`` are equivalent from the syntax rung up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

from .normalization import LEVELS
from .protocol_steps import Steps, check_steps
from .schemes import DEFAULT_REGISTRY, SchemeRegistry
from .types import Level
from .uri import IRI, URI

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["RUNGS", "Rung", "comparison_rung", "equivalent"]

#: A rung of the comparison ladder; "protocol" is reached only through the
#: opted-in protocol-based steps (§6.2.4).
Rung: TypeAlias = Literal["string", "syntax", "scheme", "protocol"]
#: The rungs :func:`comparison_rung` reports, lowest first.
RUNGS: Final[tuple[Rung, ...]] = ("string", "syntax", "scheme", "protocol")


def _reference(value: URI | IRI | str) -> URI | IRI:
    """A reference as given; a string is a URI, or an IRI when it is not ASCII."""
    if isinstance(value, (URI, IRI)):
        return value
    if isinstance(value, str) and not value.isascii():
        return IRI(value)
    return URI(value)


def _uri_form(ref: URI | IRI, unicode: Any = None) -> URI:
    """The URI an IRI maps to (RFC 3987 §3.1), after the ``unicode`` step if any."""
    if isinstance(ref, URI):
        return ref
    if unicode is not None:
        ref = ref.normalize(level="string", unicode=unicode)
    return ref.to_uri()


def _protocol_form(
    ref: URI | IRI, level: Level, registry: SchemeRegistry, steps: dict[str, Any]
) -> str:
    """The normal form at ``level`` with ``steps``, of the URI form of ``ref``."""
    rest = {name: value for name, value in steps.items() if name != "unicode"}
    uri = _uri_form(ref, steps.get("unicode"))
    return str(uri.normalize(level=level, registry=registry, **rest))


def equivalent(
    a: URI | IRI | str,
    b: URI | IRI | str,
    *,
    level: Level = "scheme",
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    **steps: Unpack[Steps],
) -> bool:
    """Do ``a`` and ``b`` have the same normal form at ``level`` (RFC 3986 §6.2)?

    ``level`` and ``steps`` are those of :func:`~urikit.normalize`.  A string is
    parsed as a URI, or as an IRI when it holds non-ASCII characters.
    Relative references are compared by their normal forms, which keep their
    targets (``/a/./b`` and ``/a/b`` are equivalent, ``../a`` and ``a`` are
    not); §6.1 advises resolving them against their base first.

    >>> equivalent("http://example.com", "http://example.com:80/")
    True
    >>> equivalent("http://a/b%2Fc", "http://a/b/c")
    False
    """
    ref_a, ref_b = _reference(a), _reference(b)
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    active = check_steps(steps) if steps else {}
    if str(ref_a) == str(ref_b):
        return True
    if active:
        form_a = _protocol_form(ref_a, level, registry, active)
        return form_a == _protocol_form(ref_b, level, registry, active)
    if level == "string":
        return False
    uri_a, uri_b = _uri_form(ref_a), _uri_form(ref_b)
    normal_a = uri_a.normalize(level=level, registry=registry)
    return str(normal_a) == str(uri_b.normalize(level=level, registry=registry))


def comparison_rung(
    a: URI | IRI | str,
    b: URI | IRI | str,
    *,
    registry: SchemeRegistry = DEFAULT_REGISTRY,
    **steps: Unpack[Steps],
) -> Rung | None:
    """The first rung of the comparison ladder at which ``a`` and ``b`` are equal.

    ``"string"`` (§6.2.1), ``"syntax"`` (§6.2.2), ``"scheme"`` (§6.2.3), or
    ``"protocol"`` when only the protocol-based ``steps`` given (§6.2.4; see
    :func:`~urikit.normalize`) make them equal; ``None`` when they differ at
    every rung tried.

    >>> comparison_rung("example://a/b/c/%7A", "eXAMPLE://a/./b/../b/c/%7a")
    'syntax'
    >>> comparison_rung("http://a/?x=1#top", "http://a/?x=1", drop_fragment=True)
    'protocol'
    """
    ref_a, ref_b = _reference(a), _reference(b)
    active = check_steps(steps) if steps else {}
    if str(ref_a) == str(ref_b):
        return "string"
    uri_a, uri_b = _uri_form(ref_a), _uri_form(ref_b)
    # Each level includes the one below, so each rung starts from the last forms.
    for level in LEVELS[1:]:
        uri_a = uri_a.normalize(level=level, registry=registry)
        uri_b = uri_b.normalize(level=level, registry=registry)
        if str(uri_a) == str(uri_b):
            return level
    if active:
        form_a = _protocol_form(ref_a, LEVELS[-1], registry, active)
        if form_a == _protocol_form(ref_b, LEVELS[-1], registry, active):
            return "protocol"
    return None
