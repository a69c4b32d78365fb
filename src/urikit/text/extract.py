"""URIs in running text: RFC 3986 Appendix C, "Delimiting a URI in Context".

:func:`extract` finds the URIs of a text in one left-to-right pass and yields
them lazily as :class:`Match` values.  A URI is recognised in three contexts
(Appendix C):

* **angle brackets** ``<...>``: any scheme counts; white space and line breaks
  inside are removed (a hyphen before a line break is kept); a ``URL:``
  prefix, with or without a trailing space, is dropped;
* **double quotes** ``"..."`` (or ``“...”``): any scheme counts; the content
  is one word, except that a line break after a hyphen is joined; trailing
  sentence punctuation inside the quotes (``"http://x/."``) is excluded;
* **white space** (undelimited): only a scheme followed by "//", or a scheme
  of the registry whose URIs need no authority (``mailto:``, ``urn:``), counts,
  so prose such as ``Note: this`` or ``3:4`` yields nothing; trailing
  ``.,;:!?'`` (and the markup emphasis ``*_~``) is excluded; parentheses and
  brackets that balance inside the URI are kept and an unbalanced closing one
  ends it.  A line break is never joined here: without delimiters nothing
  says that the next line goes on with the URI.

With ``suffix=True``, suffix references (RFC 3986 §4.5, ``www.w3.org/Addressing/``)
are completed with ``default_scheme`` when they begin with a domain name of the
DNS: a name with a registrable domain under a public suffix that the ICANN section
of the Public Suffix List names (:mod:`urikit.sites`), its last label in lower
case unless it begins with ``www.``; under a country-code top-level domain that is
the whole public suffix (``.de``, ``.io``, ``.py``), only with ``www.`` or a path,
since file names take that form (``setup.py``, ``README.md``).

A match's span is the URI text itself: it excludes the delimiters and the
``URL:`` prefix, and includes the white space of a broken line.  A candidate
that is not a valid URI is parsed leniently (``URI.lenient``): a sensible
repair (percent-encoding a non-ASCII letter, a "[" outside an IP literal) is
kept and reported in ``Match.reports``; a candidate that cannot be
repaired is skipped.

Every step looks at each character a bounded number of times, and no regular
expression here has nested quantifiers that can backtrack: the work is linear
in the length of the text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Final

from ..errors import URIError
from ..grammar import ALPHA, DIGIT, RESERVED, SCHEME, UNRESERVED, URL_PREFIX
from ..report import Report
from ..schemes import DEFAULT_REGISTRY, SchemeRegistry
from ..uri import URI
from .repairs import repair

__all__ = ["Match", "extract"]


@dataclass(frozen=True, slots=True)
class Match:
    """One URI found in a text (RFC 3986 Appendix C).

    ``start`` and ``end`` are the span of the URI in the input (character
    offsets; delimiters and a ``URL:`` prefix excluded), ``text`` is
    ``input[start:end]`` (with the white space of a broken line, if any),
    ``uri`` the URI, and ``reports`` the changes made to get it, each with
    ``repaired=True`` and its span in the input: lenient percent-encodings
    and the completion of a suffix reference.  ``str(match)`` is the URI.
    """

    start: int
    end: int
    text: str
    uri: URI
    reports: tuple[Report, ...] = ()

    def __str__(self) -> str:
        return str(self.uri)


def _ascii_members(cls: str) -> str:
    """The printable ASCII characters of the class body ``cls`` (from grammar.py)."""
    pattern = re.compile(f"[{cls}]")
    return "".join(ch for ch in map(chr, range(0x21, 0x7F)) if pattern.fullmatch(ch))


# The characters of a URI (§2): unreserved / reserved, and "%" of pct-encoded.
_URI_CHARS: Final = _ascii_members(UNRESERVED + RESERVED) + "%"
_BRACKETS: Final = "()[]"
_OPENER: Final = {")": "(", "]": "["}
# A non-ASCII letter or digit: kept in a candidate, percent-encoded by the
# lenient parse (an IRI character written in a text, RFC 3987 §3.1).
_WIDE: Final = r"[^\x00-\x7f\W]"
# A run of URI characters other than brackets; and of all URI characters.
# (The two classes are disjoint, ASCII and not, so the runs read each character once.)
_PLAIN: Final = re.compile(
    "(?:[" + re.escape("".join(c for c in _URI_CHARS if c not in _BRACKETS)) + f"]+|{_WIDE}+)*"
)
_RUN: Final = re.compile(f"(?:[{re.escape(_URI_CHARS)}]+|{_WIDE}+)*")
_SPACE: Final = re.compile(r"\s*")
_LINE_END: Final = re.compile(r"\r\n|\r|\n")
# A line break with the blanks around it (Appendix C: after a hyphen, all of it
# is ignored and the hyphen is kept).
_HYPHEN_BREAK: Final = re.compile(r"[ \t]*(?:\r\n|\r|\n)[ \t]*")
# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), not inside a longer word.
_SCHEME: Final = SCHEME
_NOT_AFTER_WORD: Final = r"(?<![^\W_])(?<![+.\-])"
_SCHEME_AT: Final = re.compile(f"({_SCHEME}):")
_URL_PREFIX: Final = re.compile(URL_PREFIX + r"\s*")
# A dotted name, the host of a suffix reference (§4.5), made of the labels of
# RFC 1034 §3.5 (<let-dig-hyp>); checked further by _is_host.  It may not
# follow a character of a word, an email address or a path.
_LABEL: Final = f"[{ALPHA}{DIGIT}\\-]"
_DOTTED: Final = re.compile(f"{_LABEL}+(?:\\.{_LABEL}+)+")
_NOT_IN_NAME: Final = r"(?<![\w.@%+\-/:~])"
_HOST_START: Final = f"{_NOT_IN_NAME}[{ALPHA}{DIGIT}]{_LABEL}*\\.[{ALPHA}{DIGIT}]"
_OPEN_QUOTES: Final = {'"': '"', "\u201c": "\u201d"}
# A delimiter counts only before what a candidate must begin with, a scheme or a
# host name (a letter or digit), after blanks (in "<...>") and a "URL:" prefix:
# a stray "<" or quote costs one look, not a scan.
_OPENS: Final = (
    f"<(?=\\s*(?:{_URL_PREFIX.pattern})?[{ALPHA}{DIGIT}])"
    f'|["\u201c](?=(?:{_URL_PREFIX.pattern})?[{ALPHA}{DIGIT}])'
)
_FIND: Final = re.compile(f"(?P<open>{_OPENS})|{_NOT_AFTER_WORD}(?P<scheme>{_SCHEME}):")
_FIND_SUFFIX: Final = re.compile(f"{_FIND.pattern}|(?P<host>{_HOST_START})")
_HOST_BOUNDARY: Final = re.compile(_NOT_IN_NAME)
# Sentence punctuation that ends an undelimited URI rather than belonging to it,
# and the emphasis marks of lightweight markup (as GitHub Flavored Markdown's
# autolinks leave out "*", "_" and "~").
_TRAILING: Final = ".,;:!?'*_~"
# The most characters of a domain name (RFC 1035 §2.3.4: 255 octets on the wire).
_MAX_NAME: Final = 253
# The length of a country-code top-level domain: two letters (RFC 1591 §2, ISO 3166-1
# alpha-2), and every two-letter top-level domain is one.
_COUNTRY_CODE: Final = 2
_TRAILING_QUOTED: Final = ".,;:!?"

Pieces = list[tuple[int, int]]


def extract(
    text: str,
    *,
    registry: Container[str] = DEFAULT_REGISTRY,
    suffix: bool = False,
    default_scheme: str = "http",
) -> Iterator[Match]:
    """The URIs in ``text``, in order, lazily (RFC 3986 Appendix C).

    ``registry`` holds the scheme names that count in undelimited text without
    a following "//" (any container of lower-case names;
    :data:`~urikit.schemes.DEFAULT_REGISTRY` by default, where a scheme whose
    URIs require an authority, such as http, counts only with "//").
    ``suffix=True`` also recognises suffix references (§4.5), completed as
    ``default_scheme + "://" + reference``.

    >>> [str(m) for m in extract('See <URL:http://example.com/a> (or http://x.org/b).')]
    ['http://example.com/a', 'http://x.org/b']
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes a str, not {type(text).__name__}")
    if _SCHEME_AT.fullmatch(default_scheme + ":") is None:
        raise URIError("not a scheme name", text=default_scheme, position=0, rule="scheme")
    return _Extractor(text, registry, default_scheme if suffix else None).run()


class _Extractor:
    """One pass over one text."""

    def __init__(self, text: str, registry: Container[str], default_scheme: str | None) -> None:
        self.text = text
        self.registry = registry
        self.default_scheme = default_scheme
        self.find = _FIND if default_scheme is None else _FIND_SUFFIX

    def counts(self, scheme: str, rest: str) -> bool:
        """May an undelimited URI of ``scheme``, followed by ``rest``, go without "//"?

        When the registry says the scheme's URIs require an authority (§3.2),
        ``http:foo`` is not one of them.  When the scheme's paths are always
        rooted (an empty path means "/", as for ``file:``), the path must begin
        with "/", so that ``file:line`` in prose is not one either.
        """
        name = scheme.lower()
        if name not in self.registry:
            return False
        known = self.registry.get(name) if isinstance(self.registry, SchemeRegistry) else None
        if known is None:
            return True
        if known.authority == "required":
            return False
        return not known.empty_path_is_root or rest.startswith("/")

    def run(self) -> Iterator[Match]:
        text = self.text
        position = 0
        while True:
            found = self.find.search(text, position)
            if found is None:
                return
            start = found.start()
            if found.group("open") == "<":
                match, position = self.angle(start)
            elif found.group("open") is not None:
                match, position = self.quoted(start)
            elif found.group("scheme") is not None:
                match, position = self.bare(start, found.end())
            else:
                match, position = self.bare_suffix(start)
            if match is not None:
                yield match

    # -- the three contexts (Appendix C) ----------------------------------------------

    def angle(self, start: int) -> tuple[Match | None, int]:
        """``<...>``: white space inside is removed; any scheme counts."""
        text, n = self.text, len(self.text)
        position = _end(_SPACE, text, start + 1)
        prefix = _URL_PREFIX.match(text, position)
        if prefix is not None:
            position = prefix.end()
        pieces: Pieces = []
        while True:
            end = _end(_RUN, text, position)
            if end > position:
                pieces.append((position, end))
            space_end = _end(_SPACE, text, end)
            if space_end < n and text[space_end] == ">":
                break
            if (
                space_end == end
                or len(_LINE_END.findall(text, end, space_end)) > 1
                or _begins_uri(text, space_end)
            ):
                return None, start + 1
            position = space_end
        match = self.complete(pieces, delimited=True)
        return (match, space_end + 1) if match is not None else (None, start + 1)

    def quoted(self, start: int) -> tuple[Match | None, int]:
        """``"..."``: one word (or a hyphen-broken one); any scheme counts."""
        text = self.text
        position = start + 1
        prefix = _URL_PREFIX.match(text, position)
        if prefix is not None:
            position = prefix.end()
        pieces = _scan(text, position, balanced=False, joins=True)
        end = pieces[-1][1]
        if end >= len(text) or text[end] != _OPEN_QUOTES[text[start]]:
            return None, start + 1
        match = self.complete(_trim(text, pieces, _TRAILING_QUOTED), delimited=True)
        return (match, end + 1) if match is not None else (None, start + 1)

    def bare(self, start: int, after_colon: int) -> tuple[Match | None, int]:
        """An undelimited URI: its scheme is registered or followed by "//"."""
        text = self.text
        scheme = text[start : after_colon - 1]
        rest = text[after_colon : after_colon + 1]
        if not (text.startswith("//", after_colon) or self.counts(scheme, rest)):
            if self.default_scheme is not None and _HOST_BOUNDARY.match(text, start):
                match, position = self.bare_suffix(start)
                return match, max(position, after_colon)
            return None, after_colon
        pieces = _trim(text, _scan(text, start, balanced=True, joins=False), _TRAILING)
        match = self.complete(pieces, delimited=False)
        return match, max(pieces[-1][1] if pieces else 0, after_colon)

    def bare_suffix(self, start: int) -> tuple[Match | None, int]:
        """An undelimited suffix reference (§4.5), such as ``www.w3.org/Addressing/``."""
        text = self.text
        dotted = _DOTTED.match(text, start)
        if dotted is None or not _is_host(dotted.group(), text[dotted.end() : dotted.end() + 1]):
            return None, dotted.end() if dotted is not None else start + 1
        pieces = _trim(text, _scan(text, start, balanced=True, joins=False), _TRAILING)
        match = self.complete(pieces, delimited=False)
        return match, max(pieces[-1][1] if pieces else 0, dotted.end())

    # -- from pieces of text to a Match ---------------------------------------------------

    def complete(self, pieces: Pieces, *, delimited: bool) -> Match | None:
        """The Match for a candidate, or None when it is not a URI."""
        if not pieces:
            return None
        text = self.text
        candidate = "".join(text[a:b] for a, b in pieces)
        scheme = _SCHEME_AT.match(candidate)
        if (
            scheme is not None
            and self.default_scheme is not None
            and candidate[scheme.end() : scheme.end() + 1].isdigit()
            and _is_host(scheme.group(1), ":")
        ):
            scheme = None  # "www.example.com:8080/" is a suffix reference with a port
        added: list[Report] = []
        if scheme is not None:
            rest = candidate[scheme.end() :]
            if rest in ("", "//"):
                return None
            # Inside delimiters the scheme must be whole in the first piece.
            if delimited and scheme.end() >= pieces[0][1] - pieces[0][0]:
                return None
            if not (delimited or rest.startswith("//") or self.counts(scheme.group(1), rest)):
                return None
            parsed = _parse(candidate, _where(pieces, 0))
            host = None
        elif self.default_scheme is not None:
            dotted = _DOTTED.match(candidate)
            if dotted is None or not _is_host(
                dotted.group(), candidate[dotted.end() : dotted.end() + 1]
            ):
                return None
            if dotted.end() < len(candidate) and candidate[dotted.end()] not in ":/?#":
                return None
            host = dotted.group()
            lead = f"{self.default_scheme}://"
            parsed = _parse(lead + candidate, _where(pieces, len(lead)))
            added.append(
                Report(
                    "suffix-reference",
                    f'a suffix reference completed with "{lead}" (RFC 3986 §4.5)',
                    span=(pieces[0][0], pieces[0][0]),
                    repaired=True,
                )
            )
        else:
            return None
        if parsed is None:
            return None
        uri, reports = parsed
        if host is not None and uri.host != host:
            return None
        start, end = pieces[0][0], pieces[-1][1]
        return Match(start, end, text[start:end], uri, (*added, *reports))


def _parse(candidate: str, where: Callable[[int], int]) -> tuple[URI, list[Report]] | None:
    """The URI of a candidate, strictly or by a lenient repair; None if neither works.

    ``where`` maps an offset in the candidate to a position in the input.
    """
    try:
        return URI(candidate), []
    except URIError:
        pass
    try:
        return repair(candidate, where)
    except URIError:
        return None


def _where(pieces: Pieces, shift: int) -> Callable[[int], int]:
    """Offsets in the joined pieces, after ``shift`` added characters, to input positions."""
    starts = list(accumulate((b - a for a, b in pieces), initial=0))

    def where(offset: int) -> int:
        offset = max(offset - shift, 0)
        index = bisect_right(starts, offset) - 1
        if index >= len(pieces):
            return pieces[-1][1]
        return pieces[index][0] + offset - starts[index]

    return where


def _scan(text: str, start: int, *, balanced: bool, joins: bool) -> Pieces:
    """The run of URI characters from ``start``, as pieces of the input.

    With ``joins``, a line break right after a hyphen continues the run
    (Appendix C); the blanks around the break separate the pieces.  With ``balanced``, a ")" or
    "]" that closes nothing opened in the run ends it.
    """
    pieces: Pieces = []
    n = len(text)
    piece = position = start
    stack: list[str] = []
    while True:
        position = _end(_PLAIN, text, position)
        if position == n:
            break
        ch = text[position]
        if ch in "([":
            stack.append(ch)
            position += 1
            continue
        if ch in ")]":
            if not balanced:
                position += 1
                continue
            if stack and stack[-1] == _OPENER[ch]:
                stack.pop()
                position += 1
                continue
            break
        if joins and position > piece and text[position - 1] == "-":
            line_break = _HYPHEN_BREAK.match(text, position)
            if line_break is not None and _continues(text, line_break.end()):
                pieces.append((piece, position))
                piece = position = line_break.end()
                continue
        break
    pieces.append((piece, position))
    return pieces


def _end(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where a pattern that matches the empty string stops matching at ``position``."""
    found = pattern.match(text, position)
    assert found is not None
    return found.end()


def _continues(text: str, position: int) -> bool:
    """Does the text after a hyphen's line break go on with the same URI?"""
    return _end(_PLAIN, text, position) > position and not _begins_uri(text, position)


def _begins_uri(text: str, position: int) -> bool:
    """Does a new URI ("scheme://") begin at ``position``?"""
    scheme = _SCHEME_AT.match(text, position)
    return scheme is not None and text.startswith("//", scheme.end())


def _trim(text: str, pieces: Pieces, chars: str) -> Pieces:
    """``pieces`` without the trailing characters in ``chars``."""
    while pieces:
        a, b = pieces[-1]
        while b > a and text[b - 1] in chars:
            b -= 1
        if b > a:
            pieces[-1] = (a, b)
            break
        pieces.pop()
    return pieces


def _is_host(name: str, after: str) -> bool:
    """Does the dotted ``name``, followed by the character ``after`` ("" at the end),
    begin a suffix reference (§4.5)?

    At most 253 characters (RFC 1035 §2.3.4); every label a DNS label (RFC 1034
    §3.5); the last in lower case unless the name begins with "www."; a domain name
    of the DNS: a registrable domain or a name under one, by a rule of the ICANN
    section of the Public Suffix List (:mod:`urikit.sites`; a top-level domain that
    the list does not name is not taken).  A name whose public suffix is a
    country-code top-level domain alone (two letters: ``.de``, ``.io``, ``.md``,
    ``.py``) also needs "www." or a path ("/" after it): file names take the same
    form (``setup.py``, ``README.md``).
    """
    if len(name) > _MAX_NAME:
        return False
    labels = name.split(".")
    if any(not label or label[0] == "-" or label[-1] == "-" or len(label) > 63 for label in labels):
        return False
    www = labels[0].lower() == "www"
    if not (www or labels[-1].islower()):
        return False
    suffix = _icann_suffix(name)
    if suffix is None:
        return False
    if www or after == "/" or len(suffix) != _COUNTRY_CODE:
        return True
    # a private rule over the country code (github.io) names a suffix no file name ends in
    from ..sites import public_suffix

    whole = public_suffix(name)
    return whole is not None and len(whole) != _COUNTRY_CODE


@lru_cache(maxsize=4096)
def _icann_suffix(name: str) -> str | None:
    """The public suffix of ``name`` when it is a registrable domain or a name under one
    by a rule of the ICANN section of the Public Suffix List (not the implicit rule of
    a top-level domain the list does not name); else None.

    The ICANN section, since a private suffix is a host too: ``github.io`` is a name
    of the DNS (under ``io``), as ``a.github.io`` is."""
    from ..sites import registrable_domain

    domain = registrable_domain(name, private=False)
    if domain is None:
        return None
    suffix = domain.partition(".")[2]
    # the implicit rule gives a suffix of one label; a rule of more labels was listed
    return suffix if "." in suffix or _listed(suffix) else None


@lru_cache(maxsize=4096)
def _listed(label: str) -> bool:
    """Is the top-level domain ``label`` a public suffix by a rule of the ICANN section,
    not by the implicit rule?  (An exception rule that leaves one label, ``!www.ck``,
    stands under a wildcard ``*.ck``, which makes ``ck`` a public suffix itself.)"""
    from ..sites import lookup

    found = lookup(label, private=False)
    return found is not None and not found.implicit
