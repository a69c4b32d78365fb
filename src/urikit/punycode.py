"""Punycode (RFC 3492): the Bootstring encoding of Unicode labels as ASCII.

:func:`encode` and :func:`decode` follow the pseudocode of RFC 3492 §6.3 and §6.2, with
its parameter values (§5) and its overflow handling (§6.4: integers wider than 32 bits
are an error, as they are for every implementation with 32-bit integers).  Both work on
the label without its ``xn--`` prefix (RFC 5891 §4.4), and raise :class:`PunycodeError`
for input that is not Punycode.

Each procedure has one step that, done as written, reads or moves the whole output for
every code point, and so takes time quadratic in the length of a label (a label has no
length limit in the URL Standard): §6.2 inserts each code point into the output array,
and §6.3 reads the whole input once for each code point value.  Those two steps are done
by :func:`place_insertions` and :func:`smaller_before`, each in O(n log n) steps with a
binary indexed tree, and ``tests/test_punycode.py`` holds both procedures to a literal
transcription of the pseudocode (``tests/rfc3492_oracle.py``).
"""

from __future__ import annotations

from typing import Final

from .errors import URIError

__all__ = ["PunycodeError", "decode", "encode", "place_insertions", "smaller_before"]

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
    # let n = initial_n; let i = 0; let bias = initial_bias
    n, i, bias = INITIAL_N, 0, INITIAL_BIAS
    # consume all code points before the last delimiter (if there is one) and copy them
    # to output, fail on any non-basic code point
    b = max(text.rfind(DELIMITER), 0)
    basic = text[:b]
    for position, ch in enumerate(basic):
        if ord(ch) >= 0x80:
            raise PunycodeError("a non-basic code point before the last delimiter",
                                text=text, position=position)  # fmt: skip
    # if more than zero code points were consumed then consume one more (which will be
    # the last delimiter)
    pos = b + 1 if b > 0 else 0
    insertions: list[tuple[int, int]] = []  # (i, n) of each "insert n into output at i"
    length = b  # length(output)
    # while the input is not exhausted do begin
    while pos < len(text):
        oldi, w = i, 1
        k = BASE
        while True:  # for k = base to infinity in steps of base do begin
            # consume a code point, or fail if there was none to consume
            if pos >= len(text):
                raise PunycodeError("the input ends inside a delta", text=text, position=pos)
            # let digit = the code point's digit-value, fail if it has none
            digit = _value(text[pos])
            if digit >= BASE:
                raise PunycodeError("not a Punycode digit", text=text, position=pos)
            pos += 1
            # let i = i + digit * w, fail on overflow
            if digit > (MAXINT - i) // w:
                raise PunycodeError("overflow (RFC 3492 §6.4)", text=text, position=pos - 1)
            i += digit * w
            t = _threshold(k, bias)
            if digit < t:
                break
            # let w = w * (base - t), fail on overflow
            if w > MAXINT // (BASE - t):
                raise PunycodeError("overflow (RFC 3492 §6.4)", text=text, position=pos - 1)
            w *= BASE - t
            k += BASE
        # let bias = adapt(i - oldi, length(output) + 1, test oldi is 0?)
        bias = adapt(i - oldi, length + 1, oldi == 0)
        # let n = n + i div (length(output) + 1), fail on overflow
        if i // (length + 1) > MAXINT - n:
            raise PunycodeError("overflow (RFC 3492 §6.4)", text=text, position=pos - 1)
        n += i // (length + 1)
        # let i = i mod (length(output) + 1)
        i %= length + 1
        # A label holds scalar values only (docs/deviations.md).
        if n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
            raise PunycodeError("a code point that is not a scalar value", text=text,
                                position=pos - 1)  # fmt: skip
        # insert n into output at position i (place_insertions makes the output)
        insertions.append((i, n))
        length += 1
        # increment i
        i += 1
    return place_insertions(basic, insertions)


#: The places of the output that one leaf of :func:`place_insertions`' tree counts.
PLACES_PER_LEAF: Final = 256


def place_insertions(basic: str, insertions: list[tuple[int, int]]) -> str:
    """The output of RFC 3492 §6.2: ``basic``, into which each ``(i, n)`` of
    ``insertions`` in turn inserts the code point ``n`` at index ``i``.

    Inserting into an array moves every code point after ``i`` each time: O(n²) steps
    for a label of n code points.  Here the insertions are read in reverse instead.  The
    insertions made after a given one keep the code points then in the output in their
    order, so that one ends at the ``i``-th (from 0) of the places that the later ones
    do not take, and the basic code points fill, in order, the places that none takes.
    The places are kept in blocks of :data:`PLACES_PER_LEAF`, each listing its free
    places, and a binary indexed tree over the blocks counts them, so that the ``i``-th
    free place is found in O(log n) steps and the whole takes O(n log n).
    """
    size = len(basic) + len(insertions)
    free = [list(range(start, min(start + PLACES_PER_LEAF, size)))
            for start in range(0, size, PLACES_PER_LEAF)]  # fmt: skip
    # tree[j] counts the free places of blocks j - lowbit(j) to j - 1 (nodes from 1, the
    # blocks padded with empty ones to a power of two, top, which is the root).
    top = 1 << (len(free) - 1).bit_length() if free else 0
    tree = [0] * (top + 1)
    for node, places in enumerate(free, 1):
        tree[node] = len(places)
    for node in range(1, top):
        tree[node + (node & -node)] += tree[node]
    output = [""] * size
    for i, n in reversed(insertions):
        # Descend from the root: step over a node whose free places all come before the
        # one sought; a node not stepped over holds it, and has one free place less.
        block, rank, step = 0, i, top
        while step:
            node = block + step
            count = tree[node]
            if count <= rank:
                block, rank = node, rank - count
            else:
                tree[node] = count - 1
            step >>= 1
        output[free[block].pop(rank)] = chr(n)
    remaining = iter(basic)
    return "".join(ch or next(remaining) for ch in output)


def smaller_before(code_points: list[int]) -> list[tuple[int, list[int]]]:
    """For RFC 3492 §6.3: each non-basic code point ``m`` of the input, in increasing
    order, with, for each of its occurrences in order, the number of code points less
    than ``m`` before it.

    §6.3 counts them by reading the whole input once for each ``m`` ("for each code
    point c in the input (in order)"): O(n²) steps for a label of n distinct code
    points.  Here the positions of the code points handled so far are marked in a binary
    indexed tree, which counts those before a position in O(log n) steps.
    """
    size = len(code_points)
    # tree[p] counts the marked positions p - lowbit(p) to p - 1 (nodes from 1); the basic
    # code points are marked first.
    tree = [0] * (size + 1)
    occurrences: dict[int, list[int]] = {}
    for position, cp in enumerate(code_points):
        if cp < INITIAL_N:
            tree[position + 1] = 1
        else:
            occurrences.setdefault(cp, []).append(position)
    for node in range(1, size):
        parent = node + (node & -node)
        if parent <= size:
            tree[parent] += tree[node]
    result = []
    for m in sorted(occurrences):
        positions = occurrences[m]
        counts = []
        for position in positions:
            total, node = 0, position  # the marked positions before it: nodes 1 to position
            while node:
                total += tree[node]
                node &= node - 1
            counts.append(total)
        result.append((m, counts))
        for position in positions:
            node = position + 1
            while node <= size:
                tree[node] += 1
                node += node & -node
    return result


def encode(text: str) -> str:
    """RFC 3492 §6.3: Encoding procedure; the result has no ``xn--`` prefix."""
    # let n = initial_n; let delta = 0; let bias = initial_bias
    n, delta, bias = INITIAL_N, 0, INITIAL_BIAS
    # let h = b = the number of basic code points in the input
    # copy them to the output in order, followed by a delimiter if b > 0
    output = [ch for ch in text if ord(ch) < INITIAL_N]
    h = b = len(output)
    if b > 0:
        output.append(DELIMITER)
    # while h < length(input) do begin
    #   let m = the minimum {non-basic} code point >= n in the input
    for m, before in smaller_before([ord(ch) for ch in text]):
        # let delta = delta + (m - n) * (h + 1), fail on overflow
        if m - n > (MAXINT - delta) // (h + 1):
            raise PunycodeError("overflow (RFC 3492 §6.4)", text=text)
        delta += (m - n) * (h + 1)
        # let n = m
        n = m
        # for each code point c in the input (in order) do begin
        #   if c < n then increment delta, fail on overflow
        #   if c == n then begin ...
        smaller = h  # every code point less than n, h of them
        counted = 0  # those before the occurrence of n last handled
        for count in before:
            delta += count - counted
            counted = count
            if delta > MAXINT:
                raise PunycodeError("overflow (RFC 3492 §6.4)", text=text)
            # let q = delta
            q, k = delta, BASE
            while True:  # for k = base to infinity in steps of base do begin
                t = _threshold(k, bias)
                if q < t:
                    break
                # output the code point for digit t + ((q - t) mod (base - t))
                output.append(_digit(t + (q - t) % (BASE - t)))
                # let q = (q - t) div (base - t)
                q = (q - t) // (BASE - t)
                k += BASE
            # output the code point for digit q
            output.append(_digit(q))
            # let bias = adapt(delta, h + 1, test h equals b?)
            bias = adapt(delta, h + 1, h == b)
            # let delta = 0; increment h
            delta = 0
            h += 1
        # the code points less than n after its last occurrence
        delta += smaller - counted
        if delta > MAXINT:
            raise PunycodeError("overflow (RFC 3492 §6.4)", text=text)
        # increment delta and n
        delta += 1
        n += 1
    return "".join(output)
