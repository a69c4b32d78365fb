"""The components of a reference, and their recomposition (RFC 3986 §3, §5.3).

:class:`Parts` holds the eight components of one parsed reference: what the
RFC operations (resolution, normalization, query and path edits, the IRI
mappings) read and build.  A component is ``None`` when its delimiter is
absent and ``""`` when it is present but empty; the path is always a string.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Parts", "compose_authority", "recompose"]


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
