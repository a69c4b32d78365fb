"""URIs in running text (RFC 3986 Appendix C) and the links of HTML documents.

:func:`extract` finds the URIs of a text; :func:`links` lists the links of an
HTML document (``str``, or ``bytes`` decoded as browsers decode them),
resolved against its base URI (RFC 3986 §5.1.1).  Every change made to get a
URI is a :class:`~urikit.report.Report` with ``repaired=True``.
"""

from __future__ import annotations

from .extract import Match, extract
from .html import URL_ATTRIBUTES, Link, links

__all__ = ["URL_ATTRIBUTES", "Link", "Match", "extract", "links"]
