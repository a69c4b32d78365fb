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

:func:`parent` and :func:`sibling` navigate in the RFC's own terms: they are
the resolution (§5.2) of ``".."`` and of ``"./name"`` against the reference.
"""

from __future__ import annotations

import unicodedata
from typing import Final, TypeVar, cast

from .errors import URIError
from .percent import percent_decode, percent_encode
from .uri import URI, _Reference

__all__ = ["joinpath", "parent", "segments", "sibling"]

Ref = TypeVar("Ref", bound=_Reference)

_DOT_SEGMENTS: Final = (".", "..")
# The characters from which repeated percent-decoding can produce a dot-segment.
_DOT_SPELLING: Final = frozenset("." + "%" + "0123456789" + "ABCDEFabcdef")
# Rounds of percent-decoding after which a segment of dots and triplets is refused.
_MAX_DECODINGS: Final = 8
# A scheme for relative references under resolution, which needs one (§5.2.1).
_PLACEHOLDER: Final = "x"


def segments(uri: _Reference | str, *, errors: str = "strict") -> list[str]:
    """The decoded segments of the path (§3.3).

    ``""`` gives ``[]``, ``"/"`` gives ``[""]``, ``"/a/b/"`` gives
    ``["a", "b", ""]`` and ``"a/b"`` gives ``["a", "b"]``: the leading "/" of
    an absolute path is not a segment.  Whether the path was absolute is
    ``uri.path.startswith("/")``.  ``errors`` is the policy for octets that
    are not UTF-8 (§2.5); ``"strict"`` raises :class:`URIError`.

    >>> from urikit import URI
    >>> segments(URI("http://h/a%2Fb/c%20d/"))
    ['a/b', 'c d', '']
    """
    path = URI._coerce(uri).path
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


def joinpath(uri: Ref, *names: str) -> Ref:
    """A new reference with the data segments ``names`` appended to the path.

    Each segment is percent-encoded on its own (§2.1), so "/" becomes "%2F"
    and "\\" becomes "%5C".  A segment that is "." or ".." in any spelling
    ("%2e", ".%2E", "%252e" ...) raises :class:`URIError` (a ``ValueError``),
    and an empty segment may only come last, where it gives a trailing "/".

    The segments go after the last segment, as in ``pathlib``: ``/x`` and
    ``/x/`` both give ``/x/a``.  With an authority and an empty path, the
    result is ``/a``.  The query and fragment are kept.  An opaque URI
    (``mailto:a@b``) has no segments to add to, and raises.

    >>> from urikit import URI
    >>> str(joinpath(URI("http://h/files?v=1"), "a/b", "c d"))
    'http://h/files/a%2Fb/c%20d?v=1'
    """
    uri = cast(Ref, URI._coerce(uri))
    for i, name in enumerate(names):
        check_data_segment(name, allow_empty=i == len(names) - 1)
    if not names:
        return uri
    if uri.is_opaque:
        raise URIError(
            f"{str(uri)!r} is opaque (a scheme and a path that does not begin with '/'): "
            "it has no hierarchy to append segments to (RFC 3986 §1.2.3, §3.3)",
            text=str(uri),
            position=len(str(uri.scheme)) + 1,
            rule="path-rootless",
        )
    iri = uri._grammar.iri
    path = uri.path
    # §4.2: in a relative-path reference, a ":" in the first segment would read as a scheme.
    first_noscheme = path == "" and uri.scheme is None and uri.authority is None
    encoded = [
        _encode_segment(name, "segment-nz-nc" if first_noscheme and i == 0 else "segment", iri)
        for i, name in enumerate(names)
    ]
    joined = "/".join(encoded)
    if path == "":
        new_path = "/" + joined if uri.authority is not None else joined
    elif path.endswith("/"):
        new_path = path + joined
    else:
        new_path = path + "/" + joined
    return uri.replace(path=new_path)


def _navigate(uri: Ref, reference: str) -> Ref:
    """Resolve ``reference`` against ``uri`` (§5.2), for references without a scheme too."""
    from .resolve import resolve

    uri = cast(Ref, URI._coerce(uri))
    base = uri if uri.fragment is None else uri.replace(fragment=None)
    if base.scheme is not None:
        return resolve(base, reference)
    if base.authority is None and not base.path.startswith("/"):
        raise URIError(
            f"{str(uri)!r} is a relative-path reference: resolving against it needs a "
            "base URI (RFC 3986 §5.1); resolve it first",
            text=str(uri),
            position=0,
            rule="relative-ref",
        )
    # An absolute-path or network-path reference navigates as it would under any scheme.
    target = resolve(base.replace(scheme=_PLACEHOLDER), reference)
    return target.replace(scheme=None)


def parent(uri: Ref) -> Ref:
    """The resolution of ``".."`` against ``uri`` (RFC 3986 §5.2, §5.4.1).

    Resolution drops the last segment of the base before applying ".."
    (§5.2.3), so ``/a/b/c`` and ``/a/b/`` both give ``/a/``: the parent of the
    collection the resource is in.  ``resolve(uri, ".")`` is that collection.
    The root is its own parent (§5.2.4).  Query and fragment are dropped.

    >>> from urikit import URI
    >>> str(parent(URI("http://h/a/b/c?q")))
    'http://h/a/'
    """
    return _navigate(uri, "..")


def sibling(uri: Ref, name: str) -> Ref:
    """The resolution of ``"./name"`` against ``uri`` (§5.2): ``name`` beside the resource.

    ``name`` is one data segment, encoded as by :func:`joinpath` (and refused
    when it is a dot-segment or empty).  The "./" prefix keeps a ":" in it
    from reading as a scheme (§4.2).

    >>> from urikit import URI
    >>> str(sibling(URI("http://h/a/b.html#x"), "c d.html"))
    'http://h/a/c%20d.html'
    """
    uri = cast(Ref, URI._coerce(uri))
    check_data_segment(name)
    return _navigate(uri, "./" + _encode_segment(name, "segment", uri._grammar.iri))
