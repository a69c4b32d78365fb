from collections.abc import Callable
from typing import Any

def split(
    column: tuple[Any, ...], iri: bool, mask: int, base: int, allocate: Callable[[int], Any], /
) -> tuple[Any, Any, list[int], tuple[Any, ...]]: ...
def scatter(
    n: int, rows: list[int], values: list[Any], text: bool, allocate: Callable[[int], Any], /
) -> tuple[Any, ...]: ...
def map(
    column: tuple[Any, ...],
    rank: int,
    schemes: tuple[tuple[bytes, int, int], ...],
    fallback: Callable[[int, str], str | None],
    base: int,
    allocate: Callable[[int], Any],
    invalid_is_null: bool,
    against: bytes | None = None,
    strict: bool = True,
    bases: tuple[Any, ...] | None = None,
    /,
) -> tuple[Any, Any, bytes, int]: ...
