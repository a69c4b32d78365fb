"""Punycode (RFC 3492): the Bootstring encoding of Unicode labels as ASCII.

:func:`encode` and :func:`decode` follow the pseudocode of RFC 3492 §6.3 and §6.2, with
its parameter values (§5) and its overflow handling (§6.4: integers wider than 32 bits
are an error, as they are for every implementation with 32-bit integers).  Both work on
the label without its ``xn--`` prefix (RFC 5891 §4.4), and raise :class:`PunycodeError`
for input that is not Punycode.
"""

from __future__ import annotations

from typing import Final

from .errors import URIError

__all__ = ["PunycodeError", "decode", "encode"]

# RFC 3492 §5: Parameter values for Punycode.
BASE: Final = 36
TMIN: Final = 1
TMAX: Final = 26
SKEW: Final = 38
DAMP: Final = 700
INITIAL_BIAS: Final = 72
INITIAL_N: Final = 0x80
DELIMITER: Final = "-"
#: RFC 3492 §6.4: the largest value the integers may hold.
MAXINT: Final = 0x7FFFFFFF


class PunycodeError(URIError):
    """Text that RFC 3492 cannot decode (or, for :func:`encode`, an overflow, §6.4)."""


def adapt(delta: int, numpoints: int, firsttime: bool) -> int:
    """RFC 3492 §6.1: Bias adaptation function."""
    delta = delta // DAMP if firsttime else delta // 2
    delta += delta // numpoints
    k = 0
    while delta > ((BASE - TMIN) * TMAX) // 2:
        delta //= BASE - TMIN
        k += BASE
    return k + (((BASE - TMIN + 1) * delta) // (delta + SKEW))


def _digit(d: int) -> str:
    """The basic code point for the digit value ``d`` (RFC 3492 §5): a-z, then 0-9."""
    return chr(d + 22 + 75 * (d < 26))


def _value(ch: str) -> int:
    """The digit value of a basic code point, case-insensitively (RFC 3492 §5), or BASE."""
    cp = ord(ch)
    if 0x30 <= cp <= 0x39:
        return cp - 22
    if 0x41 <= cp <= 0x5A:
        return cp - 0x41
    if 0x61 <= cp <= 0x7A:
        return cp - 0x61
    return BASE


def _threshold(k: int, bias: int) -> int:
    return TMIN if k <= bias else TMAX if k >= bias + TMAX else k - bias


def decode(text: str) -> str:
    """RFC 3492 §6.2: Decoding procedure; ``text`` is a label without ``xn--``."""
    # Let b be the number of input code points before the last delimiter, or 0 if none;
    # copy them to the output (each must be basic).
    b = text.rfind(DELIMITER)
    if b < 0:
        b = 0
    output = list(text[:b])
    for position, ch in enumerate(output):
        if ord(ch) >= 0x80:
            raise PunycodeError("a non-basic code point before the last delimiter",
                                text=text, position=position)  # fmt: skip
    n, i, bias = INITIAL_N, 0, INITIAL_BIAS
    pos = b + 1 if b > 0 else 0
    while pos < len(text):
        oldi, w, k = i, 1, BASE
        while True:
            if pos >= len(text):
                raise PunycodeError("the input ends inside a delta", text=text, position=pos)
            digit = _value(text[pos])
            if digit >= BASE:
                raise PunycodeError("not a Punycode digit", text=text, position=pos)
            pos += 1
            if digit > (MAXINT - i) // w:
                raise PunycodeError("overflow (RFC 3492 §6.4)", text=text, position=pos - 1)
            i += digit * w
            t = _threshold(k, bias)
            if digit < t:
                break
            if w > MAXINT // (BASE - t):
                raise PunycodeError("overflow (RFC 3492 §6.4)", text=text, position=pos - 1)
            w *= BASE - t
            k += BASE
        bias = adapt(i - oldi, len(output) + 1, oldi == 0)
        if i // (len(output) + 1) > MAXINT - n:
            raise PunycodeError("overflow (RFC 3492 §6.4)", text=text, position=pos - 1)
        n += i // (len(output) + 1)
        i %= len(output) + 1
        if n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
            raise PunycodeError("a code point that is not a scalar value", text=text,
                                position=pos - 1)  # fmt: skip
        output.insert(i, chr(n))
        i += 1
    return "".join(output)


def encode(text: str) -> str:
    """RFC 3492 §6.3: Encoding procedure; the result has no ``xn--`` prefix.

    The procedure's inner loop counts, for each code point ``m`` handled in turn, the
    code points below ``m`` that come before each occurrence of ``m``; they are counted
    here with a binary indexed tree over the positions, so that a label of many distinct
    code points takes O(n log n) steps, not O(n²).  The output is the procedure's.
    """
    code_points = [ord(ch) for ch in text]
    size = len(code_points)
    output = [ch for ch in text if ord(ch) < 0x80]
    b = h = len(output)
    if b > 0:
        output.append(DELIMITER)
    tree = [0] * (size + 1)  # counts the code points already handled, by position

    def mark(position: int) -> None:
        position += 1
        while position <= size:
            tree[position] += 1
            position += position & -position

    def handled_before(position: int) -> int:
        total = 0
        while position > 0:
            total += tree[position]
            position -= position & -position
        return total

    occurrences: dict[int, list[int]] = {}
    for position, cp in enumerate(code_points):
        if cp < INITIAL_N:
            mark(position)
        else:
            occurrences.setdefault(cp, []).append(position)
    n, delta, bias = INITIAL_N, 0, INITIAL_BIAS
    for m in sorted(occurrences):
        if m - n > (MAXINT - delta) // (h + 1):
            raise PunycodeError("overflow (RFC 3492 §6.4)", text=text)
        delta += (m - n) * (h + 1)
        n = m
        previous = 0  # the handled code points before the last occurrence of n
        for position in occurrences[m]:
            before = handled_before(position)
            delta += before - previous
            previous = before
            if delta > MAXINT:
                raise PunycodeError("overflow (RFC 3492 §6.4)", text=text)
            q, k = delta, BASE
            while True:
                t = _threshold(k, bias)
                if q < t:
                    break
                output.append(_digit(t + (q - t) % (BASE - t)))
                q = (q - t) // (BASE - t)
                k += BASE
            output.append(_digit(q))
            bias = adapt(delta, h + 1, h == b)
            delta = 0
            h += 1
        delta += handled_before(size) - previous
        for position in occurrences[m]:
            mark(position)
        delta += 1
        n += 1
    return "".join(output)
