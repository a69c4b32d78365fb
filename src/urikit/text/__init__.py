"""URIs in running text (RFC 3986 Appendix C) and the links of HTML documents."""

from __future__ import annotations

from .extract import Match, extract
from .html import Link, links

__all__ = ["Link", "Match", "extract", "links"]
