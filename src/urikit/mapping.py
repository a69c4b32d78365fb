"""The mappings between IRIs and URIs (RFC 3987 §3.1, §3.2), on component text.

* :func:`iri_to_uri`, the mapping of §3.1: every non-ASCII character becomes
  its UTF-8 octets, percent-encoded.  It keeps existing percent-encodings, is
  idempotent and is the identity on URIs.  NFC (step 1) and ToASCII on the
  ireg-name are options.
* :func:`uri_to_iri`, the conversion of §3.2: percent-encoded UTF-8 is
  decoded wherever the character it stands for is allowed.

Both take the text of a reference and its components (a
:class:`~urikit.components.Parts` of that text, as the URI or IRI grammar
parsed it) and return the text of the mapped reference; ``URI.to_iri()`` and
``IRI.to_uri()`` wrap it in the value type.  Positions in errors are
positions in that text.
"""

from __future__ import annotations

import re
import stringprep
import unicodedata
from typing import Final

from ._seam import percent_encode
from .bidi import find_bidi_formatting
from .components import Parts, compose_authority, recompose
from .errors import URIError
from .grammar import IPV4_ADDRESS, IRI_GRAMMAR, PCT_ENCODED, URI_GRAMMAR

__all__ = ["iri_to_uri", "uri_to_iri"]

_UCSCHAR: Final = IRI_GRAMMAR.rule("ucschar")
_IPRIVATE: Final = IRI_GRAMMAR.rule("iprivate")
_TRIPLETS: Final = re.compile(f"(?:{PCT_ENCODED})+")

#: Per component, runs of what a URI does not allow there (a "%" always
#: starts a triplet in a valid IRI, so it is left alone).
_NOT_URI: Final = {
    name: re.compile(f"[^{chars}%]+")
    for name, chars in (
        ("userinfo", URI_GRAMMAR.userinfo_chars),
        ("host", URI_GRAMMAR.reg_name_chars),
        ("path", URI_GRAMMAR.path_chars),
        ("query", URI_GRAMMAR.query_chars),
        ("fragment", URI_GRAMMAR.fragment_chars),
    )
}


def _is_reg_name(host: str) -> bool:
    """host = IP-literal / IPv4address / reg-name, first match wins (RFC 3986 §3.2.2)."""
    return host[:1] != "[" and IPV4_ADDRESS.fullmatch(host) is None


def _host_position(parts: Parts) -> int:
    """Where the host starts in the text of ``parts`` (§3, §3.2)."""
    position = 2 if parts.scheme is None else len(parts.scheme) + 3
    return position if parts.userinfo is None else position + len(parts.userinfo) + 1


# -- RFC 3987 §3.1: mapping of IRIs to URIs -------------------------------------------


def iri_to_uri(text: str, parts: Parts, *, idna: bool = False, nfc: bool = False) -> str:
    """Map an IRI reference to a URI reference (RFC 3987 §3.1).

    Step 2: each ``ucschar`` or ``iprivate`` character becomes the
    percent-encoding of its UTF-8 octets, in upper-case hex (2.1-2.3).
    Everything else, existing percent-encodings included, is kept as it is,
    so the mapping is idempotent and the identity on URIs.

    ``nfc=True`` is step 1 variants a and b: each component is put in
    Normalization Form C first, for IRIs that did not come from a
    Unicode-based encoding.  (Under NFC a few characters become ASCII ones,
    such as U+1FEF into "`"; those the URI grammar forbids are
    percent-encoded too.)

    ``idna=True`` converts a non-ASCII ireg-name to A-labels, label by label,
    with ToASCII (RFC 3490 §4.1, through the ``idna`` package with UTS #46
    mapping), as §3.1 allows for schemes whose hosts are domain names.
    Percent-encoded UTF-8 in the ireg-name stands for the same characters and
    is decoded first (as :func:`uri_to_iri` would), so ``r%C3%A9sum%C3%A9``
    also becomes ``xn--rsum-bpad``; ASCII labels are kept as written.  A label
    that ToASCII rejects raises :class:`~urikit.URIError` (rule
    ``"ireg-name"``): §3.1 notes that such an IRI cannot be resolved.  IP
    literals are never touched.

    ``text`` is the IRI reference and ``parts`` its components; the result
    is the text of the URI reference.

    >>> text = "http://www.example.org/red%09ros\u00e9#red"
    >>> parts = Parts("http", "www.example.org", None, "www.example.org", None,
    ...               "/red%09ros\u00e9", None, "red")
    >>> iri_to_uri(text, parts)
    'http://www.example.org/red%09ros%C3%A9#red'
    """
    host = parts.host
    if text.isascii() and not (idna and host is not None and "%" in host):
        return text
    authority = None
    if host is not None:
        if _is_reg_name(host):
            if idna:
                host = _host_to_ascii(host, text, _host_position(parts), nfc)
            host = _to_uri_part(host, "host", nfc)
        userinfo = parts.userinfo
        if userinfo is not None:
            userinfo = _to_uri_part(userinfo, "userinfo", nfc)
        authority = compose_authority(userinfo, host, parts.port)
    query, fragment = parts.query, parts.fragment
    if query is not None:
        query = _to_uri_part(query, "query", nfc)
    if fragment is not None:
        fragment = _to_uri_part(fragment, "fragment", nfc)
    path = _to_uri_part(parts.path, "path", nfc)
    return recompose(parts.scheme, authority, path, query, fragment)


def _to_uri_part(value: str, component: str, nfc: bool) -> str:
    """Steps 1 (when asked) and 2 of §3.1 on one component."""
    if value.isascii():
        return value
    if nfc:
        value = unicodedata.normalize("NFC", value)
    return _NOT_URI[component].sub(_encode_run, value)


def _encode_run(m: re.Match[str]) -> str:
    return percent_encode(m.group(), "unreserved")


def _host_to_ascii(host: str, text: str, position: int, nfc: bool) -> str:
    """ToASCII on each non-ASCII label of an ireg-name (§3.1, RFC 3490 §4.1)."""
    import idna as idna_codec

    decoded = _to_iri_part(host)
    if nfc:
        decoded = unicodedata.normalize("NFC", decoded)
    labels: list[str] = []
    # Decoding and NFC never make or remove a ".", so labels match up one to one.
    for label, written in zip(decoded.split("."), host.split("."), strict=True):
        if not label.isascii():
            try:
                label = idna_codec.encode(label, uts46=True).decode("ascii")
            except UnicodeError as exc:
                raise URIError(
                    f"ToASCII (RFC 3490 §4.1) fails on this label: {exc}",
                    text=text,
                    position=position,
                    rule="ireg-name",
                ) from None
        labels.append(label)
        position += len(written) + 1
    return ".".join(labels)


# -- RFC 3987 §3.2: converting URIs to IRIs ------------------------------------------


def uri_to_iri(text: str, parts: Parts, *, idna: bool = False) -> str:
    """Convert a URI reference to an IRI reference (RFC 3987 §3.2).

    Each run of percent-encoded octets is read as UTF-8 (steps 2, 3, 5), and
    a character is decoded only where an IRI may hold it (step 4).  What is
    not decoded stays percent-encoded: ASCII octets as they were written,
    other octets re-encoded with upper-case hex (steps 3 and 4):

    * octets of ASCII characters: encoded reserved characters and "%25" must
      stay (step 2), and keeping the unreserved ones too is what makes
      ``to_uri()`` give back the very same URI;
    * octets that are not strictly legal UTF-8 (step 3; overlong forms and
      surrogates included): ``%FC`` is not decoded, and no other encoding is
      ever guessed;
    * characters outside ``ucschar``, ``iprivate`` outside the query (§2.2),
      the bidirectional formatting characters (§4.1), and the characters
      §6.1 b warns about, which are those RFC 3491 excludes: non-ASCII spaces
      and controls, and the RFC 3454 tables C.6-C.9 (stdlib ``stringprep``).

    IP literals, the scheme and the port are never changed.  With
    ``idna=True`` each ``xn--`` label of the reg-name that ToUnicode accepts
    becomes its U-label (the ``idna`` package, IDNA 2008); others are left
    alone.  ``text`` may also be an IRI reference (with ``parts`` as the
    IRI grammar reads it); what is already a character is kept.  The result
    maps back to the input with :func:`iri_to_uri`, except that the hex
    digits of non-ASCII octets come back in upper case (as §3.2 and §3.2.1
    warn): exactly, when they were.

    >>> text = "http://xn--99zt52a.example.org/%e2%80%ae"
    >>> parts = Parts("http", "xn--99zt52a.example.org", None, "xn--99zt52a.example.org",
    ...               None, "/%e2%80%ae", None, None)
    >>> uri_to_iri(text, parts, idna=True)
    'http://\u7d0d\u8c46.example.org/%E2%80%AE'
    """
    if "%" not in text and not (idna and "xn--" in text.lower()):
        return text
    host = parts.host
    authority = None
    if host is not None:
        if _is_reg_name(host):
            host = _to_iri_part(host)
            if idna:
                host = _host_to_unicode(host)
        userinfo = parts.userinfo
        if userinfo is not None:
            userinfo = _to_iri_part(userinfo)
        authority = compose_authority(userinfo, host, parts.port)
    query, fragment = parts.query, parts.fragment
    if query is not None:
        query = _to_iri_part(query, in_query=True)
    if fragment is not None:
        fragment = _to_iri_part(fragment)
    path = _to_iri_part(parts.path)
    return recompose(parts.scheme, authority, path, query, fragment)


def _to_iri_part(value: str, in_query: bool = False) -> str:
    """Steps 2-5 of §3.2 on one component."""
    if "%" not in value:
        return value
    return _TRIPLETS.sub(lambda m: _decode_octets(m.group(), in_query), value)


def _decode_octets(run: str, in_query: bool) -> str:
    """Steps 2-5 on a run of triplets.

    ASCII octets are not decoded (step 2) and keep their triplet as written.
    Every other octet is decoded (step 2); those not in a strictly legal UTF-8
    sequence (step 3) or in the sequence of a character not allowed here
    (step 4) are percent-encoded again, in upper-case hex as §3.1 and RFC 3986
    §2.1 recommend (§3.2.1's third example: "%e2%80%ae" becomes "%E2%80%AE").
    """
    octets = bytes.fromhex(run.replace("%", ""))
    out: list[str] = []
    i, n = 0, len(octets)
    while i < n:
        lead = octets[i]
        if lead < 0x80:  # step 2
            out.append(run[3 * i : 3 * i + 3])
            i += 1
            continue
        size = _utf8_length(lead)
        char = None
        if size and i + size <= n:
            try:
                char = octets[i : i + size].decode("utf-8")  # strictly legal (step 3)
            except UnicodeDecodeError:
                char = None
        if char is None:  # step 3
            out.append(f"%{lead:02X}")
            i += 1
        else:
            out.append(char if _allowed(char, in_query) else _reencode(octets[i : i + size]))
            i += size  # step 4 (or 5)
    return "".join(out)


def _reencode(octets: bytes) -> str:
    return "".join(f"%{octet:02X}" for octet in octets)


def _utf8_length(lead: int) -> int:
    """The length of the UTF-8 sequence that non-ASCII ``lead`` starts (RFC 3629 §4), or 0."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _allowed(char: str, in_query: bool) -> bool:
    """May ``char`` appear decoded in an IRI (§2.2, §4.1, §6.1; step 4)?"""
    if _UCSCHAR.fullmatch(char):
        return find_bidi_formatting(char) is None and not _excluded_by_rfc3491(char)
    return in_query and _IPRIVATE.fullmatch(char) is not None


def _excluded_by_rfc3491(char: str) -> bool:
    """RFC 3491 §5 prohibits it (the §6.1 b look-alikes of space, delims and unwise).

    Private use (C.3) is left to the grammar, which allows iprivate in the
    query; non-characters and surrogates (C.4, C.5) are outside ucschar.
    """
    return (
        stringprep.in_table_c12(char)  # non-ASCII space characters
        or stringprep.in_table_c22(char)  # non-ASCII control characters
        or stringprep.in_table_c6(char)  # inappropriate for plain text
        or stringprep.in_table_c7(char)  # inappropriate for canonical representation
        or stringprep.in_table_c8(char)  # change display properties or deprecated
        or stringprep.in_table_c9(char)  # tagging characters
    )


def _host_to_unicode(host: str) -> str:
    """ToUnicode on each ``xn--`` label (§3.2.1's closing paragraph); failures keep the label."""
    import idna as idna_codec

    labels = host.split(".")
    for index, label in enumerate(labels):
        if label[:4].lower() != "xn--":
            continue
        try:
            unicode = idna_codec.decode(label)
        except UnicodeError:
            continue
        if "." not in unicode and all(ch.isascii() or _allowed(ch, False) for ch in unicode):
            labels[index] = unicode
    return ".".join(labels)
