"""Path segments (RFC 3986 §3.3): read them, append data to them, navigate.

A path is a sequence of segments separated by "/" (§3.3).  :func:`segments`
gives them decoded, in the convention of ``pathlib`` and ``hyperlink``: the
leading "/" of an absolute path is not a segment, and a trailing "/" gives a
last empty segment.

:func:`joinpath` appends segments that are **data**: each is percent-encoded
on its own, so "/" becomes "%2F" and "\\" becomes "%5C".  A segment is refused
when a server that decodes it could read it as structure: when it is, or
decodes to, "." or "..", or holds a part between "/" or "\\" that is or
decodes to one ("../x", "a/..", "%2e/x"), and when it holds a control
character (§3.3 gives dot-segments their meaning in resolution, §5.2.4; §7.3
warns of what decoding them, and controls, does to a server).  Nothing given as
data can climb or split the path, and nothing joined draws a finding of
:func:`urikit.audit`.

:data:`PARENT_REFERENCE` and :func:`sibling_reference` are the relative
references by which ``URI.parent()`` and ``URI.sibling()`` navigate in the
RFC's own terms: the resolution (§5.2) of ``".."`` and of ``"./name"``
against the reference.

The functions take the path component's text (and, for :func:`joinpath`,
the scheme and authority that decide its form) and return text.  A data
segment that the path would read as structure ("..", or "" before the end)
is bad text and raises :class:`~urikit.URIError`; a segment that is not a
``str`` is a bad argument and raises ``TypeError``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final
from urllib.parse import unquote

from ._seam import percent_decode, percent_encode
from .errors import URIError
from .report import INVISIBLE_FORMAT
from .types import DecodeErrors

__all__ = [
    "PARENT_REFERENCE",
    "check_data_segment",
    "check_navigable",
    "joinpath",
    "segments",
    "sibling_reference",
]

#: The relative reference whose resolution (§5.2) against a URI is its parent.
PARENT_REFERENCE: Final = ".."

_DOT_SEGMENTS: Final = (".", "..")
# Rounds of percent-decoding after which a part still decoding is refused.
_MAX_DECODINGS: Final = 8
# What a server may split a decoded path at: "/", and "\\" on Windows (§7.3).
_SEPARATORS: Final = re.compile(r"[/\\]")
# The controls that percent-encoded reach a server as themselves (§7.3): C0 and DEL.
_CONTROL: Final = re.compile("[\x00-\x1f\x7f]")
# Characters that show nothing or reorder what follows (RFC 3987 §4.1, RFC 3986 §7.6):
# written as triplets even in an IRI, so a joined segment looks like what it is.
_INVISIBLE: Final = re.compile(f"[{INVISIBLE_FORMAT}]")


def segments(path: str, *, errors: DecodeErrors = "strict") -> list[str]:
    """The decoded segments of ``path`` (§3.3).

    ``""`` gives ``[]``, ``"/"`` gives ``[""]``, ``"/a/b/"`` gives
    ``["a", "b", ""]`` and ``"a/b"`` gives ``["a", "b"]``: the leading "/" of
    an absolute path is not a segment.  Whether the path was absolute is
    ``path.startswith("/")``.  ``errors`` is the policy for octets that are
    not UTF-8 (§2.5); ``"strict"`` raises :class:`URIError` at the triplet.

    >>> segments("/a%2Fb/c%20d/")
    ['a/b', 'c d', '']
    """
    if not isinstance(path, str):
        raise TypeError(f"a path is a str, not {type(path).__name__}")
    if path == "":
        return []
    offset = 1 if path[0] == "/" else 0
    decoded = []
    for segment in path[offset:].split("/"):
        try:
            decoded.append(percent_decode(segment, errors=errors))
        except URIError as exc:
            position = offset + (exc.position or 0)
            raise URIError(exc.reason, text=path, position=position, rule="segment") from None
        offset += len(segment) + 1
    return decoded


def _climbs(part: str) -> bool:
    """Is ``part`` (text between separators) a dot-segment, or does it hold one between
    "/" or "\\", however often percent-decoded (§2.4) and read by Unicode NFKC?

    A server that applies NFKC reads "\uff0e\uff0e" (fullwidth full stops) or
    "\u2025" as "..", and "\uff0f" as "/".  A part still decoding after
    ``_MAX_DECODINGS`` rounds is taken to climb, which keeps the check linear in
    the length of the part.
    """
    text = part
    for _ in range(_MAX_DECODINGS):
        text = unicodedata.normalize("NFKC", text)
        if "." in text and any(piece in _DOT_SEGMENTS for piece in _SEPARATORS.split(text)):
            return True
        if "%" not in text:
            return False
        # as a server decodes: each triplet, a "%" that begins none left as it is
        decoded = unquote(text, errors="surrogateescape")
        if decoded == text:
            return False
        text = decoded
    return True


def _climbing_part(segment: str) -> int | None:
    """Where the first part of ``segment`` that :func:`_climbs` begins, or None.

    Percent-decoding and NFKC leave a "/" or "\\" of the segment where it is (no
    triplet holds one), so each part between them is read on its own.
    """
    start = 0
    for match in (*_SEPARATORS.finditer(segment), None):
        end = len(segment) if match is None else match.start()
        if _climbs(segment[start:end]):
            return start
        start = end + 1
    return None


def check_data_segment(segment: str, *, allow_empty: bool = False) -> None:
    """Refuse a data segment that a server could read as structure (§3.3, §7.3).

    That is a segment that is "." or "..", or holds a part between "/" or "\\"
    that is one, in any spelling (percent-encoded, double-encoded, NFKC
    compatibility forms); one that holds a control character (C0 or DEL); and,
    unless ``allow_empty``, an empty one.  The :class:`URIError` gives the
    position in ``segment`` and the character there.
    """
    if not isinstance(segment, str):
        raise TypeError(f"a path segment is a str, not {type(segment).__name__}")
    position = _climbing_part(segment)
    if position is not None:
        raise URIError(
            f"the segment {segment!r} is a dot-segment, or holds one between '/' or '\\', "
            "in some spelling (percent-encoded, NFKC); a server that decodes it would "
            "climb the path (RFC 3986 §3.3, §5.2.4, §7.3), so it cannot be given as data",
            text=segment,
            position=position,
            rule="segment",
        )
    control = _CONTROL.search(segment)
    if control is not None:
        raise URIError(
            "a control character in a data segment reaches the server as itself once "
            "decoded, where it can cut a name or inject a command (RFC 3986 §7.3); "
            "it cannot be given as data",
            text=segment,
            position=control.start(),
            rule="segment",
        )
    if segment == "" and not allow_empty:
        raise URIError(
            "an empty segment is allowed only as the last segment given to joinpath(), "
            "where it gives the path a trailing '/'",
            text=segment,
            position=0,
            rule="segment",
        )


def _encode_segment(segment: str, component: str, iri: bool) -> str:
    """``segment`` percent-encoded for ``component`` (§2.1); in an IRI, the invisible
    characters that RFC 3987 §2.2 allows are written as triplets all the same."""
    encoded = percent_encode(segment, component, iri=iri)
    if iri and not encoded.isascii():
        encoded = _INVISIBLE.sub(lambda m: percent_encode(m.group(), "unreserved"), encoded)
    return encoded


def joinpath(
    path: str,
    names: Sequence[str],
    *,
    iri: bool = False,
    scheme: str | None = None,
    authority: str | None = None,
) -> str:
    """``path`` with the data segments ``names`` appended.

    Each segment is percent-encoded on its own (§2.1), so "/" becomes "%2F"
    and "\\" becomes "%5C"; with ``iri=True`` the characters an IRI allows
    (RFC 3987 §2.2) are kept, but for the invisible ones.  A segment that a
    server could read as structure raises :class:`URIError` (a ``ValueError``)
    at the character: one that is "." or ".." in any spelling ("%2e", ".%2E",
    "%252e" ...), one that holds such a part between "/" or "\\" ("../x",
    "a/%2e%2e"), since RFC 3986 §5.2.4 removes dot-segments only before
    decoding and a server that decodes "%2F" climbs (§7.3), and one that holds
    a control character.  An empty segment may only come last, where it gives
    a trailing "/".

    ``scheme`` and ``authority`` are those of the reference the path is in:
    they decide its form.  The segments go after the last segment, as in
    ``pathlib``: ``/x`` and ``/x/`` both give ``/x/a``.  With an authority
    and an empty path, the result is ``/a``; in a relative-path reference a
    ":" of the first segment is encoded (§4.2).  The path of an opaque URI
    (a scheme, no authority, no leading "/": ``mailto:a@b``) has no segments
    to add to, and raises.

    >>> joinpath("/files", ["a/b", "c d"])
    '/files/a%2Fb/c%20d'
    >>> joinpath("", ["a:b"]), joinpath("", ["a:b"], authority="h")
    ('a%3Ab', '/a:b')
    """
    if isinstance(names, str):
        raise TypeError("names is a sequence of segments, not one str")
    names = list(names)
    for i, name in enumerate(names):
        check_data_segment(name, allow_empty=i == len(names) - 1)
    if not names:
        return path
    if scheme is not None and authority is None and path[:1] != "/":
        raise URIError(
            f"the path {path!r} of an opaque URI (a scheme and a path that does not begin "
            "with '/') has no hierarchy to append segments to (RFC 3986 §1.2.3, §3.3)",
            text=path,
            position=0,
            rule="path-rootless",
        )
    # §4.2: in a relative-path reference, a ":" in the first segment would read as a scheme.
    first_noscheme = path == "" and scheme is None and authority is None
    encoded = [
        _encode_segment(name, "segment-nz-nc" if first_noscheme and i == 0 else "segment", iri)
        for i, name in enumerate(names)
    ]
    joined = "/".join(encoded)
    if path == "":
        return "/" + joined if authority is not None else joined
    if path.endswith("/"):
        return path + joined
    return path + "/" + joined


def check_navigable(scheme: str | None, authority: str | None, path: str) -> None:
    """Refuse to navigate from a relative-path reference, which needs a base URI (§5.1).

    A reference with a scheme, an authority or an absolute path can be the
    base of a resolution (an absolute-path or network-path reference as it
    would be under any scheme).
    """
    if scheme is None and authority is None and not path.startswith("/"):
        raise URIError(
            f"{path!r} is a relative-path reference: resolving against it needs a "
            "base URI (RFC 3986 §5.1); resolve it first",
            text=path,
            position=0,
            rule="relative-ref",
        )


def sibling_reference(name: str, *, iri: bool = False) -> str:
    """The relative reference ``"./name"`` whose resolution (§5.2) is ``name`` beside a resource.

    ``name`` is one data segment, encoded as by :func:`joinpath` (and
    refused when it is a dot-segment or empty).  The "./" prefix keeps a ":"
    in it from reading as a scheme (§4.2).

    >>> sibling_reference("c d.html"), sibling_reference("a:b")
    ('./c%20d.html', './a:b')
    """
    check_data_segment(name)
    return "./" + _encode_segment(name, "segment", iri)
