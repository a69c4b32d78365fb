"""urikit: the URI generic syntax (RFC 3986) for Python, strict, exact, fast and safe."""

from __future__ import annotations

from .errors import URIError
from .lenient import Violation
from .percent import form_decode, form_encode, percent_decode, percent_encode
from .uri import URI, Repaired
from .validate import is_valid

__all__ = [
    "URI",
    "Repaired",
    "URIError",
    "Violation",
    "form_decode",
    "form_encode",
    "is_valid",
    "percent_decode",
    "percent_encode",
]
__version__ = "0.1.0"
