"""The links of an HTML document, resolved against its base URI.

RFC 3986 §5.1.1 (base URI embedded in content) and the appendix "Embedding
the Base URI in HTML documents" of draft-fielding-uri-rfc2396bis-02: the
first ``<base>`` element with an ``href`` sets the base URI of the whole
document; a relative ``href`` on it is resolved against the retrieval URI
(§5.1.3; HTML's "frozen base URL").  Every URL-valued attribute of :data:`URL_ATTRIBUTES`,
each candidate of a ``srcset``, and the URL of ``<meta http-equiv=refresh>``
becomes a :class:`Link`, in document order.

The start tags are read as browsers read them, by the WHATWG HTML tokenizer
(:mod:`urikit.text.tokenizer`), in one linear pass; a document given as bytes
is decoded first as browsers decode it (:mod:`urikit.text.encoding`).
Attribute values are decoded by HTML's rules for character references in
attributes: ``html.unescape`` would turn ``?a=1&copy=2`` into ``?a=1©=2``,
where HTML keeps a legacy reference without ";" that is followed by "=" or a
letter or digit as it is written (WHATWG HTML §13.2.5.73).

A value is made a reference as HTML does before parsing a URL: surrounding
ASCII white space is stripped (a "valid URL potentially surrounded by
spaces"); a tab or line break inside is removed and reported (WHATWG URL,
"remove all ASCII tab or newline").  A value that is not a URI reference is
repaired by ``URI.lenient`` and the repairs are reported in
``Link.reports``; one that cannot be repaired gets ``Link.error``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Final, NamedTuple

from ..errors import URIError
from ..functions import resolve
from ..report import Report
from ..resolution import check_base
from ..uri import IRI, URI
from .encoding import decode_html
from .repairs import repair
from .tokenizer import decode_attribute, start_tag_attributes, start_tags

__all__ = [
    "URL_ATTRIBUTES",
    "Link",
    "decode_attribute",
    "links",
    "refresh_url",
    "srcset_urls",
    "start_tag_attributes",
]


@dataclass(frozen=True, slots=True)
class Link:
    """One link of an HTML document, resolved by RFC 3986 §5.2.

    ``tag`` and ``attribute`` name where it was found (lower case); ``raw`` is
    the attribute value as written after character references are decoded
    (for ``srcset`` one candidate's URL, for a refresh the URL part of
    ``content``).  ``uri`` is the resolved URI, or None when the value is not
    a URI reference, with ``error`` saying why.  ``reports`` are the repairs
    made to the value (``repaired=True``; spans index ``raw``).  ``position``
    is the start tag's (line, column): line from 1, column from 0, counting
    line feeds.
    """

    tag: str
    attribute: str
    raw: str
    uri: URI | None
    error: URIError | None = None
    reports: tuple[Report, ...] = ()
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


_TAGS: Final = frozenset({*URL_ATTRIBUTES, "meta"})


class _Found(NamedTuple):
    tag: str
    attribute: str
    raw: str
    position: tuple[int, int]


def links(
    html: str | bytes,
    base: URI | IRI | str,
    *,
    default_encoding: str | None = None,
    scripting: bool = True,
) -> list[Link]:
    """Every link of the document ``html``, resolved (RFC 3986 §5.2), in document order.

    ``base`` is the retrieval URI of the document (an absolute URI or IRI); the first
    ``<base href>`` of the document, resolved against it, replaces it for all
    the other links.  ``<base>`` elements are links too.  A document given as
    ``bytes`` is decoded as browsers decode it (WHATWG HTML §13.2.3.2): by its
    byte order mark, else the ``<meta>`` charset in its first 1024 bytes,
    else ``default_encoding`` (a label such as ``"utf-8"``), else windows-1252,
    and each encoding as the WHATWG Encoding Standard decodes it.  With
    ``scripting`` (the default, as in browsers), ``<noscript>`` holds text, not
    markup (HTML §13.2.6.4.7); ``scripting=False`` reads it as a browser that runs
    no script does.

    >>> [str(l.uri) for l in links('<base href="/t/"><a href="x">', "http://a/b")]
    ['http://a/t/', 'http://a/t/x']
    """
    if isinstance(html, bytes):
        html = decode_html(html, default_encoding)
    elif not isinstance(html, str):
        raise TypeError(f"links() takes the document as str or bytes, not {type(html).__name__}")
    # An IRI base is mapped to its URI (RFC 3987 §3.1) to resolve against.
    retrieval = URI(base.to_uri() if isinstance(base, IRI) else base)
    check_base(retrieval.parts)
    found = list(_collect(html, scripting))
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


def _collect(html: str, scripting: bool) -> Iterator[_Found]:
    """The URL-valued attributes of the start tags, in document order."""
    line, line_start, counted = 1, 0, 0
    for tag in start_tags(html, _TAGS, scripting=scripting):
        wanted = URL_ATTRIBUTES.get(tag.name)
        # Offsets only grow, so the line feeds are counted once in all.
        newlines = html.count("\n", counted, tag.offset)
        if newlines:
            line += newlines
            line_start = html.rfind("\n", counted, tag.offset) + 1
        counted = tag.offset
        position = (line, tag.offset - line_start)
        attributes = tag.attributes
        if wanted is None:
            if attributes.get("http-equiv", "").strip(_ASCII_SPACE).lower() == "refresh":
                url = refresh_url(attributes.get("content", ""))
                if url is not None:
                    yield _Found(tag.name, "content", url, position)
            continue
        for name, value in attributes.items():
            kind = wanted.get(name)
            if kind == _URL:
                yield _Found(tag.name, name, value, position)
            elif kind == _SRCSET:
                for url in srcset_urls(value):
                    yield _Found(tag.name, name, url, position)


def _link(item: _Found, against: URI) -> Link:
    """The Link of one value: made a reference, repaired if need be, resolved."""
    raw = item.raw
    start, end = 0, len(raw)
    while start < end and raw[start] in _ASCII_SPACE:
        start += 1
    while end > start and raw[end - 1] in _ASCII_SPACE:
        end -= 1
    value = raw[start:end]
    kept: list[int] | range = range(start, end)
    reports: list[Report] = []
    if any(ch in value for ch in _TAB_OR_NEWLINE):
        kept = [i for i in kept if raw[i] not in _TAB_OR_NEWLINE]
        reports = [
            Report(
                "tab-or-newline",
                "a tab or line break inside a URL is removed (WHATWG URL parsing)",
                span=(i, i + 1),
                repaired=True,
            )
            for i in range(start, end)
            if raw[i] in _TAB_OR_NEWLINE
        ]
        value = "".join(raw[i] for i in kept)
    try:
        reference = URI(value)
    except URIError:
        try:
            reference, repairs = repair(value, lambda offset: kept[min(offset, len(kept) - 1)])
        except URIError as exc:
            return Link(item.tag, item.attribute, raw, None, exc, tuple(reports), item.position)
        reports.extend(repairs)
    target = resolve(against, reference)
    return Link(item.tag, item.attribute, raw, target, None, tuple(reports), item.position)


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
