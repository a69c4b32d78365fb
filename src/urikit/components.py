"""The components of a reference, and their recomposition (RFC 3986 §3, §5.3).

:class:`Parts` holds the eight components of one parsed reference: what the
RFC operations (resolution, normalization, query and path edits, the IRI
mappings) read and build.  A component is ``None`` when its delimiter is
absent and ``""`` when it is present but empty; the path is always a string.
"""

from __future__ import annotations

import ipaddress
from typing import Any, NamedTuple, TypeAlias
from urllib.parse import ParseResult, SplitResult

from .errors import URIError
from .grammar import Grammar
from .host import ip_literal
from .percent import percent_encode
from .types import Component

__all__ = [
    "Groups",
    "Parts",
    "check_recomposed",
    "check_structure",
    "component_spans",
    "compose",
    "compose_authority",
    "encode_data",
    "from_split_result",
    "recompose",
    "redacted",
    "split",
    "with_changes",
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


#: The eight components in the order of :class:`Parts`, as any tuple holds them (a
#: ``Parts``, or the groups of a match of ``Grammar.reference``).
Groups: TypeAlias = tuple[
    str | None, str | None, str | None, str | None, str | None, str, str | None, str | None
]


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


def redacted(text: str, userinfo: tuple[int, int], mask: str) -> str:
    """``text`` with the password of the userinfo that stands at ``userinfo`` (a negative
    start when there is none) replaced by ``mask`` (§3.2.1, §7.5)."""
    start, end = userinfo
    if start < 0:
        return text
    colon = text.find(":", start, end)
    if colon < 0 or colon + 1 == end:
        return text
    return text[: colon + 1] + mask + text[end:]


# -- building a reference from components (§3, §4.2) ----------------------------------


def compose(
    scheme: str | None,
    authority: str | None,
    userinfo: str | None,
    host: str | None,
    port: str | int | None,
    path: str,
    query: str | None,
    fragment: str | None,
    *,
    encode: bool,
    iri: bool,
) -> tuple[str, dict[Component, str | None]]:
    """The text of the reference these components make (§5.3), and each component given
    as it must read back from that text (``URI.build``).  The components come in the
    order of :class:`Parts`.

    Either ``authority`` or ``userinfo``/``host``/``port`` is given (an int port is
    written in decimal); with ``encode`` the components are data, each percent-encoded
    for its place (:func:`encode_data`).  The combinations the grammar forbids are
    refused (§3.3, §4.2).
    """
    if authority is not None and (userinfo, host, port) != (None, None, None):
        raise ValueError("give either authority or userinfo/host/port, not both")
    if isinstance(port, bool):
        raise TypeError("port must be a str of digits or an int, not bool")
    if isinstance(port, int):
        if port < 0:
            raise URIError(f"a port cannot be negative: {port}", rule="port")
        port = str(port)
    if host is None and (userinfo is not None or port is not None):
        host = ""
    if encode:
        data = {"userinfo": userinfo, "host": host, "path": path, "query": query}
        data = encode_data({**data, "fragment": fragment}, iri)
        userinfo, host, query, fragment = (
            data[k] for k in ("userinfo", "host", "query", "fragment")
        )
        path = data["path"] or ""
        if scheme is None and host is None and authority is None:
            # §4.2: the first segment of a relative-path reference holds no ":"
            first, sep, rest = path.partition("/")
            path = first.replace(":", "%3A") + sep + rest
    if host is not None:
        authority = compose_authority(userinfo, host, port)
    check_structure(scheme, authority, path)
    given: dict[Component, str | None] = {
        "scheme": scheme,
        "authority": authority,
        "path": path,
        "query": query,
        "fragment": fragment,
    }
    if host is not None:
        given["userinfo"], given["host"], given["port"] = userinfo, host, port
    return recompose(scheme, authority, path, query, fragment), given


def check_recomposed(parts: Parts, given: dict[Component, str | None]) -> None:
    """Refuse a component given to :func:`compose` that reads back otherwise from the
    text it made, whose components are ``parts``: it holds a delimiter of another
    component (§5.3)."""
    for name, value in given.items():
        if getattr(parts, name) != value:
            span = component_spans(parts).get(name)
            raise URIError(
                f"the {name} {value!r} would not survive recomposition: it holds a "
                f"delimiter of another component; percent-encode it or pass encode=True",
                text=parts.text(),
                position=span[1] if span else 0,
                rule=name,
            )


def with_changes(
    parts: Parts, changed: dict[str, Any], *, encode: bool, iri: bool
) -> dict[str, Any]:
    """The components to build a reference from (``URI.replace``): ``parts`` with those
    in ``changed`` changed (``None`` removes one, §5.3), each encoded for its place with
    ``encode``.  Changing ``userinfo``, ``host`` or ``port`` keeps the other two."""
    if "host" in changed and changed["host"] is None and parts.host is not None:
        raise URIError(
            "a reference with an authority has a host, maybe empty (§3.2, §3.2.2): "
            "host=None cannot remove it alone; pass authority=None to remove the "
            'authority, or host="" for an empty host',
            text=parts.text(),
            position=component_spans(parts)["host"][0],
            rule="host",
        )
    changed = {**changed, **encode_data(changed, iri)} if encode else dict(changed)
    server: dict[str, Any] = {
        k: changed.pop(k) for k in ("userinfo", "host", "port") if k in changed
    }
    components: dict[str, Any] = {
        "scheme": parts.scheme,
        "path": parts.path,
        "query": parts.query,
        "fragment": parts.fragment,
    }
    components.update(changed)
    if server:
        if "authority" in changed:
            raise ValueError("give either authority or userinfo/host/port, not both")
        current: dict[str, Any] = {
            "userinfo": parts.userinfo,
            "host": parts.host,
            "port": parts.port,
        }
        current.update(server)
        if current["host"] is None and (current["userinfo"], current["port"]) != (None, None):
            raise ValueError(
                "without a host there is no authority to hold a userinfo or port; "
                "remove them too, or pass authority=None"
            )
        if current["host"] is not None:
            components.update(current)
    elif "authority" not in changed:
        components["authority"] = parts.authority
    return components


def from_split_result(parts: SplitResult | ParseResult) -> dict[str, Any]:
    """The components of a ``urllib.parse`` result (``URI.from_urlsplit``): ``""`` is
    taken as absent, as its ``geturl()`` does, but for an empty ``netloc`` before a
    path that begins with "//": without an authority no path may (RFC 3986 §3.3), so
    the authority was there and empty (``////``)."""
    path = parts.path
    if isinstance(parts, ParseResult) and parts.params:
        path += ";" + parts.params
    return {
        "scheme": parts.scheme or None,
        "authority": parts.netloc or ("" if path.startswith("//") else None),
        "path": path,
        "query": parts.query or None,
        "fragment": parts.fragment or None,
    }


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
    """A host given as data: an IPv6 address (its zone ID after "%", as sockets write it)
    as an IP literal (RFC 3986 §3.2.2, RFC 6874 §2), anything else encoded as a reg-name."""
    if host.startswith("["):
        return host
    if ":" in host:
        address, sep, zone = host.partition("%")
        try:
            ipaddress.IPv6Address(address)
        except ValueError:
            pass
        else:
            return ip_literal(address, percent_encode(zone, "unreserved") if sep else None)
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
