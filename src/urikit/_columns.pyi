from collections.abc import Callable
from typing import Any

def split(
    column: tuple[Any, ...], iri: bool, mask: int, base: int, allocate: Callable[[int], Any], /
) -> tuple[Any, Any, list[int], tuple[Any, ...]]: ...
def map(
    column: tuple[Any, ...],
    operation: int,
    fallback: Callable[[int, str], str | None],
    base: int,
    allocate: Callable[[int], Any],
    /,
    *,
    schemes: tuple[tuple[bytes, int], ...] = (),
    invalid_is_null: bool = False,
    against: bytes | None = None,
    strict: bool = True,
    bases: tuple[Any, ...] | None = None,
) -> tuple[Any, Any, bytes, int]: ...
