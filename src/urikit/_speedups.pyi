import re
from collections.abc import Callable
from typing import Any, ClassVar, NoReturn, TypeVar

from typing_extensions import Self, disjoint_base

from .errors import URIError

def scan(text: str, iri: bool, /) -> tuple[int, ...] | None:
    """The spans of the groups 1-8 of ``Grammar.reference.fullmatch(text)``, or ``None``.

    Sixteen ints, start and end of scheme, authority, userinfo, host, port, path, query and
    fragment, ``-1, -1`` for a group that does not participate.  With ``iri=True`` the
    grammar is RFC 3987 §2.2 without the bidi formatting characters (RFC 3987 §4.1).
    """

_R = TypeVar("_R", bound=Reference)

def resolve(cls: type[_R] | None, base: str, ref: str, strict: bool, /) -> Any:
    """The target of ``ref`` against the absolute ``base`` (RFC 3986 §5.2.2) as a ``cls``
    built from the operation's spans, or its text when ``cls`` is ``None``; ``None`` when
    either is not a reference (in ``cls._iri``'s grammar) or ``base`` has no scheme."""

def normalize(cls: type[_R] | None, text: str, schemes: dict[str, int] | None, /) -> Any:
    """The normal form of ``text`` (RFC 3986 §6.2.2, and §6.2.3 with the scheme codes
    ``schemes``) as a ``cls``, or its text (read as an IRI) when ``cls`` is ``None``;
    ``None`` when ``text`` is not a reference or only the readable path answers."""

def normalize_in(
    registry: object,
    codes: dict[str, int],
    codes_of: Callable[[Any], dict[str, int]],
    cls: type[_R],
    text: str,
    level: str,
    given: object,
    /,
) -> _R | None:
    """``normalize`` at ``level`` "scheme" (the codes of ``given``: ``codes`` when it is
    ``registry``, else ``codes_of(given)``) or "syntax"; ``None`` at any other level."""

def remove_dot_segments(path: str, /) -> str:
    """``path`` without its dot-segments (RFC 3986 §5.2.4)."""

def percent_decode(text: str, /) -> str | None:
    """``text`` with its triplets decoded as UTF-8 (RFC 3986 §2.1, §2.5); ``None`` when a
    "%" starts no triplet, the octets are not UTF-8 or ``text`` holds a lone surrogate."""

def percent_encode(text: str, keep: bytes, encoded: bool, /) -> str | None:
    """``text`` with every character outside ``keep`` (128 octets, nonzero for the ASCII
    characters kept) as triplets of its UTF-8 octets (RFC 3986 §2.1); with ``encoded``,
    triplets are kept (hex in upper case).  ``None`` for a lone surrogate."""

def lenient_encode(
    body: str, iri: bool, delimited: bool, host_end: int, first_hash: int, limit: int, /
) -> tuple[str, list[tuple[int, int, int]], list[tuple[int, int, int, int]]] | int:
    """``body`` with the character repairs of ``urikit.lenient`` made (RFC 3986 §2.1,
    §3.2.2, §3.5, Appendix C; RFC 3987 §4.1); the first ``limit`` runs of each code as
    ``(code, start, end)``, in the order of ``body``, and for each code with more, the
    rest as ``(code, start, end, count)``.  The codes: 0 bidi formatting, 1 white space,
    2 control, 3 backslash, 4 non-ASCII, 5 other forbidden character, 6 bare "%",
    7 extra "#", 8 bracket, 9 white space inside delimiters.  For a ``body`` that holds
    a lone surrogate (which UTF-8 cannot encode), the position of the first."""

def triplet_runs(text: str, start: int, end: int, /) -> list[tuple[int, int, bytes]]:
    """The maximal runs of percent-encoded triplets of ``text[start:end]`` (RFC 3986 §2.1)
    as ``(start, end, octets)``, in order."""

def triplet_concerns(text: str, start: int, end: int, /) -> list[tuple[int, int, bytes]]:
    """The runs of ``triplet_runs`` that hold a triplet of a control (%00-%1F, %7F) or
    whose octets are not UTF-8 (RFC 3629 §4)."""

def triplet_find(
    text: str, start: int, end: int, wanted: bytes, then: bytes | None = None, /
) -> int:
    """The index of the first percent-encoded triplet of ``text[start:end]`` (RFC 3986
    §2.1) of one of the octets of ``wanted``, or -1; with ``then``, only such a triplet
    that a triplet of one of its octets follows, or an ASCII character that is one."""

def chars_in(text: str, chars: str, /) -> str:
    """The characters of ``chars`` that ``text`` holds, in the order of ``chars`` (at most
    64 of them above U+FFFF)."""

def sites_table(
    edge_start: tuple[int, ...],
    edge_labels: tuple[str, ...],
    edge_targets: tuple[int, ...],
    answers: tuple[int, ...],
    /,
) -> object:
    """A capsule holding a compiled Public Suffix List (``urikit.sites._compile.Table``)."""

def sites_find(table: object, host: str, private: object, extra: int, /) -> Any:
    """The last ``count + extra`` labels of the ASCII ``host`` in lower case, ``count``
    those of its public suffix; ``None`` when it names no domain or has fewer labels;
    ``NotImplemented`` when ``host`` is not ASCII or holds a "%"."""

def locate(text: str, iri: bool, /) -> URIError | None:
    """The ``URIError`` of ``urikit.diagnose.locate`` for the URI-reference rule (with
    ``iri=True`` IRI-reference), or ``None`` when ``text`` is a reference."""

#: The longest text whose component ends are kept as int32 (longer texts take more room).
NARROW_MAX: int

@disjoint_base
class Reference:
    """The storage of a URI or IRI reference: the text and the ends of its eight
    components, from one scan in the grammar the class attribute ``_iri`` selects;
    the interface of ``urikit._store.PureStore``."""

    _iri: ClassVar[bool]
    def __new__(cls, text: str | Reference) -> Self: ...
    @classmethod
    def _parse(cls, text: str) -> Self: ...
    @classmethod
    def _scan(cls, text: str) -> Self | None: ...
    @classmethod
    def _from_match(cls, m: re.Match[str]) -> Self: ...
    @classmethod
    def _construct_directly(cls) -> None: ...
    @staticmethod
    def _validator(fallback: Callable[[str, str], bool]) -> Callable[[str, str], bool]: ...
    @staticmethod
    def _rule_validator(
        rule: str, fallback: Callable[[object], bool]
    ) -> Callable[[object], bool]: ...
    @classmethod
    def _refuse(cls, text: str) -> NoReturn: ...
    @property
    def _text(self) -> str: ...
    def _group(self, g: int, /) -> str | None: ...
    def _span(self, g: int, /) -> tuple[int, int]: ...
    def _groups(self) -> tuple[str | None, ...]: ...
    def _replace_query(self, query: str | None, /) -> Self | None: ...
    @property
    def scheme(self) -> str | None: ...
    @property
    def authority(self) -> str | None: ...
    @property
    def userinfo(self) -> str | None: ...
    @property
    def host(self) -> str | None: ...
    @property
    def port(self) -> str | None: ...
    @property
    def path(self) -> str: ...
    @property
    def query(self) -> str | None: ...
    @property
    def fragment(self) -> str | None: ...
