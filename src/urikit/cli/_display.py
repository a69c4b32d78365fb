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
from dataclasses import dataclass
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


#: The reason of an error on a non-ASCII character, up to its advice for Python code.
NON_ASCII: Final = "a URI holds only ASCII characters (RFC 3986 §2)"


@dataclass(frozen=True)
class ShownError:
    """An error as the command shows it.

    ``position`` and ``rule`` count in the input as given, whether or not its
    password is masked where it is shown; ``message`` is one line (the character,
    the position, the rule and the reason); ``caret`` is the input as shown, with
    a caret under the character at fault, in two indented lines (or empty).
    """

    reason: str
    position: int | None
    rule: str | None
    message: str
    caret: str = ""


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines()) if "\n" in text else text


def shown_error(
    exc: ValueError, *, show_password: bool = False, advice: str | None = None
) -> ShownError:
    """``exc`` as the command shows it, its text's password masked (RFC 3986 §7.5)
    unless ``show_password``.

    ``advice`` replaces what the reason of a non-ASCII character advises Python
    code to do (``IRI(text)``) by what to do on the command line.
    """
    error = as_error(exc)
    reason, text, position, rule = error.reason, error.text, error.position, error.rule
    if advice is not None and reason.startswith(NON_ASCII):
        reason = f"{NON_ASCII}; {advice}"
    head, _, caret = str(URIError(reason, text=text, position=position, rule=rule)).partition("\n")
    span = None if show_password or text is None else password_span(text)
    if span is not None and position is not None and text is not None:
        # The caret is drawn under the masked text; the position stays the input's.
        start, end = span
        at = position
        if position >= end:
            at = position + len(MASK) - (end - start)
        elif position >= start:
            at = start
            head = "a character of the password" + head[head.index(" at position ") :]
        caret = str(URIError(reason, text=mask(text), position=at, rule=rule)).partition("\n")[2]
    return ShownError(reason, position, rule, _one_line(head), caret)


def as_error(exc: ValueError) -> URIError:
    """A ``ValueError`` as a :class:`URIError` (one without a position or rule)."""
    return exc if isinstance(exc, URIError) else URIError(str(exc))


def error_fields(error: ShownError) -> dict[str, Any]:
    """The ``error`` object of a JSON record: every field one line."""
    return {
        "position": error.position,
        "rule": error.rule,
        "reason": error.reason,
        "message": error.message,
    }


def error_line(shown: str, error: ShownError) -> str:
    """The one-line text record of a failed input.

    ``error: INPUT<TAB>POSITION<TAB>RULE<TAB>REASON``, the input printable
    (so that it holds no tab or line end), ``-`` for an unknown position or rule.
    """
    position = "-" if error.position is None else str(error.position)
    rule = error.rule or "-"
    return f"error: {printable(shown)}\t{position}\t{rule}\t{printable(error.reason)}"


def error_block(shown: str, error: ShownError) -> str:
    """The error as people read it: the input, then the message and its caret, indented."""
    lines = [f"error: {printable(shown)}", f"  {error.message}"]
    if error.caret:
        lines.extend("  " + line for line in error.caret.split("\n"))
    return "\n".join(lines)


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
