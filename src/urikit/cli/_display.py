"""How the command shows what it read: passwords masked, errors on one line, JSON.

A password in the userinfo is masked wherever an input is echoed (RFC 3986
§7.5): in a valid reference the text after the first ":" of the userinfo, as
:meth:`urikit.URI.redacted` does; in an invalid input the same span found by
its delimiters, the text between the first ":" after "//" and the last "@"
before the end of that authority.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Final

from .. import URI, URIError
from ..report import printable

MASK: Final = "***"

# "//", then an authority: up to "/", "?" or "#".
_AUTHORITY: Final = re.compile(r"//([^/?#]*)")


def password_span(text: str) -> tuple[int, int] | None:
    """The span of the password in ``text``, if it has one."""
    if "@" not in text:
        return None
    try:
        uri = URI(text)
    except URIError:
        uri = None
    if uri is not None:
        span = uri.span("userinfo")
        if span is None:
            return None
        start, end = span
    else:
        m = _AUTHORITY.search(text)
        if m is None or "@" not in m.group(1):
            return None
        start, end = m.start(1), m.start(1) + m.group(1).rindex("@")
    colon = text.find(":", start, end)
    if colon < 0 or colon + 1 == end:
        return None
    return colon + 1, end


def mask(text: str) -> str:
    """``text`` with its password masked."""
    span = password_span(text)
    if span is None:
        return text
    return text[: span[0]] + MASK + text[span[1] :]


def masked_error(exc: URIError) -> URIError:
    """``exc`` redrawn on its text with the password masked."""
    text = exc.text
    span = None if text is None else password_span(text)
    if text is None or span is None:
        return exc
    start, end = span
    position = exc.position
    if position is not None and position >= end:
        position += len(MASK) - (end - start)
    elif position is not None and position > start:
        position = start
    return URIError(exc.reason, text=mask(text), position=position, rule=exc.rule)


def as_error(exc: ValueError) -> URIError:
    """A ``ValueError`` as a :class:`URIError` (one without a position or rule)."""
    return exc if isinstance(exc, URIError) else URIError(str(exc))


def error_fields(exc: URIError) -> dict[str, Any]:
    """The ``error`` object of a JSON record."""
    return {
        "position": exc.position,
        "rule": exc.rule,
        "reason": exc.reason,
        "message": str(exc),
    }


def error_line(shown: str, exc: URIError) -> str:
    """The one-line text record of a failed input.

    ``error: INPUT<TAB>POSITION<TAB>RULE<TAB>REASON``, the input printable
    (so that it holds no tab or line end), ``-`` for an unknown position or rule.
    """
    position = "-" if exc.position is None else str(exc.position)
    rule = exc.rule or "-"
    return f"error: {printable(shown)}\t{position}\t{rule}\t{printable(exc.reason)}"


def error_block(shown: str, exc: URIError) -> str:
    """The error as people read it: the input, then the message and its caret, indented."""
    message = str(exc).replace("\n", "\n  ")
    return f"error: {printable(shown)}\n  {message}"


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def json_line(record: dict[str, Any], encoding: str) -> str:
    """``record`` as one line of JSON that stays valid once written in ``encoding``.

    Characters are written as they are when ``encoding`` holds them all, and
    as ``\\u`` escapes otherwise.  A lone surrogate, which no UTF-8 encoder
    accepts, never reaches the output: it is written as U+FFFD.
    """
    text = json.dumps(record, ensure_ascii=False)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return json.dumps(json.loads(text))
    return text


def use_color() -> bool:
    """Colour only for a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    stream = sys.stdout
    return not os.environ.get("NO_COLOR") and stream is not None and stream.isatty()
