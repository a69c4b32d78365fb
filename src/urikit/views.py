"""Small read-only views of four schemes' own syntax.

Each view is a function from a URI to a frozen value, written from the
scheme's specification:

* :func:`mailto`: addresses and header fields (RFC 6068 §2);
* :func:`news`: a newsgroup or a message-id (RFC 5538 §2.1, RFC 1738 §3.6);
* :func:`ftp_type`: the ``;type=`` typecode (RFC 1738 §3.2.2);
* :func:`urn`: NID, NSS and the r-, q- and f-components (RFC 8141 §2).

:data:`VIEWS` maps each scheme to its view, and :func:`view` looks one up.
A URI of another scheme, or one outside the scheme's syntax, raises
:class:`URIError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, TypeAlias

from ._seam import percent_decode
from .errors import URIError
from .grammar import ALPHA, DIGIT, PCT_ENCODED
from .types import Component
from .uri import IRI, URI

#: What a view reads: a URI, an IRI, or text parsed as a URI.
Reference: TypeAlias = URI | IRI | str

__all__ = ["URN", "VIEWS", "Mailto", "News", "ftp_type", "mailto", "news", "urn", "view"]


def _reference(uri: Reference, scheme: str, rfc: str) -> URI | IRI:
    ref = uri if isinstance(uri, (URI, IRI)) else URI(uri)
    if ref.scheme is None or ref.scheme.lower() != scheme:
        raise URIError(f"not a {scheme}: URI ({rfc})", text=str(ref), position=0, rule="scheme")
    return ref


def _refuse(ref: URI | IRI, component: Component, reason: str) -> URIError:
    span = ref.span(component)
    return URIError(reason, text=str(ref), position=span[0] if span else 0, rule=component)


# -- mailto: (RFC 6068) --------------------------------------------------------------


def _addresses(text: str) -> list[str]:
    """to = addr-spec *("," addr-spec)   (RFC 6068 §2): split, then decode each."""
    return [percent_decode(address) for address in text.split(",") if address]


@dataclass(frozen=True)
class Mailto:
    """A ``mailto:`` URI (RFC 6068 §2), decoded.

    ``to`` holds the addresses of the path and of any ``to`` header field, in
    order (§2: they are equivalent).  ``headers`` holds every header field
    as ``(hfname, hfvalue)``, ``to`` included, in order.
    """

    to: tuple[str, ...]
    headers: tuple[tuple[str, str], ...]

    def header(self, name: str) -> str | None:
        """The first value of header field ``name`` (compared without case)."""
        lowered = name.lower()
        for key, value in self.headers:
            if key.lower() == lowered:
                return value
        return None

    def _header_addresses(self, name: str) -> tuple[str, ...]:
        lowered = name.lower()
        found: list[str] = []
        for key, value in self.headers:
            if key.lower() == lowered:
                found.extend(address for address in value.split(",") if address)
        return tuple(found)

    @property
    def subject(self) -> str | None:
        return self.header("subject")

    @property
    def body(self) -> str | None:
        """The body (§2: "body" is the text of the message, lines ending in CRLF)."""
        return self.header("body")

    @property
    def cc(self) -> tuple[str, ...]:
        return self._header_addresses("cc")

    @property
    def bcc(self) -> tuple[str, ...]:
        return self._header_addresses("bcc")


def mailto(uri: Reference) -> Mailto:
    """Read a ``mailto:`` URI (RFC 6068 §2).

    Percent-encoded octets are UTF-8 (§2), and "+" is a plus sign, not a
    space (§5), so header fields are read with the ``"rfc3986"`` codec.
    Addresses are split on "," before decoding; they are not checked against
    RFC 5322.

    >>> m = mailto("mailto:joe@example.com?cc=bob@example.com&subject=hello%20there")
    >>> m.to, m.cc, m.subject
    (('joe@example.com',), ('bob@example.com',), 'hello there')
    """
    ref = _reference(uri, "mailto", "RFC 6068")
    if ref.authority is not None:
        raise _refuse(ref, "authority", "a mailto: URI has no authority (RFC 6068 §2)")
    if ref.fragment is not None:
        raise _refuse(ref, "fragment", "a mailto: URI has no fragment (RFC 6068 §2)")
    to = _addresses(ref.path)
    headers: list[tuple[str, str]] = []
    for name, value in ref.query_params("rfc3986"):
        if value is None:
            raise _refuse(ref, "query", f"the header field {name!r} has no '=' (RFC 6068 §2)")
        headers.append((name, value))
        if name.lower() == "to":
            to.extend(address for address in value.split(",") if address)
    return Mailto(tuple(to), tuple(headers))


# -- news: (RFC 5538, RFC 1738) -------------------------------------------------------


@dataclass(frozen=True)
class News:
    """A ``news:`` URI: exactly one of ``group`` and ``message_id`` is set.

    ``group`` is a newsgroup name or a wildmat such as ``*`` (every group);
    ``message_id`` is given without its angle brackets, as the URI writes it.
    ``server`` is the authority of the RFC 5538 form ``news://server/...``.
    """

    group: str | None
    message_id: str | None
    server: str | None = None


def news(uri: Reference) -> News:
    """Read a ``news:`` URI (RFC 5538 §2.1; RFC 1738 §3.6).

    What holds an "@" is an article's message-id, anything else a group.

    >>> news("news:comp.infosystems.www.misc")
    News(group='comp.infosystems.www.misc', message_id=None, server=None)
    >>> news("news:p0624081dc30b8699bf9b@%5B10.20.30.108%5D").message_id
    'p0624081dc30b8699bf9b@[10.20.30.108]'
    """
    ref = _reference(uri, "news", "RFC 5538")
    path = ref.path
    if ref.authority is not None:
        path = path[1:]
    if path == "" or ref.query is not None:
        raise _refuse(ref, "path", "a news: URI names one group or one article (RFC 5538 §2.1)")
    name = percent_decode(path)
    if "@" in name:
        return News(None, name, ref.authority)
    return News(name, None, ref.authority)


# -- ftp: ;type= (RFC 1738 §3.2.2) ----------------------------------------------------

_FTP_TYPECODES: Final = ("a", "i", "d")
_TYPE_PARAMETER: Final = ";type="


def ftp_type(uri: Reference) -> str | None:
    """The typecode of an ``ftp:`` URL: ``"a"``, ``"i"``, ``"d"``, or ``None`` (RFC 1738 §3.2.2).

    ``;type=`` follows the last segment of the path (``ftpurl = "ftp://"
    login [ "/" fpath [ ";type=" ftptype ]]``); "a" is ASCII, "i" image
    (binary) and "d" a directory listing.

    >>> ftp_type("ftp://ftp.example.org/pub/file.tar;type=i")
    'i'
    """
    ref = _reference(uri, "ftp", "RFC 1738")
    last = ref.path.rpartition("/")[2]
    index = last.lower().rfind(_TYPE_PARAMETER)
    if index < 0:
        return None
    code = last[index + len(_TYPE_PARAMETER) :].lower()
    if code not in _FTP_TYPECODES:
        raise _refuse(ref, "path", f"{code!r} is not an ftp typecode (a, i or d; RFC 1738 §3.2.2)")
    return code


# -- urn: (RFC 8141) -----------------------------------------------------------------

# NID = (alphanum) 0*30(ldh) (alphanum)          ldh = alphanum / "-"
_NID: Final = re.compile(f"[{ALPHA}{DIGIT}][{ALPHA}{DIGIT}-]{{0,30}}[{ALPHA}{DIGIT}]")
_PCT: Final = re.compile(PCT_ENCODED)


@dataclass(frozen=True)
class URN:
    """A URN (RFC 8141 §2): ``urn:<NID>:<NSS>[?+<r>][?=<q>][#<f>]``, as written.

    The components are not decoded: the NSS is opaque to everyone but its
    namespace (§2.1).  Absent components are ``None``.
    """

    nid: str
    nss: str
    r_component: str | None = None
    q_component: str | None = None
    f_component: str | None = None

    @property
    def equivalence_key(self) -> str:
        """The form two URNs share when they are URN-equivalent (RFC 8141 §3.1).

        "urn" and the NID compare without case, percent-encodings compare
        with upper-case hex, and the r-, q- and f-components are ignored.
        """
        nss = _PCT.sub(lambda m: m.group().upper(), self.nss)
        return f"urn:{self.nid.lower()}:{nss}"


def urn(uri: Reference) -> URN:
    """Read a URN (RFC 8141 §2).

    >>> u = urn("urn:example:weather?=op=map&lat=39.56#x")
    >>> u.nid, u.nss, u.r_component, u.q_component, u.f_component
    ('example', 'weather', None, 'op=map&lat=39.56', 'x')
    """
    ref = _reference(uri, "urn", "RFC 8141")
    if ref.authority is not None:
        raise _refuse(ref, "authority", "a URN has no authority (RFC 8141 §2)")
    nid, colon, nss = ref.path.partition(":")
    if not colon or _NID.fullmatch(nid) is None:
        raise _refuse(
            ref,
            "path",
            "a URN begins urn:<NID>:, where the NID is 2 to 32 letters, digits and hyphens, "
            "beginning and ending with a letter or digit (RFC 8141 §2)",
        )
    if nss == "" or nss[0] == "/":
        raise _refuse(ref, "path", "the NSS must begin with a pchar (RFC 8141 §2)")
    r_component = q_component = None
    query = ref.query
    if query is not None:
        # rq-components = [ "?+" r-component ] [ "?=" q-component ]
        if query.startswith("+"):
            r_component, found, rest = query[1:].partition("?=")
            q_component = rest if found else None
        elif query.startswith("="):
            q_component = query[1:]
        else:
            raise _refuse(ref, "query", 'a URN query is "?+" r-component or "?=" q-component')
        for part in (r_component, q_component):
            if part is not None and (part == "" or part[0] in "/?"):
                raise _refuse(ref, "query", "an r- or q-component must begin with a pchar")
    return URN(nid, nss, r_component, q_component, ref.fragment)


#: Each scheme with a view, and its view.
VIEWS: Final[Mapping[str, Callable[[Reference], object]]] = MappingProxyType(
    {"mailto": mailto, "news": news, "ftp": ftp_type, "urn": urn}
)


def view(uri: Reference) -> object:
    """The scheme's view of ``uri`` (see :data:`VIEWS`), or ``None`` for other schemes."""
    ref = uri if isinstance(uri, (URI, IRI)) else URI(uri)
    scheme = ref.scheme
    function = VIEWS.get(scheme.lower()) if scheme is not None else None
    return None if function is None else function(ref)
