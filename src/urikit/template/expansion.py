"""Expansion of a URI Template (RFC 6570 §3), following the algorithm of Appendix A.

The values a caller gives are first read into the three forms of §2.3: a
string, a list of strings, or an associative array of (name, value) pairs, or
undefined (:func:`value_form`).  :func:`expand_expression` is then §3.2.1 for
one expression, step by step, with the operator's row of the Appendix A table
(``first``, ``sep``, ``named``, ``ifemp``, ``allow``).

Where the RFC leaves a choice open (docs/deviations.md): ``True`` and ``False``
are ``true`` and ``false``; a ``float`` is written as ``repr`` writes it
(``37.76``, ``1e+20``); a ``None`` member of a list, or a ``None`` value of an
associative array, is an undefined member and left out (§2.4.2, §3.2.1).
Where §3.2.1 and the non-normative Appendix A differ, §3.2.1 is followed: an
exploded pair with an empty value is ``name`` (``name=`` for ``?`` and ``&``),
and the names of exploded pairs are encoded as values are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias

from ..percent import percent_encode
from .syntax import Expression, Operator, TemplateError, VarSpec

__all__ = [
    "Pairs",
    "Values",
    "encode",
    "encode_u",
    "encode_ur",
    "expand_expression",
    "prefix_of",
    "value_form",
]

#: The values of a template's variables by name.
Values: TypeAlias = Mapping[str, object]


class Pairs(tuple[tuple[str, str], ...]):
    """The defined (name, value) pairs of an associative array, in order (§2.3)."""

    __slots__ = ()


#: A value read into the forms of §2.3: a string, a list of defined members, or pairs.
Form: TypeAlias = "str | list[str] | Pairs"

# --- §1.5 the allowed sets: U and U+R -------------------------------------------------

#: U: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
_ONLY_U: Final = re.compile(r"[A-Za-z0-9\-._~]*")
#: U+R: unreserved / reserved / pct-encoded
_ONLY_UR: Final = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
#: What U+R encodes: a "%" that starts no pct-encoded triplet, or a run of other characters.
_OUTSIDE_UR: Final = re.compile(r"%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
#: The pct-encoded triplet of each ASCII character.
_TRIPLET: Final = {chr(i): f"%{i:02X}" for i in range(128)}
_ONLY_UR_NO_PCT: Final = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]*")


def encode_u(value: str) -> str:
    """U (§3.2.1): ``value`` with each character outside unreserved written as the
    pct-encoded triplets of its UTF-8 octets (§1.6).  A lone surrogate, which has no
    UTF-8 form, raises ``UnicodeEncodeError``."""
    if (value.isalnum() and value.isascii()) or _ONLY_U.fullmatch(value):
        return value
    if len(value) == 1 and value.isascii():
        return _TRIPLET[value]
    if not value.isascii():
        value.encode("utf-8")  # a lone surrogate raises here
    return percent_encode(value, "unreserved")


def _encode_run(m: re.Match[str]) -> str:
    run = m.group()
    triplet = _TRIPLET.get(run)
    return triplet if triplet is not None else percent_encode(run, "unreserved")


def encode_ur(value: str) -> str:
    """U+R (§3.2.3): as :func:`encode_u`, but unreserved and reserved characters and
    pct-encoded triplets pass as they are; a "%" that starts no triplet is "%25"."""
    if _ONLY_UR_NO_PCT.fullmatch(value) or ("%" in value and _ONLY_UR.fullmatch(value)):
        return value
    if not value.isascii():
        value.encode("utf-8")  # a lone surrogate raises here
    return _OUTSIDE_UR.sub(_encode_run, value)


def encode(value: str, allow_reserved: bool) -> str:
    """``value`` encoded for the allowed set: U+R with ``allow_reserved``, else U."""
    return encode_ur(value) if allow_reserved else encode_u(value)


_UTF8_TRIPLETS: Final = re.compile(
    r"%[0-7][0-9A-Fa-f]"
    r"|%[Cc][2-9A-Fa-f]%[89ABab][0-9A-Fa-f]"
    r"|%[Dd][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]"
    r"|%[Ee][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){2}"
    r"|%[Ff][0-4](?:%[89ABab][0-9A-Fa-f]){3}"
    r"|%[0-9A-Fa-f]{2}"
)


def prefix_of(value: str, max_length: int, allow_reserved: bool) -> str:
    """The first ``max_length`` characters of ``value`` (§2.4.1, §3.2.1).

    Characters are code points.  Where pct-encoded triplets pass unencoded (U+R),
    a triplet is one character of the decoded value, and so are the triplets of
    one UTF-8 sequence: "care must be taken to avoid splitting the value in
    mid-character" (§3.2.1).
    """
    if len(value) <= max_length:
        return value
    if not allow_reserved or "%" not in value:
        return value[:max_length]
    i, n = 0, len(value)
    for _ in range(max_length):
        if i >= n:
            break
        m = _UTF8_TRIPLETS.match(value, i) if value[i] == "%" else None
        i = m.end() if m is not None else i + 1
    return value[:i]


# --- §2.3 the forms of a value ------------------------------------------------------


def _scalar(value: object, name: str) -> str | None:
    """A value that is not composite, as the string it expands to."""
    if type(value) is str or isinstance(value, str):
        return value
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return int.__repr__(value)
        except ValueError:  # longer than sys.get_int_max_str_digits()
            raise TemplateError(
                f"the integer value of {name!r} has more digits than Python writes as text "
                "(sys.set_int_max_str_digits)"
            ) from None
    if isinstance(value, float):
        return float.__repr__(value)
    raise TypeError(
        f"the value of {name!r} is a {type(value).__name__}: a member or pair of a composite "
        "value is a str, int, float, bool or None"
    )


def value_form(value: object, name: str) -> Form | None:
    """``value`` as a string, a list of its defined members, or the pairs of an
    associative array with a defined value; ``None`` when undefined (§2.3): ``None``
    itself, an empty list, an associative array without a defined value."""
    kind = type(value)
    if kind is str:
        return value  # type: ignore[return-value]
    if kind is list or kind is tuple:
        read = [item if type(item) is str else _scalar(item, name) for item in value]  # type: ignore[attr-defined]
        members = [member for member in read if member is not None]
        return members if members else None
    if isinstance(value, str):
        return value
    if kind is dict or isinstance(value, Mapping):
        pairs = []
        for key, item in value.items():  # type: ignore[attr-defined]
            text = item if type(item) is str else _scalar(item, name)
            if text is not None:
                key_text = key if type(key) is str else _scalar(key, name)
                if key_text is None:
                    raise TypeError(f"the associative array {name!r} has the name None")
                pairs.append((key_text, text))
        return Pairs(pairs) if pairs else None
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        members = [text for text in (_scalar(item, name) for item in value) if text is not None]
        return members if members else None
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"the value of {name!r} is bytes: give the text (str) it stands for")
    return _scalar(value, name)


# --- §3.2.1 variable expansion, as Appendix A writes it -------------------------------


def _prefix_on_composite(spec: VarSpec, value: Form, template: str | None) -> TemplateError:
    kind = "an associative array" if isinstance(value, Pairs) else "a list"
    return TemplateError(
        f"the prefix modifier :{spec.prefix} applies to a string, and {spec.name!r} is {kind} "
        "(RFC 6570 §2.4.1)",
        text=template,
        position=None if template is None else spec.start + len(spec.name),
        rule="prefix",
    )


def _no_utf8(spec: VarSpec, exc: UnicodeEncodeError, template: str | None) -> TemplateError:
    bad = exc.object[exc.start : exc.end]
    return TemplateError(
        f"the value of {spec.name!r} holds {bad!r}, a lone surrogate, which has no UTF-8 form "
        "to pct-encode (RFC 6570 §1.6, RFC 3629)",
        text=template,
        position=None if template is None else spec.start,
        rule="varspec",
    )


def expand_varspec(op: Operator, spec: VarSpec, value: Form, template: str | None = None) -> str:
    """The expansion of one defined variable, without ``first`` or ``sep`` (§3.2.1)."""
    allow = op.allow_reserved
    if isinstance(value, str):
        # If this variable's value is a string, then ...
        out = ""
        if op.named:
            # append the varname (encoded as for literals: a varname needs none) and,
            # if the value is empty, ifemp; otherwise "=".
            if not value:
                return spec.name + op.ifemp
            out = spec.name + "="
        if spec.prefix is not None:
            return out + encode(prefix_of(value, spec.prefix, allow), allow)
        return out + encode(value, allow)
    if spec.prefix is not None:
        raise _prefix_on_composite(spec, value, template)
    if not spec.explode:
        # else if no explode modifier is given: name= (when named), then the members
        # or the pairs as "name,value", comma-separated.
        out = spec.name + "=" if op.named else ""
        if isinstance(value, Pairs):
            return out + ",".join([encode(k, allow) + "," + encode(v, allow) for k, v in value])
        return out + ",".join([encode(member, allow) for member in value])
    # else if an explode modifier is given ...
    if isinstance(value, Pairs):
        # each pair as name=value, or, for an empty value, name followed by ifemp
        # ("name" but for "?" and "&": §3.2.1), separated by sep
        return op.sep.join(
            [encode(k, allow) + ("=" + encode(v, allow) if v else op.ifemp) for k, v in value]
        )
    if op.named:
        # a list is paired with the varname: varname=member, or varname ifemp if empty
        return op.sep.join(
            [spec.name + ("=" + encode(member, allow) if member else op.ifemp) for member in value]
        )
    return op.sep.join([encode(member, allow) for member in value])


def expand_expression(
    expression: Expression, forms: Mapping[str, Form | None], template: str | None = None
) -> str:
    """§3.2.1 for one expression: ``first`` before the first defined variable, ``sep``
    between defined variables, nothing at all when every variable is undefined.
    ``forms`` holds the values already read by :func:`value_form`."""
    op = expression.operator
    pieces = []
    for spec in expression.varspecs:
        value = forms.get(spec.name)
        if value is None:
            continue  # undefined: skip to the next varspec
        try:
            pieces.append(expand_varspec(op, spec, value, template))
        except UnicodeEncodeError as exc:
            raise _no_utf8(spec, exc, template) from None
    if not pieces:
        return ""
    return op.first + op.sep.join(pieces)
