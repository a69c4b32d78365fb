"""Path segments (RFC 3986 §3.3): read them, append data to them, navigate.

A path is a sequence of segments separated by "/" (§3.3).  :func:`segments`
gives them decoded, in the convention of ``pathlib`` and ``hyperlink``: the
leading "/" of an absolute path is not a segment, and a trailing "/" gives a
last empty segment.

:func:`joinpath` appends segments that are **data**: each is percent-encoded
on its own, so "/" becomes "%2F" and "\\" becomes "%5C", and a segment that
is, or decodes to, "." or ".." is refused (§3.3 gives those segments their
meaning in resolution, §5.2.4; §7.3 warns of what they do to a server).
Nothing given as data can climb or split the path.

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

import unicodedata
from collections.abc import Sequence
from typing import Final

from ._seam import percent_decode, percent_encode
from .errors import URIError
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
# The characters from which repeated percent-decoding can produce a dot-segment.
_DOT_SPELLING: Final = frozenset("." + "%" + "0123456789" + "ABCDEFabcdef")
# Rounds of percent-decoding after which a segment of dots and triplets is refused.
_MAX_DECODINGS: Final = 8


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


def _is_dot_segment(segment: str) -> bool:
    """Is ``segment`` "." or "..", in any spelling, however often percent-decoded (§2.4)?

    Compatibility forms count too: a server that applies Unicode NFKC would
    read "\uff0e\uff0e" (fullwidth full stops) or "\u2025" as "..".  A
    segment still decoding after ``_MAX_DECODINGS`` rounds is taken to be one,
    which keeps the check linear in the length of the segment.
    """
    text = segment
    for _ in range(_MAX_DECODINGS):
        text = unicodedata.normalize("NFKC", text)
        if text in _DOT_SEGMENTS:
            return True
        if not set(text) <= _DOT_SPELLING:
            return False
        try:
            decoded = percent_decode(text, errors="surrogateescape")
        except URIError:
            return False
        if decoded == text:
            return False
        text = decoded
    return True


def check_data_segment(segment: str, *, allow_empty: bool = False) -> None:
    """Refuse a data segment that would climb (".", "..") or, unless allowed, be empty."""
    if not isinstance(segment, str):
        raise TypeError(f"a path segment is a str, not {type(segment).__name__}")
    if _is_dot_segment(segment):
        raise URIError(
            f"the segment {segment!r} is a dot-segment (or decodes to one), which would "
            "climb the path (RFC 3986 §3.3, §5.2.4); it cannot be given as data",
            text=segment,
            position=0,
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
    return percent_encode(segment, component, iri=iri)


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
    (RFC 3987 §2.2) are kept.  A segment that is "." or ".." in any spelling
    ("%2e", ".%2E", "%252e" ...) raises :class:`URIError` (a ``ValueError``),
    and an empty segment may only come last, where it gives a trailing "/".

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
