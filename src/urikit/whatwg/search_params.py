"""``application/x-www-form-urlencoded`` (URL Standard §5) and ``URLSearchParams`` (§6.2).

:func:`form_urlencoded_parse` and :func:`form_urlencoded_serialize` are the standard's
parser and serializer.  A :class:`URLSearchParams` is a list of name-value pairs; one
obtained from :attr:`URL.search_params <urikit.whatwg.URL.search_params>` is that URL's
query object, live both ways: a change to it sets the URL's query ("update", §6.2), and
a change of the URL's query shows in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from .encoding import (
    APPLICATION_X_WWW_FORM_URLENCODED,
    get_output_encoding,
    percent_decode,
    percent_encode_after_encoding,
)
from .parser import scalar_value_string

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["URLSearchParams", "form_urlencoded_parse", "form_urlencoded_serialize"]


def form_urlencoded_parse(data: bytes | str) -> list[tuple[str, str]]:
    """The application/x-www-form-urlencoded parser (§5.1); a ``str`` is UTF-8 encoded
    first (the "string parser" of §5.3)."""
    if isinstance(data, str):
        data = scalar_value_string(data).encode("utf-8")
    output = []
    for sequence in data.split(b"&"):
        if sequence == b"":
            continue
        name, _, value = sequence.partition(b"=")
        name = name.replace(b"+", b" ")
        value = value.replace(b"+", b" ")
        output.append(
            (
                percent_decode(name).decode("utf-8", "replace"),
                percent_decode(value).decode("utf-8", "replace"),
            )
        )
    return output


def form_urlencoded_serialize(tuples: Iterable[tuple[str, str]], encoding: str = "utf-8") -> str:
    """The application/x-www-form-urlencoded serializer (§5.2)."""
    encoding = get_output_encoding(encoding)
    output = []
    for name, value in tuples:
        encoded_name = percent_encode_after_encoding(
            encoding, scalar_value_string(name), APPLICATION_X_WWW_FORM_URLENCODED, True
        )
        encoded_value = percent_encode_after_encoding(
            encoding, scalar_value_string(value), APPLICATION_X_WWW_FORM_URLENCODED, True
        )
        output.append(f"{encoded_name}={encoded_value}")
    return "&".join(output)


class _QueryHolder(Protocol):
    """What a query object needs of its URL: the query to read and write."""

    def _get_query(self) -> str | None: ...

    def _set_query(self, query: str | None) -> None: ...


Init = str | Mapping[str, str] | Iterable[Sequence[str]]


class URLSearchParams:
    """A list of name-value pairs, read from and written as a query (§6.2).

    ``URLSearchParams(init)`` takes a query string (a leading "?" is removed), a mapping,
    or pairs.  Methods follow the standard's, in Python's spelling: ``append``,
    ``delete(name, value=None)``, ``get``, ``get_all``, ``has(name, value=None)``,
    ``set``, ``sort``, ``size`` (also ``len()``), iteration over ``(name, value)`` pairs,
    and ``str()`` for the serialization.

    >>> p = URLSearchParams("?a=1&b=x+y&a=2")
    >>> p.get_all("a"), p.get("b"), str(p)
    (['1', '2'], 'x y', 'a=1&b=x+y&a=2')
    """

    __slots__ = ("__weakref__", "_list", "_seen", "_url")

    def __init__(self, init: Init = "") -> None:
        self._url: _QueryHolder | None = None
        self._seen: str | None = None
        if isinstance(init, str):
            self._list = form_urlencoded_parse(init[1:] if init.startswith("?") else init)
        elif isinstance(init, Mapping):
            self._list = [(scalar_value_string(k), scalar_value_string(v))
                          for k, v in init.items()]  # fmt: skip
        else:
            self._list = []
            for pair in init:
                if isinstance(pair, str) or len(pair) != 2:
                    raise TypeError("each pair of a URLSearchParams must have 2 items")
                name, value = pair
                self._list.append((scalar_value_string(name), scalar_value_string(value)))

    @classmethod
    def _of(cls, url: _QueryHolder) -> Self:
        """The query object of ``url`` (§6.1, "initialize")."""
        params = cls()
        params._url = url
        params._sync()
        return params

    def _sync(self) -> None:
        """Read the URL's query again when it changed (the href and search setters)."""
        url = self._url
        if url is None:
            return
        query = url._get_query()
        if query != self._seen or self._seen is None:
            self._list = form_urlencoded_parse(query or "")
            self._seen = query

    def _update(self) -> None:
        """Update (§6.2): the URL's query becomes the serialization, or null if empty."""
        url = self._url
        if url is None:
            return
        serialized: str | None = form_urlencoded_serialize(self._list)
        if serialized == "":
            serialized = None
        url._set_query(serialized)
        self._seen = serialized

    @property
    def size(self) -> int:
        """The number of pairs."""
        self._sync()
        return len(self._list)

    def __len__(self) -> int:
        return self.size

    def append(self, name: str, value: str) -> None:
        """Append the pair ``(name, value)``."""
        self._sync()
        self._list.append((scalar_value_string(name), scalar_value_string(value)))
        self._update()

    def delete(self, name: str, value: str | None = None) -> None:
        """Remove every pair named ``name`` (whose value is ``value``, when given)."""
        self._sync()
        name = scalar_value_string(name)
        if value is None:
            self._list = [p for p in self._list if p[0] != name]
        else:
            value = scalar_value_string(value)
            self._list = [p for p in self._list if p != (name, value)]
        self._update()

    def get(self, name: str) -> str | None:
        """The value of the first pair named ``name``, or ``None``."""
        self._sync()
        name = scalar_value_string(name)
        return next((v for n, v in self._list if n == name), None)

    def get_all(self, name: str) -> list[str]:
        """The values of every pair named ``name``, in order."""
        self._sync()
        name = scalar_value_string(name)
        return [v for n, v in self._list if n == name]

    def has(self, name: str, value: str | None = None) -> bool:
        """Whether a pair is named ``name`` (with the value ``value``, when given)."""
        self._sync()
        name = scalar_value_string(name)
        if value is None:
            return any(n == name for n, _ in self._list)
        return (name, scalar_value_string(value)) in self._list

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has(name)

    def set(self, name: str, value: str) -> None:
        """Set the value of the first pair named ``name`` and remove the others (or append
        the pair)."""
        self._sync()
        name, value = scalar_value_string(name), scalar_value_string(value)
        out = []
        found = False
        for pair in self._list:
            if pair[0] != name:
                out.append(pair)
            elif not found:
                out.append((name, value))
                found = True
        if not found:
            out.append((name, value))
        self._list = out
        self._update()

    def sort(self) -> None:
        """Sort the pairs stably by name, comparing code units (UTF-16) as the standard."""
        self._sync()
        self._list.sort(key=lambda pair: pair[0].encode("utf-16-be", "surrogatepass"))
        self._update()

    def __iter__(self) -> Iterator[tuple[str, str]]:
        self._sync()
        return iter(list(self._list))

    def keys(self) -> list[str]:
        """The names, in order."""
        return [n for n, _ in self]

    def values(self) -> list[str]:
        """The values, in order."""
        return [v for _, v in self]

    def __str__(self) -> str:
        self._sync()
        return form_urlencoded_serialize(self._list)

    def __repr__(self) -> str:
        return f"URLSearchParams({list(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URLSearchParams):
            return NotImplemented
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]
