"""The character repairs of a lenient reading (RFC 3986 §2.1, §2.5, Appendix C).

:func:`encode_forbidden` percent-encodes, as UTF-8, every character of a reference's
text that the grammar forbids: white space, controls, non-ASCII (in a URI), bidi
formatting characters (in an IRI, RFC 3987 §4.1), ``"<>\\^`{|}``, a "[" or "]"
outside an IP literal, a second "#", and a "%" that starts no triplet (as "%25");
inside delimiters it removes white space.  Each run of one kind is one
:class:`~urikit.report.Report`, at most :data:`MAX_REPORTS` of a code, and one more
over the rest of that code.  ``urikit.lenient`` makes the repairs around the text
and checks the result; the compiled core makes the same repairs in one pass
(``_speedups.lenient_encode``), chosen by ``urikit._seam``.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import Final, NoReturn

from .errors import URIError
from .grammar import BIDI_FORMATTING, PCT_ENCODED, SCHEME, Grammar
from .report import Report, Severity

__all__ = [
    "MAX_REPORTS",
    "SEVERITIES",
    "authority",
    "encode_forbidden",
    "message",
    "refuse_surrogate",
    "summary",
]

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

#: What comes before an authority: a scheme and "//", or "//" (RFC 3986 §3).
_AUTHORITY_START: Final = re.compile(rf"\A(?:{SCHEME}:)?//")
# Three or more triplets in a row: wherever the grammar allows three it allows
# two (pct-encoded only ever repeats, and a zone ID needs "%25" and one more),
# so the repaired text is checked with each such run cut to its first two.
_TRIPLET_RUN: Final = re.compile(
    f"(?:{PCT_ENCODED}){{3,}}" + ("+" if sys.version_info >= (3, 11) else "")
)  # possessive where ``re`` has it (3.11): a run is taken whole, no state is kept


def _two_triplets(m: re.Match[str]) -> str:
    return m.group()[:6]


_BIDI: Final = re.compile(f"[{BIDI_FORMATTING}]")


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


def authority(body: str) -> tuple[int, int]:
    """Where the authority of ``body`` lies, from its "//" to the first "/", "?" or "#"
    after it (RFC 3986 §3.2), each found by ``str.find``; ``(0, 0)`` without one."""
    start = _AUTHORITY_START.match(body)
    if start is None:
        return 0, 0
    ends = [at for at in map(body.find, "/?#", [start.end()] * 3) if at >= 0]
    return start.end(), min(ends, default=len(body))


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
            report = Report(code, summary(code, chars), SEVERITIES[code], (start, end), True)
            self.reports.append(report)
        self.reports.sort(key=lambda r: r.span[0])


def summary(code: str, chars: int) -> str:
    """The message of the report over the repairs of ``code`` after the first ``MAX_REPORTS``."""
    return (
        f"{_SUMMARIES[code]}: {chars} more characters of this kind after the first "
        f"{MAX_REPORTS} reports of it, from the start of this span to its end"
    )


def encode_forbidden(
    grammar: Grammar,
    body: str,
    offset: int,
    delimited: bool,
    reports: list[Report],
    runs: list[tuple[int, int, int]] | None = None,
) -> tuple[str, str]:
    """``body`` with every character repair made, one report per run of one kind in
    ``reports`` (at most :data:`MAX_REPORTS` of a code, and one over the rest), and
    its skeleton: the same with each run of three or more triplets cut to its first
    two, valid where the repaired text is (pct-encoded only ever repeats, and a zone
    ID needs "%25" and one more), which a regular expression checks in time that
    does not grow with the runs.  ``body`` starts at ``offset`` in the input, where
    the reports' spans point; it was ``delimited`` by ``<...>`` or ``"..."``
    (Appendix C).  When ``runs`` is a list it gets ``(start, end, length of the
    replacement)`` of each piece replaced, in input positions.  A lone surrogate,
    which has no UTF-8 form, is a :class:`URIError` at its position in ``body``."""
    host_start, host_end = authority(body)
    seen_hash = False
    reporter = _Reporter(reports)
    add = reporter.add
    out: list[str] = []
    last = 0
    for match in _special(grammar, delimited).finditer(body):
        start, end = match.span()
        kind = match.lastgroup
        where = offset + start
        if kind == "forbidden":
            chars = match.group()
            if end - start == 1:  # one character: its repair is looked up, not built
                code, said, encoded = _one(chars)
                add(code, said, where, where + 1)
            else:
                for part in _KINDS.finditer(chars):
                    code = _CODES[part.lastgroup]  # type: ignore[index]
                    first, last_ = part.span()
                    if reporter.full(code):
                        reporter.more(code, where + first, where + last_)
                        continue
                    add(
                        code,
                        message(code, body, start + first, start + last_),
                        where + first,
                        where + last_,
                    )
                # Every octet of a forbidden character is encoded (§2.1, upper-case hex).
                encoded = "%" + chars.encode("utf-8").hex("%").upper()
        elif kind == "bare":
            add("bare-percent", message("bare-percent", body, start, end), where, offset + end)
            encoded = "%25" * (end - start)
        elif kind == "hash":
            if not seen_hash:
                seen_hash = True
                continue
            add("extra-hash", message("extra-hash", body, start, end), where, where + 1)
            encoded = "%23"
        elif kind == "bracket":
            if host_start <= start < host_end:
                continue
            ch = match.group()
            add("bracket", message("bracket", body, start, end), where, where + 1)
            encoded = "%5B" if ch == "[" else "%5D"
        elif kind == "space":
            add(
                "embedded-whitespace",
                message("embedded-whitespace", body, start, end),
                where,
                offset + end,
            )
            encoded = ""
        else:
            refuse_surrogate(body, start)
        out.append(body[last:start])
        out.append(encoded)
        last = end
        if runs is not None:
            runs.append((where, offset + end, len(encoded)))
    reporter.close()
    if out:
        out.append(body[last:])
        body = "".join(out)
    return body, _TRIPLET_RUN.sub(_two_triplets, body)


def refuse_surrogate(body: str, position: int) -> NoReturn:
    """Raise the error of a lone surrogate at ``position`` (RFC 3629 §3: no UTF-8)."""
    raise URIError(
        "a lone surrogate cannot be encoded as UTF-8",
        text=body,
        position=position,
        rule="pct-encoded",
    )


def message(code: str, body: str, start: int, end: int) -> str:
    """The message of the report of ``code`` over ``body[start:end]``, one run: the one
    place the messages of the repairs are written, whichever core makes them."""
    if code == "bare-percent":
        return _run(_BARE, end - start)
    if code == "extra-hash":
        return 'a second "#" encoded as "%23" (§3.5)'
    if code == "bracket":
        return f"{body[start]!r} is allowed only around an IP literal (§3.2.2)"
    if code == "embedded-whitespace":
        return _run(_EMBEDDED, end - start)
    return _run(f"{_classify(body[start])[1]}; encoded", end - start)


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
    code, said = _classify(ch)
    return code, f"{said}; encoded", "%" + ch.encode("utf-8").hex("%").upper()


def _run(said: str, count: int) -> str:
    """The message of one repair, or of a run of ``count`` like it."""
    return said if count == 1 else f"{said} (a run of {count} characters)"
