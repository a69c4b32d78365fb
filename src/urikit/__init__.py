"""urikit: the URI generic syntax (RFC 3986) and IRIs (RFC 3987) for Python.

Strict where the standard is strict, exact (every reference round-trips
character for character), fast, and safe on hostile input.

>>> from urikit import URI
>>> URI("http://a/b/c/d;p?q").resolve("../g")
URI('http://a/b/g')
"""

from __future__ import annotations

from .compare import comparison_rung, equivalent
from .datauri import DataURI, data_uri, parse_data
from .errors import URIError
from .fileuri import from_path
from .iri import IRI
from .lenient import Violation
from .normalize import normalize
from .percent import form_decode, form_encode, percent_decode, percent_encode
from .protocol_steps import TRACKING_PARAMS
from .report import Report, Severity
from .resolve import relativize, remove_dot_segments, resolve
from .schemes import DEFAULT_REGISTRY, Scheme, SchemeRegistry
from .security import audit, is_safe_redirect, lenient_ipv4
from .text import Link, Match, extract, links
from .uri import URI, Repaired
from .validate import is_valid

__all__ = [
    "DEFAULT_REGISTRY",
    "IRI",
    "TRACKING_PARAMS",
    "URI",
    "DataURI",
    "Link",
    "Match",
    "Repaired",
    "Report",
    "Scheme",
    "SchemeRegistry",
    "Severity",
    "URIError",
    "Violation",
    "audit",
    "comparison_rung",
    "data_uri",
    "equivalent",
    "extract",
    "form_decode",
    "form_encode",
    "from_path",
    "is_safe_redirect",
    "is_valid",
    "lenient_ipv4",
    "links",
    "normalize",
    "parse_data",
    "percent_decode",
    "percent_encode",
    "relativize",
    "remove_dot_segments",
    "resolve",
]
__version__ = "0.1.0"
