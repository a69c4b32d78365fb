"""A requests transport adapter that connects only to public peers (the extra ``urikit[requests]``).

``session.mount("http://", GuardedAdapter())`` and ``session.mount("https://", ...)``:
urllib3 opens each new connection through connection classes whose
``_new_conn`` resolves the name once (:class:`PeerGuard`), refuses it when any
address is internal, connects to those addresses and checks the peer of the
socket it got; urllib3 then speaks TLS over that socket with the name as the
server name, and the request carries the name in its Host header.  A response
that redirects (RFC 9110 §15.4) is checked before the session follows it.
Refusals are :class:`InternalPeerConnectionError` (a ``requests.ConnectionError``)
and :class:`UnsafeRedirectRequestError` (a ``requests.RequestException``).
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterable
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3 import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util import connection

from .peers import (
    REDIRECT_STATUSES,
    InternalPeerError,
    IPNetwork,
    PeerGuard,
    Resolver,
    UnsafeRedirectError,
)

__all__ = ["GuardedAdapter", "InternalPeerConnectionError", "UnsafeRedirectRequestError"]


class InternalPeerConnectionError(requests.ConnectionError, InternalPeerError):
    """A ``requests.ConnectionError`` (so ``except requests.RequestException`` still
    catches it) for a peer that is an internal address; ``host``, ``address`` and
    ``reason`` say which and why."""

    def __init__(self, refusal: InternalPeerError, request: Any = None) -> None:
        requests.ConnectionError.__init__(self, str(refusal), request=request)
        self.host, self.address, self.reason = refusal.host, refusal.address, refusal.reason


class UnsafeRedirectRequestError(requests.RequestException, UnsafeRedirectError):
    """A ``requests.RequestException`` for a redirect refused before it was followed;
    ``location``, ``base``, ``code`` and ``reason`` say which and why."""

    def __init__(self, refusal: UnsafeRedirectError, request: Any, response: Any) -> None:
        requests.RequestException.__init__(self, str(refusal), request=request, response=response)
        self.location, self.base = refusal.location, refusal.base
        self.code, self.reason = refusal.code, refusal.reason


class _GuardedConnection(HTTPConnection):
    """urllib3's connection, opened only to the addresses its ``guard`` allows."""

    guard: PeerGuard

    def _new_conn(self) -> socket.socket:
        try:
            addresses = self.guard.addresses(self._dns_host, self.port)
        except InternalPeerError:
            raise
        except OSError as error:
            raise NameResolutionError(self.host, self, error) from error  # type: ignore[arg-type]
        failure: OSError | None = None
        for address in addresses:
            try:
                sock = connection.create_connection(
                    (str(address), self.port),
                    self.timeout,
                    source_address=self.source_address,
                    socket_options=self.socket_options,
                )
            except TimeoutError as error:
                raise ConnectTimeoutError(
                    self, f"Connection to {self.host} timed out. (connect timeout={self.timeout})"
                ) from error
            except OSError as error:
                failure = error
                continue
            try:
                self.guard.check_peer(self.host, sock.getpeername()[0])
            except InternalPeerError:
                sock.close()
                raise
            sys.audit("http.client.connect", self, self.host, self.port)
            return sock
        raise NewConnectionError(self, f"Failed to establish a new connection: {failure}")


def _pool_classes(guard: PeerGuard) -> dict[str, type[HTTPConnectionPool]]:
    """Pool classes whose connections are guarded by ``guard``, for ``http`` and ``https``."""
    plain = type("GuardedHTTPConnection", (_GuardedConnection,), {"guard": guard})
    secure = type("GuardedHTTPSConnection", (_GuardedConnection, HTTPSConnection), {"guard": guard})
    return {
        "http": type("GuardedHTTPConnectionPool", (HTTPConnectionPool,), {"ConnectionCls": plain}),
        "https": type(
            "GuardedHTTPSConnectionPool", (HTTPSConnectionPool,), {"ConnectionCls": secure}
        ),
    }


def _refusal_in(error: BaseException) -> InternalPeerError | None:
    """The :class:`InternalPeerError` that ``error`` wraps, if any (urllib3 wraps it in
    ``MaxRetryError.reason`` or in its arguments, requests in its arguments)."""
    seen: set[int] = set()
    stack: list[object] = [error]
    while stack:
        item = stack.pop()
        if id(item) in seen or not isinstance(item, BaseException):
            continue
        seen.add(id(item))
        if isinstance(item, InternalPeerError):
            return item
        stack.extend([item.__cause__, item.__context__, getattr(item, "reason", None), *item.args])
    return None


class GuardedAdapter(HTTPAdapter):
    """A ``requests`` transport adapter that connects only to public peers.

    Takes ``HTTPAdapter``'s arguments and those of :class:`~urikit.security.PeerGuard`:
    ``allowed_networks``, ``resolver``, ``allowed_redirect_hosts``.  It refuses to
    connect through a proxy (the peer would be the proxy, which must apply the
    rule itself).  Mount it for both schemes::

        session.mount("http://", adapter)
        session.mount("https://", adapter)
    """

    def __init__(
        self,
        *,
        allowed_networks: Iterable[str | IPNetwork] = (),
        resolver: Resolver | None = None,
        allowed_redirect_hosts: Iterable[str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.guard = PeerGuard(
            allowed_networks=allowed_networks,
            resolver=resolver,
            allowed_redirect_hosts=allowed_redirect_hosts,
        )
        super().__init__(**kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _pool_classes(self.guard)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        raise requests.exceptions.InvalidProxyURL(
            f"GuardedAdapter does not connect through the proxy {proxy!r}: the peer would be "
            "the proxy (set session.trust_env = False to ignore proxies of the environment)"
        )

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> Any:
        try:
            response = super().send(request, *args, **kwargs)
        except InternalPeerError as refusal:
            raise InternalPeerConnectionError(refusal, request) from None
        except requests.ConnectionError as error:
            wrapped = _refusal_in(error)
            if wrapped is None:
                raise
            raise InternalPeerConnectionError(wrapped, request) from error
        location = response.headers.get("location")
        if response.status_code in REDIRECT_STATUSES and location is not None:
            try:
                self.guard.check_redirect(_header_text(location), str(request.url))
            except UnsafeRedirectError as refusal:
                response.close()
                raise UnsafeRedirectRequestError(refusal, request, response) from None
        return response


def _header_text(value: str) -> str:
    """A header value as the text it was sent as: http.client reads headers as Latin-1,
    and a Location of UTF-8 octets is decoded back (as requests does for redirects)."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value
