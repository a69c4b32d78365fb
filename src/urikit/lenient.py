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

A run of characters of one kind is one report.  Hostile text can need a
million repairs: at most :data:`MAX_REPORTS` (100) reports of one code are
made, and the repairs of that code after them are one more report, whose
span runs from the first of them to the last and whose message counts them
(the characters between them that the grammar allows are kept as they are).

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
import sys
from collections import deque
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import islice
from typing import Final, NoReturn, TypeVar

from ._contracts import LENIENT_CODES
from ._store import compiled, speedups
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

__all__ = ["MAX_REPORTS", "SEVERITIES", "repair", "repair_runs", "replaced"]

_Value = TypeVar("_Value")

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
#: What comes before an authority: a scheme and "//", or "//" (RFC 3986 §3).
_AUTHORITY_START: Final = re.compile(rf"\A(?:{SCHEME}:)?//")
_TRIPLET: Final = re.compile(PCT_ENCODED)
# Three or more triplets in a row: wherever the grammar allows three it allows
# two (pct-encoded only ever repeats, and a zone ID needs "%25" and one more),
# so the repaired text is checked with each such run cut to its first two.
_TRIPLET_RUN: Final = re.compile(
    f"(?:{PCT_ENCODED}){{3,}}" + ("+" if sys.version_info >= (3, 11) else "")
)  # possessive where ``re`` has it (3.11): a run is taken whole, no state is kept


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
    repaired, reports, _ = _repair(text, iri, None)
    return repaired, reports


def repair_value(
    text: str, iri: bool, scan: Callable[[str], _Value | None]
) -> tuple[str, list[Report], _Value | None]:
    """:func:`repair`, and ``scan(repaired)`` (a value, ``None`` for text that is not a
    reference) where the check of the repaired text can be that scan, or ``None``."""
    return _repair(text, iri, None, scan)


def repair_runs(
    text: str, *, iri: bool = False
) -> tuple[str, list[Report], list[tuple[int, int, int]]]:
    """:func:`repair`, and where it replaced what: ``(start, end, length)`` of each
    piece of ``text`` replaced by ``length`` characters, in order.  What the
    repairs around the reference removed (white space, delimiters, a prefix)
    is read from the reports."""
    runs: list[tuple[int, int, int]] = []
    repaired, reports, _ = _repair(text, iri, runs)
    return repaired, reports, runs


def _authority(body: str) -> tuple[int, int]:
    """Where the authority of ``body`` lies, from its "//" to the first "/", "?" or "#"
    after it (RFC 3986 §3.2), each found by ``str.find``; ``(0, 0)`` without one."""
    start = _AUTHORITY_START.match(body)
    if start is None:
        return 0, 0
    ends = [at for at in map(body.find, "/?#", [start.end()] * 3) if at >= 0]
    return start.end(), min(ends, default=len(body))


def replaced(text: str, *, iri: bool = False) -> list[tuple[int, int, int]]:
    """Where :func:`repair` replaces what in ``text``: ``(start, end, length)`` of pieces
    of ``text`` replaced by ``length`` characters, in order, as :func:`repair_runs`
    lists them or cut finer (one of its pieces may come as several that follow one
    another, which place every character the same way): white space inside
    delimiters removed (RFC 3986 Appendix C), anything else three characters an
    octet of its UTF-8 (§2.1, §2.5).  With the compiled core one call into C, else
    :func:`repair_runs`; none for a text that needs no repair."""
    if _compiled_encode is None:
        return repair_runs(text, iri=iri)[2]
    if is_valid(text, "IRI-reference" if iri else "URI-reference") and _PREFIX.match(text) is None:
        return []
    start, end, delimited = _body(text, [])
    body = text[start:end]
    host_end = _authority(body)[1]
    encoded = _compiled_encode(body, iri, delimited, host_end, body.find("#"), len(body) + 1)
    if isinstance(encoded, int):
        _refuse_surrogate(body, encoded)
    pieces = []
    for number, first, last in encoded[1]:  # every run: the limit is above their number
        piece = body[first:last]
        if _ENCODE_CODES[number] == "embedded-whitespace":
            length = 0
        else:  # three characters for each octet of UTF-8 (§2.1, §2.5)
            length = 3 * (len(piece) if piece.isascii() else len(piece.encode("utf-8")))
        pieces.append((start + first, start + last, length))
    return pieces


def _repair(
    text: str,
    iri: bool,
    runs: list[tuple[int, int, int]] | None,
    scan: Callable[[str], _Value | None] | None = None,
) -> tuple[str, list[Report], _Value | None]:
    """:func:`repair`; ``runs`` gets the pieces replaced when it is a list; with
    ``scan``, the repaired text is checked by it when it can be, and its value is
    returned (else ``None``)."""
    if not isinstance(text, str):
        raise TypeError(f"lenient() takes a str, not {type(text).__name__}")
    rule = "IRI-reference" if iri else "URI-reference"
    valid = is_valid(text, rule)
    if valid and _PREFIX.match(text) is None:
        return text, [], None
    reports: list[Report] = []
    start, end, delimited = _body(text, reports)
    grammar = IRI_GRAMMAR if iri else URI_GRAMMAR
    body = text[start:end]
    if runs is None:
        out = skeleton = _encode_all(grammar, body, start, delimited, reports)
    else:
        out, skeleton = _encode_forbidden(grammar, body, start, delimited, reports, runs)
    if not compiled:  # the compiled scanner reads long runs of triplets fast, the regex not
        skeleton = _TRIPLET_RUN.sub(_two_triplets, skeleton)
    value = None
    try:
        if scan is not None and skeleton is out:  # one scan checks and reads the text
            value = scan(out)
            if value is None:
                check(out, rule)
        elif not is_valid(skeleton, rule):
            check(out, rule)
    except URIError as exc:
        if valid:
            # the prefix read as Appendix C leaves no reference; "url" is a scheme (§3.1)
            return text, [], None
        raise URIError(
            f"cannot be repaired: {exc.reason}", text=out, position=exc.position, rule=exc.rule
        ) from None
    return out, reports, value


def _body(text: str, reports: list[Report]) -> tuple[int, int, bool]:
    """Where the reference lies in ``text`` once white space around it, delimiters and a
    ``URL:`` prefix are taken off (Appendix C), and whether it was delimited; a report
    of each in ``reports``."""
    start, end = _strip(text, 0, len(text))
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
        start, end = _strip(text, start + 1, end - 1)
    prefix = _PREFIX.match(text, start, end)
    if prefix is not None:
        reports.append(
            _report("url-prefix", 'the "URL:" prefix removed (Appendix C)', start, prefix.end())
        )
        start = prefix.end()
    return start, end, delimited


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` without the white space around it, as a span."""
    inner = text[start:end]
    kept = inner.lstrip()
    start += len(inner) - len(kept)
    return start, start + len(kept.rstrip())


#: At most this many reports of one code; the repairs of that code after them are
#: one more report, whose span runs from the first of them to the last.
MAX_REPORTS: Final = 100


@lru_cache(maxsize=4)
def _special(grammar: Grammar, delimited: bool) -> re.Pattern[str]:
    """What a repair looks at: a run of bare "%", a "#", a "[" or "]", a lone
    surrogate, white space inside delimiters, and a run of characters that are
    encoded as they stand (outside the widest class, (i)query, §3.4; the IRI
    classes leave out the bidi formatting characters, RFC 3987 §4.1).
    Everything else (the characters of the class and pct-encoded triplets) is
    kept, and the pattern skips it."""
    space = r"\s" if delimited else ""
    return re.compile(
        r"(?P<bare>(?:%(?![0-9A-Fa-f]{2}))+)|(?P<hash>#)|(?P<bracket>[\[\]])"
        r"|(?P<surrogate>[\ud800-\udfff])"
        + (r"|(?P<space>\s+)" if delimited else "")
        + f"|(?P<forbidden>[^{grammar.query_chars}%#\\[\\]\ud800-\udfff{space}]+)"
    )


#: A run of forbidden characters cut into runs of one kind, in the order of
#: ``_classify``: bidi formatting, white space, controls, "\\", other non-ASCII,
#: other ASCII.
_KINDS: Final = re.compile(
    f"(?P<bidi_formatting>[{BIDI_FORMATTING}]+)"
    r"|(?P<whitespace>\s+)"
    r"|(?P<control>[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]+)"  # the C0, C1 not \s
    r"|(?P<backslash>\\+)"
    f"|(?P<non_ascii>[^\\x00-\\x9f\\s{BIDI_FORMATTING}]+)"
    r"|(?P<forbidden_character>[^\\\s\x00-\x1f\x7f-\U0010ffff]+)"
)

#: What a repair of each code says of a run, for the report that counts the rest.
_SUMMARIES: Final = {
    "whitespace": "white space encoded (§2, Appendix C)",
    "control": "control characters encoded (§2)",
    "backslash": "backslashes encoded (§2)",
    "non-ascii": "non-ASCII characters encoded as UTF-8 (§2.5)",
    "forbidden-character": "characters not allowed in a URI encoded (§2)",
    "bidi-formatting": "bidi formatting characters encoded (RFC 3987 §4.1)",
    "bracket": '"[" or "]" outside an IP literal encoded (§3.2.2)',
    "extra-hash": '"#" after the first encoded as "%23" (§3.5)',
    "bare-percent": '"%" that starts no triplet encoded as "%25"',
    "embedded-whitespace": "white space inside delimiters removed (Appendix C)",
}


class _Reporter:
    """The reports of one repair, at most ``MAX_REPORTS`` of a code and then one
    report over the rest of that code (hostile text can need a million repairs)."""

    def __init__(self, reports: list[Report]) -> None:
        self.reports = reports
        self.counts: dict[str, int] = {}
        self.rest: dict[str, list[int]] = {}  # code: [start, end, characters]

    def add(self, code: str, message: str, start: int, end: int) -> None:
        count = self.counts.get(code, 0)
        if count < MAX_REPORTS:
            self.counts[code] = count + 1
            self.reports.append(Report(code, message, SEVERITIES[code], (start, end), True))
        else:
            self.more(code, start, end)

    def full(self, code: str) -> bool:
        """Are the reports of ``code`` all made, so that the rest only count?"""
        return self.counts.get(code, 0) >= MAX_REPORTS

    def more(self, code: str, start: int, end: int) -> None:
        rest = self.rest.get(code)
        if rest is None:
            self.rest[code] = [start, end, end - start]
        else:
            rest[1] = end
            rest[2] += end - start

    def close(self) -> None:
        """Add the reports over the rest, and put every report in the order of its span."""
        for code, (start, end, chars) in self.rest.items():
            report = Report(code, _summary(code, chars), SEVERITIES[code], (start, end), True)
            self.reports.append(report)
        self.reports.sort(key=lambda r: r.span[0])


def _summary(code: str, chars: int) -> str:
    """The message of the report over the repairs of ``code`` after the first ``MAX_REPORTS``."""
    return (
        f"{_SUMMARIES[code]}: {chars} more characters of this kind after the first "
        f"{MAX_REPORTS} reports of it, from the start of this span to its end"
    )


def _encode_forbidden(
    grammar: Grammar,
    body: str,
    offset: int,
    delimited: bool,
    reports: list[Report],
    runs: list[tuple[int, int, int]],
) -> tuple[str, str]:
    """``body`` with every repair made, one report per run of one kind (at most
    ``MAX_REPORTS`` of a code), and its skeleton: the same with each replacement
    cut to its first two triplets, valid where the repaired text is (pct-encoded
    only ever repeats, and a zone ID needs "%25" and one more); ``runs`` gets
    ``(start, end, length of the replacement)`` of each piece replaced, in
    input positions."""
    host_start, host_end = _authority(body)
    seen_hash = False
    reporter = _Reporter(reports)
    add = reporter.add
    out: list[str] = []
    longest = 0
    last = 0
    for match in _special(grammar, delimited).finditer(body):
        start, end = match.span()
        kind = match.lastgroup
        where = offset + start
        if kind == "forbidden":
            chars = match.group()
            if end - start == 1:  # one character: its repair is looked up, not built
                code, message, encoded = _one(chars)
                add(code, message, where, where + 1)
            else:
                for part in _KINDS.finditer(chars):
                    code = _CODES[part.lastgroup]  # type: ignore[index]
                    first, last_ = part.span()
                    if reporter.full(code):
                        reporter.more(code, where + first, where + last_)
                        continue
                    message = _message(code, body, start + first, start + last_)
                    add(code, message, where + first, where + last_)
                # Every octet of a forbidden character is encoded (§2.1, upper-case hex).
                encoded = "%" + chars.encode("utf-8").hex("%").upper()
                longest = max(longest, len(encoded))
        elif kind == "bare":
            add("bare-percent", _message("bare-percent", body, start, end), where, offset + end)
            encoded = "%25" * (end - start)
            longest = max(longest, len(encoded))
        elif kind == "hash":
            if not seen_hash:
                seen_hash = True
                continue
            add("extra-hash", _message("extra-hash", body, start, end), where, where + 1)
            encoded = "%23"
        elif kind == "bracket":
            if host_start <= start < host_end:
                continue
            ch = match.group()
            add("bracket", _message("bracket", body, start, end), where, where + 1)
            encoded = "%5B" if ch == "[" else "%5D"
        elif kind == "space":
            message = _message("embedded-whitespace", body, start, end)
            add("embedded-whitespace", message, where, offset + end)
            encoded = ""
        else:
            raise URIError(
                "a lone surrogate cannot be encoded as UTF-8",
                text=body,
                position=start,
                rule="pct-encoded",
            )
        out.append(body[last:start])
        out.append(encoded)  # the replacements are the odd items of ``out``
        last = end
        runs.append((where, offset + end, len(encoded)))
    reporter.close()
    if not out:
        return body, body
    out.append(body[last:])
    repaired = "".join(out)
    if longest <= _SKELETON_PIECE:
        return repaired, repaired
    out[1::2] = [piece[:_SKELETON_PIECE] for piece in out[1::2]]
    return repaired, "".join(out)


_SKELETON_PIECE: Final = 6  # two triplets
_SMALL_CLASS: Final = 256
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_BARE_PERCENT: Final = re.compile("%(?![0-9A-Fa-f]{2})")
_BARE_RUN: Final = re.compile("(?:%(?![0-9A-Fa-f]{2}))+")
_HASH: Final = re.compile("#")
_BRACKET: Final = re.compile(r"[\[\]]")
_SPACE_RUN: Final = re.compile(r"\s+")


@lru_cache(maxsize=4)
def _forbidden_run(grammar: Grammar, delimited: bool) -> re.Pattern[str]:
    """A run of characters encoded as they stand (``_special``'s ``forbidden``)."""
    space = r"\s" if delimited else ""
    return re.compile(f"[^{grammar.query_chars}%#\\[\\]\ud800-\udfff{space}]+")


@lru_cache(maxsize=4)
def _kind_runs(grammar: Grammar, delimited: bool) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """For each code of a forbidden character, the pattern of a run of the characters
    of that code that are encoded as they stand (``_special``'s ``forbidden``)."""
    space = r"\s" if delimited else ""
    kept = f"{grammar.query_chars}%#\\[\\]\ud800-\udfff{space}"
    kinds = []
    for group, pattern in zip(_CODES, _KINDS.pattern.split("|"), strict=True):
        cls = pattern[pattern.index(">") + 1 : -2]  # the class of (?P<name>[...]+)
        kinds.append((_CODES[group], re.compile(f"(?:(?![{kept}]){cls})+")))
    return tuple(kinds)


def _encode_all(
    grammar: Grammar, body: str, offset: int, delimited: bool, reports: list[Report]
) -> str:
    """What :func:`_encode_forbidden` gives, with the same reports: by one call into C
    with the compiled core, else by :func:`_encode_all_readable`."""
    host_end = _authority(body)[1]
    first_hash = body.find("#")
    if _compiled_encode is None:
        surrogate = _SURROGATE.search(body)
        if surrogate is not None:
            _refuse_surrogate(body, surrogate.start())
        return _encode_all_readable(grammar, body, offset, delimited, reports, host_end, first_hash)
    encoded = _compiled_encode(
        body, grammar is IRI_GRAMMAR, delimited, host_end, first_hash, MAX_REPORTS
    )
    if isinstance(encoded, int):
        _refuse_surrogate(body, encoded)
    out: str
    runs: list[tuple[int, int, int]]
    rest: list[tuple[int, int, int, int]]
    out, runs, rest = encoded
    for number, start, end in runs:
        code = _ENCODE_CODES[number]
        span = (offset + start, offset + end)
        message = _message(code, body, start, end)
        reports.append(Report(code, message, SEVERITIES[code], span, True))
    for number, start, end, chars in rest:
        code = _ENCODE_CODES[number]
        span = (offset + start, offset + end)
        reports.append(Report(code, _summary(code, chars), SEVERITIES[code], span, True))
    reports.sort(key=lambda r: r.span[0])  # as _Reporter.close sorts them
    return out


def _refuse_surrogate(body: str, position: int) -> NoReturn:
    """Raise the error of a lone surrogate at ``position`` (RFC 3629 §3: no UTF-8)."""
    raise URIError(
        "a lone surrogate cannot be encoded as UTF-8",
        text=body,
        position=position,
        rule="pct-encoded",
    )


#: The report codes of ``_speedups.lenient_encode``, by its numbers.
_ENCODE_CODES: Final = LENIENT_CODES
_compiled_encode: Final = None if speedups is None else speedups.lenient_encode


def _message(code: str, body: str, start: int, end: int) -> str:
    """The message of the report of ``code`` over ``body[start:end]``, one run: the one
    place the messages of the repairs are written, for both ways of repairing."""
    if code == "bare-percent":
        return _run(_BARE, end - start)
    if code == "extra-hash":
        return 'a second "#" encoded as "%23" (§3.5)'
    if code == "bracket":
        return f"{body[start]!r} is allowed only around an IP literal (§3.2.2)"
    if code == "embedded-whitespace":
        return _run(_EMBEDDED, end - start)
    return _run(f"{_classify(body[start])[1]}; encoded", end - start)


def _encode_all_readable(
    grammar: Grammar,
    body: str,
    offset: int,
    delimited: bool,
    reports: list[Report],
    host_end: int,
    first_hash: int,
) -> str:
    """:func:`_encode_all` made a pattern at a time (each a pass in C over the text,
    whatever the number of repairs): the reference for the compiled pass.  ``body``
    holds no lone surrogate; its authority's host ends at ``host_end`` (0 without
    one) and its first "#" is at ``first_hash`` (-1 without one)."""
    found: list[Report] = []
    # --- the reports, at most MAX_REPORTS of a code and one over the rest of it
    forbidden = _distinct("".join(_forbidden_run(grammar, delimited).findall(body)))
    by_code: dict[str, list[str]] = {}
    for ch in forbidden:
        by_code.setdefault(_classify(ch)[0], []).append(ch)
    kinds = dict(_kind_runs(grammar, delimited))
    for code, chars in by_code.items():
        if len(chars) <= _SMALL_CLASS:
            # a run of the code's characters that occur: a plain class, searched fast
            pattern = re.compile("[" + "".join(map(re.escape, chars)) + "]+")
            _report_runs(code, pattern, body, 0, offset, found, _counted(body, chars))
        else:
            pattern = kinds[code]
            _report_runs(code, pattern, body, 0, offset, found, _matched(body, pattern))
    if "%" in body:
        _report_runs(
            "bare-percent", _BARE_RUN, body, 0, offset, found, _matched(body, _BARE_PERCENT)
        )
    if first_hash >= 0:
        _report_runs("extra-hash", _HASH, body, first_hash + 1, offset, found, _counted(body, "#"))
    if "[" in body or "]" in body:
        _report_runs("bracket", _BRACKET, body, host_end, offset, found, _counted(body, "[]"))
    if delimited:
        _report_runs(
            "embedded-whitespace", _SPACE_RUN, body, 0, offset, found, _matched(body, _SPACE_RUN)
        )
    reports.extend(found)
    reports.sort(key=lambda r: r.span[0])  # as _Reporter.close sorts them
    # --- the repairs, in an order in which none changes what another sees
    out = body
    if "[" in out or "]" in out:  # no "[" or "]" comes before the host (a scheme has none)
        out = out[:host_end] + out[host_end:].replace("[", "%5B").replace("]", "%5D")
    if first_hash >= 0:
        first_hash = out.find("#")
        out = out[: first_hash + 1] + out[first_hash + 1 :].replace("#", "%23")
    if "%" in out:
        out = _BARE_PERCENT.sub("%25", out)
    if delimited:
        out = _SPACE_RUN.sub("", out)
    if len(forbidden) <= _FEW:  # a pass in C per character beats translate's per-character lookup
        for ch in forbidden:
            out = out.replace(ch, _one(ch)[2])
    else:
        out = out.translate({ord(ch): _one(ch)[2] for ch in forbidden})
    return out


_FEW: Final = 16


def _distinct(text: str) -> set[str]:
    """The distinct characters of ``text``.

    While they are few, one character at a time is taken out with ``str.replace``
    (a pass in C each, at most ``_FEW`` of them); ``set`` reads what is left, if
    anything, making an object of every character it reads.
    """
    found: set[str] = set()
    for _ in range(_FEW):
        if not text:
            return found
        found.add(text[0])
        text = text.replace(text[0], "")
    found.update(text)
    return found


Rest = Callable[[int], tuple[int, int]]


def _counted(body: str, chars: Iterable[str]) -> Rest:
    """How many of ``chars`` occur in ``body`` from a position, and where the last ends."""

    def rest(start: int) -> tuple[int, int]:
        count = sum(body.count(ch, start) for ch in chars)
        return count, max(body.rfind(ch, start) for ch in chars) + 1

    return rest


def _matched(body: str, pattern: re.Pattern[str]) -> Rest:
    """How many characters ``pattern`` matches in ``body`` from a position, and where
    its last match ends."""

    def rest(start: int) -> tuple[int, int]:
        count = sum(map(len, pattern.findall(body, start)))
        (last,) = deque(pattern.finditer(body, start), maxlen=1)
        return count, last.end()

    return rest


def _report_runs(
    code: str,
    pattern: re.Pattern[str],
    body: str,
    start: int,
    offset: int,
    reports: list[Report],
    rest: Rest,
) -> None:
    """A report per run of ``pattern`` in ``body`` from ``start``, the first
    ``MAX_REPORTS`` of them, and one over the rest (as ``_Reporter`` makes them)."""
    severity = SEVERITIES[code]
    runs = pattern.finditer(body, start)
    for run in islice(runs, MAX_REPORTS):
        span = (offset + run.start(), offset + run.end())
        message = _message(code, body, run.start(), run.end())
        reports.append(Report(code, message, severity, span, True))
    first = next(runs, None)
    if first is None:
        return
    chars, end = rest(first.start())
    span = (offset + first.start(), offset + end)
    reports.append(Report(code, _summary(code, chars), severity, span, True))


_BARE: Final = '"%" that starts no triplet encoded as "%25"'
_EMBEDDED: Final = "white space inside delimiters removed (Appendix C)"
_CODES: Final = {
    "bidi_formatting": "bidi-formatting",
    "whitespace": "whitespace",
    "control": "control",
    "backslash": "backslash",
    "non_ascii": "non-ascii",
    "forbidden_character": "forbidden-character",
}


@lru_cache(maxsize=1024)
def _one(ch: str) -> tuple[str, str, str]:
    """The code, message and encoding of one forbidden character (§2.1, upper-case hex)."""
    code, message = _classify(ch)
    return code, f"{message}; encoded", "%" + ch.encode("utf-8").hex("%").upper()


def _run(message: str, count: int) -> str:
    """The message of one repair, or of a run of ``count`` like it."""
    return message if count == 1 else f"{message} (a run of {count} characters)"
