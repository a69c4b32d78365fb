"""httpx transports that connect only to public peers (the optional extra ``urikit[httpx]``).

``httpx.Client(transport=GuardedTransport())`` and
``httpx.AsyncClient(transport=AsyncGuardedTransport())``: every new connection
goes through a network backend that resolves the name once (:class:`PeerGuard`),
refuses it when any address is internal, connects to those addresses and checks
the peer of the socket it got; httpcore then speaks TLS over that socket with the
name as the server name, and the request carries the name in its Host header.
A response that redirects (RFC 9110 §15.4) is checked before the client can
follow it.  Refusals are :class:`InternalPeerConnectError` (an
``httpx.ConnectError``) and :class:`UnsafeRedirectTransportError` (an
``httpx.TransportError``).
"""

from __future__ import annotations

import functools
import ssl
import typing
from collections.abc import Iterable

import anyio
import httpcore
import httpx

from .peers import (
    REDIRECT_STATUSES,
    InternalPeerError,
    IPNetwork,
    PeerGuard,
    Resolver,
    UnsafeRedirectError,
)

__all__ = [
    "AsyncGuardedTransport",
    "GuardedTransport",
    "InternalPeerConnectError",
    "UnsafeRedirectTransportError",
]

#: A socket option as httpcore takes it: (level, option, value) or (level, option, None, length).
SocketOption: typing.TypeAlias = (
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
)


class InternalPeerConnectError(httpx.ConnectError, InternalPeerError):
    """An ``httpx.ConnectError`` (so ``except httpx.TransportError`` still catches it)
    for a peer that is an internal address; ``host``, ``address`` and ``reason`` say
    which and why."""

    def __init__(self, refusal: InternalPeerError) -> None:
        httpx.ConnectError.__init__(self, str(refusal))
        self.host, self.address, self.reason = refusal.host, refusal.address, refusal.reason


class UnsafeRedirectTransportError(httpx.TransportError, UnsafeRedirectError):
    """An ``httpx.TransportError`` for a redirect refused before it was followed;
    ``location``, ``base``, ``code`` and ``reason`` say which and why."""

    def __init__(self, refusal: UnsafeRedirectError, request: httpx.Request) -> None:
        httpx.TransportError.__init__(self, str(refusal), request=request)
        self.location, self.base = refusal.location, refusal.base
        self.code, self.reason = refusal.code, refusal.reason


#: httpx's own default (``httpx.HTTPTransport``'s ``limits``).
_DEFAULT_LIMITS: typing.Final = httpx.Limits(max_connections=100, max_keepalive_connections=20)


def _peer(stream: httpcore.NetworkStream | httpcore.AsyncNetworkStream) -> str:
    server = stream.get_extra_info("server_addr")
    return str(server[0])


class _GuardedBackend(httpcore.NetworkBackend):
    """A network backend that connects only to the addresses :class:`PeerGuard` allows."""

    def __init__(self, guard: PeerGuard, inner: httpcore.NetworkBackend) -> None:
        self.guard = guard
        self.inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.NetworkStream:
        try:
            addresses = self.guard.addresses(host, port)
        except InternalPeerError as refusal:
            raise InternalPeerConnectError(refusal) from None
        except OSError as error:
            raise httpcore.ConnectError(f"{host!r}: {error}") from error
        failure: Exception | None = None
        for address in addresses:
            try:
                stream = self.inner.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as error:
                failure = error
                continue
            try:
                self.guard.check_peer(host, _peer(stream))
            except InternalPeerError as refusal:
                stream.close()
                raise InternalPeerConnectError(refusal) from None
            return stream
        assert failure is not None
        raise failure

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.NetworkStream:
        refusal = InternalPeerError.refusing(path, path, "a Unix-domain socket of this host")
        raise InternalPeerConnectError(refusal)

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class _AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """The asynchronous twin of :class:`_GuardedBackend`; the resolver runs in a thread."""

    def __init__(self, guard: PeerGuard, inner: httpcore.AsyncNetworkBackend) -> None:
        self.guard = guard
        self.inner = inner

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await anyio.to_thread.run_sync(
                functools.partial(self.guard.addresses, host, port)
            )
        except InternalPeerError as refusal:
            raise InternalPeerConnectError(refusal) from None
        except OSError as error:
            raise httpcore.ConnectError(f"{host!r}: {error}") from error
        failure: Exception | None = None
        for address in addresses:
            try:
                stream = await self.inner.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as error:
                failure = error
                continue
            try:
                self.guard.check_peer(host, _peer(stream))
            except InternalPeerError as refusal:
                await stream.aclose()
                raise InternalPeerConnectError(refusal) from None
            return stream
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        refusal = InternalPeerError.refusing(path, path, "a Unix-domain socket of this host")
        raise InternalPeerConnectError(refusal)

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def _checked_redirect(guard: PeerGuard, request: httpx.Request, response: httpx.Response) -> None:
    location = response.headers.get("location")
    if response.status_code not in REDIRECT_STATUSES or location is None:
        return
    try:
        guard.check_redirect(location, str(request.url))
    except UnsafeRedirectError as refusal:
        raise UnsafeRedirectTransportError(refusal, request) from None


class GuardedTransport(httpx.HTTPTransport):
    """An ``httpx.HTTPTransport`` that connects only to public peers.

    Takes ``httpx.HTTPTransport``'s arguments (but ``proxy`` and ``uds``: behind a
    proxy the peer is the proxy, and a Unix socket is this host) and those of
    :class:`~urikit.security.PeerGuard`: ``allowed_networks``, ``resolver``,
    ``allowed_redirect_hosts``.
    """

    def __init__(
        self,
        verify: ssl.SSLContext | str | bool = True,
        cert: typing.Any = None,
        trust_env: bool = True,
        http1: bool = True,
        http2: bool = False,
        limits: httpx.Limits | None = None,
        local_address: str | None = None,
        retries: int = 0,
        socket_options: Iterable[SocketOption] | None = None,
        *,
        allowed_networks: Iterable[str | IPNetwork] = (),
        resolver: Resolver | None = None,
        allowed_redirect_hosts: Iterable[str] | None = None,
    ) -> None:
        super().__init__(verify=verify, cert=cert, trust_env=trust_env, http1=http1, http2=http2)
        limits = _DEFAULT_LIMITS if limits is None else limits
        self.guard = PeerGuard(
            allowed_networks=allowed_networks,
            resolver=resolver,
            allowed_redirect_hosts=allowed_redirect_hosts,
        )
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(verify=verify, cert=cert, trust_env=trust_env),
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            http1=http1,
            http2=http2,
            local_address=local_address,
            retries=retries,
            socket_options=socket_options,
            network_backend=_GuardedBackend(self.guard, httpcore.SyncBackend()),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        try:
            _checked_redirect(self.guard, request, response)
        except UnsafeRedirectTransportError:
            response.close()
            raise
        return response


class AsyncGuardedTransport(httpx.AsyncHTTPTransport):
    """The ``httpx.AsyncHTTPTransport`` twin of :class:`GuardedTransport`."""

    def __init__(
        self,
        verify: ssl.SSLContext | str | bool = True,
        cert: typing.Any = None,
        trust_env: bool = True,
        http1: bool = True,
        http2: bool = False,
        limits: httpx.Limits | None = None,
        local_address: str | None = None,
        retries: int = 0,
        socket_options: Iterable[SocketOption] | None = None,
        *,
        allowed_networks: Iterable[str | IPNetwork] = (),
        resolver: Resolver | None = None,
        allowed_redirect_hosts: Iterable[str] | None = None,
    ) -> None:
        super().__init__(verify=verify, cert=cert, trust_env=trust_env, http1=http1, http2=http2)
        limits = _DEFAULT_LIMITS if limits is None else limits
        self.guard = PeerGuard(
            allowed_networks=allowed_networks,
            resolver=resolver,
            allowed_redirect_hosts=allowed_redirect_hosts,
        )
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(verify=verify, cert=cert, trust_env=trust_env),
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            http1=http1,
            http2=http2,
            local_address=local_address,
            retries=retries,
            socket_options=socket_options,
            network_backend=_AsyncGuardedBackend(self.guard, httpcore.AnyIOBackend()),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        try:
            _checked_redirect(self.guard, request, response)
        except UnsafeRedirectTransportError:
            await response.aclose()
            raise
        return response
