"""The storage of the value type: the one place that chooses the compiled core or pure Python.

A reference is its text and the offsets of its components, from one parse.  Two
stores keep them, with the same interface, and :class:`urikit.uri.URI` and ``IRI``
stand on whichever this module chooses, once, at import:

* ``urikit._speedups.Reference`` (C): the text and the ends of the eight
  components as int32, from one scan by the compiled scanner; about 80 bytes.
* :class:`PureStore`: the ``re.Match`` of the grammar's reference pattern
  (``Grammar.reference``), the reference implementation.

The compiled store is used when the extension is built and importable, unless
the environment variable ``URIKIT_NO_EXTENSIONS`` is set (to anything but ``""``
or ``"0"``) when urikit is imported.  :data:`compiled` says which store is used.
``tests/test_compiled.py`` holds the two to the same answers.

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
  §5.3); ``r._group(g)``, ``r._span(g)`` by the group number ``g`` of
  ``Grammar.reference`` (0 the text, 1 scheme ... 8 fragment), ``(-1, -1)`` for an undefined
  component, and ``r._groups()``, as ``re.Match`` gives them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, ClassVar, Final, NoReturn

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["PureStore", "Store", "compiled", "scan", "speedups"]

_new: Final = object.__new__


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
        start, end = self._m.span(7)
        if start < 0:
            start = end = self._m.end(6)
        else:
            start -= 1  # the "?"
        middle = "" if query is None else "?" + query
        made = type(self)._scan(text[:start] + middle + text[end:])
        if made is None or (query is not None and made._m.end(7) != start + len(middle)):
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
        return self._m.group(1)

    @property
    def authority(self) -> str | None:
        """authority (§3.2): ``None`` when there is no "//"."""
        return self._m.group(2)

    @property
    def userinfo(self) -> str | None:
        """userinfo (§3.2.1): ``None`` when the authority has no "@"."""
        return self._m.group(3)

    @property
    def host(self) -> str | None:
        """host (§3.2.2) as written; an IP literal keeps its brackets."""
        return self._m.group(4)

    @property
    def port(self) -> str | None:
        """port (§3.2.3), the exact digits: ``""`` for ``http://h:/``, ``None`` with no ":"."""
        return self._m.group(5)

    @property
    def path(self) -> str:
        """path (§3.3): always a string, possibly empty."""
        return self._m.group(6)

    @property
    def query(self) -> str | None:
        """query (§3.4): ``None`` when there is no "?"."""
        return self._m.group(7)

    @property
    def fragment(self) -> str | None:
        """fragment (§3.5): ``None`` when there is no "#"."""
        return self._m.group(8)


# The slot's own setter: the one way past a subclass's __setattr__, which refuses
# every change, and the cheapest way to fill a new reference.
_store_match: Final = PureStore.__dict__["_m"].__set__


def _compiled_store() -> type[PureStore] | None:
    """``urikit._speedups.Reference``, unless it is switched off or cannot be imported."""
    if os.environ.get("URIKIT_NO_EXTENSIONS", "") not in ("", "0"):
        return None
    try:
        from ._speedups import Reference
    except ImportError:
        return None
    return Reference  # type: ignore[return-value]


_COMPILED: Final = _compiled_store()

#: Whether the compiled core (``urikit._speedups``) stores the references.
compiled: Final[bool] = _COMPILED is not None


def _compiled_scan() -> Callable[[str, bool], tuple[int, ...] | None] | None:
    """The compiled scanner (``_speedups.scan``) when the compiled core is used."""
    if not compiled:
        return None
    from ._speedups import scan

    return scan


#: ``scan(text, iri)``: the sixteen ends of the components of an (I)RI-reference,
#: or ``None`` when ``text`` is not one; ``None`` itself on the pure path.
scan: Final = _compiled_scan()


def _compiled_module() -> ModuleType | None:
    """``urikit._speedups`` when the compiled core is used."""
    if not compiled:
        return None
    from ._speedups import resolve

    return sys.modules[resolve.__module__]


#: The compiled core's module, whose RFC operations ``_fast`` and ``percent`` use;
#: ``None`` on the pure path.
speedups: Final = _compiled_module()

if TYPE_CHECKING:
    Store = PureStore
else:
    Store = _COMPILED or PureStore
