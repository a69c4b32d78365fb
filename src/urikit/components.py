"""The components of a reference, and their recomposition (RFC 3986 §3, §5.3).

:class:`Parts` holds the eight components of one parsed reference: what the
RFC operations (resolution, normalization, query and path edits, the IRI
mappings) read and build.  A component is ``None`` when its delimiter is
absent and ``""`` when it is present but empty; the path is always a string.
"""

from __future__ import annotations

import ipaddress
from typing import Any, NamedTuple

from .errors import URIError
from .grammar import Grammar
from .percent import percent_encode

__all__ = [
    "Parts",
    "check_structure",
    "component_spans",
    "compose_authority",
    "encode_data",
    "recompose",
    "split",
]


class Parts(NamedTuple):
    """The components of a reference (RFC 3986 §3), in the order they appear.

    ``authority`` is ``[ userinfo "@" ] host [ ":" port ]`` (§3.2); when it is
    ``None`` so are ``userinfo``, ``host`` and ``port``.
    """

    scheme: str | None
    authority: str | None
    userinfo: str | None
    host: str | None
    port: str | None
    path: str
    query: str | None
    fragment: str | None

    def text(self) -> str:
        """The reference these components make (§5.3)."""
        return recompose(self.scheme, self.authority, self.path, self.query, self.fragment)


def split(text: str, grammar: Grammar) -> Parts | None:
    """The components of ``text`` read by ``grammar`` (RFC 3986 §4.1), or ``None``."""
    m = grammar.reference.fullmatch(text)
    return None if m is None else tuple.__new__(Parts, m.groups())


def recompose(
    scheme: str | None,
    authority: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
) -> str:
    """Component recomposition, RFC 3986 §5.3."""
    result = path
    if authority is not None:
        result = "//" + authority + result
    if scheme is not None:
        result = scheme + ":" + result
    if query is not None:
        result += "?" + query
    if fragment is not None:
        result += "#" + fragment
    return result


def compose_authority(userinfo: str | None, host: str, port: str | None) -> str:
    """authority = [ userinfo "@" ] host [ ":" port ]   (RFC 3986 §3.2)."""
    authority = host
    if userinfo is not None:
        authority = userinfo + "@" + authority
    if port is not None:
        authority += ":" + port
    return authority


# -- building a reference from components (§3, §4.2) ----------------------------------


def encode_data(components: dict[str, Any], iri: bool) -> dict[str, Any]:
    """Percent-encode the data components among ``components`` for their places."""
    encoded = dict(components)
    for name in ("userinfo", "path", "query", "fragment"):
        value = components.get(name)
        if value is not None:
            encoded[name] = percent_encode(value, name, iri=iri)
    if components.get("host") is not None:
        encoded["host"] = _encode_host(components["host"], iri)
    return encoded


def _encode_host(host: str, iri: bool) -> str:
    if host.startswith("["):
        return host
    if ":" in host:
        try:
            ipaddress.IPv6Address(host.partition("%")[0])
        except ValueError:
            pass
        else:
            address, sep, zone = host.partition("%")
            return f"[{address}{'%25' + percent_encode(zone, 'unreserved') if sep else ''}]"
    return percent_encode(host, "host", iri=iri)


def check_structure(scheme: str | None, authority: str | None, path: str) -> None:
    """The combinations of components that the grammar forbids (§3, §3.3, §4.2)."""
    if authority is not None:
        if path and path[0] != "/":
            raise URIError(
                'with an authority, the path must be empty or begin with "/" (§3.3)',
                text=path,
                position=0,
                rule="path-abempty",
            )
    elif path.startswith("//"):
        raise URIError(
            'without an authority, a path cannot begin with "//" (§3.3)',
            text=path,
            position=1,
            rule="path-absolute",
        )
    elif scheme is None:
        first = path.split("/", 1)[0]
        if ":" in first:
            raise URIError(
                "a colon in the first segment of a relative-path reference would read as a "
                'scheme; begin the path with "./" (§4.2)',
                text=path,
                position=first.index(":"),
                rule="path-noscheme",
            )


def component_spans(parts: Parts) -> dict[str, tuple[int, int]]:
    """Where each defined component stands in ``parts.text()`` (§3, §5.3).

    An undefined component has no entry; ``"path"`` always has one.

    >>> component_spans(Parts("http", "u@h:8", "u", "h", "8", "/p", "q", None))
    {'scheme': (0, 4), 'authority': (7, 12), 'userinfo': (7, 8), 'host': (9, 10), \
'port': (11, 12), 'path': (12, 14), 'query': (15, 16)}
    """
    spans: dict[str, tuple[int, int]] = {}
    at = 0
    if parts.scheme is not None:
        spans["scheme"] = (0, len(parts.scheme))
        at = len(parts.scheme) + 1
    if parts.authority is not None:
        at += 2
        end = at + len(parts.authority)
        spans["authority"] = (at, end)
        if parts.userinfo is not None:
            spans["userinfo"] = (at, at + len(parts.userinfo))
            at += len(parts.userinfo) + 1
        if parts.host is not None:
            spans["host"] = (at, at + len(parts.host))
        if parts.port is not None:
            spans["port"] = (end - len(parts.port), end)
        at = end
    spans["path"] = (at, at + len(parts.path))
    at += len(parts.path)
    if parts.query is not None:
        spans["query"] = (at + 1, at + 1 + len(parts.query))
        at += len(parts.query) + 1
    if parts.fragment is not None:
        spans["fragment"] = (at + 1, at + 1 + len(parts.fragment))
    return spans
