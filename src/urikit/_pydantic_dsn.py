"""Pydantic fields for multi-host connection strings (``urikit.dsn``), exported by
``urikit.pydantic`` as ``PostgresDsn`` and ``MultiHostDsn``.

A field holds a :class:`~urikit.dsn.DSN`: read by :func:`~urikit.dsn.parse_dsn`,
refused unless its profile is one the field allows, serialized to its exact text
(``DSN.text``, password included, since a connection needs it; ``repr`` masks it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeAlias

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from ._pydantic_text import text_schema
from .dsn import DSN, Profile, parse_dsn
from .errors import URIError

__all__ = ["DSNConstraints", "MultiHostDsn", "PostgresDsn"]


class DSNConstraints:
    """The profiles a ``DSN`` field accepts, for ``Annotated[DSN, DSNConstraints(...)]``."""

    __slots__ = ("profiles",)

    profiles: frozenset[Profile]

    def __init__(self, profiles: Iterable[Profile]) -> None:
        object.__setattr__(self, "profiles", frozenset(profiles))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("DSNConstraints is immutable")

    def __repr__(self) -> str:
        return f"DSNConstraints({sorted(self.profiles)!r})"

    def _validated(self, value: object) -> DSN:
        if isinstance(value, DSN):
            dsn = value
        elif isinstance(value, str):
            try:
                dsn = parse_dsn(value)
            except URIError as error:
                head = str(error).split("\n", 1)[0]
                raise PydanticCustomError(
                    "dsn_syntax",
                    head,
                    {"position": error.position, "rule": error.rule, "reason": error.reason},
                ) from None
        else:
            raise PydanticCustomError("dsn_type", "Input should be a string or a DSN")
        if dsn.profile not in self.profiles:
            allowed = ", ".join(sorted(self.profiles))
            reason = f"the scheme {dsn.scheme!r} is not of the profiles {allowed}"
            raise PydanticCustomError(
                "dsn_scheme",
                reason,
                {"position": 0, "rule": "scheme", "reason": reason, "profiles": allowed},
            )
        return dsn

    def __get_pydantic_core_schema__(
        self, source: type[Any], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        if source is not DSN:
            raise TypeError(f"DSNConstraints annotates DSN, not {source!r}")
        return text_schema(self._validated, self._validated, _text)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "format": "multi-host-uri"}


def _text(dsn: DSN) -> str:
    return dsn.text


#: A libpq connection URI (``postgresql://`` or ``postgres://``), with any number of hosts.
PostgresDsn: TypeAlias = Annotated[DSN, DSNConstraints(["postgresql"])]
#: A connection string of any profile of ``urikit.dsn``: libpq or MongoDB (``mongodb://``,
#: ``mongodb+srv://``).
MultiHostDsn: TypeAlias = Annotated[DSN, DSNConstraints(["postgresql", "mongodb", "mongodb+srv"])]
