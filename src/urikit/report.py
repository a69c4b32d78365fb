"""Reports: what urikit says about an input that is not an error.

A :class:`Report` is one thing noticed in a text: a repair made by a lenient
parse (RFC 3986 Appendix C), a bidi warning (RFC 3987 §4.2), a completion made
by extraction, or a finding of the security audit (RFC 3986 §7).  Every one has
a stable ``code``, a ``message`` for people, a :class:`Severity`, the ``span``
of the text it concerns, and whether the text was ``repaired`` there.

Errors, the input that cannot be read at all, are :class:`~urikit.URIError`.

:func:`printable` is the one way urikit makes text safe to show.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, Final, NamedTuple

__all__ = ["INVISIBLE_FORMAT", "Report", "Severity", "printable", "quote"]


class Severity(str, Enum):
    """How much a report matters, ordered ``info < low < medium < high``.

    A severity equals its name (``Severity.HIGH == "high"``) and compares with
    other severities and with those names.
    """

    INFO = "info"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @property
    def rank(self) -> int:
        """The order of the severity, from 0 for ``info`` to 3 for ``high``."""
        return _RANK[self.value]

    def _other(self, other: object) -> int | None:
        if isinstance(other, str) and other in _RANK:
            return _RANK[other]
        return None

    def __lt__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank < rank

    def __le__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank <= rank

    def __gt__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank > rank

    def __ge__(self, other: object) -> bool:
        rank = self._other(other)
        return NotImplemented if rank is None else self.rank >= rank

    def __str__(self) -> str:
        return self.value

    __hash__ = str.__hash__


_RANK: Final = {"info": 0, "low": 1, "medium": 2, "high": 3}


class Report(NamedTuple):
    """One thing noticed in a text.

    ``code`` is stable (the codes are listed where each report is made:
    ``docs/security.md`` for the audit, ``docs/deviations.md`` for repairs),
    ``message`` is for people, ``span`` is ``(start, end)`` in the text that
    was given, ``component`` the RFC 3986 component concerned (``"host"``,
    ``"path"``, ...) or ``None`` for the whole text, and ``repaired`` says
    whether the text was changed there to make it valid.  Reports are
    immutable; ``report._replace(span=...)`` makes a changed copy.
    """

    code: str
    message: str
    severity: Severity = Severity.INFO
    span: tuple[int, int] = (0, 0)
    repaired: bool = False
    component: str | None = None

    @property
    def position(self) -> int:
        """Where the report starts: ``span[0]``."""
        return self.span[0]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "component": self.component,
            "span": list(self.span),
            "repaired": self.repaired,
            "message": self.message,
        }


#: Characters that show nothing, or reorder what follows them: bidi formatting
#: (RFC 3987 §4.1), zero-width and other invisible format characters, fillers.
INVISIBLE_FORMAT: Final = (
    "\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
_INVISIBLE: Final = re.compile(f"[\x00-\x1f\x7f-\x9f{INVISIBLE_FORMAT}\ud800-\udfff\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` safe to show: controls, bidi and invisible characters as ``<U+XXXX>``.

    A URI shown to a person must look like what it is (RFC 3986 §7.6): a
    right-to-left override or a zero-width space can make one host look like
    another, a terminal escape can rewrite the screen, and a line separator
    can make one record look like two.
    """
    return _INVISIBLE.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    return f"<U+{ord(m.group()):04X}>"


def quote(text: str) -> str:
    """``text`` printable and in single quotes, for a message."""
    return "'" + printable(text).replace("'", "\\'") + "'"
