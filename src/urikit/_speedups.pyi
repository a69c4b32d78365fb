import re
from typing import ClassVar, NoReturn

from typing_extensions import Self

from .errors import URIError

def scan(text: str, iri: bool, /) -> tuple[int, ...] | None:
    """The spans of the groups 1-8 of ``Grammar.reference.fullmatch(text)``, or ``None``.

    Sixteen ints, start and end of scheme, authority, userinfo, host, port, path, query and
    fragment, ``-1, -1`` for a group that does not participate.  With ``iri=True`` the
    grammar is RFC 3987 §2.2 without the bidi formatting characters (RFC 3987 §4.1).
    """

def locate(text: str, iri: bool, /) -> URIError | None:
    """The ``URIError`` of ``urikit.diagnose.locate`` for the URI-reference rule (with
    ``iri=True`` IRI-reference), or ``None`` when ``text`` is a reference."""

#: The longest text whose component ends are kept as int32 (longer texts take more room).
NARROW_MAX: int

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
    def _refuse(cls, text: str) -> NoReturn: ...
    @property
    def _text(self) -> str: ...
    def _group(self, g: int, /) -> str | None: ...
    def _span(self, g: int, /) -> tuple[int, int]: ...
    def _groups(self) -> tuple[str | None, ...]: ...
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
