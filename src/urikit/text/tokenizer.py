"""The start tags of an HTML document, as the WHATWG HTML tokenizer reads them.

WHATWG HTML §13.2.5 (tokenization), reduced to what a list of links needs:
the start tags and their attributes, in document order, with where each
begins.  The states kept are those that decide where a tag begins and ends:

* data (§13.2.5.1) and tag open (§13.2.5.6): a "<" begins a tag only before an
  ASCII letter, "/", "!" or "?"; otherwise it is text;
* tag name, attribute name and value, quoted and unquoted, and self-closing
  (§13.2.5.8, §13.2.5.32 to §13.2.5.40): a ">" inside a quoted value does not
  end the tag; a tag cut off by the end of the input is dropped (eof-in-tag);
* markup declaration open (§13.2.5.42): comments (§13.2.5.43 to §13.2.5.52,
  ``<!-->`` and ``--!>`` included), DOCTYPE and other bogus comments end at
  the first ">"; ``<?`` and ``</`` before a non-letter are bogus comments;
  a CDATA section (§13.2.5.69) exists only in foreign content;
* RCDATA (``<title>``, ``<textarea>``), RAWTEXT (``<style>``, ``<xmp>``,
  ``<iframe>``, ``<noembed>``, ``<noframes>``), script data with its escaped
  and double-escaped states (``<script>``), and PLAINTEXT, switched to by the
  tree builder after these start tags (§13.2.6.4.7): only the appropriate end
  tag leaves them.

Three things of tree construction are kept because they change tokenization:
inside ``<svg>`` and ``<math>`` (foreign content, §13.2.6.5) these elements
are not switched to raw text and ``<![CDATA[`` is a section; an HTML element
that breaks out of foreign content ends it; and with the scripting flag set, as
in a browser, ``<noscript>`` is raw text (§13.2.6.4.4, §13.2.6.4.7), while
without it, as for a crawler that runs no script, it holds markup.  Integration
points (``<foreignObject>``) and the rest of tree construction are not modelled.

Each step moves forward: a search starts where the previous one ended, so
the work is linear in the length of the document.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from html.entities import html5
from typing import Final, NamedTuple

__all__ = ["StartTag", "decode_attribute", "start_tag_attributes", "start_tags"]


class StartTag(NamedTuple):
    """A start tag token: its name and attributes (ASCII lower case), and its offset."""

    name: str
    attributes: dict[str, str]
    offset: int


# ASCII whitespace (WHATWG Infra): TAB, LF, FF, CR, SPACE.
_SPACE: Final = "\t\n\f\r "
# A tag name, attribute name or unquoted value; NUL becomes U+FFFD (§13.2.5.8).
_TAG_NAME: Final = re.compile(r"[A-Za-z][^\t\n\f\r />]*")
# Where the data state can leave text: "<" before a letter (a start tag, whose
# name is group 1, and group 2 its ">" when it has no attributes), "!", "/" or "?".
_TAG_OPEN: Final = re.compile(r"<(?:([A-Za-z][^\t\n\f\r />]*)(>)?|[!/?])")
# One attribute (§13.2.5.32 to §13.2.5.39), or the blanks and "/" before the
# tag's end: the name (a "=" that begins a name belongs to it), then a value
# double-quoted, single-quoted (the closing quote's group is None when the input
# ends first) or unquoted.
_ATTRIBUTE: Final = re.compile(
    r"[\t\n\f\r /]*(?:([^\t\n\f\r />][^\t\n\f\r />=]*)[\t\n\f\r ]*"
    r"(?:=[\t\n\f\r ]*(?:\"([^\"]*)(\")?|'([^']*)(')?|([^\t\n\f\r >]*)))?)?"
)
_DOUBLE: Final = 2
_SINGLE: Final = 4
_VALUE_GROUP: Final = {3: 2, 5: 4, 6: 6}  # closing quote or unquoted value -> value group
_COMMENT_END: Final = re.compile(r"--!?>")
_LOWER: Final = {**{c: c + 32 for c in range(0x41, 0x5B)}, 0: 0xFFFD}

_RCDATA: Final = frozenset({"title", "textarea"})
_RAWTEXT: Final = frozenset({"style", "xmp", "iframe", "noembed", "noframes"})
_FOREIGN: Final = frozenset({"svg", "math"})
# §13.2.6.5: start tags that leave foreign content ("font" only with color, face or size).
# fmt: off
_BREAKOUT: Final = frozenset({
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
    "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
    "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike",
    "sub", "sup", "table", "tt", "u", "ul", "var",
})
# fmt: on
_FONT_BREAKOUT: Final = frozenset({"color", "face", "size"})

# Raw text with the scripting flag set (§13.2.6.4.4 "in head", §13.2.6.4.7 "in body").
_SCRIPTING_RAWTEXT: Final = "noscript"
# The appropriate end tag of a raw text element: "</name" then whitespace, "/" or ">".
_END_TAG: Final = {
    name: re.compile(f"</{name}[\t\n\f\r />]", re.IGNORECASE)
    for name in _RCDATA | _RAWTEXT | {_SCRIPTING_RAWTEXT}
}
# Script data (§13.2.5.4, §13.2.5.15 to §13.2.5.31): "<!--" enters the escaped
# state, where "<script" enters the double-escaped one and "-->" leaves both.
_SCRIPT_DATA: Final = re.compile(r"<!--|</script[\t\n\f\r />]", re.IGNORECASE)
_SCRIPT_ESCAPED: Final = re.compile(r"-->|</?script[\t\n\f\r />]", re.IGNORECASE)
_SCRIPT_DOUBLE_ESCAPED: Final = re.compile(r"-->|</script[\t\n\f\r />]", re.IGNORECASE)


def _lower(name: str) -> str:
    """ASCII lower case, NUL replaced (§13.2.5.8: only ASCII upper alpha is lowered)."""
    return name.translate(_LOWER)


def start_tags(
    html: str, names: Container[str] | None = None, *, scripting: bool = True
) -> Iterator[StartTag]:
    """The start tags of ``html`` in document order (WHATWG HTML §13.2.5).

    With ``names``, only the start tags of those names (lower case) are
    yielded; the others are read all the same, for where they end.  With
    ``scripting`` (the scripting flag of §13.2.4.5, set in browsers),
    ``<noscript>`` holds raw text; without it, markup.
    """
    position = 0
    foreign = 0  # depth of open <svg> and <math> elements
    while True:
        found = _TAG_OPEN.search(html, position)  # 13.2.5.1 data state
        if found is None:
            return
        lt = found.start()
        tag_name = found.group(1)
        if tag_name is not None:
            tag_name = _lower(tag_name)
            kept = names is None or tag_name in names or (foreign > 0 and tag_name == "font")
            attributes: dict[str, str] | None = {} if kept else None
            if found.group(2) is not None:
                position, self_closing = found.end(), False
            else:
                tag = _tag(html, found.end(), attributes)
                if tag is None:  # 13.2.5.8 eof-in-tag: the tag is not emitted
                    return
                position, self_closing = tag
            if attributes is not None and (names is None or tag_name in names):
                yield StartTag(tag_name, attributes, lt)
            position, foreign = _after_start_tag(
                html, position, tag_name, attributes, self_closing, foreign, scripting
            )
            continue
        ch = html[lt + 1]
        if ch == "!":  # 13.2.5.42 markup declaration open
            position = _declaration(html, lt + 2, foreign > 0)
            continue
        if ch == "?":  # 13.2.5.6: a bogus comment
            position = _to_gt(html, lt + 2)
            continue
        if ch == "/":  # 13.2.5.7 end tag open
            name = _TAG_NAME.match(html, lt + 2)
            if name is None:
                position = lt + 3 if html.startswith(">", lt + 2) else _to_gt(html, lt + 2)
                continue
            tag = _tag(html, name.end(), None)
            if tag is None:
                return
            position = tag[0]
            end_name = _lower(name.group())
            if foreign and end_name in _FOREIGN:
                foreign -= 1
            elif foreign and end_name in ("br", "p"):  # 13.2.6.5: these end tags break out
                foreign = 0
            continue


def _after_start_tag(
    html: str,
    position: int,
    name: str,
    attributes: dict[str, str] | None,
    self_closing: bool,
    foreign: int,
    scripting: bool,
) -> tuple[int, int]:
    """Where tokenizing goes on after a start tag, and the depth of foreign content.

    The tree builder switches to RCDATA, RAWTEXT, script data or PLAINTEXT
    after these elements (§13.2.6.4.7), ``<noscript>`` among them with the
    scripting flag, except in foreign content (§13.2.6.5), which ``<svg>`` and
    ``<math>`` open and an HTML element breaks out of.
    """
    if foreign:
        if name in _BREAKOUT or (
            name == "font" and attributes is not None and _FONT_BREAKOUT & attributes.keys()
        ):
            return position, 0
        return position, foreign + (name in _FOREIGN and not self_closing)
    if name in _FOREIGN:
        return position, 0 if self_closing else 1
    if name == "script":
        return _script_data(html, position), 0
    if name == "plaintext":
        return len(html), 0
    if name in _END_TAG and (scripting or name != _SCRIPTING_RAWTEXT):
        end = _END_TAG[name].search(html, position)
        return (len(html) if end is None else end.start()), 0
    return position, 0


def _tag(html: str, position: int, attributes: dict[str, str] | None) -> tuple[int, bool] | None:
    """Read the attributes of a tag whose name ends at ``position``: where it ends; self-closing?

    §13.2.5.32 to §13.2.5.40.  None when the input ends inside the tag.  The
    attributes are put in ``attributes`` unless it is None: a repeated one
    keeps its first value; one without a value has "".
    """
    seen: set[str] = set()  # names as written, read once
    # Each match begins where the previous one ended: the pattern matches, if
    # only the empty string, everywhere; the empty match at ">" or at the end
    # of the input ends the tag.
    for found in _ATTRIBUTE.finditer(html, position):
        last = found.lastindex  # the group that matched last tells the attribute's shape
        if last is None:  # 13.2.5.32: ">" or the end of the input
            end = found.end()
            if end >= len(html):
                return None
            return end + 1, end > found.start() and html[end - 1] == "/"
        if last in (_DOUBLE, _SINGLE):  # an open quote: 13.2.5.36 eof-in-tag
            return None
        if attributes is not None:
            raw = found.group(1)
            if raw in seen:
                continue
            seen.add(raw)
            name = _lower(raw)
            if name not in attributes:
                value = found.group(_VALUE_GROUP[last]) if last > 1 else ""
                attributes[name] = decode_attribute(value.replace("\0", "\ufffd"))
    return None


def _declaration(html: str, position: int, foreign: bool) -> int:
    """Where a markup declaration (after "<!") ends (§13.2.5.42)."""
    if html.startswith("--", position):  # 13.2.5.43 comment start
        body = position + 2
        if html.startswith(">", body):  # <!--> abrupt closing of an empty comment
            return body + 1
        if html.startswith("->", body):  # <!--->
            return body + 2
        close = _COMMENT_END.search(html, body)
        return len(html) if close is None else close.end()
    if foreign and html.startswith("[CDATA[", position):  # 13.2.5.69 CDATA section
        end = html.find("]]>", position + 7)
        return len(html) if end < 0 else end + 3
    return _to_gt(html, position)  # DOCTYPE and bogus comments end at the first ">"


def _to_gt(html: str, position: int) -> int:
    """After the next ">" (the end of a bogus comment, §13.2.5.41), or the end of input."""
    gt = html.find(">", position)
    return len(html) if gt < 0 else gt + 1


def _script_data(html: str, position: int) -> int:
    """Where the script data of a ``<script>`` ends: at its "</script" end tag, or the end.

    §13.2.5.4 and §13.2.5.15 to §13.2.5.31.  After "<!--" the data is escaped;
    there "<script" begins the double-escaped state, which only "</script"
    (back to escaped) or "-->" (back to script data) leaves; in the escaped
    state "</script" still ends the element and "-->" returns to script data.
    """
    while True:
        found = _SCRIPT_DATA.search(html, position)
        if found is None:
            return len(html)
        if found.group()[1] == "/":
            return found.start()
        position = found.start() + 2  # the dashes of "<!--" count for "-->" (<!--> ends it)
        while True:
            found = _SCRIPT_ESCAPED.search(html, position)
            if found is None:
                return len(html)
            if found.group() == "-->":
                position = found.end()
                break
            if found.group()[1] == "/":
                return found.start()
            double = _SCRIPT_DOUBLE_ESCAPED.search(html, found.end())
            if double is None:
                return len(html)
            if double.group() == "-->":
                position = double.end()
                break
            position = double.end()


def start_tag_attributes(tag_text: str) -> dict[str, str]:
    """The attributes of one start tag's text (``<a href=x>``), names in lower case.

    Values are decoded (§13.2.5.72, :func:`decode_attribute`).  A repeated
    attribute keeps its first value; an attribute without a value has "".
    A tag without its ">" is read to the end of the text.
    """
    name = _TAG_NAME.match(tag_text, 1)
    if not tag_text.startswith("<") or name is None:
        return {}
    attributes: dict[str, str] = {}
    _tag(tag_text if tag_text.endswith(">") else tag_text + ">", name.end(), attributes)
    return attributes


# -- character references in attribute values (§13.2.5.72 to §13.2.5.80) -------------

# Numeric, or a name of at most 32 characters (the longest in the table),
# matched below by its longest prefix in the table.
_CHARREF: Final = re.compile(
    r"&(?:#[xX]([0-9A-Fa-f]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]{0,31};?))"
)
# §13.2.5.80: code points 0x80 to 0x9F are read as windows-1252 where it has a character.
_C1: Final = {
    code: char
    for code in range(0x80, 0xA0)
    if (char := bytes([code]).decode("cp1252", errors="ignore"))
}


def decode_attribute(value: str) -> str:
    """Decode the character references of an attribute value (HTML §13.2.5.72).

    A named reference is matched by its longest prefix in the table.  In an
    attribute, one not ended by ";" and followed by "=" or a letter or digit
    is kept as written (§13.2.5.73), so ``&copy=2`` stays ``&copy=2``.
    """
    if "&" not in value:
        return value
    return _CHARREF.sub(_replace, value)


def _replace(found: re.Match[str]) -> str:
    hexadecimal, decimal, name = found.groups()
    if name is None:
        code = _value(hexadecimal, 16) if hexadecimal is not None else _value(decimal, 10)
        return _numeric(code)
    for size in range(len(name), 1, -1):
        decoded = html5.get(name[:size])
        if decoded is None:
            continue
        following = found.string[found.start() + 1 + size : found.start() + 2 + size]
        alphanumeric = following.isascii() and following.isalnum()
        if name[size - 1] != ";" and (following == "=" or alphanumeric):
            return found.group()
        return decoded + name[size:]
    return found.group()


def _value(digits: str, base: int) -> int:
    """The value of a run of digits, capped just above U+10FFFF (no long number is parsed)."""
    digits = digits.lstrip("0")
    return int(digits or "0", base) if len(digits) <= 8 else 0x110000


def _numeric(code: int) -> str:
    """§13.2.5.80 numeric character reference end state."""
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return _C1.get(code, chr(code))
