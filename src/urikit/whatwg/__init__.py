"""The web's reading of URLs: the WHATWG URL Standard, beside RFC 3986.

``URL(input, base=None)`` parses as a browser's ``new URL(input, base)`` does (the basic
URL parser, URL Standard §4.4) and has the standard's getters and setters (§6.1);
``URLSearchParams`` is its query object (§6.2) and the
``application/x-www-form-urlencoded`` codec (§5).  Host processing is UTS #46
(``urikit.uts46``).  ``docs/whatwg.md`` says when to read a text this way and when as an
RFC 3986 reference.

>>> from urikit.whatwg import URL
>>> URL("https://i❤.ws/ü?q=a b").href
'https://xn--i-7iq.ws/%C3%BC?q=a%20b'
"""

from __future__ import annotations

from ..uts46 import IDNAError, domain_to_ascii, domain_to_unicode
from .errors import VALIDATION_ERRORS, URLParseError
from .search_params import URLSearchParams, form_urlencoded_parse, form_urlencoded_serialize
from .url import URL, Checked, compiled


def components(
    input: str, base: str | None = None
) -> tuple[str, str, str, str, str, str, str, str, str, str]:
    """The getters of ``URL(input, base)`` in one tuple, without making the object:
    ``(href, protocol, username, password, host, hostname, port, pathname, search,
    hash)``.  Raises :class:`URLParseError` where ``URL`` would."""
    return URL._components(input, base)


__all__ = [
    "URL",
    "VALIDATION_ERRORS",
    "Checked",
    "IDNAError",
    "URLParseError",
    "URLSearchParams",
    "compiled",
    "components",
    "domain_to_ascii",
    "domain_to_unicode",
    "form_urlencoded_parse",
    "form_urlencoded_serialize",
]
