"""The pydantic core schema of a field whose value is held as its text.

Every field of ``urikit.pydantic`` (URIs, IRIs, URI Templates, connection strings)
reads a JSON string strictly, reads a Python value of its own type or a string,
and serializes to the value's exact text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_core import CoreSchema, core_schema

__all__ = ["text_schema"]


def text_schema(
    from_text: Callable[[str], Any],
    from_python: Callable[[Any], Any],
    text: Callable[[Any], str],
    metadata: dict[str, Any] | None = None,
) -> CoreSchema:
    """A schema that reads JSON with ``from_text`` (a string, strictly), Python values
    with ``from_python``, and serializes a value as ``text(value)``, a string."""
    return core_schema.json_or_python_schema(
        json_schema=core_schema.no_info_after_validator_function(
            from_text, core_schema.str_schema(strict=True)
        ),
        python_schema=core_schema.no_info_plain_validator_function(from_python),
        serialization=core_schema.plain_serializer_function_ser_schema(
            text, return_schema=core_schema.str_schema()
        ),
        metadata=metadata,
    )
