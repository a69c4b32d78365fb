"""urikit: the URI generic syntax (RFC 3986) and IRIs (RFC 3987) for Python.

Strict where the standard is strict, exact (every reference round-trips
character for character), fast, and safe on hostile input.

>>> from urikit import URI
>>> URI("http://a/b/c/d;p?q").resolve("../g")
URI('http://a/b/g')

The names here are the whole everyday API.  Further tools live in documented
modules: ``urikit.types`` (the option names), ``urikit.report``,
``urikit.schemes``, ``urikit.text``, ``urikit.security``, ``urikit.datauri``
and ``urikit.views``; ``docs/architecture.md`` draws how they stand on each other.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from ._seam import compiled, form_decode, percent_decode, percent_encode
from .errors import URIError
from .functions import from_path, normalize, relativize, resolve, same_origin
from .percent import form_encode
from .uri import IRI, URI
from .validate import is_valid

if TYPE_CHECKING:
    from .compare import comparison_rung, equivalent
    from .datauri import data_uri, parse_data
    from .lenient import Repaired
    from .report import Report
    from .schemes import SchemeRegistry
    from .security.audit import audit
    from .security.redirect import is_safe_redirect
    from .text.extract import extract
    from .text.html import links

__all__ = [
    "IRI",
    "URI",
    "Repaired",
    "Report",
    "SchemeRegistry",
    "URIError",
    "audit",
    "comparison_rung",
    "compiled",
    "data_uri",
    "equivalent",
    "extract",
    "form_decode",
    "form_encode",
    "from_path",
    "is_safe_redirect",
    "is_valid",
    "links",
    "normalize",
    "parse_data",
    "percent_decode",
    "percent_encode",
    "relativize",
    "resolve",
    "same_origin",
]
__version__ = "0.1.0"

#: The names loaded on first use, so that ``import urikit`` loads only the core: the
#: value and what constructing it needs (``tests/test_import.py`` holds it to that).
_LATER = {
    "Repaired": "lenient",
    "Report": "report",
    "SchemeRegistry": "schemes",
    "comparison_rung": "compare",
    "equivalent": "compare",
    "data_uri": "datauri",
    "parse_data": "datauri",
    "audit": "security",
    "is_safe_redirect": "security",
    "extract": "text",
    "links": "text",
}


def __getattr__(name: str) -> object:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module 'urikit' has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
