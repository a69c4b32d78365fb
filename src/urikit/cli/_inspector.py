"""The local web server of ``urikit inspect``: the page, and ``POST /api/inspect``.

It listens on the IPv4 loopback address only and answers three things: ``GET``
of the page and its static files (a fixed list, never a path on disk), ``POST
/api/inspect`` (JSON in, JSON out, see :func:`answer`), and ``GET /api/initial``
(the inputs given on the command line).  Everything else is refused:

* a ``Host`` header other than its own address and port (421), so that a page
  of another site whose name was rebound to 127.0.0.1 cannot read answers;
* an ``Origin`` other than its own (403), so that no other page can post;
* a body that is not ``application/json`` (415), has no length (411), or is
  longer than :data:`MAX_BODY` (413); JSON that is not an object of strings (400);
* any other path (404), or a method the path does not answer (405, with ``Allow``).
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, ClassVar, Final

from ._inspection import inspect

__all__ = ["MAX_BODY", "Handler", "answer", "make_server"]

#: The longest request body read, in bytes.
MAX_BODY: Final = 64 * 1024
LOOPBACK: Final = "127.0.0.1"
#: The static files: the path served, the file under ``inspector/``, its media type.
STATIC: Final = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/inspector.css": ("inspector.css", "text/css; charset=utf-8"),
    "/inspector.js": ("inspector.js", "text/javascript; charset=utf-8"),
}
#: Every answer: nothing from elsewhere, no framing, no sniffing, no caching.
HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}
_FIELDS: Final = ("uri", "base", "other")
#: The API: ``POST`` a request, and ``GET`` the inputs given on the command line.
API: Final = "/api/inspect"
INITIAL: Final = "/api/initial"


def answer(request: Any) -> dict[str, Any]:
    """The answer to the JSON ``request``: ``{"uri": str, "base"?: str, "other"?: str}``,
    where ``null`` is an absent ``base`` or ``other``.

    Raises ``ValueError`` when ``request`` is not such an object.
    """
    if not isinstance(request, dict) or not isinstance(request.get("uri"), str):
        raise ValueError('expected a JSON object with a string "uri"')
    unknown = set(request) - set(_FIELDS)
    if unknown:
        raise ValueError(f"unknown fields: {', '.join(sorted(unknown))}")
    base, other = (request.get(name) or "" for name in ("base", "other"))
    if not (isinstance(base, str) and isinstance(other, str)):
        raise ValueError('"base" and "other" must be strings or null')
    return inspect(request["uri"], base, other)


class Handler(BaseHTTPRequestHandler):
    """One request to the inspector."""

    server_version = "urikit-inspect"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    #: Seconds a connection may stay silent before it is closed.
    timeout = 30
    static: ClassVar[dict[str, bytes]] = {}

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged: the inspected URIs are nobody else's business."""

    def _own(self) -> set[str]:
        assert isinstance(self.server, Server)
        port = self.server.server_port
        return {f"{LOOPBACK}:{port}", f"localhost:{port}"}

    def _send(
        self,
        status: HTTPStatus,
        body: bytes,
        media_type: str,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**HEADERS, **(headers or {})}.items():
            self.send_header(name, value)
        if status >= HTTPStatus.BAD_REQUEST:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _refuse(
        self, status: HTTPStatus, reason: str, headers: dict[str, str] | None = None
    ) -> None:
        body = json.dumps({"error": reason}).encode()
        self._send(status, body, "application/json", headers)

    def _allowed(self) -> bool:
        """Is the request addressed to this server, by a page of this server?"""
        if self.headers.get("Host", "").lower() not in self._own():
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "the Host is not this server")
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in self._own()}:
            self._refuse(HTTPStatus.FORBIDDEN, "requests from other origins are refused")
            return False
        return True

    def do_GET(self) -> None:
        if not self._allowed():
            return
        path = self.path.partition("?")[0]
        if path == API:
            self._only("POST")
            return
        if path == INITIAL:
            assert isinstance(self.server, Server)
            body = json.dumps(self.server.initial, ensure_ascii=True).encode()
            self._send(HTTPStatus.OK, body, "application/json")
            return
        if path == "/favicon.ico":
            self.send_response(HTTPStatus.NO_CONTENT)  # no icon, and no error in the console
            self.end_headers()
            return
        if path not in STATIC:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        name, media_type = STATIC[path]
        if name not in self.static:
            files = resources.files("urikit.cli") / "inspector"
            self.static[name] = (files / name).read_bytes()
        self._send(HTTPStatus.OK, self.static[name], media_type)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_POST(self) -> None:
        if not self._allowed():
            return
        if self.path in STATIC or self.path == INITIAL:
            self._only("GET, HEAD")
            return
        if self.path != API:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        media_type = self.headers.get("Content-Type", "").partition(";")[0].strip().lower()
        if media_type != "application/json":
            self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "the body must be application/json")
            return
        length = self.headers.get("Content-Length", "")
        if "Transfer-Encoding" in self.headers or not length.isdigit():
            self._refuse(HTTPStatus.LENGTH_REQUIRED, "a Content-Length is required")
            return
        if int(length) > MAX_BODY:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body exceeds {MAX_BODY} bytes")
            return
        try:
            request = json.loads(self.rfile.read(int(length)).decode("utf-8"))
            result = answer(request)
        except (ValueError, RecursionError) as exc:  # JSON, UTF-8, or the fields
            self._refuse(HTTPStatus.BAD_REQUEST, f"bad request: {exc}")
            return
        body = json.dumps(result, ensure_ascii=True).encode()
        self._send(HTTPStatus.OK, body, "application/json")

    def _only(self, allowed: str) -> None:
        """405 Method Not Allowed, with the methods the path answers (RFC 9110 §15.5.6)."""
        reason = f"{self.path} answers {allowed} only"
        self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, reason, {"Allow": allowed})

    def _not_allowed(self) -> None:
        if not self._allowed():
            return
        path = self.path.partition("?")[0]
        if path == API:
            self._only("POST")
        elif path in STATIC or path == INITIAL:
            self._only("GET, HEAD")
        else:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _not_allowed


class Server(ThreadingHTTPServer):
    """The inspector's server: one thread per connection, none left behind at exit.

    ``initial`` holds the inputs given on the command line, which the page reads from
    ``GET /api/initial`` when its address does not give them: a password never has to
    travel in the page's address (and so into the browser's history)."""

    daemon_threads = True
    allow_reuse_address = False
    initial: dict[str, str]


def make_server(port: int = 0, initial: dict[str, str] | None = None) -> Server:
    """A server bound to 127.0.0.1 at ``port`` (0: a free port), not yet serving, whose
    page starts with the inputs ``initial`` (``uri``, ``base``, ``other``)."""
    server = Server((LOOPBACK, port), Handler)
    server.initial = {name: (initial or {}).get(name) or "" for name in _FIELDS}
    return server


def serve_in_thread(server: Server) -> threading.Thread:
    """Serve ``server`` in a daemon thread (for tests and ``--open``); stop with
    ``server.shutdown()``."""
    thread = threading.Thread(target=server.serve_forever, name="urikit-inspect", daemon=True)
    thread.start()
    return thread
