"""Percent-encoding (RFC 3986 §2.1, §2.4, §2.5) and the form codec.

Encoding is done for a named component, whose allowed characters come from
the grammar module: data that would otherwise be read as a delimiter of that
component is always encoded.  Hex digits are written in upper case (§2.1).

The ``application/x-www-form-urlencoded`` codec, where "+" stands for a space
(RFC 1630 already said so of query strings), is a separate pair of functions
and never the default.

The runs of triplets of a text (:func:`triplet_runs`, :func:`triplet_concerns`,
:func:`triplet_find`) are what the checks of encoded octets read.

This is the readable implementation.  The compiled core encodes text and decodes
UTF-8 in C where it is sure of the answer, and reads the runs of triplets in one pass;
``urikit._seam`` chooses, and offers each function here with the same parameters
(``tests/test_compiled_ops.py`` and ``tests/test_security_fast.py`` hold both to the
same answers).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Final
from urllib.parse import quote_from_bytes, unquote_to_bytes

from .errors import URIError
from .grammar import BIDI_FORMATTING, IRI_GRAMMAR, PCT_ENCODED, URI_GRAMMAR, Grammar

__all__ = [
    "COMPONENTS",
    "form_decode",
    "form_encode",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "triplet_concerns",
    "triplet_find",
    "triplet_runs",
]


def _component_classes(g: Grammar) -> dict[str, str]:
    return {
        "userinfo": g.userinfo_chars,
        "host": g.reg_name_chars,
        "reg-name": g.reg_name_chars,
        "path": g.path_chars,
        "segment": g.pchar,
        "segment-nz-nc": g.pchar_nc,
        "query": g.query_chars,
        "fragment": g.fragment_chars,
        "unreserved": g.unreserved,
    }


#: The components percent_encode knows, each with the class of characters it
#: leaves as they are: the component's own characters from RFC 3986 Appendix A.
COMPONENTS: Final[Mapping[str, str]] = _component_classes(URI_GRAMMAR)
_IRI_COMPONENTS: Final = _component_classes(IRI_GRAMMAR)


@cache
def _ascii_safe(cls: str) -> str:
    """The ASCII characters of a regex class body, for ``quote``'s ``safe``."""
    pattern = re.compile(f"[{cls}]")
    return "".join(ch for ch in map(chr, range(128)) if pattern.fullmatch(ch))


@cache
def _unsafe_run(cls: str, iri: bool) -> re.Pattern[str]:
    """A pct-encoded triplet, a lone "%", or a run of other characters outside ``cls``.

    In an IRI the bidi formatting characters count as outside (RFC 3987 §4.1).
    """
    bidi = f"|[{BIDI_FORMATTING}]" if iri else ""
    return re.compile(f"{PCT_ENCODED}|%|(?:[^{cls}%]{bidi})+")


@cache
def _outside(cls: str) -> re.Pattern[str]:
    """Runs of characters an IRI component must encode: outside ``cls``, or bidi formatting."""
    return re.compile(f"(?:[^{cls}]|[{BIDI_FORMATTING}])+")


#: With ``safe``, a component may keep the characters its enclosing component
#: allows: a single path segment may keep "/", since it stands in a path.
_ENCLOSING: Final = {"segment": "path", "segment-nz-nc": "path"}


@cache
def _keep(cls: str) -> bytes:
    """The ASCII characters of a regex class body as 128 octets, 1 for each member."""
    kept = _ascii_safe(cls)
    return bytes(ch in kept for ch in map(chr, range(128)))


_PCT_TRIPLET: Final = re.compile(PCT_ENCODED)
_BAD_PERCENT: Final = re.compile("%(?![0-9A-Fa-f]{2})")


def percent_encode(
    data: str | bytes,
    component: str = "path",
    *,
    encoded: bool = False,
    iri: bool = False,
    safe: str = "",
) -> str:
    """Percent-encode ``data`` for ``component`` (RFC 3986 §2.1, §2.4).

    ``data`` is text (encoded as UTF-8, §2.5) or bytes.  Every character that is
    not allowed in the component as data is encoded, so the result never
    changes the structure of the URI it is placed in.  ``component`` is one of
    :data:`COMPONENTS`: ``"userinfo"``, ``"host"``, ``"path"``, ``"segment"``
    (a single segment: "/" is encoded), ``"segment-nz-nc"``, ``"query"``,
    ``"fragment"`` or ``"unreserved"`` (everything but unreserved is encoded).
    ``safe`` lists characters to leave as they are, among those the
    component (or, for ``"segment"``, the path) allows as delimiters: it can
    keep "/" in a segment or ":" in a userinfo, but never a "?" in a path.

    With ``encoded=True`` the input is taken as already encoded: valid
    triplets are kept (with upper-case hex, §6.2.2.1) and never encoded
    again, and only a "%" that starts no triplet becomes "%25".

    With ``iri=True`` the non-ASCII characters that RFC 3987 §2.2 allows in
    the component are kept as they are.

    >>> percent_encode("a b/c?", "segment")
    'a%20b%2Fc%3F'
    >>> percent_encode("100%25 sure", "query", encoded=True)
    '100%25%20sure'
    """
    is_bytes = isinstance(data, (bytes, bytearray, memoryview))
    if not is_bytes and not isinstance(data, str):
        raise TypeError(f"percent_encode() takes str or bytes, not {type(data).__name__}")
    # octets are never kept as characters, so bytes use the URI classes (§2.1)
    cls = component_class(component, iri and not is_bytes, safe)
    if not isinstance(data, str):
        raw = bytes(data)
        if encoded:
            # each character stands for one octet (latin-1), and is encoded as that octet
            return _encode_keeping_triplets(raw.decode("latin-1"), cls, "latin-1", False)
        return quote_from_bytes(raw, _ascii_safe(cls))
    if not data.isascii():
        _utf8(data)
    if encoded:
        return _encode_keeping_triplets(data, cls, "utf-8", iri)
    return _encode_all(data, cls, iri)


@lru_cache(maxsize=64)
def component_class(component: str, iri: bool = False, safe: str = "") -> str:
    """The class (a regex class body) of the characters :func:`percent_encode` keeps
    in ``component``, with ``safe`` (see there); ``ValueError`` for an unknown one."""
    classes = _IRI_COMPONENTS if iri else COMPONENTS
    try:
        cls = classes[component]
    except KeyError:
        raise ValueError(
            f"unknown component {component!r}; expected one of {', '.join(classes)}"
        ) from None
    if safe:
        allowed = _ascii_safe(classes[_ENCLOSING.get(component, component)])
        cls = cls + "".join(re.escape(ch) for ch in safe if ch in allowed)
    return cls


def kept_octets(component: str, iri: bool = False, safe: str = "") -> bytes:
    """The ASCII characters :func:`percent_encode` keeps in ``component`` as 128 octets,
    1 for each one kept."""
    return _keep(component_class(component, iri, safe))


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8 (§2.5); a lone surrogate has no UTF-8 form and is a URIError."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise URIError(
            "a lone surrogate has no UTF-8 encoding (RFC 3629, RFC 3986 §2.5)",
            text=text,
            position=exc.start,
            rule="pct-encoded",
        ) from None


def _encode_keeping_triplets(data: str, cls: str, encoding: str, iri: bool) -> str:
    """Encode what is outside ``cls``, keeping each valid triplet (upper-cased, §6.2.2.1)."""

    def encode_run(match: re.Match[str]) -> str:
        run = match.group()
        if len(run) == 3 and _PCT_TRIPLET.fullmatch(run):
            return run.upper()
        return quote_from_bytes(run.encode(encoding), "")

    return _unsafe_run(cls, iri).sub(encode_run, data)


def _encode_all(data: str, cls: str, iri: bool) -> str:
    if not iri or data.isascii():
        return quote_from_bytes(data.encode("utf-8"), _ascii_safe(cls))
    return _outside(cls).sub(lambda m: quote_from_bytes(m.group().encode("utf-8"), ""), data)


def check_percent(text: str, rule: str = "pct-encoded") -> None:
    """Raise :class:`URIError` at the first "%" that starts no triplet (§2.1)."""
    m = _BAD_PERCENT.search(text)
    if m is not None:
        k = m.start() + 1
        if k < len(text) and text[k] in "0123456789abcdefABCDEF":
            k += 1
        raise URIError(
            '"%" must be followed by two hexadecimal digits', text=text, position=k, rule=rule
        )


def percent_decode_bytes(text: str) -> bytes:
    """The octets that ``text`` stands for: each triplet decoded (§2.1).

    Characters that are not triplets are taken as UTF-8 (§2.5).  A "%" that
    starts no triplet raises :class:`URIError`.
    """
    check_percent(text)
    return unquote_to_bytes(text)


def percent_decode(text: str, *, encoding: str = "utf-8", errors: str = "strict") -> str:
    """Decode every triplet of ``text`` and read the octets as ``encoding`` (§2.1, §2.5).

    ``errors`` is the codec error policy for octets that are not valid in
    ``encoding``: ``"strict"`` (a :class:`URIError` at the offending triplet),
    ``"replace"``, ``"ignore"``, ``"surrogateescape"`` or ``"backslashreplace"``.
    A "%" that starts no triplet is always a :class:`URIError`.

    Decoding is for data: decoding a whole URI can change its meaning, since
    "%2F" in a path is data while "/" is a delimiter (§2.4).

    >>> percent_decode("caf%C3%A9%20au%20lait")
    'café au lait'
    """
    if "%" not in text:
        return text
    check_percent(text)

    def decode_run(match: re.Match[str]) -> str:
        run = match.group()
        try:
            return bytes.fromhex(run.replace("%", "")).decode(encoding, errors)
        except UnicodeDecodeError as exc:
            raise URIError(
                f"percent-encoded octets are not valid {exc.encoding}",
                text=text,
                position=match.start() + 3 * exc.start,
                rule="pct-encoded",
            ) from None

    # Only the triplets are octets; every other character is already text (§2.5).
    return _TRIPLET_RUN.sub(decode_run, text)


_TRIPLET_RUN: Final = re.compile("(?:%[0-9A-Fa-f]{2})+")


def form_encode(data: str | bytes, *, encoding: str = "utf-8") -> str:
    """Encode a form name or value: ``application/x-www-form-urlencoded``.

    A space becomes "+", and everything but unreserved characters (§2.3) is
    percent-encoded, "+" "&" "=" included.  This is the convention of web
    forms (and RFC 1630's "+" for space in queries), not RFC 3986's.

    >>> form_encode("a b&c=d+e")
    'a+b%26c%3Dd%2Be'
    """
    if isinstance(data, bytes):
        raw = data
    else:
        if not data.isascii():
            _utf8(data)
        raw = data.encode(encoding)
    return quote_from_bytes(raw, " " + _ascii_safe(COMPONENTS["unreserved"])).replace(" ", "+")


def form_decode(text: str, *, encoding: str = "utf-8", errors: str = "strict") -> str:
    """Decode a form name or value: "+" is a space (RFC 1630), then as :func:`percent_decode`.

    >>> form_decode("a+b%2Bc")
    'a b+c'
    """
    return percent_decode(text.replace("+", " "), encoding=encoding, errors=errors)


# --- runs of triplets (§2.1) -------------------------------------------------------------


def triplet_runs(text: str, start: int, end: int) -> list[tuple[int, int, bytes]]:
    """The maximal runs of percent-encoded triplets of ``text[start:end]`` (RFC 3986
    §2.1) as ``(start, end, octets)``, in order.

    A HEXDIG is no "%", so triplets cannot overlap, and each run is one match of
    ``(?:%HH)+``.  ``start`` and ``end`` are read as the bounds of a slice.
    """
    start, end, _ = slice(start, end).indices(len(text))
    return [
        (run.start(), run.end(), bytes.fromhex(run.group().replace("%", "")))
        for run in _TRIPLET_RUN.finditer(text, start, end)
    ]


def triplet_concerns(text: str, start: int, end: int) -> list[tuple[int, int, bytes]]:
    """The runs of :func:`triplet_runs` that hold a triplet of a control (%00-%1F, %7F)
    or whose octets are not UTF-8 (RFC 3629 §4)."""
    return [run for run in triplet_runs(text, start, end) if _of_concern(run[2])]


#: Every octet but a control (%00-%1F, %7F): what ``bytes.translate`` deletes to
#: leave the controls.
NOT_CONTROLS: Final = bytes([*range(0x20, 0x7F), *range(0x80, 0x100)])


def _of_concern(octets: bytes) -> bool:
    """Do ``octets`` hold a control, or are they not UTF-8?"""
    if octets.translate(None, NOT_CONTROLS):
        return True
    try:
        octets.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def triplet_find(text: str, start: int, end: int, wanted: bytes, then: bytes | None = None) -> int:
    """The index of the first percent-encoded triplet of ``text[start:end]`` (RFC 3986
    §2.1) of one of the octets of ``wanted``, in either case, or -1; with ``then``,
    only such a triplet that a triplet of one of its octets follows, or an ASCII
    character that is one (a "%25" that "2" or "%32" follows decodes to the beginning
    of a triplet)."""
    if not wanted:
        return -1
    start, end, _ = slice(start, end).indices(len(text))
    found = _triplet_of(wanted, then or b"").search(text, start, end)
    return -1 if found is None else found.start()


@lru_cache(maxsize=16)
def _triplet_of(octets: bytes, then: bytes = b"") -> re.Pattern[str]:
    """The triplets of ``octets``, either case ("%" and two characters, no repetition),
    and with ``then``, each followed by a triplet of one of its octets or an ASCII
    character that is one (a "%" that begins a triplet is that triplet)."""

    def digit(value: int) -> str:
        return "[" + "".join(sorted({f"{value:X}", f"{value:x}"})) + "]"

    def triplets(octets: bytes) -> str:
        return "%(?:" + "|".join(digit(o >> 4) + digit(o & 15) for o in octets) + ")"

    if not then:
        return re.compile(triplets(octets))
    chars = "".join(re.escape(chr(o)) for o in then if o < 0x80)
    literal = f"|(?!{PCT_ENCODED})[{chars}]" if chars else ""
    return re.compile(f"{triplets(octets)}(?:{triplets(then)}{literal})")
