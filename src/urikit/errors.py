"""The one exception urikit raises for bad input: :class:`URIError`."""

from __future__ import annotations

import unicodedata

__all__ = ["URIError"]

_SHOWN = 72  # characters of context drawn on each side of the caret


def describe_char(text: str, position: int) -> str:
    """Name the character at ``position`` of ``text`` for an error message."""
    if position >= len(text):
        return "end of input"
    ch = text[position]
    if ch.isprintable() and not ch.isspace() and not unicodedata.combining(ch):
        return f"{ch!r} (U+{ord(ch):04X})"
    return f"U+{ord(ch):04X}"


def _shown(ch: str) -> str:
    """``ch`` as drawn in an excerpt: "?" for what would break the alignment."""
    if not ch.isprintable() or unicodedata.combining(ch):
        return "?"
    return ch


def _width(ch: str) -> int:
    """The columns ``ch`` takes on a terminal: two for wide East Asian characters."""
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def caret_excerpt(text: str, position: int) -> str:
    """Two lines: the input (cut around ``position`` when long) and a caret under it.

    Characters that would break the alignment (controls, white space other than
    a space, combining marks) are shown as ``?`` in the excerpt; the message
    names them exactly.  Wide characters count as two columns.
    """
    start = max(0, position - _SHOWN)
    end = min(len(text), position + _SHOWN)
    shown = "".join(map(_shown, text[start:end]))
    lead = "..." if start else ""
    tail = "..." if end < len(text) else ""
    column = len(lead) + sum(map(_width, shown[: position - start]))
    return f"    {lead}{shown}{tail}\n    {' ' * column}^"


class URIError(ValueError):
    """Bad input: a string outside the grammar, or an operation the grammar forbids.

    ``position`` is the 0-based index of the first character that cannot belong
    to a valid parse (``len(text)`` when the input ends too early), ``rule`` the
    ABNF rule being matched there (RFC 3986 Appendix A), and ``text`` the input.
    The message names the character and draws a caret under it.
    """

    # Slots, not the instance dict: an error is cheaper to make, here and in the
    # compiled core, which fills them without running __init__ (_c/error.c).
    __slots__ = ("position", "reason", "rule", "text")

    def __init__(
        self,
        reason: str,
        *,
        text: str | None = None,
        position: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.reason = reason
        self.text = text
        self.position = position
        self.rule = rule
        super().__init__(reason)

    def __str__(self) -> str:
        # Rendered when shown, not when raised: code that catches and skips
        # invalid input does not pay for the excerpt and caret.
        return self._render()

    def _render(self) -> str:
        if self.text is None or self.position is None:
            return self.reason if self.rule is None else f"{self.reason} (rule {self.rule})"
        where = describe_char(self.text, self.position)
        head = f"{where} at position {self.position}"
        if self.rule is not None:
            head += f" in {self.rule}"
        return f"{head}: {self.reason}\n{caret_excerpt(self.text, self.position)}"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.reason, self.text, self.position, self.rule))


def _rebuild(reason: str, text: str | None, position: int | None, rule: str | None) -> URIError:
    return URIError(reason, text=text, position=position, rule=rule)
