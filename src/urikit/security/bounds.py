"""What keeps :func:`urikit.audit` linear and its answer short on hostile text.

* **Findings per code.**  A check that can find something in every segment,
  label or run of a text stops making findings one by one after
  :data:`MAX_FINDINGS` of its code, and says in one more finding what it did not
  look at one by one; :func:`bound_findings` holds every code of an answer to
  the same bound, the rest of a code made one finding that counts them.
* **Long hosts.**  No resolver looks up a name longer than 253 characters
  (RFC 1035 §2.3.4; RFC 3986 §3.2.2 asks producers to keep names to 255), but
  the grammar sets no limit, and reading a host as browsers do (UTS #46 mapping,
  its labels' scripts, other parsers' readings) takes a step in Python per
  character or label.  A host longer than :data:`MAX_HOST` characters is read in
  part: :func:`host_cut` says which part of the text to leave out (all but its
  first :data:`MAX_HOST` characters), and the checks that read the host run on the
  text without it, their spans moved back by :func:`shifted`.  A host of ASCII
  letters, digits, hyphens, underscores and dots, without ``xn--``, is read
  whole by those checks (each a pass in C); others are the ``long-host`` finding.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final, NamedTuple

from ..report import Report, Severity
from .findings import Mapper, finding

__all__ = [
    "MAX_FINDINGS",
    "MAX_HOST",
    "Cut",
    "bound_findings",
    "host_cut",
    "long_host",
    "shifted",
]

#: At most this many findings of one code are made one by one.
MAX_FINDINGS: Final = 100
#: The characters of a host that the checks which read it as browsers do read.
MAX_HOST: Final = 1024


def bound_findings(findings: list[Report], limit: int = MAX_FINDINGS) -> list[Report]:
    """``findings`` (sorted by position) with at most ``limit`` of each code, and for
    a code with more, one finding more over the rest: from the first of them to the
    last, with the highest severity among them, saying how many it stands for."""
    counts = Counter(f.code for f in findings)
    if all(count <= limit + 1 for count in counts.values()):
        return findings
    seen: Counter[str] = Counter()
    kept: list[Report] = []
    rest: dict[str, list[Report]] = {}
    for report in findings:
        seen[report.code] += 1
        if seen[report.code] <= limit or counts[report.code] == limit + 1:
            kept.append(report)
        else:
            rest.setdefault(report.code, []).append(report)
    for code, reports in rest.items():
        first = reports[0]
        components = {f.component for f in reports}
        kept.append(
            Report(
                code,
                f"{len(reports)} more findings like the first {limit}, from the start of "
                f"this span to its end; the first of them: {first.message}",
                max(f.severity for f in reports),
                (first.span[0], max(f.span[1] for f in reports)),
                all(f.repaired for f in reports),
                components.pop() if len(components) == 1 else None,
            )
        )
    return sorted(kept, key=lambda f: (f.span, f.code))


class Cut(NamedTuple):
    """A long host: where it is in the text, the part of it left out, and whether it
    is plain (read whole by every check, and no finding)."""

    host: tuple[int, int]
    start: int
    end: int
    plain: bool


#: A host that every check reads in C: ASCII letters, digits, "-", "_" and ".", no "%".
_PLAIN: Final = re.compile(r"[A-Za-z0-9._\-]*")
_ACE: Final = re.compile("[Xx][Nn]--")


def host_cut(text: str, host: tuple[int, int]) -> Cut | None:
    """The :class:`Cut` of the host at ``host`` in ``text``, or None when it is not
    longer than :data:`MAX_HOST` characters.  The part left out begins after the first
    :data:`MAX_HOST` characters, not inside a percent-encoded triplet (§2.1)."""
    begin, end = host
    if end - begin <= MAX_HOST:
        return None
    start = begin + MAX_HOST
    for back in (1, 2):
        if text[start - back] == "%":
            start -= back  # the triplet is left out whole
            break
    plain = _PLAIN.fullmatch(text, begin, end) is not None and (
        text.find("--", begin, end) < 0 or _ACE.search(text, begin, end) is None
    )
    return Cut(host, start, end, plain)


def shifted(cut: Cut) -> Mapper:
    """Spans of the text without ``cut`` (``text[:cut.start] + text[cut.end:]``) as
    spans of the text; a span that reaches the cut goes across it."""
    width = cut.end - cut.start

    def move(span: tuple[int, int]) -> tuple[int, int]:
        start, end = span
        return (
            start if start < cut.start else start + width,
            end if end < cut.start or (end == start < cut.start) else end + width,
        )

    return move


def long_host(cut: Cut) -> Report:
    """The ``long-host`` finding of a host that the checks read in part."""
    begin, end = cut.host
    return finding(
        "long-host",
        f"the host is {end - begin} characters long, and no resolver looks up a name of "
        "more than 253 (RFC 1035 §2.3.4, RFC 3986 §3.2.2): only its first "
        f"{cut.start - begin} characters were read for homographs, mappings and other "
        "parsers' readings",
        Severity.MEDIUM,
        cut.host,
        "host",
    )
