"""RFC 3492 §6.2 and §6.3 written out literally: the oracle for ``urikit.punycode``.

This is the pseudocode of §6.1 (Bias adaptation function), §6.2 (Decoding procedure) and
§6.3 (Encoding procedure), step by step, with the parameter values of §5 and the overflow
handling of §6.4 for 32-bit integers: the output array is inserted into, and the input is
read once for each code point value.  It is quadratic on purpose and is used only by the
tests, to check the fast code.  The one line that is not the RFC's is marked: a decoded
value that is not a Unicode scalar value fails (``docs/deviations.md``), as it does in
``urikit.punycode``.
"""

from __future__ import annotations

# RFC 3492 §5.  Parameter values for Punycode
base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
initial_bias, initial_n = 72, 0x80
maxint = 0x7FFFFFFF  # §6.4, for 32-bit integers


class Failure(Exception):
    """The pseudocode's "fail"."""


def digit_value(cp: str) -> int | None:
    """§5: 0-25 are a-z or A-Z, 26-35 are 0-9."""
    if "a" <= cp <= "z":
        return ord(cp) - ord("a")
    if "A" <= cp <= "Z":
        return ord(cp) - ord("A")
    if "0" <= cp <= "9":
        return ord(cp) - ord("0") + 26
    return None


def code_point_for_digit(d: int) -> str:
    """§5, lower case."""
    return chr(ord("a") + d) if d < 26 else chr(ord("0") + d - 26)


# RFC 3492 6.1 Bias adaptation function
def adapt(delta: int, numpoints: int, firsttime: bool) -> int:
    # if firsttime then let delta = delta div damp
    # else let delta = delta div 2
    delta = delta // damp if firsttime else delta // 2
    # let delta = delta + (delta div numpoints)
    delta = delta + (delta // numpoints)
    # let k = 0
    k = 0
    # while delta > ((base - tmin) * tmax) div 2 do begin
    while delta > ((base - tmin) * tmax) // 2:
        # let delta = delta div (base - tmin)
        delta = delta // (base - tmin)
        # let k = k + base
        k = k + base
    # return k + (((base - tmin + 1) * delta) div (delta + skew))
    return k + (((base - tmin + 1) * delta) // (delta + skew))


def threshold(k: int, bias: int) -> int:
    # let t = tmin if k <= bias {+ tmin}, or
    #         tmax if k >= bias + tmax, or k - bias otherwise
    if k <= bias:
        return tmin
    if k >= bias + tmax:
        return tmax
    return k - bias


# RFC 3492 6.2 Decoding procedure
def decode(text: str) -> str:
    input_ = list(text)
    # let n = initial_n
    n = initial_n
    # let i = 0
    i = 0
    # let bias = initial_bias
    bias = initial_bias
    # let output = an empty string indexed from 0
    output: list[str] = []
    # consume all code points before the last delimiter (if there is one)
    #   and copy them to output, fail on any non-basic code point
    last = len(input_) - 1 - input_[::-1].index("-") if "-" in input_ else 0
    consumed = input_[:last]
    del input_[:last]
    for cp in consumed:
        if ord(cp) >= 0x80:
            raise Failure("non-basic code point before the last delimiter")
        output.append(cp)
    # if more than zero code points were consumed then consume one more
    #   (which will be the last delimiter)
    if len(consumed) > 0:
        del input_[0]
    # while the input is not exhausted do begin
    while input_:
        # let oldi = i
        oldi = i
        # let w = 1
        w = 1
        # for k = base to infinity in steps of base do begin
        k = base
        while True:
            # consume a code point, or fail if there was none to consume
            if not input_:
                raise Failure("no code point to consume")
            cp = input_.pop(0)
            # let digit = the code point's digit-value, fail if it has none
            digit = digit_value(cp)
            if digit is None:
                raise Failure("no digit-value")
            # let i = i + digit * w, fail on overflow
            i = i + digit * w
            if i > maxint:
                raise Failure("overflow")
            # let t = tmin if k <= bias {+ tmin}, or
            #         tmax if k >= bias + tmax, or k - bias otherwise
            t = threshold(k, bias)
            # if digit < t then break
            if digit < t:
                break
            # let w = w * (base - t), fail on overflow
            w = w * (base - t)
            if w > maxint:
                raise Failure("overflow")
            k = k + base
        # let bias = adapt(i - oldi, length(output) + 1, test oldi is 0?)
        bias = adapt(i - oldi, len(output) + 1, oldi == 0)
        # let n = n + i div (length(output) + 1), fail on overflow
        n = n + i // (len(output) + 1)
        if n > maxint:
            raise Failure("overflow")
        # let i = i mod (length(output) + 1)
        i = i % (len(output) + 1)
        # {if n is a basic code point then fail}
        # (urikit, not RFC 3492: a value that is not a Unicode scalar value fails)
        if n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
            raise Failure("not a scalar value")
        # insert n into output at position i
        output.insert(i, chr(n))
        # increment i
        i = i + 1
    return "".join(output)


# RFC 3492 6.3 Encoding procedure
def encode(text: str) -> str:
    input_ = [ord(c) for c in text]
    output: list[str] = []
    # let n = initial_n
    n = initial_n
    # let delta = 0
    delta = 0
    # let bias = initial_bias
    bias = initial_bias
    # let h = b = the number of basic code points in the input
    h = b = sum(1 for c in input_ if c < 0x80)
    # copy them to the output in order, followed by a delimiter if b > 0
    output.extend(chr(c) for c in input_ if c < 0x80)
    if b > 0:
        output.append("-")
    # {if the input contains a non-basic code point < n then fail}
    # while h < length(input) do begin
    while h < len(input_):
        # let m = the minimum {non-basic} code point >= n in the input
        m = min(c for c in input_ if c >= n)
        # let delta = delta + (m - n) * (h + 1), fail on overflow
        delta = delta + (m - n) * (h + 1)
        if delta > maxint:
            raise Failure("overflow")
        # let n = m
        n = m
        # for each code point c in the input (in order) do begin
        for c in input_:
            # if c < n {or c is basic} then increment delta, fail on overflow
            if c < n:
                delta = delta + 1
                if delta > maxint:
                    raise Failure("overflow")
            # if c == n then begin
            if c == n:
                # let q = delta
                q = delta
                # for k = base to infinity in steps of base do begin
                k = base
                while True:
                    # let t = tmin if k <= bias {+ tmin}, or
                    #         tmax if k >= bias + tmax, or k - bias otherwise
                    t = threshold(k, bias)
                    # if q < t then break
                    if q < t:
                        break
                    # output the code point for digit t + ((q - t) mod (base - t))
                    output.append(code_point_for_digit(t + ((q - t) % (base - t))))
                    # let q = (q - t) div (base - t)
                    q = (q - t) // (base - t)
                    k = k + base
                # output the code point for digit q
                output.append(code_point_for_digit(q))
                # let bias = adapt(delta, h + 1, test h equals b?)
                bias = adapt(delta, h + 1, h == b)
                # let delta = 0
                delta = 0
                # increment h
                h = h + 1
        # increment delta and n
        delta = delta + 1
        n = n + 1
    return "".join(output)
