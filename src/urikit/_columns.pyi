from collections.abc import Callable
from typing import Any

def split(
    column: tuple[Any, ...], iri: bool, mask: int, base: int, /
) -> tuple[bytes, bytes, bytes, int, tuple[Any, ...]]: ...
def map(
    column: tuple[Any, ...],
    rank: int,
    schemes: tuple[tuple[bytes, int, int], ...],
    fallback: Callable[[int, str], str | None],
    base: int,
    /,
) -> tuple[bytes, bytes, bytes, int]: ...
