"""The links of an HTML document, resolved against its base URI.

RFC 3986 §5.1.1 (base URI embedded in content) and the appendix "Embedding
the Base URI in HTML documents" of draft-fielding-uri-rfc2396bis-02: the
first ``<base>`` element with an ``href`` sets the base URI of the whole
document; a relative ``href`` on it is resolved against the retrieval URI
(§5.1.3; HTML's "frozen base URL").  Every URL-valued attribute of :data:`URL_ATTRIBUTES`,
each candidate of a ``srcset``, and the URL of ``<meta http-equiv=refresh>``
becomes a :class:`Link`, in document order.

The document is read by the standard library's :class:`html.parser.HTMLParser`,
which copes with real-world markup (unclosed tags, raw text in ``<script>``
and ``<style>``).  Attribute values are taken from the start tag as written
(``get_starttag_text``) and decoded by HTML's rules for character references
in attributes: ``html.unescape`` would turn ``?a=1&copy=2`` into ``?a=1©=2``,
where HTML keeps a legacy reference without ";" that is followed by "=" or a
letter or digit as it is written (WHATWG HTML §13.2.5.73).

A value is made a reference as HTML does before parsing a URL: surrounding
ASCII white space is stripped (a "valid URL potentially surrounded by
spaces"); a tab or line break inside is removed and reported (WHATWG URL,
"remove all ASCII tab or newline").  A value that is not a URI reference is
repaired by ``URI.lenient`` and the repairs are reported in
``Link.violations``; one that cannot be repaired gets ``Link.error``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from html import unescape
from html.entities import html5
from html.parser import HTMLParser
from typing import Final, NamedTuple

from ..errors import URIError
from ..report import Report, Severity
from ..uri import IRI, URI, resolve

_Reference = (URI, IRI)

__all__ = ["URL_ATTRIBUTES", "Link", "links"]


@dataclass(frozen=True, slots=True)
class Link:
    """One link of an HTML document, resolved by RFC 3986 §5.2.

    ``tag`` and ``attribute`` name where it was found (lower case); ``raw`` is
    the attribute value as written after character references are decoded
    (for ``srcset`` one candidate's URL, for a refresh the URL part of
    ``content``).  ``uri`` is the resolved URI, or None when the value is not
    a URI reference, with ``error`` saying why.  ``violations`` are the repairs
    made to the value (positions index ``raw``).  ``position`` is the start
    tag's (line, column): line from 1, column from 0, as ``html.parser``
    counts them.
    """

    tag: str
    attribute: str
    raw: str
    uri: URI | None
    error: URIError | None = None
    violations: tuple[Report, ...] = ()
    position: tuple[int, int] = (1, 0)


_URL: Final = "url"
_SRCSET: Final = "srcset"

#: The URL-valued attributes read, by element: ``"url"`` holds one URL,
#: ``"srcset"`` a list of image candidates (WHATWG HTML §4.8.4.2).
URL_ATTRIBUTES: Final[Mapping[str, Mapping[str, str]]] = {
    "a": {"href": _URL},
    "area": {"href": _URL},
    "link": {"href": _URL},
    "base": {"href": _URL},
    "img": {"src": _URL, "srcset": _SRCSET},
    "source": {"src": _URL, "srcset": _SRCSET},
    "script": {"src": _URL},
    "iframe": {"src": _URL},
    "frame": {"src": _URL},
    "audio": {"src": _URL},
    "video": {"src": _URL, "poster": _URL},
    "embed": {"src": _URL},
    "track": {"src": _URL},
    "input": {"src": _URL, "formaction": _URL},
    "form": {"action": _URL},
    "button": {"formaction": _URL},
    "object": {"data": _URL},
    "blockquote": {"cite": _URL},
    "q": {"cite": _URL},
    "del": {"cite": _URL},
    "ins": {"cite": _URL},
}

# ASCII whitespace (WHATWG Infra): TAB, LF, FF, CR, SPACE.
_ASCII_SPACE: Final = "\t\n\f\r "
_TAB_OR_NEWLINE: Final = "\t\n\r"
# A character reference (WHATWG HTML §13.2.5.72): numeric, or a name of at most
# 32 characters (the longest in the table) that is matched by longest prefix.
_CHARREF: Final = re.compile(r"&(?:#[xX][0-9A-Fa-f]+;?|#[0-9]+;?|([A-Za-z][A-Za-z0-9]{0,31};?))")


class _Found(NamedTuple):
    tag: str
    attribute: str
    raw: str
    position: tuple[int, int]


def links(html: str, base: _Reference | str) -> list[Link]:
    """Every link of the document ``html``, resolved (RFC 3986 §5.2), in document order.

    ``base`` is the retrieval URI of the document (an absolute URI); the first
    ``<base href>`` of the document, resolved against it, replaces it for all
    the other links.  ``<base>`` elements are links too.

    >>> [str(l.uri) for l in links('<base href="/t/"><a href="x">', "http://a/b")]
    ['http://a/t/', 'http://a/t/x']
    """
    if not isinstance(html, str):
        raise TypeError(f"links() takes the document as a str, not {type(html).__name__}")
    retrieval = URI(base)
    collector = _Collector()
    collector.feed(html)
    collector.close()
    found = collector.found
    first_base = next((i for i, item in enumerate(found) if item.tag == "base"), None)
    document_base = retrieval
    result: list[Link] = []
    if first_base is not None:
        base_link = _link(found[first_base], retrieval)
        if base_link.uri is not None:
            document_base = base_link.uri
    for index, item in enumerate(found):
        against = retrieval if index == first_base else document_base
        if item.attribute in ("action", "formaction") and item.raw.strip(_ASCII_SPACE) == "":
            # HTML §4.10.21.3: an empty action is the URL of the form's document.
            against = retrieval
        result.append(_link(item, against))
    return result


def _link(item: _Found, against: URI) -> Link:
    """The Link of one value: made a reference, repaired if need be, resolved."""
    raw = item.raw
    start, end = 0, len(raw)
    while start < end and raw[start] in _ASCII_SPACE:
        start += 1
    while end > start and raw[end - 1] in _ASCII_SPACE:
        end -= 1
    kept = [i for i in range(start, end) if raw[i] not in _TAB_OR_NEWLINE]
    violations = [
        Report(
            "tab-or-newline",
            "a tab or line break inside a URL is removed (WHATWG URL parsing)",
            Severity.LOW,
            (i, i + 1),
            True,
        )
        for i in range(start, end)
        if raw[i] in _TAB_OR_NEWLINE
    ]
    value = "".join(raw[i] for i in kept)
    try:
        reference = URI(value)
    except URIError:
        try:
            reference, repairs = URI.lenient(value)
        except URIError as exc:
            return Link(item.tag, item.attribute, raw, None, exc, tuple(violations), item.position)
        for v in repairs:
            where = kept[v.position] if v.position < len(kept) else end
            last = kept[v.span[1] - 1] + 1 if v.span[0] < v.span[1] <= len(kept) else where
            violations.append(replace(v, span=(where, max(where, last))))
    target = resolve(against, reference)
    return Link(item.tag, item.attribute, raw, target, None, tuple(violations), item.position)


class _Collector(HTMLParser):
    """Collects the URL-valued attributes of the start tags, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[_Found] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = URL_ATTRIBUTES.get(tag)
        if wanted is None and tag != "meta":
            return
        position = self.getpos()
        tag_text = self.get_starttag_text() or ""
        attributes = start_tag_attributes(tag_text)
        if tag == "meta":
            if attributes.get("http-equiv", "").strip(_ASCII_SPACE).lower() == "refresh":
                url = refresh_url(attributes.get("content", ""))
                if url is not None:
                    self.found.append(_Found(tag, "content", url, position))
            return
        assert wanted is not None
        for name, value in attributes.items():
            kind = wanted.get(name)
            if kind == _URL:
                self.found.append(_Found(tag, name, value, position))
            elif kind == _SRCSET:
                for url in srcset_urls(value):
                    self.found.append(_Found(tag, name, url, position))


# -- attribute values (WHATWG HTML §13.2.5.32-§13.2.5.42, §13.2.5.72-§13.2.5.80) ----


def start_tag_attributes(tag_text: str) -> dict[str, str]:
    """The attributes of a start tag's text, names in lower case, values decoded.

    A repeated attribute keeps its first value; an attribute without a value
    has the empty string (HTML §13.2.5.33 to §13.2.5.39).
    """
    n = len(tag_text)
    i = 1
    while i < n and tag_text[i] not in _ASCII_SPACE + "/>":
        i += 1
    attributes: dict[str, str] = {}
    while True:
        while i < n and tag_text[i] in _ASCII_SPACE + "/":
            i += 1
        if i >= n or tag_text[i] == ">":
            return attributes
        j = i + 1  # a "=" that begins a name belongs to it (§13.2.5.32)
        while j < n and tag_text[j] not in _ASCII_SPACE + "/>=":
            j += 1
        name = tag_text[i:j].lower()
        i = j
        while i < n and tag_text[i] in _ASCII_SPACE:
            i += 1
        value = ""
        if i < n and tag_text[i] == "=":
            i += 1
            while i < n and tag_text[i] in _ASCII_SPACE:
                i += 1
            if i < n and tag_text[i] in "\"'":
                close = tag_text.find(tag_text[i], i + 1)
                close = n if close < 0 else close
                value = tag_text[i + 1 : close]
                i = close + 1
            else:
                j = i
                while j < n and tag_text[j] not in _ASCII_SPACE + ">":
                    j += 1
                value = tag_text[i:j]
                i = j
        attributes.setdefault(name, decode_attribute(value))


def decode_attribute(value: str) -> str:
    """Decode the character references of an attribute value (HTML §13.2.5.72).

    A named reference is matched by its longest prefix in the table.  In an
    attribute, one not ended by ";" and followed by "=" or a letter or digit
    is kept as written (§13.2.5.73), so ``&copy=2`` stays ``&copy=2``.
    """
    if "&" not in value:
        return value

    def replace(found: re.Match[str]) -> str:
        text = found.group(0)
        name = found.group(1)
        if name is None:
            return _numeric(text)
        for size in range(len(name), 1, -1):
            decoded = html5.get(name[:size])
            if decoded is None:
                continue
            following = found.string[found.start() + 1 + size : found.start() + 2 + size]
            if name[size - 1] != ";" and (following == "=" or following.isalnum()):
                return text
            return decoded + name[size:]
        return text

    return _CHARREF.sub(replace, value)


def _numeric(reference: str) -> str:
    """A numeric character reference (§13.2.5.80: 0, surrogates and too large give U+FFFD)."""
    return unescape(reference)


# -- srcset and refresh ---------------------------------------------------------------


def srcset_urls(value: str) -> Iterator[str]:
    """The URL of each image candidate of a srcset (WHATWG HTML §4.8.4.3.10).

    Candidates are separated by commas; a candidate is a URL (a run without
    white space; trailing commas are not part of it) and descriptors, which
    are skipped up to a comma outside parentheses.  A candidate whose
    descriptors HTML would reject is still reported.
    """
    n = len(value)
    i = 0
    while True:
        while i < n and (value[i] in _ASCII_SPACE or value[i] == ","):
            i += 1
        if i >= n:
            return
        start = i
        while i < n and value[i] not in _ASCII_SPACE:
            i += 1
        url = value[start:i]
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            in_parens = False
            while i < n:
                ch = value[i]
                i += 1
                if in_parens:
                    in_parens = ch != ")"
                elif ch == "(":
                    in_parens = True
                elif ch == ",":
                    break
        if url:
            yield url


def refresh_url(content: str) -> str | None:
    """The URL of a ``<meta http-equiv=refresh>`` content, or None if it has none.

    WHATWG HTML §4.2.5.3, the shared declarative refresh steps:
    ``5; url=http://example.com/`` gives ``http://example.com/``.
    """
    n = len(content)
    i = 0

    def skip_space(i: int) -> int:
        while i < n and content[i] in _ASCII_SPACE:
            i += 1
        return i

    i = skip_space(i)  # 2
    digits = i
    while i < n and content[i].isascii() and content[i].isdigit():  # 4
        i += 1
    if i == digits and (i >= n or content[i] != "."):  # 5
        return None
    while i < n and (content[i] == "." or (content[i].isascii() and content[i].isdigit())):  # 7
        i += 1
    if i < n:  # 9
        if content[i] not in ";," + _ASCII_SPACE:
            return None
        i = skip_space(i)
        if i < n and content[i] in ";,":
            i += 1
        i = skip_space(i)
    if i >= n:
        return None
    url_start = i  # 10.1
    if content[i] in "Uu":  # 10.2
        i += 1
        if content[i : i + 2].lower() == "rl":  # 10.3, 10.4
            i = skip_space(i + 2)  # 10.5
            if i < n and content[i] == "=":  # 10.6
                i = skip_space(i + 1)  # 10.7
                url_start = i
            else:
                return content[url_start:]
        else:
            return content[url_start:]
    quote = content[url_start : url_start + 1]  # 10.8: skip quotes
    if quote in ("'", '"'):
        close = content.find(quote, url_start + 1)  # 10.10
        return content[url_start + 1 : close if close >= 0 else n]
    return content[url_start:]
