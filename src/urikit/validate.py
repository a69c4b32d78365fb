"""Validation against any named rule of the grammar (RFC 3986 Appendix A, RFC 3987 §2.2).

A public module: :func:`is_valid` answers yes or no (and is ``urikit.is_valid``),
:func:`check` says where and why, and :data:`RULE_NAMES` lists the rules.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ._store import Store, scan
from .grammar import RULES, Grammar

__all__ = ["RULE_NAMES", "check", "is_valid"]

#: The rule names :func:`is_valid` and :func:`check` answer for, sorted: RFC 3986
#: Appendix A, RFC 6874 and RFC 3987 §2.2.
RULE_NAMES: tuple[str, ...] = tuple(sorted(RULES))


#: rule -> (IRI grammar, needs a scheme, refuses a fragment, refuses a scheme)
_SCANNED: Final = {
    "URI-reference": (False, False, False, False),
    "URI": (False, True, False, False),
    "absolute-URI": (False, True, True, False),
    "relative-ref": (False, False, False, True),
    "IRI-reference": (True, False, False, False),
    "IRI": (True, True, False, False),
    "absolute-IRI": (True, True, True, False),
    "irelative-ref": (True, False, False, True),
}


def _pattern_of(rule: str) -> tuple[Grammar, re.Pattern[str]]:
    try:
        grammar = RULES[rule]
    except KeyError:
        raise ValueError(
            f"unknown rule {rule!r}; known rules: {', '.join(sorted(RULES))}"
        ) from None
    return grammar, grammar.rule(rule)


def is_valid(text: str, rule: str = "URI-reference") -> bool:
    """Does ``text`` match the ABNF rule ``rule`` exactly?

    ``rule`` is a rule name of RFC 3986 Appendix A (``"URI"``,
    ``"URI-reference"``, ``"absolute-URI"``, ``"relative-ref"``, ``"scheme"``,
    ``"authority"``, ``"userinfo"``, ``"host"``, ``"reg-name"``, ``"port"``,
    ``"IPv4address"``, ``"IPv6address"``, ``"IPvFuture"``, ``"path"``,
    ``"segment"``, ``"query"``, ``"fragment"``, and the rest), of RFC 6874
    (``"IPv6addrz"``, ``"ZoneID"``) or of RFC 3987 §2.2 (``"IRI"``,
    ``"IRI-reference"``, ``"absolute-IRI"``, ``"irelative-ref"``, ...).  The
    IRI rules refuse the bidi formatting characters (RFC 3987 §4.1).
    An unknown rule name raises ``ValueError``; a non-``str`` text ``TypeError``.

    >>> is_valid("http://[::1]/", "URI"), is_valid("1.2.3.256", "IPv4address")
    (True, False)
    """
    if not isinstance(text, str):
        raise TypeError(f"is_valid() takes a str, not {type(text).__name__}")
    if scan is not None and rule in _SCANNED:
        # The rules the compiled scanner decides: a reference, with or without a
        # scheme (§4.1, §4.2, §4.3), and the same for IRIs (RFC 3987 §2.2).
        iri, needs_scheme, no_fragment, no_scheme = _SCANNED[rule]
        ends = scan(text, iri)
        if ends is None:
            return False
        has_scheme = ends[0] >= 0
        return (
            (has_scheme or not needs_scheme)
            and not (no_scheme and has_scheme)
            and not (no_fragment and ends[14] >= 0)
        )
    return _pattern_of(rule)[1].fullmatch(text) is not None


if not TYPE_CHECKING:
    # With the compiled core, the reference rules are answered without a Python frame;
    # every other call is the function above.
    is_valid = Store._validator(is_valid)


def check(text: str, rule: str = "URI-reference") -> None:
    """Raise :class:`~urikit.URIError`, saying where and why, unless ``text`` matches ``rule``."""
    if not isinstance(text, str):
        raise TypeError(f"check() takes a str, not {type(text).__name__}")
    grammar, pattern = _pattern_of(rule)
    if pattern.fullmatch(text) is None:
        from .diagnose import locate  # the walk that says where: loaded on the first error

        raise locate(text, grammar, rule)
