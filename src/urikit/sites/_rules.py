"""The text of a Public Suffix List read into rules (publicsuffix.org/list/, "Definitions").

The list is a series of lines, each read up to the first white space after its first
word (white space before it is skipped); a line that is empty or white space, or whose
first word begins with ``//``, holds no rule (a comment).  Every other line holds one
rule: labels separated by ".", ``*`` standing for any one label, and a leading ``!``
marking an *exception* rule.  Rules are compared
without regard to case, so they are kept in lower case.

The comments ``// ===BEGIN ICANN DOMAINS===`` and ``// ===END ICANN DOMAINS===`` bound
the ICANN section, the names a registry delegates; every other rule (the section
``===BEGIN PRIVATE DOMAINS===``, or any rule of a list without those comments) is a
*private* rule, a name whose owner asked to be listed.  The header comments
``// VERSION: ...`` and ``// COMMIT: ...`` say which list it is.

Four kinds of rule text are refused with a :class:`ValueError` that names the line: an
empty label (``a..b``, ``.b``, ``a.``), a ``*`` that is not the leftmost label or not a
whole label (``a.*.b``, ``*a.b``; the list has never held one, and browsers read none),
an exception rule of one label, which would leave no public suffix at all, and a lone
surrogate, which no UTF-8 list can hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Section = Literal["icann", "private"]
Kind = Literal["normal", "wildcard", "exception"]

BEGIN_ICANN: Final = "===BEGIN ICANN DOMAINS==="
END_ICANN: Final = "===END ICANN DOMAINS==="

#: The label of a rule that stands for any one label.
WILDCARD: Final = "*"


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the list.

    ``labels`` are the rule's labels from left to right, in lower case, without the
    ``!`` of an exception; ``kind`` is ``"exception"`` for a rule written with ``!``,
    ``"wildcard"`` for one whose leftmost label is ``*``, else ``"normal"``.
    """

    labels: tuple[str, ...]
    kind: Kind
    section: Section
    line: int

    @property
    def text(self) -> str:
        """The rule as the list writes it: ``co.uk``, ``*.ck``, ``!www.ck``."""
        body = ".".join(self.labels)
        return "!" + body if self.kind == "exception" else body


@dataclass(frozen=True, slots=True)
class RuleList:
    """The rules of a list, in the order written, and the version its header names."""

    rules: tuple[Rule, ...]
    version: str | None = None
    commit: str | None = None


def _header_value(comment: str, name: str) -> str | None:
    """``VALUE`` of a comment ``// NAME: VALUE``, else None."""
    body = comment[2:].strip()
    prefix = name + ":"
    if body.startswith(prefix):
        return body[len(prefix) :].strip() or None
    return None


def _rule(word: str, section: Section, number: int) -> Rule:
    """The rule written as ``word`` on line ``number``."""
    exception = word.startswith("!")
    body = word[1:] if exception else word
    labels = tuple(body.lower().split("."))
    where = f"line {number}: rule {word!r}"
    if "" in labels:
        raise ValueError(f"{where} has an empty label")
    if not word.isascii():
        try:
            word.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"{where}: {exc.reason} at character {exc.start}") from None
    for index, label in enumerate(labels):
        if WILDCARD in label and (label != WILDCARD or index > 0):
            raise ValueError(f"{where}: '*' may only be the whole leftmost label")
        if label.startswith("!"):
            raise ValueError(f"{where}: '!' may only begin a rule")
    if exception and len(labels) < 2:
        raise ValueError(f"{where}: an exception rule needs at least two labels")
    kind: Kind = "exception" if exception else "wildcard" if labels[0] == WILDCARD else "normal"
    return Rule(labels, kind, section, number)


def read_rules(text: str) -> RuleList:
    """The rules of the list ``text`` (the contents of ``public_suffix_list.dat``)."""
    if not isinstance(text, str):
        raise TypeError(f"the list must be a str, not {type(text).__name__}")
    rules: list[Rule] = []
    version = commit = None
    icann = False
    for number, line in enumerate(text.split("\n"), 1):
        words = line.split(None, 1)
        if not words:
            continue
        word = words[0]
        if word.startswith("//"):
            comment = line.strip()
            marker = comment[2:].strip()
            if marker == BEGIN_ICANN:
                icann = True
            elif marker == END_ICANN:
                icann = False
            version = version or _header_value(comment, "VERSION")
            commit = commit or _header_value(comment, "COMMIT")
            continue
        rules.append(_rule(word, "icann" if icann else "private", number))
    return RuleList(tuple(rules), version, commit)
