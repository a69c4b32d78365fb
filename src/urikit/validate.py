"""Validation against any named rule of the grammar (RFC 3986 Appendix A, RFC 3987 §2.2).

A public module: :func:`is_valid` answers yes or no (and is ``urikit.is_valid``),
:func:`check` says where and why, and :data:`RULE_NAMES` lists the rules.

With ``ports=True`` both also refuse a port above 65535 where the scheme has a
default port in the scheme registry (``urikit.schemes``): such a scheme names a
TCP or UDP service, and no TCP or UDP port is above 65535 (RFC 9293 §3.1, RFC 768),
although RFC 3986 §3.2.3 (``port = *DIGIT``) sets no bound.  ``urikit validate``
checks this unless ``--any-port`` is given.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from . import _seam
from ._contracts import Group
from .errors import URIError
from .grammar import RULES, Grammar

__all__ = ["RULE_NAMES", "check", "is_valid"]

#: The rule names :func:`is_valid` and :func:`check` answer for, sorted: RFC 3986
#: Appendix A, RFC 6874 and RFC 3987 §2.2.
RULE_NAMES: tuple[str, ...] = tuple(sorted(RULES))


#: The rules of a reference that may have a scheme (RFC 3986 §4.1, §4.3; RFC 3987
#: §2.2) -> whether they read IRIs.
_WITH_SCHEME: Final = {
    "URI-reference": False,
    "URI": False,
    "absolute-URI": False,
    "IRI-reference": True,
    "IRI": True,
    "absolute-IRI": True,
}


def _pattern_of(rule: str) -> tuple[Grammar, re.Pattern[str]]:
    try:
        grammar = RULES[rule]
    except KeyError:
        raise ValueError(
            f"unknown rule {rule!r}; known rules: {', '.join(sorted(RULES))}"
        ) from None
    return grammar, grammar.rule(rule)


#: The largest TCP and UDP port number (RFC 9293 §3.1, RFC 768).
PORT_MAX: Final = 65535


def port_value(port: str) -> int | None:
    """The number of the port digits ``port`` (RFC 3986 §3.2.3), or ``None`` when it is
    above :data:`PORT_MAX`."""
    digits = port.lstrip("0")
    if len(digits) <= 5:  # int() refuses very long digit strings: none is a port
        number = int(digits or "0")
        if number <= PORT_MAX:
            return number
    return None


def port_shown(port: str) -> str:
    """The port digits as an error message shows them: a long run by its length."""
    return port if len(port) <= 20 else f"of {len(port)} digits"


def port_number(port: str | None, text: str, position: int) -> int | None:
    """The port ``port`` at ``position`` in ``text`` as a number (``URI.port_number``),
    ``None`` when it is absent or empty (§3.2.3); above :data:`PORT_MAX` it raises
    :class:`URIError` at the port."""
    if not port:
        return None
    number = port_value(port)
    if number is not None:
        return number
    raise URIError(
        f"the port {port_shown(port)} is above {PORT_MAX}, the largest TCP or UDP port number "
        "(RFC 9293 §3.1, RFC 768; RFC 3986 §3.2.3 sets no bound, so the URI itself is valid)",
        text=text,
        position=position,
        rule="port",
    )


def _span(ends: tuple[int, ...], group: Group) -> tuple[int, int]:
    """The span of the component ``group`` in the sixteen ends of a scan."""
    at = 2 * (group - 1)
    return ends[at], ends[at + 1]


def _port_error(text: str, rule: str) -> URIError | None:
    """The error for a port above :data:`PORT_MAX` in ``text``, valid for ``rule``, when
    its scheme has a registered default port; ``None`` otherwise."""
    if rule not in _WITH_SCHEME or ":" not in text:
        return None  # a rule without a scheme (relative-ref) has no scheme to ask
    ends = _seam.scan(text, _WITH_SCHEME[rule])
    if ends is None:
        return None
    scheme_start, scheme_end = _span(ends, Group.SCHEME)
    port_start, port_end = _span(ends, Group.PORT)
    if scheme_start < 0 or port_end <= port_start:
        return None  # no scheme, or no port digits
    port = text[port_start:port_end]
    if port_value(port) is not None:
        return None
    from .schemes import DEFAULT_REGISTRY  # the registry's tables: loaded on first use

    scheme = DEFAULT_REGISTRY.get(text[scheme_start:scheme_end])
    if scheme is None or scheme.default_port is None:
        return None
    return URIError(
        f"the port {port_shown(port)} is above {PORT_MAX}: {scheme.name}: (default port "
        f"{scheme.default_port}) names a TCP or UDP service, and no TCP or UDP port is above "
        f"{PORT_MAX} (RFC 9293 §3.1, RFC 768; RFC 3986 §3.2.3 itself sets no bound)",
        text=text,
        position=port_start,
        rule="port",
    )


def is_valid(text: str, rule: str = "URI-reference", *, ports: bool = False) -> bool:
    """Does ``text`` match the ABNF rule ``rule`` exactly?

    ``rule`` is a rule name of RFC 3986 Appendix A (``"URI"``,
    ``"URI-reference"``, ``"absolute-URI"``, ``"relative-ref"``, ``"scheme"``,
    ``"authority"``, ``"userinfo"``, ``"host"``, ``"reg-name"``, ``"port"``,
    ``"IPv4address"``, ``"IPv6address"``, ``"IPvFuture"``, ``"path"``,
    ``"segment"``, ``"query"``, ``"fragment"``, and the rest), of RFC 6874
    (``"IPv6addrz"``, ``"ZoneID"``) or of RFC 3987 §2.2 (``"IRI"``,
    ``"IRI-reference"``, ``"absolute-IRI"``, ``"irelative-ref"``, ...).  The
    IRI rules refuse the bidi formatting characters (RFC 3987 §4.1).
    With ``ports=True`` a port above 65535 is refused where the scheme has a
    registered default port (see the module docstring).
    An unknown rule name raises ``ValueError``; a non-``str`` text ``TypeError``.

    >>> is_valid("http://[::1]/", "URI"), is_valid("1.2.3.256", "IPv4address")
    (True, False)
    """
    if not isinstance(text, str):
        raise TypeError(f"is_valid() takes a str, not {type(text).__name__}")
    if ports:
        return is_valid(text, rule) and _port_error(text, rule) is None
    return _pattern_of(rule)[1].fullmatch(text) is not None


if not TYPE_CHECKING:
    # With the compiled core, the eight reference rules (a reference, with or without a
    # scheme, §4.1-§4.3, and the same for IRIs, RFC 3987 §2.2) are answered by one scan
    # in C without a Python frame; every other call is the function above.
    is_valid = _seam.validating(is_valid)


#: The rules whose errors the seam locates (the automata of diagnose.locate, in C
#: with the compiled core), by whether they read IRIs.
_LOCATED: Final = {"URI-reference": False, "IRI-reference": True}


def check(text: str, rule: str = "URI-reference", *, ports: bool = False) -> None:
    """Raise :class:`~urikit.URIError`, saying where and why, unless ``text`` matches ``rule``;
    with ``ports=True``, also for a port above 65535 where the scheme has a registered
    default port (see the module docstring)."""
    if not isinstance(text, str):
        raise TypeError(f"check() takes a str, not {type(text).__name__}")
    if ports:
        check(text, rule)
        error = _port_error(text, rule)
        if error is not None:
            raise error
        return
    if rule in _LOCATED:
        error = _seam.reference_error(text, _LOCATED[rule])
        if error is not None:
            raise error
        return
    grammar, pattern = _pattern_of(rule)
    if pattern.fullmatch(text) is None:
        from .diagnose import locate  # the walk that says where: loaded on the first error

        raise locate(text, grammar, rule)
