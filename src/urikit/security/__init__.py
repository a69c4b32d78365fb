"""RFC 3986 §7, Security Considerations: the audit, the redirect check and their parts.

:func:`audit` says what in a URI deserves caution; :func:`is_safe_redirect`
and :func:`redirect_findings` decide whether a server may redirect to a
target; :func:`lenient_ipv4` reads a host as inet_aton() does (§7.4); and
:func:`is_internal_address` judges the address a host name resolved to,
which no check of the text can see.  :func:`check_host`, :func:`is_dns_name`,
:func:`is_public_dns_name` and :func:`is_public_host` judge a host as a name
for the public internet.  :class:`PeerGuard` decides which peers a client may
connect to and which redirects it may follow; :class:`GuardedTransport` and
:class:`AsyncGuardedTransport` (httpx) and :class:`GuardedAdapter` (requests)
apply it at connect time.  They load their library when first named, so
``import urikit.security`` needs neither.  Findings are :class:`~urikit.report.Report`
values, their codes the :data:`Code` literal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from .peers import InternalPeerError, PeerGuard, UnsafeRedirectError, system_resolver
from .redirect import is_safe_redirect, redirect_findings

if TYPE_CHECKING:
    from .transport_httpx import (
        AsyncGuardedTransport,
        GuardedTransport,
        InternalPeerConnectError,
        UnsafeRedirectTransportError,
    )
    from .transport_requests import (
        GuardedAdapter,
        InternalPeerConnectionError,
        UnsafeRedirectRequestError,
    )

__all__ = [
    "RESERVED_NAMES",
    "AsyncGuardedTransport",
    "Code",
    "GuardedAdapter",
    "GuardedTransport",
    "HostError",
    "InternalPeerConnectError",
    "InternalPeerConnectionError",
    "InternalPeerError",
    "PeerGuard",
    "UnsafeRedirectError",
    "UnsafeRedirectRequestError",
    "UnsafeRedirectTransportError",
    "audit",
    "check_host",
    "is_dns_name",
    "is_internal_address",
    "is_public_dns_name",
    "is_public_host",
    "is_safe_redirect",
    "lenient_ipv4",
    "redirect_findings",
    "system_resolver",
]

_HTTPX: frozenset[str] = frozenset(
    {
        "AsyncGuardedTransport",
        "GuardedTransport",
        "InternalPeerConnectError",
        "UnsafeRedirectTransportError",
    }
)
_REQUESTS: frozenset[str] = frozenset(
    {"GuardedAdapter", "InternalPeerConnectionError", "UnsafeRedirectRequestError"}
)


def __getattr__(name: str) -> object:
    """The transports, which need httpx or requests, loaded when first named."""
    if name in _HTTPX:
        from . import transport_httpx

        return getattr(transport_httpx, name)
    if name in _REQUESTS:
        from . import transport_requests

        return getattr(transport_requests, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
