"""The guarded HTTP transports: httpx (sync and async) and requests, against local servers.

Servers listen on 127.0.0.1; names are resolved by a resolver the tests pass in
(or by a patched ``socket.getaddrinfo``), so nothing leaves the machine.  A
transport refuses 127.0.0.1 like any internal address unless a test allows that
network, which shows both sides: the refusal, and the same request going
through once allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import ipaddress
import shutil
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit.security import (
    InternalPeerError,
    PeerGuard,
    UnsafeRedirectError,
    is_internal_address,
)

httpx = pytest.importorskip("httpx")
requests = pytest.importorskip("requests")

from urikit.security import (  # noqa: E402
    AsyncGuardedTransport,
    GuardedAdapter,
    GuardedTransport,
    InternalPeerConnectError,
    InternalPeerConnectionError,
    UnsafeRedirectRequestError,
    UnsafeRedirectTransportError,
)

LOOPBACK = ["127.0.0.1/32"]


class Handler(http.server.BaseHTTPRequestHandler):
    """``/ok`` answers 200 with the Host header it got; ``/to?<location>`` redirects to
    the location, ``/back?<anything>`` to ``/ok`` and ``/inside?<anything>`` to an
    internal address."""

    seen: list[tuple[str, str]]

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.headers.get("Host", "")))  # type: ignore[attr-defined]
        path, _, query = self.path.partition("?")
        fixed = {"/back": "/ok", "/inside": "http://169.254.169.254/latest/meta-data/"}
        if path == "/to" or path in fixed:
            self.send_response(302)
            self.send_header("Location", fixed.get(path, query))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = f"ok {self.headers.get('Host')}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        return None


class Server:
    def __init__(self, context: ssl.SSLContext | None = None) -> None:
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if context is not None:
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.httpd.seen = []  # type: ignore[attr-defined]
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def seen(self) -> list[tuple[str, str]]:
        return self.httpd.seen  # type: ignore[attr-defined, no-any-return]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


class Resolver:
    """A resolver from a table; counts its calls.  Unknown names are not found."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.calls: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return self.table[host]


def names() -> Resolver:
    return Resolver(
        {
            "public.example.com": ["127.0.0.1"],
            "rebind.example.com": ["10.0.0.1"],
            "mixed.example.com": ["127.0.0.1", "10.0.0.7"],
            "mapped.example.com": ["::ffff:169.254.169.254"],
            "localhost": ["127.0.0.1"],
        }
    )


# -- the rules, without a network -----------------------------------------------------------


def test_the_guard_refuses_any_internal_address() -> None:
    guard = PeerGuard(resolver=names())
    with pytest.raises(InternalPeerError) as caught:
        guard.addresses("public.example.com", 80)
    assert (caught.value.address, caught.value.reason) == (
        "127.0.0.1",
        "in 127.0.0.0/8, Loopback (RFC 1122 §3.2.1.3), not globally reachable",
    )
    assert "public.example.com" in str(caught.value) and "127.0.0.1" in str(caught.value)
    allowing = PeerGuard(resolver=names(), allowed_networks=LOOPBACK)
    assert allowing.addresses("public.example.com", 80) == [ipaddress.ip_address("127.0.0.1")]
    with pytest.raises(InternalPeerError) as caught:
        allowing.addresses("mixed.example.com", 80)  # one internal address is enough
    assert caught.value.address == "10.0.0.7"
    with pytest.raises(InternalPeerError) as caught:
        allowing.addresses("mapped.example.com", 80)
    assert "169.254.169.254" in caught.value.reason


@pytest.mark.parametrize(
    "host", ["0x7f.1", "2130706433", "017700000001", "127.1", "[::1]", "::ffff:127.0.0.1", "0"]
)
def test_addresses_spelled_in_the_host_are_not_resolved(host: str) -> None:
    resolver = names()
    with pytest.raises(InternalPeerError):
        PeerGuard(resolver=resolver).addresses(host, 80)
    assert resolver.calls == []


def test_check_peer_judges_the_address_reached() -> None:
    guard = PeerGuard(allowed_networks=LOOPBACK)
    guard.check_peer("public.example.com", "127.0.0.1")
    for peer in ("10.1.2.3", "169.254.169.254", "fe80::1%eth0", "::ffff:192.168.0.1"):
        with pytest.raises(InternalPeerError) as caught:
            guard.check_peer("public.example.com", peer)
        assert is_internal_address(caught.value.address)


@pytest.mark.parametrize(
    ("location", "code"),
    [
        ("http://169.254.169.254/latest/meta-data/", "internal-address"),
        ("http://0xa9fea9fe/", "internal-address"),
        ("http://[::ffff:10.0.0.1]/", "internal-address"),
        ("http://10.0.0.1:8080/", "internal-address"),
        ("http://localhost/", "reserved-name"),
        ("http://metadata.google.internal/", "reserved-name"),
        ("http://intranet/", "single-label"),
        ("file:///etc/passwd", "scheme-not-allowed"),
        ("//evil.example.com/", "network-path"),
        ("http://user:pw@example.com/", "userinfo"),
        ("/\\evil.example.com", "backslash"),
    ],
)
def test_redirects_are_checked(location: str, code: str) -> None:
    guard = PeerGuard(allowed_networks=LOOPBACK)
    with pytest.raises(UnsafeRedirectError) as caught:
        guard.check_redirect(location, "http://public.example.com/start")
    assert caught.value.code == code
    assert "pw" not in str(caught.value)


def test_redirects_that_pass() -> None:
    guard = PeerGuard(allowed_networks=LOOPBACK)
    for location in ("/next", "https://other.example.org/x", "http://127.0.0.1:8080/"):
        guard.check_redirect(location, "http://public.example.com/start")
    narrow = PeerGuard(allowed_redirect_hosts=[".example.com"])
    narrow.check_redirect("https://www.example.com/", "http://public.example.com/")
    with pytest.raises(UnsafeRedirectError) as caught:
        narrow.check_redirect("https://other.example.org/", "http://public.example.com/")
    assert caught.value.code == "host-not-allowed"


# -- httpx ------------------------------------------------------------------------------------


def test_httpx_refuses_an_internal_peer(server: Server) -> None:
    with httpx.Client(transport=GuardedTransport(resolver=names())) as client:
        for url in (
            f"http://public.example.com:{server.port}/ok",
            f"http://127.0.0.1:{server.port}/ok",
            f"http://localhost:{server.port}/ok",
            f"http://[::ffff:127.0.0.1]:{server.port}/ok",
        ):
            with pytest.raises(InternalPeerConnectError) as caught:
                client.get(url)
            error = caught.value
            assert isinstance(error, httpx.ConnectError) and isinstance(error, InternalPeerError)
            assert ipaddress.ip_address(error.address) in (
                ipaddress.ip_address("127.0.0.1"),
                ipaddress.ip_address("::ffff:127.0.0.1"),
            )
            assert "Loopback" in str(error) and error.address in str(error)
    assert server.seen == []  # nothing was sent


def test_httpx_connects_to_an_allowed_peer_by_name(server: Server) -> None:
    resolver = names()
    transport = GuardedTransport(resolver=resolver, allowed_networks=LOOPBACK)
    with httpx.Client(transport=transport) as client:
        response = client.get(f"http://public.example.com:{server.port}/ok")
    assert response.status_code == 200
    # the Host header stays the name; the name was resolved once
    assert response.text == f"ok public.example.com:{server.port}"
    assert resolver.calls == ["public.example.com"]


def test_httpx_refuses_a_redirect_to_an_internal_address(server: Server) -> None:
    transport = GuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
    start = f"http://public.example.com:{server.port}/to?http://169.254.169.254/latest/meta-data/"
    with (
        httpx.Client(transport=transport, follow_redirects=True) as client,
        pytest.raises(UnsafeRedirectTransportError) as caught,
    ):
        client.get(start)
    error = caught.value
    assert isinstance(error, httpx.TransportError) and isinstance(error, UnsafeRedirectError)
    assert error.code == "internal-address" and "169.254.169.254" in str(error)
    assert len(server.seen) == 1


def test_httpx_refuses_a_redirect_to_a_name_that_resolves_inside(server: Server) -> None:
    transport = GuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
    start = f"http://public.example.com:{server.port}/to?http://rebind.example.com:{server.port}/"
    with (
        httpx.Client(transport=transport, follow_redirects=True) as client,
        pytest.raises(InternalPeerConnectError) as caught,
    ):
        client.get(start)
    assert caught.value.address == "10.0.0.1" and caught.value.host == "rebind.example.com"


def test_httpx_follows_a_redirect_to_an_allowed_peer(server: Server) -> None:
    transport = GuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
    target = f"http://public.example.com:{server.port}/ok"
    with httpx.Client(transport=transport, follow_redirects=True) as client:
        response = client.get(f"http://public.example.com:{server.port}/to?{target}")
    assert response.status_code == 200 and len(response.history) == 1
    assert [path for path, _ in server.seen] == [f"/to?{target}", "/ok"]


def test_httpx_without_following_still_refuses_the_location(server: Server) -> None:
    transport = GuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
    with (
        httpx.Client(transport=transport) as client,
        pytest.raises(UnsafeRedirectTransportError),
    ):
        client.get(f"http://public.example.com:{server.port}/to?http://10.0.0.1/")


def test_httpx_resolution_failures_are_connect_errors(server: Server) -> None:
    with (
        httpx.Client(transport=GuardedTransport(resolver=names())) as client,
        pytest.raises(httpx.ConnectError) as caught,
    ):
        client.get("http://unknown.example.com/")
    assert not isinstance(caught.value, InternalPeerError)


def test_httpx_with_the_system_resolver_patched(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = socket.getaddrinfo
    asked: list[str] = []

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        asked.append(host)
        if host == "public.example.com":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        ipaddress.ip_address(host)  # the transport connects to addresses only
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with (
        httpx.Client(transport=GuardedTransport()) as client,
        pytest.raises(InternalPeerConnectError),
    ):
        client.get(f"http://public.example.com:{server.port}/ok")
    with httpx.Client(transport=GuardedTransport(allowed_networks=LOOPBACK)) as client:
        assert client.get(f"http://public.example.com:{server.port}/ok").status_code == 200
    assert asked.count("public.example.com") == 2


def test_httpx_async_twin(server: Server) -> None:
    async def run() -> None:
        async with httpx.AsyncClient(transport=AsyncGuardedTransport(resolver=names())) as client:
            with pytest.raises(InternalPeerConnectError):
                await client.get(f"http://public.example.com:{server.port}/ok")
        transport = AsyncGuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
        async with httpx.AsyncClient(transport=transport, follow_redirects=True) as client:
            response = await client.get(f"http://public.example.com:{server.port}/ok")
            assert response.text == f"ok public.example.com:{server.port}"
            with pytest.raises(UnsafeRedirectTransportError):
                await client.get(f"http://public.example.com:{server.port}/to?http://0xa9fea9fe/")
            with pytest.raises(InternalPeerConnectError):
                await client.get(
                    f"http://public.example.com:{server.port}/to?http://rebind.example.com/"
                )

    run_in_a_thread_of_its_own(run)


def run_in_a_thread_of_its_own(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` in a new thread: a test run may hold an event loop already
    (a browser's, in this suite), and asyncio runs one loop a thread."""
    failures: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


# -- request URLs that httpx sends with characters RFC 3986 forbids --------------------------

#: Queries httpx sends as they are although RFC 3986 §3.4 forbids them (and one it encodes).
UNENCODED_QUERIES = ["[1]", "{x}", "a^b", "a`b", "%zz", "a%", "a|b", "a\\b", "<b>"]


@pytest.mark.parametrize("query", UNENCODED_QUERIES)
def test_httpx_follows_a_redirect_from_a_url_with_forbidden_characters(
    server: Server, query: str
) -> None:
    transport = GuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
    with httpx.Client(transport=transport, follow_redirects=True) as client:
        response = client.get(f"http://public.example.com:{server.port}/back?q={query}")
        assert response.status_code == 200 and len(response.history) == 1
        assert response.url == f"http://public.example.com:{server.port}/ok"
        with pytest.raises(UnsafeRedirectTransportError) as caught:
            client.get(f"http://public.example.com:{server.port}/inside?q={query}")
    assert caught.value.code == "internal-address"
    assert [path.partition("?")[0] for path, _ in server.seen] == ["/back", "/ok", "/inside"]


@pytest.mark.parametrize("query", UNENCODED_QUERIES)
def test_httpx_async_follows_a_redirect_from_a_url_with_forbidden_characters(
    server: Server, query: str
) -> None:
    async def run() -> None:
        transport = AsyncGuardedTransport(resolver=names(), allowed_networks=LOOPBACK)
        async with httpx.AsyncClient(transport=transport, follow_redirects=True) as client:
            response = await client.get(f"http://public.example.com:{server.port}/back?q={query}")
            assert response.status_code == 200 and len(response.history) == 1
            with pytest.raises(UnsafeRedirectTransportError) as caught:
                await client.get(f"http://public.example.com:{server.port}/inside?q={query}")
            assert caught.value.code == "internal-address"

    run_in_a_thread_of_its_own(run)


@pytest.mark.parametrize("query", UNENCODED_QUERIES)
def test_requests_follows_a_redirect_from_a_url_with_forbidden_characters(
    server: Server, query: str
) -> None:
    session = session_with(GuardedAdapter(resolver=names(), allowed_networks=LOOPBACK))
    response = session.get(f"http://public.example.com:{server.port}/back?q={query}", timeout=5)
    assert response.status_code == 200 and len(response.history) == 1
    with pytest.raises(UnsafeRedirectRequestError) as caught:
        session.get(f"http://public.example.com:{server.port}/inside?q={query}", timeout=5)
    assert caught.value.code == "internal-address"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["http://", "https://u:p@", "http://public.example.com", "https://"]),
    st.text(alphabet="az09.-_~%[]{}^|`\\\"<>#?/:@!$&'()*+,;= \té\x00", max_size=16),
)
def test_a_url_httpx_sends_gives_no_other_error_on_a_redirect(scheme: str, rest: str) -> None:
    """For any request URL httpx accepts, a redirect is followed or refused as unsafe
    (``UnsafeRedirectError``); no other error escapes; a path from a public name stays."""
    try:
        sent = str(httpx.Request("GET", scheme + rest).url)
    except (httpx.InvalidURL, ValueError):
        return
    guard = PeerGuard()
    for location in ("/ok", "ok", "?q", "http://10.0.0.1/", "//a.example.com/", "[", "%zz"):
        with contextlib.suppress(UnsafeRedirectError):
            guard.check_redirect(location, sent)
    if httpx.URL(sent).host == "public.example.com":
        guard.check_redirect("/ok", sent)
        with pytest.raises(UnsafeRedirectError):
            guard.check_redirect("http://10.0.0.1/", sent)


def test_a_location_that_is_no_uri_is_refused_from_any_url() -> None:
    guard = PeerGuard()
    for base in ("http://public.example.com/r?q=[1]", "http://public.example.com/r"):
        with pytest.raises(UnsafeRedirectError) as caught:
            guard.check_redirect("/ok?q=[1]", base)
        assert caught.value.code == "invalid" and caught.value.base == base


# -- TLS: the server name stays the name ----------------------------------------------------


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    directory = tmp_path_factory.mktemp("tls")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=public.example.com",
            "-addext",
            "subjectAltName=DNS:public.example.com",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_tls_verifies_the_name_not_the_address(certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = Server(context)
    try:
        client_context = ssl.create_default_context(cafile=str(cert))
        transport = GuardedTransport(
            verify=client_context, resolver=names(), allowed_networks=LOOPBACK
        )
        with httpx.Client(transport=transport) as client:
            response = client.get(f"https://public.example.com:{server.port}/ok")
        assert response.text == f"ok public.example.com:{server.port}"
        adapter = GuardedAdapter(resolver=names(), allowed_networks=LOOPBACK)
        with requests.Session() as session:
            session.trust_env = False
            session.mount("https://", adapter)
            answer = session.get(f"https://public.example.com:{server.port}/ok", verify=str(cert))
        assert answer.text == f"ok public.example.com:{server.port}"
    finally:
        server.close()


# -- requests ----------------------------------------------------------------------------------


def session_with(adapter: GuardedAdapter) -> requests.Session:
    session = requests.Session()
    session.trust_env = False
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def test_requests_refuses_an_internal_peer(server: Server) -> None:
    with session_with(GuardedAdapter(resolver=names())) as session:
        for url in (
            f"http://public.example.com:{server.port}/ok",
            f"http://127.0.0.1:{server.port}/ok",
            f"http://0x7f.1:{server.port}/ok",
        ):
            with pytest.raises(InternalPeerConnectionError) as caught:
                session.get(url)
            error = caught.value
            assert isinstance(error, requests.ConnectionError)
            assert isinstance(error, InternalPeerError)
            assert error.address == "127.0.0.1" and error.request is not None
    assert server.seen == []


def test_requests_connects_to_an_allowed_peer_by_name(server: Server) -> None:
    resolver = names()
    adapter = GuardedAdapter(resolver=resolver, allowed_networks=LOOPBACK)
    with session_with(adapter) as session:
        response = session.get(f"http://public.example.com:{server.port}/ok")
    assert response.text == f"ok public.example.com:{server.port}"
    assert resolver.calls == ["public.example.com"]


def test_requests_refuses_redirects(server: Server) -> None:
    adapter = GuardedAdapter(resolver=names(), allowed_networks=LOOPBACK)
    base = f"http://public.example.com:{server.port}/to?"
    with (
        session_with(adapter) as session,
        pytest.raises(UnsafeRedirectRequestError) as caught,
    ):
        session.get(base + "http://169.254.169.254/latest/meta-data/")
        assert isinstance(caught.value, requests.RequestException)
        assert caught.value.code == "internal-address"
        with pytest.raises(InternalPeerConnectionError) as peer:
            session.get(base + f"http://rebind.example.com:{server.port}/")
        assert peer.value.address == "10.0.0.1"
        followed = session.get(base + f"http://public.example.com:{server.port}/ok")
        assert followed.status_code == 200 and len(followed.history) == 1


def test_requests_refuses_proxies() -> None:
    with (
        session_with(GuardedAdapter(resolver=names())) as session,
        pytest.raises(requests.exceptions.InvalidProxyURL),
    ):
        session.get("http://public.example.com/", proxies={"http": "http://proxy:3128"})


def test_importing_the_rules_loads_neither_library() -> None:
    code = (
        "import sys, urikit.security\n"
        "assert 'httpx' not in sys.modules and 'requests' not in sys.modules, sys.modules\n"
        "urikit.security.PeerGuard()\n"
        "assert 'httpx' not in sys.modules and 'requests' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
