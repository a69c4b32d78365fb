"""RFC 3986 §7, Security Considerations: the audit, the redirect check and their parts.

:func:`audit` says what in a URI deserves caution; :func:`is_safe_redirect`
and :func:`redirect_findings` decide whether a server may redirect to a
target; :func:`lenient_ipv4` reads a host as inet_aton() does (§7.4); and
:func:`is_internal_address` judges the address a host name resolved to,
which no check of the text can see.  :func:`check_host`, :func:`is_dns_name`,
:func:`is_public_dns_name` and :func:`is_public_host` judge a host as a name
for the public internet.  Findings are :class:`~urikit.report.Report`
values, their codes the :data:`Code` literal.
"""

from __future__ import annotations

from .audit import audit
from .findings import Code
from .hosts import is_internal_address, lenient_ipv4
from .names import (
    RESERVED_NAMES,
    HostError,
    check_host,
    is_dns_name,
    is_public_dns_name,
    is_public_host,
)
from .redirect import is_safe_redirect, redirect_findings

__all__ = [
    "RESERVED_NAMES",
    "Code",
    "HostError",
    "audit",
    "check_host",
    "is_dns_name",
    "is_internal_address",
    "is_public_dns_name",
    "is_public_host",
    "is_safe_redirect",
    "lenient_ipv4",
    "redirect_findings",
]
