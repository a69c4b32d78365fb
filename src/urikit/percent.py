"""Percent-encoding (RFC 3986 §2.1, §2.4, §2.5) and the form codec.

Encoding is done for a named component, whose allowed characters come from
the grammar module: data that would otherwise be read as a delimiter of that
component is always encoded.  Hex digits are written in upper case (§2.1).

The ``application/x-www-form-urlencoded`` codec, where "+" stands for a space
(RFC 1630 already said so of query strings), is a separate pair of functions
and never the default.

With the compiled core (``_store.speedups``), :func:`percent_encode` of text and
:func:`percent_decode` to UTF-8 run in C where it is sure of the answer (no lone
surrogate, every "%" a triplet, octets that are UTF-8); everything else, the
errors included, is the code below.  ``tests/test_compiled_ops.py`` holds both to the
same answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Final
from urllib.parse import quote_from_bytes, unquote_to_bytes

from ._store import speedups
from .errors import URIError
from .grammar import BIDI_FORMATTING, IRI_GRAMMAR, PCT_ENCODED, URI_GRAMMAR, Grammar

__all__ = [
    "COMPONENTS",
    "form_decode",
    "form_encode",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
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
    """The ASCII characters of a regex class body as 128 octets, 1 for each member:
    what the compiled encoder keeps."""
    kept = _ascii_safe(cls)
    return bytes(ch in kept for ch in map(chr, range(128)))


_compiled_encode: Final = None if speedups is None else speedups.percent_encode
_compiled_decode: Final = None if speedups is None else speedups.percent_decode

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
    classes = _IRI_COMPONENTS if iri and not is_bytes else COMPONENTS
    try:
        cls = classes[component]
    except KeyError:
        raise ValueError(
            f"unknown component {component!r}; expected one of {', '.join(classes)}"
        ) from None
    if safe:
        allowed = _ascii_safe(classes[_ENCLOSING.get(component, component)])
        cls = cls + "".join(re.escape(ch) for ch in safe if ch in allowed)
    if not isinstance(data, str):
        raw = bytes(data)
        if encoded:
            # each character stands for one octet (latin-1), and is encoded as that octet
            return _encode_keeping_triplets(raw.decode("latin-1"), cls, "latin-1", False)
        return quote_from_bytes(raw, _ascii_safe(cls))
    if _compiled_encode is not None and (not iri or data.isascii()):
        fast: str | None = _compiled_encode(data, _keep(cls), encoded)
        if fast is not None:
            return fast
    if not data.isascii():
        _utf8(data)
    if encoded:
        return _encode_keeping_triplets(data, cls, "utf-8", iri)
    return _encode_all(data, cls, iri)


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
    if _compiled_decode is not None and encoding == "utf-8":
        fast: str | None = _compiled_decode(text)
        if fast is not None:  # valid UTF-8, whatever the error policy
            return fast
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
