"""The components of a reference, and their recomposition (RFC 3986 §3, §5.3).

:class:`Parts` holds the eight components of one parsed reference: what the
RFC operations (resolution, normalization, query and path edits, the IRI
mappings) read and build.  A component is ``None`` when its delimiter is
absent and ``""`` when it is present but empty; the path is always a string.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Parts", "component_spans", "compose_authority", "recompose"]


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
