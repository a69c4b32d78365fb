"""Query parameters: read them, and edit them without touching the rest.

RFC 3986 §3.4 gives the query no inner structure; the ``name=value`` pairs
joined by "&" are a convention of HTML forms, which urikit reads with one of
two codecs:

``"form"`` (the default)
    ``application/x-www-form-urlencoded``: "+" stands for a space, as RFC 1630
    already said of query strings, then percent-decoding as UTF-8.
``"rfc3986"``
    Plain percent-decoding (§2.1): "+" is a literal plus sign.

Pairs are split on "&" only (";" is data), a pair without "=" has the value
``None`` and a pair with an empty value the value ``""``; empty pairs (from
"&&", or a leading or trailing "&") are not parameters.

An edit re-encodes only the parameters it changes: every other character of
the query, its percent-encodings and separators included, is kept as it was,
so a signed URL keeps its signature.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Final, TypeVar, cast

from .errors import URIError
from .percent import form_decode, form_encode, percent_decode, percent_encode
from .uri import URI, _Reference

__all__ = [
    "CODECS",
    "MAX_PARAMS",
    "MAX_QUERY_LENGTH",
    "add_query_param",
    "decode_query",
    "encode_param",
    "has_query_param",
    "query_param",
    "query_param_all",
    "query_params",
    "remove_query_param",
    "set_query_param",
    "with_query_params",
]

#: The codecs a ``codec`` argument names.
CODECS: Final = ("form", "rfc3986")
#: The most parameters a query may hold before reading it is refused.
MAX_PARAMS: Final = 10_000
#: The longest query (in characters) that is read or written.
MAX_QUERY_LENGTH: Final = 1 << 20

Ref = TypeVar("Ref", bound=_Reference)
Param = tuple[str, str | None]


def _query_of(uri: _Reference | str) -> str | None:
    return URI._coerce(uri).query


def _check_codec(codec: str) -> None:
    if codec not in CODECS:
        raise ValueError(f"unknown query codec {codec!r}; expected 'form' or 'rfc3986'")


def _check_length(query: str, max_length: int) -> None:
    if len(query) > max_length:
        raise URIError(
            f"the query is {len(query)} characters long, more than the limit "
            f"max_length={max_length}",
            rule="query",
        )


def _pieces(query: str, max_params: int, max_length: int) -> list[str]:
    """The query split on "&", empty pieces included, within the limits."""
    _check_length(query, max_length)
    pieces = query.split("&")
    count = sum(1 for piece in pieces if piece)
    if count > max_params:
        raise URIError(
            f"the query has {count} parameters, more than the limit max_params={max_params}",
            rule="query",
        )
    return pieces


def _decode(text: str, codec: str, errors: str) -> str:
    if codec == "form":
        return form_decode(text, errors=errors)
    return percent_decode(text, errors=errors)


def _decode_at(text: str, codec: str, errors: str, query: str, offset: int) -> str:
    """Decode a name or value found at ``offset`` in ``query``; errors point into the query."""
    try:
        return _decode(text, codec, errors)
    except URIError as exc:
        position = offset + (exc.position or 0)
        raise URIError(exc.reason, text=query, position=position, rule="query") from None


def _name_of(piece: str, codec: str) -> str:
    """The decoded name of a piece, for matching; never fails (§2.5 octets kept)."""
    return _decode(piece.partition("=")[0], codec, "surrogateescape")


def decode_query(
    query: str | None,
    codec: str = "form",
    *,
    errors: str = "strict",
    max_params: int = MAX_PARAMS,
    max_length: int = MAX_QUERY_LENGTH,
) -> list[Param]:
    """The ``(name, value)`` pairs of a query string (RFC 3986 §3.4), decoded.

    ``errors`` is the policy for octets that are not UTF-8 (§2.5):
    ``"strict"`` raises :class:`URIError`; ``"replace"`` and
    ``"surrogateescape"`` are the usual alternatives.

    >>> decode_query("a=1&b&c=&d=x+y%2Bz")
    [('a', '1'), ('b', None), ('c', ''), ('d', 'x y+z')]
    """
    _check_codec(codec)
    if query is None:
        return []
    pieces = _pieces(query, max_params, max_length)
    params: list[Param] = []
    offset = 0
    for piece in pieces:
        if piece:
            name, eq, value = piece.partition("=")
            decoded_name = _decode_at(name, codec, errors, query, offset)
            decoded_value = _decode_at(value, codec, errors, query, offset + len(name) + 1)
            params.append((decoded_name, decoded_value if eq else None))
        offset += len(piece) + 1
    return params


def query_params(
    uri: _Reference | str,
    codec: str = "form",
    *,
    errors: str = "strict",
    max_params: int = MAX_PARAMS,
    max_length: int = MAX_QUERY_LENGTH,
) -> list[Param]:
    """The decoded ``(name, value)`` pairs of the query, in order, duplicates kept.

    ``?a`` gives ``("a", None)``, ``?a=`` gives ``("a", "")``; no query, or
    an empty one, gives ``[]``.

    >>> from urikit import URI
    >>> query_params(URI("http://h/?q=a+b&q=c%2Bd&flag"))
    [('q', 'a b'), ('q', 'c+d'), ('flag', None)]
    >>> query_params(URI("http://h/?q=a+b"), codec="rfc3986")
    [('q', 'a+b')]
    """
    return decode_query(
        _query_of(uri),
        codec,
        errors=errors,
        max_params=max_params,
        max_length=max_length,
    )


def query_param(
    uri: _Reference | str,
    name: str,
    default: str | None = None,
    *,
    codec: str = "form",
    errors: str = "strict",
) -> str | None:
    """The value of the first parameter ``name``, or ``default`` when there is none.

    A valueless parameter (``?a``) gives ``None``, like an absent one; use
    :func:`has_query_param` to tell them apart.  Names are matched as
    :func:`has_query_param` matches them; ``errors`` applies to the value
    returned, so octets that are not UTF-8 elsewhere in the query do not matter.
    """
    for value in _values_of(uri, name, codec, errors):
        return value
    return default


def query_param_all(
    uri: _Reference | str, name: str, *, codec: str = "form", errors: str = "strict"
) -> list[str | None]:
    """The values of every parameter ``name``, in order (matched as by :func:`query_param`)."""
    return list(_values_of(uri, name, codec, errors))


def _values_of(uri: _Reference | str, name: str, codec: str, errors: str) -> Iterator[str | None]:
    """The decoded values of the parameters ``name``, in order.

    Names are matched as :func:`has_query_param` matches them, so an
    undecodable octet (§2.5) elsewhere in the query does not stop the lookup;
    ``errors`` applies to the values returned.
    """
    _check_codec(codec)
    query = _query_of(uri)
    if query is None:
        return
    offset = 0
    for piece in _pieces(query, MAX_PARAMS, MAX_QUERY_LENGTH):
        if piece and _name_of(piece, codec) == name:
            key, eq, value = piece.partition("=")
            yield _decode_at(value, codec, errors, query, offset + len(key) + 1) if eq else None
        offset += len(piece) + 1


def has_query_param(uri: _Reference | str, name: str, *, codec: str = "form") -> bool:
    """Is there a parameter ``name`` (with or without a value)?"""
    _check_codec(codec)
    query = _query_of(uri)
    if query is None:
        return False
    pieces = _pieces(query, MAX_PARAMS, MAX_QUERY_LENGTH)
    return any(piece and _name_of(piece, codec) == name for piece in pieces)


# -- encoding -------------------------------------------------------------------


def _encode(text: str, codec: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"query names and values are str, not {type(text).__name__}")
    if codec == "form":
        return form_encode(text)
    # Everything the query forbids, and the "&" and "=" of the pair syntax.
    return percent_encode(text, "query").replace("&", "%26").replace("=", "%3D")


def encode_param(name: str, value: str | None, codec: str = "form") -> str:
    """One ``name=value`` pair, encoded for the query (``name`` alone when ``value`` is None).

    Under ``"form"`` a space becomes "+" and "+" becomes "%2B"; under
    ``"rfc3986"`` a space becomes "%20" and "+" is written as it is.  Both
    encode "&", "=", "#", "%" and non-ASCII (as UTF-8).

    >>> encode_param("q", "a b+c")
    'q=a+b%2Bc'
    >>> encode_param("q", "a b+c", "rfc3986")
    'q=a%20b+c'
    """
    _check_codec(codec)
    if name == "" and value is None:
        raise ValueError("a parameter with an empty name and no value cannot be written")
    encoded = _encode(name, codec)
    return encoded if value is None else encoded + "=" + _encode(value, codec)


def _with_query(uri: Ref, query: str | None) -> Ref:
    if query == uri.query:
        return uri
    if query is not None:
        _check_length(query, MAX_QUERY_LENGTH)
    return uri.replace(query=query)


def _join(original: str, pieces: list[str]) -> str | None:
    """The edited query; ``None`` when an edit removed its last character."""
    query = "&".join(pieces)
    return None if query == "" and original != "" else query


def _pairs(pairs: Mapping[str, str | None] | Iterable[Param]) -> list[Param]:
    items = list(pairs.items() if isinstance(pairs, Mapping) else pairs)
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise TypeError(f"query parameters are (name, value) pairs, not {item!r}")
    return items


def with_query_params(
    uri: Ref,
    pairs: Mapping[str, str | None] | Iterable[Param],
    *,
    codec: str = "form",
) -> Ref:
    """A new reference whose whole query is ``pairs``, encoded under ``codec``.

    ``pairs`` is a mapping or an iterable of ``(name, value)``; a value of
    ``None`` writes a valueless parameter.  No pairs remove the query.

    >>> from urikit import URI
    >>> str(with_query_params(URI("http://h/p?old#f"), [("a", "1 2"), ("b", None)]))
    'http://h/p?a=1+2&b#f'
    """
    uri = cast(Ref, URI._coerce(uri))
    _check_codec(codec)
    items = _pairs(pairs)
    if len(items) > MAX_PARAMS:
        raise URIError(
            f"{len(items)} parameters are more than the limit max_params={MAX_PARAMS}",
            rule="query",
        )
    encoded = [encode_param(name, value, codec) for name, value in items]
    return _with_query(uri, "&".join(encoded) if encoded else None)


def add_query_param(uri: Ref, name: str, value: str | None, *, codec: str = "form") -> Ref:
    """A new reference with ``name=value`` appended to the query, the rest kept exactly.

    >>> from urikit import URI
    >>> str(add_query_param(URI("http://h/?sig=AbC%2f&x=1"), "page", "2"))
    'http://h/?sig=AbC%2f&x=1&page=2'
    """
    uri = cast(Ref, URI._coerce(uri))
    pair = encode_param(name, value, codec)
    query = uri.query
    if query is None or query == "":
        return _with_query(uri, pair)
    _pieces(query, MAX_PARAMS, MAX_QUERY_LENGTH)
    return _with_query(uri, query + pair if query.endswith("&") else query + "&" + pair)


def set_query_param(uri: Ref, name: str, value: str | None, *, codec: str = "form") -> Ref:
    """A new reference where ``name`` has the single value ``value``.

    The first parameter ``name`` (names compared decoded, under ``codec``) is
    replaced in its place and the others named ``name`` are removed; when
    there is none, the pair is appended.  Other parameters are kept exactly.

    >>> from urikit import URI
    >>> str(set_query_param(URI("http://h/?a=1&b=%7e&a=2"), "a", "x y"))
    'http://h/?a=x+y&b=%7e'
    """
    uri = cast(Ref, URI._coerce(uri))
    pair = encode_param(name, value, codec)
    query = uri.query
    if query is None:
        return _with_query(uri, pair)
    pieces = _pieces(query, MAX_PARAMS, MAX_QUERY_LENGTH)
    kept: list[str] = []
    found = False
    for piece in pieces:
        if piece and _name_of(piece, codec) == name:
            if not found:
                kept.append(pair)
                found = True
        else:
            kept.append(piece)
    if not found:
        return add_query_param(uri, name, value, codec=codec)
    return _with_query(uri, _join(query, kept))


def remove_query_param(uri: Ref, name: str, *, codec: str = "form") -> Ref:
    """A new reference without any parameter ``name``; the rest is kept exactly.

    When no parameter is left and nothing else remains of the query, the
    query itself is removed (``http://h/?a=1`` becomes ``http://h/``).

    >>> from urikit import URI
    >>> str(remove_query_param(URI("http://h/?a=1&b=2&a=3#top"), "a"))
    'http://h/?b=2#top'
    """
    uri = cast(Ref, URI._coerce(uri))
    _check_codec(codec)
    if not isinstance(name, str):
        raise TypeError(f"a query name is a str, not {type(name).__name__}")
    query = uri.query
    if query is None:
        return uri
    pieces = _pieces(query, MAX_PARAMS, MAX_QUERY_LENGTH)
    kept = [piece for piece in pieces if not (piece and _name_of(piece, codec) == name)]
    if len(kept) == len(pieces):
        return uri
    return _with_query(uri, _join(query, kept))
