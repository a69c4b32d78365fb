"""Lenient parsing of real-world input: repair what can be repaired, and report it.

Strict parsing is the default.  ``URI.lenient(text)`` accepts text as people
and documents write it, makes the repairs listed below, and returns every
repair as a :class:`Violation` so that nothing is fixed silently:

* surrounding white space, the ``<...>`` and ``"..."`` delimiters, and the
  ``URL:`` prefix are removed (RFC 3986 Appendix C);
* inside ``<...>`` or ``"..."``, white space (a line break in a wrapped URI)
  is removed (Appendix C);
* characters the grammar forbids are percent-encoded as UTF-8 (§2.1, §2.5):
  white space, controls, non-ASCII (in a URI), ``"<>\\^`{|}``, a "[" or "]"
  outside an IP literal, and a second "#";
* a "%" that starts no triplet becomes "%25".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import quote_from_bytes

from .errors import URIError
from .grammar import BIDI_FORMATTING, PCT_ENCODED, URI_GRAMMAR, Grammar

if TYPE_CHECKING:
    from .uri import Repaired, _Reference

__all__ = ["Violation"]


@dataclass(frozen=True)
class Violation:
    """One repair made by a lenient parse (RFC 3986 §2, Appendix C).

    ``code`` is stable: ``"surrounding-whitespace"``, ``"delimiters"``,
    ``"url-prefix"``, ``"embedded-whitespace"``, ``"whitespace"``,
    ``"control"``, ``"backslash"``, ``"non-ascii"``, ``"forbidden-character"``,
    ``"bracket"``, ``"extra-hash"``, ``"bare-percent"`` or ``"bidi-formatting"``.
    ``position`` is the index in the original input, ``char`` the character concerned (if one).
    """

    code: str
    position: int
    message: str
    char: str | None = None


# "URL:" before a URI with a scheme (Appendix C); ``match`` anchors it at ``pos``.
_SCHEME: Final = URI_GRAMMAR.sources["scheme"]
_PREFIX: Final = re.compile(rf"[Uu][Rr][Ll]:\s*(?={_SCHEME}:)")
_AUTHORITY: Final = re.compile(rf"\A(?:{_SCHEME}:)?//([^/?#]*)")
_TRIPLET: Final = re.compile(PCT_ENCODED)
_BIDI: Final = re.compile(f"[{BIDI_FORMATTING}]")


def _classify(ch: str) -> tuple[str, str]:
    """The violation code and a description of a forbidden character."""
    code = ord(ch)
    if _BIDI.fullmatch(ch):
        return "bidi-formatting", (
            "bidi formatting characters are not allowed in an IRI (RFC 3987 §4.1)"
        )
    if ch.isspace():
        return "whitespace", "white space is not allowed in a URI (§2, Appendix C)"
    if code < 0x20 or 0x7F <= code < 0xA0:
        return "control", "control characters are not allowed in a URI (§2)"
    if ch == "\\":
        return "backslash", 'a backslash is not a URI character; it is not "/" (§2)'
    if code > 0x7F:
        return "non-ascii", "non-ASCII characters must be percent-encoded as UTF-8 (§2.5)"
    return "forbidden-character", f"{ch!r} is not allowed in a URI (§2)"


def repair(cls: type[_Reference], text: str) -> Repaired:
    """The lenient parse behind ``URI.lenient`` and ``IRI.lenient``."""
    from .uri import Repaired

    if not isinstance(text, str):
        raise TypeError(f"lenient() takes a str, not {type(text).__name__}")
    if _PREFIX.match(text) is None:
        try:
            return Repaired(cls(text), [])
        except URIError:
            pass
    violations: list[Violation] = []
    start, end = 0, len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if (start, end) != (0, len(text)):
        violations.append(Violation("surrounding-whitespace", 0, "surrounding white space removed"))
    delimited = end - start >= 2 and (text[start], text[end - 1]) in (("<", ">"), ('"', '"'))
    if delimited:
        violations.append(
            Violation("delimiters", start, f"delimiters {text[start]}...{text[end - 1]} removed")
        )
        start, end = start + 1, end - 1
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
    prefix = _PREFIX.match(text, start, end)
    if prefix is not None:
        violations.append(Violation("url-prefix", start, 'the "URL:" prefix removed (Appendix C)'))
        start = prefix.end()
    body = text[start:end]
    out = _encode_forbidden(cls, body, start, delimited, violations)
    try:
        return Repaired(cls(out), violations)
    except URIError as exc:
        raise URIError(
            f"cannot be repaired: {exc.reason}", text=out, position=exc.position, rule=exc.rule
        ) from None


def _plain_run(grammar: Grammar) -> re.Pattern[str]:
    """Runs of characters a reference may hold anywhere but "%", "#", "[" and "]"."""
    pattern = _PLAIN_RUNS.get(grammar.name)
    if pattern is None:
        # (i)query = *( (i)pchar / [iprivate] / "/" / "?" ): the widest class (§3.4)
        # with bidi formatting characters left out of an IRI (RFC 3987 §4.1)
        run = (
            f"(?:(?![{BIDI_FORMATTING}])[{grammar.query_chars}])+"
            if grammar.iri
            else (f"[{grammar.query_chars}]+")
        )
        pattern = _PLAIN_RUNS[grammar.name] = re.compile(run)
    return pattern


_PLAIN_RUNS: dict[str, re.Pattern[str]] = {}


def _encode_forbidden(
    cls: type[_Reference], body: str, offset: int, delimited: bool, violations: list[Violation]
) -> str:
    plain = _plain_run(cls._grammar)
    authority = _AUTHORITY.match(body)
    host_start, host_end = authority.span(1) if authority else (0, 0)
    seen_hash = False
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        run = plain.match(body, i)
        if run is not None:
            out.append(run.group())
            i = run.end()
            continue
        ch = body[i]
        where = offset + i
        i += 1
        if ch == "%":
            if _TRIPLET.match(body, i - 1):
                out.append(ch)
            else:
                violations.append(
                    Violation(
                        "bare-percent", where, '"%" that starts no triplet encoded as "%25"', ch
                    )
                )
                out.append("%25")
        elif ch == "#" and not seen_hash:
            seen_hash = True
            out.append(ch)
        elif ch == "#":
            violations.append(
                Violation("extra-hash", where, 'a second "#" encoded as "%23" (§3.5)', ch)
            )
            out.append("%23")
        elif ch in "[]":
            if host_start <= i - 1 < host_end:
                out.append(ch)
                continue
            violations.append(
                Violation(
                    "bracket", where, f"{ch!r} is allowed only around an IP literal (§3.2.2)", ch
                )
            )
            out.append("%5B" if ch == "[" else "%5D")
        elif delimited and ch.isspace():
            violations.append(
                Violation(
                    "embedded-whitespace",
                    where,
                    "white space inside delimiters removed (Appendix C)",
                    ch,
                )
            )
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            raise URIError(
                "a lone surrogate cannot be encoded as UTF-8",
                text=body,
                position=i - 1,
                rule="pct-encoded",
            )
        else:
            code, message = _classify(ch)
            violations.append(Violation(code, where, f"{message}; encoded", ch))
            out.append(quote_from_bytes(ch.encode("utf-8"), ""))
    return "".join(out)
