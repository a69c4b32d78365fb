"""RFC 3986 §7, Security Considerations: the audit, the redirect check and their parts."""

from __future__ import annotations

from .audit import audit, lenient_ipv4
from .redirect import is_safe_redirect, redirect_findings

__all__ = ["audit", "is_safe_redirect", "lenient_ipv4", "redirect_findings"]
