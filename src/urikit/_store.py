"""The readable store of the value type: a reference over the match of its grammar.

A reference is its text and the offsets of its components, from one parse.
:class:`PureStore` keeps the ``re.Match`` of the grammar's reference pattern
(``Grammar.reference``): the reference implementation.  The compiled core keeps the
same in C (``urikit._speedups.Reference``: the text and the ends of the eight
components as int32, from one scan), with the same interface; the seam
(``urikit._seam``) chooses which one :class:`urikit.uri.URI` and ``IRI`` stand on, and
``tests/test_compiled.py`` holds the two to the same answers.  :func:`scan` is the
readable form of the compiled scanner's ``_speedups.scan``.

The interface, for a subclass that sets ``_iri`` (which grammar), ``_fullmatch``
(that grammar's ``Grammar.reference.fullmatch``) and ``_refuse`` (raise the error
for a text that is not a reference):

* ``cls(text)``: ``text`` a ``str`` or a reference (its text), parsed by ``cls``'s
  grammar; ``cls._parse(text)`` the same for a ``str`` an operation built;
  ``cls._scan(text)`` the same, but ``None`` where ``cls._refuse`` would raise;
  ``cls._from_match(m)`` from a full match of ``cls._fullmatch``; ``r._replace_query(q)``
  the same reference with another query (or none), or ``None`` for a ``q`` that is
  no query;
  ``cls._construct_directly()`` makes the compiled store's ``cls(text)`` go from the
  call straight to the scan (a no-op here); ``Store._validator(is_valid)`` gives
  ``is_valid`` with the reference rules decided in C (``is_valid`` itself here), and
  ``Store._rule_validator(rule, fallback)`` a function of one argument that decides
  one reference rule for a ``str`` in C and leaves the rest to ``fallback``
  (``fallback`` itself here);
* ``r._text``; ``r.scheme`` ... ``r.fragment``, ``None`` when undefined (RFC 3986
  §5.3); ``r._group(g)``, ``r._span(g)`` by the component number ``g``
  (:class:`~urikit._contracts.Group`: 0 the text, 1 scheme ... 8 fragment, the groups of
  ``Grammar.reference``), ``(-1, -1)`` for an undefined component, and ``r._groups()``,
  as ``re.Match`` gives them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final, NoReturn

from ._contracts import Group
from .grammar import IRI_GRAMMAR, URI_GRAMMAR, Grammar

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["PureStore", "ReferencePattern", "scan"]

_new: Final = object.__new__

# The members of Group the properties read, bound once: a class attribute of an enum
# costs a lookup through its metaclass on every read.
_SCHEME: Final = Group.SCHEME
_AUTHORITY: Final = Group.AUTHORITY
_USERINFO: Final = Group.USERINFO
_HOST: Final = Group.HOST
_PORT: Final = Group.PORT
_PATH: Final = Group.PATH
_QUERY: Final = Group.QUERY
_FRAGMENT: Final = Group.FRAGMENT


class PureStore:
    """A reference over the ``re.Match`` of its grammar's reference pattern."""

    __slots__ = ("_m",)
    _m: re.Match[str]
    _iri: ClassVar[bool] = False
    if TYPE_CHECKING:

        @staticmethod
        def _fullmatch(text: str) -> re.Match[str] | None: ...

    def __new__(cls, text: str | PureStore) -> Self:
        if type(text) is not str:
            if isinstance(text, PureStore):
                text = text._m.string
            elif isinstance(text, str):
                text = str.__str__(text)
            else:
                raise TypeError(f"{cls.__name__}() takes a str, not {type(text).__name__}")
        m = cls._fullmatch(text)
        if m is None:
            cls._refuse(text)
        self = _new(cls)
        _store_match(self, m)
        return self

    @classmethod
    def _parse(cls, text: str) -> Self:
        """A reference from the str text, which an operation built; cls._refuse(text) raises
        when it is not one."""
        m = cls._fullmatch(text)
        if m is None:
            cls._refuse(text)
        self = _new(cls)
        _store_match(self, m)
        return self

    @classmethod
    def _scan(cls, text: str) -> Self | None:
        """A reference from the str text, or None when it is not one."""
        m = cls._fullmatch(text)
        if m is None:
            return None
        self = _new(cls)
        _store_match(self, m)
        return self

    @classmethod
    def _from_match(cls, m: re.Match[str]) -> Self:
        """A reference from a full match of the grammar's reference pattern."""
        self = _new(cls)
        _store_match(self, m)
        return self

    @classmethod
    def _construct_directly(cls) -> None:
        """Make cls(text) scan and build without type.__call__'s argument tuple; cls keeps
        the grammar its _iri selects now, and whether its _rule is that grammar's reference
        rule, whose errors are then made in C (a subclass calls this for itself)."""
        # The compiled store's class call; here cls(text) is already __new__ alone.

    @staticmethod
    def _validator(fallback: Callable[[str, str], bool]) -> Callable[[str, str], bool]:
        """is_valid(text, rule='URI-reference') deciding the reference rules by one scan
        and leaving every other call to fallback (urikit.validate)."""
        # The compiled store's answers in C; here the fallback is the whole of is_valid.
        return fallback

    @staticmethod
    def _rule_validator(rule: str, fallback: Callable[[object], bool]) -> Callable[[object], bool]:
        """A function of one argument deciding the reference rule ``rule`` for a str by
        one scan and leaving every other call to fallback."""
        # The compiled store's answer in C; here the fallback answers every call.
        return fallback

    @classmethod
    def _refuse(cls, text: str) -> NoReturn:
        """Raise the error for a text that is not a reference (subclasses say more)."""
        raise ValueError(f"not a reference: {text!r}")

    def _replace_query(self, query: str | None) -> Self | None:
        """This reference with the query replaced (a str) or removed with its "?" (None),
        the rest kept as it is; None when query is not a query of the class's grammar."""
        text = self._m.string
        start, end = self._m.span(_QUERY)
        if start < 0:
            start = end = self._m.end(_PATH)
        else:
            start -= 1  # the "?"
        middle = "" if query is None else "?" + query
        made = type(self)._scan(text[:start] + middle + text[end:])
        if made is None or (query is not None and made._m.end(_QUERY) != start + len(middle)):
            return None  # the new text is no reference, or the query did not stay one
        return made

    @property
    def _text(self) -> str:
        """The text of the reference, as given."""
        return self._m.string

    def _group(self, g: int) -> str | None:
        """The component of group g (1 scheme ... 8 fragment; 0 the text), or None when
        undefined."""
        return self._m.group(g)

    def _span(self, g: int) -> tuple[int, int]:
        """The span of group g (1 scheme ... 8 fragment; 0 the text); (-1, -1) when
        undefined."""
        return self._m.span(g)

    def _groups(self) -> tuple[str | None, ...]:
        """The eight components, None where undefined."""
        return self._m.groups()

    # -- components (RFC 3986 §3) ----------------------------------------------------

    @property
    def scheme(self) -> str | None:
        """scheme (§3.1), as written (schemes compare case-insensitively)."""
        return self._m.group(_SCHEME)

    @property
    def authority(self) -> str | None:
        """authority (§3.2): ``None`` when there is no "//"."""
        return self._m.group(_AUTHORITY)

    @property
    def userinfo(self) -> str | None:
        """userinfo (§3.2.1): ``None`` when the authority has no "@"."""
        return self._m.group(_USERINFO)

    @property
    def host(self) -> str | None:
        """host (§3.2.2) as written; an IP literal keeps its brackets."""
        return self._m.group(_HOST)

    @property
    def port(self) -> str | None:
        """port (§3.2.3), the exact digits: ``""`` for ``http://h:/``, ``None`` with no ":"."""
        return self._m.group(_PORT)

    @property
    def path(self) -> str:
        """path (§3.3): always a string, possibly empty."""
        return self._m.group(_PATH)

    @property
    def query(self) -> str | None:
        """query (§3.4): ``None`` when there is no "?"."""
        return self._m.group(_QUERY)

    @property
    def fragment(self) -> str | None:
        """fragment (§3.5): ``None`` when there is no "#"."""
        return self._m.group(_FRAGMENT)


# The slot's own setter: the one way past a subclass's __setattr__, which refuses
# every change, and the cheapest way to fill a new reference.
_store_match: Final = PureStore.__dict__["_m"].__set__


def scan(text: str, iri: bool) -> tuple[int, ...] | None:
    """The sixteen ends of the components of the reference ``text``: start and end of
    each group 1-8 of ``Grammar.reference.fullmatch(text)`` in the grammar ``iri``
    selects (RFC 3986 Appendix A, RFC 3987 §2.2), ``-1, -1`` for an undefined one;
    ``None`` when ``text`` is not a reference."""
    m = (IRI_GRAMMAR if iri else URI_GRAMMAR).reference.fullmatch(text)
    return None if m is None else tuple(end for g in Group if g for end in m.span(g))


class ReferencePattern:
    """A grammar's reference ``fullmatch``, as a class's ``_fullmatch``: compiled when
    the class first reads it.

    On the compiled path construction never reads it, so the pattern is compiled only
    when something needs the regular expression; then the class holds the bound
    ``fullmatch`` itself.
    """

    def __init__(self, grammar: Grammar) -> None:
        self._grammar = grammar

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: object, owner: type) -> Callable[[str], re.Match[str] | None]:
        fullmatch = self._grammar.reference.fullmatch
        type.__setattr__(owner, self._name, fullmatch)
        return fullmatch
