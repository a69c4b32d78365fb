"""Query parameters: read them, and edit them without touching the rest.

RFC 3986 §3.4 gives the query no inner structure; the ``name=value`` pairs
joined by "&" are a convention of HTML forms, which urikit reads with one of
two codecs:

``"form"`` (the default)
    ``application/x-www-form-urlencoded``: "+" stands for a space, as RFC 1630
    already said of query strings, then percent-decoding as UTF-8.
``"rfc3986"``
    Plain percent-decoding (§2.1): "+" is a literal plus sign.

Every function here works on the text of a query component, ``None`` when
the reference has no "?" (§3.4, §5.3): lookups return decoded pairs, and
edits return the new query text, which the caller puts back into its
reference.  Pairs are split on "&" only (";" is data), a pair without "="
has the value ``None`` and a pair with an empty value the value ``""``;
empty pieces (from "&&", or a leading or trailing "&") are not parameters.

An edit re-encodes only the parameters it changes: every other piece of the
query, its percent-encodings and empty pieces included, is kept as it was,
so a signed URL keeps its signature, and removing a parameter just added
gives back the query it was added to, character for character.

Bad text (an undecodable triplet, a query over the limits) raises
:class:`~urikit.URIError`; a bad argument (a name that is not a ``str``, an
unknown codec) raises ``TypeError`` or ``ValueError``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Final, NoReturn, Protocol, TypeAlias, TypeVar, get_args

from ._param_names import name_pattern
from ._seam import form_decode, percent_decode, percent_encode
from .errors import URIError
from .grammar import UNRESERVED
from .percent import form_encode
from .types import Codec, DecodeErrors

__all__ = [
    "CODECS",
    "MAX_PARAMS",
    "MAX_QUERY_LENGTH",
    "NameMatcher",
    "Pairs",
    "Param",
    "QueryValue",
    "QueryValues",
    "add_query_param",
    "encode_param",
    "has_query_param",
    "param_list",
    "query_param",
    "query_param_all",
    "query_params",
    "remove_query_param",
    "remove_query_params",
    "set_query_param",
    "splice_query",
    "update_query_params",
    "with_query_params",
]

#: The codecs a ``codec`` argument names.
CODECS: Final[tuple[str, ...]] = get_args(Codec)
#: The most parameters a query may hold before reading it is refused.
MAX_PARAMS: Final = 10_000
#: The longest query (in characters) that is read or written.
MAX_QUERY_LENGTH: Final = 1 << 20

#: A decoded parameter: ``(name, value)``, the value ``None`` when there is no "=".
Param: TypeAlias = tuple[str, str | None]
#: What a value may be given as: text, a number, a boolean (``true``/``false``), or
#: ``None`` for a parameter without "=".
QueryValue: TypeAlias = str | int | float | bool | None
#: One value, or a sequence of values for a name given several times.
QueryValues: TypeAlias = QueryValue | Sequence[QueryValue]
#: Parameters given together: a mapping, or ``(name, value)`` pairs in order.
Pairs: TypeAlias = Mapping[str, QueryValues] | Iterable[tuple[str, QueryValues]]
#: What :func:`remove_query_params` matches names with.
NameMatcher: TypeAlias = str | Collection[str] | Callable[[str], bool]


def _check_codec(codec: str) -> None:
    if codec not in CODECS:
        _unknown_codec(codec)


def _unknown_codec(codec: str) -> NoReturn:
    raise ValueError(f"unknown query codec {codec!r}; expected 'form' or 'rfc3986'")


def _check_name(name: object) -> None:
    if not isinstance(name, str):
        raise TypeError(f"a query name is a str, not {type(name).__name__}")


def _too_long(query: str, max_length: int) -> NoReturn:
    raise URIError(
        f"the query is {len(query)} characters long, more than the limit max_length={max_length}",
        rule="query",
    )


def _pieces(
    query: str, max_params: int = MAX_PARAMS, max_length: int = MAX_QUERY_LENGTH
) -> list[str]:
    """The query split on "&", empty pieces included, within the limits."""
    if type(query) is not str and not isinstance(query, str):
        raise TypeError(f"a query is a str or None, not {type(query).__name__}")
    if len(query) > max_length:
        _too_long(query, max_length)
    pieces = query.split("&")
    count = len(pieces) - pieces.count("")
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
    name = piece.partition("=")[0]
    if "%" not in name and (codec != "form" or "+" not in name):
        return name  # nothing to decode
    return _decode(name, codec, "surrogateescape")


# -- reading --------------------------------------------------------------------------


def query_params(
    query: str | None,
    codec: Codec = "form",
    *,
    errors: DecodeErrors = "strict",
    max_params: int = MAX_PARAMS,
    max_length: int = MAX_QUERY_LENGTH,
) -> list[Param]:
    """The decoded ``(name, value)`` pairs of a query (RFC 3986 §3.4), in order.

    Duplicates are kept.  ``a`` gives ``("a", None)``, ``a=`` gives
    ``("a", "")``; no query (``None``), or an empty one, gives ``[]``.
    ``errors`` is the policy for octets that are not UTF-8 (§2.5):
    ``"strict"`` raises :class:`URIError` at the triplet; ``"replace"`` and
    ``"surrogateescape"`` are the usual alternatives.  A query longer than
    ``max_length`` or with more than ``max_params`` parameters raises.

    >>> query_params("a=1&b&c=&d=x+y%2Bz")
    [('a', '1'), ('b', None), ('c', ''), ('d', 'x y+z')]
    >>> query_params("q=a+b", codec="rfc3986")
    [('q', 'a+b')]
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


def query_param(
    query: str | None,
    name: str,
    default: str | None = None,
    *,
    codec: Codec = "form",
    errors: DecodeErrors = "strict",
) -> str | None:
    """The value of the first parameter ``name``, or ``default`` when there is none.

    A valueless parameter (``a``) gives ``None``, like an absent one; use
    :func:`has_query_param` to tell them apart.  Names are compared decoded
    under ``codec``; ``errors`` applies to the value returned, so octets that
    are not UTF-8 elsewhere in the query do not matter.

    >>> query_param("a=1&b=x+y&b=2", "b")
    'x y'
    """
    for value in _values_of(query, name, codec, errors):
        return value
    return default


def query_param_all(
    query: str | None,
    name: str,
    *,
    codec: Codec = "form",
    errors: DecodeErrors = "strict",
) -> list[str | None]:
    """The values of every parameter ``name``, in order (matched as by :func:`query_param`).

    >>> query_param_all("b=1&a&b=2", "b")
    ['1', '2']
    """
    return list(_values_of(query, name, codec, errors))


def _values_of(query: str | None, name: str, codec: str, errors: str) -> Iterator[str | None]:
    """The decoded values of the parameters ``name``, in order."""
    _check_codec(codec)
    _check_name(name)
    if query is None:
        return
    offset = 0
    for piece in _pieces(query):
        if piece and _name_of(piece, codec) == name:
            key, eq, value = piece.partition("=")
            yield _decode_at(value, codec, errors, query, offset + len(key) + 1) if eq else None
        offset += len(piece) + 1


def has_query_param(query: str | None, name: str, *, codec: Codec = "form") -> bool:
    """Is there a parameter ``name`` (with or without a value)?

    >>> has_query_param("a&b=1", "a"), has_query_param("a&b=1", "c")
    (True, False)
    """
    _check_codec(codec)
    _check_name(name)
    if query is None:
        return False
    return any(piece and _name_of(piece, codec) == name for piece in _pieces(query))


# -- encoding -------------------------------------------------------------------------


def _text_of(value: QueryValue) -> str | None:
    """A value as text: ``bool`` as ``true``/``false``, numbers as ``repr`` (like yarl)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a finite number; give it as a str if you mean it")
        return repr(value)
    raise TypeError(f"a query value is a str, int, float, bool or None, not {type(value).__name__}")


def _values(value: QueryValues) -> list[str | None]:
    """One value, or each of a sequence (a ``str`` is one value), as text."""
    if type(value) is str:
        return [value]
    if value is None or isinstance(value, (str, int, float)):
        return [_text_of(value)]
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return [_text_of(item) for item in value]
    raise TypeError(
        "a query value is a str, int, float, bool or None, or a sequence of them, "
        f"not {type(value).__name__}"
    )


#: A text of unreserved characters alone, which both codecs write as it is (§2.3).
_PLAIN: Final = re.compile(f"[{UNRESERVED}]*").fullmatch


def _encode(text: str, codec: str, iri: bool) -> str:
    if not isinstance(text, str):
        raise TypeError(f"query names and values are str, not {type(text).__name__}")
    if text.isascii() and (text.isalnum() or text.isidentifier() or _PLAIN(text) is not None):
        return text  # ASCII letters, digits and "_" (the first two tests) are unreserved
    if codec == "form":
        if not iri or text.isascii():
            return form_encode(text)
        # As form_encode, but the characters RFC 3987 §2.2 adds to unreserved are kept.
        return "+".join(percent_encode(part, "unreserved", iri=True) for part in text.split(" "))
    # Everything the query forbids, and the "&" and "=" of the pair syntax.
    return percent_encode(text, "query", iri=iri).replace("&", "%26").replace("=", "%3D")


def encode_param(name: str, value: QueryValue, codec: Codec = "form", *, iri: bool = False) -> str:
    """One ``name=value`` pair, encoded for the query (``name`` alone when ``value`` is None).

    Under ``"form"`` a space becomes "+" and "+" becomes "%2B"; under
    ``"rfc3986"`` a space becomes "%20" and "+" is written as it is.  Both
    encode "&", "=", "#", "%" and non-ASCII (as UTF-8); with ``iri=True`` the
    non-ASCII characters an IRI allows (RFC 3987 §2.2) are written as they
    are.  ``True`` and ``False`` are written ``true`` and ``false``, an
    ``int`` in decimal and a finite ``float`` as its ``repr``.

    >>> encode_param("q", "a b+c")
    'q=a+b%2Bc'
    >>> encode_param("q", "a b+c", "rfc3986")
    'q=a%20b+c'
    >>> encode_param("n", 1.5), encode_param("on", True), encode_param("k", "é", iri=True)
    ('n=1.5', 'on=true', 'k=é')
    """
    _check_codec(codec)
    _check_name(name)
    text = _text_of(value)
    if name == "" and text is None:
        raise ValueError("a parameter with an empty name and no value cannot be written")
    encoded = _encode(name, codec, iri)
    return encoded if text is None else encoded + "=" + _encode(text, codec, iri)


def _encode_pairs(name: str, value: QueryValues, codec: Codec, iri: bool) -> list[str]:
    """The pairs of ``name`` and each value, as :func:`encode_param` writes them."""
    if type(value) is str and type(name) is str:  # one text value: what most calls give
        return [f"{_encode(name, codec, iri)}={_encode(value, codec, iri)}"]
    _check_name(name)
    texts = _values(value)
    if not texts:
        return []
    if name == "" and texts[0] is None:
        raise ValueError("a parameter with an empty name and no value cannot be written")
    encoded = _encode(name, codec, iri)
    pairs = []
    for text in texts:
        if text is not None:
            pairs.append(f"{encoded}={_encode(text, codec, iri)}")
        elif name == "":
            raise ValueError("a parameter with an empty name and no value cannot be written")
        else:
            pairs.append(encoded)
    return pairs


def _result(query: str) -> str:
    if len(query) > MAX_QUERY_LENGTH:
        _too_long(query, MAX_QUERY_LENGTH)
    return query


def _join(pieces: list[str]) -> str | None:
    """The query of ``pieces``; ``None`` when none is left (the "?" goes too)."""
    if not pieces:
        return None
    query = "&".join(pieces)
    if len(query) > MAX_QUERY_LENGTH:
        _too_long(query, MAX_QUERY_LENGTH)
    return query


# -- editing ----------------------------------------------------------------------------


class _Queried(Protocol):
    """A reference, as far as :func:`splice_query` reads it."""

    @property
    def query(self) -> str | None: ...


_Reference = TypeVar("_Reference", bound=_Queried)


def splice_query(
    text: str,
    span: tuple[int, int],
    path_end: int,
    query: str,
    parse: Callable[[str], _Reference],
) -> _Reference:
    """The reference ``parse`` reads from ``text`` with its query (at ``span``, whose
    start is negative when there is none: then after the path, at ``path_end``)
    replaced by ``query`` (``URI.with_query_params`` and the other edits).

    ``parse`` raises where the new text is not a reference; a ``query`` holding "#"
    would end the query and start a fragment (§3.4, §3.5), and is refused at the "#".
    """
    start, end = span
    if start < 0:
        start = end = path_end
    else:
        start -= 1  # the "?"
    new = f"{text[:start]}?{query}{text[end:]}"
    made = parse(new)
    if made.query != query:
        raise URIError(
            'a query cannot hold "#", which starts the fragment (§3.4, §3.5); '
            "percent-encode it as %23",
            text=new,
            position=start + 1 + query.index("#"),
            rule="query",
        )
    return made


def param_list(pairs: Pairs, params: Mapping[str, QueryValues]) -> list[tuple[str, QueryValues]]:
    """``pairs`` and then the keyword ``params``, as one list of ``(name, value)``."""
    if isinstance(pairs, Mapping):
        items = list(pairs.items())
    elif isinstance(pairs, (str, bytes)):
        raise TypeError("query parameters are a mapping or (name, value) pairs, not text")
    else:
        items = list(pairs)
        for item in items:
            if not (isinstance(item, tuple) and len(item) == 2):
                raise TypeError(f"query parameters are (name, value) pairs, not {item!r}")
    items.extend(params.items())
    return items


def with_query_params(
    pairs: Pairs = (),
    /,
    *,
    codec: Codec = "form",
    iri: bool = False,
    **params: QueryValues,
) -> str | None:
    """The query text of ``pairs`` and then ``params``, each encoded under ``codec``;
    ``None`` for no pairs.

    ``pairs`` is a mapping or an iterable of ``(name, value)``, and ``params``
    are more of them by keyword (``a=2``), written after ``pairs`` in the order
    given; a name that is not a Python identifier, or is ``codec`` or ``iri``,
    goes in ``pairs``.  A value of ``None`` writes a valueless parameter, and a
    sequence (a list, a tuple) of values writes the name once for each.  No
    pairs mean no query.

    >>> with_query_params([("a", "1 2"), ("b", None)])
    'a=1+2&b'
    >>> with_query_params({"tag": ["x", "y"], "page": 2, "debug": False})
    'tag=x&tag=y&page=2&debug=false'
    >>> with_query_params({"q": "a b"}, page=2)
    'q=a+b&page=2'
    >>> with_query_params() is None
    True
    """
    _check_codec(codec)
    items = param_list(pairs, params)
    encoded: list[str] = []
    for name, value in items:
        encoded.extend(_encode_pairs(name, value, codec, iri))
        if len(encoded) > MAX_PARAMS:
            raise URIError(f"more than the limit max_params={MAX_PARAMS} parameters", rule="query")
    return _join(encoded)


def update_query_params(
    query: str | None,
    pairs: Pairs = (),
    /,
    *,
    codec: Codec = "form",
    iri: bool = False,
    **params: QueryValues,
) -> str | None:
    """``query`` where each name of ``pairs`` and ``params`` has the values given for it.

    Each name is set as :func:`set_query_param` sets it: its first parameter
    is replaced in its place and the others of that name removed, or the
    pairs are appended when the query has none; a name given more than once
    takes all the values given for it, in order, and an empty sequence removes
    it.  Every other piece of the query is kept exactly (yarl's
    ``update_query``, without re-encoding the rest).

    >>> update_query_params("a=1&b=%7e&a=2", a=3, c="x y")
    'a=3&b=%7e&c=x+y'
    >>> update_query_params("page=1&sig=AbC%2f", [("tag", "x"), ("tag", "y")], page=2)
    'page=2&sig=AbC%2f&tag=x&tag=y'
    """
    _check_codec(codec)
    grouped: dict[str, list[QueryValue]] = {}
    for name, value in param_list(pairs, params):
        _check_name(name)
        values = grouped.setdefault(name, [])
        if value is None or isinstance(value, (str, int, float)):
            values.append(value)
        else:
            values.extend(value)
    for name, values in grouped.items():
        query = set_query_param(query, name, values, codec=codec, iri=iri)
    return query


def add_query_param(
    query: str | None,
    name: str,
    value: QueryValues,
    *,
    codec: Codec = "form",
    iri: bool = False,
) -> str | None:
    """``query`` with ``name=value`` appended, every character of it kept.

    The pair is joined with "&" to whatever the query holds, its empty
    pieces included, so that :func:`remove_query_param` gives back ``query``
    exactly: ``"a=1&"`` becomes ``"a=1&&b=2"`` and an empty query ``""``
    becomes ``"&b=2"``; no query (``None``) becomes ``"b=2"``.  A sequence
    of values appends one pair for each (none for an empty one).

    >>> add_query_param("sig=AbC%2f&x=1", "page", 2)
    'sig=AbC%2f&x=1&page=2'
    >>> add_query_param(None, "tag", ["a", "b"])
    'tag=a&tag=b'
    """
    if codec not in CODECS:
        _unknown_codec(codec)
    added = _encode_pairs(name, value, codec, iri)
    if not added:
        return query
    if query is None:
        return _join(added)
    _pieces(query)
    return _result(query + "&" + "&".join(added))


def set_query_param(
    query: str | None,
    name: str,
    value: QueryValues,
    *,
    codec: Codec = "form",
    iri: bool = False,
) -> str | None:
    """``query`` where ``name`` has the value ``value`` (or the values, for a sequence).

    The first parameter ``name`` (names compared decoded, under ``codec``)
    is replaced in its place and the others named ``name`` are removed; when
    there is none, the pair is appended (an empty query becomes just the
    pair).  An empty sequence removes ``name``.  Other pieces are kept exactly.

    >>> set_query_param("a=1&b=%7e&a=2", "a", "x y")
    'a=x+y&b=%7e'
    >>> set_query_param("", "a", 1)
    'a=1'
    """
    if codec not in CODECS:
        _unknown_codec(codec)
    new = _encode_pairs(name, value, codec, iri)
    if query is None or query == "":
        return _join(new) if new else query
    return _set_in_pieces(query, name, new, codec)


def _set_in_pieces(query: str, name: str, new: list[str], codec: str) -> str | None:
    """:func:`set_query_param` of ``name`` to the encoded pairs ``new`` in a non-empty
    ``query``, piece by piece."""
    pieces = _pieces(query)
    kept: list[str] = []
    found = False
    for piece in pieces:
        key = piece.partition("=")[0]
        # A name with no "%" and no "+" is its own decoded form (the first test is
        # _name_of's, without the call).
        if ("%" in key or "+" in key) and piece:
            key = _name_of(piece, codec)
        if key == name and piece:
            if not found:
                kept.extend(new)
                found = True
        else:
            kept.append(piece)
    if not found:
        return _result(query + "&" + "&".join(new)) if new else query
    return _join(kept)


def remove_query_param(query: str | None, name: str, *, codec: Codec = "form") -> str | None:
    """``query`` without any parameter ``name``; every other piece is kept exactly.

    When no piece is left the query itself goes (``a=1`` gives ``None``);
    empty pieces the edit did not touch stay (``a=1&&b=2`` without ``b`` is
    ``a=1&``).  A query with no parameter ``name`` is returned as it is.

    >>> remove_query_param("a=1&b=2&a=3", "a")
    'b=2'
    >>> remove_query_param("a=1", "a") is None
    True
    """
    _check_name(name)
    return _remove(query, codec, lambda decoded: decoded == name)


def remove_query_params(
    query: str | None, names: NameMatcher, *, codec: Codec = "form"
) -> str | None:
    """``query`` without the parameters whose decoded name ``names`` matches.

    ``names`` is a pattern (a ``str``: a glob matched case-sensitively with
    :func:`fnmatch.fnmatchcase` when it holds ``*`` or ``?``, ``"utm_*"``, else one
    name, brackets and all, ``"a[1]"``), a collection of exact names
    (``{"a[1]", "b"}``: no pattern characters), or a predicate taking the
    decoded name.  Pieces are kept or removed as by :func:`remove_query_param`.

    >>> remove_query_params("utm_source=x&id=7&utm_medium=y", "utm_*")
    'id=7'
    >>> remove_query_params("a=1&b=2&c=3", {"a", "c"})
    'b=2'
    >>> remove_query_params("a=1&B=2", str.isupper)
    'a=1'
    """
    match: Callable[[str], bool]
    if isinstance(names, str):
        match = name_pattern(names)
    elif callable(names):
        match = names
    elif isinstance(names, Collection) and not isinstance(names, (bytes, bytearray)):
        exact = frozenset(names)
        for name in exact:
            _check_name(name)
        match = exact.__contains__
    else:
        raise TypeError(
            "names is a glob pattern, a collection of names or a predicate, "
            f"not {type(names).__name__}"
        )
    return _remove(query, codec, match)


def _remove(query: str | None, codec: str, match: Callable[[str], bool]) -> str | None:
    _check_codec(codec)
    if query is None:
        return None
    pieces = _pieces(query)
    kept = [piece for piece in pieces if not (piece and match(_name_of(piece, codec)))]
    if len(kept) == len(pieces):
        return query
    return _join(kept)
