"""The stand-ins that the value's parameters take as defaults.

``replace()`` tells a component left as it is from one removed (``None``) by
:data:`KEEP`; a ``registry`` parameter defaults to :data:`DEFAULT_REGISTRY`, which
stands for ``urikit.schemes.DEFAULT_REGISTRY`` (its ``repr`` says so) and is looked
up by the call that needs it, so that ``import urikit`` does not load the registry's
tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

if TYPE_CHECKING:
    from .schemes import SchemeRegistry

__all__ = ["DEFAULT_REGISTRY", "KEEP", "registry_of"]

#: ``replace()``: "leave this component as it is".
KEEP: Final[Any] = object()


class _DefaultRegistry:
    """The default of a ``registry`` parameter: ``urikit.schemes.DEFAULT_REGISTRY``,
    looked up when a call needs it (the registry's tables load on first use)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DEFAULT_REGISTRY"


#: Stands for ``urikit.schemes.DEFAULT_REGISTRY`` as a default value.
DEFAULT_REGISTRY: Final = cast("SchemeRegistry", _DefaultRegistry())


def registry_of(registry: SchemeRegistry) -> SchemeRegistry:
    """``registry``, or ``urikit.schemes.DEFAULT_REGISTRY`` for its stand-in."""
    if registry is DEFAULT_REGISTRY:
        from .schemes import DEFAULT_REGISTRY as default

        return default
    return registry
