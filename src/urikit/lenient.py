"""Lenient reading of real-world input: repair what can be repaired, and report it.

Strict parsing is the default.  :func:`repair` takes text as people and
documents write it, makes the repairs listed below, and returns the repaired
text with one :class:`~urikit.report.Report` per repair, so that nothing is
fixed silently; ``URI.lenient(text)`` wraps the text into the value.

* surrounding white space, the ``<...>`` and ``"..."`` delimiters, and the
  ``URL:`` prefix are removed (RFC 3986 Appendix C);
* inside ``<...>`` or ``"..."``, white space (a line break in a wrapped URI)
  is removed (Appendix C);
* characters the grammar forbids are percent-encoded as UTF-8 (§2.1, §2.5):
  white space, controls, non-ASCII (in a URI), bidi formatting characters
  (in an IRI, RFC 3987 §4.1), ``"<>\\^`{|}``, a "[" or "]" outside an IP
  literal, and a second "#";
* a "%" that starts no triplet becomes "%25".

Each report has a stable ``code``: ``"surrounding-whitespace"``,
``"delimiters"``, ``"url-prefix"``, ``"embedded-whitespace"``,
``"whitespace"``, ``"control"``, ``"backslash"``, ``"non-ascii"``,
``"forbidden-character"``, ``"bracket"``, ``"extra-hash"``,
``"bare-percent"`` or ``"bidi-formatting"``; ``repaired=True``; and the
``span`` in the original input of what was removed or encoded: the character
for a character repair, the leading (or else the trailing) white space, the
delimited text from "<" to ">", the prefix with the white space after it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import groupby
from typing import Final

from .errors import URIError
from .grammar import (
    BIDI_FORMATTING,
    IRI_GRAMMAR,
    PCT_ENCODED,
    SCHEME,
    URI_GRAMMAR,
    URL_PREFIX,
    Grammar,
)
from .report import Report, Severity
from .validate import check, is_valid

__all__ = ["SEVERITIES", "repair"]

#: The severity of each repair: how much reading the text differently can mislead.
SEVERITIES: Final = {
    "backslash": Severity.HIGH,
    "control": Severity.HIGH,
    "whitespace": Severity.MEDIUM,
    "forbidden-character": Severity.MEDIUM,
    "bracket": Severity.MEDIUM,
    "bidi-formatting": Severity.MEDIUM,
    "extra-hash": Severity.LOW,
    "bare-percent": Severity.LOW,
    "non-ascii": Severity.LOW,
    "surrounding-whitespace": Severity.LOW,
    "embedded-whitespace": Severity.LOW,
    "delimiters": Severity.INFO,
    "url-prefix": Severity.INFO,
}

# "URL:" before a URI with a scheme (Appendix C); ``match`` anchors it at ``pos``.
_PREFIX: Final = re.compile(rf"{URL_PREFIX}\s*(?={SCHEME}:)")
_AUTHORITY: Final = re.compile(rf"\A(?:{SCHEME}:)?//([^/?#]*)")
_TRIPLET: Final = re.compile(PCT_ENCODED)
# Three or more triplets in a row: wherever the grammar allows three it allows
# two (pct-encoded only ever repeats, and a zone ID needs "%25" and one more),
# so the repaired text is checked with each such run cut to its first two.
_TRIPLET_RUN: Final = re.compile(f"(?:{PCT_ENCODED}){{3,}}")


def _two_triplets(m: re.Match[str]) -> str:
    return m.group()[:6]


_BIDI: Final = re.compile(f"[{BIDI_FORMATTING}]")


def _report(code: str, message: str, start: int, end: int) -> Report:
    return Report(code, message, SEVERITIES[code], (start, end), True)


@lru_cache(maxsize=1024)
def _classify(ch: str) -> tuple[str, str]:
    """The report code and a description of a forbidden character."""
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


def repair(text: str, *, iri: bool = False) -> tuple[str, list[Report]]:
    """``text`` repaired into a URI reference (an IRI reference with ``iri=True``), and the repairs.

    A valid reference comes back as it is, with no report, unless a scheme
    follows a ``URL:`` prefix and the rest is a reference (``URL:a:b`` gives
    ``a:b``; ``URL:foo`` and ``URL:s://h:x`` are URIs of a scheme "URL").
    What cannot be repaired raises
    :class:`~urikit.URIError` at its position in the repaired text.

    >>> text, reports = repair(" <http://a/b c>")
    >>> text, [(r.code, r.span) for r in reports]
    ('http://a/bc', [('surrounding-whitespace', (0, 1)), ('delimiters', (1, 15)), \
('embedded-whitespace', (12, 13))])
    >>> repair("http://a/\u00e9")[0], repair("http://a/\u00e9", iri=True)[0]
    ('http://a/%C3%A9', 'http://a/\u00e9')
    """
    if not isinstance(text, str):
        raise TypeError(f"lenient() takes a str, not {type(text).__name__}")
    rule = "IRI-reference" if iri else "URI-reference"
    valid = is_valid(text, rule)
    if valid and _PREFIX.match(text) is None:
        return text, []
    reports: list[Report] = []
    start, end = 0, len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start:
        reports.append(
            _report("surrounding-whitespace", "surrounding white space removed", 0, start)
        )
    elif end != len(text):
        reports.append(
            _report("surrounding-whitespace", "surrounding white space removed", end, len(text))
        )
    delimited = end - start >= 2 and (text[start], text[end - 1]) in (("<", ">"), ('"', '"'))
    if delimited:
        reports.append(
            _report("delimiters", f"delimiters {text[start]}...{text[end - 1]} removed", start, end)
        )
        start, end = start + 1, end - 1
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
    prefix = _PREFIX.match(text, start, end)
    if prefix is not None:
        reports.append(
            _report("url-prefix", 'the "URL:" prefix removed (Appendix C)', start, prefix.end())
        )
        start = prefix.end()
    grammar = IRI_GRAMMAR if iri else URI_GRAMMAR
    out = _encode_forbidden(grammar, text[start:end], start, delimited, reports)
    try:
        if not is_valid(_TRIPLET_RUN.sub(_two_triplets, out), rule):
            check(out, rule)
    except URIError as exc:
        if valid:
            # the prefix read as Appendix C leaves no reference; "url" is a scheme (§3.1)
            return text, []
        raise URIError(
            f"cannot be repaired: {exc.reason}", text=out, position=exc.position, rule=exc.rule
        ) from None
    return out, reports


@lru_cache(maxsize=2)
def _plain_run(grammar: Grammar) -> re.Pattern[str]:
    """Runs of characters a reference may hold anywhere but "%", "#", "[" and "]"."""
    # (i)query = *( (i)pchar / [iprivate] / "/" / "?" ): the widest class (§3.4);
    # the IRI classes leave out the bidi formatting characters (RFC 3987 §4.1).
    return re.compile(f"[{grammar.query_chars}]+")


@lru_cache(maxsize=4)
def _forbidden_run(grammar: Grammar, delimited: bool) -> re.Pattern[str]:
    """Runs of characters that are encoded as they stand: outside the widest class,
    but not "%", "#", "[", "]" (each handled on its own), a lone surrogate (an
    error), or white space inside delimiters (removed)."""
    space = r"\s" if delimited else ""
    return re.compile(f"[^{grammar.query_chars}%#\\[\\]\ud800-\udfff{space}]+")


def _encode_forbidden(
    grammar: Grammar, body: str, offset: int, delimited: bool, reports: list[Report]
) -> str:
    plain = _plain_run(grammar)
    forbidden = _forbidden_run(grammar, delimited)
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
                continue
            j = i  # a run of bare "%" is one repair
            while j < n and body[j] == "%" and not _TRIPLET.match(body, j):
                j += 1
            reports.append(
                _report(
                    "bare-percent",
                    _run('"%" that starts no triplet encoded as "%25"', j - i + 1),
                    where,
                    offset + j,
                )
            )
            out.append("%25" * (j - i + 1))
            i = j
        elif ch == "#" and not seen_hash:
            seen_hash = True
            out.append(ch)
        elif ch == "#":
            reports.append(
                _report("extra-hash", 'a second "#" encoded as "%23" (§3.5)', where, where + 1)
            )
            out.append("%23")
        elif ch in "[]":
            if host_start <= i - 1 < host_end:
                out.append(ch)
                continue
            reports.append(
                _report(
                    "bracket",
                    f"{ch!r} is allowed only around an IP literal (§3.2.2)",
                    where,
                    where + 1,
                )
            )
            out.append("%5B" if ch == "[" else "%5D")
        elif delimited and ch.isspace():
            j = i
            while j < n and body[j].isspace():
                j += 1
            reports.append(
                _report(
                    "embedded-whitespace",
                    _run("white space inside delimiters removed (Appendix C)", j - i + 1),
                    where,
                    offset + j,
                )
            )
            i = j
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            raise URIError(
                "a lone surrogate cannot be encoded as UTF-8",
                text=body,
                position=i - 1,
                rule="pct-encoded",
            )
        else:
            # A run of forbidden characters, each kind of them one repair.
            j = forbidden.match(body, i - 1).end()  # type: ignore[union-attr]
            if j == i:  # one character: its repair is looked up, not built
                code, message, encoded = _one(ch)
                reports.append(Report(code, message, SEVERITIES[code], (where, where + 1), True))
                out.append(encoded)
                continue
            k = i - 1
            for code, chars in groupby(body[k:j], key=_code_of):
                count = len(list(chars))
                message = _run(f"{_classify(body[k])[1]}; encoded", count)
                reports.append(_report(code, message, offset + k, offset + k + count))
                k += count
            # Every octet of a forbidden character is encoded (§2.1, upper-case hex).
            out.append("%" + body[i - 1 : j].encode("utf-8").hex("%").upper())
            i = j
    return "".join(out)


@lru_cache(maxsize=1024)
def _one(ch: str) -> tuple[str, str, str]:
    """The code, message and encoding of one forbidden character (§2.1, upper-case hex)."""
    code, message = _classify(ch)
    return code, f"{message}; encoded", "%" + ch.encode("utf-8").hex("%").upper()


def _run(message: str, count: int) -> str:
    """The message of one repair, or of a run of ``count`` like it."""
    return message if count == 1 else f"{message} (a run of {count} characters)"


def _code_of(ch: str) -> str:
    return _classify(ch)[0]
