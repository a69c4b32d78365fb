"""URI Templates (RFC 6570) in C (src/urikit/_c/template/): the syntax check and a router."""

from typing import final

from typing_extensions import Self

from .template.routing import CompiledRouter

def check(text: str, /) -> int: ...

@final
class Router:
    def __new__(cls, compiled: CompiledRouter) -> Self: ...
    def match(self, uri: str, after: int = -1, /) -> tuple[int, int, tuple[str, ...]] | None: ...
    def spans(self, uri: str, after: int = -1, /) -> tuple[int, int, tuple[int, ...]] | None: ...
    def match_json(
        self, texts: list[object], allow_dot_segments: bool = False, /
    ) -> tuple[list[int | None], list[str | None], list[int]]: ...
