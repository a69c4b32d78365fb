"""Active content: URLs that a browser runs or renders as a document (urikit.audit).

RFC 3986 §7 does not list them, but a link checker or a redirect filter must:
a ``javascript:`` URL runs in the page that holds it, and a ``data:`` URL with
an HTML or SVG media type is a document of its own.
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote

from ..grammar import ALPHA, DIGIT
from ..report import Report, Severity, quote
from .findings import finding

__all__ = [
    "ACTIVE_DOCUMENT_TYPES",
    "LOCAL_CONTENT_SCHEMES",
    "SCRIPT_SCHEMES",
    "check_active_content",
]

#: Schemes whose URLs a browser runs as script in the page that holds the link
#: (the URL Standard's "javascript:" URLs, and their historical relatives).
SCRIPT_SCHEMES: Final = frozenset({"javascript", "vbscript", "livescript"})
#: Schemes whose content a browser makes itself, so no host filter sees it: a
#: ``blob:`` or ``filesystem:`` URL gets the origin of the page that made it.
LOCAL_CONTENT_SCHEMES: Final = frozenset({"blob", "filesystem"})
#: ``data:`` media types that a browser renders as a document able to run script
#: (HTML, and XML, in which XHTML and SVG script elements run); besides these, every
#: type whose subtype ends in ``+xml`` (RFC 6839 §4.1) is XML to a browser.
ACTIVE_DOCUMENT_TYPES: Final = frozenset(
    {
        "text/html",
        "application/xhtml+xml",
        "image/svg+xml",
        "text/xml",
        "application/xml",
        "text/xsl",
        "application/xslt+xml",
    }
)
#: Script media types besides those whose subtype names a script (``*script``).
SCRIPT_MEDIA_TYPES: Final = frozenset({"text/jscript", "text/vbs"})
#: What a browser deletes from a URL (URL Standard §4.4, basic URL parser).
_STRIPPED: Final = frozenset(map(chr, range(0x21)))
_DELETED: Final = frozenset("\t\n\r")
_LEADING: Final = re.compile("[\x00-\x20]*")
#: A scheme (RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )) and its ":",
#: with the tab, CR and LF that a browser deletes anywhere.
_SCHEME_DELETED: Final = re.compile(f"[{ALPHA}{DIGIT}+\\-.\t\n\r]*:")


def _browser_scheme(text: str) -> tuple[str, int, int] | None:
    """The scheme a browser reads in ``text``, with the index of its first
    character and of its ":"; leading C0 controls and spaces are skipped and a
    tab, CR or LF anywhere is deleted (URL Standard §4.4)."""
    leading = _LEADING.match(text)
    start = leading.end() if leading is not None else 0
    match = _SCHEME_DELETED.match(text, start)
    if match is None:
        return None
    name = match.group()[:-1]
    for ch in _DELETED:
        name = name.replace(ch, "")
    if not name or not name[0].isalpha():
        return None
    return name.lower(), start, match.end() - 1


def _media_type(text: str, start: int) -> tuple[str, int]:
    """The essence (``type/subtype``, lower case) of the media type of the ``data:``
    URL whose header starts at ``start`` (RFC 2397 §3), and where it ends."""
    chars: list[str] = []
    end = start
    while end < len(text) and text[end] not in ",#":
        if text[end] not in _DELETED:
            chars.append(text[end])
        end += 1
    header = unquote("".join(chars), errors="replace")
    essence = header.partition(";")[0].strip(" \t\n\f\r").lower()
    return "".join(essence.split()), end


def _active_media_type(essence: str) -> bool:
    """Does a browser render a ``data:`` URL of this media type as a document that runs
    script, or run it as script?  HTML, XML, and every type with the structured syntax
    suffix ``+xml`` (RFC 6839 §4.1: ``application/rss+xml``, ``text/foo+xml``), which
    browsers render as XML, where an XHTML or SVG ``<script>`` runs; and script types."""
    subtype = essence.partition("/")[2]
    return (
        essence in ACTIVE_DOCUMENT_TYPES
        or essence in SCRIPT_MEDIA_TYPES
        or subtype.endswith(("script", "+xml"))
    )


def check_active_content(text: str, findings: list[Report]) -> None:
    """``active-content-scheme``: a URL that a browser does not fetch but runs or
    renders in place (``javascript:``, a ``data:`` URL of HTML, SVG, XML or
    script), read as a browser reads the scheme, so that ``JaVaScRiPt:`` and
    ``java<TAB>script:`` count."""
    found = _browser_scheme(text)
    if found is None:
        return
    scheme, start, colon = found
    if scheme in SCRIPT_SCHEMES:
        findings.append(
            finding(
                "active-content-scheme",
                f"a {scheme}: URL runs its text as script in the page that follows it "
                "(cross-site scripting through a link or redirect)",
                Severity.HIGH,
                (start, colon),
                "scheme",
            )
        )
    elif scheme == "data":
        essence, end = _media_type(text, colon + 1)
        if _active_media_type(essence):
            findings.append(
                finding(
                    "active-content-scheme",
                    f"a data: URL of media type {quote(essence)}: browsers render it as a "
                    "document or run it as script, content that no server sent",
                    Severity.HIGH,
                    (start, end),
                    "scheme",
                )
            )
    elif scheme in LOCAL_CONTENT_SCHEMES:
        findings.append(
            finding(
                "active-content-scheme",
                f"a {scheme}: URL names content made by a page in the browser, with that "
                "page's origin: no server and no host filter sees it",
                Severity.MEDIUM,
                (start, colon),
                "scheme",
            )
        )
