"""Where and why a string fails the grammar.

The fast path of parsing is one regular expression (``grammar.py``).  When it
does not match, this module walks the same grammar by hand to find the
*longest viable prefix*: the first character that cannot belong to any valid
parse, following every alternative of RFC 3986 Appendix A (with or without a
scheme, with or without a userinfo) and keeping the one that gets farthest.
Every step scans forward only, so the walk is linear in the input.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import URIError
from .grammar import ALPHA, DIGIT, HEXDIG, SUB_DELIMS, UNRESERVED, Grammar

_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_SCHEME_RUN = re.compile(f"[{ALPHA}][{ALPHA}{DIGIT}+\\-.]*")
_PORT_RUN = re.compile(f"[{DIGIT}]*")
_FUTURE_RUN = re.compile(f"[{UNRESERVED}{SUB_DELIMS}:]*")
_HEX_RUN = re.compile(f"[{HEXDIG}]*")
_TRIPLET = re.compile(f"%[{HEXDIG}]{{2}}")


class Failure(NamedTuple):
    """A branch of the grammar that stopped at ``position``."""

    position: int
    rule: str
    reason: str


def _pick(*failures: Failure | None) -> Failure | None:
    """The farthest failure; ``None`` means some branch matched the whole input."""
    best: Failure | None = None
    for failure in failures:
        if failure is None:
            return None
        if best is None or failure.position > best.position:
            best = failure
    return best


class _Walker:
    """Walks one input against one grammar (URI or IRI)."""

    def __init__(self, text: str, grammar: Grammar) -> None:
        self.text = text
        self.n = len(text)
        self.g = grammar
        p = grammar.prefix
        self.p = p
        run = _runs(grammar)
        self.userinfo_run, self.reg_name_run, self.path_run = run[0], run[1], run[2]
        self.nc_run, self.query_run, self.fragment_run, self.zone_run = run[3:7]
        self.tail = "?#"

    # -- shared steps -------------------------------------------------------

    def scan(self, run: re.Pattern[str], i: int) -> int:
        m = run.match(self.text, i)
        return i if m is None else m.end()

    def bad_percent(self, j: int, rule: str) -> Failure | None:
        """If ``text[j]`` is a "%" that starts no pct-encoded (§2.1), say where it breaks."""
        text = self.text
        if j >= self.n or text[j] != "%" or _TRIPLET.match(text, j):
            return None
        k = j + 1
        if k < self.n and text[k] in _HEX:
            k += 1
        return Failure(k, rule, '"%" must be followed by two hex digits (pct-encoded, §2.1)')

    def finish(self, j: int, rule: str, allowed: str, *, pct: bool = True) -> Failure | None:
        """``text[j]`` stopped a run of ``rule``; go on with "?" or "#" if they may follow.

        ``pct`` says whether a pct-encoded could stand at ``j``.
        """
        if j == self.n:
            return None
        ch = self.text[j]
        bad = self.bad_percent(j, rule) if pct else None
        if bad is not None:
            return bad
        if ch == "?" and "?" in allowed:
            return self.query(j + 1)
        if ch == "#" and "#" in allowed:
            return self.fragment(j + 1)
        return Failure(j, rule, f"character not allowed in {rule} (RFC 3986 Appendix A)")

    # -- the top-level rules --------------------------------------------------

    def reference(self, *, scheme: bool | None, fragment: bool = True) -> Failure | None:
        """URI-reference (``scheme=None``), URI (True) or relative-ref (False); §4.1."""
        self.tail = "?#" if fragment else "?"
        with_scheme = self.absolute() if scheme in (None, True) else None
        relative = self.relative() if scheme in (None, False) else None
        if scheme is None:
            return _pick(relative, with_scheme)
        return with_scheme if scheme else relative

    def absolute(self) -> Failure | None:
        m = _SCHEME_RUN.match(self.text)
        if m is None:
            return Failure(0, "scheme", "a scheme must begin with a letter (§3.1)")
        i = m.end()
        if i == self.n or self.text[i] != ":":
            return Failure(i, "scheme", 'expected ":" after the scheme (§3.1)')
        return self.hier_part(i + 1, noscheme=False)

    def relative(self) -> Failure | None:
        return self.hier_part(0, noscheme=True)

    def hier_part(self, i: int, *, noscheme: bool) -> Failure | None:
        if self.text.startswith("//", i):
            return self.authority(i + 2)
        return self.path(i, noscheme=noscheme)

    def authority(self, i: int, *, path: bool = True) -> Failure | None:
        """authority = [ userinfo "@" ] host [ ":" port ]   (§3.2), then path-abempty."""
        j = self.scan(self.userinfo_run, i)
        if j < self.n and self.text[j] == "@":
            with_userinfo = self.host_port(j + 1, path=path)
        else:
            with_userinfo = self.bad_percent(j, self.p + "userinfo") or Failure(
                j, self.p + "userinfo", 'a userinfo must end with "@" (§3.2.1)'
            )
        without = self.host_port(i, path=path)
        best = _pick(without, with_userinfo)
        if (
            best is not None
            and without is not None
            and best is with_userinfo
            and without.position < best.position
        ):
            best = best._replace(
                reason=f"{best.reason}; read as host and port instead, position "
                f"{without.position} breaks {without.rule}: {without.reason}"
            )
        return best

    def host_port(self, i: int, *, path: bool = True) -> Failure | None:
        """host [ ":" port ], then path-abempty unless ``path`` is false (§3.2.2, §3.2.3)."""
        text, n = self.text, self.n
        j_or_failure = self.host(i)
        if isinstance(j_or_failure, Failure):
            return j_or_failure
        j = j_or_failure
        if j < n and text[j] == ":":
            j = self.scan(_PORT_RUN, j + 1)
            if j < n and (not path or text[j] not in "/?#"):
                return Failure(j, "port", "a port is decimal digits only (§3.2.3)")
        if not path:
            return (
                None
                if j == n
                else Failure(j, self.p + "authority", "not allowed in an authority (§3.2)")
            )
        return self.path_abempty(j)

    def host(self, i: int) -> int | Failure:
        """host = IP-literal / IPv4address / reg-name   (§3.2.2); return where it ends."""
        text, n = self.text, self.n
        if i < n and text[i] == "[":
            return self.ip_literal(i)
        j = self.scan(self.reg_name_run, i)
        if j < n and text[j] not in ":/?#":
            return self.bad_percent(j, self.p + "reg-name") or Failure(
                j, self.p + "host", "character not allowed in a host (§3.2.2)"
            )
        return j

    def ip_literal(self, i: int) -> int | Failure:
        """IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"   (§3.2.2, RFC 6874)."""
        text, n = self.text, self.n
        k = i + 1
        if k < n and text[k] in "vV":
            future = self.ipvfuture(k)
            if isinstance(future, Failure):
                return future
            k = future
        else:
            k, complete = ipv6_prefix(text, k)
            if complete and text.startswith("%", k):
                zone = self.zone(k)
                if isinstance(zone, Failure):
                    return zone
                k = zone
            elif not complete or k >= n or text[k] != "]":
                return Failure(k, "IPv6address", "not a valid IPv6 address (§3.2.2)")
        if k >= n or text[k] != "]":
            return Failure(k, "IP-literal", 'expected "]" to close the IP literal')
        return k + 1

    def zone(self, k: int) -> int | Failure:
        """``"%25" ZoneID`` after an IPv6address that ends at ``k`` (RFC 6874 §2)."""
        text, n = self.text, self.n
        if not text.startswith("%25", k):
            if k < n and text[k] == "%":
                k += 2 if text.startswith("%2", k) else 1
            return Failure(k, "IPv6addrz", 'a zone ID is introduced by "%25" (RFC 6874)')
        start = k + 3
        k = self.scan(self.zone_run, start)
        if k == start or (k < n and text[k] == "%"):
            return self.bad_percent(k, "ZoneID") or Failure(
                k, "ZoneID", "expected a zone ID (RFC 6874 §2)"
            )
        return k

    def ipvfuture(self, k: int) -> int | Failure:
        """IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ), from the "v"."""
        text, n = self.text, self.n
        start = k + 1
        k = self.scan(_HEX_RUN, start)
        if k == start:
            return Failure(k, "IPvFuture", 'expected a hexadecimal version after "v"')
        if k >= n or text[k] != ".":
            return Failure(k, "IPvFuture", 'expected "." after the version')
        start = k + 1
        k = self.scan(_FUTURE_RUN, start)
        if k == start:
            return Failure(k, "IPvFuture", "an IPvFuture address cannot be empty")
        return k

    # -- paths, query, fragment -------------------------------------------------

    def path_abempty(self, i: int) -> Failure | None:
        """path-abempty = *( "/" segment ): an empty one takes no "%" (§3.3)."""
        segments = i < self.n and self.text[i] == "/"
        if segments:
            i = self.scan(self.path_run, i)
        return self.finish(i, self.p + "path-abempty", self.tail, pct=segments)

    def path(self, i: int, *, noscheme: bool) -> Failure | None:
        text = self.text
        if noscheme and not text.startswith("/", i):
            j = self.scan(self.nc_run, i)
            if j < self.n and text[j] == ":":
                return Failure(
                    j,
                    self.p + "segment-nz-nc",
                    "a colon in the first segment of a relative-path reference reads as a scheme; "
                    'write "./" before the path (§4.2)',
                )
            i = j
        j = self.scan(self.path_run, i)
        return self.finish(j, self.p + "path", self.tail)

    def query(self, i: int) -> Failure | None:
        j = self.scan(self.query_run, i)
        return self.finish(j, self.p + "query", "#" if "#" in self.tail else "")

    def fragment(self, i: int) -> Failure | None:
        j = self.scan(self.fragment_run, i)
        return self.finish(j, self.p + "fragment", "")


def ipv6_prefix(text: str, i: int) -> tuple[int, bool]:
    """The longest viable IPv6address prefix of ``text`` from ``i`` (RFC 3986 §3.2.2).

    Returns the index of the first character that cannot continue an
    IPv6address, and whether ``text[i:that index]`` is a complete address.
    An address has eight 16-bit groups, or at most seven around one "::"; an
    IPv4address may stand for the last two groups.
    """
    n = len(text)
    groups = 0
    double = False
    k = i
    if text.startswith("::", k):
        double, k = True, k + 2
    elif k < n and text[k] == ":":
        return k + 1, False
    while True:
        if groups >= (7 if double else 8):
            # the "::" just read stands for the last group: nothing more may follow
            return k, True
        start = k
        while k < n and k - start < 4 and text[k] in _HEX:
            k += 1
        if k == start:
            return k, double and text.startswith("::", k - 2) and k - 2 >= i
        limit = 7 if double else 8
        if k < n and text[k] == ".":
            run = text[start:k]
            ls32_fits = groups + 2 <= limit if double else groups == 6
            if not ls32_fits or not _is_dec_octet(run):
                return k, False
            return ipv4_prefix(text, start)
        groups += 1
        if k < n and text[k] in _HEX:
            return k, False
        if k < n and text[k] == ":":
            if text.startswith("::", k):
                if double or groups > 7:
                    return (k + 1 if double else k), False
                double, k = True, k + 2
                continue
            if groups + 1 > limit:
                return k, False
            k += 1
            continue
        return k, (groups <= 7) if double else groups == 8


def _is_dec_octet(run: str) -> bool:
    return run.isdigit() and run.isascii() and (run == "0" or run[0] != "0") and int(run) <= 255


def ipv4_prefix(text: str, i: int) -> tuple[int, bool]:
    """The longest viable IPv4address prefix from ``i``, and whether it is complete (§3.2.2)."""
    n = len(text)
    k = i
    for octet in range(4):
        start = k
        if k >= n or text[k] not in _DIGITS:
            return k, False
        k += 1
        if text[start] != "0":
            while k < n and text[k] in _DIGITS and k - start < 3 and int(text[start : k + 1]) < 256:
                k += 1
        if octet == 3:
            return k, True
        if k >= n or text[k] != ".":
            return k, False
        k += 1
    raise AssertionError("unreachable")  # pragma: no cover


_RUN_CACHE: dict[int, tuple[re.Pattern[str], ...]] = {}


def _runs(g: Grammar) -> tuple[re.Pattern[str], ...]:
    runs = _RUN_CACHE.get(id(g))
    if runs is None:
        p = g.prefix
        runs = _RUN_CACHE[id(g)] = tuple(
            g.rule(name)
            for name in (
                p + "userinfo",
                p + "reg-name",
                p + "path",
                p + "segment-nz-nc",
                p + "query",
                p + "fragment",
                "ZoneID",
            )
        )
    return runs


_REFERENCE_RULES = {
    "reference": (None, True),
    "URI": (True, True),
    "absolute-URI": (True, False),
    "relative-ref": (False, True),
}


def locate(text: str, grammar: Grammar, rule: str) -> URIError:
    """The error for ``text``, which does not match ``rule`` of ``grammar``."""
    p = grammar.prefix
    word = "IRI" if grammar.iri else "URI"
    kind = {
        f"{word}-reference": "reference",
        word: "URI",
        f"absolute-{word}": "absolute-URI",
        f"{p}relative-ref": "relative-ref",
    }.get(rule)
    failure: Failure | None
    if kind is not None:
        scheme, fragment = _REFERENCE_RULES[kind]
        failure = _Walker(text, grammar).reference(scheme=scheme, fragment=fragment)
    else:
        failure = _component(text, grammar, rule)
    if failure is None:
        failure = Failure(len(text), rule, f"does not match {rule}")
    return URIError(failure.reason, text=text, position=failure.position, rule=failure.rule)


def _component(text: str, grammar: Grammar, rule: str) -> Failure | None:
    """The failure of a single ABNF rule other than the reference rules."""
    w = _Walker(text, grammar)
    w.tail = ""
    n = len(text)
    p = grammar.prefix
    end: int | Failure
    if rule in ("IPv6address", "IPv4address", "ls32"):
        end, complete = _address_prefix(text, rule)
        if end == n and not complete:
            return Failure(n, rule, f"incomplete {rule}")
    elif rule == "IPv6addrz":
        end = _ipv6addrz(w)
    elif rule == p + "host":
        end = w.host(0)
    elif rule == "IP-literal":
        end = w.ip_literal(0) if text[:1] == "[" else Failure(0, rule, 'expected "["')
    elif rule == "IPvFuture":
        end = w.ipvfuture(0) if text[:1] in ("v", "V") else Failure(0, rule, 'expected "v"')
    elif rule == p + "authority":
        return w.authority(0, path=False)
    elif rule in (p + "hier-part", p + "relative-part"):
        return w.hier_part(0, noscheme=rule.endswith("relative-part"))
    elif rule in ("dec-octet", "h16"):
        end = _octet(text) if rule == "dec-octet" else _h16_end(text, 0)
        if end == n and end == 0:
            return Failure(0, rule, f"incomplete {rule}")
    else:
        pattern = grammar.rule(rule)
        m = pattern.match(text)
        end = 0 if m is None else m.end()
        if end < n:
            reason = f"character not allowed in {rule}"
            # A "%" where a pct-encoded could stand, that starts no triplet (§2.1).
            if text[end] == "%" and pattern.fullmatch(text[:end] + "%41"):
                return w.bad_percent(end, rule) or Failure(end, rule, reason)
            return Failure(end, rule, reason)
    if isinstance(end, Failure):
        return end
    if end < n:
        return Failure(end, rule, f"character not allowed in {rule}")
    return None


def _h16_end(text: str, i: int) -> int:
    """Where the h16 (1*4HEXDIG) that may begin at ``i`` ends (§3.2.2)."""
    k = i
    while k < len(text) and k - i < 4 and text[k] in _HEX:
        k += 1
    return k


def _octet(text: str) -> int:
    """Where the longest viable dec-octet prefix of ``text`` ends (§3.2.2)."""
    if text[:1] not in _DIGITS:
        return 0
    k = 1
    if text[0] != "0":
        while k < min(len(text), 3) and text[k] in _DIGITS and int(text[: k + 1]) < 256:
            k += 1
    return k


def _address_prefix(text: str, rule: str) -> tuple[int, bool]:
    """The longest viable prefix of IPv6address, IPv4address or ls32, and if it is whole."""
    if rule == "IPv6address":
        return ipv6_prefix(text, 0)
    v4 = ipv4_prefix(text, 0)
    if rule == "IPv4address":
        return v4
    # ls32 = ( h16 ":" h16 ) / IPv4address
    k = _h16_end(text, 0)
    pair = (k, False)
    if k and text[k : k + 1] == ":":
        end = _h16_end(text, k + 1)
        pair = (end, end > k + 1)
    return max(pair, v4)


def _ipv6addrz(w: _Walker) -> int | Failure:
    """IPv6addrz = IPv6address "%25" ZoneID   (RFC 6874 §2)."""
    text, n = w.text, w.n
    k, complete = ipv6_prefix(text, 0)
    if not complete or k == n:
        return k if k < n else Failure(n, "IPv6addrz", "incomplete IPv6addrz")
    return w.zone(k)
