"""``urikit audit``: the security considerations of RFC 3986 §7, for each input.

The human output shows each URI with its components in distinct colours, the
userinfo standing out (RFC 3986 §7.6 suggests "a different color or tone to
render userinfo"), passwords masked (§7.5) and invisible characters made
visible; the findings follow, one per line.
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from ..errors import URIError
from ..report import Report, Severity, printable
from ..security import audit
from ..uri import URI
from . import _stream

ORDER = 40

#: SGR parameters per component; the userinfo is reverse-coloured to stand out.
STYLES: Final = {
    "scheme": "36",
    "userinfo": "1;97;41",
    "host": "1;32",
    "port": "33",
    "path": "34",
    "query": "35",
    "fragment": "90",
    "delimiter": "2",
}
SEVERITY_STYLES: Final = {"info": "2", "low": "36", "medium": "33", "high": "1;31"}
_COMPONENTS: Final = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")
_MASK: Final = "***"
_FAIL_CHOICES: Final = ("info", "low", "medium", "high", "never")


def paint(text: str, style: str | None, color: bool) -> str:
    """``text`` in the SGR ``style`` when ``color`` is on."""
    if not color or not style or not text:
        return text
    return f"\x1b[{style}m{text}\x1b[0m"


def _pieces(text: str) -> list[tuple[int, int, str | None]]:
    """(start, end, component) for the whole text; delimiters between components."""
    try:
        uri = URI(text)
    except URIError:
        return [(0, len(text), None)]
    pieces: list[tuple[int, int, str | None]] = []
    at = 0
    for name in _COMPONENTS:
        span = uri.span(name)
        if span is None:
            continue
        start, end = span
        if start > at:
            pieces.append((at, start, "delimiter"))
        pieces.append((start, end, name))
        at = end
    if at < len(text):
        pieces.append((at, len(text), "delimiter"))
    return pieces


def _codes(text: str) -> str:
    return "".join(f"<U+{ord(ch):04X}>" for ch in text)


class _Shown:
    """Slices of one input as shown: :func:`printable`, and also as ``<U+XXXX>``
    the white space at either end of the input (so that the line that starts a
    record never starts with a space, which would make it read as a continuation
    line, and trailing spaces can be seen) and the line and paragraph separators
    (which some readers take for line ends).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lead = len(text) - len(text.lstrip())
        self.trail = len(text.rstrip())

    def __call__(self, start: int, end: int) -> str:
        middle_start = min(max(start, self.lead), end)
        middle_end = max(min(end, self.trail), middle_start)
        text = self.text
        middle = printable(text[middle_start:middle_end]).translate(_SEPARATORS)
        return _codes(text[start:middle_start]) + middle + _codes(text[middle_end:end])


_SEPARATORS: Final = {0x2028: "<U+2028>", 0x2029: "<U+2029>"}


def render(text: str, findings: list[Report], *, color: bool) -> str:
    """The input for display: coloured by component, passwords masked, invisibles shown."""
    masked = sorted(f.span for f in findings if f.code == "password")
    shown = _Shown(text)
    out: list[str] = []
    for start, end, name in _pieces(text):
        style = STYLES.get(name or "")
        at = start
        chunk: list[str] = []
        for m_start, m_end in masked:
            if m_start >= start and m_end <= end:
                chunk.append(shown(at, m_start) + _MASK)
                at = m_end
        chunk.append(shown(at, end))
        out.append(paint("".join(chunk), style, color))
    return "".join(out)


def _masked_text(text: str, findings: list[Report]) -> str:
    out, at = [], 0
    for start, end in sorted(f.span for f in findings if f.code == "password"):
        out.append(text[at:start] + _MASK)
        at = end
    out.append(text[at:])
    return "".join(out)


def _failing(findings: list[Report], fail_on: str) -> bool:
    return fail_on != "never" and any(f.severity >= Severity(fail_on) for f in findings)


def _human(text: str, fail_on: str, color: bool) -> tuple[bool, str]:
    findings = audit(text)
    lines = [render(text, findings, color=color)]
    if not findings:
        lines.append("  " + paint("no findings", "2", color))
    for f in findings:
        severity = paint(f"{f.severity.value:<6}", SEVERITY_STYLES[f.severity.value], color)
        where = f"{f.component or 'input'} {f.span[0]}-{f.span[1]}"
        lines.append(f"  {severity} {f.code}  ({where})  {printable(f.message)}")
    return not _failing(findings, fail_on), "\n".join(lines)


def _json(text: str, fail_on: str) -> tuple[bool, dict[str, Any]]:
    findings = audit(text)
    ok = not _failing(findings, fail_on)
    return ok, {
        "input": _masked_text(text, findings),
        "ok": ok,
        "findings": [f.to_dict() for f in findings],
    }


def _run(args: argparse.Namespace) -> int:
    items = _stream.inputs(args.uri)
    if args.json:
        return _stream.run_json(items, lambda text: _json(text, args.fail_on))
    color = _stream.use_color()
    return _stream.run(items, lambda text: _human(text, args.fail_on, color))


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit",
        help="report what in URIs deserves caution (RFC 3986 §7)",
        description="Audit each input for the security considerations of RFC 3986 §7: "
        "misleading userinfo, passwords, rare IPv4 formats, internal addresses, unusual "
        "ports, encoded controls and dot-segments, invalid UTF-8, mixed-script and "
        "obfuscated hosts, active-content schemes (javascript:, data: of HTML), and "
        "differences from urllib.parse and WHATWG parsers. Invalid inputs are audited too. "
        "The URI is shown with its components coloured (on a terminal, unless NO_COLOR is "
        "set), passwords masked, then one finding per line. Exits 1 when any finding is at "
        "or above --fail-on.",
    )
    _stream.add_inputs(parser, "URIs")
    _stream.add_json(parser)
    parser.add_argument(
        "--fail-on",
        default="info",
        choices=_FAIL_CHOICES,
        metavar="SEVERITY",
        help="exit 1 when a finding is at or above SEVERITY: info (the default: any "
        "finding), low, medium, high, or never",
    )
    parser.set_defaults(run=_run)
