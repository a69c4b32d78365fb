"""Open-redirect checks: may a server send a client to this target?

A web application that redirects to a URL taken from a request ("?next=...")
must not send its users elsewhere.  The target is resolved against the base
URI of the request (RFC 3986 §5.2) and refused unless it stays on the base's
host, or on a host the application names, with a scheme it allows.  Because
browsers read URLs by the WHATWG rules and not by RFC 3986, everything the
two read differently is refused too: a backslash, white space and controls,
userinfo, a network-path reference, and any parser differential.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from urllib.parse import unquote

from ..errors import URIError
from ..schemes import DEFAULT_REGISTRY, SchemeRegistry
from ..uri import URI, _Reference
from .differential import differential_findings
from .findings import Finding, Severity, quote
from .hosts import read_host

__all__ = ["is_safe_redirect", "redirect_findings"]

_ENCODED_CONTROLS: Final = frozenset(f"%{n:02X}" for n in [*range(0x20), 0x7F])


def _refuse(
    code: str, message: str, span: tuple[int, int], component: str | None = None
) -> Finding:
    return Finding(code, message, Severity.HIGH, component, span)


def _scan(text: str) -> list[Finding]:
    """Characters a browser reads differently or that split a header."""
    found: list[Finding] = []
    for index, ch in enumerate(text):
        code = ord(ch)
        if ch == "\\":
            found.append(
                _refuse(
                    "backslash",
                    "a backslash, which browsers read as '/' (so '/\\evil' is '//evil')",
                    (index, index + 1),
                )
            )
        elif code < 0x21 or 0x7F <= code <= 0xA0 or ch.isspace():
            found.append(
                _refuse(
                    "control",
                    f"U+{code:04X}, white space or a control character, which browsers "
                    "strip or delete and which can split a header",
                    (index, index + 1),
                )
            )
        elif ch == "%" and text[index : index + 3].upper() in _ENCODED_CONTROLS:
            found.append(
                _refuse(
                    "control",
                    f"the percent-encoded control character {text[index : index + 3]}",
                    (index, index + 3),
                )
            )
    return found


def _host_key(host: str) -> str:
    name = host if host.startswith("[") else (read_host(host) or host)
    return name.lower().removesuffix(".")


def _allowed(host: str, port: int | None, allowed_hosts: Iterable[str]) -> bool:
    """Is ``host`` (at ``port``) among ``allowed_hosts``?

    An entry is a host ("example.com", any port), a host and port
    ("example.com:8443"), or a domain with a leading dot (".example.com":
    the domain and every name under it).
    """
    key = _host_key(host)
    for entry in allowed_hosts:
        name, want = entry, None
        if not entry.endswith("]") and entry.count(":") == 1:
            name, _, number = entry.partition(":")
            want = int(number) if number.isdigit() else -1
        if want is not None and want != port:
            continue
        allowed = _host_key(name)
        if allowed.startswith("."):
            if key == allowed[1:] or key.endswith(allowed):
                return True
        elif key == allowed:
            return True
    return False


def redirect_findings(
    target: str | _Reference,
    *,
    base: str | _Reference,
    allowed_hosts: Iterable[str] = (),
    allowed_schemes: Iterable[str] = ("http", "https"),
    registry: SchemeRegistry = DEFAULT_REGISTRY,
) -> list[Finding]:
    """Why redirecting to ``target`` from ``base`` is unsafe; empty when it is safe.

    See :func:`is_safe_redirect`.  Codes: ``invalid``, ``backslash``,
    ``control``, ``network-path``, ``userinfo``, ``parser-differential``,
    ``scheme-not-allowed``, ``host-not-allowed``.
    """
    if isinstance(allowed_hosts, str):
        allowed_hosts = (allowed_hosts,)
    if isinstance(allowed_schemes, str):
        allowed_schemes = (allowed_schemes,)
    allowed_hosts = tuple(allowed_hosts)
    text = str(target)
    base_uri = base if isinstance(base, _Reference) else URI(base)
    found = _scan(text)
    if found:
        return found
    try:
        ref = target if isinstance(target, _Reference) else URI(text)
    except URIError as error:
        position = error.position or 0
        return [_refuse("invalid", f"not a URI reference: {error.reason}", (position, position))]
    if ref.kind == "network-path":
        return [
            _refuse(
                "network-path",
                "a network-path reference ('//host') leaves the base's host; give the "
                "scheme, or a path",
                (0, len(text)),
            )
        ]
    if ref.userinfo is not None:
        return [
            _refuse(
                "userinfo",
                "a userinfo ('user@') in a redirect only serves to mislead (RFC 3986 §7.6)",
                ref.span("userinfo") or (0, len(text)),
                "userinfo",
            )
        ]
    path = unquote(ref.path)
    if ref.authority is None and (path.startswith("//") or path.startswith("/\\")):
        return [
            _refuse(
                "network-path",
                f"the path {quote(ref.path)} decodes to {quote(path)}, a network-path "
                "reference for software that decodes before it resolves",
                ref.span("path") or (0, len(text)),
                "path",
            )
        ]
    found = differential_findings(text, ref, registry)
    if found:
        return found
    from ..resolve import resolve

    resolved = resolve(base_uri, ref)
    schemes = {s.lower() for s in allowed_schemes}
    scheme = (resolved.scheme or "").lower()
    if scheme not in schemes:
        return [
            _refuse(
                "scheme-not-allowed",
                f"the scheme {quote(scheme)} is not one of {', '.join(sorted(schemes))}",
                (0, len(text)),
                "scheme",
            )
        ]
    host = resolved.host
    if host is None or host == "":
        return [_refuse("host-not-allowed", "the target has no host", (0, len(text)), "host")]
    port = resolved.port_number
    if port is None:
        port = registry.default_port(scheme)
    same = base_uri.host is not None and _host_key(host) == _host_key(base_uri.host)
    base_port = base_uri.port_number
    if base_port is None and base_uri.scheme is not None:
        base_port = registry.default_port(base_uri.scheme)
    if same and port in (base_port, registry.default_port(scheme)):
        return []
    if _allowed(host, port, allowed_hosts):
        return []
    return [
        _refuse(
            "host-not-allowed",
            f"the host {quote(host)}"
            + ("" if resolved.port is None else f" port {port}")
            + " is neither the base's nor an allowed host",
            (0, len(text)),
            "host",
        )
    ]


def is_safe_redirect(
    target: str | _Reference,
    *,
    base: str | _Reference,
    allowed_hosts: Iterable[str] = (),
    allowed_schemes: Iterable[str] = ("http", "https"),
) -> bool:
    """May a server redirect a client from ``base`` to ``target``?

    ``target`` is resolved against ``base`` (RFC 3986 §5.2).  It is refused
    when it is not a strict URI reference, holds a backslash, white space or a
    control character (raw or percent-encoded), is a network-path reference
    (``//evil``), has userinfo, is read differently by urllib.parse or a
    WHATWG parser (``https:evil``), or resolves to a scheme not in
    ``allowed_schemes`` (``javascript:``, ``data:``) or to a host that is
    neither the base's host (at its port or the scheme's default) nor in
    ``allowed_hosts``.  :func:`redirect_findings` says why.  ``base`` must be
    an absolute URI (RFC 3986 §5.1); a bad base raises :class:`~urikit.URIError`.

    >>> is_safe_redirect("/account", base="https://example.com/login")
    True
    >>> is_safe_redirect("//evil.example/", base="https://example.com/login")
    False
    """
    return not redirect_findings(
        target, base=base, allowed_hosts=allowed_hosts, allowed_schemes=allowed_schemes
    )
