"""Whom a client may connect to for a user: the addresses a name resolves to, and redirects.

A host *name* says nothing of its addresses (``docs/security.md``), and a name
an attacker controls can resolve to a public address when it is checked and to
an internal one when it is fetched (DNS rebinding).  :class:`PeerGuard` closes
that gap for the HTTP transports of :mod:`urikit.security`: it resolves the name
once, refuses the connection when any address is internal
(:func:`~urikit.security.is_internal_address`), has the client connect to those
very addresses, and checks the peer of the connection that was made.  A
redirect is checked again, by :func:`~urikit.security.redirect_findings` and
:func:`~urikit.security.check_host`, before a client follows it.

This module needs nothing beyond the standard library; the transports for httpx
and requests are in modules of their own.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from typing import Final

from ..errors import URIError
from ..host import split_zone
from ..lenient import repair
from ..uri import URI
from ..validate import is_valid
from .hosts import internal_reason, lenient_ipv4, read_host
from .names import HostError, check_host
from .redirect import redirect_findings

__all__ = [
    "InternalPeerError",
    "PeerGuard",
    "Resolver",
    "UnsafeRedirectError",
    "system_resolver",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
#: A resolver: the addresses of ``host`` for a TCP connection to ``port``, as text or
#: :mod:`ipaddress` objects.  It raises ``OSError`` (``socket.gaierror``) when it finds none.
Resolver = Callable[[str, int], Iterable["str | IPAddress"]]

#: The redirect statuses of RFC 9110 §15.4 that carry a Location to follow.
REDIRECT_STATUSES: Final = frozenset({301, 302, 303, 307, 308})


class InternalPeerError(Exception):
    """A connection refused because its peer is, or would be, an internal address.

    ``host`` is the name (or address) the client was asked to reach,
    ``address`` the internal address (text), ``reason`` why it is internal.
    The transports raise it as a subclass of their library's own connection
    error (``httpx.ConnectError``, ``requests.ConnectionError``).
    """

    host: str
    address: str
    reason: str

    def __init__(
        self, message: str, *, host: str = "", address: str = "", reason: str = ""
    ) -> None:
        self.host, self.address, self.reason = host, address, reason
        super().__init__(message)

    @classmethod
    def refusing(cls, host: str, address: str, reason: str) -> InternalPeerError:
        """The error for a connection to ``host`` refused at ``address`` for ``reason``."""
        where = "" if host.strip("[]") == address else f"{host!r} at "
        message = f"refused to connect to {where}{address}: an internal address ({reason})"
        return cls(message, host=host, address=address, reason=reason)


class UnsafeRedirectError(Exception):
    """A redirect refused before it was followed.

    ``location`` is the Location the server sent, ``base`` the URL that sent it,
    ``code`` the finding (a code of :func:`~urikit.security.redirect_findings`,
    or ``internal-address``, ``reserved-name``, ``single-label``,
    ``not-dns-name``, ``not-an-address`` from :func:`~urikit.security.check_host`)
    and ``reason`` its message.
    """

    location: str
    base: str
    code: str
    reason: str

    def __init__(
        self, message: str, *, location: str = "", base: str = "", code: str = "", reason: str = ""
    ) -> None:
        self.location, self.base, self.code, self.reason = location, base, code, reason
        super().__init__(message)

    @classmethod
    def refusing(cls, location: str, base: str, code: str, reason: str) -> UnsafeRedirectError:
        """The error for the redirect from ``base`` to ``location`` refused as ``code``."""
        shown = URI(location).redacted() if is_valid(location) else repr(location)
        message = f"refused to follow the redirect to {shown}: {reason} ({code})"
        return cls(message, location=location, base=base, code=code, reason=reason)


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses ``socket.getaddrinfo`` gives for a TCP connection to ``host``, in
    its order, each once."""
    found: list[str] = []
    for *_, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = str(sockaddr[0])
        if address not in found:
            found.append(address)
    return found


def _address(value: str | IPAddress) -> IPAddress:
    if isinstance(value, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        return value
    return ipaddress.ip_address(value.strip("[]"))


def _literal(host: str) -> IPAddress | None:
    """The address ``host`` spells, in any spelling a resolver reads (RFC 3986 §7.4), or None."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    address, zone = split_zone(bare)
    try:
        return ipaddress.ip_address(address if zone is None else f"{address}%{zone}")
    except ValueError:
        pass
    name = read_host(host)
    return None if name is None else lenient_ipv4(name)


def _sent_url(base: str) -> URI:
    """The URL a client sent, read as a URI.  A client sends some characters that
    RFC 3986 forbids as they are (httpx leaves ``[``, ``]``, ``{``, ``}``, ``^``,
    ``|``, a backtick, a backslash and a "%" that starts no triplet unencoded in
    a query); they are percent-encoded as the lenient repair does (RFC 3986
    §2.1, Appendix C), which changes neither its scheme nor its authority.
    Raises :class:`~urikit.URIError` for a text that is no absolute URI even so."""
    sent = URI(repair(base)[0])
    if sent.scheme is None:
        raise URIError(
            "a base URI must be absolute (RFC 3986 §5.1)", text=base, position=0, rule="URI"
        )
    sent.port_number  # noqa: B018  (raises URIError above 65535)
    return sent


class PeerGuard:
    """The rules of a guarded transport: which peers it connects to, which redirects it takes.

    ``allowed_networks``: networks (``"10.1.2.0/24"``, an ``ipaddress`` network)
    whose addresses are allowed although internal, for a service the client
    must reach on purpose, or a test server on 127.0.0.1.  ``resolver``: how
    names are resolved (:data:`Resolver`; :func:`system_resolver` by default).
    ``allowed_redirect_hosts``: the hosts a redirect may lead to, as
    ``is_safe_redirect``'s ``allowed_hosts`` takes them (``"example.org"``,
    ``".example.org"``, ``"example.org:8443"``); ``None`` allows any host whose
    name is a public DNS name or whose address is public (``check_host``).
    """

    __slots__ = ("allowed_networks", "allowed_redirect_hosts", "resolver")

    def __init__(
        self,
        *,
        allowed_networks: Iterable[str | IPNetwork] = (),
        resolver: Resolver | None = None,
        allowed_redirect_hosts: Iterable[str] | None = None,
    ) -> None:
        if isinstance(allowed_networks, str):
            raise TypeError("allowed_networks takes a collection of networks, not one str")
        self.allowed_networks: tuple[IPNetwork, ...] = tuple(
            ipaddress.ip_network(net) for net in allowed_networks
        )
        self.resolver: Resolver = system_resolver if resolver is None else resolver
        if isinstance(allowed_redirect_hosts, str):
            raise TypeError("allowed_redirect_hosts takes a collection of hosts, not one str")
        self.allowed_redirect_hosts: tuple[str, ...] | None = (
            None if allowed_redirect_hosts is None else tuple(allowed_redirect_hosts)
        )

    def __repr__(self) -> str:
        networks = [str(n) for n in self.allowed_networks]
        return (
            f"PeerGuard(allowed_networks={networks!r}, resolver={self.resolver!r}, "
            f"allowed_redirect_hosts={self.allowed_redirect_hosts!r})"
        )

    def refusal(self, address: IPAddress | str) -> str | None:
        """Why the client must not connect to ``address``, or None when it may."""
        address = _address(address)
        reason = internal_reason(address)
        if reason is None:
            return None
        plain = ipaddress.ip_address(int(address)) if address.version == 6 else address
        if any(plain in network for network in self.allowed_networks):
            return None
        return reason

    def addresses(self, host: str, port: int) -> list[IPAddress]:
        """The addresses to connect to for ``host``: the address it spells, or those the
        resolver gives.  Raises :class:`InternalPeerError` when any of them is internal
        and not allowed, and ``OSError`` (``socket.gaierror``) when there is none."""
        literal = _literal(host)
        if literal is not None:
            found = [literal]
        else:
            found = [_address(a) for a in self.resolver(host, port)]
            if not found:
                raise socket.gaierror(socket.EAI_NONAME, f"{host!r} resolves to no address")
        for address in found:
            reason = self.refusal(address)
            if reason is not None:
                raise InternalPeerError.refusing(host, str(address), reason)
        return found

    def check_peer(self, host: str, peer: IPAddress | str) -> None:
        """Refuse the connection made for ``host`` when its peer (``getpeername()[0]``,
        the address actually reached) is internal and not allowed."""
        reason = self.refusal(peer)
        if reason is not None:
            raise InternalPeerError.refusing(host, str(_address(peer)), reason)

    def check_redirect(self, location: str, base: str) -> None:
        """Refuse a redirect from ``base`` to ``location`` (a Location header, RFC 9110
        §10.2.2) that ``is_safe_redirect`` refuses, or whose host is not a public DNS
        name or a public (or allowed) address.  Raises :class:`UnsafeRedirectError`."""
        try:
            sent = _sent_url(base)
        except URIError as error:
            raise UnsafeRedirectError.refusing(
                location, base, "invalid", f"the URL redirected from is no URI: {error.reason}"
            ) from None
        findings = redirect_findings(
            location,
            base=sent,
            allowed_hosts=self.allowed_redirect_hosts or (),
            allowed_schemes=("http", "https"),
        )
        if self.allowed_redirect_hosts is None:
            findings = [f for f in findings if f.code != "host-not-allowed"]
        if findings:
            raise UnsafeRedirectError.refusing(
                location, base, findings[0].code, findings[0].message
            )
        host = sent.resolve(location).host or ""
        try:
            check_host(host, public=True)
        except HostError as error:
            if error.address is not None and self.refusal(error.address) is None:
                return  # an internal address the guard allows
            raise UnsafeRedirectError.refusing(location, base, error.code, error.reason) from None
