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

from ._store import compiled
from .compare import comparison_rung, equivalent
from .datauri import data_uri, parse_data
from .errors import URIError
from .percent import form_decode, form_encode, percent_decode, percent_encode
from .report import Report
from .schemes import SchemeRegistry
from .security import audit, is_safe_redirect
from .text import extract, links
from .uri import IRI, URI, Repaired, from_path, normalize, relativize, resolve, same_origin
from .validate import is_valid

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
# ``compiled``: whether the compiled core (urikit._speedups) stores references; it is not
# when the extension is not built, or URIKIT_NO_EXTENSIONS=1 is set at import (_store.py).
